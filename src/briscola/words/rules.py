"""The rules of a table in plain words, and the game's words, in four languages.

:func:`rules_text` says the whole rules of one table, each sentence a consequence of its
game and house rules as a new table takes them (read by :meth:`Rules.make`, so a bad rule
is the engine's error); :func:`words` gives the client the vocabulary: cards, games, house
rules and their choices. Every text is a key of the catalogues (:mod:`briscola.words.catalogue`:
a :class:`K` names a sentence, a :class:`P` a noun's forms after a number), said in the
language asked for. A game's, a house rule's and a choice's words are found by keys made
from the engine's registries (``game.KEY.name``, ``rule.NAME.title``,
``choice.NAME.VALUE``: :func:`game_words`, :func:`rule_words`, :func:`choice_label`), so
that a new game or house rule needs its words in the catalogues and nothing here but the
sentences that say what it does; the tables below say which sentence goes with which rule.

>>> said = rules_text("briscola-2", {"last_trick": "hidden"}, "en", trump_word="drumpf")
>>> [s.text for s in said if s.rule in ("last_trick", "follow_suit")]
['You need not follow suit nor play a drumpf card: you may play any card.', \
'Nobody may look at the last trick.']
>>> words("hr")["cards"]["napoletane"]["Ab"]
'as baštona'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from briscola.engine import GAMES, RULES, Card, Rank, Rules, Suit
from briscola.engine.chiamata import bid_ranks
from briscola.engine.house_rules import RuleValue
from briscola.words.cards import (
    STYLE_CARDS,
    STYLE_OF_DECK,
    STYLES,
    card_name,
    letters,
    rank_name,
    suit_name,
)
from briscola.words.catalogue import LANGUAGES, LanguageError, catalogue, check_language

__all__ = ["LANGUAGES", "LanguageError", "check_language", "rules_json", "rules_text", "words"]


@dataclass(frozen=True, slots=True)
class K:
    """A text of the catalogues, by its key, with ``{name}`` places filled by :meth:`say`;
    ``{trump}`` is the word for trump."""

    key: str

    def say(self, lang: str, **values: Any) -> str:
        return catalogue(lang).say(self.key, **values)


@dataclass(frozen=True, slots=True)
class P:
    """A noun's forms after a number, by its key (Croatian: one, few, many)."""

    key: str

    def of(self, lang: str, n: int) -> str:
        """The form that goes with ``n``.

        >>> HANDS.of("hr", 1), HANDS.of("hr", 3), HANDS.of("hr", 5), HANDS.of("en", 2)
        ('igru', 'igre', 'igara', 'hands')
        """
        return catalogue(lang).say(self.key, n=n)


T = K
"""A text: every one is in all four catalogues (tests/words/test_catalogue.py checks them)."""


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of a table's rules: its topic (``game``, ``deal``, ``play``,
    ``scoring``, ``match``, ``talk``), the house rule it comes from (``None``: the game
    itself), and its text."""

    topic: str
    rule: str | None
    text: str

    def to_json(self) -> dict[str, str | None]:
        return {"topic": self.topic, "rule": self.rule, "text": self.text}


# -- the game's words -----------------------------------------------------------------------

TRUMP = K("word.trump")
"""The word for trump, unless a family has its own."""

VOCABULARY: dict[str, T] = {
    "trump": TRUMP,
    "trick": K("word.trick"),
    "tricks": K("word.tricks"),
    "hand": K("word.hand"),
    "match": K("word.match"),
    "points": K("word.points"),
    "carico": K("word.carico"),
    "carichi": K("word.carichi"),
    "liscio": K("word.liscio"),
    "lisci": K("word.lisci"),
    "stock": K("word.stock"),
    "turned": K("word.turned"),
    "dealer": K("word.dealer"),
    "caller": K("word.caller"),
    "partner": K("word.partner"),
    "cappotto": K("word.cappotto"),
    "seat": K("word.seat"),
}
"""The words the interface names the game's things by."""


def game_words(key: str) -> tuple[T, T]:
    """A game's name and one-line summary: ``game.KEY.name``, ``game.KEY.summary`` (KEY
    the game's key in the engine's registry, :data:`briscola.engine.GAMES`)."""
    return K(f"game.{key}.name"), K(f"game.{key}.summary")


def rule_words(name: str) -> tuple[T, T]:
    """A house rule's title and one-line explanation: ``rule.NAME.title``,
    ``rule.NAME.help`` (NAME the rule's name in :data:`briscola.engine.RULES`)."""
    return K(f"rule.{name}.title"), K(f"rule.{name}.help")


YES_NO = ("no", "yes")
"""The values a rule that is on or off takes: said by the words ``word.no``, ``word.yes``."""


def rais_seats(value: RuleValue) -> tuple[int, int]:
    """The rais's seats of a ``rais`` value (``0-3``: the engine's seats, from 0) as a person
    counts them, from 1, like the interface.

    >>> rais_seats("0-3")
    (1, 4)
    """
    a, b = str(value).split("-")
    return int(a) + 1, int(b) + 1


def word_for_trump(lang: str, own: str | None = None) -> str:
    """The word for trump: the family's ``own``, said as it is written (it has no
    grammatical forms: a place asking for one gets the word itself), or else the
    language's, with its forms (a :class:`Worded`: ``{trump:gen}`` says Croatian
    "briškule").

    >>> word_for_trump("hr").form("gen"), word_for_trump("hr", " adut ")
    ('briškule', 'adut')
    """
    if own and own.strip():
        return own.strip()
    return catalogue(lang).word(TRUMP.key)


def choice_label(name: str, value: RuleValue, lang: str, trump: str | None = None) -> str:
    """The label of one value of a house rule (validated by the caller): a number,
    ``form.NAME.N``; a value of one of the rule's forms (``points:121``),
    ``form.NAME.points:N``; the rais's seats, ``form.rais.A-B``; one of the 2s, the card's
    name; yes or no, ``word.yes`` or ``word.no``; any other of the rule's choices,
    ``choice.NAME.VALUE``.

    >>> choice_label("match", "points:121", "it"), choice_label("removed_two", "2d", "es")
    ('punti da raggiungere: 121', 'dos de oros')
    >>> choice_label("cut", "cut", "en"), choice_label("throw_in", "yes", "hr")
    ("the player at the dealer's left cuts", 'da')
    """
    word = trump or word_for_trump(lang)
    text = str(value)
    if isinstance(value, int):
        return K(f"form.{name}.N").say(lang, n=value)
    if name == "rais":
        a, b = rais_seats(value)
        return K("form.rais.A-B").say(lang, a=a, b=b)
    if name == "removed_two" and text != "random":
        return card_name(Card.parse(text), "napoletane", lang)
    rule = RULES.get(name)
    form = next((f for f in rule.forms if f.read(value) is not None), None) if rule else None
    if form is not None:
        return K(f"form.{name}.{form.pattern}").say(lang, n=text.removeprefix(form.prefix))
    if text in YES_NO:
        return K(f"word.{text}").say(lang)
    return K(f"choice.{name}.{text}").say(lang, trump=word)


def words(lang: str, trump_word: str | None = None) -> dict[str, Any]:
    """The game's vocabulary in ``lang``, JSON-ready: the word for trump (``trump_word``
    if the family has its own) and the other words of the game, the suits, ranks and
    cards of each card style, each game's name, summary and house rules with their
    defaults, and each house rule's title, explanation and the labels of its choices."""
    lang = check_language(lang)
    trump = word_for_trump(lang, trump_word)
    vocab = {k: v.say(lang) for k, v in VOCABULARY.items()}
    vocab["trump"] = trump
    games = {}
    for key, game in GAMES.items():
        name, summary = game_words(key)
        base = Rules.make(game)
        games[key] = {
            "name": name.say(lang),
            "summary": summary.say(lang, trump=trump),
            "style": STYLE_OF_DECK[game.deck_name],
            "rules": {
                r: {
                    "default": base.option(r),
                    "label": choice_label(r, base.option(r), lang, trump),
                    "choices": list(game.allowed(r)),
                }
                for r in game.rules
            },
        }
    rules = {}
    for rname, rule in RULES.items():
        title, help_text = rule_words(rname)
        values: list[RuleValue] = list(rule.choices)
        if rname == "players":
            values = sorted({p for g in GAMES.values() for p in g.players})
        rules[rname] = {
            "title": title.say(lang),
            "help": help_text.say(lang, trump=trump),
            "default": rule.choices[0],
            "choices": [
                {
                    "value": v,
                    "label": choice_label(rname, v, lang, trump),
                    "default": v == rule.choices[0],
                }
                for v in values
            ],
            "patterns": {
                f.pattern: K(f"form.{rname}.{f.pattern}").say(lang, n="{n}") for f in rule.forms
            },
        }
    return {
        "lang": lang,
        "trump": trump,
        "words": vocab,
        "suits": {s: {suit.value: suit_name(suit, s, lang) for suit in Suit} for s in STYLES},
        "ranks": {s: {r.value: rank_name(r, s, lang) for r in Rank} for s in STYLES},
        "letters": {s: letters(s) for s in STYLES},
        "cards": {s: {str(c): card_name(c, s, lang) for c in STYLE_CARDS[s]} for s in STYLES},
        "games": games,
        "rules": rules,
    }


# -- the rules in plain words ---------------------------------------------------------------

HANDS = P("n.hands")  # fmt: skip
"""Hands after a number (Croatian: as an object, "dobije 3 igre")."""
POINTS = P("n.points")  # fmt: skip
CARDS = P("n.cards")  # fmt: skip

S = K  # a sentence's text: a K whose places the rules fill


GAME = K("rules.game")
SEAT_ALONE = K("rules.seat_alone")
SEAT_PAIRS = K("rules.seat_pairs")
SEAT_SIX = K("rules.seat_six")
SEAT_CHIAMATA = K("rules.seat_chiamata")
DIRECTION = {
    "right": K("rules.direction.right"),
    "left": K("rules.direction.left"),
}
PARTNERS = {
    "seated": K("rules.partners.seated"),
    "drawn": K("rules.partners.drawn"),
}
DECKS = {
    "italian-40": K("rules.decks.italian-40"),
    "spanish-40": K("rules.decks.spanish-40"),
    "french-32": K("rules.decks.french-32"),
}  # fmt: skip
DECK = K("rules.deck")  # fmt: skip
NO_TWOS = K("rules.no_twos")
REMOVED_TWO = K("rules.removed_two")
REMOVED_RANDOM = K("rules.removed_random")
CUT = {
    "none": K("rules.cut.none"),
    "cut": K("rules.cut.cut"),
}
DEAL = K("rules.deal")
DEAL_ALL = K("rules.deal_all")
TURNED = K("rules.turned")
NO_TRUMP = K("rules.no_trump")
HIGH = {
    False: K("rules.high.false"),
    True: K("rules.high.true"),
}  # fmt: skip
"""The two strongest ranks, in the 40-card decks and in the 32 (True)."""
TURNED_HIGH = {
    "stays": K("rules.turned_high.stays"),
    "reshuffle": K("rules.turned_high.reshuffle"),
}
OPEN_HANDS = K("rules.open_hands")
LEAD = {
    "dealer-right": K("rules.lead.dealer-right"),
    "caller": K("rules.lead.caller"),
}
FOLLOW = {
    "free": K("rules.follow.free"),
    "free-no-trump": K("rules.follow.free-no-trump"),
    "required": K("rules.follow.required"),
}
TAKES = K("rules.takes")
TAKES_NO_TRUMP = K("rules.takes_no_trump")
TWICE = K("rules.twice")
ORDER = K("rules.order")
POINT_VALUES = K("rules.point_values")
DRAW = K("rules.draw")
DRAW_TWICE = K("rules.draw_twice")
DRAW_PLAIN = K("rules.draw_plain")
UNEVEN = K("rules.uneven")
EXCHANGE = {
    "none": K("rules.exchange.none"),
    "two": K("rules.exchange.two"),
    "seven": K("rules.exchange.seven"),
    "seven-or-two": K("rules.exchange.seven-or-two"),
}
TIMING = {
    "on-turn": K("rules.timing.on-turn"),
    "after-win": K("rules.timing.after-win"),
}
LAST_TRICK = {
    "allowed": K("rules.last_trick.allowed"),
    "hidden": K("rules.last_trick.hidden"),
}
SHOW_PARTNER = {
    "no": K("rules.show_partner.no"),
    "yes": K("rules.show_partner.yes"),
}
COUNT = {
    True: K("rules.count.true"),
    False: K("rules.count.false"),
}
WIN_61 = K("rules.win_61")
WIN_MOST = K("rules.win_most")
SIXTY_TWO = {
    "tie": K("rules.sixty_two.tie"),
    "replay": K("rules.sixty_two.replay"),
    "last-trick": K("rules.sixty_two.last-trick"),
}
SIXTY_MANY = {
    "tie": K("rules.sixty_many.tie"),
    "replay": K("rules.sixty_many.replay"),
    "last-trick": K("rules.sixty_many.last-trick"),
}
CAPPOTTO = {
    ("nothing", True): K("rules.cappotto.nothing.true"),
    ("double", True): K("rules.cappotto.double.true"),
    ("nothing", False): K("rules.cappotto.nothing.false"),
    ("double", False): K("rules.cappotto.double.false"),
}
"""Cappotto, in a match that counts won hands (True) or not (points, one hand)."""
MATCH = {
    "best-of-3": K("rules.match.best-of-3"),
    "best-of-5": K("rules.match.best-of-5"),
    "one-hand": K("rules.match.one-hand"),
    "hands": K("rules.match.hands"),
    "points": K("rules.match.points"),
}
TARGET = {
    "points": K("rules.target.points"),
    "hands": K("rules.target.hands"),
}
AUCTION = K("rules.auction")
AUCTION_POINTS = K("rules.auction_points")
THROW_IN = {
    "no": K("rules.throw_in.no"),
    "yes": K("rules.throw_in.yes"),
}
CALL = K("rules.call")
SECRET = K("rules.secret")
CALLER_WINS = K("rules.caller_wins")
CALL_SCORE = K("rules.call_score")
MULTIPLIERS = {
    "none": K("rules.multipliers.none"),
    "high-bids": K("rules.multipliers.high-bids"),
}
NO_CHANNEL = K("rules.no_channel")
COMMUNICATION_NONE = K("rules.communication_none")
SIGNALS = K("rules.signals")
SIGNS = K("rules.signs")
AUDIENCE = {
    "partner": K("rules.audience.partner"),
    "table": K("rules.audience.table"),
    "spotted": K("rules.audience.spotted"),
}
SPOT = K("rules.spot")
TOP = {
    False: K("rules.top.false"),
    True: K("rules.top.true"),
}  # fmt: skip
"""The two trumps the conversation never asks about."""
WHOM = {
    False: K("rules.whom.false"),
    True: K("rules.whom.true"),
}  # fmt: skip
CONVERSATION = K("rules.conversation")
QUESTIONS = K("rules.questions")
ORDERS = K("rules.orders")
RAIS_SEATS = K("rules.rais_seats")
RAIS_TALK = K("rules.rais_talk")
RAIS_LOOK = K("rules.rais_look")


def rules_json(
    game: str, rules: Mapping[str, object], lang: str, trump_word: str | None = None
) -> dict[str, Any]:
    """A table's rules in plain words as JSON: its game, the language, every house rule
    with its value (defaults filled in), and the sentences (see :func:`rules_text`)."""
    lang = check_language(lang)
    table = Rules.make(game, rules)
    return {
        "game": table.key,
        "lang": lang,
        "rules": dict(table.options),
        "sentences": [s.to_json() for s in rules_text(game, rules, lang, trump_word)],
    }


class _Said:
    """The sentences of one table's rules, as they are said."""

    def __init__(self, rules: Rules, lang: str, trump: str) -> None:
        self.rules, self.lang, self.trump = rules, lang, trump
        self.style = STYLE_OF_DECK[rules.game.deck_name]
        self.out: list[Sentence] = []

    def __call__(self, topic: str, rule: str | None, text: S, **values: object) -> None:
        self.out.append(Sentence(topic, rule, text.say(self.lang, trump=self.trump, **values)))

    def rank(self, rank: Rank) -> str:
        return rank_name(rank, self.style, self.lang)

    def ranks(self, ranks: Sequence[Rank]) -> str:
        return ", ".join(self.rank(r) for r in ranks)

    def card(self, card: Card) -> str:
        return card_name(card, self.style, self.lang)


def _strongest_first(rules: Rules) -> list[Rank]:
    """The ranks of the table's deck, strongest first (the engine's order)."""
    ranks = {c.rank for c in rules.deck}
    return sorted(ranks, key=lambda r: rules.strength[Card(r, Suit.COPPE)], reverse=True)


def rules_text(
    game: str, rules: Mapping[str, object], lang: str, trump_word: str | None = None
) -> list[Sentence]:
    """The whole rules of a table of ``game`` with house ``rules`` (the others at their
    defaults), in plain words in ``lang``, in order: the players and seats, the deck and
    the deal, the play, the scoring, the match, and what partners may tell each other.
    ``trump_word`` is the family's own word for trump.

    :raises BriscolaError: for a language, game or house rule there is not (the engine's
        own message, naming the choices).
    """
    lang = check_language(lang)
    table = Rules.make(game, rules)
    say = _Said(table, lang, word_for_trump(lang, trump_word))
    _game(say)
    _deal(say)
    _play(say)
    _scoring(say)
    _match(say)
    _talk(say)
    return say.out


def _game(say: _Said) -> None:
    r = say.rules
    g = r.game
    name, summary = game_words(g.key)
    say("game", None, GAME, name=name.say(say.lang), summary=summary.say(say.lang, trump=say.trump))
    if "teams" in g.rules and r.players in g.teams_at:
        tag: str | None = "teams"
    else:
        tag = "players" if "players" in g.rules else None
    if g.key == "chiamata":
        say("game", tag, SEAT_CHIAMATA)
    elif not r.teams:
        say("game", tag, SEAT_ALONE, n=r.players)
    else:
        say("game", tag, SEAT_PAIRS if r.players == 4 else SEAT_SIX)
    say("game", "direction", DIRECTION[r.direction])
    if r.teams:
        say("game", "partners", PARTNERS["drawn" if r.partners_drawn else "seated"],
            k=len(r.sides[0]))  # fmt: skip


def _deal(say: _Said) -> None:
    r = say.rules
    g = r.game
    say("deal", None, DECK, deck=DECKS[g.deck_name].say(say.lang))
    in_play = len(r.deck) - len(r.removals[0])
    if g.removed:
        say("deal", None, NO_TWOS, n=in_play)
    if "removed_two" in g.rules:
        if len(r.removals) > 1:
            say("deal", "removed_two", REMOVED_RANDOM, n=in_play)
        else:
            (two,) = r.removals[0]
            say("deal", "removed_two", REMOVED_TWO, card=say.card(two), n=in_play)
    if "cut" in g.rules:
        say("deal", "cut", CUT["cut" if r.cut else "none"])
    if g.key == "chiamata":
        say("deal", None, DEAL_ALL)
        return
    size = g.hand_size
    say("deal", None, DEAL, n=size, cards=CARDS.of(say.lang, size))
    if not g.turned_trump:
        say("deal", None, NO_TRUMP)
        return
    say("deal", None, TURNED)
    if "turned_high" in g.rules:
        high = HIGH[g.deck_name == "french-32"].say(say.lang)
        say(
            "deal", "turned_high", TURNED_HIGH["reshuffle" if r.turned_back else "stays"], high=high
        )
    if g.open_hands:
        say("deal", None, OPEN_HANDS)


def _play(say: _Said) -> None:
    r = say.rules
    g = r.game
    if g.key == "chiamata":
        _auction(say)
    else:
        say("play", None, LEAD["dealer-right"])
    if "follow_suit" in g.rules:
        follow = "required" if r.follow_suit else "free" if g.turned_trump else "free-no-trump"
        say("play", "follow_suit", FOLLOW[follow])
    if g.rounds > 1:
        say("play", None, TWICE)
    say("play", None, TAKES if g.turned_trump or g.key == "chiamata" else TAKES_NO_TRUMP)
    order = _strongest_first(r)
    say("play", "court_order", ORDER, order=say.ranks(order))
    points = [(rank, r.points[Card(rank, Suit.COPPE)]) for rank in order]
    listed = ", ".join(f"{say.rank(rank)} {p}" for rank, p in points if p)
    total = sum(r.points[c] for c in r.deck)
    say("play", "court_order", POINT_VALUES, points=listed, total=total)
    if g.key != "chiamata":
        _drawing(say)
    if "trump_exchange" in g.rules:
        higher = [rank for rank in order if r.strength[Card(rank, Suit.COPPE)]
                  > r.strength[Card(Rank.SEVEN, Suit.COPPE)]]  # fmt: skip
        say("play", "trump_exchange", EXCHANGE[r.exchange], higher=say.ranks(higher))
        if r.exchange != "none":
            say(
                "play",
                "exchange_timing",
                TIMING["after-win" if r.exchange_after_win else "on-turn"],
            )
    say("play", "last_trick", LAST_TRICK["allowed" if r.last_trick_allowed else "hidden"])
    if r.teams:
        say("play", "show_partner_hands", SHOW_PARTNER["yes" if r.show_partner_hands else "no"])


def _drawing(say: _Said) -> None:
    r = say.rules
    g = r.game
    if not g.turned_trump:
        say("play", None, DRAW_PLAIN)
    else:
        say("play", None, DRAW_TWICE if g.rounds > 1 else DRAW)
    stock = len(r.deck) - len(r.removals[0]) - r.players * g.hand_size
    if stock % (r.players * g.rounds):
        say("play", None, UNEVEN)


def _auction(say: _Said) -> None:
    r = say.rules
    say("play", None, AUCTION, order=say.ranks(bid_ranks(r)))
    say("play", None, AUCTION_POINTS)
    say("play", "throw_in", THROW_IN[str(r.option("throw_in"))])
    say("play", None, CALL)
    say("play", None, SECRET)
    say("play", "leader", LEAD[str(r.option("leader"))])


def _scoring(say: _Said) -> None:
    r = say.rules
    g = r.game
    if g.key == "chiamata":
        say("scoring", None, CALLER_WINS)
        say("scoring", None, CALL_SCORE)
        say("scoring", "multipliers", MULTIPLIERS[str(r.option("multipliers"))])
        return
    say("scoring", None, COUNT[r.teams])
    two_sides = len(r.sides) == 2
    say("scoring", None, WIN_61 if two_sides else WIN_MOST)
    tie = "replay" if r.tie_replayed else "last-trick" if r.tie_to_last_trick else "tie"
    say("scoring", "sixty_sixty", (SIXTY_TWO if two_sides else SIXTY_MANY)[tie])
    counts_hands = r.target[0] == "hands"
    say("scoring", "cappotto", CAPPOTTO[("double" if r.cappotto_double else "nothing",
                                         counts_hands)])  # fmt: skip


def _match(say: _Said) -> None:
    r = say.rules
    lang = say.lang
    kind, n = r.target
    if "target" in r.game.rules:
        say(
            "match", "target", TARGET[kind], n=n, points=POINTS.of(lang, n), hands=HANDS.of(lang, n)
        )
        return
    fixed = MATCH.get(r.target_rule)
    if fixed is not None:
        say("match", "match", fixed)
    else:
        say("match", "match", MATCH[kind], n=n, points=POINTS.of(lang, n), hands=HANDS.of(lang, n))


def _talk(say: _Said) -> None:
    r = say.rules
    g = r.game
    lang = say.lang
    if g.key == "chiamata":
        say("talk", None, NO_CHANNEL)
        return
    if "communication" in g.rules:
        mode = str(r.option("communication"))
    else:
        mode = "schembil" if "rais" in g.rules else "none"
    if not r.teams:
        return
    order = _strongest_first(r)
    lisci = [rank for rank in order if rank in r.low_trumps]
    if mode == "none":
        say("talk", "communication", COMMUNICATION_NONE)
    elif mode == "signals":
        honours = [r.signal_ranks[s] for s in ("ace", "three", "king", "queen", "jack")]
        say("talk", "communication", SIGNALS, honours=say.ranks(honours), low=say.ranks(lisci))
        say(
            "talk",
            "communication",
            SIGNS,
            **{s: say.rank(r.signal_ranks[s]) for s in ("ace", "three", "king", "queen", "jack")},
        )
        audience = str(r.option("signal_audience"))
        say("talk", "signal_audience", AUDIENCE[audience])
        if audience == "spotted":
            say("talk", "spot_chance", SPOT, n=r.option("spot_chance"))
    else:
        if mode == "schembil":
            a, b = rais_seats(r.option("rais"))
            say("talk", "rais", RAIS_SEATS, a=a, b=b)
            say("talk", None, RAIS_TALK)
        else:
            say("talk", "communication", CONVERSATION, whom=WHOM[r.players > 4].say(lang))
        top = HIGH[g.deck_name == "french-32"].say(lang)
        vestite = [rank for rank in order if rank in (Rank.KING, Rank.QUEEN, Rank.JACK)]
        briscoline = [rank for rank in order if rank in r.briscoline]
        say(
            "talk",
            "communication" if mode != "schembil" else None,
            QUESTIONS,
            low=say.ranks(briscoline),
            dressed=say.ranks(vestite),
            top=TOP[g.deck_name == "french-32"].say(lang),
            big=top,
        )
        if mode != "schembil":
            say("talk", "communication", ORDERS)
        else:
            say("talk", None, RAIS_LOOK)
