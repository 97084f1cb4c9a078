// The table's words in the chosen language, the same sentences the terminal says (the
// catalogue's tell.*, menu.*, view.* entries): seats (you, a computer player, a nickname),
// a sentence about seats in the person that agrees with them (say(): yours, another's,
// several), the legal actions as buttons say them, bids, partner talk and its
// answers. As words/seating.py's Seating, but the other seats are named as the page
// shows them (nicknames, a computer player's first name: "Giulia"), not by where they sit.

import { cardName, suitName } from "../cards.js";
import { capital, joined, personName, t, word } from "../i18n.js";
import { answerWords, bidWords, talkWord } from "../talk.js";

export { bidWords };

/** The reader's seat: null for someone watching. */
function mine(ctrl) {
  return ctrl.view && ctrl.view.seat !== undefined ? ctrl.view.seat : null;
}

/** A seat's name: "you" (`seat.you`, with the forms the language gives it: `{to:dat}`) for
 * the reader's own; a nickname, a computer player's first name (the server's, of the
 * table's language: its level is a badge, never in its name) or an open seat, numbered
 * from 1. Never put into a sentence about a third person: say() chooses the sentence's
 * form for it. */
export function seatName(ctrl, seat) {
  if (seat === null || seat === undefined) return "?";
  const s = ctrl.table && ctrl.table.seats[seat];
  if (seat === mine(ctrl)) return word("seat.you");
  if (!s) return t("table.seat_n", { n: seat + 1 });
  if (s.kind === "bot") return s.name || t("table.seat_n", { n: seat + 1 });
  if (s.kind === "open") return t("table.seat_n", { n: seat + 1 });
  return personName(s.nickname);
}

export { joined }; // "a, b and c" (i18n.js's)

/** Which form of a sentence fits `seats` (Seating.form): `you` (the reader alone),
 * `other` (one other seat), `with_you` (several, the reader among them), `group`. */
export function personForm(ctrl, seats) {
  const me = mine(ctrl);
  if (seats.length === 1) return seats[0] === me ? "you" : "other";
  return seats.includes(me) ? "with_you" : "group";
}

/** Several seats, named: the others, then you ("Ana and you"). */
export function groupName(ctrl, seats) {
  const me = mine(ctrl);
  const names = seats.filter((s) => s !== me).map((s) => seatName(ctrl, s));
  if (seats.includes(me)) names.push(seatName(ctrl, me));
  return joined(names);
}

/** The sentence `key` about `seats` (a seat, or several): `{who}` is their name, and the
 * form is the one that agrees with them, as Voice.say chooses it (words/seating.py).
 * `addressed`: the seat the sentence is said to, or of whose cards; when it is the
 * reader's, another seat's sentence takes the form `to_you` where the key has one
 * ("Norte te pregunta"). */
export function say(ctrl, key, seats, params = {}, addressed = null) {
  const group = Array.isArray(seats) ? seats : [seats];
  let form = personForm(ctrl, group);
  if (form === "other" && addressed !== null && addressed !== undefined && addressed === mine(ctrl)) form = "to_you";
  return t(key, { ...params, form, who: groupName(ctrl, group) });
}

/** A computer player said whole, for a seat's accessible label and the waiting room: its
 * name with what it is and its level ("Giulia, computer player, intermediate"). */
export function botLabel(seat) {
  return t("table.bot_label", { name: seat.name || "?", level: t(`level.${seat.level}`) });
}

/** A seat's name as a label of its own (under a card, before a figure): yours with a
 * capital ("You", "Tu"), the others' as they are. */
export function seatLabel(ctrl, seat) {
  return seat === mine(ctrl) ? capital(seatName(ctrl, seat)) : seatName(ctrl, seat);
}

/** Whether the table keeps the points hidden during a hand (`points: hidden`): no figure
 * of points is shown until the hand's end. */
export function pointsHidden(ctrl) {
  return Boolean(ctrl.table && ctrl.table.points === "hidden");
}

/** A number of points, agreeing ("1 point", "3 boda", "5 bodova"). */
export function points(n) {
  return t("count.points", { n: Number(n) });
}

/** A legal action as its button says it: the terminal's menu (`menu.*`, describe_action in
 * words/narrate.py), its first letter a capital. */
export function actionLabel(ctrl, a) {
  return capital(menuText(ctrl, a));
}

function menuText(ctrl, a) {
  if ("play" in a) return t("menu.play", { card: cardName(a.play) });
  if ("exchange" in a) return t("menu.exchange", { card: cardName(a.exchange) });
  if ("signal" in a) return t("menu.signal", { what: talkWord("signal", a.signal) });
  if ("ask" in a) return t("menu.ask", { to: seatName(ctrl, a.to), what: talkWord("ask", a.ask) });
  if ("order" in a) return t("menu.order", { to: seatName(ctrl, a.to), what: talkWord("order", a.order) });
  if ("look" in a) return t("menu.look", { to: seatName(ctrl, a.look) });
  if ("talk" in a) return t("menu.talk_done");
  if ("bid" in a) return a.bid === "pass" ? t("menu.pass") : t("menu.bid", { bid: bidWords(a.bid) });
  if ("call" in a) return t("menu.call", { card: cardName(a.call) });
  return JSON.stringify(a);
}

/** Who the caller's partner is, as far as this seat knows (the view says it once the
 * called card is played, and to the partner from the call): alone, you, or that seat
 * (describe_view in words/narrate.py). */
export function partnerText(ctrl, a) {
  if (a.partner === a.caller) return capital(say(ctrl, "tell.alone", a.caller));
  if (a.partner === mine(ctrl)) return capital(t("view.you_partner"));
  return capital(t("view.partner_is", { who: seatName(ctrl, a.partner) }));
}

/** The called card revealed: who is whose partner (describe_partner in words/narrate.py). */
export function partnerOut(ctrl, e) {
  const { caller, partner } = e;
  let who;
  if (partner === caller) who = say(ctrl, "tell.alone", caller);
  else if (partner === mine(ctrl)) who = t("tell.you_partner", { caller: seatName(ctrl, caller) });
  else if (caller === mine(ctrl)) who = t("tell.your_partner", { partner: seatName(ctrl, partner) });
  else who = t("tell.partner_of", { partner: seatName(ctrl, partner), caller: seatName(ctrl, caller) });
  return t("tell.partner_out", { who });
}

/** A talk of the view or the stream in words (describe_talk in words/narrate.py): "Ana
 * signals: ...", "you ask Bea: ...? Bea: yes"; `public`: whether the whole table heard it
 * (a signal says so). */
export function talkText(ctrl, x, isPublic = Boolean(x.public)) {
  const to = x.to !== undefined && x.to !== null ? seatName(ctrl, x.to) : "?";
  if (x.kind === "signal") return say(ctrl, isPublic ? "tell.signal_public" : "tell.signal", x.seat, { what: talkWord("signal", x.what) });
  if (x.kind === "ask") {
    const answer = x.answer !== undefined && x.answer !== null ? answerWords(x.answer) : "?";
    return say(ctrl, "tell.asked", x.seat, { to, To: capital(to), question: talkWord("ask", x.what), answer }, x.to);
  }
  if (x.kind === "order") return say(ctrl, "tell.ordered", x.seat, { to, order: talkWord("order", x.what) }, x.to);
  if (x.kind === "done") return say(ctrl, "tell.talk_done", x.seat);
  return say(ctrl, "tell.looked", x.seat, { to }, x.to);
}

/** The suit of a card, alone ("coppe"), for `tell.called`. */
export function suitOf(card) {
  return suitName(card[1]);
}
