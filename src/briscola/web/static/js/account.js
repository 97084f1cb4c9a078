// Your account ("/me"): your passkeys, a one-time code that signs you in on another
// device, your devices (sessions) each signed out on its own, signing out everywhere, and
// deleting the account.

import { api, whoAmI } from "./api.js";
import { announce, fill, h } from "./dom.js";
import { language, t } from "./i18n.js";
import { nicknameForm } from "./forms.js";
import { copyButton } from "./copy.js";
import { ceremonyError, otherWays, passkeysWork } from "./signin.js";

function when(iso) {
  return new Date(iso).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
}

/** The account page; with no session, the ways in (a nickname, a passkey, a code). */
export async function showAccount(app, navigate) {
  const me = await whoAmI().catch(() => null);
  if (!me) {
    const again = () => showAccount(app, navigate);
    fill(app, nicknameForm(again, t("home.intro")), otherWays(again));
    return;
  }
  const said = h("p", { class: "note", role: "status", id: "account-said" });
  const tell = (text) => {
    said.textContent = text;
    announce(text);
  };
  const keys = h("ul", { class: "account-list", id: "passkeys" });
  const devices = h("ul", { class: "account-list", id: "devices" });
  const codeBox = h("div", { id: "code-box", "aria-live": "polite" });

  const showKeys = async () => {
    const mine = await api("GET", "/api/passkeys");
    fill(
      keys,
      mine.length
        ? mine.map((k) =>
            h(
              "li",
              {},
              h("span", { class: "what", text: k.device || t("account.unknown_device") }),
              h("span", {
                class: "when",
                text: k.used ? t("account.used", { date: when(k.used) }) : t("account.added", { date: when(k.created) }),
              }),
              h("button", {
                type: "button",
                class: "small",
                "aria-label": t("account.passkey_remove_named", { device: k.device || t("account.unknown_device") }),
                onclick: async () => {
                  try {
                    await api("DELETE", `/api/passkeys/${k.id}`);
                    tell(t("account.passkey_removed"));
                  } catch (err) {
                    tell(err.message);
                  }
                  showKeys();
                },
                text: t("account.passkey_remove"),
              }),
            ),
          )
        : h("li", { text: t("account.passkey_none") }),
    );
  };
  const addKey = async () => {
    try {
      const start = await api("POST", "/api/passkeys/options");
      const credential = await navigator.credentials.create({
        publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(start.options),
      });
      await api("POST", "/api/passkeys", { ticket: start.ticket, credential: credential.toJSON() });
      tell(t("account.passkey_added"));
    } catch (err) {
      tell(ceremonyError(err));
    }
    showKeys();
  };

  const showDevices = async () => {
    const mine = await api("GET", "/api/session/devices");
    fill(
      devices,
      mine.map((d) =>
        h(
          "li",
          { class: d.current ? "current" : null },
          h("span", { class: "what", text: d.device || t("account.unknown_device") }),
          h("span", {
            class: "when",
            text: d.current ? t("account.this_device") : t("account.seen", { date: when(d.seen) }),
          }),
          d.current
            ? null
            : h("button", {
                type: "button",
                class: "small",
                "aria-label": t("account.sign_out_named", { device: d.device || t("account.unknown_device") }),
                onclick: async () => {
                  try {
                    await api("DELETE", `/api/session/devices/${d.id}`);
                    tell(t("account.signed_out_device"));
                  } catch (err) {
                    tell(err.message);
                  }
                  showDevices();
                },
                text: t("account.sign_out_device"),
              }),
        ),
      ),
    );
  };
  const makeCode = async () => {
    try {
      const made = await api("POST", "/api/session/code");
      const code = h("p", { class: "code", id: "code", text: made.code });
      const [copy, copied] = copyButton(made.code, code, t("copy.code"), "copy-code");
      fill(
        codeBox,
        code,
        h("div", { class: "row" }, copy, copied),
        h("p", { class: "note", text: t("account.code_valid") }),
      );
    } catch (err) {
      tell(err.message);
    }
  };
  const everywhere = async () => {
    try {
      await api("DELETE", "/api/session/devices");
    } catch (err) {
      tell(err.message);
      return;
    }
    announce(t("account.signed_out_everywhere"));
    navigate("/");
  };

  const confirm = h("input", { id: "delete-confirm", name: "confirm", required: true, maxlength: "60", autocomplete: "off" });
  const deleteAccount = async (e) => {
    e.preventDefault();
    try {
      await api("DELETE", "/api/session/account", { confirm: confirm.value });
    } catch (err) {
      tell(err.message);
      return;
    }
    announce(t("account.deleted"));
    navigate("/");
  };
  fill(
    app,
    h("h2", { class: "page-title", text: t("account.title", { name: me.nickname }) }),
    said,
    h(
      "section",
      { class: "card-box", "aria-labelledby": "passkeys-title" },
      h("h3", { id: "passkeys-title", text: t("account.passkeys") }),
      h("p", { class: "note", text: t("account.passkeys_intro") }),
      keys,
      passkeysWork()
        ? h("button", { type: "button", id: "add-passkey", onclick: addKey, text: t("account.passkey_add") })
        : h("p", { class: "note", text: t("account.passkeys_unavailable") }),
    ),
    h(
      "section",
      { class: "card-box", "aria-labelledby": "code-title" },
      h("h3", { id: "code-title", text: t("account.code_title") }),
      h("p", { class: "note", text: t("account.code_intro") }),
      h("button", { type: "button", id: "make-code", onclick: makeCode, text: t("account.code_make") }),
      codeBox,
    ),
    h(
      "section",
      { class: "card-box", "aria-labelledby": "devices-title" },
      h("h3", { id: "devices-title", text: t("account.devices") }),
      devices,
      h("button", { type: "button", id: "sign-out-everywhere", onclick: everywhere, text: t("account.everywhere") }),
    ),
    h(
      "section",
      { class: "card-box", "aria-labelledby": "delete-title" },
      h("h3", { id: "delete-title", text: t("account.delete_title") }),
      h("p", { class: "note", text: t("account.delete_help") }),
      h(
        "form",
        { id: "delete-account", onsubmit: deleteAccount },
        h("label", { for: "delete-confirm", text: t("account.delete_label") }),
        h("div", { class: "row" }, confirm, h("button", { type: "submit", class: "danger", text: t("account.delete") })),
      ),
    ),
  );
  await Promise.all([showKeys(), showDevices()]);
}
