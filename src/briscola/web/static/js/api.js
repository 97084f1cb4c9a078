// The REST part of the protocol (docs/protocol.md): JSON in, JSON out, errors as ApiError,
// whose message is the server's error said in the page's language.

import { errorText } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message, values = {}) {
    super(errorText({ code, message, values }));
    this.status = status;
    this.code = code;
    this.values = values;
    this.english = message; // the server's own message, for programs and their authors
  }
}

export async function api(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let r;
  try {
    r = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, "offline", String(e));
  }
  const data = await r.json().catch(() => null);
  if (!r.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(r.status, err.code || "http", err.message || r.statusText, err.values || {});
  }
  return data;
}

/** The session's player, or null when there is none. */
export async function whoAmI() {
  try {
    return await api("GET", "/api/session");
  } catch (e) {
    if (e.status === 401) return null;
    throw e;
  }
}

let gamesCache = null;
export async function games() {
  if (!gamesCache) gamesCache = await api("GET", "/api/games");
  return gamesCache;
}

/** Finished hand `hand`'s analysis at `token`'s table (docs/records.md, "Analysis
 * reports"), asked again each second while the server computes it (a minute at most). */
export async function analysisOf(token, hand, seen = "seat") {
  const query = seen === "all" ? "?seen=all" : "";
  for (let tries = 0; tries < 60; tries++) {
    const body = await api("GET", `/api/tables/${token}/hands/${hand}/analysis${query}`);
    if (body.status !== "computing") return body;
    await new Promise((done) => setTimeout(done, 1000));
  }
  throw new ApiError(503, "busy", "the analysis took too long: ask again later");
}
