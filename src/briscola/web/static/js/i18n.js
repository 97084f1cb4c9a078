// Every string of the interface, through t(key): the server's catalogue of the language
// (`GET /api/catalogue?lang=`, the same sentences the terminal says; English beneath),
// a text's plural form chosen by `n` as Intl.PluralRules does; and the game's own words
// in the language (`GET /api/words`: the cards of each style, the games, the house rules),
// through gameWords().

import { prefs } from "./prefs.js";

let strings = {};
let english = {};
let plurals = new Intl.PluralRules("en");
let words = null;
let current = "en";
const loaded = new Map();

async function load(lang) {
  const r = await fetch(`/api/catalogue?lang=${encodeURIComponent(lang)}`);
  if (!r.ok) throw new Error(`no strings for ${lang}`);
  return (await r.json()).texts;
}

export async function setLanguage(lang) {
  const game = loadWords(lang).catch(() => null);
  if (!Object.keys(english).length) english = await load("en");
  strings = lang === "en" ? english : await load(lang).catch(() => english);
  plurals = new Intl.PluralRules(strings === english ? "en" : lang);
  document.documentElement.lang = lang;
  current = lang;
  await game;
}

/** The page's language (`it`, `en`, `es`, `hr`): a table made here is of it. */
export function language() {
  return current;
}

/** The game's words in `lang` with the player's word for trump (`GET /api/words`), asked
 * once for each language and word. */
export function loadWords(lang = prefs.lang) {
  const key = `${lang}|${prefs.trump || ""}`;
  if (!loaded.has(key)) {
    const query = new URLSearchParams({ lang });
    if (prefs.trump) query.set("trump_word", prefs.trump);
    const asked = fetch(`/api/words?${query}`).then((r) => {
      if (!r.ok) throw new Error(`no words for ${lang}`);
      return r.json();
    });
    asked.catch(() => loaded.delete(key));
    loaded.set(key, asked);
  }
  return loaded.get(key).then((data) => {
    if (lang === prefs.lang) words = data;
    return data;
  });
}

/** The game's words loaded for the page's language, or null while they load (the
 * interface's own strings stand in). */
export function gameWords() {
  return words && words.lang === prefs.lang ? words : null;
}

/** A house rule and its value in the chosen language ("Ultima presa: non si può
 * guardare", "Partita: punti da raggiungere: 121"); the raw name and value while the
 * words load. */
export function ruleInWords(name, value) {
  const rule = words && words.lang === prefs.lang ? words.rules[name] : null;
  if (!rule) return `${name.replace(/_/g, " ")}: ${value}`;
  const choice = rule.choices.find((c) => c.value === String(value));
  let label = choice ? choice.label : null;
  if (!label) {
    for (const [pattern, text] of Object.entries(rule.patterns)) {
      const [head] = pattern.split(":");
      const m = String(value).match(/^([a-z-]+):(\d+)$/);
      if (m && m[1] === head) label = text.replace("{n}", m[2]);
    }
  }
  return `${rule.title}: ${label ?? value}`;
}

/** The text of a catalogue entry: the entry, or of its forms the one named `form`, else
 * the plural category of `n`, else `other`. */
function form(entry, params) {
  if (typeof entry !== "object" || entry === null) return entry;
  if (params.form !== undefined && entry[params.form] !== undefined) return entry[params.form];
  if (typeof params.n === "number" && entry[plurals.select(params.n)] !== undefined) {
    return entry[plurals.select(params.n)];
  }
  return entry.other;
}

/** The grammatical forms a word may have (words/catalogue.py's GRAMMAR): with its article,
 * its cases. */
const GRAMMAR = ["def", "indef", "nom", "gen", "dat", "acc", "voc", "loc", "ins"];

/** A word or phrase (the string itself) with its grammatical forms: `{card:acc}` in a text
 * takes `forms.acc` (the plain text when the word has no such form). */
export class Worded extends String {
  constructor(text, forms = {}) {
    super(text);
    this.forms = forms;
  }

  form(name) {
    return this.forms[name] ?? String(this);
  }
}

/** The string `key` in the chosen language, its `{name}` places filled from `params`
 * (`{trump}` is the player's word for trump unless given; `n` chooses a plural form,
 * `form` a person or a grammatical form; `{name:acc}` asks a Worded value for a form). */
export function t(key, params = {}) {
  let s = form(strings[key] ?? english[key], params) ?? key;
  if (s.includes("{trump") && params.trump === undefined) {
    params = { ...params, trump: prefs.trump || word("word.trump") };
  }
  return s.replace(/\{(\w+)(?::(\w+))?\}/g, (m, name, f) => {
    const v = params[name];
    if (v === undefined) return m;
    return f && v instanceof Worded ? v.form(f) : String(v);
  });
}

/** An error of the server (`{code, message, values}`, docs/protocol.md) in the page's
 * language: the catalogue's `error.CODE` with its places filled from `values`, or the
 * error's own (English) message where no catalogue has the code or the values do not
 * fill its places. */
export function errorText(error) {
  const key = `error.${error.code}`;
  const fallback = error.message || String(error.code);
  const entry = strings[key] ?? english[key];
  if (entry === undefined) return fallback;
  const values = {};
  for (const [name, v] of Object.entries(error.values || {})) {
    if (name !== "form" && (typeof v === "string" || typeof v === "number")) values[name] = v;
  }
  const texts = typeof entry === "object" && entry !== null ? Object.values(entry) : [entry];
  for (const text of texts) {
    for (const [, name] of text.matchAll(/\{(\w+)(?::\w+)?\}/g)) if (!Object.hasOwn(values, name)) return fallback;
  }
  return t(key, values);
}

/** The text of `key` as t() says it, with each grammatical form its entry has said the
 * same way (a card's name with its article and cases). */
export function word(key, params = {}) {
  const entry = strings[key] ?? english[key];
  const forms = {};
  if (typeof entry === "object" && entry !== null) {
    for (const f of Object.keys(entry)) if (GRAMMAR.includes(f)) forms[f] = t(key, { ...params, form: f });
  }
  return new Worded(t(key, params), forms);
}

/** A person's name as the server sends it, said in the language: a deleted account's
 * seats in the matches it played are kept under the name `Anonymous` (which no one may
 * choose), said here as the language says it (`name.deleted`). */
export function personName(name) {
  return name === "Anonymous" ? t("name.deleted") : name;
}

/** "a", "a and b", "a, b and c" in the language (`list.and`). */
export function joined(names) {
  if (names.length <= 1) return names.join("");
  return t("list.and", { rest: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

/** `text` with its first letter a capital: a sentence of the catalogue (said lower-case,
 * as the terminal's lines are) at the start of a line, a label or a button. */
export function capital(text) {
  const s = String(text);
  return s.charAt(0).toLocaleUpperCase(document.documentElement.lang || undefined) + s.slice(1);
}
