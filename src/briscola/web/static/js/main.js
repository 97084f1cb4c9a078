// The client's entry: the header (home, preferences), and the screen the path names:
// "/" the home screen, "/t/TOKEN" a table (its waiting room, the game, its end), and the
// history: "/history" your finished matches, "/history/TOKEN" one of them, and
// "/history/TOKEN/N" its hand N replayed ("?trick=K": at trick K); "/me" your account
// (passkeys, another device's code, your devices); "/families" your families,
// "/families/ID" one of them, "/join/TOKEN" an invitation to one.

import { api, whoAmI } from "./api.js";
import { announce, h, fill, link } from "./dom.js";
import { language, setLanguage, t } from "./i18n.js";
import { loadPrefs, prefs, savePrefs, SORTS, STYLES, LANGUAGES, TRICK_PAUSES } from "./prefs.js";
import { showHome } from "./home.js";
import { showAccount } from "./account.js";
import { showFamilies, showFamily, showJoin } from "./family.js";
import { TablePage } from "./table/page.js";
import { Replay, showHistory, showMatch } from "./replay.js";

let current = null;

export function navigate(path) {
  if (path !== location.pathname) history.pushState(null, "", path);
  route();
}

function route() {
  if (current && current.close) current.close();
  current = null;
  const app = document.getElementById("app");
  const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,100})\/?$/);
  const past = location.pathname.match(/^\/history(?:\/([A-Za-z0-9_-]{1,100})(?:\/(\d{1,4}))?)?\/?$/);
  if (m) {
    current = new TablePage(app, m[1], navigate);
    current.open();
  } else if (past && past[2]) {
    current = new Replay(app, navigate, past[1], Number(past[2]));
    current.open();
  } else if (past && past[1]) {
    showMatch(app, navigate, past[1]);
  } else if (past) {
    showHistory(app, navigate);
  } else if (/^\/me\/?$/.test(location.pathname)) {
    showAccount(app, navigate);
  } else if (/^\/families\/?$/.test(location.pathname)) {
    showFamilies(app, navigate);
  } else if (location.pathname.match(/^\/families\/(\d{1,12})\/?$/)) {
    showFamily(app, navigate, location.pathname.match(/^\/families\/(\d{1,12})\/?$/)[1]);
  } else if (location.pathname.match(/^\/join\/([A-Za-z0-9_-]{1,100})\/?$/)) {
    showJoin(app, navigate, location.pathname.match(/^\/join\/([A-Za-z0-9_-]{1,100})\/?$/)[1]);
  } else {
    showHome(app, navigate);
  }
  header();
}

function header() {
  const top = document.getElementById("top");
  fill(
    top,
    h(
      "nav",
      { class: "bar", "aria-label": t("nav.label") },
      h(
        "h1",
        { class: "brand-title" },
        h("a", {
          href: "/",
          class: "brand",
          onclick: (e) => {
            e.preventDefault();
            navigate("/");
          },
          text: t("app.title"),
        }),
      ),
      h("button", {
        type: "button",
        id: "prefs-button",
        "aria-expanded": "false",
        "aria-controls": "prefs",
        onclick: togglePrefs,
        text: t("prefs.open"),
      }),
    ),
    h("section", { id: "prefs", class: "prefs", hidden: true, "aria-label": t("prefs.title") }),
  );
}

function togglePrefs() {
  const panel = document.getElementById("prefs");
  const button = document.getElementById("prefs-button");
  const open = panel.hidden;
  panel.hidden = !open;
  button.setAttribute("aria-expanded", String(open));
  if (open) {
    renderPrefs(panel);
    panel.querySelector("select").focus();
  }
}

/** A finished trick's pause in words: none, or its seconds as the language writes them
 * ("1.5 sec", "1,5 s"). */
function pauseWords(seconds) {
  if (!seconds) return t("prefs.trick_pause_none");
  return new Intl.NumberFormat(language(), { style: "unit", unit: "second", unitDisplay: "short" }).format(seconds);
}

function renderPrefs(panel) {
  const select = (id, label, options, value, onchange) =>
    h(
      "label",
      { class: "field" },
      h("span", { text: label }),
      h(
        "select",
        { id, onchange: (e) => onchange(e.target.value) },
        options.map(([v, text]) => h("option", { value: v, selected: v === value, text })),
      ),
    );
  const changed = async (change) => {
    savePrefs(change);
    if (change.lang) await setLanguage(prefs.lang);
    route();
    const again = document.getElementById("prefs");
    again.hidden = false;
    document.getElementById("prefs-button").setAttribute("aria-expanded", "true");
    renderPrefs(again);
  };
  fill(
    panel,
    h("h2", { text: t("prefs.title") }),
    select("pref-style", t("prefs.style"), STYLES.map((s) => [s, t(`style.${s}`)]), prefs.style, (v) =>
      changed({ style: v }),
    ),
    select("pref-lang", t("prefs.lang"), LANGUAGES.map((l) => [l, t(`lang.${l}`)]), prefs.lang, (v) =>
      changed({ lang: v }),
    ),
    select("pref-sort", t("prefs.sort"), SORTS.map((s) => [s, t(`prefs.sort_${s}`)]), prefs.sort, (v) =>
      changed({ sort: v }),
    ),
    h(
      "label",
      { class: "field" },
      h("span", { text: t("prefs.trump") }),
      h("input", {
        id: "pref-trump",
        type: "text",
        maxlength: "30",
        value: prefs.trump,
        placeholder: t("word.trump"),
        onchange: (e) => changed({ trump: e.target.value.trim() }),
      }),
    ),
    h(
      "label",
      { class: "field check" },
      h("input", {
        id: "pref-sound",
        type: "checkbox",
        checked: prefs.sound,
        onchange: (e) => changed({ sound: e.target.checked }),
      }),
      h("span", { text: t("prefs.sound") }),
    ),
    select("pref-pause", t("prefs.trick_pause"), TRICK_PAUSES.map((s) => [String(s), pauseWords(s)]), String(prefs.trickPause), (v) =>
      changed({ trickPause: Number(v) }),
    ),
    h("div", { id: "account" }),
    h("button", { type: "button", onclick: togglePrefs, text: t("prefs.close") }),
  );
  account(panel.querySelector("#account"));
}

/** The panel's part for the signed-in person: rename, or sign out (the session ends on
 * the server at once). Nothing when nobody is signed in. */
async function account(box) {
  const me = await whoAmI().catch(() => null);
  if (!me || !box.isConnected) return;
  const input = h("input", { id: "account-nickname", name: "nickname", required: true, maxlength: "40", value: me.nickname });
  const said = h("p", { class: "note", role: "status" });
  const rename = async (e) => {
    e.preventDefault();
    try {
      const renamed = await api("PATCH", "/api/session", { nickname: input.value });
      input.value = renamed.nickname;
      said.textContent = t("prefs.renamed", { name: renamed.nickname });
      const hello = document.querySelector(".hello"); // the home screen's greeting
      if (hello) hello.textContent = t("home.hello", { name: renamed.nickname });
    } catch (err) {
      said.textContent = err.message;
    }
  };
  const away = (path) => {
    togglePrefs();
    navigate(path);
  };
  const signOut = async () => {
    try {
      await api("DELETE", "/api/session");
    } catch (err) {
      said.textContent = err.message;
      return;
    }
    togglePrefs();
    announce(t("prefs.signedout"));
    navigate("/");
  };
  fill(
    box,
    h(
      "form",
      { class: "field", id: "account-form", onsubmit: rename },
      h("label", { for: "account-nickname", text: t("prefs.account") }),
      h("div", { class: "row" }, input, h("button", { type: "submit", text: t("prefs.rename") })),
    ),
    said,
    h(
      "ul",
      { class: "prefs-links" },
      h("li", {}, link("/me", t("account.open"), away, { id: "account-link" })),
      h("li", {}, link("/families", t("family.yours"), away, { id: "families-link" })),
    ),
    h("button", { type: "button", id: "sign-out", onclick: signOut, text: t("prefs.signout") }),
  );
}

async function start() {
  loadPrefs();
  await setLanguage(prefs.lang);
  window.addEventListener("popstate", route);
  route();
  keepOffline();
}

/** The service worker (/sw.js): the client's files and the card art kept for the next
 * visit (the API is never kept). Where the browser has none, or refuses it (a private
 * window, a page not served over HTTPS), the site works as before. */
function keepOffline() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}

start();
