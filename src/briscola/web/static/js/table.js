// A table's page: its WebSocket (docs/protocol.md), the waiting room, the game, the end of
// each hand and of the match. The page holds no rules: it shows the views and the legal
// actions the server sends, and acts with one of them and the view's version.

import { api, games, whoAmI } from "./api.js";
import { announce, fill, focusedKey, h, refocus } from "./dom.js";
import { backEl, cardEl, cardName, isCarico, rankName, setDeck, slotEl, suitName } from "./cards.js";
import { pointsChart } from "./chart.js";
import { verifyHand } from "./fair.js";
import { nicknameForm } from "./forms.js";
import { ruleInWords, t } from "./i18n.js";
import { prefs } from "./prefs.js";
import { rulesPanel, tableRules } from "./rules.js";

const BACKOFF = [500, 1000, 2000, 4000, 8000];

export class TablePage {
  constructor(app, token, navigate) {
    this.app = app;
    this.token = token;
    this.navigate = navigate;
    this.ws = null;
    this.closed = false;
    this.tries = 0;
    this.version = 0;
    this.table = null;
    this.view = null;
    this.fair = {}; // hand -> {commitment, revealed: {commitment, salt, deal}, turned}
    this.log = { hand: null, tricks: [] }; // the tricks of the hand in play
    this.ended = null; // the last finished hand, for its end screen
    this.showEnd = false;
    this.pending = null; // {version, action, id, sent}: one action in flight at a time
    this.notice = "";
    this.chat = [];
    this.reconnecting = false;
    this.turnSince = null; // when the seat to act was told it is their turn (the clock)
    this.screen = null;
    this.timer = null;
    this.lastAnnouncedTurn = null;
    this.motion = still(); // what the last update moved, for the animations of its render
  }

  async open() {
    fill(this.app, h("p", { class: "loading", text: t("table.loading") }));
    this.me = await whoAmI().catch(() => null);
    if (!this.me) {
      fill(this.app, nicknameForm((me) => {
        this.me = me;
        this.connect();
      }, t("table.invited")));
      return;
    }
    this.connect();
  }

  close() {
    this.closed = true;
    clearInterval(this.timer);
    if (this.ws) this.ws.close();
  }

  // -- the socket -------------------------------------------------------------------------

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    let url = `${scheme}://${location.host}/api/tables/${this.token}/ws`;
    if (this.view) url += `?since=${this.version}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    this.fresh = true;
    this.live = false; // until the server's first message: only then is the socket trusted
    ws.onopen = () => {
      this.tries = 0;
      // A first message, whatever else comes: a connection at the table's version gets no
      // update, and maybe nothing else; the pong carries the version.
      ws.send(JSON.stringify({ type: "ping" }));
    };
    ws.onmessage = (e) => this.receive(JSON.parse(e.data));
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.live = false;
      if (this.closed) return;
      if (e.code === 4404) {
        this.gone = true;
        this.render();
        return;
      }
      if (e.code === 4401) {
        // the session ended (signed out in another tab): choose a nickname again
        this.navigate("/");
        return;
      }
      if (e.code === 4429) {
        // too many connections: the error just received says so; no reconnecting into it
        this.render();
        return;
      }
      this.reconnecting = true;
      this.render();
      const wait = BACKOFF[Math.min(this.tries, BACKOFF.length - 1)];
      this.tries += 1;
      setTimeout(() => this.connect(), wait);
    };
  }

  send(message) {
    if (this.ws && this.live && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  receive(m) {
    const first = this.fresh;
    const held = first ? this.pending : null; // a move made while the socket was down
    this.fresh = false;
    this.live = true;
    if (first && this.reconnecting) this.reconnecting = false;
    if (m.type === "snapshot") this.snapshot(m);
    else if (m.type === "update") {
      if (m.since !== this.version) {
        this.send({ type: "sync", since: this.version });
        return;
      }
      this.update(m);
    } else if (m.type === "table") {
      this.setTable(m.table);
    } else if (m.type === "chat") {
      this.chat.push(m);
      if (this.chat.length > 100) this.chat.shift();
      this.renderChat();
      return;
    } else if (m.type === "error") {
      this.refused(m);
    }
    if (held) this.afterReconnect(m, held);
    this.render();
  }

  /** A move made while the socket was down, or sent as it closed, goes (again, with its id:
   * the server never takes it twice) once it is back, if the table is still at the version
   * it was made on (it was not taken); otherwise it is dropped, and the player told. */
  afterReconnect(m, p) {
    this.pending = p;
    if (m.version === p.version) {
      p.sent = this.send({ type: "act", version: p.version, action: p.action, id: p.id });
    } else {
      this.pending = null;
      if (!p.sent) this.notice = t("table.move_dropped");
    }
  }

  snapshot(m) {
    this.version = m.version;
    this.setTable(m.table);
    this.view = m.view;
    this.pending = null;
    for (const f of m.fairness || []) this.fairEvent(f);
    const v = this.view;
    if (v && this.log.hand !== v.hand_number) {
      this.log = { hand: v.hand_number, tricks: (v.tricks || []).map((tr) => ({ ...tr })) };
    }
    if (v && m.table.status === "finished" && !this.ended) {
      this.ended = this.handSummary(v.points, v.winners, null);
    }
    this.turnChanged();
  }

  update(m) {
    const before = this.view;
    this.motion = still();
    for (const e of m.events) this.event(e, before || m.view);
    this.version = m.version;
    this.view = m.view;
    if (this.pending && this.pending.version !== this.version) this.pending = null;
    this.turnChanged();
  }

  fairEvent(e) {
    const f = (this.fair[e.hand] ||= {});
    if (e.type === "hand_committed") f.commitment ||= e.commitment;
    if (e.type === "hand_revealed") f.revealed = { commitment: e.commitment, salt: e.salt, deal: e.deal };
  }

  event(e, view) {
    switch (e.type) {
      case "hand_committed":
      case "hand_revealed":
        this.fairEvent(e);
        break;
      case "card_played":
        this.motion.played.add(e.card);
        announce(t("live.played", { who: this.seatName(e.seat), card: cardName(e.card) }));
        if (prefs.sound) beep(440);
        break;
      case "trick_won":
        this.log.tricks.push({ winner: e.winner, cards: e.cards, seats: e.seats, points: e.points });
        this.motion.taken = e;
        announce(t("live.took", { who: this.seatName(e.winner), points: e.points }));
        break;
      case "hand_over":
        this.ended = this.handSummary(e.points, e.winners, view, e.sides);
        this.showEnd = true;
        break;
      case "hand_scored":
        if (this.ended) this.ended.scored = e;
        break;
      case "match_over":
        if (this.ended) this.ended.match = e;
        this.showEnd = true;
        break;
      case "hand_started":
        this.log = { hand: e.number, tricks: [] };
        break;
      case "card_drawn":
        if (e.card && view && e.seat === view.seat) this.motion.drawn.add(e.card);
        break;
      case "trump_turned":
        if (this.log.hand) (this.fair[this.log.hand] ||= {}).turned = e.card;
        break;
      case "partner_revealed":
        announce(
          e.partner === e.caller
            ? t("finish.alone")
            : t("live.partner", { caller: this.seatName(e.caller), partner: this.seatName(e.partner) }),
        );
        break;
      case "card_called":
        announce(t("live.called", { who: this.seatName(e.seat), card: cardName(e.card) }));
        break;
      case "bid_made":
        announce(t("live.bid", { who: this.seatName(e.seat), bid: bidName(e.bid) }));
        break;
      case "talk":
        announce(t("live.talk", { who: this.seatName(e.seat), what: `${t(`talk.${e.kind}`)} ${talkWord(e.kind, String(e.what))}`.trim() }));
        break;
      default:
        break;
    }
  }

  handSummary(points, winners, view, handSides = null) {
    const v = view || this.view;
    // the hand's own sides, which the points are by (chiamata's known only at the reveal)
    const sides = handSides && handSides.length ? handSides : v ? v.sides : [];
    const series = sides.map(() => []);
    const carichi = sides.map(() => []);
    const totals = sides.map(() => 0);
    for (const tr of this.log.tricks) {
      const side = sides.findIndex((s) => s.includes(tr.winner));
      if (side >= 0) {
        totals[side] += tr.points;
        carichi[side].push(...tr.cards.filter(isCarico));
      }
      series.forEach((s, i) => s.push(totals[i]));
    }
    return { hand: this.log.hand, points, winners, sides, series, carichi, mySeat: v ? v.seat : null };
  }

  setTable(table) {
    const was = this.table;
    this.table = table;
    if (!was || was.game !== table.game) {
      games().then((c) => {
        const g = c.games.find((x) => x.key === table.game);
        setDeck(g ? g.deck.name : null);
        this.render();
      });
    }
  }

  refused(m) {
    if (this.pending && (!m.id || m.id === this.pending.id)) this.pending = null;
    if (m.code === "already_taken") return; // the move sent again had been taken: its update says so
    this.notice = m.code === "stale" ? t("table.stale") : m.message;
  }

  turnChanged() {
    const v = this.view;
    const key = v ? `${v.hand_number}:${v.move_number}:${v.to_act}` : null;
    if (key !== this.turnKey) {
      this.turnKey = key;
      this.turnSince = Date.now();
      if (v && v.to_act !== null && v.to_act !== undefined && this.lastAnnouncedTurn !== key) {
        this.lastAnnouncedTurn = key;
        const mine = v.legal && v.legal.length > 0;
        announce(mine ? t("live.your_turn") : t("live.turn_of", { who: this.seatName(v.to_act) }));
        if (mine && prefs.sound) beep(660);
      }
    }
  }

  // -- acting -----------------------------------------------------------------------------

  act(action) {
    if (this.pending && this.pending.version === this.version) return; // one at a time
    const id = `v${this.version}-${Date.now() % 100000}`;
    this.pending = { version: this.version, action, id, sent: false };
    this.notice = "";
    this.pending.sent = this.send({ type: "act", version: this.version, action, id });
    if (!this.pending.sent) this.notice = t("table.offline_queued");
    this.render();
  }

  legal() {
    const v = this.view;
    if (!v || !v.legal || (this.pending && this.pending.version === this.version)) return [];
    return v.legal;
  }

  // -- names ------------------------------------------------------------------------------

  seatName(seat) {
    if (seat === null || seat === undefined) return "?";
    const s = this.table && this.table.seats[seat];
    if (this.view && seat === this.view.seat) return t("table.you");
    if (!s) return t("table.seat_n", { n: seat + 1 });
    if (s.kind === "bot") return t("table.bot", { n: seat + 1, level: t(`level.${s.level}`) });
    if (s.kind === "open") return t("table.seat_n", { n: seat + 1 });
    return s.nickname;
  }

  sideName(i, sides) {
    return sides[i].map((s) => this.seatName(s)).join(" + ");
  }

  actionLabel(a) {
    if ("play" in a) return t("act.play", { card: cardName(a.play) });
    if ("exchange" in a) return t("act.exchange", { card: cardName(a.exchange), turned: cardName(this.view.turned) });
    if ("signal" in a) return t("act.signal", { what: talkWord("signal", a.signal) });
    if ("ask" in a) return t("act.ask", { what: talkWord("ask", a.ask), to: this.seatName(a.to) });
    if ("order" in a) return t("act.order", { what: talkWord("order", a.order), to: this.seatName(a.to) });
    if ("look" in a) return t("act.look", { who: this.seatName(a.look) });
    if ("talk" in a) return t("act.talk_done");
    if ("bid" in a) return a.bid === "pass" ? t("act.pass") : t("act.bid", { bid: bidName(a.bid) });
    if ("call" in a) return t("act.call", { card: cardName(a.call) });
    return JSON.stringify(a);
  }

  // -- rendering --------------------------------------------------------------------------

  render() {
    const key = focusedKey();
    const tb = this.table;
    let screen;
    if (this.gone) screen = "gone";
    else if (!tb) screen = "loading";
    else if (tb.status === "waiting") screen = "waiting";
    else if (tb.status === "finished" || (this.showEnd && this.ended)) screen = "end";
    else screen = "play";
    if (screen !== this.screen) {
      this.screen = screen;
      this.build(screen);
    }
    if (screen === "waiting") this.renderWaiting();
    else if (screen === "play") this.renderPlay();
    else if (screen === "end") this.renderEnd();
    this.renderStatus();
    if (key && key.startsWith("card-")) refocus(key, '.hand .card[aria-disabled="false"]', ".hand .card");
    else refocus(key);
  }

  /** The screen's lasting frame: its parts are filled again on each change, and the chat's
   * form is never replaced (what is being typed stays). */
  build(screen) {
    clearInterval(this.timer);
    this.parts = {};
    const part = (name, tag = "section", attrs = {}) => (this.parts[name] = h(tag, { class: name, ...attrs }));
    if (screen === "gone") {
      fill(this.app, h("div", { class: "card-box" }, h("h2", { text: t("table.not_found") }), h("a", { href: "/", text: t("table.home") })));
      return;
    }
    if (screen === "loading") {
      fill(this.app, h("p", { class: "loading", text: t("table.loading") }));
      return;
    }
    const chat = this.buildChat();
    const status = part("status", "div", { id: "status" });
    if (screen === "waiting") {
      fill(this.app, h("div", { class: "waiting-screen" }, status, part("waiting", "section", { id: "waiting" }), chat));
    } else if (screen === "end") {
      fill(this.app, h("div", { class: "end-screen" }, status, part("end", "section", { id: "end" }), chat));
    } else {
      fill(
        this.app,
        h(
          "div",
          { class: "table-screen" },
          status,
          part("others", "section", { id: "others", "aria-label": t("table.others") }),
          part("center", "section", { id: "center", "aria-label": t("table.center") }),
          part("mine", "section", { id: "mine", "aria-label": t("table.your_hand") }),
          part("side", "aside", { id: "side" }),
          chat,
        ),
      );
      this.timer = setInterval(() => this.renderClock(), 1000);
    }
  }

  renderStatus() {
    const tb = this.table;
    if (!this.parts || !this.parts.status || !tb) return;
    const v = this.view;
    const bits = [h("h1", { class: "game-name", text: tb.name })];
    if (v && tb.status === "playing") {
      bits.push(h("span", { class: "hand-no", text: t("table.hand_no", { n: v.hand_number }) }));
      const m = v.match;
      if (m && m.hands_won) bits.push(h("span", { class: "match", text: t("table.match_score", { score: m.hands_won.join(" – ") }) }));
      let turn;
      if (v.to_act === null || v.to_act === undefined) turn = "";
      else if (v.legal && v.legal.length) turn = t("table.your_turn");
      else turn = t("table.turn_of", { who: this.seatName(v.to_act) });
      bits.push(h("strong", { class: "turn", id: "turn", text: turn }));
      bits.push(h("span", { class: "clock", id: "clock" }));
    }
    bits.push(
      h("button", { type: "button", class: "link", id: "rules-button", "aria-expanded": String(!!this.rulesShown), "aria-controls": "rules-text", onclick: () => this.showRules(), text: t("table.rules") }),
    );
    if (this.reconnecting) bits.push(h("span", { class: "offline", role: "alert", text: t("table.reconnecting") }));
    if (this.notice) bits.push(h("p", { class: "notice", role: "alert", id: "notice", text: this.notice }));
    bits.push(h("div", { id: "rules-text", class: "rules-text", hidden: !this.rulesShown }, this.rulesContent || ""));
    fill(this.parts.status, bits);
    this.renderClock();
  }

  renderClock() {
    const el = document.getElementById("clock");
    const tb = this.table;
    const v = this.view;
    if (!el || !tb || !tb.clock || !v || v.to_act === null || v.to_act === undefined) {
      if (el) el.textContent = "";
      return;
    }
    const left = Math.max(0, Math.ceil(tb.clock - (Date.now() - this.turnSince) / 1000));
    el.textContent = t("table.clock", { s: left });
  }

  async showRules() {
    this.rulesShown = !this.rulesShown;
    if (this.rulesShown && !this.rulesContent) this.rulesContent = await rulesPanel(tableRules(this.token));
    this.renderStatus();
  }

  buildChat() {
    const log = h("ol", { class: "chat-log", id: "chat-log", "aria-label": t("chat.title"), tabindex: "0" });
    const input = h("input", { id: "chat-input", "data-key": "chat-input", maxlength: "300", autocomplete: "off" });
    const form = h(
      "form",
      {
        class: "chat-form",
        onsubmit: (e) => {
          e.preventDefault();
          const text = input.value.trim();
          if (text && this.send({ type: "chat", text })) input.value = "";
        },
      },
      h("label", { for: "chat-input", class: "sr-only", text: t("chat.say") }),
      input,
      h("button", { type: "submit", "data-key": "chat-send", text: t("chat.send") }),
    );
    this.chatLog = log;
    const box = h("section", { class: "chat", "aria-labelledby": "chat-title" }, h("h2", { id: "chat-title", text: t("chat.title") }), log, form);
    this.renderChat();
    return box;
  }

  renderChat() {
    if (!this.chatLog) return;
    fill(
      this.chatLog,
      this.chat.map((c) => {
        const li = h("li", {}, h("b", { text: `${c.nickname || "?"}: ` }));
        // The text as it was typed, put in as text: never read as markup.
        li.append(h("span", { text: c.text }));
        return li;
      }),
    );
    this.chatLog.scrollTop = this.chatLog.scrollHeight;
  }

  // -- the waiting room -------------------------------------------------------------------

  renderWaiting() {
    const tb = this.table;
    const you = tb.you || { seat: null, host: false };
    const link = location.origin + tb.invite;
    const linkInput = h("input", { id: "invite-link", readonly: true, value: link, "aria-label": t("wait.link") });
    const copy = h("button", {
      type: "button",
      id: "copy-link",
      "data-key": "copy-link",
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
        } catch {
          linkInput.select();
          document.execCommand("copy");
        }
        copy.textContent = t("wait.copied");
      },
      text: t("wait.copy"),
    });
    const error = h("p", { class: "error", role: "alert" });
    const call = async (method, path, body) => {
      try {
        const table = await api(method, path, body);
        this.setTable(table);
        this.render();
      } catch (err) {
        error.textContent = err.message;
      }
    };
    const levels = ["random", "beginner", "intermediate", "strong", "champion"];
    const rows = tb.seats.map((s) => {
      const bits = [h("span", { class: "who", text: `${t("table.seat_n", { n: s.seat + 1 })}: ` })];
      if (s.kind === "open") {
        bits.push(h("em", { text: t("wait.open") }));
        if (you.seat === null) {
          bits.push(h("button", { type: "button", class: "sit", "data-key": `sit-${s.seat}`, onclick: () => call("POST", `/api/tables/${this.token}/seats/${s.seat}`), text: t("wait.sit") }));
        }
        if (you.host) {
          const sel = h("select", { "aria-label": t("wait.bot_level"), id: `bot-level-${s.seat}` }, levels.map((l) => h("option", { value: l, selected: l === "intermediate", text: t(`level.${l}`) })));
          bits.push(sel, h("button", { type: "button", "data-key": `bot-${s.seat}`, onclick: () => call("PUT", `/api/tables/${this.token}/seats/${s.seat}`, { kind: "bot", level: sel.value }), text: t("wait.seat_bot") }));
        }
      } else if (s.kind === "bot") {
        bits.push(h("span", { text: t("table.bot", { n: s.seat + 1, level: t(`level.${s.level}`) }) }));
        if (you.host) bits.push(h("button", { type: "button", "data-key": `open-${s.seat}`, onclick: () => call("PUT", `/api/tables/${this.token}/seats/${s.seat}`, { kind: "open" }), text: t("wait.open_seat") }));
      } else {
        bits.push(h("span", { text: s.nickname + (s.seat === you.seat ? ` (${t("table.you")})` : "") }));
        if (s.seat === you.seat) bits.push(h("button", { type: "button", "data-key": "leave", onclick: () => call("DELETE", `/api/tables/${this.token}/seats/${s.seat}`), text: t("wait.leave") }));
      }
      return h("li", { class: "seat-row" }, bits);
    });
    const full = tb.seats.every((s) => s.kind !== "open");
    const overrides = Object.entries(tb.overrides || {});
    fill(
      this.parts.waiting,
      h("h2", { text: t("wait.title") }),
      h("p", { text: overrides.length ? t("wait.rules", { rules: overrides.map(([k, v]) => ruleInWords(k, v)).join(", ") }) : t("wait.default_rules") }),
      h("div", { class: "invite" }, h("label", { for: "invite-link", text: t("wait.link") }), h("div", { class: "row" }, linkInput, copy)),
      h("ul", { class: "list seats-list" }, rows),
      error,
      you.host
        ? h("button", {
            type: "button",
            class: "primary",
            id: "start",
            "data-key": "start",
            disabled: !full,
            onclick: () => call("POST", `/api/tables/${this.token}/start`),
            text: full ? t("wait.start") : t("wait.waiting_seats"),
          })
        : h("p", { text: t("wait.host_starts") }),
    );
  }

  // -- the game ---------------------------------------------------------------------------

  renderPlay() {
    const v = this.view;
    const tb = this.table;
    if (!v) {
      fill(this.parts.center, h("p", { text: t("table.loading") }));
      return;
    }
    const legal = this.legal();
    const mo = this.takeMotion();
    const plays = new Set(legal.filter((a) => "play" in a).map((a) => a.play));
    // Everyone else at the table: name, cards in hand (face down, or shown), presence.
    const others = [];
    for (let s = 0; s < v.players; s++) {
      if (s === v.seat) continue;
      const seat = tb.seats[s] || {};
      const shown = v.visible_hands && (v.visible_hands[s] || v.visible_hands[String(s)]);
      const size = v.hand_sizes ? v.hand_sizes[s] : 0;
      others.push(
        h(
          "div",
          { class: `opponent${v.to_act === s ? " to-act" : ""}`, "data-seat": s },
          h(
            "p",
            { class: "name" },
            this.seatName(s),
            seat.kind === "person" && !seat.connected ? h("span", { class: "away", text: ` (${t("table.away")})` }) : null,
            seat.stand_in ? h("span", { class: "away", text: ` (${t("table.stand_in")})` }) : null,
          ),
          h(
            "div",
            { class: "mini-hand", role: "group", "aria-label": t("table.cards_in_hand", { n: size }) },
            shown ? shown.map((c) => cardEl(c, { extra: "small" })) : Array.from({ length: size }, () => backEl(t("table.face_down"))),
          ),
        ),
      );
    }
    fill(this.parts.others, others);
    // The trick, the turned trump and the stock, the points, the last trick.
    const trick = h(
      "div",
      { class: "trick", id: "trick", role: "group", "aria-label": t("table.trick") },
      (v.trick || []).map(([seat, card]) =>
        h("figure", { class: "played" }, cardEl(card, { extra: mo.played.has(card) ? "enter" : null }), h("figcaption", { text: this.seatName(seat) })),
      ),
      (v.trick || []).length ? null : slotEl(t("words.empty_trick")),
    );
    const stock = h(
      "div",
      { class: "stock" },
      v.turned ? h("figure", { class: "turned" }, cardEl(v.turned), h("figcaption", { text: t("table.trump_card", { suit: suitName(v.trump) }) })) : v.trump ? h("p", { text: t("table.trump_suit", { suit: suitName(v.trump) }) }) : null,
      v.stock_top ? h("figure", {}, cardEl(v.stock_top), h("figcaption", { text: t("table.stock_top") })) : null,
      // no stock place in a hand that has none (chiamata deals every card) or no more
      v.stock_size ? backEl(t("table.stock", { n: v.stock_size })) : null,
      v.stock_size || v.turned ? h("p", { class: "stock-size", id: "stock-size", text: t("table.stock", { n: v.stock_size }) }) : null,
    );
    const points = v.points
      ? h("p", { class: "points", id: "points" }, v.sides.map((_, i) => `${this.sideName(i, v.sides)}: ${v.points[i]}`).join(" · "))
      : null;
    let last = null;
    if (v.last_trick) {
      const lt = v.last_trick;
      last = h(
        "details",
        { class: "last-trick", id: "last-trick" },
        h("summary", { text: t("table.last_trick", { who: this.seatName(lt.winner), points: lt.points }) }),
        h("div", { class: "row" }, lt.cards.map((c, i) => h("figure", {}, cardEl(c, { extra: "small" }), h("figcaption", { text: this.seatName(lt.seats[i]) })))),
      );
      if (this.lastOpen) last.open = true;
      last.addEventListener("toggle", () => (this.lastOpen = last.open));
    }
    fill(this.parts.center, trick, stock, points, last);
    // Your hand: only the legal cards enabled; every other legal action as a button.
    const hand = h(
      "div",
      { class: "hand", id: "hand", role: "group", "aria-label": t("table.your_hand") },
      (v.hand || []).map((c) =>
        cardEl(c, { onClick: (card) => this.act({ seat: v.seat, play: card }), enabled: plays.has(c), extra: mo.drawn.has(c) ? "drawn" : null }),
      ),
    );
    const others2 = legal.filter((a) => !("play" in a));
    const actions = others2.length
      ? h(
          "div",
          { class: "actions", id: "actions", role: "group", "aria-label": t("table.actions") },
          others2.map((a, i) =>
            h("button", { type: "button", class: "action", "data-key": `act-${i}-${Object.keys(a).join("-")}`, onclick: () => this.act(a), text: this.actionLabel(a) }),
          ),
        )
      : null;
    const heading = h("h2", { class: "sr-only", text: t("table.your_hand") });
    fill(this.parts.mine, heading, v.seat === null ? h("p", { text: t("table.watching") }) : hand, actions);
    if (mo.taken) this.flyTaken(mo.taken, trick);
    if (mo.drawn.size) fromStock(hand.querySelectorAll(".card.drawn"), stock);
    // What was said and signalled; the auction.
    const side = [];
    if (v.auction) {
      const a = v.auction;
      side.push(
        h(
          "div",
          { class: "auction", id: "auction" },
          h("h2", { text: t("table.auction") }),
          h("ul", {}, (a.bids || []).map((b) => h("li", { text: `${this.seatName(b.seat)}: ${b.bid === "pass" ? t("act.pass") : bidName(b.bid)}` }))),
          a.caller !== null && a.caller !== undefined ? h("p", { text: t("table.caller", { who: this.seatName(a.caller), bid: String(a.high) }) }) : null,
          a.called ? h("p", { text: t("table.called", { card: cardName(a.called) }) }) : null,
          a.partner !== null && a.partner !== undefined ? h("p", { class: "partner", id: "partner", text: this.partnerText(a) }) : null,
        ),
      );
    }
    if (v.talk && v.talk.length) {
      side.push(
        h(
          "div",
          { class: "talk", id: "talk" },
          h("h2", { text: t("table.talk") }),
          h(
            "ul",
            {},
            v.talk.map((x) =>
              h("li", {
                text:
                  `${this.seatName(x.seat)}: ${t(`talk.${x.kind}`)} ${talkWord(x.kind, x.what)}` +
                  (x.to !== undefined ? ` → ${this.seatName(x.to)}` : "") +
                  (x.answer !== undefined ? ` (${answerWords(x.answer)})` : "") +
                  (x.spotted && x.spotted.length ? ` · ${t("table.spotted")}` : ""),
              }),
            ),
          ),
        ),
      );
    }
    fill(this.parts.side, side);
  }

  /** Who the caller's partner is, as far as this seat knows (the view says it once the
   * called card is played, and to the partner from the call): alone, you, or that seat. */
  partnerText(a) {
    if (a.partner === a.caller) return t("finish.alone");
    if (this.view && a.partner === this.view.seat) return t("finish.you_partner");
    return t("table.partner", { who: this.seatName(a.partner) });
  }

  // -- animations: decoration on what is already drawn, never a wait ---------------------

  /** What the last update moved, once (nothing under reduced motion). */
  takeMotion() {
    const mo = this.motion;
    this.motion = still();
    return matchMedia("(prefers-reduced-motion: reduce)").matches ? still() : mo;
  }

  /** The trick just taken, as a short-lived copy over the table that slides toward the
   * taker's side and fades; it takes no clicks and is gone when its animation ends. */
  flyTaken(e, trick) {
    const from = trick.getBoundingClientRect();
    const mine = this.view && e.winner === this.view.seat;
    const target = mine ? this.parts.mine : this.parts.others.querySelector(`[data-seat="${e.winner}"]`);
    const to = (target || trick).getBoundingClientRect();
    const copy = h("div", { class: "taken", "aria-hidden": "true" }, e.cards.map((c) => cardEl(c)));
    for (const el of copy.querySelectorAll("[data-card]")) el.removeAttribute("data-card");
    Object.assign(copy.style, { left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`, height: `${from.height}px` });
    copy.style.setProperty("--dx", `${to.left + to.width / 2 - (from.left + from.width / 2)}px`);
    copy.style.setProperty("--dy", `${to.top + to.height / 2 - (from.top + from.height / 2)}px`);
    const done = () => copy.remove();
    copy.addEventListener("animationend", done);
    copy.addEventListener("animationcancel", done);
    setTimeout(done, 5000); // no animation event (a hidden tab): gone all the same
    document.body.append(copy);
  }

  // -- the end of a hand, and of the match -------------------------------------------------

  renderEnd() {
    const tb = this.table;
    const e = this.ended;
    const v = this.view;
    const bits = [];
    const over = tb.status === "finished" || Boolean(e && e.match) || Boolean(v && v.match && v.match.over);
    bits.push(h("h2", { id: "end-title", text: over ? t("end.match_over") : t("end.hand_over", { n: e ? e.hand : "" }) }));
    if (e && e.sides.length) {
      bits.push(
        h(
          "table",
          { class: "scores", id: "hand-points" },
          h("thead", {}, h("tr", {}, h("th", { text: t("end.side") }), h("th", { text: t("end.points") }), h("th", { text: t("end.carichi") }))),
          h(
            "tbody",
            {},
            e.sides.map((side, i) =>
              h(
                "tr",
                { class: side.some((s) => (e.winners || []).includes(s)) ? "won" : "" },
                h("td", { text: this.sideName(i, e.sides) + (side.some((s) => (e.winners || []).includes(s)) ? ` ★ ${t("end.won")}` : "") }),
                h("td", { text: String(e.points ? e.points[i] : "") }),
                h("td", {}, e.carichi[i].length ? e.carichi[i].map((c) => cardName(c)).join(", ") : "—"),
              ),
            ),
          ),
        ),
      );
      if (e.series.some((s) => s.length)) {
        bits.push(pointsChart(e.series, e.sides.map((_, i) => this.sideName(i, e.sides)), t("end.chart")));
      }
    }
    const m = v && v.match;
    if (m) {
      bits.push(h("p", { class: "match", id: "match-score", text: t("end.match_score", { score: (m.hands_won || []).join(" – "), totals: (m.totals || []).join(" – ") }) }));
    }
    bits.push(this.fairBox(e ? e.hand : null));
    const row = h("div", { class: "row" });
    if (over) {
      if (tb.rematch) row.append(h("button", { type: "button", class: "primary", id: "rematch", "data-key": "rematch", onclick: () => this.navigate(`/t/${tb.rematch}`), text: t("end.join_rematch") }));
      else if (tb.you && tb.you.seat !== null) {
        row.append(
          h("button", {
            type: "button",
            class: "primary",
            id: "rematch",
            "data-key": "rematch",
            onclick: async () => {
              try {
                const next = await api("POST", `/api/tables/${this.token}/rematch`);
                this.navigate(next.invite);
              } catch (err) {
                this.notice = err.message;
                this.render();
              }
            },
            text: t("end.rematch"),
          }),
        );
      }
      row.append(h("a", { href: `/api/tables/${this.token}/record`, download: "", text: t("end.record") }));
      row.append(h("a", { href: "/", onclick: (ev) => { ev.preventDefault(); this.navigate("/"); }, text: t("table.home") }));
    } else {
      row.append(h("button", { type: "button", class: "primary", id: "next-hand", "data-key": "next-hand", onclick: () => { this.showEnd = false; this.render(); refocus("card-x", '.hand .card[aria-disabled="false"]', ".hand .card"); }, text: t("end.next_hand") }));
    }
    bits.push(row);
    fill(this.parts.end, bits);
  }

  fairBox(hand) {
    const f = hand ? this.fair[hand] : null;
    const box = h("div", { class: "fair", id: "fair" }, h("h3", { text: t("fair.title") }));
    if (!f) {
      box.append(h("p", { text: t("fair.none") }));
      return box;
    }
    box.append(h("p", {}, t("fair.commitment"), " ", h("code", { class: "hash", text: f.commitment || (f.revealed && f.revealed.commitment) || "" })));
    if (!f.revealed) {
      box.append(h("p", { text: t("fair.not_yet") }));
      return box;
    }
    const result = h("p", { class: "verdict", id: "fair-result", role: "status" });
    box.append(
      h("p", {}, t("fair.salt"), " ", h("code", { class: "hash", text: f.revealed.salt })),
      h("details", {}, h("summary", { text: t("fair.deal") }), h("code", { class: "deal", text: JSON.stringify(f.revealed.deal) })),
      h("button", {
        type: "button",
        id: "verify",
        "data-key": "verify",
        onclick: async () => {
          const r = await verifyHand(f.commitment, f.revealed);
          const turnedOk = !f.turned || f.turned === f.revealed.deal.trump;
          result.className = `verdict ${r.ok && turnedOk ? "ok" : "bad"}`;
          result.textContent = r.ok && turnedOk ? t("fair.ok") : t("fair.bad", { committed: r.committed, computed: r.computed });
        },
        text: t("fair.verify"),
      }),
      result,
    );
    return box;
  }
}

/** Nothing moved. */
function still() {
  return { played: new Set(), drawn: new Set(), taken: null };
}

/** Cards just drawn slide in from the stock: each starts where the stock is. */
function fromStock(cards, stock) {
  const s = stock.getBoundingClientRect();
  for (const el of cards) {
    const r = el.getBoundingClientRect();
    el.style.setProperty("--from-x", `${s.left + s.width / 2 - (r.left + r.width / 2)}px`);
    el.style.setProperty("--from-y", `${s.top + s.height / 2 - (r.top + r.height / 2)}px`);
  }
}

let audio = null;
function beep(freq) {
  try {
    audio ||= new AudioContext();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = freq;
    g.gain.value = 0.05;
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.08);
  } catch {
    // no sound here
  }
}

/** A chiamata bid as players say it: a rank by its name in the deck's style ("cavallo"),
 * a bid in points (after a 2) by its number. */
function bidName(bid) {
  return typeof bid === "string" ? rankName(bid) : String(bid);
}

const HONOURS = { ace: "A", three: "3", king: "K", queen: "Q", jack: "J" };

/** A signal, question or order in the language: the honours by their rank's name in the
 * deck's style ("cavallo di briscola"); a rais's look and end of talk need no word (the
 * seat looked at follows); a word the strings lack as it came. */
function talkWord(kind, what) {
  if (kind === "done" || kind === "look") return ""; // "has finished"; "looks" → the seat shown after
  if (kind === "signal" && HONOURS[what]) return t("talkword.signal.honour", { rank: rankName(HONOURS[what]) });
  const key = `talkword.${kind}.${what}`;
  const said = t(key);
  return said === key ? what : said;
}

/** A question's answer in the language ("briscoline vestite": both kinds of trumps). */
function answerWords(answer) {
  return answer
    .split(" ")
    .map((w) => {
      const key = `talkword.answer.${w}`;
      const said = t(key);
      return said === key ? w : said;
    })
    .join(" + ");
}
