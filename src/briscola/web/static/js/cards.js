// Cards in the engine's notation (rank then suit: "Ab", "Qd", "Ts"): their names in the
// chosen language and faces (the game's words, `GET /api/words`; the interface's own
// strings while they load), and their elements (the project's art, `/cards/STYLE/CARD.svg`
// at the server's version, with a text fallback).

import { games } from "./api.js";
import { h } from "./dom.js";
import { gameWords, word } from "./i18n.js";
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
let deckShown = null;

/** The faces of the game being shown: a French deck is always in French faces. */
export function setDeck(deckName) {
  deckShown = deckName || null;
  deckStyle = deckName && deckName.startsWith("french") ? "french" : null;
}

/** The deck of the game being shown ("italian-40", "french-32"), or null. */
export function deck() {
  return deckShown;
}

export function style() {
  return deckStyle || prefs.style;
}

/** A rank by a card's code (its first letter), with its forms ("asso", "l'asso"). */
export function rankName(card) {
  return word(`rank.${style()}.${card[0]}`);
}

/** A rank written short, as the cards shown print it in their corner (a card's code, or a
 * rank's): "R", "C", "F" on the Italian cards, "R", "C", "S" on the Spanish, "K", "Q", "J"
 * on the French; the one table of them is the server's (words/cards.py's LETTERS, in
 * `GET /api/words`), the notation's letter while the words load. */
export function rankLetter(card) {
  const words = gameWords();
  return (words && words.letters && words.letters[style()][card[0]]) || card[0];
}

/** A suit by its letter, alone ("coins", "denari"). */
export function suitName(s) {
  return word(`suit.${style()}.${s}`);
}

/** A card's full name as the language says it, with its forms ("asso di coppe", and
 * "l'asso di coppe" for `{card:def}`; Croatian "asa kupa" for `{card:acc}`). */
export function cardName(card) {
  if (!card) return word("card.unknown");
  return word("card.name", { rank: rankName(card), suit: word(`suitof.${style()}.${card[1]}`) });
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
