"""Partner communication (rules.md §4): signals, the Roman conversation, Schembil's rais.

- ``signals``: on your turn, before playing, you may give any signal that is true of
  your hand (each kind once a trick). Who sees it is a house rule: the partner only,
  the whole table, or the partner with each opponent spotting it by chance, drawn
  from the hand's own seeded stream and written into the record.
- ``conversation``: from the second trick on, the player about to lead may, before
  leading, ask a partner each question once and give one order. Answers are read
  from the partner's hand; the whole table hears questions, answers and orders.
- Schembil (rules.md §4.3): only each team's rais asks and orders, whoever leads. From
  the second trick on, before each lead, the table is in the :data:`TALK` phase: the
  rais of the leading side, then the other rais, each in turn may ask its partners each
  question once and give one order, and ends its talk with :class:`EndTalk`; then the
  leader leads. Once the stock is exhausted a rais may look at one partner's hand (in
  its talk or on its turn), which it then sees to the end.

Records written before the rais talked out of their own lead have no ``EndTalk``: see
:func:`briscola.engine.record.talk_ended`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from briscola.engine.actions import (
    ORDERS,
    QUESTIONS,
    SIGNALS,
    Action,
    Ask,
    EndTalk,
    Look,
    Order,
    Signal,
)
from briscola.engine.addons import (
    Addon,
    AddonKind,
    AddonMaker,
    TrickEngine,
    part_of,
    register_addon,
)
from briscola.engine.cards import Card, Rank
from briscola.engine.errors import IllegalActionError, MalformedError, shown
from briscola.engine.events import Audience, Event, HandShown, Talk, seen_by
from briscola.engine.house_rules import RuleValue
from briscola.engine.phases import Phase
from briscola.engine.rules import Rules
from briscola.engine.view_types import View

TALK = Phase.TALK
"""Phase (Schembil): the rais talk before the lead, the leading side's first."""
VESTITE = (Rank.KING, Rank.QUEEN, Rank.JACK)
REQUESTS = ("play-carico", "play-liscio")


def signal_is_true(state: TrickEngine, seat: int, signal: str) -> bool:
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


def answer(state: TrickEngine, seat: int, question: str) -> str:
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


@dataclass(frozen=True)
class TalkPart:
    """Partner talk's part of a position."""

    log: tuple[Talk, ...] = ()
    """Everything said at the table so far, in order, with each message's audience."""
    used: frozenset[tuple[int, int, str]] = frozenset()
    """The talk each seat has used, as (tricks taken then, seat, what): a signal's name,
    ``ask QUESTION PARTNER`` or ``order`` (each once a trick)."""
    looked: tuple[tuple[int, int], ...] = ()
    """Schembil: (rais, partner) for each rais that has looked at a partner's hand."""
    waiting: tuple[int, ...] = ()
    """Schembil, in the talk before a lead: the rais still to talk, the one to act first."""
    leader: int = -1
    """Schembil, in the talk before a lead: the seat that leads once it is over."""
    before_leads: bool = True
    """Schembil: whether the rais talk before each lead from here on (a search that plays
    cards only sets it off)."""
    draws: int = 0
    """How many numbers the hand's seeded stream has given for spotted signals."""


def rais_to_talk(rules: Rules, rais: tuple[int, ...], leader: int, turn: int | None) -> list[int]:
    """Schembil: the rais to talk before the lead of ``leader``, the leading side's rais
    first, from rais ``turn`` on (``None``: from the first)."""
    side_of = rules.side_of
    waiting = sorted(rais, key=lambda s: side_of[s] != side_of[leader])
    return waiting[waiting.index(turn) :] if turn in waiting else waiting


class TableTalk(Addon):
    actions = (Signal, Ask, Order, Look, EndTalk)
    phases = (TALK,)

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
        self.waiting: list[int] = []
        """Schembil, in the talk before a lead: the rais still to talk, in order."""
        self.leader = -1
        """The seat that leads once the talk is over."""
        self.windows = mode == "schembil"
        """Whether the rais talk before each lead (off for states that search card play
        only)."""
        self.draws = 0
        """How many numbers :attr:`rng` has given."""

    def copy(self) -> TableTalk:
        new = TableTalk(self.mode, self.audience, self.chance, self.rais)
        new.rng.setstate(self.rng.getstate())
        new.log = list(self.log)
        new.used = set(self.used)
        new.looked = dict(self.looked)
        new.waiting = list(self.waiting)
        new.leader = self.leader
        new.windows = self.windows
        new.draws = self.draws
        return new

    def position(self, state: TrickEngine) -> TalkPart:
        return TalkPart(
            log=tuple(self.log),
            used=frozenset(self.used),
            looked=tuple(sorted(self.looked.items())),
            waiting=tuple(self.waiting),
            leader=self.leader,
            before_leads=self.windows,
            draws=self.draws,
        )

    def part_from_view(self, view: View, hands: Sequence[Sequence[Card]], rules: Rules) -> TalkPart:
        """The talk the view saw, the rais's looks, and in the talk before a lead the rais
        still to talk; which kinds of talk a seat used this trick and the stream of spotted
        signals are left at their start."""
        waiting: tuple[int, ...] = ()
        leader = -1
        if view.phase == TALK and view.to_act is not None:
            leader = view.trick_order[0]
            waiting = tuple(rais_to_talk(rules, self.rais, leader, view.to_act))
        looked = {t.seat: t.to for t in view.talk if t.kind == "look" and t.to is not None}
        return TalkPart(
            log=tuple(view.talk),
            looked=tuple(sorted(looked.items())),
            waiting=waiting,
            leader=leader,
            before_leads=False,
        )

    def restore(self, state: TrickEngine, part: object) -> None:
        p = part_of(self, part, TalkPart)
        if state.phase == TALK and (not p.waiting or p.waiting[0] != state.turn):
            raise MalformedError(
                f"TalkPart: in the rais's talk the seat to act ({state.turn}) must be the "
                f"first of the rais still to talk, not of {shown(p.waiting)}"
            )
        if not all(s in self.rais for s in p.waiting):
            raise MalformedError(f"TalkPart: {shown(p.waiting)} are not all rais: {self.rais}")
        self.log = list(p.log)
        self.used = set(p.used)
        self.looked = dict(p.looked)
        self.waiting = list(p.waiting)
        self.leader = p.leader
        self.windows = p.before_leads
        self.rng = random.Random(state.deal.seed or 0)
        for _ in range(p.draws):
            self.rng.random()
        self.draws = p.draws

    def start(self, state: TrickEngine) -> list[Event]:
        self.rng = random.Random(state.deal.seed or 0)
        return []

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def partners(state: TrickEngine, seat: int) -> list[int]:
        return [s for s in state.rules.sides[state.rules.side_of[seat]] if s != seat]

    def may_converse(self, state: TrickEngine, seat: int) -> bool:
        """The conversation's timing: not in the first trick; the player about to lead,
        before leading; in Schembil, the rais whose turn it is in the talk before the lead."""
        if self.mode == "schembil":
            return state.phase == TALK and seat == state.turn
        if self.mode == "signals" or state.trick or not state.tricks:
            return False
        return state.order[0] == seat

    def may_look(self, state: TrickEngine, seat: int) -> bool:
        return (
            self.mode == "schembil"
            and seat in self.rais
            and not state.pile
            and seat not in self.looked
        )

    def draw_spotted(self, state: TrickEngine, seat: int, rng: random.Random) -> tuple[int, ...]:
        mine = set(state.rules.sides[state.rules.side_of[seat]])
        opponents = [s for s in state.rules.rounds_from[seat] if s not in mine]
        return tuple(s for s in opponents if rng.random() * 100 < self.chance)

    # ------------------------------------------------------------------ the hooks

    def before_lead(self, state: TrickEngine, events: list[Event]) -> None:
        """Schembil: open the rais's talk before this lead, the leading side's rais first."""
        if self.windows:
            self.open_talk(state)

    def open_talk(self, state: TrickEngine, turn: int | None = None) -> None:
        """Put ``state`` in the rais's talk before the lead of ``state.order[0]``, at the
        turn of rais ``turn`` (by default the first: the rais of the leading side)."""
        self.leader = state.order[0]
        self.waiting = rais_to_talk(state.rules, self.rais, self.leader, turn)
        state.set_turn(self.waiting[0], TALK)

    def legal(self, state: TrickEngine) -> list[Action]:
        seat = state.turn
        t = len(state.tricks)
        out: list[Action] = []
        if state.phase == TALK:
            out.append(EndTalk(seat))
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
        if self.may_look(state, seat):
            out.extend(Look(seat, p) for p in self.partners(state, seat))
        return out

    def check(self, state: TrickEngine, action: Action) -> None:
        seat = action.seat
        t = len(state.tricks)
        if isinstance(action, EndTalk):
            if state.phase != TALK:
                raise IllegalActionError(
                    "there is no talk to end: in Schembil the rais talk before each lead, "
                    "from the second trick on"
                )
            return
        if state.phase == TALK and not isinstance(action, Ask | Order | Look):
            raise IllegalActionError(
                f"the rais talk before the lead: seat {seat} may ask or order its partners, "
                'or end its talk ({"talk": "done"}), and then the lead comes'
            )
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
        if self.mode == "schembil" and seat not in self.rais:
            raise IllegalActionError(
                f"in Schembil only the rais ask and order; seat {seat} is not a rais"
            )
        if self.mode == "schembil" and state.phase != TALK:
            raise IllegalActionError(
                "in Schembil the rais talk before the lead, the leading side's rais first: "
                "not once the trick is led"
            )
        if self.mode != "schembil" and (state.trick or state.order[0] != seat):
            raise IllegalActionError(
                "only the player about to lead may talk, before leading the trick"
            )
        if action.to not in self.partners(state, seat):
            raise IllegalActionError(f"seat {shown(action.to)} is not a partner of seat {seat}")
        if isinstance(action, Ask) and (t, seat, f"ask {action.question} {action.to}") in self.used:
            raise IllegalActionError(f"seat {seat} already asked that question this trick")
        if isinstance(action, Order) and (t, seat, "order") in self.used:
            raise IllegalActionError(f"seat {seat} already gave an order this trick")

    def logged(self, state: TrickEngine, action: Action) -> Action:
        """A signal under ``signal_audience=spotted`` with the opponents who spotted it,
        drawn from the hand's stream (a record's own list, which :meth:`check` found equal
        to the draw, is kept; the stream moves on the same)."""
        if isinstance(action, Signal) and self.audience == "spotted":
            spotted = self.draw_spotted(state, action.seat, self.rng)
            mine = state.rules.sides[state.rules.side_of[action.seat]]
            self.draws += state.n - len(mine)  # one number for each opponent
            return Signal(action.seat, action.signal, spotted)
        return action

    def apply(self, state: TrickEngine, action: Action) -> list[Event]:
        seat = action.seat
        t = len(state.tricks)
        talk: Talk
        if isinstance(action, EndTalk):
            self.waiting.pop(0)
            done = Talk(seat, "done", "talk", None, None, None)
            self.log.append(done)
            if self.waiting:
                state.set_turn(self.waiting[0], TALK)
            else:
                state.set_turn(self.leader, Phase.PLAY)
            return [done]
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

    def sees(self, state: TrickEngine, seat: int) -> set[int]:
        """Other seats whose whole hands ``seat`` sees through this add-on."""
        return {self.looked[seat]} if seat in self.looked else set()

    def view(self, state: TrickEngine, seat: int | None) -> dict[str, Any]:
        """The talk ``seat`` saw, as :func:`~briscola.engine.events.visible` shows it: of a
        signal spotted by chance, whether this seat spotted it, not who else did."""
        return {"talk": tuple(t for t in seen_by(self.log, seat) if isinstance(t, Talk))}

    def unseen_moves(self, state: TrickEngine, seat: int | None) -> int:
        """The signals for others than ``seat``: each talk move logs one message."""
        return len(self.log) - len(seen_by(self.log, seat))


def _talk(values: Mapping[str, RuleValue]) -> AddonMaker | None:
    mode = str(values["communication"])
    if mode == "none":
        return None
    audience, chance = str(values["signal_audience"]), int(values["spot_chance"])
    return partial(TableTalk, mode, audience, chance, ())


def _rais(values: Mapping[str, RuleValue]) -> AddonMaker | None:
    rais = tuple(int(s) for s in str(values["rais"]).split("-"))
    return partial(TableTalk, "schembil", "table", 0, rais)


PARTNER_TALK = register_addon(
    AddonKind("talk", "partner talk", ("communication", "signal_audience", "spot_chance"), _talk)
)
RAIS = register_addon(AddonKind("rais", "Schembil's rais", ("rais",), _rais))
