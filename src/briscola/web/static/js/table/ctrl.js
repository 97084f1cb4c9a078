// A table's state (the controller of lila's ui/round): the table and its version, this
// seat's view, the tricks of the hand as they were taken, the end of the last hand, the
// fair-shuffle proofs, the chat, the one move in flight and when the turn began. The socket
// calls its methods with the server's frames (./socket.js); the views read it and call its
// actions (./view/); `redraw` draws it again. It holds no rules: what the page shows comes
// from the views and legal actions the server sends.

import { analysisOf, api, games } from "../api.js";
import { setDeck } from "../cards.js";
import { hintWords } from "../analysis.js";
import { announce } from "../dom.js";
import { verifyHand } from "../fair.js";
import { errorText, t } from "../i18n.js";
import { trickPauseMs } from "../prefs.js";
import { tableRules } from "../rules.js";
import { tell, tellTurn } from "./narrate.js";
import { pointsHidden, seatName } from "./words.js";

/** What an update moved, for the animations of its drawing: nothing yet. */
export function still() {
  return { played: new Set(), drawn: new Set(), taken: null };
}

/** The seat this tab watches `token`'s table from, as kept (0 when none is). */
function watchedFrom(token) {
  let kept = null;
  try {
    kept = sessionStorage.getItem(`briscola.watch.${token}`);
  } catch {
    // storage refused: the first seat
  }
  const seat = Number.parseInt(kept || "0", 10);
  return Number.isInteger(seat) && seat >= 0 ? seat : 0;
}

export class TableCtrl {
  /** `redraw(part)`: draw the page again (`part` "chat": only the chat). */
  constructor(token, navigate, redraw) {
    this.token = token;
    this.navigate = navigate;
    this.redraw = redraw;
    this.socket = null; // the page's TableSocket: send(message) says whether it went
    this.me = null;
    this.version = 0;
    this.table = null;
    this.view = null;
    this.fair = {}; // hand -> {commitment, revealed: {commitment, salt, deal}, turned}
    this.log = { hand: null, tricks: [] }; // the tricks of the hand in play
    this.ended = null; // the last finished hand, for its end screen
    this.analyses = {}; // hand -> {state: "loading" | "ready" | "failed", body, error}
    this.hint = null; // the hint asked for: {version, asking | body | error}
    this.showEnd = false;
    this.pending = null; // {version, action, id, sent}: one action in flight at a time
    this.notice = "";
    this.chat = [];
    this.reconnecting = false;
    this.gone = false; // the table does not exist
    this.turnKey = undefined;
    this.turnSince = null; // when the seat to act was told it is their turn (the clock)
    this.lastAnnouncedTurn = null;
    this.motion = still(); // what the last update moved, for the animations of its drawing
    this.finished = null; // the trick last taken here, {trick: its trick_won event, since}: shown a while
    this.holdEnd = 0; // until when a hand's end waits, its last trick shown (Date.now())
    this.watchFrom = watchedFrom(token); // the seat a spectator watches from (at the bottom)
    this.game = null; // the table's game as the catalogue says it (`GET /api/games`), once known
  }

  /** The seat drawn at the bottom of the table: yours, or, as you watch, the one you
   * watch from (the first seat until you choose). */
  bottomSeat() {
    const v = this.view;
    if (!v) return 0;
    if (v.seat !== null && v.seat !== undefined) return v.seat;
    return this.watchFrom < v.players ? this.watchFrom : 0;
  }

  /** Watch from `seat` (drawn at the bottom), kept for this table in this tab. */
  watchSeat(seat) {
    this.watchFrom = seat;
    try {
      sessionStorage.setItem(`briscola.watch.${this.token}`, String(seat));
    } catch {
      // storage refused (a private window): chosen for this page only
    }
    this.redraw();
  }

  /** Whether a hand's end waits while its last trick is shown: the next hand's cards,
   * dealt meanwhile, are not played before its end has been seen. */
  holding() {
    return Date.now() < this.holdEnd;
  }

  /** Which screen the state is: gone, loading, waiting, play or end (once the hand's last
   * trick has been shown its while). */
  screen() {
    const tb = this.table;
    if (this.gone) return "gone";
    if (!tb) return "loading";
    if (tb.status === "waiting") return "waiting";
    if (tb.status === "finished" || (this.showEnd && this.ended)) return this.holding() ? "play" : "end";
    return "play";
  }

  // -- what the socket says ---------------------------------------------------------------

  /** The first frame of a connection: it is back. The move held while it was down. */
  connected() {
    this.reconnecting = false;
    return this.pending;
  }

  /** The connection dropped; the socket tries again. */
  disconnected() {
    this.reconnecting = true;
    this.redraw();
  }

  /** The table is not there (close code 4404). */
  notFound() {
    this.gone = true;
    this.redraw();
  }

  /** Finished hand `hand`'s analysis as far as it has come (`state` "loading", "ready"
   * with its `body`, or "failed" with its `error`): asked for the first time it is wanted,
   * drawn again when it comes. */
  analysis(hand) {
    let a = this.analyses[hand];
    if (!a) {
      a = this.analyses[hand] = { state: "loading" };
      analysisOf(this.token, hand).then(
        (body) => {
          Object.assign(a, { state: "ready", body });
          this.redraw();
        },
        (err) => {
          Object.assign(a, { state: "failed", error: err.message });
          this.redraw();
        },
      );
    }
    return a;
  }

  /** The session ended (signed out in another tab, close code 4401): choose a nickname again. */
  signedOut() {
    this.navigate("/");
  }

  /** Whether a message went: only on a live socket. */
  send(message) {
    return this.socket ? this.socket.send(message) : false;
  }

  snapshot(m) {
    this.version = m.version;
    this.setTable(m.table);
    this.view = m.view;
    this.pending = null;
    this.finished = null;
    this.holdEnd = 0;
    for (const f of m.fairness || []) this.fairEvent(f);
    const v = this.view;
    if (v && this.log.hand !== v.hand_number) {
      this.log = { hand: v.hand_number, tricks: (v.tricks || []).map((tr) => ({ ...tr })) };
    }
    if (v && m.table.status === "finished" && !this.ended) {
      this.ended = this.handSummary(v.points, v.winners, null, null, v.carichi);
    }
    this.turnChanged();
    this.clockFrom(m.table);
  }

  /** The clock as the server counts it, where it says so (a page opened, or reconnected,
   * while someone's clock runs): the turn began that much earlier. */
  clockFrom(table) {
    const left = table.clock_left;
    if (left === null || left === undefined || !table.clock) return;
    this.turnSince = Date.now() - Math.max(0, table.clock - left) * 1000;
  }

  update(m) {
    const before = this.view;
    this.motion = still();
    for (const e of m.events) this.event(e, before || m.view);
    this.version = m.version;
    this.view = m.view;
    tell(this, m.events, before, m.view);
    if (this.pending && this.pending.version !== this.version) this.pending = null;
    this.turnChanged();
  }

  setTable(table) {
    const was = this.table;
    this.table = table;
    this.clockFrom(table);
    if (!was || was.game !== table.game) {
      games().then((c) => {
        const g = c.games.find((x) => x.key === table.game);
        this.game = g || null;
        setDeck(g ? g.deck.name : null);
        this.redraw();
      });
    }
  }

  chatLine(m) {
    this.chat.push(m);
    if (this.chat.length > 100) this.chat.shift();
    this.redraw("chat");
  }

  refused(m) {
    if (this.pending && (!m.id || m.id === this.pending.id)) this.pending = null;
    if (m.code === "already_taken") return; // the move sent again had been taken: its update says so
    this.notice = errorText(m); // in the page's language (stale: the table moved on)
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

  fairEvent(e) {
    const f = (this.fair[e.hand] ||= {});
    if (e.type === "hand_committed") f.commitment ||= e.commitment;
    if (e.type === "hand_revealed") f.revealed = { commitment: e.commitment, salt: e.salt, deal: e.deal };
  }

  /** One event of an update (`view`: the seat's view before it): what it changes here (what
   * the page says of the update's events, ./narrate.js says once they are all in). */
  event(e, view) {
    switch (e.type) {
      case "hand_committed":
      case "hand_revealed":
        this.fairEvent(e);
        break;
      case "card_played":
        this.motion.played.add(e.card);
        break;
      case "trick_won":
        this.log.tricks.push({ winner: e.winner, cards: e.cards, seats: e.seats, points: e.points });
        this.motion.taken = e;
        this.finished = { trick: e, since: Date.now() };
        break;
      case "hand_over":
        this.ended = this.handSummary(e.points, e.winners, view, e.sides, e.carichi);
        this.showEnd = true;
        // the hand's last trick shown first, for the person's pause (view/motion.js shownTrick)
        this.holdEnd = this.finished ? this.finished.since + trickPauseMs() : 0;
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
      default:
        break;
    }
  }

  /** The end of a hand: its points and winners, its sides, the points of each side after
   * each trick (the chart), the carichi each side took, as the server counted them, and
   * chiamata's auction as the seat knew it (the sides are named after its caller). */
  handSummary(points, winners, view, handSides = null, carichi = null) {
    const v = view || this.view;
    // the hand's own sides, which the points are by (chiamata's known only at the reveal)
    const sides = handSides && handSides.length ? handSides : v ? v.sides : [];
    const series = sides.map(() => []);
    const totals = sides.map(() => 0);
    for (const tr of this.log.tricks) {
      const side = sides.findIndex((s) => s.includes(tr.winner));
      if (side >= 0) totals[side] += tr.points;
      series.forEach((s, i) => s.push(totals[i]));
    }
    const taken = sides.map((_, i) => (carichi && carichi[i]) || []);
    return { hand: this.log.hand, points, winners, sides, series, carichi: taken, mySeat: v ? v.seat : null, auction: v ? v.auction || null : null };
  }

  turnChanged() {
    const v = this.view;
    const key = v ? `${v.hand_number}:${v.move_number}:${v.to_act}` : null;
    if (key !== this.turnKey) {
      this.turnKey = key;
      this.turnSince = Date.now();
      if (v && v.to_act !== null && v.to_act !== undefined && this.lastAnnouncedTurn !== key) {
        this.lastAnnouncedTurn = key;
        tellTurn(this, v);
      }
    }
  }

  /** What the last update moved, once. */
  takeMotion() {
    const mo = this.motion;
    this.motion = still();
    return mo;
  }

  /** Seconds left to the seat to act, or null when the table has no clock or nobody acts. */
  secondsLeft() {
    const left = this.clockLeft();
    return left === null ? null : Math.ceil(left * this.table.clock);
  }

  /** The share of the move's clock left to the seat to act (1 when its turn began, 0 when
   * the clock has run out), or null when the table has no clock or nobody acts (or you
   * watch a public table: you see it a trick late, and that move's clock ran long ago). */
  clockLeft() {
    const tb = this.table;
    const v = this.view;
    if (!tb || !tb.clock || !v || v.to_act === null || v.to_act === undefined) return null;
    if (tb.public && (v.seat === null || v.seat === undefined)) return null;
    return Math.min(1, Math.max(0, 1 - (Date.now() - this.turnSince) / 1000 / tb.clock));
  }

  // -- acting -----------------------------------------------------------------------------

  act(action) {
    if (this.pending && this.pending.version === this.version) return; // one at a time
    const id = `v${this.version}-${Date.now() % 100000}`;
    this.pending = { version: this.version, action, id, sent: false };
    this.notice = "";
    this.pending.sent = this.send({ type: "act", version: this.version, action, id });
    if (!this.pending.sent) this.notice = t("table.offline_queued");
    this.redraw();
  }

  /** The actions this seat may take now: none while one is in flight, nor while a hand's
   * end waits. */
  legal() {
    const v = this.view;
    if (!v || !v.legal || this.holding() || (this.pending && this.pending.version === this.version)) return [];
    return v.legal;
  }

  /** Say `text` in the chat; whether it went. */
  say(text) {
    return this.send({ type: "chat", text });
  }

  /** Say the friendly phrase `id` in the chat; whether it went. */
  sayPhrase(id) {
    return this.send({ type: "chat", phrase: id });
  }

  /** Back from a hand's end to the table. */
  nextHand() {
    this.showEnd = false;
    this.redraw();
  }

  /** The table's rules in words (a promise of the server's rules-text answer). */
  rulesText() {
    return tableRules(this.token);
  }

  /** Whether hand `hand`'s revealed deal hashes to its commitment, and its turned card is
   * the one shown: `{ok, committed, computed}`. */
  async verify(hand) {
    const f = this.fair[hand];
    const r = await verifyHand(f.commitment, f.revealed);
    const turnedOk = !f.turned || f.turned === f.revealed.deal.trump;
    return { ok: r.ok && turnedOk, committed: r.committed, computed: r.computed };
  }

  /** Whether you may ask for a hint now: seated, on your turn to play a card, at a table
   * opened with hints or a practice one (nobody but computer players beside you). */
  canHint() {
    const tb = this.table;
    const v = this.view;
    if (!tb || !v || v.seat === null || v.seat === undefined || tb.status !== "playing") return false;
    if (!this.legal().some((a) => "play" in a || "exchange" in a)) return false;
    return tb.hints || tb.seats.every((s, i) => i === v.seat || s.kind === "bot");
  }

  /** Ask for a hint for the moment shown (`hint`: `{version, body}` or `{version, error}`,
   * drawn until the table moves on). */
  async askHint() {
    const version = this.version;
    this.hint = { version, asking: true };
    this.redraw();
    try {
      const body = await api("POST", `/api/tables/${this.token}/hint`);
      this.hint = { version, body };
      const said = hintWords(body, (seat) => seatName(this, seat), pointsHidden(this));
      announce(`${said.sentence} ${said.why}`);
    } catch (err) {
      this.hint = { version, error: err.message };
    }
    this.redraw();
  }

  async rematch() {
    try {
      const next = await api("POST", `/api/tables/${this.token}/rematch`);
      this.navigate(next.invite);
    } catch (err) {
      this.notice = err.message;
      this.redraw();
    }
  }

  // The waiting room's commands: each gives back the table, or fails with the server's
  // error (the waiting room shows its message).

  sit(seat) {
    return this.call("POST", `/api/tables/${this.token}/seats/${seat}`);
  }

  seatBot(seat, level) {
    return this.call("PUT", `/api/tables/${this.token}/seats/${seat}`, { kind: "bot", level });
  }

  openSeat(seat) {
    return this.call("PUT", `/api/tables/${this.token}/seats/${seat}`, { kind: "open" });
  }

  leave(seat) {
    return this.call("DELETE", `/api/tables/${this.token}/seats/${seat}`);
  }

  start() {
    return this.call("POST", `/api/tables/${this.token}/start`);
  }

  async call(method, path, body) {
    const table = await api(method, path, body);
    this.setTable(table);
    this.redraw();
  }
}
