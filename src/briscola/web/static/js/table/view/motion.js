// The animations of the game's screen: decoration on what is already drawn, never a wait,
// and nothing under reduced motion.

import { h } from "../../dom.js";
import { cardEl } from "../../cards.js";
import { still } from "../ctrl.js";

/** What the last update moved, once (nothing under reduced motion). */
export function takeMotion(ctrl) {
  const mo = ctrl.takeMotion();
  return matchMedia("(prefers-reduced-motion: reduce)").matches ? still() : mo;
}

/** The trick just taken (`e`, its trick_won event), as a short-lived copy over the table
 * (`felt`), each card where its player laid it (`slots`: each seat's place) and the
 * winning card marked, that slides toward the taker (`target`: their seat, or your hand)
 * and fades; it takes no clicks and is gone when its animation ends. */
export function flyTaken(e, felt, target, slots) {
  const from = felt.getBoundingClientRect();
  const to = (target || felt).getBoundingClientRect();
  const cards = e.cards.map((c, i) => {
    const seat = e.seats ? e.seats[i] : null;
    const slot = seat === null || seat === undefined ? "bottom" : slots[seat];
    return h("figure", { class: `played slot-${slot}${seat === e.winner ? " winner" : ""}` }, cardEl(c));
  });
  const n = [...felt.classList].find((c) => /^n\d$/.test(c)) || "";
  const copy = h("div", { class: `taken trick-copy ${n}`, "aria-hidden": "true" }, cards);
  for (const el of copy.querySelectorAll("[data-card]")) el.removeAttribute("data-card");
  const style = getComputedStyle(felt);
  for (const v of ["--seat-w", "--seat-h", "--trick-w", "--gap"]) copy.style.setProperty(v, style.getPropertyValue(v));
  Object.assign(copy.style, { left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`, height: `${from.height}px` });
  copy.style.setProperty("--dx", `${to.left + to.width / 2 - (from.left + from.width / 2)}px`);
  copy.style.setProperty("--dy", `${to.top + to.height / 2 - (from.top + from.height / 2)}px`);
  const done = () => copy.remove();
  copy.addEventListener("animationend", done);
  copy.addEventListener("animationcancel", done);
  setTimeout(done, 5000); // no animation event (a hidden tab): gone all the same
  document.body.append(copy);
}

/** Cards just drawn slide in from the stock: each starts where the stock is. */
export function fromStock(cards, stock) {
  const s = stock.getBoundingClientRect();
  for (const el of cards) {
    const r = el.getBoundingClientRect();
    el.style.setProperty("--from-x", `${s.left + s.width / 2 - (r.left + r.width / 2)}px`);
    el.style.setProperty("--from-y", `${s.top + s.height / 2 - (r.top + r.height / 2)}px`);
  }
}
