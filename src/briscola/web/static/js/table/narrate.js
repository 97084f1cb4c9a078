// What the table's page says as the game goes (to a screen reader, through the page's live
// region) and the sounds it makes (with the sound preference on): the sentences the
// terminal says of the same events (the Narrator of words/narrate.py: the catalogue's
// tell.* entries, in the person that agrees with the seat: "you play...", "Ana plays..."),
// a card played, a trick taken (its points only at a table that shows them during the
// hand), the turned card drawn or exchanged, your own draw, a bid,
// a call, a partner revealed, partner talk; and whose turn it is.

import { cardName } from "../cards.js";
import { announce } from "../dom.js";
import { capital, t } from "../i18n.js";
import { prefs } from "../prefs.js";
import { bidWords, partnerOut, points, pointsHidden, say, suitOf, talkText } from "./words.js";

/** Say the events of an update that are said (`before`: the seat's view before them,
 * `after`: the one after, whose talk says which talk the whole table heard). */
export function tell(ctrl, events, before, after) {
  let tricks = before && before.tricks ? before.tricks.length : 0;
  let turned = before ? before.turned : null;
  let shown = false;
  const heard = talkHeard(events, after);
  events.forEach((e, i) => {
    let line = null;
    switch (e.type) {
      case "hand_started":
        tricks = 0;
        turned = null;
        shown = false;
        break;
      case "trump_turned":
        turned = e.card;
        break;
      case "card_played":
        line = say(ctrl, "tell.played", e.seat, { card: cardName(e.card) });
        if (prefs.sound) beep(440);
        break;
      case "trick_won":
        tricks += 1;
        // its points only where the table shows them during the hand (`points: shown`)
        line = pointsHidden(ctrl) ? say(ctrl, "tell.took_no_points", e.winner, { trick: tricks }) : say(ctrl, "tell.took", e.winner, { trick: tricks, points: points(e.points) });
        break;
      case "trump_exchanged":
        turned = e.given;
        line = say(ctrl, "tell.exchanged", e.seat, { given: cardName(e.given), taken: cardName(e.taken) });
        break;
      case "card_drawn":
        if (!e.card) break;
        if (e.card === turned) {
          turned = null;
          line = say(ctrl, "tell.drew_turned", e.seat, { card: cardName(e.card) });
        } else if (ctrl.view && e.seat === ctrl.view.seat) {
          line = say(ctrl, "tell.drew", e.seat, { card: cardName(e.card) });
        }
        break;
      case "hand_shown":
        if (!shown) line = t("tell.shown");
        shown = true;
        break;
      case "talk":
        if (e.kind !== "done") line = talkText(ctrl, e, heard.get(i));
        break;
      case "bid_made":
        line = e.bid === "pass" ? say(ctrl, "tell.passed", e.seat) : say(ctrl, "tell.bid", e.seat, { bid: bidWords(e.bid) });
        break;
      case "auction_ended":
        line = e.caller === null || e.caller === undefined ? t("tell.all_passed") : say(ctrl, "tell.auction_won", e.caller, { bid: bidWords(e.bid) });
        break;
      case "card_called":
        line = say(ctrl, "tell.called", e.seat, { card: cardName(e.card), suit: suitOf(e.card) });
        break;
      case "partner_revealed":
        line = partnerOut(ctrl, e);
        break;
      case "thrown_in":
        line = say(ctrl, "tell.thrown_in", e.seat, { cards: e.cards.map((c) => cardName(c)).join(", ") });
        break;
      default:
        break;
    }
    if (line) announce(capital(line));
  });
}

/** Whether the whole table heard each talk event (by its index): as the event says, or as
 * the view after the update says of its last talk, which these events are. */
function talkHeard(events, view) {
  const talks = events.map((e, i) => (e.type === "talk" ? i : -1)).filter((i) => i >= 0);
  const out = new Map(talks.filter((i) => "public" in events[i]).map((i) => [i, Boolean(events[i].public)]));
  const seen = (view && view.talk) || [];
  const missing = talks.filter((i) => !out.has(i));
  if (missing.length && seen.length >= missing.length) {
    const last = seen.slice(seen.length - missing.length);
    missing.forEach((i, k) => out.set(i, Boolean(last[k].public)));
  }
  return out;
}

/** Say whose turn it is now (view `v`): yours, with a sound, or another seat's. */
export function tellTurn(ctrl, v) {
  const mine = v.legal && v.legal.length > 0;
  announce(capital(say(ctrl, "table.turn_of", v.to_act)));
  if (mine && prefs.sound) beep(660);
}

let audio = null;
function beep(freq) {
  try {
    audio ||= new AudioContext();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = freq;
    g.gain.value = 0.05;
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.08);
  } catch {
    // no sound here
  }
}
