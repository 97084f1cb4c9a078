// The waiting room: the table's house rules, its invitation link to copy, each seat (open,
// a computer player, a person) with what you may do there (sit, leave; the host seats or
// removes computer players), and the host's start once every seat is taken.

import { fill, h } from "../../dom.js";
import { ruleInWords, t } from "../../i18n.js";
import { botLabel } from "../words.js";
import { copyButton } from "../../copy.js";
import { partnersOf, placesFrom, seatedPartners } from "../../places.js";

const LEVELS = ["random", "beginner", "intermediate", "strong", "champion"];

export function drawWaiting(ui) {
  const ctrl = ui.ctrl;
  const tb = ctrl.table;
  const you = tb.you || { seat: null, host: false };
  const link = location.origin + tb.invite;
  const linkInput = h("input", { id: "invite-link", readonly: true, value: link, "aria-label": t("wait.link") });
  const [copy, copied] = copyButton(link, linkInput, t("wait.copy"), "copy-link");
  const error = h("p", { class: "error", role: "alert" });
  // a command of the controller; what the server refused is said here
  const doing = (command) => () => command().catch((err) => (error.textContent = err.message));
  // seated, you see the others by their place, your partners marked
  const n = tb.seats.length;
  const seated = you.seat !== null && you.seat !== undefined;
  const places = seated ? placesFrom(n, you.seat, tb.rules.direction) : [];
  const partners = seated && seatedPartners(tb.rules, n) ? partnersOf(n, you.seat) : [];
  const rows = tb.seats.map((s) => {
    const where = [t("table.seat_n", { n: s.seat + 1 })];
    if (seated && s.seat !== you.seat) where.push(t(`setup.place.${places[s.seat]}`));
    if (partners.includes(s.seat)) where.push(t("setup.partner"));
    const bits = [h("span", { class: "who", "data-place": places[s.seat] || null, text: `${where.join(" · ")}: ` })];
    if (s.kind === "open") {
      bits.push(h("em", { text: t("wait.open") }));
      if (you.seat === null) {
        bits.push(h("button", { type: "button", class: "sit", "data-key": `sit-${s.seat}`, onclick: doing(() => ctrl.sit(s.seat)), text: t("wait.sit") }));
      }
      if (you.host) {
        // this seat's own link: whoever opens it and chooses a nickname sits here
        const own = `${link}?seat=${s.seat + 1}`;
        const [copySeat, seatCopied] = copyButton(own, () => ((linkInput.value = own), linkInput), t("wait.copy_seat"), `copy-seat-${s.seat}`);
        copySeat.classList.add("small");
        bits.push(copySeat, seatCopied);
        const sel = h("select", { "aria-label": t("wait.bot_level"), id: `bot-level-${s.seat}` }, LEVELS.map((l) => h("option", { value: l, selected: l === "intermediate", text: t(`level.${l}`) })));
        bits.push(sel, h("button", { type: "button", "data-key": `bot-${s.seat}`, onclick: doing(() => ctrl.seatBot(s.seat, sel.value)), text: t("wait.seat_bot") }));
      }
    } else if (s.kind === "bot") {
      bits.push(h("span", { class: "bot-name", text: botLabel(s) }));
      if (you.host) bits.push(h("button", { type: "button", "data-key": `open-${s.seat}`, onclick: doing(() => ctrl.openSeat(s.seat)), text: t("wait.open_seat") }));
    } else {
      bits.push(h("span", { text: s.nickname + (s.seat === you.seat ? ` (${t("seat.you")})` : "") }));
      if (s.seat === you.seat) bits.push(h("button", { type: "button", "data-key": "leave", onclick: doing(() => ctrl.leave(s.seat)), text: t("wait.leave") }));
    }
    return h("li", { class: "seat-row" }, bits);
  });
  const full = tb.seats.every((s) => s.kind !== "open");
  const overrides = Object.entries(tb.overrides || {});
  fill(
    ui.parts.waiting,
    h("h2", { text: t("wait.title") }),
    h("p", { text: overrides.length ? t("wait.rules", { rules: overrides.map(([k, v]) => ruleInWords(k, v)).join(", ") }) : t("wait.default_rules") }),
    h("div", { class: "invite" }, h("label", { for: "invite-link", text: t("wait.link") }), h("div", { class: "row" }, linkInput, copy), copied),
    h("ul", { class: "list seats-list" }, rows),
    error,
    you.host
      ? h("button", {
          type: "button",
          class: "primary",
          id: "start",
          "data-key": "start",
          disabled: !full,
          onclick: doing(() => ctrl.start()),
          text: full ? t("wait.start") : t("wait.waiting_seats"),
        })
      : h("p", { text: t("wait.host_starts") }),
  );
}
