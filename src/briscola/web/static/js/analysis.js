// A finished hand's analysis as the end screen and the replay show it (docs/analysis.md):
// each seat's points lost, accuracy and costliest cards; each card's mark, as chess
// writes it; and the choices a seat had, with what each was worth.

import { cardName } from "./cards.js";
import { h } from "./dom.js";
import { capital, language, t } from "./i18n.js";
import { bidWords, talkWord } from "./talk.js";

export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** The texts of a decision made at the auction (a bid, a pass, the call) or in talk before
 * the hand's first card, by the ending of their keys: not "at trick 1". */
const WHEN = { auction: "_auction", before_play: "_before" };

/** Whether a decision was made before the hand's first card (at the auction, or in talk
 * before it): the replay lists it at the deal. */
export function beforePlay(d) {
  return d.when === "auction" || d.when === "before_play";
}

/** `x` with one decimal, as the language writes numbers. */
export function num(x) {
  return Number(x).toLocaleString(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** A choice (an action as the records write it) in words: its card, the exchange, or a
 * talk, bid or call as its button says it (`nameOf(seat)` names the partner addressed). */
export function actionName(a, nameOf = String) {
  if (a.play) return String(cardName(a.play));
  if (a.exchange) return t("analysis.exchange", { card: String(cardName(a.exchange)) });
  if ("signal" in a) return t("menu.signal", { what: talkWord("signal", a.signal) });
  if ("ask" in a) return t("menu.ask", { to: nameOf(a.to), what: talkWord("ask", a.ask) });
  if ("order" in a) return t("menu.order", { to: nameOf(a.to), what: talkWord("order", a.order) });
  if ("look" in a) return t("menu.look", { to: nameOf(a.look) });
  if ("talk" in a) return t("menu.talk_done");
  if ("bid" in a) return a.bid === "pass" ? t("menu.pass") : t("menu.bid", { bid: bidWords(a.bid) });
  if ("call" in a) return t("menu.call", { card: String(cardName(a.call)) });
  return "?";
}

/** A choice of a decision in words: at a talk, bid or call, saying nothing more (a card
 * play) as "play" and the card. */
function choiceName(d, a, nameOf) {
  if (a.play && !d.played.play) return t("menu.play", { card: String(cardName(a.play)) });
  return actionName(a, nameOf);
}

/** Whether two actions, as the records write them, are the same choice. */
export function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A hint (the server's, docs/protocol.md) in words: the strong player's choice
 * (`sentence`); what it plays for, with that choice's figures, each named (`why`); and
 * each choice with its figures (`choices`: `{text, star}`, the star on the hint's own
 * choice, the one the sentence names). `nameOf(seat)` names a seat. At a table that keeps
 * the points hidden during a hand (`hidden`), no figure of points: the chance alone, or,
 * where it plays for points, the choices by name. */
export function hintWords(b, nameOf = String, hidden = false) {
  const win = b.aim !== "points";
  const figures = (c) => ({ chance: c.win_percent, worth: num(c.expected_points) });
  const s = b.suggested;
  const its = b.choices.find((c) => same(c.action, s));
  const sentence = s.exchange
    ? t("hint.suggested_exchange", { choice: cardName(s.exchange) })
    : t("hint.suggested", { choice: s.play ? cardName(s.play) : actionName(s, nameOf) });
  const only = hidden ? "_only" : "";
  const why = its ? t(win ? `hint.win${only}` : `hint.points${only}`, figures(its)) : "";
  const choice = (c) => actionName(c.action, nameOf);
  const choices = b.choices.map((c) => ({
    text: hidden && !win ? choice(c) : t(win ? `hint.choice_win${only}` : "hint.choice_points", { choice: choice(c), ...figures(c) }),
    star: same(c.action, s),
  }));
  return { sentence, why, choices };
}

/** The seat's costliest decisions, as its summary names them (`s.costliest`). */
function costliest(body, s) {
  return s.costliest.map((m) => body.decisions.find((d) => d.move_number === m));
}

/** Each seat's line: points lost, accuracy and its two costliest cards (`nameOf(seat)`). */
export function seatLines(body, nameOf) {
  return h(
    "ul",
    { class: "list analysis-seats", id: "analysis-seats" },
    body.seats.map((s) => {
      const worst = costliest(body, s);
      const name = capital(String(nameOf(s.seat)));
      return h(
        "li",
        { "data-seat": s.seat },
        h("span", { text: t("analysis.seat", { name, lost: num(s.total_loss), accuracy: num(s.accuracy) }) }),
        worst.length
          ? h("span", {
              class: "costliest",
              text: ` · ${worst.map((d) => t(`analysis.costliest${WHEN[d.when] || ""}`, { card: actionName(d.played, nameOf), trick: d.trick, lost: num(d.loss) })).join(", ")}`,
            })
          : null,
      );
    }),
  );
}

/** The decision that played `card` at trick `trick` from `seat`, if analysed. */
export function decisionOf(body, trick, seat, card) {
  return body.decisions.find((d) => d.trick === trick && d.seat === seat && d.played.play === card) || null;
}

/** A card's mark: its label's sign (`?!`, `?`, `??`) with the label and the points lost
 * said in words; none for a best or forced card. */
export function markEl(d) {
  if (!d || !MARKS[d.label]) return null;
  const said = t("analysis.marked", { label: t(`analysis.label.${d.label}`), lost: num(d.loss) });
  return h("span", { class: `mark ${d.label}`, title: said, "aria-label": said, text: MARKS[d.label] });
}

/** A decision in a sentence, with the choices the seat had then and their values, the
 * one of most value starred (a choice marked best lost less than the search's noise);
 * `nameOf(seat)` names the seats. */
export function decisionLine(d, nameOf) {
  const choices = d.choices
    .filter((c) => c.expected_points !== null)
    .map((c) => `${choiceName(d, c.action, nameOf)} ${num(c.expected_points)}${same(c.action, d.best) ? ` ★ ${t("analysis.top")}` : ""}`);
  return h(
    "li",
    { class: `analysis-decision ${d.label}`, "data-seat": d.seat },
    beforePlay(d) ? `${t(d.when === "auction" ? "analysis.at_auction" : "analysis.at_before")}: ` : "",
    h("b", { text: `${beforePlay(d) ? String(nameOf(d.seat)) : capital(String(nameOf(d.seat)))}, ${actionName(d.played, nameOf)}: ` }),
    t(`analysis.label.${d.label}`),
    MARKS[d.label] ? ` (−${num(d.loss)})` : "",
    choices.length ? h("span", { class: "help", text: ` · ${t("analysis.choices", { list: choices.join(" · ") })}` }) : null,
  );
}
