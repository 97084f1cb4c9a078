// The game's screen: everyone else at the table (name, cards in hand face down or shown,
// presence), the trick, the turned trump and the stock, the points, the last trick; at the
// bottom of the screen your hand (sorted as you chose, only the legal cards enabled) with
// every other legal action as a button; chiamata's auction (./auction.js) with your hand
// while it lasts, else at the side with what was said and signalled.

import { hintWords } from "../../analysis.js";
import { backEl, cardEl, deck, slotEl, style, suitName } from "../../cards.js";
import { fill, h } from "../../dom.js";
import { capital, t } from "../../i18n.js";
import { prefs } from "../../prefs.js";
import { sidePoints } from "../../sidelabel.js";
import { sortHand, sorts } from "../../handsort.js";
import { roleBadge, sideTag } from "../sides.js";
import { actionLabel, botLabel, points as pointsOf, pointsHidden, say, seatLabel, seatName, talkText } from "../words.js";
import { auctionBox, withHand } from "./auction.js";
import { fromStock, reducedMotion, shownTrick, slideTaken, takeMotion } from "./motion.js";

export function drawPlay(ui) {
  const ctrl = ui.ctrl;
  const parts = ui.parts;
  const v = ctrl.view;
  const tb = ctrl.table;
  if (!v) {
    fill(parts.center, h("p", { text: t("table.loading") }));
    return;
  }
  const legal = ctrl.legal();
  const mo = takeMotion(ctrl);
  const plays = new Set(legal.filter((a) => "play" in a).map((a) => a.play));
  // The table: every seat round it (yours at the bottom, or the one you watch from), each
  // card played in front of its player, the stock with the turned trump crossways under it.
  const watching = v.seat === null || v.seat === undefined;
  const me = ctrl.bottomSeat();
  const slots = seatSlots(v.players, me, v.direction);
  const taken = new Array(v.players).fill(0);
  for (const tr of v.tricks || []) taken[tr.winner] += 1;
  const seats = [];
  for (let s = 0; s < v.players; s++) seats.push(seatBox(ctrl, v, s, slots[s], taken[s], s === v.seat));
  // The trick last taken stays where it lay a while, its winning card marked; the cards of
  // the next trick played meanwhile wait at their players' seats, and land when it has gone.
  const done = shownTrick(ui);
  const early = Boolean(done);
  const landing = early || reducedMotion() ? null : ui.earlyCards;
  ui.earlyCards = early ? new Set((v.trick || []).map(([, card]) => card)) : null;
  const played = trickCards(v.trick || [], slots, (seat, card, cls) =>
    h(
      "figure",
      { class: `${cls}${early ? " early" : ""}`, "data-role": "played", "data-seat": seat },
      cardEl(card, { extra: mo.played.has(card) || (landing && landing.has(card)) ? "enter" : null }),
      h("figcaption", { class: "sr-only", text: seatLabel(ctrl, seat) }),
    ),
  );
  const trick = h(
    "div",
    { class: "trick", id: "trick", role: "group", "aria-label": t("table.trick") },
    played,
    played.length || done ? null : h("span", { class: "empty-trick" }, slotEl(t("words.empty_trick"))),
  );
  const stock = stockEl(v);
  const doneEl = done ? takenTrick(ctrl, done.trick, slots) : null;
  const order = (done && done.trick.seats) || v.trick_order || [];
  const twice = new Set(order).size < order.length; // everyone plays twice to a trick
  const felt = h("div", { class: `felt n${v.players}${twice ? " twice" : ""}${early ? " pausing" : ""}` }, seats, doneEl, trick, stock);
  // the points taken, unless the table keeps them hidden during a hand (counted in your
  // head: the hand's end shows them)
  const hidden = pointsHidden(ctrl);
  const points = v.points && !hidden
    ? h(
        "p",
        { class: "points", id: "points" },
        v.sides.map((_, i) => [i ? " · " : null, sidePoints(sideTag(ctrl, i, v.sides, "points"), v.points[i])]),
      )
    : null;
  let last = null;
  if (v.last_trick) {
    const lt = v.last_trick;
    last = h(
      "details",
      { class: "last-trick", id: "last-trick" },
      // who took it, and its points only where the table shows them during the hand
      h("summary", { text: hidden ? say(ctrl, "table.last_trick_no_points", lt.winner) : say(ctrl, "table.last_trick", lt.winner, { points: pointsOf(lt.points) }) }),
      h("div", { class: "row" }, lt.cards.map((c, i) => h("figure", {}, cardEl(c, { extra: "small" }), h("figcaption", { text: seatLabel(ctrl, lt.seats[i]) })))),
    );
    if (ui.lastOpen) last.open = true;
    last.addEventListener("toggle", () => (ui.lastOpen = last.open));
  }
  fill(parts.center, felt, points, last);
  // Your hand, sorted as you chose: only the legal cards enabled; every other legal action
  // as a button (chiamata's bids and call in the auction's box).
  const cards = shownHand(ctrl, v, v.hand || []);
  const hand = h(
    "div",
    { class: "hand", id: "hand", role: "group", "aria-label": t("table.your_hand") },
    cards.map((c) => {
      const el = cardEl(c, { onClick: (card) => ctrl.act({ seat: v.seat, play: card }), enabled: plays.has(c), extra: mo.drawn.has(c) ? "drawn" : null });
      el.dataset.role = "hand-card";
      return el;
    }),
  );
  hand.style.setProperty("--n", String(Math.max(1, cards.length)));
  const auction = v.auction ? auctionBox(ui, v, legal) : null;
  const others2 = legal.filter((a) => !("play" in a) && !(auction && ("bid" in a || "call" in a)));
  const actions = others2.length
    ? h(
        "div",
        { class: "actions", id: "actions", role: "group", "aria-label": t("table.actions") },
        others2.map((a, i) =>
          h("button", { type: "button", class: "action", "data-key": `act-${i}-${Object.keys(a).join("-")}`, onclick: () => ctrl.act(a), text: actionLabel(ctrl, a) }),
        ),
      )
    : null;
  const heading = h("h2", { class: "sr-only", text: t("table.your_hand") });
  // at the bottom of the screen: the auction while it lasts (and the call) unless a side
  // column holds it, your other moves and the hint, and your hand last, at the very bottom
  const atAuction = auction && withHand(v);
  fill(parts.mine, heading, atAuction ? auction : null, actions, hintEl(ctrl), watching ? watchingEl(ctrl, v, me) : hand);
  parts.mine.classList.toggle("with-auction", Boolean(atAuction));
  if (done && done.going) {
    slideTaken(doneEl, felt, felt.querySelector(`[data-role="seat"][data-seat="${done.trick.winner}"]`), done.into);
  }
  if (mo.drawn.size) fromStock(hand.querySelectorAll(".card.drawn"), stock || felt);
  // What was said and signalled; the auction.
  const side = [];
  if (auction && !atAuction) side.push(auction);
  if (v.talk && v.talk.length) {
    side.push(
      h(
        "div",
        { class: "talk", id: "talk" },
        h("h2", { text: t("table.talk") }),
        h(
          "ul",
          {},
          v.talk.map((x) =>
            h("li", { text: capital(talkText(ctrl, x)) + (x.spotted && x.spotted.length ? ` · ${t("table.spotted")}` : "") }),
          ),
        ),
      ),
    );
  }
  fill(parts.side, side);
}

/** A trick's cards (`[seat, card]` pairs) drawn by `draw(seat, card, cls)`, `cls` their
 * place: in front of each player's seat (`slots`), a second card of the same player (in
 * four-card Briškula everyone plays twice) beside their first. */
function trickCards(pairs, slots, draw) {
  const seen = new Set();
  return pairs.map(([seat, card]) => {
    const again = seen.has(seat);
    seen.add(seat);
    return draw(seat, card, `played slot-${slots[seat]}${again ? " again" : ""}`);
  });
}

/** The trick just taken (`e`, its trick_won event), shown where its cards lay, the winning
 * card marked (in four-card Briškula both its taker's: the event does not say which of the
 * two took it), and said: who takes it. */
function takenTrick(ctrl, e, slots) {
  const seats = e.seats || [];
  return h(
    "div",
    { class: "trick trick-done", id: "trick-done", role: "group", "aria-label": capital(say(ctrl, "table.trick_taken", e.winner)) },
    trickCards(
      e.cards.map((c, i) => [seats[i] ?? e.winner, c]),
      slots,
      (seat, card, cls) => {
        const won = seat === e.winner;
        return h(
          "figure",
          { class: `${cls}${won ? " winner" : ""}`, "data-role": "taken", "data-seat": seat },
          cardEl(card),
          won ? h("span", { class: "takes", "aria-hidden": "true", text: t("table.takes") }) : null,
          h("figcaption", { class: "sr-only", text: won ? `${seatLabel(ctrl, seat)}: ${t("table.takes")}` : seatLabel(ctrl, seat) }),
        );
      },
    ),
  );
}

/** A hand in the order it is shown (js/handsort.js): sorted, as the person chose (by suit,
 * or by rank), when it has 4 cards or more or its game deals 4 or more; else as the server
 * gave it. Sorted with what the view knows: the deck, the court order, the trump suit once
 * there is one. */
function shownHand(ctrl, v, cards) {
  if (!sorts(cards, ctrl.game && ctrl.game.hand_size)) return cards;
  const south = Boolean(v.rules && v.rules.court_order === "south");
  return sortHand(cards, { by: prefs.sort, deck: deck(), faces: style(), south, trump: v.trump || null });
}

/** The hint button, on your turn at a table that gives hints, and the hint asked for
 * while the table has not moved on: the strong player's choice, what it plays for with
 * that choice's figures (the chance to win the hand, the points), and each choice's,
 * the star on the choice the sentence names. */
function hintEl(ctrl) {
  const hint = ctrl.hint && ctrl.hint.version === ctrl.version ? ctrl.hint : null;
  if (!ctrl.canHint() && !hint) return null;
  let said = null;
  if (hint && hint.body) {
    const w = hintWords(hint.body, (seat) => seatName(ctrl, seat), pointsHidden(ctrl));
    said = h(
      "p",
      { class: "hint", id: "hint-said" },
      w.sentence,
      " ",
      w.why,
      " ",
      h("span", {
        class: "help",
        text: t("hint.choices", {
          list: w.choices.map((c) => c.text + (c.star ? ` ★ ${t("analysis.top")}` : "")).join(" · "),
        }),
      }),
    );
  } else if (hint && hint.error) said = h("p", { class: "hint", id: "hint-said", text: hint.error });
  return h(
    "div",
    { class: "hint-box", id: "hint-box", "aria-live": "polite" },
    ctrl.canHint()
      ? h("button", { type: "button", id: "hint", "data-key": "hint", disabled: Boolean(hint && hint.asking), onclick: () => ctrl.askHint(), text: t("hint.ask") })
      : null,
    said,
  );
}

/** A spectator's place of the hand: that they watch (no hand shown), the seat they watch
 * from (each seat's name a button: that seat is drawn at the bottom), and at a public
 * table that spectators see the play one trick late. */
function watchingEl(ctrl, v, from) {
  const seats = [];
  for (let s = 0; s < v.players; s++) {
    const seat = (ctrl.table && ctrl.table.seats[s]) || {};
    seats.push(
      h("button", {
        type: "button",
        class: "watch-seat",
        "data-key": `watch-${s}`,
        "data-seat": s,
        "aria-pressed": s === from ? "true" : "false",
        onclick: () => ctrl.watchSeat(s),
        title: seat.kind === "bot" ? botLabel(seat) : null,
        text: seatLabel(ctrl, s),
      }),
    );
  }
  const late = ctrl.table && ctrl.table.public;
  return h(
    "div",
    { class: "watching", id: "watching" },
    h("p", { text: t("table.watching") }),
    h(
      "div",
      { class: "watch-from", id: "watch-from", role: "group", "aria-labelledby": "watch-from-label" },
      h("span", { id: "watch-from-label", text: t("table.watch_from") }),
      seats,
    ),
    late ? h("p", { class: "help", id: "watch-late", text: t("table.watch_late") }) : null,
  );
}

/** Where the other seats sit seen from the bottom, in the order of play under
 * direction=right (counter-clockwise): words/seating.py's SLOTS, mirrored under left. */
export const SLOTS = {
  2: ["top"],
  3: ["top-right", "top-left"],
  4: ["right", "top", "left"],
  5: ["right", "top-right", "top-left", "left"],
  6: ["right", "top-right", "top", "top-left", "left"],
};
const MIRROR = { right: "left", left: "right", "top-right": "top-left", "top-left": "top-right" };

/** Each seat's place at the table (`bottom` for `me`), as words/seating.py's Seating.of. */
export function seatSlots(n, me, direction) {
  let around = SLOTS[n] || [];
  if (direction === "left") around = around.map((s) => MIRROR[s] || s);
  const slots = new Array(n).fill("bottom");
  around.forEach((slot, k) => (slots[(me + k + 1) % n] = slot));
  return slots;
}

/** One seat round the table: an initial, the name (a computer player's first name, its
 * level a badge; its label says both), the cards in hand face down (or shown), the
 * dealer's mark, chiamata's caller and partner once known, the tricks taken, whose turn,
 * a person away or a computer standing in. */
function seatBox(ctrl, v, s, slot, tricks, mine) {
  const seat = (ctrl.table && ctrl.table.seats[s]) || {};
  const name = seatLabel(ctrl, s);
  const full = seat.kind === "bot" && !mine ? botLabel(seat) : name;
  const shown = v.visible_hands && (v.visible_hands[s] || v.visible_hands[String(s)]);
  const size = v.hand_sizes ? v.hand_sizes[s] : 0;
  const away = seat.kind === "person" && !seat.connected;
  const turn = v.to_act === s;
  const left = turn ? ctrl.clockLeft() : null;
  return h(
    "div",
    {
      class: `seat slot-${slot}${turn ? " to-act" : ""}${mine ? " mine" : ""}${left === null ? "" : " timed"}`,
      "data-seat": s,
      "data-role": "seat",
      role: "group",
      "aria-label": full,
      "aria-current": turn ? "true" : null,
    },
    left === null ? null : clockRing(left),
    h(
      "p",
      { class: "name" },
      h("span", { class: "initial", "aria-hidden": "true", text: (name || "?").trim().charAt(0).toUpperCase() }),
      h("span", { class: "who", title: full, text: name }),
    ),
    h(
      "p",
      { class: "tally" },
      seat.kind === "bot" && !mine ? h("span", { class: "badge level", text: t(`level.${seat.level}`) }) : null,
      v.dealer === s ? h("span", { class: "badge dealer", title: t("word.dealer"), text: t("word.dealer") }) : null,
      roleBadge(ctrl, s),
      h("span", { class: "tricks", text: t("count.tricks", { n: tricks }) }),
      away ? h("span", { class: "badge away", text: t("table.away") }) : null,
      seat.stand_in ? h("span", { class: "badge away", text: t("table.stand_in") }) : null,
    ),
    mine
      ? null
      : h(
          "div",
          { class: `mini-hand${shown ? " shown" : ""}`, role: "group", "aria-label": t("table.cards_in_hand", { n: size }) },
          shown ? shownHand(ctrl, v, shown).map((c) => cardEl(c, { extra: "small" })) : Array.from({ length: size }, () => backEl(t("table.face_down"))),
        ),
  );
}

/** The ring round the seat to act that empties as its clock runs (status.js's drawClock
 * moves it on each second; the style smooths it, except under reduced motion). */
export function clockRing(left) {
  const ring = h("span", { class: "clock-ring", "data-role": "clock", "aria-hidden": "true" });
  setClockRing(ring, left);
  return ring;
}

/** The ring shows `left`, the share of the clock left; a quarter or less is a hurry. */
export function setClockRing(ring, left) {
  ring.style.setProperty("--left", left.toFixed(3));
  ring.classList.toggle("hurry", left <= 0.25);
}

/** The stock face down with its count, the turned trump crossways partly under it (alone
 * once the stock is drawn); the trump suit in words once the turned card is taken. */
function stockEl(v) {
  if (!v.turned && !v.stock_size && !v.stock_top && !v.trump) return null;
  const turned = v.turned
    ? h("span", { class: "turned", "data-role": "turned", title: t("table.trump_card", { suit: suitName(v.trump) }) }, cardEl(v.turned))
    : null;
  const top = v.stock_top ? h("span", { class: "stock-top", title: t("table.stock_top") }, cardEl(v.stock_top)) : null;
  const pile = v.stock_size && !top ? backEl(t("table.stock", { n: v.stock_size })) : null;
  const trump = v.trump ? t(v.turned ? "table.trump_card" : "table.trump_suit", { suit: suitName(v.trump) }) : null;
  return h(
    "div",
    { class: "stock", "data-role": "stock", role: "group", "aria-label": t("table.stock", { n: v.stock_size }) },
    turned || top || pile ? h("div", { class: `stock-cards${turned ? " with-turned" : ""}` }, turned, top || pile ? h("span", { class: "pile" }, top || pile) : null) : null,
    v.stock_size || v.turned ? h("span", { class: "stock-size", id: "stock-size", text: t("table.stock", { n: v.stock_size }) }) : null,
    trump ? h("span", { class: "trump-name", text: trump }) : null,
  );
}
