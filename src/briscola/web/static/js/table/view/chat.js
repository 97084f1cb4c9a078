// The table's chat: its log (each line the text as it was typed, put in as text: never read
// as markup) and the form that says a line, built once a screen so what is typed stays.

import { fill, h } from "../../dom.js";
import { t } from "../../i18n.js";

export function chatBox(ui) {
  const log = h("ol", { class: "chat-log", id: "chat-log", "aria-label": t("chat.title"), tabindex: "0" });
  const input = h("input", { id: "chat-input", "data-key": "chat-input", maxlength: "300", autocomplete: "off" });
  const form = h(
    "form",
    {
      class: "chat-form",
      onsubmit: (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (text && ui.ctrl.say(text)) input.value = "";
      },
    },
    h("label", { for: "chat-input", class: "sr-only", text: t("chat.say") }),
    input,
    h("button", { type: "submit", "data-key": "chat-send", text: t("chat.send") }),
  );
  ui.chatLog = log;
  const box = h("section", { class: "chat", "aria-labelledby": "chat-title" }, h("h2", { id: "chat-title", text: t("chat.title") }), log, form);
  drawChat(ui);
  return box;
}

export function drawChat(ui) {
  if (!ui.chatLog) return;
  fill(
    ui.chatLog,
    ui.ctrl.chat.map((c) => {
      const li = h("li", {}, h("b", { text: `${c.nickname || "?"}: ` }));
      li.append(h("span", { text: c.text }));
      return li;
    }),
  );
  ui.chatLog.scrollTop = ui.chatLog.scrollHeight;
}
