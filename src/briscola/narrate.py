"""Words for what happens at the table: tricks, talk, the auction, results."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from briscola.engine.actions import Action, Ask, Bid, Exchange, Look, Order, Pass, Play, Signal
from briscola.engine.events import (
    AuctionEnded,
    BidMade,
    CardCalled,
    CardDrawn,
    HandShown,
    PartnerRevealed,
    Talk,
    ThrownIn,
    TrickWon,
    TrumpExchanged,
)
from briscola.engine.state import GameState
from briscola.engine.views import View


def describe_trick(number: int, won: TrickWon) -> str:
    plays = ", ".join(f"{s}:{c}" for s, c in zip(won.seats, won.cards, strict=True))
    return f"trick {number:2d}  {plays}  -> seat {won.winner} takes {won.points}"


def narrate(state: GameState, events: Iterable[object]) -> Iterator[str]:
    """Lines telling what happened, for a reader who sees everything (records, demos)."""
    events = list(events)
    tricks = len(state.tricks) - sum(isinstance(e, TrickWon) for e in events)
    pad = " " * 10
    for e in events:
        if isinstance(e, TrickWon):
            tricks += 1
            yield describe_trick(tricks, e)
        elif isinstance(e, TrumpExchanged):
            yield f"{pad}seat {e.seat} gives {e.given} for the turned {e.taken}"
        elif (
            isinstance(e, CardDrawn)
            and e.audience is None
            and e.card is not None
            and state.rules.game.turned_trump
        ):
            if not state.rules.game.open_hands:
                yield f"{pad}seat {e.seat} draws the turned card {e.card}"
        elif isinstance(e, HandShown) and e.audience is not None and len(e.audience) > 1:
            continue
        elif isinstance(e, HandShown) and state.shown and e.seat == 0:
            yield f"{pad}the stock is out: partners show their hands"
        elif isinstance(e, Talk):
            yield f"{pad}{describe_talk(e)}"
        elif isinstance(e, BidMade):
            yield f"{pad}seat {e.seat} " + ("passes" if e.bid == "pass" else f"bids {e.bid}")
        elif isinstance(e, AuctionEnded):
            if e.caller is None:
                yield f"{pad}all pass: the hand is dealt again"
            else:
                yield f"{pad}seat {e.caller} wins the auction with {e.bid}"
        elif isinstance(e, CardCalled):
            yield f"{pad}seat {e.seat} calls {e.card}: trump is {e.card.suit.italian}"
        elif isinstance(e, PartnerRevealed):
            who = "plays alone" if e.partner == e.caller else f"has seat {e.partner} as partner"
            yield f"{pad}the called card is out: seat {e.caller} {who}"
        elif isinstance(e, ThrownIn):
            cards = " ".join(str(c) for c in e.cards)
            yield f"{pad}seat {e.seat} holds no points ({cards}): the deal is thrown in"


def describe_talk(t: Talk) -> str:
    if t.kind == "signal":
        # Who else saw a signal is nobody's to know: say only whether the table saw it.
        seen = " (seen by everyone)" if t.audience is None else ""
        return f"seat {t.seat} signals {t.what}{seen}"
    if t.kind == "ask":
        return f"seat {t.seat} asks seat {t.to} about {t.what}: {t.answer}"
    if t.kind == "order":
        return f"seat {t.seat} tells seat {t.to}: {t.what}"
    return f"seat {t.seat} looks at the hand of seat {t.to}"


def describe_points(state: GameState) -> str:
    return " v ".join(
        f"{'+'.join(str(s) for s in side)}: {p}"
        for side, p in zip(state.sides, state.points, strict=True)
    )


def describe_action(action: Action) -> str:
    """A short label for an action, as a menu shows it."""
    if isinstance(action, Play):
        return f"play {action.card}"
    if isinstance(action, Exchange):
        return f"exchange {action.card} for the turned card"
    if isinstance(action, Signal):
        return f"signal {action.signal}"
    if isinstance(action, Ask):
        return f"ask seat {action.to}: {action.question}?"
    if isinstance(action, Order):
        return f"tell seat {action.to}: {action.order}"
    if isinstance(action, Look):
        return f"look at seat {action.at}'s hand"
    if isinstance(action, Bid):
        return f"bid {action}"
    if isinstance(action, Pass):
        return "pass"
    return f"call {action.card}"


def describe_view(view: View) -> list[str]:
    """The table as the seat sees it: trump, stock, points, the trick, the hand."""
    lines = []
    if view.trump is not None:
        turned = f"turned {view.turned}, " if view.turned is not None else ""
        lines.append(f"trump {view.trump.italian} ({turned}{view.stock_size} in the stock)")
    elif view.auction is not None and view.auction.called is None:
        lines.append("auction: " + (", ".join(f"{s}:{b}" for s, b in view.auction.bids) or "-"))
    else:
        lines.append(f"no trump ({view.stock_size} in the stock)")
    if view.auction is not None and view.auction.called is not None:
        partner = view.auction.partner
        who = "unknown" if partner is None else f"seat {partner}"
        lines.append(
            f"seat {view.auction.caller} called {view.auction.called} "
            f"(bid {view.auction.high}); partner {who}"
        )
    sides = " v ".join(
        f"{'+'.join(str(s) for s in side)}: {p}"
        for side, p in zip(view.sides, view.points, strict=True)
    )
    lines.append(f"points {sides}")
    if view.stock_top is not None:
        lines.append(f"top of the stock {view.stock_top}")
    for seat, cards in sorted(view.visible_hands.items()):
        lines.append(f"seat {seat} holds {' '.join(str(c) for c in cards)}")
    for seat, cards in sorted(view.known_cards.items()):
        lines.append(f"seat {seat} is known to hold {' '.join(str(c) for c in cards)}")
    table = ", ".join(f"{s}:{c}" for s, c in view.trick)
    lines.append(f"on the table {table or '-'}")
    lines.append(f"your hand {' '.join(str(c) for c in view.hand)}")
    return lines
