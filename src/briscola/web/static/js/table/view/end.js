// The end of a hand, and of the match: each side's points and the carichi it took (as the
// server counted them), the points after each trick as a chart, the match's score, the
// fair-shuffle proof of the hand with its check, and the way on (the next hand; at the
// match's end the rematch, the record and home).

import { cardName } from "../../cards.js";
import { pointsChart } from "../../chart.js";
import { fill, h, refocus } from "../../dom.js";
import { t } from "../../i18n.js";
import { seatLines } from "../../analysis.js";
import { matchBySide, matchScores, sideName, sideTag } from "../sides.js";
import { seatName } from "../words.js";

export function drawEnd(ui) {
  const ctrl = ui.ctrl;
  const tb = ctrl.table;
  const e = ctrl.ended;
  const v = ctrl.view;
  const bits = [];
  const over = tb.status === "finished" || Boolean(e && e.match) || Boolean(v && v.match && v.match.over);
  bits.push(h("h2", { id: "end-title", text: over ? t("end.match_over") : t("end.hand_over", { n: e ? e.hand : "" }) }));
  if (e && e.sides.length) {
    const won = (side) => side.some((s) => (e.winners || []).includes(s));
    bits.push(
      h(
        "table",
        { class: "scores", id: "hand-points" },
        h("thead", {}, h("tr", {}, h("th", { text: t("end.side") }), h("th", { text: t("end.points") }), h("th", { text: t("end.carichi") }))),
        h(
          "tbody",
          {},
          e.sides.map((side, i) =>
            h(
              "tr",
              { class: won(side) ? "won" : "" },
              h("td", {}, sideTag(ctrl, i, e.sides, "end", e.auction), won(side) ? ` ★ ${t("end.won")}` : null),
              h("td", { text: String(e.points ? e.points[i] : "") }),
              h("td", {}, e.carichi[i].length ? e.carichi[i].map((c) => cardName(c)).join(", ") : "—"),
            ),
          ),
        ),
      ),
    );
    if (e.series.some((s) => s.length)) {
      bits.push(pointsChart(e.series, e.sides.map((_, i) => sideName(ctrl, i, e.sides, e.auction)), t("end.chart")));
    }
  }
  const m = v && v.match;
  if (m) {
    const text = matchScores(ctrl, m) || t("end.match_score", { score: matchBySide(ctrl, m.hands_won), totals: matchBySide(ctrl, m.totals) });
    bits.push(h("p", { class: "match", id: "match-score", text }));
  }
  if (e && e.hand) bits.push(analysisBox(ctrl, e.hand));
  bits.push(fairBox(ctrl, e ? e.hand : null));
  const row = h("div", { class: "row" });
  if (over) {
    if (tb.rematch) row.append(h("button", { type: "button", class: "primary", id: "rematch", "data-key": "rematch", onclick: () => ctrl.navigate(`/t/${tb.rematch}`), text: t("end.join_rematch") }));
    else if (tb.you && tb.you.seat !== null) {
      row.append(h("button", { type: "button", class: "primary", id: "rematch", "data-key": "rematch", onclick: () => ctrl.rematch(), text: t("end.rematch") }));
    }
    row.append(h("a", { href: `/api/tables/${ctrl.token}/record`, download: "", text: t("end.record") }));
    row.append(h("a", { href: "/", onclick: (ev) => { ev.preventDefault(); ctrl.navigate("/"); }, text: t("table.home") }));
  } else {
    const next = () => {
      ctrl.nextHand();
      refocus("card-x", '.hand .card[aria-disabled="false"]', ".hand .card");
    };
    row.append(h("button", { type: "button", class: "primary", id: "next-hand", "data-key": "next-hand", onclick: next, text: t("end.next_hand") }));
  }
  bits.push(row);
  fill(ui.parts.end, bits);
}

/** What each card of the hand cost (docs/analysis.md): each seat's points lost, accuracy
 * and costliest cards, once the server has worked them out; the replay shows every card. */
function analysisBox(ctrl, hand) {
  const a = ctrl.analysis(hand);
  return h(
    "section",
    { class: "analysis", id: "analysis", "aria-labelledby": "analysis-title", "aria-busy": String(a.state === "loading") },
    h("h3", { id: "analysis-title", text: t("analysis.title") }),
    a.state === "ready"
      ? seatLines(a.body, (seat) => seatName(ctrl, seat))
      : h("p", { class: "note", id: "analysis-note", text: a.state === "loading" ? t("analysis.computing") : a.error }),
    a.state === "ready" && ctrl.table.status === "finished"
      ? h("a", { href: `/history/${ctrl.token}/${hand}`, id: "analysis-replay", onclick: (ev) => { ev.preventDefault(); ctrl.navigate(`/history/${ctrl.token}/${hand}`); }, text: t("analysis.replay") })
      : null,
  );
}

/** The hand's fair-shuffle proof, folded under "Check the shuffle" with the sentence of
 * what it proves: the commitment made at the deal, and once revealed the salt and the
 * deal, with a button that checks they hash to it. The fold stays as the person left it
 * while the screen is drawn again. */
function fairBox(ctrl, hand) {
  const f = hand ? ctrl.fair[hand] : null;
  const was = document.getElementById("fair");
  const box = h(
    "details",
    { class: "fair", id: "fair", open: Boolean(was && was.open && was.dataset.hand === String(hand)), "data-hand": hand },
    h("summary", { id: "fair-title", text: t("fair.check") }),
    h("p", { class: "help", id: "fair-proves", text: t("fair.proves") }),
  );
  if (!f) {
    box.append(h("p", { text: t("fair.none") }));
    return box;
  }
  box.append(h("p", {}, t("fair.commitment"), " ", h("code", { class: "hash", text: f.commitment || (f.revealed && f.revealed.commitment) || "" })));
  if (!f.revealed) {
    box.append(h("p", { text: t("fair.not_yet") }));
    return box;
  }
  // the verdict is kept with the hand (ctrl.verdicts), so that a redraw (the analysis
  // arriving) does not wipe what the check said
  const result = h("p", { class: "verdict", id: "fair-result", role: "status" });
  const said = (r) => {
    result.className = `verdict ${r.ok ? "ok" : "bad"}`;
    result.textContent = r.ok ? t("fair.ok") : t("fair.bad", { committed: r.committed, computed: r.computed });
  };
  const kept = (ctrl.verdicts || {})[hand];
  if (kept) said(kept);
  box.append(
    h("p", {}, t("fair.salt"), " ", h("code", { class: "hash", text: f.revealed.salt })),
    h("details", {}, h("summary", { text: t("fair.deal") }), h("code", { class: "deal", text: JSON.stringify(f.revealed.deal) })),
    h("button", {
      type: "button",
      id: "verify",
      "data-key": "verify",
      onclick: async () => {
        const r = await ctrl.verify(hand);
        ctrl.verdicts = { ...(ctrl.verdicts || {}), [hand]: r };
        said(r);
        const now = document.getElementById("fair-result");
        if (now && now !== result) now.replaceWith(result); // drawn anew meanwhile
      },
      text: t("fair.verify"),
    }),
    result,
  );
  return box;
}
