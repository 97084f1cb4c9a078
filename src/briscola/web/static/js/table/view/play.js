// The game's screen: everyone else at the table (name, cards in hand face down or shown,
// presence), the trick, the turned trump and the stock, the points, the last trick, your
// hand (only the legal cards enabled) with every other legal action as a button, and at
// the side the auction and what was said and signalled.

import { backEl, cardEl, cardName, slotEl, suitName } from "../../cards.js";
import { fill, h } from "../../dom.js";
import { capital, t } from "../../i18n.js";
import { actionLabel, bidWords, partnerText, points as pointsOf, say, seatLabel, seatName, sideName, talkText } from "../words.js";
import { flyTaken, fromStock, takeMotion } from "./motion.js";

export function drawPlay(ui) {
  const ctrl = ui.ctrl;
  const parts = ui.parts;
  const v = ctrl.view;
  const tb = ctrl.table;
  if (!v) {
    fill(parts.center, h("p", { text: t("table.loading") }));
    return;
  }
  const name = (seat) => seatName(ctrl, seat);
  const legal = ctrl.legal();
  const mo = takeMotion(ctrl);
  const plays = new Set(legal.filter((a) => "play" in a).map((a) => a.play));
  // Everyone else at the table: name, cards in hand (face down, or shown), presence.
  const others = [];
  for (let s = 0; s < v.players; s++) {
    if (s === v.seat) continue;
    const seat = tb.seats[s] || {};
    const shown = v.visible_hands && (v.visible_hands[s] || v.visible_hands[String(s)]);
    const size = v.hand_sizes ? v.hand_sizes[s] : 0;
    others.push(
      h(
        "div",
        { class: `opponent${v.to_act === s ? " to-act" : ""}`, "data-seat": s },
        h(
          "p",
          { class: "name" },
          name(s),
          seat.kind === "person" && !seat.connected ? h("span", { class: "away", text: ` (${t("table.away")})` }) : null,
          seat.stand_in ? h("span", { class: "away", text: ` (${t("table.stand_in")})` }) : null,
        ),
        h(
          "div",
          { class: "mini-hand", role: "group", "aria-label": t("table.cards_in_hand", { n: size }) },
          shown ? shown.map((c) => cardEl(c, { extra: "small" })) : Array.from({ length: size }, () => backEl(t("table.face_down"))),
        ),
      ),
    );
  }
  fill(parts.others, others);
  // The trick, the turned trump and the stock, the points, the last trick.
  const trick = h(
    "div",
    { class: "trick", id: "trick", role: "group", "aria-label": t("table.trick") },
    (v.trick || []).map(([seat, card]) =>
      h("figure", { class: "played" }, cardEl(card, { extra: mo.played.has(card) ? "enter" : null }), h("figcaption", { text: seatLabel(ctrl, seat) })),
    ),
    (v.trick || []).length ? null : slotEl(t("words.empty_trick")),
  );
  const stock = h(
    "div",
    { class: "stock" },
    v.turned ? h("figure", { class: "turned" }, cardEl(v.turned), h("figcaption", { text: t("table.trump_card", { suit: suitName(v.trump) }) })) : v.trump ? h("p", { text: t("table.trump_suit", { suit: suitName(v.trump) }) }) : null,
    v.stock_top ? h("figure", {}, cardEl(v.stock_top), h("figcaption", { text: t("table.stock_top") })) : null,
    // no stock place in a hand that has none (chiamata deals every card) or no more
    v.stock_size ? backEl(t("table.stock", { n: v.stock_size })) : null,
    v.stock_size || v.turned ? h("p", { class: "stock-size", id: "stock-size", text: t("table.stock", { n: v.stock_size }) }) : null,
  );
  // the points taken, unless the table keeps them hidden during a hand (counted in your
  // head: the hand's end shows them)
  const points = v.points && !(ctrl.table && ctrl.table.points === "hidden")
    ? h("p", { class: "points", id: "points" }, v.sides.map((_, i) => `${sideName(ctrl, i, v.sides)}: ${v.points[i]}`).join(" · "))
    : null;
  let last = null;
  if (v.last_trick) {
    const lt = v.last_trick;
    last = h(
      "details",
      { class: "last-trick", id: "last-trick" },
      h("summary", { text: say(ctrl, "table.last_trick", lt.winner, { points: pointsOf(lt.points) }) }),
      h("div", { class: "row" }, lt.cards.map((c, i) => h("figure", {}, cardEl(c, { extra: "small" }), h("figcaption", { text: seatLabel(ctrl, lt.seats[i]) })))),
    );
    if (ui.lastOpen) last.open = true;
    last.addEventListener("toggle", () => (ui.lastOpen = last.open));
  }
  fill(parts.center, trick, stock, points, last);
  // Your hand: only the legal cards enabled; every other legal action as a button.
  const hand = h(
    "div",
    { class: "hand", id: "hand", role: "group", "aria-label": t("table.your_hand") },
    (v.hand || []).map((c) =>
      cardEl(c, { onClick: (card) => ctrl.act({ seat: v.seat, play: card }), enabled: plays.has(c), extra: mo.drawn.has(c) ? "drawn" : null }),
    ),
  );
  const others2 = legal.filter((a) => !("play" in a));
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
  fill(parts.mine, heading, v.seat === null ? h("p", { text: t("table.watching") }) : hand, actions);
  if (mo.taken) {
    const mine = mo.taken.winner === v.seat;
    flyTaken(mo.taken, trick, mine ? parts.mine : parts.others.querySelector(`[data-seat="${mo.taken.winner}"]`));
  }
  if (mo.drawn.size) fromStock(hand.querySelectorAll(".card.drawn"), stock);
  // What was said and signalled; the auction.
  const side = [];
  if (v.auction) {
    const a = v.auction;
    side.push(
      h(
        "div",
        { class: "auction", id: "auction" },
        h("h2", { text: t("table.auction") }),
        h("ul", {}, (a.bids || []).map((b) => h("li", { text: capital(b.bid === "pass" ? say(ctrl, "tell.passed", b.seat) : say(ctrl, "tell.bid", b.seat, { bid: bidWords(b.bid) })) }))),
        a.caller !== null && a.caller !== undefined ? h("p", { class: "caller", id: "caller", text: capital(say(ctrl, "tell.auction_won", a.caller, { bid: bidWords(a.high) })) }) : null,
        a.called ? h("p", { text: t("table.called", { card: cardName(a.called) }) }) : null,
        a.partner !== null && a.partner !== undefined ? h("p", { class: "partner", id: "partner", text: partnerText(ctrl, a) }) : null,
      ),
    );
  }
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
