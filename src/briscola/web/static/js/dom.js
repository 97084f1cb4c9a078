// A small element builder, and the page's shared places (the app, the live region).

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

/** Replace the children of `el`. */
export function fill(el, ...kids) {
  el.replaceChildren();
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : String(kid));
  }
  return el;
}

/** Say `text` to a screen reader (the page's aria-live region). */
export function announce(text) {
  const live = document.getElementById("live");
  if (!live) return;
  live.textContent = "";
  // A new text node, a moment later: read even when the same words come twice.
  setTimeout(() => {
    live.textContent = text;
  }, 30);
}

/** Keep the keyboard's place across a re-render: the `data-key` of the focused element. */
export function focusedKey() {
  const el = document.activeElement;
  return el && el.dataset ? el.dataset.key || null : null;
}

export function refocus(key, fallback) {
  if (!key) return;
  const el = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (el) el.focus();
  else if (fallback) {
    const other = document.querySelector(fallback);
    if (other) other.focus();
  }
}
