// The order a hand is shown in: by suit, then by rank, trumps last (or, by the person's
// choice, by rank first). Only what the view says is used: the deck, the court order
// (a house rule, public) and the trump suit once it is known (chiamata's only after the
// call, briscolone has none). The server's order of the hand is kept for the hands of
// games dealt three cards, where the card drawn stays where it came, at the right.

/** Ranks from the strongest to the weakest, as the engine's order of strength
 * (engine/rules.py `_order_and_points`), the order a player reads a suit in: for the
 * 40-card decks (Italian, Spanish, and French faces on them) ace, three, king, knight
 * (Q: cavallo, caballo, queen), knave (J: fante, sota, jack), then 7 6 5 4 2; for
 * Briškula's 32 French cards ace, 10, king, queen, jack, 9 8 7. Under the house rule
 * `court_order: south` the knave outranks the knight (J before Q). */
export function rankOrder(deckName, south = false) {
  const courts = south ? ["J", "Q"] : ["Q", "J"];
  if (deckName === "french-32") return ["A", "T", "K", ...courts, "9", "8", "7"];
  return ["A", "3", "K", ...courts, "7", "6", "5", "4", "2"];
}

/** Suits in the engine's order (coppe, denari, spade, bastoni); with French faces red and
 * black alternate (hearts, spades, diamonds, clubs), so that two suits of one colour never
 * lie side by side. */
export function suitOrder(faces) {
  return faces === "french" ? ["c", "s", "d", "b"] : ["c", "d", "s", "b"];
}

/** Whether a hand is shown sorted: a hand of 4 cards or more, or any hand of a game dealt
 * 4 or more (`dealt`: its hand size, when known), so that chiamata's hand keeps its order
 * to its last cards. A hand of a game dealt three keeps the server's order. */
export function sorts(cards, dealt) {
  return cards.length >= 4 || (Number(dealt) || 0) >= 4;
}

/** `cards` (the engine's notation, "Ab") in the order shown. `by` "suit" (the default):
 * suit by suit (`suitOrder`), the trump suit last, each suit from its strongest card to its
 * weakest; "rank": the strongest rank first (every ace, then every three...), each rank's
 * cards by suit, the trump last. `deck`: the deck's name ("italian-40", "french-32");
 * `faces`: the style of the cards drawn; `south`: the court order south; `trump`: the
 * trump suit's letter, or null while none is known. The cards are not changed. */
export function sortHand(cards, { by = "suit", deck = null, faces = null, south = false, trump = null } = {}) {
  const ranks = rankOrder(deck, south);
  const suits = suitOrder(faces).filter((s) => s !== trump);
  if (trump) suits.push(trump);
  const rank = (c) => {
    const i = ranks.indexOf(c[0]);
    return i < 0 ? ranks.length : i;
  };
  const suit = (c) => {
    const i = suits.indexOf(c[1]);
    return i < 0 ? suits.length : i;
  };
  const keyed = cards.map((c, i) => [by === "rank" ? [rank(c), suit(c)] : [suit(c), rank(c)], i, c]);
  keyed.sort((a, b) => a[0][0] - b[0][0] || a[0][1] - b[0][1] || a[1] - b[1]);
  return keyed.map((k) => k[2]);
}
