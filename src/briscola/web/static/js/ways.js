// This device's ways to play (saved in its localStorage before there were families on
// the server), added to one of your families: the home screen offers it once, the
// family's page whenever this device holds some.

import { api } from "./api.js";
import { language } from "./i18n.js";
import { families as savedHere } from "./prefs.js";

const OFFERED = "briscola.ways-offered";

/** The table a saved way opens, as `POST /api/tables` takes it (`me`: the host's seat),
 * in the page's language (its computer players' names are of it). */
export function tableBody(f) {
  const body = { game: f.game, rules: f.rules || {}, seats: f.seats, public: !!f.public, lang: language() };
  if (f.clock) body.clock = f.clock;
  if (f.points) body.points = f.points;
  if (f.chat) body.chat = f.chat;
  if (f.hints) body.hints = true;
  return body;
}

/** Add every way this device keeps to the family `id`; how many it took (a name the
 * family has already, or a way the server refuses, stays here alone). */
export async function addWaysTo(id) {
  let n = 0;
  for (const f of savedHere()) {
    try {
      await api("POST", `/api/families/${id}/rules`, { name: f.name, body: tableBody(f) });
      n += 1;
    } catch {
      // kept on this device
    }
  }
  offered();
  return n;
}

/** Whether the home screen offered this device's ways to a family already. */
export function wasOffered() {
  try {
    return localStorage.getItem(OFFERED) === "1";
  } catch {
    return true;
  }
}

export function offered() {
  try {
    localStorage.setItem(OFFERED, "1");
  } catch {
    // private mode: offered again next time
  }
}
