// A table's page ("/t/TOKEN"): its waiting room, the game, the end of each hand and of the
// match. It puts together the controller that holds the state (./ctrl.js), the socket that
// feeds it (./socket.js) and the views that draw it (./view/), as lila's ui/round does;
// someone with no session first chooses a nickname.

import { whoAmI } from "../api.js";
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
        nicknameForm((me) => {
          this.ctrl.me = me;
          this.socket.connect();
        }, t("table.invited")),
      );
      return;
    }
    this.socket.connect();
  }

  close() {
    this.view.close();
    this.socket.close();
  }
}
