// The player's preferences, kept in localStorage.

const KEY = "briscola.prefs";
export const STYLES = ["napoletane", "spanish", "french"];
export const LANGUAGES = ["it", "en", "es", "hr"];

function defaults() {
  const nav = (navigator.language || "en").slice(0, 2).toLowerCase();
  return { style: "napoletane", trump: "", lang: LANGUAGES.includes(nav) ? nav : "en", sound: false };
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
  return prefs;
}

export function savePrefs(changes) {
  Object.assign(prefs, changes);
  try {
    localStorage.setItem(KEY, JSON.stringify(prefs));
  } catch {
    // private mode: the choice lasts for this page only
  }
}
