// Cards in the engine's notation (rank then suit: "Ab", "Qd", "Ts"): their names in the
// chosen language and faces, and their elements (the project's art, with a text fallback).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { prefs } from "./prefs.js";

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
  if (style() === "french" && "JQK".includes(r)) return t(`rank.french.${r}`);
  return t(`rank.${r}`);
}

/** A suit by its letter, alone ("coins", "denari"). */
export function suitName(s) {
  return t(`suit.${style()}.${s}`);
}

/** A card's full name: "the ace of coins" as the language says it. */
export function cardName(card) {
  if (!card) return t("card.unknown");
  return t("card.name", { rank: rankName(card), suit: t(`suitof.${style()}.${card[1]}`) });
}

/** A card's element: a button when `onClick` is given (`enabled` false: aria-disabled,
 * still focusable), else an image. Its text shows when the art does not load. */
export function cardEl(card, opts = {}) {
  const name = cardName(card);
  const img = h("img", { src: `/cards/${style()}/${card}.svg`, alt: "", draggable: "false" });
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
  const img = h("img", { src: `/cards/${style()}/back.svg`, alt: "", draggable: "false" });
  img.addEventListener("error", () => el.classList.add("noart"));
  el.append(img, h("span", { class: "face-text", "aria-hidden": "true" }, "▒"));
  return el;
}

/** Whether `card` is a carico (an ace or a three). */
export function isCarico(card) {
  return card[0] === "A" || card[0] === "3";
}
