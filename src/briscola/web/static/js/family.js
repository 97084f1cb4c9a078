// The family's own place: "/families" your families (and a new one), "/families/ID" one
// of them (its members, its invitation links, its ways to play with a table opened from
// each in a click, its tables, its matches and its standings), and "/join/TOKEN" an
// invitation.

import { api, games, whoAmI } from "./api.js";
import { announce, fill, h, link } from "./dom.js";
import { gameWords, language, loadWords, personName, t } from "./i18n.js";
import { nicknameForm } from "./forms.js";
import { families as savedHere } from "./prefs.js";
import { gameName } from "./matches.js";
import { otherWays } from "./signin.js";
import { addWaysTo } from "./ways.js";
import { copyButton } from "./copy.js";
import { followNews } from "./news.js";

/** With no session: the ways in, then `again()`. */
async function signedIn(app, again) {
  const me = await whoAmI().catch(() => null);
  if (!me) fill(app, nicknameForm(again, t("home.intro")), otherWays(again));
  return me;
}

function status(id) {
  return h("p", { class: "note", role: "status", id });
}

function section(id, title, ...kids) {
  return h("section", { class: "card-box", "aria-labelledby": `${id}-title` }, h("h3", { id: `${id}-title`, text: title }), ...kids);
}

/** "/families": yours, each a link, and the form that makes a new one. */
export async function showFamilies(app, navigate) {
  if (!(await signedIn(app, () => showFamilies(app, navigate)))) return;
  const mine = await api("GET", "/api/families");
  const name = h("input", { id: "new-family-name", name: "name", required: true, maxlength: "60", autocomplete: "off" });
  const said = h("p", { class: "error", role: "alert" });
  const create = async (e) => {
    e.preventDefault();
    try {
      const made = await api("POST", "/api/families", { name: name.value });
      navigate(`/families/${made.id}`);
    } catch (err) {
      said.textContent = err.message;
    }
  };
  fill(
    app,
    h("h2", { text: t("family.yours") }),
    h(
      "ul",
      { class: "account-list", id: "family-links" },
      mine.length
        ? mine.map((f) => h("li", {}, link(`/families/${f.id}`, f.name, navigate), h("span", { class: "when", text: t(`family.role_${f.role}`) })))
        : h("li", { text: t("family.none") }),
    ),
    h(
      "form",
      { class: "card-box", id: "new-family", onsubmit: create },
      h("label", { for: "new-family-name", text: t("family.new_name") }),
      h("div", { class: "row" }, name, h("button", { type: "submit", text: t("family.create") })),
      said,
    ),
  );
}

/** "/join/TOKEN": the family an invitation invites to, and joining it. */
export async function showJoin(app, navigate, token) {
  let preview;
  try {
    preview = await api("GET", `/api/invites/${token}`);
  } catch (err) {
    fill(app, h("p", { class: "error", role: "alert", id: "join-error", text: err.message }), link("/", t("family.home"), navigate));
    return;
  }
  if (!(await signedIn(app, () => showJoin(app, navigate, token)))) return;
  const said = h("p", { class: "error", role: "alert" });
  const join = async () => {
    try {
      const family = await api("POST", `/api/invites/${token}`);
      navigate(`/families/${family.id}`);
    } catch (err) {
      said.textContent = err.message;
    }
  };
  fill(
    app,
    h(
      "section",
      { class: "card-box", "aria-labelledby": "join-title" },
      h("h2", { id: "join-title", text: t("family.join_title", { name: preview.family }) }),
      h("button", { type: "button", id: "join-family", onclick: join, text: t("family.join") }),
      said,
    ),
  );
}

function who(line) {
  return line.level ? t("family.computer", { level: t(`level.${line.level}`) }) : personName(line.nickname);
}

function when(iso) {
  return new Date(iso).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
}

/** "/families/ID": the family's page. */
export async function showFamily(app, navigate, id) {
  const me = await signedIn(app, () => showFamily(app, navigate, id));
  if (!me) return;
  let family;
  try {
    family = await api("GET", `/api/families/${id}`);
  } catch (err) {
    fill(app, h("p", { class: "error", role: "alert", id: "family-error", text: err.message }), link("/families", t("family.yours"), navigate));
    return;
  }
  await loadWords().catch(() => null);
  const catalog = await games();
  const admin = family.role === "admin";
  const said = status("family-said");
  const tell = (text) => {
    said.textContent = text;
    announce(text);
  };
  const again = () => showFamily(app, navigate, id);
  const act = async (method, path, body, done) => {
    try {
      const out = await api(method, path, body);
      if (done) tell(done);
      return out;
    } catch (err) {
      tell(err.message);
      return null;
    }
  };
  const gameLabel = (key) => (gameWords() && gameWords().games[key]?.name) || gameName(catalog, key);

  // members
  const members = h(
    "ul",
    { class: "account-list", id: "members" },
    family.members.map((m) =>
      h(
        "li",
        { "data-player": m.player },
        h("span", { class: "what", text: m.nickname }),
        h("span", { class: "when", text: t(`family.role_${m.role}`) }),
        admin && m.player !== me.id && m.role === "member"
          ? h("button", { type: "button", class: "small", onclick: async () => (await act("PUT", `/api/families/${id}/members/${m.player}`, { role: "admin" })) && again(), text: t("family.make_admin"), "aria-label": t("family.make_admin_named", { name: m.nickname }) })
          : null,
        admin && m.player !== me.id
          ? h("button", { type: "button", class: "small", onclick: async () => (await act("DELETE", `/api/families/${id}/members/${m.player}`)) !== null && again(), text: t("family.remove"), "aria-label": t("family.remove_named", { name: m.nickname }) })
          : null,
      ),
    ),
  );
  const leave = async () => {
    if ((await act("DELETE", `/api/families/${id}/members/${me.id}`)) !== null) navigate("/families");
  };

  // invitation links (admins)
  const inviteBox = h("div", { id: "invite-box" });
  const invite = async () => {
    const made = await act("POST", `/api/families/${id}/invites`);
    if (!made) return;
    const url = new URL(made.link, location.origin).href;
    const field = h("input", { id: "invite-link", type: "text", readonly: true, value: url, onfocus: (e) => e.target.select() });
    const [copy, copied] = copyButton(url, field, t("copy.link"), "copy-invite");
    fill(
      inviteBox,
      h("label", { for: "invite-link", text: t("family.invite_link") }),
      h("div", { class: "row" }, field, copy),
      copied,
      h("p", { class: "note", text: t("family.invite_until", { date: when(made.expires) }) }),
      h("button", { type: "button", id: "revoke-invite", onclick: async () => (await act("DELETE", `/api/families/${id}/invites/${made.id}`, undefined, t("family.revoked"))) !== null && fill(inviteBox), text: t("family.revoke") }),
    );
  };

  // ways to play
  const ways = await api("GET", `/api/families/${id}/rules`);
  const here = savedHere();
  const importHere = async () => {
    tell(t("family.imported", { n: await addWaysTo(id) }));
    again();
  };
  const wayList = h(
    "ul",
    { class: "account-list", id: "ways" },
    ways.length
      ? ways.map((w) =>
          h(
            "li",
            { "data-way": w.name },
            h("span", { class: "what", text: w.name }),
            h("span", { class: "when", text: gameLabel(w.body.game) }),
            h("button", {
              type: "button",
              class: "open-way",
              onclick: async () => {
                const table = await act("POST", `/api/families/${id}/rules/${w.id}/table`);
                if (table) navigate(table.invite);
              },
              text: t("family.open_table"),
              "aria-label": t("family.open_table_named", { name: w.name }),
            }),
            h("button", { type: "button", class: "small", onclick: async () => (await act("DELETE", `/api/families/${id}/rules/${w.id}`)) !== null && again(), text: t("family.delete_way"), "aria-label": t("family.delete_way_named", { name: w.name }) }),
          ),
        )
      : h("li", { text: t("family.no_ways") }),
  );

  // tables, matches, standings
  let [open, matches, standing] = await Promise.all([
    api("GET", `/api/families/${id}/tables`),
    api("GET", `/api/families/${id}/matches`),
    api("GET", `/api/families/${id}/standings`),
  ]);
  const tableList = h("ul", { class: "account-list", id: "family-tables" });
  const drawTables = (open) =>
    fill(
      tableList,
      open.length
        ? open.map((tb) => h("li", {}, link(tb.invite, `${gameLabel(tb.game)} · ${tb.seats.map((s) => personName(s.nickname || s.name || "…")).join(", ")}`, navigate)))
        : h("li", { text: t("family.no_tables") }),
    );
  drawTables(open);
  // The news: the family's tables as they open, fill and end; the page again when you
  // were removed from the family (it then says so) or it was renamed.
  followNews(tableList, async (news) => {
    if (news.type === "family" && String(news.family) !== String(id)) return;
    const gone = (e) => (e.status === 404 ? null : undefined); // undefined: try at the next
    const [still, now] = await Promise.all([
      api("GET", `/api/families/${id}`).catch(gone),
      api("GET", `/api/families/${id}/tables`).catch(gone),
    ]);
    if (!tableList.isConnected || still === undefined || now === undefined) return;
    // Removed from the family, or it was renamed, or a table ended (its match, the
    // standings): the page again.
    const ended = open.some((tb) => !now.find((n) => n.token === tb.token));
    if (!still || !now || still.name !== family.name || ended) return again();
    if (now.length > open.length) announce(t("family.table_opened"));
    drawTables((open = now));
  });
  const matchList = h(
    "ul",
    { class: "account-list", id: "family-matches" },
    matches.length
      ? matches.slice(0, 20).map((m) =>
          h(
            "li",
            {},
            link(
              `/history/${m.token}`,
              `${gameLabel(m.game)} · ${when(m.at)} · ${Object.values(m.players).map(personName).join(", ")}${m.hands_won.length ? ` · ${m.hands_won.join("–")}` : ""}`,
              navigate,
            ),
          ),
        )
      : h("li", { text: t("family.no_matches") }),
  );

  fill(
    app,
    h("h2", { id: "family-title", text: family.name }),
    said,
    admin ? renameForm(id, family.name, act, again) : null,
    section("members", t("family.members"), members, h("button", { type: "button", id: "leave-family", onclick: leave, text: t("family.leave") })),
    admin ? section("invite", t("family.invite_title"), h("p", { class: "note", text: t("family.invite_help") }), h("button", { type: "button", id: "make-invite", onclick: invite, text: t("family.invite") }), inviteBox) : null,
    section(
      "ways",
      t("family.ways"),
      h("p", { class: "note", text: t("family.ways_help") }),
      wayList,
      here.length ? h("button", { type: "button", id: "import-ways", onclick: importHere, text: t("family.import", { n: here.length }) }) : null,
    ),
    section("tables", t("family.tables"), tableList),
    section("standings", t("family.standings"), standingsView(standing, gameLabel, (game) => showStandings(id, game))),
    section("matches", t("family.matches"), matchList),
  );

  async function showStandings(family, game) {
    const fresh = await api("GET", `/api/families/${family}/standings?game=${encodeURIComponent(game)}`);
    const box = document.getElementById("standings-box");
    if (box) box.replaceWith(standingsView(fresh, gameLabel, (g) => showStandings(family, g)));
  }
}

function renameForm(id, name, act, again) {
  const input = h("input", { id: "family-rename", name: "name", required: true, maxlength: "60", value: name });
  return h(
    "form",
    {
      class: "row rename-family",
      id: "rename-family",
      onsubmit: async (e) => {
        e.preventDefault();
        if (await act("PATCH", `/api/families/${id}`, { name: input.value })) again();
      },
    },
    h("label", { for: "family-rename", class: "sr-only", text: t("family.rename_label") }),
    input,
    h("button", { type: "submit", text: t("family.rename") }),
  );
}

/** A rating as people read it: a whole number around 1500 and its margin ("1611 ± 339"),
 * marked provisional under 5 matches (the server says which). */
function ratingCell(l) {
  const num = new Intl.NumberFormat(language(), { maximumFractionDigits: 0, useGrouping: false });
  return h(
    "td",
    { class: "rating", "data-rating": l.shown },
    h("span", { class: "figure", text: `${num.format(l.shown)} ± ${num.format(l.margin)}` }),
    l.provisional ? h("span", { class: "provisional", text: ` (${t("family.provisional")})` }) : null,
  );
}

/** The standings of one game, this month and overall: the family's people in one table,
 * the computer players apart in another; who beat whom, and the pairs. */
function standingsView(s, gameLabel, choose) {
  if (!s.game) return h("div", { id: "standings-box" }, h("p", { text: t("family.no_standings") }));
  const names = new Map();
  for (const line of [...s.overall.table, ...s.month.table]) names.set(line.key, who(line));
  const table = (lines, id, caption) =>
    h(
      "table",
      { class: "standings", id },
      h("caption", { text: caption }),
      h("thead", {}, h("tr", {}, ["#", t("family.player"), t("family.rating"), t("family.played"), t("family.won")].map((c) => h("th", { scope: "col", text: c })))),
      h("tbody", {}, lines.map((l, i) => h("tr", { "data-key": l.key }, h("td", { text: String(i + 1) }), h("th", { scope: "row", text: who(l) }), ratingCell(l), h("td", { text: String(l.played) }), h("td", { text: String(l.won) })))),
    );
  const period = (lines, id, title) => {
    if (!lines.length) return h("div", {}, h("h4", { text: title }), h("p", { text: t("family.no_matches_month") }));
    const people = lines.filter((l) => !l.level);
    const bots = lines.filter((l) => l.level);
    return h(
      "div",
      { class: "standings-period" },
      h("h4", { text: title }),
      people.length ? table(people, id, t("family.people")) : null,
      bots.length ? table(bots, `${id}-computers`, t("family.computers")) : null,
    );
  };
  return h(
    "div",
    { id: "standings-box" },
    s.games.length > 1
      ? h(
          "label",
          { class: "field" },
          h("span", { text: t("family.game") }),
          h("select", { id: "standings-game", onchange: (e) => choose(e.target.value) }, s.games.map((g) => h("option", { value: g, selected: g === s.game, text: gameLabel(g) }))),
        )
      : h("p", { text: gameLabel(s.game) }),
    period(s.month.table, "standings-month", t("family.this_month")),
    period(s.overall.table, "standings-overall", t("family.overall")),
    h("p", { class: "help", id: "rating-help", text: t("family.rating_help") }),
    s.overall.head_to_head.length
      ? h("div", {}, h("h4", { text: t("family.head_to_head") }), h("ul", { class: "account-list", id: "head-to-head" }, s.overall.head_to_head.map((r) => h("li", { text: `${names.get(r.a)} ${r.a_won} – ${r.b_won} ${names.get(r.b)}` }))))
      : null,
    s.overall.pairs.length
      ? h("div", {}, h("h4", { text: t("family.pairs") }), h("ul", { class: "account-list", id: "pairs" }, s.overall.pairs.slice(0, 5).map((r) => h("li", { text: t("family.pair_line", { a: names.get(r.a), b: names.get(r.b), won: r.won, played: r.played }) }))))
      : null,
  );
}
