// Cards in the engine's notation (rank then suit: "Ab", "Qd", "Ts"): their names in the
// chosen language and faces (the game's words, `GET /api/words`; the interface's own
// strings while they load), and their elements (the project's art, `/cards/STYLE/CARD.svg`
// at the server's version, with a text fallback).

import { games } from "./api.js";
import { h } from "./dom.js";
import { gameWords, t } from "./i18n.js";
import { prefs } from "./prefs.js";

/** The server's version: the pictures' `?v=`, so that they are cached until it changes. */
const VERSION = await games().then(
  (c) => c.version || "",
  () => "",
);

/** The address of a picture: a card, `back` or `slot` (an empty place). */
export function pictureUrl(name) {
  const v = VERSION ? `?v=${encodeURIComponent(VERSION)}` : "";
  return `/cards/${style()}/${name}.svg${v}`;
}

let deckStyle = null;

/** The faces of the game being shown: a French deck is always in French faces. */
export function setDeck(deckName) {
  deckStyle = deckName && deckName.startsWith("french") ? "french" : null;
}

export function style() {
  return deckStyle || prefs.style;
}

export function rankName(card) {
  const r = card[0];
  const w = gameWords();
  if (w && w.ranks[style()] && w.ranks[style()][r]) return w.ranks[style()][r];
  return t(`rank.${style()}.${r}`);
}

/** A suit by its letter, alone ("coins", "denari"). */
export function suitName(s) {
  const w = gameWords();
  if (w && w.suits[style()] && w.suits[style()][s]) return w.suits[style()][s];
  return t(`suit.${style()}.${s}`);
}

/** A card's full name: "the ace of coins" as the language says it. */
export function cardName(card) {
  if (!card) return t("card.unknown");
  const w = gameWords();
  if (w && w.cards[style()] && w.cards[style()][card]) return w.cards[style()][card];
  return t("card.name", { rank: rankName(card), suit: t(`suitof.${style()}.${card[1]}`) });
}

/** A card's element: a button when `onClick` is given (`enabled` false: aria-disabled,
 * still focusable), else an image. Its text shows when the art does not load. */
export function cardEl(card, opts = {}) {
  const name = cardName(card);
  const img = h("img", { src: pictureUrl(card), alt: "", draggable: "false" });
  const text = h(
    "span",
    { class: "face-text", "aria-hidden": "true" },
    h("b", { text: rankName(card) }),
    h("span", { text: suitName(card[1]) }),
  );
  let el;
  if (opts.onClick) {
    el = h("button", {
      type: "button",
      class: "card",
      "data-card": card,
      "data-key": opts.key || `card-${card}`,
      "aria-label": name,
      "aria-disabled": opts.enabled ? "false" : "true",
      onclick: (ev) => {
        ev.preventDefault();
        if (opts.enabled) opts.onClick(card);
      },
    });
  } else {
    el = h("span", { class: "card", role: "img", "aria-label": name, "data-card": card });
  }
  img.addEventListener("error", () => el.classList.add("noart"));
  el.append(img, text);
  if (opts.extra) el.classList.add(...opts.extra.split(" "));
  return el;
}

/** A face-down card (another seat's hand, the stock). */
export function backEl(label) {
  const el = h("span", { class: "card back", role: "img", "aria-label": label });
  const img = h("img", { src: pictureUrl("back"), alt: "", draggable: "false" });
  img.addEventListener("error", () => el.classList.add("noart"));
  el.append(img, h("span", { class: "face-text", "aria-hidden": "true" }, "▒"));
  return el;
}

/** An empty place (the trick before its first card, the stock once drawn). */
export function slotEl(label) {
  const el = h("span", { class: "card slot", role: "img", "aria-label": label });
  const img = h("img", { src: pictureUrl("slot"), alt: "", draggable: "false" });
  img.addEventListener("error", () => el.classList.add("noart"));
  el.append(img, h("span", { class: "face-text", "aria-hidden": "true" }, ""));
  return el;
}
