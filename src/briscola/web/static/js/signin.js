// The ways back in for someone with no session on this device, whom the home screen and
// the account page both greet: a passkey this device holds, or the one-time code another
// device of theirs shows.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Whether this browser can make and use passkeys on this page (a secure page, and the
 * WebAuthn JSON helpers: without them the passkey buttons are not shown). */
export function passkeysWork() {
  return (
    window.isSecureContext &&
    typeof window.PublicKeyCredential === "function" &&
    typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function" &&
    typeof PublicKeyCredential.parseRequestOptionsFromJSON === "function"
  );
}

/** A passkey ceremony's failure in words: the person cancelled, or the server refused. */
export function ceremonyError(err) {
  return err && err.name === "NotAllowedError" ? t("account.cancelled") : err.message;
}

/** Sign in with a passkey this device holds; `done(player)` once signed in. */
async function passkeySignIn() {
  const start = await api("POST", "/api/session/passkey/options");
  const credential = await navigator.credentials.get({
    publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(start.options),
  });
  return await api("POST", "/api/session/passkey", {
    ticket: start.ticket,
    credential: credential.toJSON(),
  });
}

/** The ways back in for someone playing already on another device: a passkey, or the
 * one-time code that device shows. `done(player)` once signed in. */
export function otherWays(done) {
  const error = h("p", { class: "error", role: "alert" });
  const code = h("input", {
    id: "sign-in-code",
    name: "code",
    required: true,
    maxlength: "20",
    autocomplete: "one-time-code",
    autocapitalize: "characters",
    spellcheck: "false",
    placeholder: "K7QM-4XPA",
  });
  const withCode = async (e) => {
    e.preventDefault();
    try {
      done(await api("POST", "/api/session/code/use", { code: code.value }));
    } catch (err) {
      error.textContent = err.message;
    }
  };
  const withPasskey = async () => {
    try {
      done(await passkeySignIn());
    } catch (err) {
      error.textContent = ceremonyError(err);
    }
  };
  return h(
    "section",
    { class: "card-box", id: "other-ways", "aria-labelledby": "other-ways-title" },
    h("h2", { id: "other-ways-title", text: t("signin.other") }),
    passkeysWork()
      ? h("button", { type: "button", id: "passkey-sign-in", onclick: withPasskey, text: t("signin.passkey") })
      : null,
    h(
      "form",
      { id: "code-form", onsubmit: withCode },
      h("label", { for: "sign-in-code", text: t("signin.code_label") }),
      h("div", { class: "row" }, code, h("button", { type: "submit", text: t("signin.code") })),
    ),
    error,
  );
}

