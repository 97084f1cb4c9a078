// The home screen (a nickname, play against the computer now, create or join a table, the
// lobby, your history) and the table setup screen.

import { api, ApiError, games, whoAmI } from "./api.js";
import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { fillHistory } from "./replay.js";

const DEFAULT_GAME = "briscola-2";
const DEFAULT_LEVEL = "intermediate";

/** The form that chooses a nickname (a session); `done(player)` once it is made. */
export function nicknameForm(done, intro) {
  const input = h("input", {
    id: "nickname",
    name: "nickname",
    required: true,
    maxlength: "40",
    autocomplete: "nickname",
  });
  const error = h("p", { class: "error", role: "alert" });
  const form = h(
    "form",
    {
      class: "card-box",
      id: "nickname-form",
      onsubmit: async (e) => {
        e.preventDefault();
        try {
          done(await api("POST", "/api/session", { nickname: input.value }));
        } catch (err) {
          error.textContent = err.message;
        }
      },
    },
    h("h2", { text: t("home.welcome") }),
    intro ? h("p", { text: intro }) : null,
    h("label", { for: "nickname", text: t("home.nickname") }),
    h("div", { class: "row" }, input, h("button", { type: "submit", text: t("home.continue") })),
    error,
  );
  setTimeout(() => input.focus(), 0);
  return form;
}

function gameOf(catalog, key) {
  return catalog.games.find((g) => g.key === key) || catalog.games[0];
}

/** The number of seats of `game` under `rules` (a `players` rule chooses it). */
function seatsOf(game, rules) {
  const rule = game.rules.find((r) => r.name === "players");
  if (rule) return Number(rules.players ?? rule.default);
  return game.players[0];
}

function select(id, label, options, value, onchange) {
  return h(
    "label",
    { class: "field", for: id },
    h("span", { text: label }),
    h(
      "select",
      { id, onchange: onchange ? (e) => onchange(e.target.value) : null },
      options.map(([v, text]) => h("option", { value: v, selected: v === value, text })),
    ),
  );
}

function errorBox() {
  return h("p", { class: "error", role: "alert" });
}

export async function showHome(app, navigate) {
  const me = await whoAmI().catch(() => null);
  if (!me) {
    fill(app, nicknameForm(() => showHome(app, navigate), t("home.intro")));
    return;
  }
  const catalog = await games();
  const error = errorBox();
  const quickGame = select(
    "quick-game",
    t("home.game"),
    catalog.games.map((g) => [g.key, g.name]),
    DEFAULT_GAME,
  );
  const quickLevel = select(
    "quick-level",
    t("home.level"),
    catalog.levels.map((l) => [l, t(`level.${l}`)]),
    DEFAULT_LEVEL,
  );
  const playNow = async () => {
    const game = gameOf(catalog, quickGame.querySelector("select").value);
    const level = quickLevel.querySelector("select").value;
    const n = seatsOf(game, {});
    const seats = [{ kind: "me" }];
    for (let i = 1; i < n; i++) seats.push({ kind: "bot", level });
    try {
      const table = await api("POST", "/api/tables", { game: game.key, seats });
      await api("POST", `/api/tables/${table.token}/start`);
      navigate(table.invite);
    } catch (err) {
      error.textContent = err.message;
    }
  };
  const link = h("input", { id: "join-link", type: "text", placeholder: t("home.join_hint") });
  const join = (e) => {
    e.preventDefault();
    const text = link.value.trim();
    const m = text.match(/\/t\/([A-Za-z0-9_-]{1,100})/) || text.match(/^([A-Za-z0-9_-]{1,100})$/);
    if (m) navigate(`/t/${m[1]}`);
    else error.textContent = t("home.bad_link");
  };
  const lobby = h("ul", { class: "list", id: "lobby" });
  const history = h("ul", { class: "list", id: "history" });
  fill(
    app,
    h(
      "div",
      { class: "home" },
      h("p", { class: "hello", text: t("home.hello", { name: me.nickname }) }),
      h(
        "section",
        { class: "card-box quick", "aria-labelledby": "quick-title" },
        h("h2", { id: "quick-title", text: t("home.quick") }),
        h("div", { class: "row wrap" }, quickGame, quickLevel),
        h("button", { type: "button", id: "play-now", class: "primary", onclick: playNow, text: t("home.play_now") }),
      ),
      h(
        "section",
        { class: "card-box", "aria-labelledby": "create-title" },
        h("h2", { id: "create-title", text: t("home.create") }),
        h("p", { text: t("home.create_help") }),
        h("button", {
          type: "button",
          id: "create-table",
          onclick: () => showSetup(app, navigate, catalog),
          text: t("home.create_button"),
        }),
      ),
      h(
        "form",
        { class: "card-box", onsubmit: join, "aria-labelledby": "join-title" },
        h("h2", { id: "join-title", text: t("home.join") }),
        h("label", { for: "join-link", class: "sr-only", text: t("home.join_hint") }),
        h("div", { class: "row" }, link, h("button", { type: "submit", text: t("home.join_button") })),
      ),
      error,
      h("section", { class: "card-box", "aria-labelledby": "lobby-title" }, h("h2", { id: "lobby-title", text: t("home.lobby") }), lobby),
      h("section", { class: "card-box", "aria-labelledby": "history-title" }, h("h2", { id: "history-title", text: t("home.history") }), history),
    ),
  );
  api("GET", "/api/tables").then(
    (tables) =>
      fill(
        lobby,
        tables.length
          ? tables.map((tb) =>
              h(
                "li",
                {},
                h("a", {
                  href: tb.invite,
                  onclick: (e) => {
                    e.preventDefault();
                    navigate(tb.invite);
                  },
                  text: `${tb.name} · ${t(`status.${tb.status}`)} · ${tb.seats.filter((s) => s.kind !== "open").length}/${tb.seats.length}`,
                }),
              ),
            )
          : h("li", { class: "empty", text: t("home.lobby_empty") }),
      ),
    () => fill(lobby, h("li", { class: "empty", text: t("home.lobby_empty") })),
  );
  fillHistory(history, navigate, 10);
}

/** The value a rule's control gives: a choice (of its own type), or a pattern filled in. */
function ruleControl(rule) {
  const id = `rule-${rule.name}`;
  const options = rule.choices.map((c, i) => [`c${i}`, String(c) + (c === rule.default ? ` (${t("setup.default")})` : "")]);
  for (const p of rule.patterns) options.push([`p:${p.pattern}`, p.pattern]);
  const sel = h(
    "select",
    { id, "aria-describedby": `${id}-help` },
    options.map(([v, text]) => h("option", { value: v, selected: v === `c${rule.choices.indexOf(rule.default)}`, text })),
  );
  const number = h("input", { type: "number", class: "pattern", hidden: true, "aria-label": rule.name });
  sel.addEventListener("change", () => {
    const p = rule.patterns.find((x) => sel.value === `p:${x.pattern}`);
    number.hidden = !p;
    if (p) {
      number.min = p.min;
      number.max = p.max;
      if (!number.value) number.value = p.min;
    }
  });
  const value = () => {
    if (sel.value.startsWith("c")) return rule.choices[Number(sel.value.slice(1))];
    const pattern = sel.value.slice(2);
    const n = Number(number.value);
    return pattern === "N" ? n : pattern.replace("N", String(n));
  };
  const el = h(
    "div",
    { class: "rule" },
    h("label", { for: id, text: rule.name.replace(/_/g, " ") }),
    h("div", { class: "row" }, sel, number),
    h("p", { id: `${id}-help`, class: "help", text: rule.help }),
  );
  return { el, value, rule };
}

export function showSetup(app, navigate, catalog, gameKey = DEFAULT_GAME) {
  const game = gameOf(catalog, gameKey);
  const error = errorBox();
  const controls = game.rules.map(ruleControl);
  const seatsBox = h("fieldset", { class: "seats" });
  const seatKinds = [["open", t("setup.seat_open")], ...catalog.levels.map((l) => [`bot:${l}`, t("setup.seat_bot", { level: t(`level.${l}`) })])];
  let seatSelects = [];
  const drawSeats = () => {
    const rules = {};
    for (const c of controls) rules[c.rule.name] = c.value();
    const n = seatsOf(game, rules);
    const kept = seatSelects.map((s) => s.value);
    seatSelects = [];
    const rows = [h("legend", { text: t("setup.seats") }), h("p", { class: "seat-row", text: t("setup.seat_you", { n: 1 }) })];
    for (let i = 1; i < n; i++) {
      const s = h(
        "select",
        { id: `seat-${i}` },
        seatKinds.map(([v, text]) => h("option", { value: v, selected: v === (kept[i - 1] || "open"), text })),
      );
      seatSelects.push(s);
      rows.push(h("label", { class: "field seat-row", for: `seat-${i}` }, h("span", { text: t("setup.seat_n", { n: i + 1 }) }), s));
    }
    fill(seatsBox, rows);
  };
  for (const c of controls) if (c.rule.name === "players") c.el.querySelector("select").addEventListener("change", drawSeats);
  drawSeats();
  const isPublic = h("input", { type: "checkbox", id: "public" });
  const clock = h("input", { type: "number", id: "clock", min: "5", max: "3600", placeholder: t("setup.no_clock") });
  const create = async (e) => {
    e.preventDefault();
    const rules = {};
    for (const c of controls) {
      const v = c.value();
      if (v !== c.rule.default) rules[c.rule.name] = v;
    }
    const seats = [{ kind: "me" }, ...seatSelects.map((s) => (s.value === "open" ? { kind: "open" } : { kind: "bot", level: s.value.slice(4) }))];
    const body = { game: game.key, rules, seats, public: isPublic.checked };
    if (clock.value) body.clock = Number(clock.value);
    try {
      const table = await api("POST", "/api/tables", body);
      navigate(table.invite);
    } catch (err) {
      error.textContent = err instanceof ApiError ? err.message : String(err);
    }
  };
  fill(
    app,
    h(
      "form",
      { class: "setup card-box", id: "setup", onsubmit: create },
      h("h2", { text: t("setup.title") }),
      select("setup-game", t("home.game"), catalog.games.map((g) => [g.key, `${g.name} (${g.summary})`]), game.key, (key) =>
        showSetup(app, navigate, catalog, key),
      ),
      h("fieldset", { class: "rules" }, h("legend", { text: t("setup.rules") }), controls.map((c) => c.el)),
      seatsBox,
      h("label", { class: "field check", for: "public" }, isPublic, h("span", { text: t("setup.public") })),
      h("label", { class: "field", for: "clock" }, h("span", { text: t("setup.clock") }), clock),
      error,
      h(
        "div",
        { class: "row" },
        h("button", { type: "submit", class: "primary", id: "setup-create", text: t("setup.create") }),
        h("button", { type: "button", onclick: () => navigate("/"), text: t("setup.cancel") }),
      ),
    ),
  );
  document.getElementById("setup-game").focus();
}
