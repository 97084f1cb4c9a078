// The table's page drawn from its controller's state: the screen the state is (gone,
// loading, the waiting room, the game, the end of a hand or of the match), its lasting frame
// (built again only when the screen changes: the chat's form is never replaced, so what is
// being typed stays) and its parts, filled again on each change. Views only draw: what a
// click does is the controller's.

import { fill, focusedKey, h, refocus } from "../../dom.js";
import { t } from "../../i18n.js";
import { chatBox, chatMode, drawChat } from "./chat.js";
import { drawEnd } from "./end.js";
import { drawPlay } from "./play.js";
import { drawClock, drawStatus } from "./status.js";
import { drawWaiting } from "./waiting.js";

export class TableView {
  constructor(app, ctrl) {
    this.app = app;
    this.ctrl = ctrl;
    this.screen = null;
    this.parts = null; // the frame's places: status, waiting, center (the table round), mine, side, end
    this.chatLog = null;
    this.chatMode = null; // the chat box built: "none", "phrases" or "free"
    this.timer = null; // the clock's tick, on the game's screen
    this.rulesShown = false; // the rules panel under the status line, and its content
    this.rulesContent = null;
    this.lastOpen = false; // the last trick's details, opened
    this.trickTimer = null; // the end of the trick last taken's pause, or of its slide
    this.earlyCards = null; // the next trick's cards drawn waiting at their seats
    this.auctionOpen = null; // the hand whose auction's earlier lines are unfolded
    this.bidPick = null; // the bid your auction's stepper shows, and on which turn: {turn, bid}
  }

  /** Draw the state again: all of it, or only `part` ("chat"). */
  redraw(part) {
    if (part === "chat") {
      drawChat(this);
      return;
    }
    const key = focusedKey();
    const screen = this.ctrl.screen();
    const chat = chatMode(this.ctrl.table, this.ctrl.view);
    if (screen !== this.screen || chat !== this.chatMode) {
      this.screen = screen;
      this.chatMode = chat;
      this.build(screen);
    }
    if (screen === "waiting") drawWaiting(this);
    else if (screen === "play") drawPlay(this);
    else if (screen === "end") drawEnd(this);
    drawStatus(this);
    if (key && key.startsWith("card-")) refocus(key, '.hand .card[aria-disabled="false"]', ".hand .card");
    else if (key && /^(bid|pass|call-)/.test(key)) {
      // your bid or call went: the next one offered, else your hand, keeps the keyboard's place
      refocus(key, '[data-key="bid"]', '[data-key="pass"]', '#hand .card[aria-disabled="false"]', "#hand .card");
    } else refocus(key);
  }

  close() {
    clearInterval(this.timer);
    clearTimeout(this.trickTimer); // (the trick last taken: see motion.js shownTrick)
  }

  /** The screen's lasting frame. */
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
    const chat = chatBox(this);
    const status = part("status", "div", { id: "status" });
    if (screen === "waiting") {
      fill(this.app, h("div", { class: "waiting-screen" }, status, part("waiting", "section", { id: "waiting" }), chat));
    } else if (screen === "end") {
      fill(this.app, h("div", { class: "end-screen" }, status, part("end", "section", { id: "end" }), chat));
    } else {
      // your hand's part last, after the page, held at the bottom of the screen (style.css)
      fill(
        this.app,
        h(
          "div",
          { class: "table-page" },
          h(
            "div",
            { class: "table-screen" },
            status,
            part("center", "section", { id: "center", "aria-label": t("table.center") }),
            part("side", "aside", { id: "side" }),
            chat,
          ),
          part("mine", "section", { id: "mine", "aria-label": t("table.your_hand") }),
        ),
      );
      this.timer = setInterval(() => drawClock(this), 1000);
    }
  }
}
