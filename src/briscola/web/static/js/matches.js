// Your finished matches as a list of links, the newest first: the home screen shows the
// last ten, the history page ("/history") them all.

import { api, games } from "./api.js";
import { fill, h, link } from "./dom.js";
import { personName, t } from "./i18n.js";

export function gameName(catalog, key) {
  const g = catalog.games.find((x) => x.key === key);
  return g ? g.name : key;
}

function matchLine(catalog, m) {
  const people = Object.values(m.players).map(personName).join(", ");
  const score = m.hands_won.length ? ` · ${m.hands_won.join("–")}` : "";
  const result = m.winners.includes(m.seat) ? t("history.won") : t("history.lost");
  return `${gameName(catalog, m.game)} · ${new Date(m.at).toLocaleString()} · ${people}${score} · ${result}`;
}

/** Fill `list` (a ul) with your finished matches, the newest first, at most `most`;
 * each opens its match page. */
export async function fillHistory(list, navigate, most = Infinity) {
  const empty = () => fill(list, h("li", { class: "empty", text: t("home.history_empty") }));
  let matches;
  try {
    matches = await api("GET", "/api/history");
  } catch {
    empty();
    return;
  }
  if (!matches.length) {
    empty();
    return;
  }
  const catalog = await games();
  fill(
    list,
    matches.slice(0, most).map((m) =>
      h("li", { "data-token": m.token }, link(`/history/${m.token}`, matchLine(catalog, m), navigate)),
    ),
    matches.length > most ? h("li", {}, link("/history", t("replay.all"), navigate)) : null,
  );
}
