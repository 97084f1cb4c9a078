// The Copy buttons of the links and codes (a table's link, a family's invitation, the code
// for another device): the clipboard where the browser allows it, else the text selected
// for the person to copy; either way a visible line that screen readers hear.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Select the text of `field`: an input's value, or an element's words. */
function selectText(field) {
  if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) {
    field.focus();
    field.select();
    return;
  }
  const range = document.createRange();
  range.selectNodeContents(field);
  const sel = window.getSelection();
  sel.removeAllRanges();
  sel.addRange(range);
}

/** A button that copies `text` (shown in `field`, or in the element `field()` gives),
 * with `label` on it, and the line that says it was copied (or, where the clipboard is
 * refused, that the text is selected): `[button, said]`, to place side by side. */
export function copyButton(text, field, label, id) {
  const said = h("span", { class: "copied", role: "status", id: id ? `${id}-said` : null });
  const button = h("button", {
    type: "button",
    class: "copy",
    id,
    "data-key": id,
    onclick: async () => {
      let words;
      try {
        await navigator.clipboard.writeText(text);
        words = t("copy.done");
      } catch {
        selectText(typeof field === "function" ? field() : field);
        let copied = false;
        try {
          copied = document.execCommand("copy");
        } catch {
          copied = false;
        }
        words = copied ? t("copy.done") : t("copy.selected");
      }
      said.textContent = "";
      // emptied first, so that the same words said again are heard again
      setTimeout(() => {
        said.textContent = words;
      }, 20);
    },
    text: label,
  });
  return [button, said];
}
