"""The engine's JSON on the wire, as pydantic models: a seat's view (:class:`View`, every
field of :meth:`briscola.engine.views.View.to_json`, its parts nested), the actions it
lists as ``legal`` (:data:`Action`), and every event an update carries (:data:`Event`):
the engine's (:func:`briscola.engine.events.seat_events`, the match's too) and the fair
shuffle's own (:data:`Fairness`, :meth:`briscola.fair_shuffle.FairDeals.announced`).

The engine writes plain JSON and knows nothing of these models (it imports no pydantic);
they say what it writes, for the protocol's messages (:mod:`briscola.server.messages`)
and the JSON Schema the server publishes (:func:`~briscola.server.messages.protocol_schema`).
Every model forbids fields it does not name: the tests validate every view and event of
whole games against them, so a field or an event the engine adds without a model here
fails there.

Names are the engine's: an event model is named as the engine's event (``CardPlayed``,
whose ``type`` is ``card_played``), an action as the engine's action (``Play``).

>>> from pydantic import TypeAdapter
>>> TypeAdapter(Event).validate_python({"type": "card_drawn", "seat": 1, "card": None})
CardDrawn(type='card_drawn', seat=1, card=None)
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

RuleValue = StrictStr | StrictInt | StrictBool

Seat = Annotated[StrictInt, Field(ge=0)]
"""A seat number, 0 to the table's players less one."""
Count = Annotated[StrictInt, Field(ge=0)]
Card = Annotated[StrictStr, Field(pattern=r"^[A2-9TJQK][cdsb]$")]
"""A card in the records' notation: rank then suit (``5b``, ``Tc``; docs/records.md)."""
Suit = Literal["c", "d", "s", "b"]
Hex = Annotated[StrictStr, Field(pattern=r"^[0-9a-f]{64}$")]
"""256 bits in hex: a SHA-256 digest, a salt."""


def _none(value: object) -> bool:
    return value is None


def left_out() -> Any:
    """A field the engine leaves out when it has nothing to say (never written ``null``)."""
    return Field(default=None, exclude_if=_none)


class _Wire(BaseModel):
    # Serialised, every field is written (but those left out when ``None``): the schema
    # of what the server sends says so.
    model_config = ConfigDict(
        extra="forbid", frozen=True, json_schema_serialization_defaults_required=True
    )


# -- the actions a view lists as legal (and an act sends back as they are) ----------------


class Play(_Wire):
    """Play a card."""

    seat: Seat
    play: Card


class Exchange(_Wire):
    """Give this card of the trump suit (the 2 or the 7) for the turned card."""

    seat: Seat
    exchange: Card


class Signal(_Wire):
    """Show the partner something true of one's hand (rules.md §4), or make a request."""

    seat: Seat
    signal: Literal[
        "ace", "three", "king", "queen", "jack", "low-trumps", "no-trumps", "carico",
        "play-carico", "play-liscio",
    ]  # fmt: skip
    spotted: list[Seat] | None = left_out()
    """The opponents who caught it, once drawn (never in a view's ``legal``)."""


class Ask(_Wire):
    """Ask a partner one of the conversation's questions; the answer is read from the hand."""

    seat: Seat
    ask: Literal["lisci", "trumps", "take", "carichi"]
    to: Seat


class Order(_Wire):
    """Tell a partner what to play; the whole table hears it."""

    seat: Seat
    order: Literal["liscio", "trump-high", "trump-low", "take", "carico"]
    to: Seat


class Look(_Wire):
    """Schembil: the rais looks at a partner's hand once the stock is exhausted."""

    seat: Seat
    look: Seat


class EndTalk(_Wire):
    """Schembil: the rais whose turn it is to talk before the lead has no more to say."""

    seat: Seat
    talk: Literal["done"]


class Bid(_Wire):
    """Chiamata: bid a rank (``A`` ... ``2``), or, once a 2 was bid, ``2 at N`` points
    (``bid`` the number ``N``, 61 to 120)."""

    seat: Seat
    bid: (
        Literal["A", "3", "K", "Q", "J", "7", "6", "5", "4", "2"]
        | Annotated[StrictInt, Field(ge=61, le=120)]
    )


class Pass(_Wire):
    """Chiamata: leave the auction, for good."""

    seat: Seat
    bid: Literal["pass"]


class Call(_Wire):
    """Chiamata: the auction's winner names the called card."""

    seat: Seat
    call: Card


Action = Play | Exchange | Signal | Ask | Order | Look | EndTalk | Bid | Pass | Call
"""An action as JSON: the forms of a record's moves (docs/records.md). Each form has a key
of its own besides ``seat`` (``play``, ``exchange``, ...; ``bid`` for a bid and a pass)."""


# -- the view --------------------------------------------------------------------------------


class TrickView(_Wire):
    """A finished trick: who led, the seats in the order they played and their cards, who
    took it and its card points."""

    leader: Seat
    seats: list[Seat]
    cards: list[Card]
    winner: Seat
    points: Count


class TalkSeen(_Wire):
    """Partner talk this seat has seen: ``kind`` signal, ask, order, look or done, ``what``
    its word, ``to`` the partner addressed, ``answer`` read from that partner's hand;
    ``public`` when the whole table heard it; ``spotted`` under
    ``signal_audience=spotted`` (this seat, or nobody). ``to``, ``answer`` and
    ``spotted`` are left out when they say nothing."""

    seat: Seat
    kind: Literal["signal", "ask", "order", "look", "done"]
    what: StrictStr
    to: Seat | None = left_out()
    answer: StrictStr | None = left_out()
    public: StrictBool
    spotted: list[Seat] | None = left_out()


class AuctionBid(_Wire):
    seat: Seat
    bid: StrictStr
    """``A`` ... ``2``, ``2 at N`` or ``pass``."""


class AuctionView(_Wire):
    """Chiamata as this seat knows it: every bid, the highest, its bidder, the caller, the
    called card and the caller's partner (once this seat knows it)."""

    bids: list[AuctionBid]
    high: StrictStr | None
    bidder: Seat | None
    caller: Seat | None
    called: Card | None
    partner: Seat | None


class MatchView(_Wire):
    """Where the match stands: its ``target`` (the rule's value), hands won and card points
    by side, chiamata's score points by seat (``null`` in the other games), ``seating``
    (``seating[seat]``: the player there), whether it is ``over`` and its winners."""

    target: StrictStr
    hands_won: list[Count]
    totals: list[Count]
    scores: list[StrictInt] | None
    seating: list[Seat]
    over: StrictBool
    winners: list[Seat]


SeatKey = Annotated[StrictStr, Field(pattern=r"^(0|[1-9][0-9]*)$")]
"""A seat number as a JSON object's key."""


class View(_Wire):
    """What one seat (or a spectator: ``seat`` is ``null``) may know now: the engine's
    ``View.to_json()``; every field is told in docs/bots.md, "The view"."""

    game: StrictStr
    seat: Seat | None
    players: Count
    sides: list[list[Seat]]
    dealer: Seat
    direction: Literal["right", "left"]
    phase: Literal["play", "auction", "call", "talk", "over"]
    to_act: Seat | None
    hand: list[Card]
    hand_sizes: list[Count]
    visible_hands: dict[SeatKey, list[Card]]
    known_cards: dict[SeatKey, list[Card]]
    trump: Suit | None
    turned: Card | None
    stock_size: Count
    stock_top: Card | None
    trick: list[tuple[Seat, Card]]
    """The trick on the table: ``[seat, card]`` pairs in the order played."""
    trick_order: list[Seat]
    tricks: list[TrickView]
    last_trick: TrickView | None
    points: list[Count]
    winners: list[Seat]
    carichi: list[list[Card]]
    rules: dict[str, RuleValue]
    legal: list[Action]
    talk: list[TalkSeen]
    auction: AuctionView | None
    hand_number: Annotated[StrictInt, Field(ge=1)]
    move_number: Count
    match: MatchView | None


# -- the events --------------------------------------------------------------------------


class Dealt(_Wire):
    """A seat received its starting hand (``cards`` empty for another seat's)."""

    type: Literal["dealt"] = "dealt"
    seat: Seat
    cards: list[Card]


class TrumpTurned(_Wire):
    """The turned card was laid under the stock: its suit is trump."""

    type: Literal["trump_turned"] = "trump_turned"
    card: Card


class StockTop(_Wire):
    """Scoperta: the card now face up on top of the stock."""

    type: Literal["stock_top"] = "stock_top"
    card: Card


class CardPlayed(_Wire):
    type: Literal["card_played"] = "card_played"
    seat: Seat
    card: Card


class TrickWon(_Wire):
    """A trick was taken: the seats in the order they played, their cards, its points."""

    type: Literal["trick_won"] = "trick_won"
    winner: Seat
    leader: Seat
    seats: list[Seat]
    cards: list[Card]
    points: Count


class CardDrawn(_Wire):
    """A seat drew from the stock (``card`` ``null`` for another seat's draw)."""

    type: Literal["card_drawn"] = "card_drawn"
    seat: Seat
    card: Card | None


class TrumpExchanged(_Wire):
    """A seat gave ``given`` for the turned card ``taken``; ``given`` is the new turned card."""

    type: Literal["trump_exchanged"] = "trump_exchanged"
    seat: Seat
    given: Card
    taken: Card


class HandShown(_Wire):
    """A seat's hand was shown (to partners once the stock runs out; a rais's look)."""

    type: Literal["hand_shown"] = "hand_shown"
    seat: Seat
    cards: list[Card]


class Talk(_Wire):
    """Partner talk: ``kind`` signal, ask, order, look or done, ``what`` its word, ``to``
    the partner addressed, ``answer`` read from that partner's hand; ``spotted`` under
    ``signal_audience=spotted`` (this seat, or nobody)."""

    type: Literal["talk"] = "talk"
    seat: Seat
    kind: Literal["signal", "ask", "order", "look", "done"]
    what: StrictStr
    to: Seat | None
    answer: StrictStr | None
    spotted: list[Seat] | None


class BidMade(_Wire):
    """Chiamata: a bid (``A`` ... ``2``, ``2 at N``) or ``pass``."""

    type: Literal["bid_made"] = "bid_made"
    seat: Seat
    bid: StrictStr


class AuctionEnded(_Wire):
    """Chiamata: the auction's winner and bid (``null`` when all passed)."""

    type: Literal["auction_ended"] = "auction_ended"
    caller: Seat | None
    bid: StrictStr | None


class CardCalled(_Wire):
    type: Literal["card_called"] = "card_called"
    seat: Seat
    card: Card


class PartnerRevealed(_Wire):
    """Chiamata: the called card was played (``partner`` is the caller when alone)."""

    type: Literal["partner_revealed"] = "partner_revealed"
    caller: Seat
    partner: Seat


class ThrownIn(_Wire):
    """Chiamata: a player with no card points showed the hand; the deal is thrown in."""

    type: Literal["thrown_in"] = "thrown_in"
    seat: Seat
    cards: list[Card]


class HandOver(_Wire):
    """The hand is over: card points by side, the winning seats, the seats of each side in
    the order of ``points``, and the carichi each side took, in the order taken."""

    type: Literal["hand_over"] = "hand_over"
    points: list[Count]
    winners: list[Seat]
    sides: list[list[Seat]]
    carichi: list[list[Card]]


class PartnersDrawn(_Wire):
    """Before the first hand (``partners=drawn``) each player drew a card;
    ``seating[seat]`` is the player there."""

    type: Literal["partners_drawn"] = "partners_drawn"
    cards: list[Card]
    seating: list[Seat]


class HandStarted(_Wire):
    """The match deals hand ``number`` (the first is 1)."""

    type: Literal["hand_started"] = "hand_started"
    number: Annotated[StrictInt, Field(ge=1)]
    dealer: Seat


class HandScored(_Wire):
    """The match's reckoning of a finished hand (a match record's ``result.hands``)."""

    type: Literal["hand_scored"] = "hand_scored"
    number: Annotated[StrictInt, Field(ge=1)]
    points: list[Count]
    winners: list[Seat]
    counted: Count
    replayed: StrictBool
    scores: list[StrictInt] | None
    cappotto: StrictBool


class MatchOver(_Wire):
    type: Literal["match_over"] = "match_over"
    winners: list[Seat]
    hands_won: list[Count]
    totals: list[Count]
    scores: list[StrictInt]


class Deal(_Wire):
    """A record's ``deal`` (docs/records.md): the dealer, each seat's starting hand, the
    turned card (``null`` in games without) and the stock, top first."""

    dealer: Seat
    hands: list[list[Card]]
    trump: Card | None
    stock: list[Card]
    seed: Annotated[StrictInt, Field(ge=0, lt=2**64)] | None = left_out()
    """The seed of the hand's own chances (signals spotted), where the rules have any."""


class HandCommitted(_Wire):
    """The server: hand ``hand`` was dealt; ``commitment`` is the SHA-256 of its deal and a
    secret salt (docs/fairness.md)."""

    type: Literal["hand_committed"] = "hand_committed"
    hand: Annotated[StrictInt, Field(ge=1)]
    commitment: Hex


class HandRevealed(_Wire):
    """The server: hand ``hand`` is over; its ``salt`` and ``deal`` hash to ``commitment``."""

    type: Literal["hand_revealed"] = "hand_revealed"
    hand: Annotated[StrictInt, Field(ge=1)]
    commitment: Hex
    salt: Hex
    deal: Deal


Fairness = Annotated[HandCommitted | HandRevealed, Field(discriminator="type")]
"""A snapshot's ``fairness`` entry: a hand's commitment, or, once it is over, its reveal."""

ENGINE_EVENTS: tuple[type[BaseModel], ...] = (
    Dealt, TrumpTurned, StockTop, CardPlayed, TrickWon, CardDrawn, TrumpExchanged,
    HandShown, Talk, BidMade, AuctionEnded, CardCalled, PartnerRevealed, ThrownIn,
    HandOver, PartnersDrawn, HandStarted, HandScored, MatchOver,
)  # fmt: skip
"""The engine's events (a hand's and the match's), by the engine's names."""
SERVER_EVENTS: tuple[type[BaseModel], ...] = (HandCommitted, HandRevealed)
"""The server's own events: the fair shuffle's."""

Event = Annotated[
    Dealt | TrumpTurned | StockTop | CardPlayed | TrickWon | CardDrawn | TrumpExchanged
    | HandShown | Talk | BidMade | AuctionEnded | CardCalled | PartnerRevealed | ThrownIn
    | HandOver | PartnersDrawn | HandStarted | HandScored | MatchOver
    | HandCommitted | HandRevealed,
    Field(discriminator="type"),
]  # fmt: skip
"""An event of an update, told apart by ``type``."""

__all__ = [
    "ENGINE_EVENTS",
    "SERVER_EVENTS",
    "Action",
    "Event",
    "Fairness",
    "View",
]
