"""Rule-based computer players: ``beginner`` and ``intermediate``.

Both play every game of the project from a seat's view alone (the fields they read
are listed in docs/bots.md) and return one of ``view.legal`` for every kind of
action: cards, the trump exchange, signals, questions and orders, a rais's look,
and chiamata's bids and call.

**intermediate** plays sound Briscola. For each card it may play it estimates the
chance that its side takes the trick (from the cards still unseen, the seats still
to play, what partners signalled), and scores the card as the points its side wins
or loses on the trick minus the worth of keeping the card (trumps are worth keeping,
more so the high ones; lisci are worth little). From this follow carico and liscio
(load points on a trick the partner holds or that it takes for sure, throw a
liscio where the opponents take it), trump economy (no trump on an empty trick; the
cheapest card that wins a rich one) and leads of lisci rather than points. It
counts cards (which trumps are out, whether the ace and three of trumps are
gone), knows when it plays last, weighs who draws the turned card, and once the
stock of a head-to-head hand is empty and the few cards left are all known, it
plays the end exactly. It signals its trump honours now and then, asks its
partner about trumps and orders a carico when it leads a sure winner, and follows
its partner's orders when they cost little. In chiamata it bids as far as its hand
is worth, calls its strongest suit, and plays as a team once it knows its partner.

**beginner** plays like someone who has just learnt the game: it looks at the
trick on the table only, takes it with any card that can (its trumps too), loads
its points on a trick it is winning without asking who plays after it, leads its
cheapest card whatever the suit, forgets the exchange now and then, ignores talk,
bids on a count of its high cards, and now and then plays a card at random.

>>> import random
>>> from briscola.engine import GameState, Rules, seat_view, shuffled_deal
>>> rules = Rules.make("briscola-4", {"communication": "signals"})
>>> state = GameState(rules, shuffled_deal(rules, 3, random.Random(5)))
>>> bots = [Intermediate(seed=s) for s in range(4)]
>>> while not state.over:
...     view = seat_view(state, state.turn)
...     _ = state.apply(bots[state.turn].choose(view))
>>> sum(state.points)
120
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from briscola.ai.bot import register
from briscola.ai.rules.auction import choose_bid, choose_call, rough_bid, rough_call
from briscola.ai.rules.counting import Reading, beats, rules_of
from briscola.ai.rules.talking import (
    PartnerTalk,
    choose_before_lead,
    choose_look,
    choose_question,
    choose_signal,
    partner_talk,
)
from briscola.ai.search.exact_endgame import best_play
from briscola.engine.actions import Action, Bid, Call, EndTalk, Exchange, Pass, Play
from briscola.engine.cards import Card
from briscola.engine.errors import BriscolaError
from briscola.engine.views import View

TRUMP_KEEP = 5.0
"""The worth of holding the lowest trump: a trick it may take later."""
TRUMP_KEEP_STEP = 0.6
"""How much more each higher trump rank is worth holding."""


def no_legal_action(view: View) -> BriscolaError:
    who = "a spectator" if view.seat is None else f"seat {view.seat}"
    return BriscolaError(
        f"the bot was asked to act for {who}, which has no legal action now "
        f"(the seat to act is {view.to_act}): give it the view of the seat to act"
    )


def south_courts(view: View) -> bool:
    """Whether the table plays the court order K, J, Q (``court_order=south``)."""
    return rules_of(view).south_courts


def plays_in(legal: Sequence[Action]) -> list[Play]:
    return [a for a in legal if isinstance(a, Play)]


# --------------------------------------------------------------------------- intermediate


@register("intermediate")
class Intermediate:
    """Sound heuristic play: carico and liscio, trump economy, card counting, an exact
    endgame, partner talk, and a chiamata auction judged from the hand."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self._talk_seen = 0
        """How many talk entries the view held at my last card (to tell new from old)."""
        self._tricks_seen = 0

    def new_hand(self, view: View) -> None:
        self._talk_seen = 0
        self._tricks_seen = 0

    def choose(self, view: View) -> Action:
        legal = view.legal
        if not legal:
            raise no_legal_action(view)
        if any(isinstance(a, Pass | Bid) for a in legal):
            return choose_bid(view.hand, legal, south_courts(view))
        if any(isinstance(a, Call) for a in legal):
            return choose_call(view.hand, legal, south_courts(view))
        for a in legal:
            if isinstance(a, Exchange):
                return a  # the turned card is always the better trump
        if len(view.tricks) < self._tricks_seen or len(view.talk) < self._talk_seen:
            self.new_hand(view)  # a new hand, though nobody said so
        if any(isinstance(a, EndTalk) for a in legal):
            return self.talk_before_lead(view, legal)
        plays = plays_in(legal)
        if not plays:
            return legal[0]
        look = choose_look(view, legal)
        if look is not None:
            return look
        r = Reading(view)
        talk = partner_talk(view, r.friends, self._talk_seen)
        card, sure = self.pick(r, plays, talk)
        if len(plays) < len(legal):
            said = choose_signal(view, legal, self.rng, sure and bool(r.friends))
            if said is None and not view.trick:
                partners = sorted(r.friends, key=lambda s: (s - r.me) % view.players)
                said = choose_question(view, legal, sure, partners)
            if said is not None:
                return said
        self._talk_seen = len(view.talk)
        self._tricks_seen = len(view.tricks)
        return next(p for p in plays if p.card is card)

    def talk_before_lead(self, view: View, legal: Sequence[Action]) -> Action:
        """Schembil's rais before a lead: a leader judges its lead as it will play it."""
        sure = False
        me = view.seat
        if view.trick_order and view.trick_order[0] == me and view.hand and me is not None:
            r = Reading(view)
            plays = [Play(me, c) for c in view.hand]
            _, sure = self.pick(r, plays, partner_talk(view, r.friends, self._talk_seen))
        return choose_before_lead(view, legal, sure)

    # ------------------------------------------------------------------ card play

    def pick(self, r: Reading, plays: Sequence[Play], talk: PartnerTalk) -> tuple[Card, bool]:
        """The card to play, and whether it is a lead nobody can beat."""
        cards = [p.card for p in plays]
        if len(cards) == 1:
            return cards[0], False
        exact = best_play(r.view)
        if exact is not None and exact in cards:
            return exact, False
        if r.top is None:
            scored = [(self.lead_value(r, c), c) for c in cards]
        else:
            scored = [(self.follow_value(r, c, talk), c) for c in cards]
        _, best = max(scored, key=lambda vc: (vc[0], -vc[1].index))
        sure = r.top is None and self.win_chance_leading(r, best) >= 1.0
        return best, sure

    def keep(self, r: Reading, card: Card) -> float:
        """What holding ``card`` is worth: trumps by rank (and their points, when no
        higher trump is left to take them), little for plain cards."""
        tables = r.tables
        rank = tables.strength[card]
        view = r.view
        if card.suit is r.trump:
            higher_out = any(
                tables.strength[c] > rank and c not in r.played and c not in r.hand
                for c in tables.by_strength[card.suit]
            )
            safe = 0.6 if higher_out else 1.0
            control = TRUMP_KEEP + TRUMP_KEEP_STEP * rank
            if view.stock_size == 0 and view.turned is None:
                control *= min(1.0, (len(r.hand) - 1) / 3)
            return tables.points[card] * safe + control
        return 0.3 + 0.1 * rank

    def win_chance_leading(self, r: Reading, card: Card) -> float:
        """The chance that a card I lead takes the trick: the foes to play must hold no
        card that would take it (a trump counts only against a card with points)."""
        foes = [s for s in r.after if not r.is_friend(s)]
        if not foes:
            return 1.0
        points = r.tables.points[card]
        takers = [c for c in r.beaters(card) if c.suit is card.suit or points >= 3]
        p = 1.0
        for s in foes:
            p *= r.chance_holds_none(s, takers)
        return p

    def lead_value(self, r: Reading, card: Card) -> float:
        points = r.tables.points
        p = self.win_chance_leading(r, card)
        pts = points[card]
        same_suit = [c for c in r.beaters(card) if c.suit is card.suit]
        extra = sum(points[c] for c in same_suit) / len(same_suit) if same_suit else 0.0
        value = (2 * p - 1) * pts - (1 - p) * 0.5 * extra - self.keep(r, card)
        return value + self.draw_stake(r, p)

    def follow_value(self, r: Reading, card: Card, talk: PartnerTalk) -> float:
        tables = r.tables
        strength = tables.strength
        assert r.top is not None
        if beats(card, r.top, r.trump, strength):
            top, top_seat = card, r.me
        else:
            top, top_seat = r.top, r.top_seat
        foes_after = [s for s in r.after if not r.is_friend(s)]
        friends_after = [s for s in r.after if r.is_friend(s) and s != r.me]
        if r.is_friend(top_seat):
            p = r.safe_from(foes_after, top)
        elif friends_after:
            beaters = r.beaters(top)
            if talk.no_trumps:
                beaters = [c for c in beaters if c.suit is not r.trump]
            none = 1.0
            for s in friends_after:
                none *= r.chance_holds_none(s, beaters)
            if talk.has_trumps and top.suit is not r.trump:
                none = min(none, 0.1)  # a partner said it holds trumps
            p = 0.5 * (1.0 - none)
        else:
            p = 0.0
        if friends_after and p < 0.85 and self.friend_has_the_top(r, friends_after, foes_after):
            p = 0.85
        won = r.trick_points + tables.points[card]
        value = (2 * p - 1) * won - self.keep(r, card) + self.draw_stake(r, p)
        return value + self.obey(r, card, talk, top_seat == r.me)

    def friend_has_the_top(self, r: Reading, friends: Sequence[int], foes: Sequence[int]) -> bool:
        """A partner still to play, after every foe, holds the best trump left (it
        signalled it): the trick is ours if it wants it."""
        if r.trump is None:
            return False
        last_friend = max(r.after.index(s) for s in friends)
        if any(r.after.index(s) > last_friend for s in foes):
            return False
        best = r.highest_unplayed(r.trump, exclude_mine=True)
        return best is not None and any(best in r.located.get(s, ()) for s in friends)

    def draw_stake(self, r: Reading, p: float) -> float:
        """Head to head with one face-down card left: the winner draws it, the loser the
        turned card. Worth weighing when the turned card is a good trump."""
        view = r.view
        if view.players != 2 or view.stock_size != 1 or view.turned is None:
            return 0.0
        worth = self.keep(r, view.turned) - 6.0
        return (1 - 2 * p) * worth * 0.5

    def obey(self, r: Reading, card: Card, talk: PartnerTalk, takes: bool) -> float:
        """A bonus for doing what the partner asked for this trick."""
        wish = talk.order or {"play-carico": "carico", "play-liscio": "liscio"}.get(
            talk.request or ""
        )
        if wish is None:
            return 0.0
        pts = r.tables.points[card]
        trump = card.suit is r.trump
        rank = r.tables.strength[card]
        fits = {
            "carico": not trump and pts >= 10,
            "liscio": not trump and pts == 0,
            "take": not trump and takes,
            "trump-high": trump and rank >= r.tables.top - 3,
            "trump-low": trump and pts == 0,
        }.get(wish, False)
        return 4.0 if fits else 0.0


# --------------------------------------------------------------------------- beginner


@register("beginner")
class Beginner:
    """A newcomer's play: greedy on the trick on the table, careless with trumps and
    points, and now and then a card at random."""

    BLUNDER = 0.12
    """The chance of a move at random."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        legal = view.legal
        if not legal:
            raise no_legal_action(view)
        if any(isinstance(a, Pass | Bid) for a in legal):
            mood = self.rng.choice((-1, 0, 0, 1))
            return rough_bid(view.hand, legal, mood, south_courts(view))
        if any(isinstance(a, Call) for a in legal):
            return rough_call(view.hand, legal)
        plays = plays_in(legal)
        if not plays:
            return legal[0]
        rng = self.rng
        for a in legal:
            if isinstance(a, Exchange) and rng.random() < 0.7:
                return a
        if rng.random() < self.BLUNDER:
            return rng.choice(plays)
        r = Reading(view)
        card = self.pick(r, [p.card for p in plays])
        return next(p for p in plays if p.card is card)

    def pick(self, r: Reading, cards: Sequence[Card]) -> Card:
        points = r.tables.points
        strength = r.tables.strength
        rng = self.rng

        def cheapest(cs: Sequence[Card]) -> Card:
            low = min(points[c] for c in cs)
            return rng.choice([c for c in cs if points[c] == low])

        if r.top is None:
            return cheapest(cards)  # whatever the suit: a low trump goes as readily
        if r.is_friend(r.top_seat) and r.top_seat != r.me:
            if rng.random() < 0.5:
                return max(cards, key=lambda c: points[c])  # load, whoever plays after
            return cheapest(cards)
        winners = [c for c in cards if beats(c, r.top, r.trump, strength)]
        if winners and (r.trick_points > 0 or rng.random() < 0.3):
            # Take it with the card that scores most now, trumps included.
            return max(winners, key=lambda c: (points[c], -strength[c]))
        return cheapest(cards)
