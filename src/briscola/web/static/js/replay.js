// The history: your finished matches ("/history"), one match and its hands
// ("/history/TOKEN"), and a hand replayed trick by trick ("/history/TOKEN/N", "?trick=K"),
// each card with its mark and the choices its seat had (the hand's analysis), with its
// record and the match's to download. The positions come from the server
// (GET /api/tables/TOKEN/hands/N/replay): the browser holds no rules.

import { analysisOf, api, games } from "./api.js";
import { beforePlay, decisionLine, decisionOf, markEl, seatLines } from "./analysis.js";
import { announce, fill, h, link } from "./dom.js";
import { capital, joined, personName, t } from "./i18n.js";
import { cardEl, cardName, deck, setDeck, style, suitName } from "./cards.js";
import { sortHand, sorts } from "./handsort.js";
import { prefs } from "./prefs.js";
import { sideLabel, sidePoints } from "./sidelabel.js";
import { fillHistory, gameName } from "./matches.js";

/** The file name a record downloads as, the server's own (Content-Disposition). */
function fileName(token, what) {
  return `briscola-${token.slice(0, 8)}-${what}.json`;
}

/** "/history": every finished match of yours. */
export function showHistory(app, navigate) {
  const list = h("ul", { class: "list history-list", id: "history" });
  fill(
    app,
    h(
      "section",
      { class: "card-box", "aria-labelledby": "history-title" },
      h("h2", { id: "history-title", text: t("home.history") }),
      list,
      h("p", {}, link("/", t("replay.home"), navigate)),
    ),
  );
  fillHistory(list, navigate);
}

function seatNames(seats) {
  return seats.map((s, i) =>
    s.kind === "person" ? personName(s.nickname || "?") : s.name || t("table.seat_n", { n: i + 1 }),
  );
}

/** Trick `k` taken by `who`, as the table says it (`tell.took`: "Ana takes trick 3: 11
 * points"): a replay names every seat by its name, yours too. */
function took(who, k, points) {
  return capital(t("tell.took", { form: "other", who, trick: k, points: t("count.points", { n: points }) }));
}

/** A side of the replay named short: a seat alone by its name, a team after its first
 * player in the order of the seats ("Ana's team", as the table names the teams of
 * someone watching; the replay knows no rais). */
function sideName(names, side) {
  return side.length === 1 ? names[side[0]] : t("side.team_of", { who: names[Math.min(...side)] });
}

/** Who plays in a side: "Ana and Giulia". */
function sidePlayers(names, side) {
  return capital(joined(side.map((s) => names[s])));
}

function failure(app, navigate, err) {
  fill(
    app,
    h(
      "section",
      { class: "card-box" },
      h("p", { class: "error", role: "alert", text: err.message || String(err) }),
      h("p", {}, link("/history", t("replay.to_history"), navigate)),
    ),
  );
}

/** "/history/TOKEN": a finished match, its score and winners, its hands (each a replay)
 * and its record to download. */
export async function showMatch(app, navigate, token) {
  let record, table, catalog;
  try {
    [record, table, catalog] = await Promise.all([
      api("GET", `/api/tables/${token}/record`),
      api("GET", `/api/tables/${token}`),
      games(),
    ]);
  } catch (err) {
    failure(app, navigate, err);
    return;
  }
  const names = seatNames(table.seats);
  const result = record.result || {};
  const winners = (result.winners || []).map((s) => names[s]);
  const hands = result.hands || [];
  const played = record.hands.length;
  fill(
    app,
    h(
      "section",
      { class: "card-box match-page", id: "match", "aria-labelledby": "match-title" },
      h("h2", { id: "match-title", text: gameName(catalog, record.game) }),
      h("p", { id: "match-players", text: t("replay.players", { names: names.join(", ") }) }),
      result.hands_won
        ? h("p", { id: "match-score", text: t("replay.score", { score: result.hands_won.join("–"), totals: (result.totals || []).join("–") }) })
        : null,
      h("p", { id: "match-winner", text: winners.length ? t("replay.winner", { names: winners.join(" & ") }) : t("replay.no_winner") }),
      h("h3", { text: t("replay.hands") }),
      h(
        "ol",
        { class: "list match-hands", id: "match-hands" },
        Array.from({ length: played }, (_, i) => {
          const n = i + 1;
          const score = hands[i] ? ` · ${hands[i].points.join("–")}` : "";
          return h("li", {}, link(`/history/${token}/${n}`, t("replay.hand", { n }) + score, navigate, { "data-hand": n }));
        }),
      ),
      h(
        "p",
        {},
        h("a", {
          id: "download-match",
          href: `/api/tables/${token}/record`,
          download: fileName(token, "match"),
          text: t("replay.download_match"),
        }),
      ),
      h("p", {}, link("/history", t("replay.to_history"), navigate)),
    ),
  );
}

/** "/history/TOKEN/N": one finished hand, trick by trick. */
export class Replay {
  constructor(app, navigate, token, number) {
    this.app = app;
    this.navigate = navigate;
    this.token = token;
    this.number = number;
    this.at = 0;
    this.keys = (e) => this.onKey(e);
    this.analyses = {};
    this.seen = "seat";
  }

  async open() {
    let data, catalog;
    try {
      [data, catalog] = await Promise.all([
        api("GET", `/api/tables/${this.token}/hands/${this.number}/replay`),
        games(),
      ]);
    } catch (err) {
      failure(this.app, this.navigate, err);
      return;
    }
    if (this.closed) return;
    this.data = data;
    const game = catalog.games.find((g) => g.key === data.game);
    setDeck(game ? game.deck.name : null);
    this.dealt = game ? game.hand_size : 0; // how many cards a hand is dealt: 4 or more, sorted
    this.names = seatNames(data.seats);
    this.last = data.positions.length - 1;
    const asked = Number(new URLSearchParams(location.search).get("trick"));
    this.at = Number.isInteger(asked) ? Math.max(0, Math.min(this.last, asked)) : 0;
    this.build(gameName(catalog, data.game));
    this.show(false);
    document.addEventListener("keydown", this.keys);
    this.load(new URLSearchParams(location.search).get("seen") === "all" ? "all" : "seat");
  }

  /** The analysis shown (`this.seen`): from what each seat knew (`seat`), or with every
   * card seen (`all`); each asked for once. */
  get analysis() {
    return this.analyses[this.seen];
  }

  load(seen) {
    this.seen = seen;
    if (this.analyses[seen]) return;
    this.analyses[seen] = { state: "loading" };
    analysisOf(this.token, this.number, seen).then(
      (body) => (this.analyses[seen] = { state: "ready", body }),
      (err) => (this.analyses[seen] = { state: "failed", error: err.message }),
    ).then(() => {
      if (!this.closed && this.seen === seen) this.show(false);
    });
  }

  /** The two kinds of values, the one shown pressed; a note says what the other kind is. */
  seenSwitch() {
    const pick = (seen) => {
      this.load(seen);
      this.show(false);
      document.getElementById(`analysis-seen-${seen}`).focus();
    };
    return [
      h(
        "p",
        { class: "seen-switch", role: "group", "aria-label": t("analysis.seen.label") },
        ["seat", "all"].map((seen) =>
          h("button", { type: "button", id: `analysis-seen-${seen}`, "aria-pressed": String(this.seen === seen), onclick: () => pick(seen), text: t(`analysis.seen.${seen}`) }),
        ),
      ),
      this.seen === "all" ? h("p", { class: "note", id: "analysis-seen-note", text: t("analysis.seen.all_note") }) : null,
    ];
  }

  close() {
    this.closed = true;
    document.removeEventListener("keydown", this.keys);
    setDeck(null);
  }

  button(id, text, step) {
    return h("button", { type: "button", id, "aria-controls": "replay-board", onclick: () => this.go(step()), text });
  }

  build(title) {
    const d = this.data;
    this.slider = h("input", {
      type: "range",
      id: "replay-slider",
      min: "0",
      max: String(this.last),
      step: "1",
      value: String(this.at),
      "aria-controls": "replay-board",
      oninput: (e) => this.go(Number(e.target.value)),
    });
    this.where = h("p", { id: "replay-at", class: "replay-at" });
    this.seatsBox = h("div", { class: "replay-seats", id: "replay-seats" });
    this.trick = h("div", { class: "trick replay-trick", id: "replay-trick", role: "group", "aria-label": t("table.trick") });
    this.taken = h("p", { id: "replay-taken", class: "replay-taken" });
    this.points = h("p", { id: "replay-points", class: "points" });
    this.stock = h("p", { id: "replay-stock", class: "replay-stock" });
    this.costs = h("section", { class: "replay-analysis", id: "replay-analysis", "aria-labelledby": "replay-analysis-title" });
    this.list = h(
      "ol",
      { class: "replay-tricks", id: "replay-tricks", "aria-label": t("replay.tricks") },
      d.positions.map((p, k) =>
        h(
          "li",
          {},
          h("button", {
            type: "button",
            "data-trick": k,
            "aria-controls": "replay-board",
            onclick: () => this.go(k),
            text: k ? took(this.names[p.winner], k, p.taken) : t("replay.deal"),
          }),
        ),
      ),
    );
    fill(
      this.app,
      h(
        "section",
        { class: "replay", id: "replay", "aria-labelledby": "replay-title" },
        h("h2", { id: "replay-title", text: t("replay.title", { n: this.number, game: title }) }),
        h(
          "div",
          { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
          this.button("replay-first", t("replay.first"), () => 0),
          this.button("replay-back", t("replay.back"), () => this.at - 1),
          this.button("replay-forward", t("replay.forward"), () => this.at + 1),
          this.button("replay-last", t("replay.last"), () => this.last),
          h("label", { class: "field replay-jump", for: "replay-slider" }, h("span", { text: t("replay.slider") }), this.slider),
        ),
        h("p", { class: "help", id: "replay-keys", text: t("replay.keys") }),
        h(
          "div",
          { class: "replay-board", id: "replay-board", "aria-live": "off" },
          this.where,
          h("div", { class: "center" }, this.trick, this.taken, this.points, this.stock),
          this.seatsBox,
        ),
        this.costs,
        h("details", { class: "replay-list" }, h("summary", { text: t("replay.tricks") }), this.list),
        h(
          "p",
          { class: "replay-downloads" },
          h("a", {
            id: "download-hand",
            href: `/api/tables/${this.token}/hands/${this.number}`,
            download: fileName(this.token, `hand-${this.number}`),
            text: t("replay.download_hand"),
          }),
          " · ",
          h("a", {
            id: "download-match",
            href: `/api/tables/${this.token}/record`,
            download: fileName(this.token, "match"),
            text: t("replay.download_match"),
          }),
        ),
        h("p", {}, link(`/history/${this.token}`, t("replay.to_match"), this.navigate)),
      ),
    );
  }

  go(k) {
    const next = Math.max(0, Math.min(this.last, Math.round(k)));
    if (next === this.at) return;
    this.at = next;
    history.replaceState(null, "", `${location.pathname}?trick=${next}`);
    this.show(true);
  }

  onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target;
    if (target === this.slider) return; // the slider moves itself (and says so)
    if (target && target.closest && target.closest("input, select, textarea, #prefs")) return;
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[e.key];
    if (step) this.go(this.at + step);
    else if (e.key === "Home") this.go(0);
    else if (e.key === "End") this.go(this.last);
    else return;
    e.preventDefault();
  }

  /** What the cards cost: at the deal each seat's points lost and accuracy, and the
   * decisions of the auction (or the talk before the first card); at a trick each card's
   * mark and the choices its seat had then, with what each was worth. */
  showCosts(body, decisions) {
    const a = this.analysis || { state: "loading" };
    const title = [h("h3", { id: "replay-analysis-title", text: t("analysis.title") }), this.seenSwitch()];
    if (!body) {
      fill(this.costs, title, h("p", { class: "note", id: "analysis-note", text: a.state === "failed" ? a.error : t("analysis.computing") }));
      return;
    }
    if (!this.at) {
      // each seat's summary; then the auction, or the talk before the first card
      const early = decisions.length
        ? h("ul", { class: "list", id: "replay-decisions" }, decisions.map((d) => decisionLine(d, (seat) => this.names[seat])))
        : null;
      fill(this.costs, title, seatLines(body, (seat) => this.names[seat]), early);
      return;
    }
    fill(
      this.costs,
      title,
      decisions.length
        ? h("ul", { class: "list", id: "replay-decisions" }, decisions.map((d) => decisionLine(d, (seat) => this.names[seat])))
        : h("p", { class: "note", text: t("analysis.none_here") }),
    );
  }

  /** Show position `this.at`; `say` it to a screen reader too. */
  show(say) {
    const p = this.data.positions[this.at];
    const names = this.names;
    const where = this.at ? t("replay.at", { k: this.at, n: this.last }) : t("replay.at_deal", { n: this.last });
    this.where.textContent = where;
    this.slider.value = String(this.at);
    this.slider.setAttribute("aria-valuetext", where);
    for (const [id, off] of [["replay-first", this.at === 0], ["replay-back", this.at === 0], ["replay-forward", this.at === this.last], ["replay-last", this.at === this.last]]) {
      document.getElementById(id).setAttribute("aria-disabled", String(off));
    }
    for (const b of this.list.querySelectorAll("button")) {
      if (Number(b.dataset.trick) === this.at) b.setAttribute("aria-current", "step");
      else b.removeAttribute("aria-current");
    }
    const body = this.analysis && this.analysis.state === "ready" ? this.analysis.body : null;
    const decided = (x) => (body && this.at ? decisionOf(body, this.at, x.seat, x.card) : null);
    fill(
      this.trick,
      p.played.map((x) =>
        h(
          "figure",
          { class: "played" + (x.seat === p.winner ? " winner" : ""), "data-seat": x.seat },
          cardEl(x.card),
          h("figcaption", { text: names[x.seat] }),
          markEl(decided(x)),
        ),
      ),
    );
    // (the auction and the talk before the first card at the deal, the rest at its trick)
    const here = (d) => (beforePlay(d) ? this.at === 0 : d.trick === this.at);
    this.showCosts(body, body ? body.decisions.filter(here) : []);
    this.taken.textContent = this.at ? took(names[p.winner], this.at, p.taken) : "";
    // each side's points after its short name, its players on hover and focus
    const figures = p.sides.map((side, i) => [sideName(names, side), p.points[i]]);
    const points = t("replay.points", { points: figures.map(([name, n]) => `${name} ${n}`).join(" · ") });
    const [before, after] = t("replay.points", { points: "\u0000" }).split("\u0000");
    fill(
      this.points,
      before,
      p.sides.map((side, i) => [
        i ? " · " : null,
        sidePoints(sideLabel(figures[i][0], sidePlayers(names, side), `side-replay-${i}`, i), figures[i][1], " "),
      ]),
      after,
    );
    const trump = this.data.trump;
    fill(
      this.stock,
      p.turned
        ? h("figure", { class: "turned" }, cardEl(p.turned, { extra: "small" }), h("figcaption", { text: t("table.trump_card", { suit: suitName(p.turned[1]) }) }))
        : trump
          ? h("span", { text: t("table.trump_suit", { suit: suitName(trump[1]) }) })
          : null,
      p.turned || p.stock ? h("span", { text: t("table.stock", { n: p.stock }) }) : null,
    );
    fill(
      this.seatsBox,
      p.hands.map((cards, s) =>
        h(
          "section",
          { class: "replay-seat" + (this.at && s === p.winner ? " took" : ""), "data-seat": s, "aria-label": t("replay.hand_of", { who: names[s] }) },
          h("h3", { text: names[s] }),
          h(
            "div",
            { class: "hand" },
            cards.length ? this.sorted(cards).map((c) => cardEl(c, { extra: "small" })) : h("span", { class: "empty", text: t("replay.no_cards") }),
          ),
        ),
      ),
    );
    if (say) {
      const played = p.played.map((x) => `${names[x.seat]}: ${cardName(x.card)}`).join(", ");
      // (each card's mark is said with the list of the trick's decisions below the board)
      announce([where, played, this.taken.textContent, points].filter(Boolean).join(". "));
    }
  }

  /** A seat's cards in the order the table shows a hand (js/handsort.js): sorted, as the
   * person chose, when the game deals 4 or more, the turned card's suit last. */
  sorted(cards) {
    if (!sorts(cards, this.dealt)) return cards;
    const trump = this.data.trump ? this.data.trump[1] : null;
    return sortHand(cards, { by: prefs.sort, deck: deck(), faces: style(), trump });
  }
}
