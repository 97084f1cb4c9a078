// The game's words for talk and bids, as the terminal says them (words/narrate.py): a
// signal, a question or an order, a question's answer, a chiamata bid. Shared by the
// table page and the analysis (the replay, the end screen).

import { deck, rankLetter, rankName } from "./cards.js";
import { joined, t, word } from "./i18n.js";

/** A rank's code, as a chiamata bid is sent ("K", "6"). */
const RANK = /^[A2-9TJQK]$/;

/** A chiamata bid in words, with its grammatical forms, as the terminal says it
 * (describe_bid in words/narrate.py): a rank by its name in the deck's style and the
 * letter its card shows (`bid.rank`: "re (R)"; Croatian `{bid:acc}` "kralja (R)"), a bid
 * in points after a 2 (a number, or "2 at 75") by `bid.points`, counted for its plural. */
export function bidWords(bid) {
  if (bid === null || bid === undefined) return "";
  if (typeof bid === "number") return word("bid.points", { n: bid });
  if (RANK.test(bid)) return word("bid.rank", { rank: rankName(bid), code: rankLetter(bid) });
  const m = /^2 at (\d+)$/.exec(bid);
  if (m) return word("bid.points", { n: Number(m[1]) });
  return String(bid);
}

/** A signal, question or order in the terminal's words (talk_words in words/narrate.py:
 * `signal.*`, `question.*`, `order.*`; the 32-card deck's own where it has them); a word
 * the catalogue lacks as it came. */
export function talkWord(kind, what) {
  const family = kind === "ask" ? "question" : kind;
  if (deck() === "french-32" && has(`${family}.french.${what}`)) return t(`${family}.french.${what}`);
  return has(`${family}.${what}`) ? t(`${family}.${what}`) : String(what);
}

function has(key) {
  return t(key) !== key;
}

/** A question's answer in the language ("sì"; "briscoline e vestite": both kinds of
 * trumps). */
export function answerWords(answer) {
  return joined(
    String(answer)
      .split(" ")
      .map((w) => (has(`talkword.answer.${w}`) ? t(`talkword.answer.${w}`) : w)),
  );
}
