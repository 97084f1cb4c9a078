// Forms that more than one page shows: the nickname that makes a session (the home screen
// asks for it, and a table's page when someone opens an invitation with none).

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The form that chooses a nickname (a session); `done(player)` once it is made. */
export function nicknameForm(done, intro) {
  const input = h("input", {
    id: "nickname",
    name: "nickname",
    required: true,
    maxlength: "40",
    autocomplete: "nickname",
  });
  const error = h("p", { class: "error", role: "alert" });
  const form = h(
    "form",
    {
      class: "card-box",
      id: "nickname-form",
      onsubmit: async (e) => {
        e.preventDefault();
        try {
          done(await api("POST", "/api/session", { nickname: input.value }));
        } catch (err) {
          error.textContent = err.message;
        }
      },
    },
    h("h2", { text: t("home.welcome") }),
    intro ? h("p", { text: intro }) : null,
    h("label", { for: "nickname", text: t("home.nickname") }),
    h("div", { class: "row" }, input, h("button", { type: "submit", text: t("home.continue") })),
    error,
  );
  setTimeout(() => input.focus(), 0);
  return form;
}
