// The status line above every screen of a table: the game's name, the hand, the match's
// score (each side's hands won, named; chiamata's score of each seat), whose turn it is
// and the clock, the rules in words (shown on asking), a lost connection, and the last
// notice (a move refused, dropped or queued).

import { fill, h } from "../../dom.js";
import { capital, t } from "../../i18n.js";
import { rulesPanel } from "../../rules.js";
import { matchBySide, matchScores } from "../sides.js";
import { say } from "../words.js";
import { setClockRing } from "./play.js";

export function drawStatus(ui) {
  const ctrl = ui.ctrl;
  const tb = ctrl.table;
  if (!ui.parts || !ui.parts.status || !tb) return;
  const v = ctrl.view;
  const bits = [h("h1", { class: "game-name", text: tb.name })];
  if (v && tb.status === "playing") {
    bits.push(h("span", { class: "hand-no", text: t("table.hand_no", { n: v.hand_number }) }));
    const m = v.match;
    const scores = matchScores(ctrl, m);
    if (scores) bits.push(h("span", { class: "match", text: scores }));
    else if (m && m.hands_won) bits.push(h("span", { class: "match", text: t("table.match_score", { score: matchBySide(ctrl, m.hands_won) }) }));
    const turn = v.to_act === null || v.to_act === undefined || ctrl.holding() ? "" : capital(say(ctrl, "table.turn_of", v.to_act));
    bits.push(h("strong", { class: "turn", id: "turn", text: turn }));
    bits.push(h("span", { class: "clock", id: "clock" }));
  }
  bits.push(
    h("button", { type: "button", class: "link", id: "rules-button", "aria-expanded": String(!!ui.rulesShown), "aria-controls": "rules-text", onclick: () => toggleRules(ui), text: t("table.rules") }),
  );
  if (ctrl.reconnecting) bits.push(h("span", { class: "offline", role: "alert", text: t("table.reconnecting") }));
  if (ctrl.notice) bits.push(h("p", { class: "notice", role: "alert", id: "notice", text: ctrl.notice }));
  bits.push(h("div", { id: "rules-text", class: "rules-text", hidden: !ui.rulesShown }, ui.rulesContent || ""));
  fill(ui.parts.status, bits);
  drawClock(ui);
}

/** The seconds left to the seat to act, when the table has a clock, in the status line and
 * as the ring round its seat. */
export function drawClock(ui) {
  const el = document.getElementById("clock");
  if (!el) return;
  const left = ui.ctrl.secondsLeft();
  el.textContent = left === null ? "" : t("table.clock", { s: left });
  const ring = document.querySelector('.seat.to-act [data-role="clock"]');
  const share = ui.ctrl.clockLeft();
  if (ring && share !== null) setClockRing(ring, share);
}

async function toggleRules(ui) {
  ui.rulesShown = !ui.rulesShown;
  if (ui.rulesShown && !ui.rulesContent) ui.rulesContent = await rulesPanel(ui.ctrl.rulesText());
  drawStatus(ui);
}
