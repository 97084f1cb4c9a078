// A table's page ("/t/TOKEN"): its waiting room, the game, the end of each hand and of the
// match. It puts together the controller that holds the state (./ctrl.js), the socket that
// feeds it (./socket.js) and the views that draw it (./view/), as lila's ui/round does;
// someone with no session first chooses a nickname.

import { api, whoAmI } from "../api.js";
import { fill, h } from "../dom.js";
import { nicknameForm } from "../forms.js";
import { t } from "../i18n.js";
import { TableCtrl } from "./ctrl.js";
import { TableSocket } from "./socket.js";
import { TableView } from "./view/main.js";

export class TablePage {
  constructor(app, token, navigate) {
    this.app = app;
    this.ctrl = new TableCtrl(token, navigate, (part) => this.view.redraw(part));
    this.socket = new TableSocket(token, this.ctrl);
    this.ctrl.socket = this.socket;
    this.view = new TableView(app, this.ctrl);
  }

  async open() {
    fill(this.app, h("p", { class: "loading", text: t("table.loading") }));
    this.ctrl.me = await whoAmI().catch(() => null);
    if (!this.ctrl.me) {
      fill(
        this.app,
        nicknameForm(async (me) => {
          this.ctrl.me = me;
          await this.sitDown();
          this.socket.connect();
        }, t("table.invited")),
      );
      return;
    }
    this.socket.connect();
  }

  /** Someone who came by the table's link and just chose a nickname takes the seat the
   * link was for (`?seat=N`, the seat's number as the waiting room shows it), or else the
   * first open seat, with no second click; a table already full or started is only
   * watched. */
  async sitDown() {
    const token = this.ctrl.token;
    const asked = Number(new URLSearchParams(location.search).get("seat")) - 1;
    try {
      const table = await api("GET", `/api/tables/${token}`);
      if (table.status !== "waiting" || (table.you && table.you.seat !== null && table.you.seat !== undefined)) return;
      const open = table.seats.filter((s) => s.kind === "open").map((s) => s.seat);
      const seat = open.includes(asked) ? asked : open[0];
      if (seat !== undefined) await api("POST", `/api/tables/${token}/seats/${seat}`);
    } catch {
      // taken meanwhile: the waiting room shows the seats left, each with its button
    }
  }

  close() {
    this.view.close();
    this.socket.close();
  }
}
