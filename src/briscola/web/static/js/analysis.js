// A finished hand's analysis as the end screen and the replay show it (docs/analysis.md):
// each seat's points lost, accuracy and costliest cards; each card's mark, as chess
// writes it; and the choices a seat had, with what each was worth.

import { cardName } from "./cards.js";
import { h } from "./dom.js";
import { capital, language, t } from "./i18n.js";

export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** `x` with one decimal, as the language writes numbers. */
export function num(x) {
  return Number(x).toLocaleString(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** A choice (an action as the records write it): its card, or the exchange. */
export function actionName(a) {
  if (a.play) return String(cardName(a.play));
  if (a.exchange) return t("analysis.exchange", { card: String(cardName(a.exchange)) });
  return "?";
}

function same(a, b) {
  return a.play === b.play && a.exchange === b.exchange;
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
              text: ` · ${worst.map((d) => t("analysis.costliest", { card: actionName(d.played), trick: d.trick, lost: num(d.loss) })).join(", ")}`,
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
 * one of most value starred (a choice marked best lost less than the search's noise). */
export function decisionLine(d, name) {
  const choices = d.choices
    .filter((c) => c.expected_points !== null)
    .map((c) => `${actionName(c.action)} ${num(c.expected_points)}${same(c.action, d.best) ? ` ★ ${t("analysis.top")}` : ""}`);
  return h(
    "li",
    { class: `analysis-decision ${d.label}`, "data-seat": d.seat },
    h("b", { text: `${capital(String(name))}, ${actionName(d.played)}: ` }),
    t(`analysis.label.${d.label}`),
    MARKS[d.label] ? ` (−${num(d.loss)})` : "",
    choices.length ? h("span", { class: "help", text: ` · ${t("analysis.choices", { list: choices.join(" · ") })}` }) : null,
  );
}
