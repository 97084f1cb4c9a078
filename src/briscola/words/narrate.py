"""One narration of the seat stream: from the events (JSON) and the view (JSON) one
audience is sent, to the sentences that tell them, in the reader's language.

The host (:meth:`briscola.host.Table.messages`) and the server (docs/protocol.md, the
``update`` frames) give each seat the events it may see, already redacted by the engine; a
:class:`Narrator` tells them as they come, with the view after each message: "East plays
ace of cups", "you take trick 3: ace of cups, three of cups (21 points)" (without the
points where the table keeps them hidden during a hand: ``points: hidden``). It decides
nothing about who sees what: it says what it was sent. The records' voice
(:data:`~briscola.words.seating.RECORD`) tells a whole game the same way
(:func:`record_json`), each trick with its cards.

>>> from briscola.engine import Rules
>>> from briscola.words.seating import Seating
>>> rules = Rules.make("briscola-2")
>>> you = Narrator(rules, Seating.of(rules, 0))
>>> trick = [{"type": "card_played", "seat": 1, "card": "Ab"},
...          {"type": "card_played", "seat": 0, "card": "3b"},
...          {"type": "trick_won", "winner": 1, "leader": 1, "seats": [1, 0],
...           "cards": ["Ab", "3b"], "points": 21}]
>>> for line in you.tell(trick):
...     print(line)
North plays ace of batons
you play three of batons
North takes trick 1: ace of batons, three of batons (21 points)

At a table that counts in its head, with its players' names:

>>> giulia = Seating.of(rules, 0, "it", names={1: "Giulia"}, points="hidden")
>>> Narrator(rules, giulia).tell(trick)[-1]
'Giulia fa la 1ª presa: asso di bastoni, tre di bastoni'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from briscola.engine.cards import Card, Rank, Suit
from briscola.engine.match import Target
from briscola.engine.rules import Rules
from briscola.words.cards import hand_order
from briscola.words.catalogue import Catalogue
from briscola.words.seating import RECORD, Seating, Voice

Json = dict[str, Any]

MATCH_EVENTS = ("hand_scored", "hand_started", "match_over")

BID_RANKS = {Rank.ACE, Rank.THREE, Rank.KING, Rank.QUEEN, Rank.JACK}
"""The ranks a record's chiamata bid names by their name (the others by their number); at a
person's table every rank is named in the table's words ("il sei", "six")."""
RANK_CODES = {r.value for r in Rank}


def cards_of(codes: Iterable[str]) -> list[Card]:
    return [Card.parse(c) for c in codes]


class Narrator:
    """Tells one audience's stream, message by message (:meth:`tell`), in ``voice``'s
    words: a person's :class:`~briscola.words.seating.Seating`, or the records'
    :data:`~briscola.words.seating.RECORD`. For a person, ``plays`` says whether to tell
    each card played and drawn (a screen that draws the table need not)."""

    def __init__(self, rules: Rules, voice: Voice = RECORD, plays: bool = True) -> None:
        self.rules = rules
        self.voice = voice
        self.plays = plays
        self.person = isinstance(voice, Seating)
        self.view: Json | None = None
        """The last view the stream brought (``None``: none yet, or the records' voice)."""
        self.tricks = 0
        """Tricks taken so far in the hand being told."""
        self.turned: str | None = None
        """The turned card while it lies under the stock, as the stream showed it."""
        self.sides: list[list[int]] = [list(s) for s in rules.sides]

    @property
    def words(self) -> Catalogue:
        return self.voice.words

    def seen(self, view: Json) -> None:
        """Take ``view`` as where the stream stands (a snapshot, or the view after a
        message): the tricks, the turned card and the sides are read from it."""
        self.view = view
        self.tricks = len(view.get("tricks") or ())
        self.turned = view.get("turned")
        self.sides = [list(s) for s in view.get("sides") or self.sides]

    def tell(
        self, events: Sequence[Json], view: Json | None = None, standing: str = ""
    ) -> list[str]:
        """The lines telling one message's ``events``, then ``view`` taken as the view
        after them (:meth:`seen`). ``standing`` is the match's score after them, said
        after a hand scored."""
        public = self._talk_public(events, view)
        lines: list[str] = []
        looked: int | None = None
        shown = False
        for i, e in enumerate(events):
            kind = e.get("type")
            if kind == "hand_started":
                lines.append(self.voice.say("tell.hand_started", e["dealer"], n=e["number"]))
                self.tricks, self.turned, shown = 0, None, False
            elif kind == "hand_over":
                self.sides = [list(s) for s in e.get("sides") or self.sides]
            elif kind == "hand_scored":
                lines.extend(self._scored(e, standing))
            elif kind == "match_over":
                lines.append(self._match_over(e))
            elif kind == "partners_drawn":
                dealer = next((x["dealer"] for x in events if x.get("type") == "hand_started"), 0)
                lines.extend(self.partners_drawn(e, dealer))
            elif kind == "hand_shown":
                if looked == e["seat"] or shown:
                    continue
                shown = True
                lines.append(self._pad(self.words.say("tell.shown")))
            else:
                line = self._event(e, public.get(i, False))
                if line:
                    lines.append(line)
            looked = e.get("to") if kind == "talk" and e.get("kind") == "look" else None
        if view is not None:
            self.seen(view)
        return lines

    def _talk_public(self, events: Sequence[Json], view: Json | None) -> dict[int, bool]:
        """Whether the whole table heard each talk event of the message (by its index), as
        the engine wrote it: in the event (``public``, the records' voice) or in the talk
        of the view after the message, whose last entries are these events."""
        talks = [i for i, e in enumerate(events) if e.get("type") == "talk"]
        out = {i: bool(events[i]["public"]) for i in talks if "public" in events[i]}
        heard = list((view or {}).get("talk") or ())
        missing = [i for i in talks if i not in out]
        if missing and len(heard) >= len(missing):
            for i, t in zip(missing, heard[len(heard) - len(missing) :], strict=True):
                out[i] = bool(t.get("public"))
        return out

    def _pad(self, line: str) -> str:
        return line if self.person else " " * 10 + line

    def _event(self, e: Json, public: bool) -> str | None:
        voice, kind = self.voice, e.get("type")
        card = voice.card
        if kind == "card_played":
            return (
                voice.say("tell.played", e["seat"], card=card(Card.parse(e["card"])))
                if (self.person and self.plays)
                else None
            )
        if kind == "trick_won":
            self.tricks += 1
            if self.person:
                return self.describe_taken(e)
            return self.describe_trick(e)
        if kind == "trump_turned":
            self.turned = e["card"]
            return None
        if kind == "trump_exchanged":
            given, taken = Card.parse(e["given"]), Card.parse(e["taken"])
            self.turned = e["given"]
            return self._pad(
                voice.say("tell.exchanged", e["seat"], given=card(given), taken=card(taken))
            )
        if kind == "card_drawn":
            return self._drawn(e)
        if kind == "talk" and e.get("kind") != "done":
            return self._pad(self.describe_talk(e, public))
        if kind == "bid_made":
            if e["bid"] == "pass":
                return self._pad(voice.say("tell.passed", e["seat"]))
            return self._pad(voice.say("tell.bid", e["seat"], bid=self.describe_bid(e["bid"])))
        if kind == "auction_ended":
            if e.get("caller") is None:
                return self._pad(self.words.say("tell.all_passed"))
            bid = self.describe_bid(e.get("bid") or "")
            return self._pad(voice.say("tell.auction_won", e["caller"], bid=bid))
        if kind == "card_called":
            called = Card.parse(e["card"])
            suit = self._suit(called)
            return self._pad(voice.say("tell.called", e["seat"], card=card(called), suit=suit))
        if kind == "partner_revealed":
            return self._pad(self.words.say("tell.partner_out", who=self.describe_partner(e)))
        if kind == "thrown_in":
            cards = ", ".join(card(c) for c in cards_of(e["cards"]))
            return self._pad(voice.say("tell.thrown_in", e["seat"], cards=cards))
        return None

    def _suit(self, card: Card) -> str:
        if isinstance(self.voice, Seating):
            return self.voice.suit(card.suit)
        return card.suit.italian

    def _drawn(self, e: Json) -> str | None:
        """A card drawn: the turned card, which everyone sees taken, or the person's own
        draw; nothing in a game of open hands, whose hands lie on the table."""
        code = e.get("card")
        if code is None or not self.rules.game.turned_trump or self.rules.game.open_hands:
            return None
        voice = self.voice
        if code == self.turned:
            self.turned = None
            turned = voice.card(Card.parse(code))
            return self._pad(voice.say("tell.drew_turned", e["seat"], card=turned))
        if isinstance(voice, Seating) and self.plays and e["seat"] == voice.seat:
            return voice.say("tell.drew", e["seat"], card=voice.card(Card.parse(code)))
        return None

    # -- the parts of a line --------------------------------------------------------------

    def describe_trick(self, e: Json) -> str:
        """A finished trick with its cards, as a record tells it."""
        plays = ", ".join(
            f"{s}:{self.voice.card(Card.parse(c))}"
            for s, c in zip(e["seats"], e["cards"], strict=True)
        )
        took = self.voice.say("record.took", e["winner"], points=e["points"])
        return self.words.say("record.trick", n=f"{self.tricks:2d}", plays=plays, took=took)

    def describe_taken(self, e: Json) -> str:
        """A trick taken, as a person's log tells it: who took it and its cards, in the
        order played ("Giulia takes trick 2: tre di coppe, asso di coppe"), then its points
        where the table shows them during the hand (``points: shown``)."""
        voice = self.voice
        cards = ", ".join(voice.card(c) for c in cards_of(e["cards"]))
        if isinstance(voice, Seating) and not voice.points_shown:
            return voice.say("tell.took_cards_no_points", e["winner"], trick=self.tricks,
                             cards=cards)  # fmt: skip
        points = voice.count("count.points", e["points"])
        return voice.say("tell.took_cards", e["winner"], trick=self.tricks, cards=cards,
                         points=points)  # fmt: skip

    def describe_bid(self, bid: str) -> str:
        """A bid in words (:func:`describe_bid`)."""
        return describe_bid(bid, self.voice)

    def describe_partner(self, e: Json) -> str:
        voice = self.voice
        caller, partner = e["caller"], e["partner"]
        if partner == caller:
            return voice.say("tell.alone", caller)
        if isinstance(voice, Seating) and partner == voice.seat:
            return self.words.say("tell.you_partner", caller=voice.name(caller))
        if isinstance(voice, Seating) and caller == voice.seat:
            return self.words.say("tell.your_partner", partner=voice.name(partner))
        return self.words.say(
            "tell.partner_of", partner=voice.name(partner), caller=voice.name(caller)
        )

    def describe_talk(self, t: Json, public: bool | None = None) -> str:
        """A talk event (or a view's talk) in words; ``public``: whether the whole table
        heard it (by default, as the talk says)."""
        voice = self.voice
        public = bool(t.get("public")) if public is None else public
        what = str(t.get("what"))
        if t["kind"] == "signal":
            said = talk_words("signal", what, voice)
            key = "tell.signal_public" if public else "tell.signal"
            return voice.say(key, t["seat"], what=said)
        addressed = t.get("to")
        to = voice.name(addressed) if addressed is not None else "?"
        if t["kind"] == "ask":
            answer = answer_words(t.get("answer"), voice)
            question = talk_words("question", what, voice)
            return voice.say("tell.asked", t["seat"], addressed, to=to,
                             To=to[:1].upper() + to[1:], question=question,
                             answer=answer)  # fmt: skip
        if t["kind"] == "order":
            order = talk_words("order", what, voice)
            return voice.say("tell.ordered", t["seat"], addressed, to=to, order=order)
        if t["kind"] == "done":
            return voice.say("tell.talk_done", t["seat"])
        return voice.say("tell.looked", t["seat"], addressed, to=to)

    # -- the match ------------------------------------------------------------------------

    def _scored(self, e: Json, standing: str) -> list[str]:
        """A hand scored: its sides' points, the match's score after it."""
        voice = self.voice
        points = per_side(voice, self.sides, e["points"])
        if e.get("replayed"):
            return [self.words.say("tell.hand_replayed", n=e["number"], points=points)]
        if e.get("winners"):
            line = voice.say("tell.hand_won", e["winners"], n=e["number"], points=points)
        else:
            line = self.words.say("tell.hand_tied", n=e["number"], points=points)
        if e.get("counted") == 2:
            line += self.words.say("tell.cappotto")
        if e.get("scores") is not None:
            line += self.words.say("tell.hand_scores", scores=seat_scores(voice, e["scores"]))
        return [line, standing] if standing else [line]

    def _match_over(self, e: Json) -> str:
        if e.get("winners"):
            return self.voice.say("tell.match_won", e["winners"])
        return self.words.say("tell.match_tied")

    def partners_drawn(self, e: Json, dealer: int) -> list[str]:
        """The draw for partners, where the table draws them: who drew what, who play
        together, who deals first (``dealer``, the highest drawer)."""
        voice = self.voice
        seating: list[int] = list(e["seating"])
        me = voice.seat if isinstance(voice, Seating) else 0
        n = len(seating)
        drawn = sorted(
            enumerate(cards_of(e["cards"])), key=lambda pc: (seating.index(pc[0]) - me) % n
        )
        cards = ", ".join(
            voice.say("tell.drew_for_partners", seating.index(p), card=voice.card(c))
            for p, c in drawn
        )
        high = self.rules.sides[self.rules.side_of[dealer]]
        return [
            self.words.say("tell.partners_drawn", cards=cards),
            voice.say(
                "tell.drew_highest", list(high), dealer=voice.say("tell.deals_first", dealer)
            ),
        ]


def describe_bid(bid: str, voice: Voice = RECORD) -> str:
    """A bid in words, with its grammatical forms (a :class:`Worded`: Croatian
    ``{bid:acc}`` says "kralja (R)"): ``K`` -> ``king (R)`` at a table of Italian cards,
    the letter the card shows (a record's voice says the first ranks by their Italian
    names and the notation's letter, the others by their number), ``6`` -> ``six (6)``,
    ``2 at 75`` -> ``2 at 75`` (Italian ``il due a 75``)."""
    if bid in RANK_CODES and isinstance(voice, Seating):
        rank = Rank(bid)
        return voice.words.word("bid.rank", rank=voice.rank(rank), code=voice.letter(rank))
    if bid in RANK_CODES and Rank(bid) in BID_RANKS:
        return voice.words.word("bid.rank", rank=Rank(bid).italian, code=voice.letter(Rank(bid)))
    head, _, points = bid.partition(" at ")
    if head == "2" and points.isdigit():
        return voice.words.word("bid.points", n=int(points))
    return bid


def talk_words(kind: str, what: str, voice: Voice = RECORD) -> str:
    """A signal's, question's or order's words (``kind``: ``signal``, ``question``,
    ``order``) in the table's deck: Briškula's 32 French cards have their own where the 10
    is the second card (a record's voice, knowing no deck, says them for the 40 cards)."""
    words = voice.words
    if (
        isinstance(voice, Seating)
        and voice.deck == "french-32"
        and f"{kind}.french.{what}" in words
    ):
        return str(words.say(f"{kind}.french.{what}"))
    key = f"{kind}.{what}"
    return str(words.say(key)) if key in words else what


def answer_words(answer: object, voice: Voice = RECORD) -> str:
    """A question's answer in the reader's words (``yes`` -> ``sì``; ``briscoline
    vestite`` -> ``briscoline e vestite``), ``?`` while it has none."""
    if answer is None:
        return "?"
    words = voice.words
    said = [
        str(words.say(f"talkword.answer.{part}")) if f"talkword.answer.{part}" in words else part
        for part in str(answer).split()
    ]
    return voice.joined(said)


def per_side(voice: Voice, sides: Iterable[Iterable[int]], figures: Iterable[object]) -> str:
    """A figure for each side, named: ``North and you 52, East and West 68``."""
    return ", ".join(
        voice.words.say("side.figure", side=voice.side(side), n=x)
        for side, x in zip(sides, figures, strict=True)
    )


def seat_scores(voice: Voice, scores: Sequence[int]) -> str:
    return ", ".join(
        voice.words.say("side.figure", side=voice.name(s), n=f"{x:+d}")
        for s, x in enumerate(scores)
    )


def describe_points(
    sides: Sequence[Sequence[int]], points: Sequence[int], voice: Voice = RECORD
) -> str:
    """Each side's card points: ``0+2: 52 v 1+3: 68`` for a record, or ``North and you
    52, ...`` at the table."""
    if isinstance(voice, Seating):
        return per_side(voice, sides, points)
    return " v ".join(
        f"{'+'.join(str(s) for s in side)}: {p}" for side, p in zip(sides, points, strict=True)
    )


def describe_standing(voice: Seating, match: Mapping[str, Any]) -> str:
    """The match score so far (a view's ``match``), in words (``match (to 121 points): ...``)."""
    words = voice.words
    target = Target.parse(match["target"])
    if match.get("scores") is not None:
        key = "standing.scores_points" if target.kind == "points" else "standing.scores_hands"
        return words.say(key, n=target.goal, scores=seat_scores(voice, match["scores"]))
    sides = voice.table.sides
    if target.kind == "points":
        return words.say(
            "standing.points", n=target.goal, sides=per_side(voice, sides, match["totals"])
        )
    won = per_side(voice, sides, match["hands_won"])
    if target.kind == "one":
        return words.say("standing.one", sides=won)
    return words.say("standing.hands", n=target.goal, sides=won)


def describe_action(action: Mapping[str, Any], voice: Voice, turned: str | None = None) -> str:
    """A short label for a legal action (its JSON, as a view lists it), as a menu shows it."""
    words = voice.words
    if "play" in action:
        return words.say("menu.play", card=voice.card(Card.parse(action["play"])))
    if "exchange" in action:
        return words.say("menu.exchange", card=voice.card(Card.parse(action["exchange"])))
    if "signal" in action:
        return words.say("menu.signal", what=talk_words("signal", action["signal"], voice))
    if "ask" in action:
        what = talk_words("question", action["ask"], voice)
        return words.say("menu.ask", to=voice.name(action["to"]), what=what)
    if "order" in action:
        what = talk_words("order", action["order"], voice)
        return words.say("menu.order", to=voice.name(action["to"]), what=what)
    if "look" in action:
        return words.say("menu.look", to=voice.name(action["look"]))
    if "talk" in action:
        return words.say("menu.talk_done")
    if "bid" in action:
        if action["bid"] == "pass":
            return words.say("menu.pass")
        bid = action["bid"]
        return words.say(
            "menu.bid", bid=describe_bid(f"2 at {bid}" if isinstance(bid, int) else bid, voice)
        )
    return words.say("menu.call", card=voice.card(Card.parse(action["call"])))


def describe_view(view: Mapping[str, Any], voice: Seating, drawn: Card | None = None) -> list[str]:
    """The table as the person sees it (a view's JSON): trump and stock, the auction,
    points, open hands, the trick on the table and the hand (sorted; the card just drawn
    marked)."""
    words = voice.words
    lines = []
    auction = view.get("auction")
    turned = view.get("turned")
    stock = view["stock_size"]
    if auction is not None and auction.get("called") is None:
        bids = ", ".join(
            voice.say("tell.passed", b["seat"]) if b["bid"] == "pass"
            else voice.say("view.bid", b["seat"], bid=describe_bid(b["bid"], voice))
            for b in auction["bids"]
        )  # fmt: skip
        lines.append(words.say("view.auction", bids=bids or words.say("view.no_bid")))
    elif auction is not None and auction.get("caller") is not None:
        caller, partner = auction["caller"], auction.get("partner")
        if partner is None:
            who = words.say("view.partner_unknown")
        elif partner == caller:
            who = voice.say("tell.alone", caller)
        elif partner == voice.seat:
            who = words.say("view.you_partner")
        else:
            who = words.say("view.partner_is", who=voice.name(partner))
        called = Card.parse(auction["called"])
        lines.append(words.say(
            "view.called", form=voice.form([caller]), suit=voice.suit(called.suit),
            caller=voice.name(caller), card=voice.card(called),
            bid=describe_bid(auction.get("high") or "", voice), who=who,
        ))  # fmt: skip
    elif view.get("trump") is not None:
        line = words.say("view.trump", suit=voice.suit(Suit(view["trump"])))
        if turned is not None:
            line += words.say("view.turned", card=voice.card_code(Card.parse(turned)))
        if turned is not None or stock:
            line += words.say("view.to_draw", n=stock + (turned is not None))
        else:
            line += words.say("view.nothing_to_draw")
        lines.append(line)
    else:
        left = words.say("view.stock", n=stock) if stock else words.say("view.stock_out")
        lines.append(words.say("view.no_trump", stock=left))
    if voice.points_shown:  # else counted in the head: the hand's end says them
        lines.append(words.say("view.points", sides=per_side(voice, view["sides"], view["points"])))
    if view.get("stock_top") is not None:
        lines.append(
            words.say("view.stock_top", card=voice.card_code(Card.parse(view["stock_top"])))
        )
    for seat, codes in sorted((int(s), c) for s, c in view["visible_hands"].items()):
        if codes:
            lines.append(voice.say("view.holds", seat, cards=cards_line(voice, cards_of(codes))))
    for seat, codes in sorted((int(s), c) for s, c in view["known_cards"].items()):
        if codes:
            lines.append(
                words.say(
                    "view.known", who=voice.name(seat), cards=cards_line(voice, cards_of(codes))
                )
            )
    table = ", ".join(
        words.say("view.played", who=voice.name(s), card=voice.card_code(Card.parse(c)))
        for s, c in view["trick"]
    )
    lines.append(words.say("view.table", cards=table or words.say("view.table_empty")))
    hand = cards_of(view["hand"])
    shown = " ".join(
        voice.short(c) + ("*" if c is drawn else "")
        for c in hand_order(voice.table, hand, Suit(view["trump"]) if view.get("trump") else None)
    )
    if shown:
        mark = words.say("view.just_drawn") if drawn is not None and drawn in hand else ""
        lines.append(words.say("view.hand", cards=shown, mark=mark))
    return lines


def cards_line(voice: Seating, cards: Iterable[Card]) -> str:
    return ", ".join(voice.card_code(c) for c in hand_order(voice.table, cards))


def record_json(events: Iterable[Any]) -> Iterator[Json]:
    """A record's events (the engine's, the whole game: a record shows everything) as the
    JSON a :class:`Narrator` reads, each written as the table saw it or would have, with
    ``public`` on talk: whether the whole table heard it (its audience, as the engine
    set it)."""
    from briscola.engine.events import seat_events

    for e in events:
        (obj,) = seat_events([e._replace(audience=None)], None)
        if obj["type"] == "talk":
            obj["public"] = e.audience is None
        yield obj
