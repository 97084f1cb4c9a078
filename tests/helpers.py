"""Small shared helpers for the test suite: hand-built deals, random play, views."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from briscola.ai import Bot, make_bot
from briscola.ai.search.config import SearchConfig
from briscola.engine import (
    GAMES,
    Action,
    Card,
    Deal,
    GameState,
    Play,
    Rules,
    View,
    parse_cards,
    seat_view,
    shuffled_deal,
    spectator_view,
)
from briscola.engine.chiamata import CALL, Chiamata
from briscola.engine.events import Event, TrickWon
from briscola.engine.game_record import Record
from briscola.engine.talk import TableTalk
from briscola.words.catalogue import LANGUAGES, catalogue

POINT_WORDS = sorted(
    {
        catalogue(lang).say("count.points", n=n).split(" ", 1)[1]
        for lang in LANGUAGES
        for n in (1, 2, 5, 11)
    },
    key=len,
    reverse=True,
)
"""The catalogues' own words for points, in the four languages, longest first."""
POINT_FIGURE = re.compile(rf"\b\d+ ({'|'.join(POINT_WORDS)})\b")
"""A figure of points in any of the four languages, in the catalogues' own words for
points (``count.points``: "17 points", "17 punti", "17 puntos", "17 bodova", "3 boda")."""


def cards(text: str) -> list[Card]:
    """``cards("Ab 3c")`` -> the two cards."""
    return parse_cards(text.split())


def card(text: str) -> Card:
    return Card.parse(text)


def make_deal(
    rules: Rules,
    hands: Iterable[str],
    trump: str | None,
    dealer: int,
    stock: str = "",
    removed: str = "",
) -> Deal:
    """A checked deal: the given hands (one string per seat), turned card, and the first
    cards of the stock (top first); every other card of the deck follows in deck order.
    ``removed`` names the cards that left the deck (the 3-player 2)."""
    hand_cards = [tuple(cards(h)) for h in hands]
    turned = None if trump is None else card(trump)
    top = cards(stock)
    gone = set(cards(removed)) if removed else set(next(iter(rules.removals)))
    used = {c for h in hand_cards for c in h} | set(top) | gone
    if turned is not None:
        used.add(turned)
    rest = [c for c in rules.deck if c not in used]
    deal = Deal(dealer, tuple(hand_cards), turned, tuple(top + rest))
    deal.check(rules)
    return deal


def new_state(
    key: str,
    hands: Iterable[str],
    trump: str | None,
    dealer: int,
    stock: str = "",
    options: Mapping[str, object] | None = None,
    removed: str = "",
) -> GameState:
    rules = Rules.make(key, options)
    return GameState(rules, make_deal(rules, hands, trump, dealer, stock, removed))


def play(state: GameState, *texts: str) -> list[Event]:
    """Play cards in turn: each text is the card of the seat to act."""
    events: list[Event] = []
    for t in texts:
        events.extend(state.apply(Play(state.turn, card(t))))
    return events


def random_state(rules: Rules, rng: random.Random, dealer: int | None = None) -> GameState:
    d = rng.randrange(rules.players) if dealer is None else dealer
    return GameState(rules, shuffled_deal(rules, d, rng))


def play_out(
    state: GameState,
    rng: random.Random,
    stop: Callable[[GameState], bool] | None = None,
    on_events: Callable[[list[Event]], None] | None = None,
) -> GameState:
    """Play random legal actions until the hand is over (or ``stop`` says so)."""
    while not state.over and not (stop is not None and stop(state)):
        events = state.apply(rng.choice(state.legal_actions()))
        if on_events is not None:
            on_events(events)
    return state


def play_hand(rules: Rules, bots: Sequence[Bot], seed: int) -> GameState:
    """A hand of ``rules`` dealt from ``seed``, played to its end by ``bots`` (one a seat),
    each action checked legal."""
    state = GameState(rules, shuffled_deal(rules, seed % rules.players, random.Random(seed)))
    for s, bot in enumerate(bots):
        hook = getattr(bot, "new_hand", None)
        if callable(hook):
            hook(seat_view(state, s))
    while not state.over:
        view = seat_view(state, state.turn)
        action = bots[state.turn].choose(view)
        assert action in view.legal
        state.apply(action)
    return state


def random_game(rules: Rules, seed: int) -> GameState:
    rng = random.Random(seed)
    return play_out(random_state(rules, rng), rng)


def all_views(state: GameState) -> list[View]:
    """Every seat's view, then the spectator's."""
    return [seat_view(state, s) for s in range(state.n)] + [spectator_view(state)]


def trick_winners(events: Iterable[object]) -> list[int]:
    return [e.winner for e in events if isinstance(e, TrickWon)]


def in_play(state: GameState) -> list[Card]:
    """Every card of the hand wherever it is now: hands, pile, the trick, taken tricks."""
    out = [c for h in state.hands for c in h]
    out.extend(state.pile)
    out.extend(state.trick)
    for t in state.tricks:
        out.extend(t.cards)
    return out


def find_finished(
    rules: Rules, predicate: Callable[[GameState], bool], tries: int = 5000, seed: int = 0
) -> GameState:
    """The first random game (seeds from ``seed``) whose end satisfies ``predicate``."""
    for s in range(seed, seed + tries):
        state = random_game(rules, s)
        if predicate(state):
            return state
    raise AssertionError("no random game satisfied the predicate")


def config_id(key: str, options: Mapping[str, object]) -> str:
    return key + "".join(f",{k}={v}" for k, v in options.items())


# --------------------------------------------------------------------------- shared data

TALK_CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("briscola-4", {"communication": "signals", "signal_audience": "partner"}),
    ("briscola-4", {"communication": "signals", "signal_audience": "table"}),
    (
        "briscola-4",
        {"communication": "signals", "signal_audience": "spotted", "spot_chance": 50},
    ),
    ("briscola-4", {"communication": "conversation"}),
    ("briscola-6", {"communication": "conversation"}),
    ("brisca", {"players": 4, "communication": "signals"}),
    ("brisca", {"players": 4, "communication": "conversation"}),
    ("briskula", {"players": 4, "teams": "pairs", "communication": "signals"}),
    ("briskula-double", {"players": 4, "teams": "pairs", "communication": "conversation"}),
    ("schembil", {"rais": "2-5"}),
]
CHIAMATA_CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("chiamata", {"leader": "caller", "multipliers": "high-bids", "throw_in": "yes"}),
]


def _configs() -> list[tuple[str, dict[str, object]]]:
    out: list[tuple[str, dict[str, object]]] = []
    for key, game in GAMES.items():
        counts: tuple[int | None, ...] = game.players if "players" in game.rules else (None,)
        for p in counts:
            base: dict[str, object] = {} if p is None else {"players": p}
            out.append((key, base))
            if "teams" in game.rules and p == 4:
                out.append((key, {**base, "teams": "pairs", "show_partner_hands": "yes"}))
    out += [
        ("briscola-2", {"trump_exchange": "seven-or-two", "exchange_timing": "on-turn"}),
        ("briscola-2", {"trump_exchange": "two", "exchange_timing": "after-win"}),
        ("briscola-2", {"follow_suit": "required"}),
        (
            "briscola-2",
            {"follow_suit": "required", "trump_exchange": "seven", "exchange_timing": "after-win"},
        ),
        (
            "briscola-2",
            {
                "turned_high": "reshuffle",
                "cut": "cut",
                "court_order": "south",
                "last_trick": "hidden",
                "direction": "left",
                "sixty_sixty": "last-trick",
            },
        ),
        (
            "briscola-3",
            {"trump_exchange": "seven", "exchange_timing": "on-turn", "removed_two": "random"},
        ),
        ("briscola-3", {"follow_suit": "required", "removed_two": "2s"}),
        (
            "briscola-4",
            {
                "trump_exchange": "seven-or-two",
                "exchange_timing": "after-win",
                "show_partner_hands": "yes",
            },
        ),
        ("briscola-4", {"follow_suit": "required", "trump_exchange": "two"}),
        ("briscola-6", {"trump_exchange": "seven", "exchange_timing": "after-win"}),
        ("briscola-6", {"show_partner_hands": "yes", "follow_suit": "required"}),
        ("scoperta", {"trump_exchange": "two", "exchange_timing": "on-turn"}),
        ("scoperta", {"follow_suit": "required"}),
        ("briscolone", {"follow_suit": "required"}),
        ("brisca", {"players": 4, "exchange_timing": "on-turn", "show_partner_hands": "yes"}),
        ("brisca", {"follow_suit": "required"}),
        ("briskula", {"players": 3, "follow_suit": "required", "turned_high": "reshuffle"}),
        ("briskula", {"players": 6, "court_order": "south"}),
        ("briskula-double", {"players": 3, "follow_suit": "required"}),
        *TALK_CONFIGS,
        *CHIAMATA_CONFIGS,
    ]
    return out


CONFIGS = _configs()


GARBAGE: list[Any] = [None, "x", "", -1, 10**6, 10**5000, True, 1.5, object(), [], {}, ("a",), "²"]
"""Values of every wrong kind, for the API's misuse tests."""


EXAMPLE_HANDS = [["5b", "5c", "Ad"], ["Ab", "Kb", "6s"]]


def example_record(moves: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    used = {c for h in EXAMPLE_HANDS for c in h} | {"4s"}
    stock = [r + s for s in "cdsb" for r in "A234567JQK" if r + s not in used]
    return {
        "game": "briscola-2",
        "rules": {},
        "deal": {
            "dealer": 1,
            "hands": [list(h) for h in EXAMPLE_HANDS],
            "trump": "4s",
            "stock": stock,
        },
        "moves": moves
        if moves is not None
        else [
            {"seat": 0, "play": "5b"},
            {"seat": 1, "play": "Ab"},
        ],
    }


def context(game: str, rule: str) -> dict[str, object]:
    """Other house rules under which ``rule`` applies to ``game`` (team rules need a game
    in teams)."""
    rules = GAMES[game].rules
    if rule in ("players", "teams") or "players" not in rules:
        return {"players": 4} if rule == "teams" else {}
    return {"players": 4, "teams": "pairs"} if "teams" in rules else {"players": 4}


# --------------------------------------------------------------------------- secrets

CARD = re.compile(r"[A2-9TJQK][cdsb]")


class Known:
    """What each seat (and a spectator, ``None``) may know of one hand, read from the state
    as it goes (not from the events): its own cards, the cards played, the turned card, the
    called card, partners' hands once shown, the hand a rais looked at, every hand in a
    game of open hands, a hand thrown in, the partner draw."""

    def __init__(self, state: GameState, public: set[Card]) -> None:
        self.state = state
        self.seats: list[int | None] = [*range(state.n), None]
        self.known: dict[int | None, set[Card]] = {s: set(public) for s in self.seats}
        if state.over and not state.moves:
            # Thrown in at the deal (chiamata, throw_in=yes): the pointless hand is shown.
            points = state.rules.points
            for hand in state.deal.hands:
                if sum(points[c] for c in hand) == 0:
                    self.add_public(hand)
        self.update()

    def add_public(self, cards: Iterator[Card] | tuple[Card, ...] | list[Card]) -> None:
        cards = list(cards)
        for s in self.seats:
            self.known[s].update(cards)

    def update(self) -> None:
        state = self.state
        rules = state.rules
        public = [c for t in state.tricks for c in t.cards] + list(state.trick)
        if state.deal.trump is not None:
            public.append(state.deal.trump)
        if state.turned is not None:
            public.append(state.turned)
        chiamata = state.addon(Chiamata)
        if isinstance(chiamata, Chiamata) and chiamata.called is not None:
            public.append(chiamata.called)
        if rules.game.open_hands:
            public.extend(c for h in state.hands for c in h)
            if state.stock_size:
                public.append(state.pile[-1])
        self.add_public(public)
        talk = state.addon(TableTalk)
        for s in range(state.n):
            mine = self.known[s]
            mine.update(state.hands[s])
            if state.shown:
                for p in rules.sides[rules.side_of[s]]:
                    mine.update(state.hands[p])
            if isinstance(talk, TableTalk) and s in talk.looked:
                mine.update(state.hands[talk.looked[s]])
        if isinstance(chiamata, Chiamata) and state.phase == CALL:
            # The caller calls the bid rank in any suit: the cards named tell nothing.
            rank = chiamata.call_rank()
            self.known[state.turn].update(c for c in rules.deck if c.rank is rank)

    def check(self, seat: int | None, obj: object, what: str) -> None:
        for text in strings(obj):
            if CARD.fullmatch(text):
                card = Card.parse(text)
                assert card in self.known[seat], f"seat {seat} is sent {card} in {what}"


def strings(obj: object) -> Iterator[str]:
    """Every text in a JSON value but the house rules (whose values, like ``2s``, are
    public words)."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, list):
        for v in obj:
            yield from strings(v)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if k != "rules":
                yield from strings(v)


# -- the computer players' first names, as a person expects them (issue 23) ----------------

ITALIAN = {"Giulia", "Marco", "Francesca", "Luca", "Chiara"} | {
    "Matteo", "Sofia", "Giuseppe", "Anna", "Paolo"
}  # fmt: skip
SPANISH = {"Lucía", "Javier", "Carmen", "Pablo", "Elena"} | {
    "Diego", "María", "Andrés", "Isabel", "Manuel"
}  # fmt: skip
CROATIAN = {"Ante", "Mare", "Jure", "Kate", "Frane"} | {
    "Ivana", "Duje", "Tonka", "Šime", "Marija"
}  # fmt: skip
"""The first names a person expects at a table of each language (written out here, not
read from ``words/names.py``, so that a test of them can fail)."""
LEVELS = ("random", "beginner", "intermediate", "strong", "champion")
"""The computer players' levels, as the server names them."""


def lost_whatever(state: GameState, seat: int, plays: list[Play]) -> bool:
    """Whether ``seat`` plays last to the trick and, whatever it plays, a seat it knows
    to be an opponent takes it."""
    view = seat_view(state, seat)
    if len(state.trick) != state.n * state.rules.game.rounds - 1:
        return False
    if view.auction is not None and view.auction.partner is None:
        return False  # (chiamata: the seat does not know its partner yet)
    for p in plays:
        after = state.copy()
        after.apply(p)
        if not after.tricks or after.trick:
            return False
        taker = after.tricks[-1].winner
        if view.auction is not None:
            team = {view.auction.caller, view.auction.partner}
            if (taker in team) == (seat in team):
                return False
        elif state.rules.side_of[taker] == state.rules.side_of[seat]:
            return False
    return True


class AceThrow(NamedTuple):
    """A position where the seat to play may throw its ace onto a trick it cannot win."""

    seed: int
    """The seed that dealt the hand (as :func:`ace_throws` deals it)."""
    moves: tuple[Action, ...]
    """The moves before it, from the deal."""
    state: GameState
    seat: int
    ace: Play
    early: bool
    """Whether it comes in the first third of the hand's tricks."""


def ace_throws(rules: Rules, tries: int = 400) -> Iterator[AceThrow]:
    """The positions, in hands dealt by the seeds ``0`` to ``tries - 1`` (``random.Random
    (seed)`` draws the dealer, then the shuffle) and played by intermediate players
    (``make_bot("intermediate", seed=seat)``), where the seat to play is last to a trick
    an opponent takes whatever it plays (:func:`lost_whatever`) and holds an ace and a
    card worth nothing."""
    tricks = len(rules.deck) // (rules.players * rules.game.rounds)
    for seed in range(tries):
        rng = random.Random(seed)
        state = GameState(rules, shuffled_deal(rules, rng.randrange(rules.players), rng))
        moves: list[Action] = []
        bots = [make_bot("intermediate", seed=s) for s in range(rules.players)]
        while not state.over:
            seat = state.turn
            view = seat_view(state, seat)
            plays = [a for a in view.legal if isinstance(a, Play)]
            aces = [p for p in plays if rules.points[p.card] == 11]
            blank = any(rules.points[p.card] == 0 for p in plays)
            if aces and blank and lost_whatever(state, seat, plays):
                early = len(state.tricks) < tricks / 3
                yield AceThrow(seed, tuple(moves), state.copy(), seat, aces[0], early)
            move = bots[seat].choose(view)
            moves.append(move)
            state.apply(move)


QUICK_SEARCH = SearchConfig(
    worlds=32, rollouts=1, table_worlds=24, table_rollouts=1, engine_worlds=8
)
"""A search cheap enough to analyse many hands in the tests."""


def played_hand(rules: Rules, seed: int, moves: list[Action] | None = None) -> Record:
    """A hand dealt by ``seed`` and played to its end by intermediate players, after
    ``moves`` (played first, as given)."""
    rng = random.Random(seed)
    deal = shuffled_deal(rules, rng.randrange(rules.players), rng)
    state = GameState(rules, deal)
    made = list(moves or [])
    for move in made:
        state.apply(move)
    bots = [make_bot("intermediate", seed=seed * 10 + s) for s in range(rules.players)]
    while not state.over:
        seat = state.turn
        move = bots[seat].choose(seat_view(state, seat))
        made.append(move)
        state.apply(move)
    return Record(rules, deal, tuple(made))


def swap_cards(deal: Deal, a: object, b: object) -> Deal:
    """``deal`` with cards ``a`` and ``b`` in each other's places."""

    def one(c: object) -> object:
        return b if c == a else a if c == b else c

    return dataclasses.replace(
        deal,
        hands=tuple(tuple(one(c) for c in h) for h in deal.hands),  # type: ignore[misc]
        stock=tuple(one(c) for c in deal.stock),  # type: ignore[misc]
    )
