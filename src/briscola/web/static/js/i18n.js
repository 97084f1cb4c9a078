// Every string of the interface, through t(key): static/i18n/LANG.json, English beneath.

import { prefs } from "./prefs.js";

let strings = {};
let english = {};

async function load(lang) {
  const r = await fetch(`/static/i18n/${lang}.json`);
  if (!r.ok) throw new Error(`no strings for ${lang}`);
  return r.json();
}

export async function setLanguage(lang) {
  if (!Object.keys(english).length) english = await load("en");
  strings = lang === "en" ? english : await load(lang).catch(() => english);
  document.documentElement.lang = lang;
}

/** The string `key` in the chosen language, its `{name}` places filled from `params`
 * (`{trump}` is the player's word for trump unless given). */
export function t(key, params = {}) {
  let s = strings[key] ?? english[key] ?? key;
  if (s.includes("{trump}") && params.trump === undefined) {
    params = { ...params, trump: prefs.trump || strings["word.trump"] || english["word.trump"] };
  }
  return s.replace(/\{(\w+)\}/g, (m, name) => (params[name] !== undefined ? String(params[name]) : m));
}
