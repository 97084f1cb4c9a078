// A side's short name as a label of a page (the table's points and end, a replay's points):
// focusable, the side's players in its accessible description and in a tooltip shown on
// hover and on keyboard focus; and a side's points after it, kept on one line.

import { h } from "./dom.js";

/** A side's short name `name` as a label, focusable (`key`: its `data-key`, and its
 * tooltip's id), with `players` in its accessible description and its tooltip (Escape
 * hides the tooltip until the label is left). */
export function sideLabel(name, players, key, i) {
  const id = `${key}-players`;
  const shown = (ev) => ev.currentTarget.classList.remove("tip-off");
  return h(
    "span",
    {
      class: "side-name",
      tabindex: "0",
      "data-key": key,
      "data-side": i,
      "aria-describedby": id,
      onkeydown: (ev) => ev.key === "Escape" && ev.currentTarget.classList.add("tip-off"),
      onblur: shown,
      onmouseleave: shown,
    },
    name,
    h("span", { class: "side-players", role: "tooltip", id, text: players }),
  );
}

/** A side's points after its label, kept on one line ("Us: 17"; `between` the two). */
export function sidePoints(label, n, between = ": ") {
  return h("span", { class: "side-points" }, label, `${between}${n}`);
}
