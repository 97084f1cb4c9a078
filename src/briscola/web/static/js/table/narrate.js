// What the table's page says as the game goes (to a screen reader, through the page's live
// region) and the sounds it makes (with the sound preference on): a card played, a trick
// taken, a partner revealed, a call, a bid, partner talk, and whose turn it is.

import { cardName } from "../cards.js";
import { announce } from "../dom.js";
import { t } from "../i18n.js";
import { prefs } from "../prefs.js";
import { bidName, seatName, talkWord } from "./words.js";

/** Say event `e` of an update, if it is one that is said. */
export function tell(ctrl, e) {
  const who = (seat) => seatName(ctrl, seat);
  switch (e.type) {
    case "card_played":
      announce(t("live.played", { who: who(e.seat), card: cardName(e.card) }));
      if (prefs.sound) beep(440);
      break;
    case "trick_won":
      announce(t("live.took", { who: who(e.winner), points: e.points }));
      break;
    case "partner_revealed":
      announce(e.partner === e.caller ? t("finish.alone") : t("live.partner", { caller: who(e.caller), partner: who(e.partner) }));
      break;
    case "card_called":
      announce(t("live.called", { who: who(e.seat), card: cardName(e.card) }));
      break;
    case "bid_made":
      announce(t("live.bid", { who: who(e.seat), bid: bidName(e.bid) }));
      break;
    case "talk":
      announce(t("live.talk", { who: who(e.seat), what: `${t(`talk.${e.kind}`)} ${talkWord(e.kind, String(e.what))}`.trim() }));
      break;
    default:
      break;
  }
}

/** Say whose turn it is now (view `v`): yours, with a sound, or another seat's. */
export function tellTurn(ctrl, v) {
  const mine = v.legal && v.legal.length > 0;
  announce(mine ? t("live.your_turn") : t("live.turn_of", { who: seatName(ctrl, v.to_act) }));
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
