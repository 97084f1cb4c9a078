// Where the seats sit as one person sees them, as words/seating.py places them: you at
// the bottom, the others round the table in the order of play, which goes to the right
// (the next seat is on your right) or, under the `direction` rule, to the left. The
// setup and the waiting room name the seats by these places ("On your right",
// "Opposite you"), the partners marked.

const SLOTS = {
  2: ["top"],
  3: ["right", "left"],
  4: ["right", "top", "left"],
  5: ["right", "top-right", "top-left", "left"],
  6: ["right", "top-right", "top", "top-left", "left"],
};
const MIRROR = { right: "left", left: "right", "top-right": "top-left", "top-left": "top-right", top: "top" };

/** The place of each of `n` seats seen from seat `me` ("you", "right", "top", ...), play
 * going `direction` ("right" or "left"); a key of the words under `setup.place.`. */
export function placesFrom(n, me, direction) {
  const around = (SLOTS[n] || []).map((s) => (direction === "left" ? MIRROR[s] : s));
  const slots = new Array(n).fill("you");
  around.forEach((slot, k) => {
    slots[(me + k + 1) % n] = slot;
  });
  return slots;
}

/** Whether a table under `rules` (every house rule, as a table has them) of `n` seats is
 * played in two sides of alternate seats, and its partners are known as they sit (not
 * drawn by cards): the games with partners' rules, at 4 or 6, in pairs where the game
 * also plays alone. */
export function seatedPartners(rules, n) {
  if (!("partners" in rules) || (n !== 4 && n !== 6)) return false;
  if ("teams" in rules && rules.teams !== "pairs") return false;
  return rules.partners !== "drawn";
}

/** The seats on `me`'s side, alternate seats round the table (`me` left out). */
export function partnersOf(n, me) {
  const out = [];
  for (let s = (me + 2) % n; s !== me; s = (s + 2) % n) out.push(s);
  return out;
}
