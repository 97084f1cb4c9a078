// The home screen (a nickname, play against the computer now, create or join a table, the
// family's saved ways to play, the lobby, your history) and the table setup screen.

import { api, ApiError, games, whoAmI } from "./api.js";
import { announce, h, fill, link } from "./dom.js";
import { gameWords, language, loadWords, personName, t } from "./i18n.js";
import { deleteFamily, families, renameFamily, saveFamily } from "./prefs.js";
import { nicknameForm } from "./forms.js";
import { otherWays } from "./signin.js";
import { addWaysTo, offered, tableBody, wasOffered } from "./ways.js";
import { fillHistory } from "./matches.js";
import { followNews } from "./news.js";
import { gameRules, rulesPanel } from "./rules.js";
import { placesFrom } from "./places.js";

const DEFAULT_GAME = "briscola-2";
const DEFAULT_LEVEL = "intermediate";

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
    const again = () => showHome(app, navigate);
    fill(app, nicknameForm(again, t("home.intro")), otherWays(again));
    return;
  }
  const catalog = await games();
  const error = errorBox();
  const quickGame = select(
    "quick-game",
    t("home.game"),
    catalog.games.map((g) => [g.key, (gameWords() && gameWords().games[g.key]?.name) || g.name]),
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
      const table = await api("POST", "/api/tables", { game: game.key, seats, lang: language() });
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
      h("div", { id: "family-news-box" }),
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
      h("div", { id: "ways-offer-box" }),
      familiesHome(navigate, error, me),
      h("section", { class: "card-box", "aria-labelledby": "lobby-title" }, h("h2", { id: "lobby-title", text: t("home.lobby") }), lobby),
      h("section", { class: "card-box", "aria-labelledby": "history-title" }, h("h2", { id: "history-title", text: t("home.history") }), history),
    ),
  );
  offerWays(navigate);
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

/** A house rule's words in the language (`GET /api/words`): its title, explanation, the
 * labels of its choices and patterns, and its default in `game`; null while they load. */
function ruleWords(w, game, name) {
  const rw = w && w.rules[name];
  if (!rw) return null;
  const g = w.games[game.key];
  const own = g && g.rules[name];
  return { ...rw, default: own ? own.default : rw.default };
}

/** The number `value` fills `pattern` with (`hands:N` and `hands:3`: 3), or null. */
function patternNumber(pattern, value) {
  const [head, tail] = pattern.split("N");
  const text = String(value);
  if (tail === undefined || !text.startsWith(head) || !text.endsWith(tail)) return null;
  const n = text.slice(head.length, text.length - tail.length);
  return /^\d+$/.test(n) ? Number(n) : null;
}

/** A rule's control: its choices by their values, its patterns (`p:hands:N`) with a
 * number; `value()` what it gives, `set(v)` to show a value. */
function ruleControl(rule, rw) {
  const id = `rule-${rule.name}`;
  const byDefault = rw ? rw.default : rule.default;
  const label = (c) => {
    const found = rw && rw.choices.find((x) => String(x.value) === String(c));
    return found ? found.label : String(c);
  };
  const options = rule.choices.map((c) => [
    String(c),
    label(c) + (String(c) === String(byDefault) ? ` (${t("setup.default")})` : ""),
  ]);
  for (const p of rule.patterns) {
    const words = rw && rw.patterns[p.pattern];
    const n = rule.choices.some((c) => String(c) === String(byDefault)) ? null : patternNumber(p.pattern, byDefault);
    const mark = n === null ? "" : ` (${t("setup.default")}: ${n})`;
    options.push([`p:${p.pattern}`, (words ? words.replace("{n}", "N") : p.pattern) + mark]);
  }
  const sel = h(
    "select",
    { id, "aria-describedby": `${id}-help` },
    options.map(([v, text]) => h("option", { value: v, text })),
  );
  const number = h("input", {
    type: "number",
    class: "pattern",
    hidden: true,
    "aria-label": rw ? rw.title : rule.name,
  });
  const showPattern = () => {
    const p = rule.patterns.find((x) => sel.value === `p:${x.pattern}`);
    number.hidden = !p;
    if (p) {
      number.min = p.min;
      number.max = p.max;
      if (!number.value) number.value = p.min;
    }
  };
  sel.addEventListener("change", showPattern);
  const value = () => {
    if (!sel.value.startsWith("p:")) return rule.choices.find((c) => String(c) === sel.value);
    const pattern = sel.value.slice(2);
    const n = Number(number.value);
    return pattern === "N" ? n : pattern.replace("N", String(n));
  };
  const set = (v) => {
    const choice = rule.choices.find((c) => String(c) === String(v));
    if (choice !== undefined) {
      sel.value = String(choice);
    } else {
      for (const p of rule.patterns) {
        const n = patternNumber(p.pattern, v);
        if (n !== null) {
          sel.value = `p:${p.pattern}`;
          number.value = String(n);
        }
      }
    }
    showPattern();
  };
  set(byDefault);
  const el = h(
    "div",
    { class: "rule" },
    h("label", { for: id, text: rw ? rw.title : rule.name.replace(/_/g, " ") }),
    h("div", { class: "row" }, sel, number),
    h("p", { id: `${id}-help`, class: "help", text: rw ? rw.help : rule.help }),
  );
  return { el, value, set, rule, byDefault, inputs: [sel, number] };
}

/** The setup's seats by place: `slots[i]` where seat i sits (seat 0 is you), `partners`
 * the seats on your side in a game in teams (none when they are drawn by cards: then
 * `drawn`), as the chosen rules (`controls`) seat `n` players. */
function seatPlaces(game, controls, n) {
  const chosen = (name) => {
    const c = controls.find((x) => x.rule.name === name);
    return c ? String(c.value()) : null;
  };
  const slots = placesFrom(n, 0, chosen("direction"));
  const teams = chosen("teams");
  const seating = (game.seatings || []).find(
    (w) => w.players === n && (w.rules.teams || "alone") === (teams === "pairs" ? "pairs" : "alone"),
  );
  const mine = seating ? seating.sides.find((side) => side.includes(0)) : null;
  const inTeams = Boolean(mine && mine.length > 1);
  const drawn = inTeams && chosen("partners") === "drawn";
  const partners = inTeams && !drawn ? mine.filter((s) => s !== 0) : [];
  return { slots, partners, drawn };
}

/** A game's name and summary in the language. */
function gameLabel(w, game) {
  const g = w && w.games[game.key];
  return g ? `${g.name} (${g.summary})` : `${game.name} (${game.summary})`;
}


/** A table setting's choice with its sentence under it (the points, the chat). */
function settingControl(id, label, options, value, help) {
  const sel = h(
    "select",
    { id, "aria-describedby": `${id}-help` },
    options.map(([v, text]) => h("option", { value: v, selected: v === value, text })),
  );
  const el = h("div", { class: "rule" }, h("label", { for: id, text: label }), h("div", { class: "row" }, sel), h("p", { id: `${id}-help`, class: "help", text: help }));
  return { el, sel };
}

/** The setup screen: the game, its house rules in the language with their sentences,
 * the seats, and the family's saved ways to play (`preset`: one of them, shown). */
export async function showSetup(app, navigate, catalog, gameKey = DEFAULT_GAME, preset = null) {
  const w = await loadWords().catch(() => gameWords());
  const game = gameOf(catalog, gameKey);
  const error = errorBox();
  const controls = game.rules.map((r) => ruleControl(r, ruleWords(w, game, r.name)));
  const seatsBox = h("fieldset", { class: "seats" });
  const seatKinds = [["open", t("setup.seat_open")], ...catalog.levels.map((l) => [`bot:${l}`, t("setup.seat_bot", { level: t(`level.${l}`) })])];
  let seatSelects = [];
  const chosenRules = () => {
    const rules = {};
    for (const c of controls) {
      const v = c.value();
      if (String(v) !== String(c.byDefault)) rules[c.rule.name] = v;
    }
    return rules;
  };
  const drawSeats = (kinds) => {
    const n = seatsOf(game, chosenRules());
    const kept = kinds || seatSelects.map((s) => s.value);
    seatSelects = [];
    const places = seatPlaces(game, controls, n);
    const rows = [h("legend", { text: t("setup.seats") }), h("p", { class: "seat-row", text: t("setup.place.you") })];
    if (places.drawn) rows.push(h("p", { class: "help", id: "partners-drawn", text: t("setup.partners_drawn") }));
    for (let i = 1; i < n; i++) {
      const s = h(
        "select",
        { id: `seat-${i}` },
        seatKinds.map(([v, text]) => h("option", { value: v, selected: v === (kept[i - 1] || "open"), text })),
      );
      seatSelects.push(s);
      const place = h("span", { class: "place", text: t(`setup.place.${places.slots[i]}`) });
      const partner = places.partners.includes(i) ? h("strong", { class: "partner", text: t("setup.partner") }) : null;
      rows.push(h("label", { class: "field seat-row", for: `seat-${i}`, "data-place": places.slots[i] }, h("span", {}, place, partner ? " · " : null, partner), s));
    }
    fill(seatsBox, rows);
  };
  const seatsChosen = () => [
    { kind: "me" },
    ...seatSelects.map((s) => (s.value === "open" ? { kind: "open" } : { kind: "bot", level: s.value.slice(4) })),
  ];
  const isPublic = h("input", { type: "checkbox", id: "public" });
  const hints = h("input", { type: "checkbox", id: "setup-hints", "aria-describedby": "setup-hints-help" });
  const clock = h("input", { type: "number", id: "clock", min: "5", max: "3600", placeholder: t("setup.no_clock") });
  // the family's manners: the points during a hand, the chat
  const points = settingControl(
    "setup-points",
    t("setup.points"),
    [
      ["hidden", t("setup.points_hidden")],
      ["shown", t("setup.points_shown")],
    ],
    (preset && preset.points) || "hidden",
    t("setup.points_help"),
  );
  const chat = settingControl(
    "setup-chat",
    t("setup.chat"),
    [
      ["phrases", t("setup.chat_phrases")],
      ["free", t("setup.chat_free")],
      ["none", t("setup.chat_none")],
    ],
    (preset && preset.chat) || "phrases",
    t("setup.chat_help"),
  );
  if (preset) {
    for (const c of controls) if (preset.rules && c.rule.name in preset.rules) c.set(preset.rules[c.rule.name]);
    isPublic.checked = !!preset.public;
    hints.checked = !!preset.hints;
    if (preset.clock) clock.value = String(preset.clock);
  }
  drawSeats(preset && preset.seats ? preset.seats.slice(1).map((s) => (s.kind === "bot" ? `bot:${s.level}` : "open")) : null);

  // the rules in plain words, following every change of a rule
  const rulesBox = h("div", { id: "setup-rules-text", "aria-live": "polite" });
  let asked = 0;
  const sayRules = async () => {
    const mine = ++asked;
    const panel = await rulesPanel(gameRules(game.key, chosenRules()), "h4");
    if (mine === asked) fill(rulesBox, panel);
  };
  for (const c of controls) {
    for (const input of c.inputs) input.addEventListener("change", sayRules);
    if (["players", "direction", "teams", "partners"].includes(c.rule.name)) {
      for (const input of c.inputs) input.addEventListener("change", () => drawSeats());
    }
  }
  sayRules();

  const settings = () => {
    const family = { game: game.key, rules: chosenRules(), seats: seatsChosen(), public: isPublic.checked };
    if (clock.value) family.clock = Number(clock.value);
    family.points = points.sel.value;
    family.chat = chat.sel.value;
    if (hints.checked) family.hints = true;
    return family;
  };
  const create = async (e) => {
    e.preventDefault();
    try {
      const table = await api("POST", "/api/tables", tableBody(settings()));
      navigate(table.invite);
    } catch (err) {
      error.textContent = err instanceof ApiError ? err.message : String(err);
    }
  };
  const families = familyBox(settings, (f) => showSetup(app, navigate, catalog, f.game, f));
  fill(
    app,
    h(
      "form",
      { class: "setup card-box", id: "setup", onsubmit: create },
      h("h2", { text: t("setup.title") }),
      select("setup-game", t("home.game"), catalog.games.map((g) => [g.key, gameLabel(w, g)]), game.key, (key) =>
        showSetup(app, navigate, catalog, key),
      ),
      h("fieldset", { class: "rules" }, h("legend", { text: t("setup.rules") }), controls.map((c) => c.el)),
      h(
        "details",
        { class: "rules-text", id: "setup-rules" },
        h("summary", { id: "setup-rules-title", text: t("words.rules_in_words") }),
        rulesBox,
      ),
      seatsBox,
      h("label", { class: "field check", for: "public" }, isPublic, h("span", { text: t("setup.public") })),
      h("label", { class: "field", for: "clock" }, h("span", { text: t("setup.clock") }), clock),
      h(
        "fieldset",
        { class: "rules manners", id: "setup-manners" },
        h("legend", { text: t("setup.manners") }),
        points.el,
        chat.el,
        h("label", { class: "field check", for: "setup-hints" }, hints, h("span", { text: t("setup.hints") })),
        h("p", { class: "help", id: "setup-hints-help", text: t("setup.hints_help") }),
      ),
      families,
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

/** "How our family plays" on the setup screen: save the settings `settings()` gives under
 * a name, on this device or into one of your families (`mine`: kept on the server, for
 * every member on every device); each set saved here renamed, deleted, or shown in the
 * setup (`use`). */
function familyBox(settings, use) {
  const box = h("fieldset", { class: "families", id: "family-box" });
  const said = h("p", { class: "help", role: "status", id: "family-said" });
  let mine = [];
  const draw = () => {
    const typed = box.querySelector("#family-name"); // drawn again: what was typed stays
    const name = h("input", { id: "family-name", type: "text", maxlength: "60", autocomplete: "off", value: typed ? typed.value : "" });
    const where = mine.length
      ? h(
          "select",
          { id: "family-where", "aria-label": t("words.family_where") },
          mine.map((f) => h("option", { value: String(f.id), text: t("words.family_into", { name: f.name }) })),
          h("option", { value: "", text: t("words.family_here") }),
        )
      : null;
    const save = async () => {
      const n = name.value.trim();
      if (!n) {
        said.textContent = t("words.family_no_name");
        name.focus();
        return;
      }
      if (where && where.value) {
        try {
          await api("POST", `/api/families/${where.value}/rules`, { name: n, body: tableBody(settings()) });
          said.textContent = t("words.family_saved_into", { name: n, family: where.selectedOptions[0].textContent });
        } catch (err) {
          said.textContent = err.message;
        }
        return;
      }
      said.textContent = saveFamily({ name: n, ...settings() }) ? t("words.family_saved", { name: n }) : t("words.family_not_saved");
      draw();
    };
    name.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        save();
      }
    });
    const list = families();
    fill(
      box,
      h("legend", { text: t("words.family_title") }),
      h("p", { class: "help", text: t("words.family_help") }),
      h(
        "div",
        { class: "row" },
        h("label", { for: "family-name", class: "sr-only", text: t("words.family_name") }),
        name,
        where,
        h("button", { type: "button", id: "family-save", onclick: save, text: t("words.family_save") }),
      ),
      said,
      list.length
        ? h(
            "ul",
            { class: "list", id: "family-list", "aria-label": t("words.family_title") },
            list.map((f, i) => {
              const rename = h("input", {
                type: "text",
                id: `family-rename-${i}`,
                maxlength: "60",
                value: f.name,
                "aria-label": t("words.family_rename_label", { name: f.name }),
              });
              return h(
                "li",
                { class: "row family", "data-name": f.name },
                rename,
                h("button", {
                  type: "button",
                  class: "family-rename",
                  onclick: () => {
                    const n = rename.value.trim();
                    said.textContent = n && renameFamily(f.name, n) ? t("words.family_renamed", { name: n }) : t("words.family_not_renamed");
                    draw();
                  },
                  text: t("words.family_rename"),
                }),
                h("button", { type: "button", class: "family-use", onclick: () => use(f), text: t("words.family_use") }),
                h("button", {
                  type: "button",
                  class: "family-delete",
                  onclick: () => {
                    deleteFamily(f.name);
                    said.textContent = t("words.family_deleted", { name: f.name });
                    draw();
                  },
                  text: t("words.family_delete"),
                  "aria-label": t("words.family_delete_label", { name: f.name }),
                }),
              );
            }),
          )
        : null,
    );
  };
  draw();
  api("GET", "/api/families")
    .then((list) => {
      mine = list;
      if (mine.length && box.isConnected) draw();
    })
    .catch(() => {});
  return box;
}

/** Families on the home screen, always: with none yet, one line on why to make one and
 * the way to "/families"; else each family (a link to its page) with its ways to play,
 * each a button that opens a new table in one click, and its tables open now (at once
 * while the page is open: the news, with a notice of the tables others opened since it
 * was drawn). The ways this device keeps of its own follow, each a button too. */
function familiesHome(navigate, error, me) {
  const places = h("div", { id: "family-places-box" });
  const known = { tokens: null };
  const section = h(
    "section",
    { class: "card-box", id: "families", "aria-labelledby": "families-title" },
    h("h2", { id: "families-title", text: t("home.families") }),
    places,
    localWays(navigate, error),
  );
  const empty = h("p", { class: "empty", id: "ways-none", hidden: true, text: t("words.family_none") });
  section.append(empty);
  const draw = () => familyPlaces(places, navigate, me, known, error, empty);
  draw();
  followNews(places, draw);
  return section;
}

/** The ways to play this device keeps (saved "on this device only"), each a button that
 * opens a new table with its settings. */
function localWays(navigate, error) {
  const list = families();
  if (!list.length) return null;
  return h(
    "div",
    { id: "ways-here" },
    h("h3", { text: t("home.ways_here") }),
    h(
      "ul",
      { class: "list" },
      list.map((f) =>
        h(
          "li",
          {},
          h("button", {
            type: "button",
            class: "family-open",
            "data-name": f.name,
            onclick: async () => {
              try {
                const table = await api("POST", "/api/tables", tableBody(f));
                navigate(table.invite);
              } catch (err) {
                error.textContent = t("words.family_failed", { name: f.name, why: err.message });
              }
            },
            text: t("words.family_open", { name: f.name }),
          }),
          " ",
          h("span", { class: "help", text: (gameWords() && gameWords().games[f.game]?.name) || f.game }),
        ),
      ),
    ),
  );
}

/** Your families on the server (see familiesHome); `empty` shown when neither they nor
 * this device keep a way to play. */
async function familyPlaces(box, navigate, me, known, error, empty) {
  const mine = await api("GET", "/api/families").catch(() => null);
  if (mine === null) return;
  const [open, ways] = await Promise.all([
    Promise.all(mine.map((f) => api("GET", `/api/families/${f.id}/tables`).catch(() => []))),
    Promise.all(mine.map((f) => api("GET", `/api/families/${f.id}/rules`).catch(() => []))),
  ]);
  if (!box.isConnected) return;
  const gameLabel = (key) => (gameWords() && gameWords().games[key]?.name) || key;
  const fresh = [];
  mine.forEach((f, i) =>
    open[i].forEach((tb) => {
      if (known.tokens && !known.tokens.has(tb.token) && tb.host !== me.id && tb.status === "waiting") fresh.push([f, tb]);
    }),
  );
  known.tokens = new Set(open.flat().map((tb) => tb.token));
  const news = fresh.map(([f, tb]) => {
    const text = t("home.family_news", {
      family: f.name,
      name: tb.seats.find((s) => s.player === tb.host)?.nickname || "…",
      game: gameLabel(tb.game),
    });
    announce(text);
    return h("p", { class: "card-box family-news" }, text, " ", link(tb.invite, t("home.join_button"), navigate, { class: "family-news-join" }));
  });
  const newsBox = document.getElementById("family-news-box");
  if (newsBox && news.length) newsBox.replaceChildren(...news, ...newsBox.children);
  empty.hidden = ways.some((w) => w.length) || families().length > 0;
  if (!mine.length) {
    fill(
      box,
      h("p", { id: "families-why", text: t("home.families_why") }),
      h("p", {}, link("/families", t("home.families_make"), navigate, { id: "families-home-link" })),
    );
    return;
  }
  const openWay = (f, w) => async () => {
    try {
      const table = await api("POST", `/api/families/${f.id}/rules/${w.id}/table`);
      navigate(table.invite);
    } catch (err) {
      error.textContent = t("words.family_failed", { name: w.name, why: err.message });
    }
  };
  fill(
    box,
    h(
      "ul",
      { class: "list", id: "family-places" },
      mine.map((f, i) =>
        h(
          "li",
          { "data-family": f.id },
          link(`/families/${f.id}`, f.name, navigate, { class: "family-link" }),
          ways[i].length
            ? h(
                "ul",
                { class: "list family-ways" },
                ways[i].map((w) =>
                  h(
                    "li",
                    {},
                    h("button", {
                      type: "button",
                      class: "way-open",
                      "data-way": w.name,
                      onclick: openWay(f, w),
                      text: t("words.family_open", { name: w.name }),
                    }),
                    " ",
                    h("span", { class: "help", text: gameLabel(w.body.game) }),
                  ),
                ),
              )
            : null,
          open[i].length
            ? h(
                "ul",
                { class: "list" },
                open[i].map((tb) =>
                  h(
                    "li",
                    {},
                    link(
                      tb.invite,
                      t("home.family_table", {
                        game: gameLabel(tb.game),
                        people: tb.seats.map((s) => personName(s.nickname || s.name || "…")).join(", "),
                      }),
                      navigate,
                      { class: "family-table" },
                    ),
                  ),
                ),
              )
            : null,
        ),
      ),
    ),
    h("p", {}, link("/families", t("home.families_all"), navigate, { id: "families-home-link" })),
  );
}

/** Once, on a device that keeps ways to play of its own, for someone who belongs to a
 * family: the offer to add them to the family, kept on the server. */
async function offerWays(navigate) {
  const here = families();
  if (!here.length || wasOffered()) return;
  const mine = await api("GET", "/api/families").catch(() => []);
  const box = document.getElementById("ways-offer-box");
  if (!mine.length || !box) return;
  const said = h("p", { class: "note", role: "status", id: "ways-offer-said" });
  fill(
    box,
    h(
      "section",
      { class: "card-box", id: "ways-offer", "aria-labelledby": "ways-offer-title" },
      h("h2", { id: "ways-offer-title", text: t("home.ways_offer", { n: here.length }) }),
      h(
        "div",
        { class: "row wrap" },
        mine.map((f) =>
          h("button", {
            type: "button",
            class: "ways-add",
            onclick: async () => {
              const n = await addWaysTo(f.id);
              said.textContent = t("family.imported", { n });
              navigate(`/families/${f.id}`);
            },
            text: t("home.ways_add", { name: f.name }),
          }),
        ),
        h("button", {
          type: "button",
          id: "ways-not-now",
          onclick: () => {
            offered();
            box.replaceChildren();
          },
          text: t("home.ways_not_now"),
        }),
      ),
      said,
    ),
  );
}
