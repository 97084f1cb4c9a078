// A table's WebSocket (docs/protocol.md): it connects, from the version the controller
// holds once it has a view (`?since=`); says a first ping, since a connection at the table's
// version may get nothing else; hands each frame to the controller by its type (the handler
// table below, as in lila's ui/round socket); and after a drop connects again, waiting a
// little longer each time, but not when the table is gone (4404), the session ended (4401)
// or there are too many connections (4429). Each frame that redraws the page is timed, from
// its arrival to its drawing done (parsed, given to the controller, the views drawn), as the
// user timing measure "briscola-draw" (its `detail`: the frame's `type`), which
// benchmarks/draw.py reads: two calls to performance.now() a frame, always on.

const BACKOFF = [500, 1000, 2000, 4000, 8000];
const DRAW = "briscola-draw";
const KEPT = 1000; // measures kept in the page's performance timeline, then cleared

export class TableSocket {
  constructor(token, ctrl) {
    this.token = token;
    this.ctrl = ctrl;
    this.ws = null;
    this.closed = false;
    this.tries = 0;
    this.fresh = false; // no frame yet on this connection
    this.live = false; // until the server's first frame: only then is the socket trusted
    this.measured = 0; // "briscola-draw" measures in the timeline
    // What each frame does; `false`: nothing more (no redraw, no move sent again).
    this.handlers = {
      snapshot: (m) => ctrl.snapshot(m),
      update: (m) => {
        if (m.since !== ctrl.version) {
          this.send({ type: "sync", since: ctrl.version });
          return false;
        }
        ctrl.update(m);
        return true;
      },
      table: (m) => ctrl.setTable(m.table),
      chat: (m) => {
        ctrl.chatLine(m);
        return false;
      },
      error: (m) => ctrl.refused(m),
    };
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    let url = `${scheme}://${location.host}/api/tables/${this.token}/ws`;
    if (this.ctrl.view) url += `?since=${this.ctrl.version}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    this.fresh = true;
    this.live = false;
    ws.onopen = () => {
      this.tries = 0;
      ws.send(JSON.stringify({ type: "ping" })); // the pong carries the version
    };
    ws.onmessage = (e) => {
      const start = performance.now();
      const m = JSON.parse(e.data);
      if (this.receive(m)) this.timed(m, start);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.live = false;
      if (this.closed) return;
      if (e.code === 4404) {
        this.ctrl.notFound();
        return;
      }
      if (e.code === 4401) {
        this.ctrl.signedOut();
        return;
      }
      if (e.code === 4429) {
        // too many connections: the error just received says so; no reconnecting into it
        this.ctrl.redraw();
        return;
      }
      this.ctrl.disconnected();
      const wait = BACKOFF[Math.min(this.tries, BACKOFF.length - 1)];
      this.tries += 1;
      setTimeout(() => this.connect(), wait);
    };
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }

  /** Send `message` if the socket is live; whether it went. */
  send(message) {
    if (this.ws && this.live && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /** Hand frame `m` to the controller; whether the page was drawn again. */
  receive(m) {
    const first = this.fresh;
    this.fresh = false;
    this.live = true;
    const held = first ? this.ctrl.connected() : null; // a move made while the socket was down
    const handler = this.handlers[m.type];
    if (handler && handler(m) === false) return false;
    if (held) this.ctrl.afterReconnect(m, held);
    this.ctrl.redraw();
    return true;
  }

  /** The measure "briscola-draw" of frame `m`, which arrived at `start`: until now. */
  timed(m, start) {
    this.measured += 1;
    if (this.measured > KEPT) {
      performance.clearMeasures(DRAW);
      this.measured = 1;
    }
    performance.measure(DRAW, { start, detail: { type: m.type } });
  }
}
