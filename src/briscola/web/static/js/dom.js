// A small element builder, links inside the client, and the page's shared places (the app,
// the live region).

/** An element: `attrs` are attributes (`on...` listeners, `text`, `class`), then children. */
export function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k === "value") el.value = v;
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : String(kid));
  }
  return el;
}

/** A link inside the client: followed by `navigate` (the router's), without a page load. */
export function link(href, text, navigate, attrs = {}) {
  return h("a", {
    href,
    ...attrs,
    onclick: (e) => {
      e.preventDefault();
      navigate(href);
    },
    text,
  });
}

/** Replace the children of `el`. */
export function fill(el, ...kids) {
  el.replaceChildren();
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : String(kid));
  }
  return el;
}

let said = [];

/** Say `text` to a screen reader (the page's aria-live region); what is said in one go
 * (a card played, the trick taken, whose turn) is read together. */
export function announce(text) {
  const live = document.getElementById("live");
  if (!live) return;
  said.push(text);
  if (said.length > 1) return;
  setTimeout(() => {
    live.textContent = said.join(". ");
    said = [];
  }, 30);
}

/** Keep the keyboard's place across a re-render: the `data-key` of the focused element. */
export function focusedKey() {
  const el = document.activeElement;
  return el && el.dataset ? el.dataset.key || null : null;
}

/** Focus the element of `key` again, or else the first that one of `fallbacks` (CSS
 * selectors, in order) finds. */
export function refocus(key, ...fallbacks) {
  if (!key) return;
  const el = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (el) {
    if (el !== document.activeElement) el.focus();
    return;
  }
  for (const selector of fallbacks) {
    const other = document.querySelector(selector);
    if (other) {
      other.focus();
      return;
    }
  }
}
