// The player's preferences, and the family's saved ways to play, kept in localStorage.

const KEY = "briscola.prefs";
export const STYLES = ["napoletane", "spanish", "french"];
export const LANGUAGES = ["it", "en", "es", "hr"];
/** The seconds a finished trick stays on the table, the winning card marked, before it
 * goes to its taker (`trickPause`): the choices offered, and the default. */
export const TRICK_PAUSES = [0, 0.5, 1, 1.5, 2, 3, 4];
const TRICK_PAUSE = 1.5;

/** How your hand is sorted (js/handsort.js): by suit, then rank (trumps last), or by rank. */
export const SORTS = ["suit", "rank"];

function defaults() {
  const nav = (navigator.language || "en").slice(0, 2).toLowerCase();
  return {
    style: "napoletane", trump: "", lang: LANGUAGES.includes(nav) ? nav : "en", sound: false,
    trickPause: TRICK_PAUSE, sort: "suit",
  };
}

export const prefs = { ...defaults() };

export function loadPrefs() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    Object.assign(prefs, defaults(), saved);
  } catch {
    Object.assign(prefs, defaults());
  }
  if (!STYLES.includes(prefs.style)) prefs.style = "napoletane";
  if (!LANGUAGES.includes(prefs.lang)) prefs.lang = "en";
  const pause = Number(prefs.trickPause);
  prefs.trickPause = Number.isFinite(pause) ? Math.min(4, Math.max(0, pause)) : TRICK_PAUSE;
  if (!SORTS.includes(prefs.sort)) prefs.sort = "suit";
  return prefs;
}

/** How long a finished trick stays on the table, in ms (`trickPause`). */
export function trickPauseMs() {
  return Math.max(0, Number(prefs.trickPause) || 0) * 1000;
}

export function savePrefs(changes) {
  Object.assign(prefs, changes);
  try {
    localStorage.setItem(KEY, JSON.stringify(prefs));
  } catch {
    // private mode: the choice lasts for this page only
  }
}

const FAMILIES = "briscola.families";

/** The family's saved ways to play ("how our family plays"), by name: each
 * `{name, game, rules, seats, public, clock, points, chat}` as the setup screen chose them. */
export function families() {
  try {
    const list = JSON.parse(localStorage.getItem(FAMILIES) || "[]");
    if (!Array.isArray(list)) return [];
    return list.filter((f) => f && typeof f.name === "string" && typeof f.game === "string");
  } catch {
    return [];
  }
}

function keepFamilies(list) {
  list.sort((a, b) => a.name.localeCompare(b.name));
  try {
    localStorage.setItem(FAMILIES, JSON.stringify(list));
    return true;
  } catch {
    return false; // private mode or full: nothing is saved
  }
}

/** Save `family` under its name (one of that name already saved is replaced). */
export function saveFamily(family) {
  return keepFamilies([...families().filter((f) => f.name !== family.name), family]);
}

/** Rename a saved set; false when there is none of that name or the new name is taken. */
export function renameFamily(name, newName) {
  const list = families();
  const found = list.find((f) => f.name === name);
  if (!found || (newName !== name && list.some((f) => f.name === newName))) return false;
  found.name = newName;
  return keepFamilies(list);
}

export function deleteFamily(name) {
  return keepFamilies(families().filter((f) => f.name !== name));
}
