// The sides of a hand, named short, as a scoreboard names them, with the players' names on
// hover or focus (issue 23):
//
// - each for themself (2 or 3 players; chiamata before its sides are known): the player,
//   short: "You", a nickname, a computer player's first name;
// - two sides of several players, for a reader who sits at the table: their own side "Us"
//   ("Noi", "Nosotros", "Mi", as score sheets head the column), the other "Them" in pairs
//   ("Voi", "Ellos", "Vi": an Italian or a Croatian sheet says "you" to the other side);
// - teams of three (briscola-6, schembil): a team is named after one of its players,
//   "Bea's team" ("la squadra di Bea", "el equipo de Bea", "Bea i društvo": Croatian
//   names a team without declining the name): in schembil after its rais, in briscola-6
//   after its first player in the order of the seats (its lowest seat: the same all match
//   long); the reader's own team is "Us";
// - a spectator's sides, in every game of sides: each after its rais or first player
//   ("Ana's team"), never "us";
// - chiamata: the caller's side "Caller and partner" ("Caller" alone), the other "The
//   others", once the called card has shown who is with whom; before that each seat is
//   alone, named as in a game each for themself, except that the caller, once the auction
//   is won, is "Caller", and the partner is "Partner" to the reader who knows it. Nothing
//   of the caller before the auction ends, nothing of the partner before it is known.

import { h } from "../dom.js";
import { capital, t } from "../i18n.js";
import { sideLabel } from "../sidelabel.js";
import { groupName, seatLabel } from "./words.js";

/** The reader's seat: null for someone watching. */
function mine(ctrl) {
  return ctrl.view && ctrl.view.seat !== undefined ? ctrl.view.seat : null;
}

/** A seat's short name: "You", a nickname, a computer player's first name. */
export function shortName(ctrl, seat) {
  return seatLabel(ctrl, seat);
}

/** Schembil's rais (`rules.rais`, "0-3"), or none. */
function raisOf(v) {
  const m = v && v.rules && /^(\d+)-(\d+)$/.exec(String(v.rules.rais || ""));
  return m ? [Number(m[1]), Number(m[2])] : [];
}

/** The player a team is named after: its rais in schembil, else its lowest seat. */
function namesake(v, side) {
  const rais = raisOf(v).find((s) => side.includes(s));
  return rais !== undefined ? rais : Math.min(...side);
}

/** Chiamata's roles as this reader knows them (`a`, the view's auction): the caller once
 * the auction is won, the partner once known (the caller itself when alone). */
function roles(a) {
  if (!a) return { caller: null, partner: null };
  const known = (s) => (s === null || s === undefined ? null : s);
  return { caller: known(a.caller), partner: known(a.partner) };
}

/** Whether the table plays chiamata. */
function isChiamata(ctrl) {
  const v = ctrl.view;
  return (ctrl.table && ctrl.table.game === "chiamata") || Boolean(v && (v.game === "chiamata" || v.auction));
}

/** Side `i` of `sides`, named short as a label ("Us", "Bea's team", "Caller", "You");
 * chiamata's after `auction` (the view's, unless given: the end of a hand gives the one
 * of its last view). */
export function sideName(ctrl, i, sides, auction = ctrl.view && ctrl.view.auction) {
  const v = ctrl.view;
  const side = sides[i];
  const me = mine(ctrl);
  if (isChiamata(ctrl)) {
    const { caller, partner } = roles(auction);
    if (side.length === 1 && sides.length > 2) {
      if (side[0] === caller) return t("side.caller");
      if (side[0] === partner) return t("side.partner");
      return shortName(ctrl, side[0]);
    }
    if (caller !== null && side.includes(caller)) return t(side.length > 1 ? "side.caller_partner" : "side.caller");
    if (caller !== null) return t("side.others");
  }
  if (side.length === 1) return shortName(ctrl, side[0]);
  if (me !== null && side.includes(me)) return t("side.us");
  if (me !== null && side.length === 2 && sides.length === 2) return t("side.them");
  return t("side.team_of", { who: shortName(ctrl, namesake(v, side)) });
}

/** Who plays in side `i`, every name ("Giulia and you"). */
export function sidePlayers(ctrl, i, sides) {
  return capital(groupName(ctrl, sides[i]));
}

/** Side `i` as a label of the page: its short name, focusable, its players in an
 * accessible description and in a tooltip shown on hover and on keyboard focus. `where`
 * keeps the ids apart and the focus in place when the page is drawn again. */
export function sideTag(ctrl, i, sides, where, auction = ctrl.view && ctrl.view.auction) {
  return sideLabel(sideName(ctrl, i, sides, auction), sidePlayers(ctrl, i, sides), `side-${where}-${i}`, i);
}

/** The match's numbers by side (hands won, points), each after its side's short name
 * (`side.figure`: "Us 2, Them 1"); the match counts by the game's sides. */
export function matchBySide(ctrl, numbers) {
  const sides = ctrl.view.sides;
  return (numbers || []).map((n, i) => (sides[i] ? t("side.figure", { side: sideName(ctrl, i, sides), n }) : String(n))).join(", ");
}

/** Chiamata's match, which scores each seat (its sides change from hand to hand): each
 * seat's score after its short name ("You +2, Giulia -1, ..."); null in the other
 * games. */
export function matchScores(ctrl, m) {
  if (!m || !m.scores || !isChiamata(ctrl)) return null;
  const scores = m.scores.map((x, s) => t("side.figure", { side: shortName(ctrl, s), n: x > 0 ? `+${x}` : String(x) })).join(", ");
  return t("table.match_scores", { scores });
}

/** Chiamata's badge for seat `s` round the table: "caller", "partner", once known. */
export function roleBadge(ctrl, s) {
  const { caller, partner } = roles(ctrl.view && ctrl.view.auction);
  if (s === caller) return h("span", { class: "badge role", "data-role-badge": "caller", text: t("badge.caller") });
  if (s === partner) return h("span", { class: "badge role", "data-role-badge": "partner", text: t("badge.partner") });
  return null;
}
