// The table's chat: its log (each line the text as it was typed, put in as text: never read
// as markup; a friendly phrase in the reader's language) and the form that says a line,
// built once a screen so what is typed stays. The table's `chat` setting chooses: `free`,
// the form at any time; `phrases`, once the cards are dealt (from the first deal to the
// match's end) a row of the friendly phrases instead of the form; `none`, no chat box at
// all. The server refuses free text then all the same (`chat_phrases`).

import { fill, h } from "../../dom.js";
import { t } from "../../i18n.js";

/** The friendly phrases, as the server takes them (`chat.phrase.ID` in the catalogues). */
export const PHRASES = ["hello", "nice_hand", "well_played", "thanks", "good_luck", "again", "sorry", "bye"];

/** Whether the table takes only the friendly phrases now: while anyone holds cards (as
 * the server judges it: the match playing, and a hand dealt, `view`, whose cards are in
 * someone's hand; in a match the next hand is dealt with the last card of the one
 * before). Before the first deal and after the match, anything may be written. */
export function phrasesOnly(table, view) {
  if (!table || table.chat !== "phrases" || table.status !== "playing") return false;
  return !view || (view.hand_sizes || []).some((n) => n > 0);
}

/** The chat box the table has now: "none", "phrases" or "free" (its frame is built again
 * when this changes: the first deal turns the form into the phrases, the match's end
 * turns them back). */
export function chatMode(table, view) {
  if (table && table.chat === "none") return "none";
  return phrasesOnly(table, view) ? "phrases" : "free";
}

function phraseRow(ui) {
  return h(
    "div",
    { class: "chat-phrases", id: "chat-phrases", role: "group", "aria-labelledby": "chat-phrases-said" },
    h("p", { class: "help", id: "chat-phrases-said", text: t("chat.phrases") }),
    h(
      "div",
      { class: "row" },
      PHRASES.map((id) =>
        h("button", { type: "button", class: "phrase", "data-phrase": id, "data-key": `phrase-${id}`, onclick: () => ui.ctrl.sayPhrase(id), text: t(`chat.phrase.${id}`) }),
      ),
    ),
  );
}

export function chatBox(ui) {
  const table = ui.ctrl.table;
  if (table && table.chat === "none") {
    ui.chatLog = null;
    return null;
  }
  const log = h("ol", { class: "chat-log", id: "chat-log", "aria-label": t("chat.title"), tabindex: "0" });
  if (phrasesOnly(table, ui.ctrl.view)) {
    ui.chatLog = log;
    const box = h("section", { class: "chat", "aria-labelledby": "chat-title" }, h("h2", { id: "chat-title", text: t("chat.title") }), log, phraseRow(ui));
    drawChat(ui);
    return box;
  }
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

/** The nicknames this reader muted at this table (kept for the tab's session). */
function muted(ctrl) {
  if (!ctrl.muted) {
    let kept = [];
    try {
      kept = JSON.parse(sessionStorage.getItem(`briscola.muted.${ctrl.token}`) || "[]");
    } catch {
      kept = [];
    }
    ctrl.muted = new Set(Array.isArray(kept) ? kept : []);
  }
  return ctrl.muted;
}

function toggleMute(ui, name) {
  const set = muted(ui.ctrl);
  if (set.has(name)) set.delete(name);
  else set.add(name);
  try {
    sessionStorage.setItem(`briscola.muted.${ui.ctrl.token}`, JSON.stringify([...set]));
  } catch {
    // private mode: the choice lasts for this page only
  }
  drawChat(ui);
}

/** The chat's lines, each with its author (a muted player's say only that they are
 * muted), then a button for each other player who has written: mute them, or hear them
 * again. */
export function drawChat(ui) {
  if (!ui.chatLog) return;
  const set = muted(ui.ctrl);
  const mine = ui.ctrl.me && ui.ctrl.me.nickname;
  fill(
    ui.chatLog,
    ui.ctrl.chat.map((c) => {
      const name = c.nickname || "?";
      const li = h("li", {}, h("b", { text: `${name}: ` }));
      const said = set.has(name) ? t("chat.muted") : c.phrase ? t(`chat.phrase.${c.phrase}`) : c.text;
      li.append(h("span", { text: said }));
      return li;
    }),
  );
  ui.chatLog.scrollTop = ui.chatLog.scrollHeight;
  const others = [...new Set(ui.ctrl.chat.map((c) => c.nickname).filter((n) => n && n !== mine))];
  let row = ui.chatLog.parentElement && ui.chatLog.parentElement.querySelector(".mutes");
  if (!row && ui.chatLog.parentElement) {
    row = h("div", { class: "mutes row" });
    ui.chatLog.after(row);
  }
  if (!row) return;
  fill(
    row,
    others.map((name) =>
      h("button", {
        type: "button",
        class: "mute",
        "data-mute": name,
        "aria-pressed": String(set.has(name)),
        onclick: () => toggleMute(ui, name),
        text: t(set.has(name) ? "chat.unmute" : "chat.mute", { name }),
      }),
    ),
  );
}
