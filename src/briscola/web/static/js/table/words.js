// The table's words in the chosen language: seats (you, a computer player, a nickname),
// sides, the legal actions as buttons say them, bids, partner talk and its answers.

import { cardName, rankName } from "../cards.js";
import { t } from "../i18n.js";

export function seatName(ctrl, seat) {
  if (seat === null || seat === undefined) return "?";
  const s = ctrl.table && ctrl.table.seats[seat];
  if (ctrl.view && seat === ctrl.view.seat) return t("table.you");
  if (!s) return t("table.seat_n", { n: seat + 1 });
  if (s.kind === "bot") return t("table.bot", { n: seat + 1, level: t(`level.${s.level}`) });
  if (s.kind === "open") return t("table.seat_n", { n: seat + 1 });
  return s.nickname;
}

export function sideName(ctrl, i, sides) {
  return sides[i].map((s) => seatName(ctrl, s)).join(" + ");
}

export function actionLabel(ctrl, a) {
  if ("play" in a) return t("act.play", { card: cardName(a.play) });
  if ("exchange" in a) return t("act.exchange", { card: cardName(a.exchange), turned: cardName(ctrl.view.turned) });
  if ("signal" in a) return t("act.signal", { what: talkWord("signal", a.signal) });
  if ("ask" in a) return t("act.ask", { what: talkWord("ask", a.ask), to: seatName(ctrl, a.to) });
  if ("order" in a) return t("act.order", { what: talkWord("order", a.order), to: seatName(ctrl, a.to) });
  if ("look" in a) return t("act.look", { who: seatName(ctrl, a.look) });
  if ("talk" in a) return t("act.talk_done");
  if ("bid" in a) return a.bid === "pass" ? t("act.pass") : t("act.bid", { bid: bidName(a.bid) });
  if ("call" in a) return t("act.call", { card: cardName(a.call) });
  return JSON.stringify(a);
}

/** Who the caller's partner is, as far as this seat knows (the view says it once the
 * called card is played, and to the partner from the call): alone, you, or that seat. */
export function partnerText(ctrl, a) {
  if (a.partner === a.caller) return t("finish.alone");
  if (ctrl.view && a.partner === ctrl.view.seat) return t("finish.you_partner");
  return t("table.partner", { who: seatName(ctrl, a.partner) });
}

/** A chiamata bid as players say it: a rank by its name in the deck's style ("cavallo"),
 * a bid in points (after a 2) by its number. */
export function bidName(bid) {
  return typeof bid === "string" ? rankName(bid) : String(bid);
}

const HONOURS = { ace: "A", three: "3", king: "K", queen: "Q", jack: "J" };

/** A signal, question or order in the language: the honours by their rank's name in the
 * deck's style ("cavallo di briscola"); a rais's look and end of talk need no word (the
 * seat looked at follows); a word the strings lack as it came. */
export function talkWord(kind, what) {
  if (kind === "done" || kind === "look") return ""; // "has finished"; "looks" → the seat shown after
  if (kind === "signal" && HONOURS[what]) return t("talkword.signal.honour", { rank: rankName(HONOURS[what]) });
  const key = `talkword.${kind}.${what}`;
  const said = t(key);
  return said === key ? what : said;
}

/** A question's answer in the language ("briscoline vestite": both kinds of trumps). */
export function answerWords(answer) {
  return answer
    .split(" ")
    .map((w) => {
      const key = `talkword.answer.${w}`;
      const said = t(key);
      return said === key ? w : said;
    })
    .join(" + ");
}
