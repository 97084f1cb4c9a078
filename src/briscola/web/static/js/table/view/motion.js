// The animations of the game's screen: decoration on what is already drawn, never a wait,
// and nothing under reduced motion; and how long the trick last taken is still shown.

import { trickPauseMs } from "../../prefs.js";
import { still } from "../ctrl.js";

/** What the last update moved, once (nothing under reduced motion). */
export function takeMotion(ctrl) {
  const mo = ctrl.takeMotion();
  return reducedMotion() ? still() : mo;
}

/** How long a trick taken slides to its taker (style.css's .trick-done.going). */
export const SLIDE_MS = 450;

/** Whether the person asked for reduced motion: nothing slides, the pauses stay. */
export function reducedMotion() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The trick last taken while it is still shown (`ui.ctrl.finished`): `{trick, going,
 * into}`, its trick_won event, whether its pause (the person's `trickPause`) is over and
 * it slides to its taker, and how far into that slide it is (ms); null once it is gone.
 * The page is drawn again when the pause ends and when the slide does (none under
 * reduced motion). The state is never held back: only this copy of the trick lingers. */
export function shownTrick(ui) {
  clearTimeout(ui.trickTimer);
  const f = ui.ctrl.finished;
  if (!f) return null;
  const pause = trickPauseMs();
  const slide = reducedMotion() ? 0 : SLIDE_MS;
  const age = Date.now() - f.since;
  if (age >= pause + slide) return null;
  const going = age >= pause;
  ui.trickTimer = setTimeout(() => ui.redraw(), (going ? pause + slide : pause) - age + 1);
  return { trick: f.trick, going, into: going ? age - pause : 0 };
}

/** Send the trick taken (`el`, drawn on the table `felt`) on its way toward its taker
 * (`target`: their seat), `into` ms into its slide: resumed, not restarted,
 * when the page is drawn again meanwhile. */
export function slideTaken(el, felt, target, into) {
  const from = felt.getBoundingClientRect();
  const to = (target || felt).getBoundingClientRect();
  el.style.setProperty("--dx", `${to.left + to.width / 2 - (from.left + from.width / 2)}px`);
  el.style.setProperty("--dy", `${to.top + to.height / 2 - (from.top + from.height / 2)}px`);
  el.style.animationDelay = `${-into}ms`;
  el.classList.add("going");
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
