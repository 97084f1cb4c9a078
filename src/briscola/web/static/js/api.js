// The REST part of the protocol (docs/protocol.md): JSON in, JSON out, errors as ApiError,
// whose message is the server's error said in the page's language.

import { errorText } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message, values = {}, retryAfter = null) {
    super(errorText({ code, message, values }));
    this.status = status;
    this.code = code;
    this.values = values;
    this.english = message; // the server's own message, for programs and their authors
    this.retryAfter = retryAfter; // seconds to wait before asking again (429, 503), or null
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
    const wait = Number.parseInt(r.headers.get("Retry-After") || "", 10);
    throw new ApiError(r.status, err.code || "http", err.message || r.statusText, err.values || {}, Number.isFinite(wait) ? wait : null);
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
 * reports"), asked again each second while the server computes it, and after the wait
 * it names when it is busy or has been asked too many (a minute at most in all; then
 * its refusal, which says when to ask again). */
export async function analysisOf(token, hand, seen = "seat") {
  const query = seen === "all" ? "?seen=all" : "";
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    let body;
    try {
      body = await api("GET", `/api/tables/${token}/hands/${hand}/analysis${query}`);
    } catch (e) {
      if (e.retryAfter === null || Date.now() + 1000 * e.retryAfter > end) throw e;
      await new Promise((done) => setTimeout(done, 1000 * e.retryAfter));
      continue;
    }
    if (body.status !== "computing") return body;
    await new Promise((done) => setTimeout(done, 1000));
  }
  throw new ApiError(503, "busy", "the analysis took too long: ask again later");
}
