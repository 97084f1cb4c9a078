// Chiamata's auction as one compact box: where it stands (the highest bid and who holds
// it, who has passed), your bid (a stepper through the bids the server lists as legal, one
// Bid button, Pass), the call (a button for each card you may call), and its history folded
// to its last lines. The box holds no rules: every button sends an action of the view's
// legal list. During the auction and the call it sits with your hand at the bottom of the
// screen, or in the side column of a wide screen (play.js puts it there); then beside the
// table, saying who called what.

import { cardEl, cardName, suitName } from "../../cards.js";
import { announce, h } from "../../dom.js";
import { capital, t } from "../../i18n.js";
import { actionLabel, bidWords, partnerText, say, seatLabel } from "../words.js";

/** A screen as low as a phone held sideways, where the auction shows one line only. */
const LOW = typeof matchMedia === "function" ? matchMedia("(max-height: 500px)") : null;

/** How many of the auction's last lines are always shown (one on a low screen); the
 * earlier ones are folded. */
export function shownLines() {
  return LOW && LOW.matches ? 1 : 3;
}

/** A screen wide enough for the side column beside the table (style.css). */
const WIDE = typeof matchMedia === "function" ? matchMedia("(min-width: 900px)") : null;

/** Whether the view is at the auction or the call. */
export function bidding(v) {
  return Boolean(v && v.auction) && (v.phase === "auction" || v.phase === "call");
}

/** Whether the auction's box sits with your hand at the bottom of the screen: at the
 * auction and the call, on a screen with no side column (on a wide one, the side column
 * holds it, in sight above the chat). */
export function withHand(v) {
  return bidding(v) && !(WIDE && WIDE.matches);
}

/** The auction's box (`#auction`): `legal` the actions this seat may take now. */
export function auctionBox(ui, v, legal) {
  const ctrl = ui.ctrl;
  const a = v.auction;
  const lines = (a.bids || []).map((b) =>
    h("li", { text: capital(b.bid === "pass" ? say(ctrl, "tell.passed", b.seat) : say(ctrl, "tell.bid", b.seat, { bid: bidWords(b.bid) })) }),
  );
  // the phone turned, the window resized: the box folded again, and in its place
  const again = () => ui.parts && ui.parts.mine && ui.parts.mine.isConnected && ui.redraw();
  if (LOW) LOW.onchange = again;
  if (WIDE) WIDE.onchange = again;
  const folded = lines.slice(0, Math.max(0, lines.length - shownLines()));
  let earlier = null;
  if (folded.length) {
    earlier = h(
      "details",
      { class: "auction-earlier", id: "auction-earlier" },
      h("summary", { "data-key": "auction-earlier", text: t("table.auction_earlier", { n: folded.length }) }),
      h("ul", {}, folded),
    );
    if (ui.auctionOpen === v.hand_number) earlier.open = true; // unfolded, for this hand
    earlier.addEventListener("toggle", () => (ui.auctionOpen = earlier.open ? v.hand_number : null));
  }
  const over = a.caller !== null && a.caller !== undefined;
  return h(
    "div",
    { class: `auction${bidding(v) ? " bidding" : ""}`, id: "auction", role: "region", "aria-labelledby": "auction-title" },
    h("h2", { id: "auction-title", text: t("table.auction") }),
    over ? null : standing(ctrl, a),
    bidControl(ui, legal),
    callControl(ctrl, legal),
    earlier,
    lines.length > folded.length ? h("ul", { class: "auction-last" }, lines.slice(folded.length)) : null,
    over ? h("p", { class: "caller", id: "caller", text: capital(say(ctrl, "tell.auction_won", a.caller, { bid: bidWords(a.high) })) }) : null,
    a.called ? h("p", { text: t("table.called", { card: cardName(a.called) }) }) : null,
    a.partner !== null && a.partner !== undefined ? h("p", { class: "partner", id: "partner", text: partnerText(ctrl, a) }) : null,
  );
}

/** Where the auction stands: the highest bid and who holds it (or none yet), and who has
 * passed (out of the auction). */
function standing(ctrl, a) {
  const passed = [];
  for (const b of a.bids || []) if (b.bid === "pass" && !passed.includes(b.seat)) passed.push(b.seat);
  const high = a.high !== null && a.high !== undefined && a.bidder !== null && a.bidder !== undefined;
  return h(
    "div",
    { class: "auction-state", id: "auction-state" },
    h("p", { class: "auction-high", id: "auction-high", text: high ? capital(say(ctrl, "table.auction_high", a.bidder, { bid: bidWords(a.high) })) : t("table.auction_none") }),
    passed.length ? h("p", { class: "auction-passed", id: "auction-passed", text: t("table.auction_passed", { who: passed.map((s) => seatLabel(ctrl, s)).join(", ") }) }) : null,
  );
}

/** Your bid, on your turn at the auction: − and + step through the bids the view lists
 * (in its order: each a higher bid than the one before), Bid sends the one shown, Pass
 * passes. Four buttons, however many bids there are. Each turn shows the lowest bid first;
 * the one stepped to is kept for the turn (`ui.bidPick`). */
function bidControl(ui, legal) {
  const ctrl = ui.ctrl;
  const bids = legal.filter((x) => "bid" in x);
  if (!bids.length) return null;
  const pass = bids.find((x) => x.bid === "pass");
  const raises = bids.filter((x) => x.bid !== "pass");
  const kept = ui.bidPick && ui.bidPick.turn === ctrl.turnKey ? ui.bidPick.bid : undefined;
  let at = raises.findIndex((x) => x.bid === kept);
  if (at < 0) at = 0;
  const pick = raises[at];
  const step = (by, key, label, sign) => {
    const to = at + by;
    const can = to >= 0 && to < raises.length;
    return h("button", {
      type: "button",
      class: "step",
      "data-role": "bid-control",
      "data-key": key,
      "aria-label": label,
      title: label,
      "aria-disabled": can ? "false" : "true",
      onclick: () => {
        if (!can) return;
        ui.bidPick = { turn: ctrl.turnKey, bid: raises[to].bid };
        ui.redraw();
        announce(capital(bidWords(raises[to].bid)));
      },
      text: sign,
    });
  };
  return h(
    "div",
    { class: "actions bid-control", id: "actions", role: "group", "aria-label": t("table.your_bid") },
    pick
      ? h(
          "div",
          { class: "stepper" },
          step(-1, "bid-down", t("table.bid_down"), "−"),
          h("button", {
            type: "button",
            class: "action primary",
            "data-role": "bid-control",
            "data-key": "bid",
            onclick: () => ctrl.act(pick),
            text: actionLabel(ctrl, pick),
          }),
          step(1, "bid-up", t("table.bid_up"), "+"),
        )
      : null,
    pass
      ? h("button", { type: "button", class: "action", "data-role": "bid-control", "data-key": "pass", onclick: () => ctrl.act(pass), text: actionLabel(ctrl, pass) })
      : null,
  );
}

/** The call, on your turn once you won the auction: the cards you may call (the bid rank
 * in each suit), each a button showing the card and its suit's name, named in full ("Call
 * the two of cups"). */
function callControl(ctrl, legal) {
  const calls = legal.filter((x) => "call" in x);
  if (!calls.length) return null;
  return h(
    "div",
    { class: "call-box" },
    h("p", { id: "call-label", class: "call-label", text: t("table.your_call") }),
    h(
      "div",
      { class: "actions call-control", id: "actions", role: "group", "aria-labelledby": "call-label" },
      calls.map((x) =>
        h(
          "button",
          { type: "button", class: "action call-card", "data-role": "call-control", "data-key": `call-${x.call}`, "aria-label": actionLabel(ctrl, x), onclick: () => ctrl.act(x) },
          cardEl(x.call, { extra: "small" }),
          h("span", { class: "call-suit", "aria-hidden": "true", text: capital(suitName(x.call[1])) }),
        ),
      ),
    ),
  );
}
