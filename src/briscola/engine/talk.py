"""Partner communication (RULES.md §4): signals, the Roman conversation, Schembil's rais.

- ``signals``: on your turn, before playing, you may give any signal that is true of
  your hand (each kind once a trick). Who sees it is a house rule: the partner only,
  the whole table, or the partner with each opponent spotting it by chance, drawn
  from the hand's own seeded stream and written into the record.
- ``conversation``: from the second trick on, the player about to lead may, before
  leading, ask a partner each question once and give one order. Answers are read
  from the partner's hand; the whole table hears questions, answers and orders.
- Schembil: only each team's rais asks and orders (when about to lead), and once the
  stock is exhausted may look at one partner's hand, which it then sees to the end.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from briscola.engine.actions import ORDERS, QUESTIONS, SIGNALS, Action, Ask, Look, Order, Signal
from briscola.engine.addons import Addon
from briscola.engine.cards import Card, Rank
from briscola.engine.errors import IllegalActionError, shown
from briscola.engine.events import Audience, Event, HandShown, Talk, visible

if TYPE_CHECKING:
    from briscola.engine.state import GameState

VESTITE = (Rank.KING, Rank.QUEEN, Rank.JACK)
REQUESTS = ("play-carico", "play-liscio")


def signal_is_true(state: GameState, seat: int, signal: str) -> bool:
    """Whether ``signal`` states something true of ``seat``'s hand (requests always are)."""
    trump = state.trump
    hand = state.hands[seat]
    rules = state.rules
    if signal in rules.signal_ranks:
        return trump is not None and Card(rules.signal_ranks[signal], trump) in hand
    if signal == "low-trumps":
        return any(c.suit is trump and c.rank in rules.low_trumps for c in hand)
    if signal == "no-trumps":
        return all(c.suit is not trump for c in hand)
    if signal == "carico":
        return any(c.suit is not trump and state.rules.points[c] >= 10 for c in hand)
    return signal in REQUESTS


def answer(state: GameState, seat: int, question: str) -> str:
    """The true answer of ``seat`` to a conversation question, read from its hand."""
    trump = state.trump
    points = state.rules.points
    hand = state.hands[seat]
    plain = [c for c in hand if c.suit is not trump]
    if question == "lisci":
        return "yes" if any(points[c] == 0 for c in plain) else "no"
    if question == "carichi":
        return "yes" if any(points[c] >= 10 for c in plain) else "no"
    if question == "trumps":
        kinds = [
            name
            for name, ranks in (("briscoline", state.rules.briscoline), ("vestite", VESTITE))
            if any(c.suit is trump and c.rank in ranks for c in hand)
        ]
        return " ".join(kinds) or "none"
    # "take": a plain card that is the highest still unplayed in its suit
    played = {c for t in state.tricks for c in t.cards} | set(state.trick)
    strength = state.rules.strength
    for card in plain:
        higher = [
            c
            for c in state.rules.deck
            if c.suit is card.suit and strength[c] > strength[card] and c not in played
        ]
        if not higher:
            return "yes"
    return "no"


class TableTalk(Addon):
    actions = (Signal, Ask, Order, Look)

    def __init__(self, mode: str, audience: str, chance: int, rais: tuple[int, ...]) -> None:
        self.mode = mode
        """``signals``, ``conversation`` or ``schembil``."""
        self.audience = audience
        self.chance = chance
        self.rais = rais
        self.rng = random.Random(0)
        self.log: list[Talk] = []
        self.used: set[tuple[int, int, str]] = set()
        self.looked: dict[int, int] = {}

    def copy(self) -> TableTalk:
        new = TableTalk(self.mode, self.audience, self.chance, self.rais)
        new.rng.setstate(self.rng.getstate())
        new.log = list(self.log)
        new.used = set(self.used)
        new.looked = dict(self.looked)
        return new

    def start(self, state: GameState) -> list[Event]:
        self.rng = random.Random(state.deal.seed or 0)
        return []

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def partners(state: GameState, seat: int) -> list[int]:
        return [s for s in state.rules.sides[state.rules.side_of[seat]] if s != seat]

    def may_converse(self, state: GameState, seat: int) -> bool:
        """The conversation's timing: not in the first trick; the player about to lead,
        before leading (in Schembil, only a rais)."""
        if self.mode == "signals" or state.trick or not state.tricks:
            return False
        if state.order[0] != seat:
            return False
        return self.mode == "conversation" or seat in self.rais

    def draw_spotted(self, state: GameState, seat: int, rng: random.Random) -> tuple[int, ...]:
        mine = set(state.rules.sides[state.rules.side_of[seat]])
        opponents = [s for s in state.rules.rounds_from[seat] if s not in mine]
        return tuple(s for s in opponents if rng.random() * 100 < self.chance)

    # ------------------------------------------------------------------ the hooks

    def legal(self, state: GameState) -> list[Action]:
        seat = state.turn
        t = len(state.tricks)
        out: list[Action] = []
        if self.mode == "signals":
            for name in SIGNALS:
                if (t, seat, name) not in self.used and signal_is_true(state, seat, name):
                    out.append(Signal(seat, name))
            return out
        if self.may_converse(state, seat):
            for p in self.partners(state, seat):
                out.extend(
                    Ask(seat, q, p) for q in QUESTIONS if (t, seat, f"ask {q} {p}") not in self.used
                )
            if (t, seat, "order") not in self.used:
                out.extend(Order(seat, o, p) for p in self.partners(state, seat) for o in ORDERS)
        if (
            self.mode == "schembil"
            and seat in self.rais
            and not state.pile
            and seat not in self.looked
        ):
            out.extend(Look(seat, p) for p in self.partners(state, seat))
        return out

    def check(self, state: GameState, action: Action) -> None:
        seat = action.seat
        t = len(state.tricks)
        if isinstance(action, Signal):
            if self.mode != "signals":
                raise IllegalActionError("this table does not play with signals")
            if (t, seat, action.signal) in self.used:
                raise IllegalActionError(
                    f"seat {seat} already signalled {action.signal} this trick"
                )
            if not signal_is_true(state, seat, action.signal):
                raise IllegalActionError(
                    f"seat {seat} cannot signal {action.signal}: a signal must be true of "
                    "the hand, and this hand does not fit it"
                )
            if action.spotted is not None and self.audience != "spotted":
                raise IllegalActionError(
                    "at this table signals are not spotted by chance: drop the spotted seats"
                )
            if action.spotted is not None:
                rng = random.Random(0)
                rng.setstate(self.rng.getstate())
                expected = self.draw_spotted(state, seat, rng)
                if tuple(action.spotted) != expected:
                    raise IllegalActionError(
                        f"the record says seats [{', '.join(map(shown, action.spotted))}] "
                        f"spotted the signal, but the hand's chances give {list(expected)}"
                    )
            return
        if isinstance(action, Look):
            if self.mode != "schembil":
                raise IllegalActionError("only a rais in Schembil may look at a partner's hand")
            if seat not in self.rais:
                raise IllegalActionError(f"seat {seat} is not a rais; the rais are {self.rais}")
            if state.pile:
                raise IllegalActionError("the rais may look only once the stock is exhausted")
            if seat in self.looked:
                raise IllegalActionError(f"seat {seat} has already looked at a partner's hand")
            if action.at not in self.partners(state, seat):
                raise IllegalActionError(f"seat {shown(action.at)} is not a partner of seat {seat}")
            return
        assert isinstance(action, Ask | Order)
        if self.mode == "signals":
            raise IllegalActionError("this table plays with signals, not conversation")
        if not state.tricks:
            raise IllegalActionError("no talking during the first trick")
        if state.trick or state.order[0] != seat:
            raise IllegalActionError(
                "only the player about to lead may talk, before leading the trick"
            )
        if self.mode == "schembil" and seat not in self.rais:
            raise IllegalActionError(
                f"in Schembil only the rais ask and order; seat {seat} is not a rais"
            )
        if action.to not in self.partners(state, seat):
            raise IllegalActionError(f"seat {shown(action.to)} is not a partner of seat {seat}")
        if isinstance(action, Ask) and (t, seat, f"ask {action.question} {action.to}") in self.used:
            raise IllegalActionError(f"seat {seat} already asked that question this trick")
        if isinstance(action, Order) and (t, seat, "order") in self.used:
            raise IllegalActionError(f"seat {seat} already gave an order this trick")

    def logged(self, state: GameState, action: Action) -> Action:
        """A signal under ``signal_audience=spotted`` with the opponents who spotted it,
        drawn from the hand's stream (a record's own list, which :meth:`check` found equal
        to the draw, is kept; the stream moves on the same)."""
        if isinstance(action, Signal) and self.audience == "spotted":
            spotted = self.draw_spotted(state, action.seat, self.rng)
            return Signal(action.seat, action.signal, spotted)
        return action

    def apply(self, state: GameState, action: Action) -> list[Event]:
        seat = action.seat
        t = len(state.tricks)
        talk: Talk
        if isinstance(action, Signal):
            self.used.add((t, seat, action.signal))
            partners = frozenset(self.partners(state, seat)) | {seat}
            caught: frozenset[int] | None = None
            if self.audience == "table":
                audience: Audience = None
            elif self.audience == "spotted":
                assert action.spotted is not None  # drawn by logged()
                caught = frozenset(action.spotted)
                audience = partners | caught
            else:
                audience = partners
            talk = Talk(seat, "signal", action.signal, None, None, audience, caught)
        elif isinstance(action, Ask):
            self.used.add((t, seat, f"ask {action.question} {action.to}"))
            reply = answer(state, action.to, action.question)
            talk = Talk(seat, "ask", action.question, action.to, reply, None)
        elif isinstance(action, Order):
            self.used.add((t, seat, "order"))
            talk = Talk(seat, "order", action.order, action.to, None, None)
        else:
            assert isinstance(action, Look)
            self.looked[seat] = action.at
            self.log.append(Talk(seat, "look", "hand", action.at, None, None))
            hand = HandShown(action.at, tuple(state.hands[action.at]), frozenset({seat}))
            return [self.log[-1], hand]
        self.log.append(talk)
        return [talk]

    def sees(self, state: GameState, seat: int) -> set[int]:
        """Other seats whose whole hands ``seat`` sees through this add-on."""
        return {self.looked[seat]} if seat in self.looked else set()

    def view(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """The talk ``seat`` saw, as :func:`~briscola.engine.events.visible` shows it: of a
        signal spotted by chance, whether this seat spotted it, not who else did."""
        seen = (visible(t, seat) for t in self.log)
        return {"talk": tuple(t for t in seen if isinstance(t, Talk))}
