// A table's rules in plain words, by topic: the sentences the server makes from the
// table's own settings (`GET /api/tables/TOKEN/rules-text`), or from the settings chosen
// on the setup screen before the table exists (`GET /api/games/GAME/rules-text?RULE=...`),
// in the page's language with the player's word for trump.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { prefs } from "./prefs.js";

/** The topics in the order the page shows them (the server's, any other after). */
const TOPICS = ["game", "deal", "play", "scoring", "match", "talk"];

function query(rules = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(rules)) q.set(k, String(v));
  q.set("lang", prefs.lang);
  if (prefs.trump) q.set("trump_word", prefs.trump);
  return q;
}

/** The rules of the table `token`. */
export function tableRules(token) {
  return api("GET", `/api/tables/${encodeURIComponent(token)}/rules-text?${query()}`);
}

/** The rules a table of `game` would have with the house rules `rules` (the others at
 * their defaults). */
export function gameRules(game, rules) {
  return api("GET", `/api/games/${encodeURIComponent(game)}/rules-text?${query(rules)}`);
}

/** The sentences of a `rules-text` answer as lists under their topics' headings
 * (`level`: the headings' tag). */
export function rulesList(data, level = "h3") {
  const topics = [];
  for (const s of data.sentences) if (!topics.includes(s.topic)) topics.push(s.topic);
  topics.sort((a, b) => rank(a) - rank(b));
  return h(
    "div",
    { class: "rules-words", lang: data.lang },
    topics.map((topic) => {
      const id = `rules-topic-${topic}-${Math.random().toString(36).slice(2, 8)}`;
      const title = t(`words.topic.${topic}`);
      return h(
        "section",
        { class: "rules-topic", "data-topic": topic, "aria-labelledby": id },
        h(level, { id, text: title === `words.topic.${topic}` ? topic : title }),
        h(
          "ul",
          {},
          data.sentences
            .filter((s) => s.topic === topic)
            .map((s) => h("li", { "data-rule": s.rule || null, text: s.text })),
        ),
      );
    }),
  );
}

function rank(topic) {
  const i = TOPICS.indexOf(topic);
  return i < 0 ? TOPICS.length : i;
}

/** The element of the rules `asking` gives (a promise of a `rules-text` answer), or of
 * why there are none. */
export async function rulesPanel(asking, level) {
  try {
    return rulesList(await asking, level);
  } catch (e) {
    return h("p", { class: "error", role: "alert", text: `${t("table.rules_missing")} ${e.message || ""}`.trim() });
  }
}
