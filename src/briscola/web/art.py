"""The project's card art: every face of three styles, their backs and an empty place, as SVG.

Each picture is a standalone SVG document (viewBox ``0 0 240 360``) drawn here from shapes:
no fonts beyond ``sans-serif``, no images, no scripts, no reference outside the document.
Each draws its suit symbol once (``<defs>``) and places it with ``<use>``; the pips of a
number card are the ``<use class="pip">``, as many as its rank. The rank and suit are in
two opposite corners, and the suits differ by shape (and by the frame's breaks in the
Spanish style), so colour only helps.

- ``napoletane``: coppe, denari, spade, bastoni; fante, cavallo, re (corners A 2-7 F C R).
- ``spanish``: copas, oros, espadas, bastos; sota, caballo, rey (corners 1-7, S C R).
- ``french``: hearts, diamonds, spades, clubs; jack, queen, king (A 2-10 J Q K): every
  rank, so it draws the 40-card deck and Briškula's 32 cards (8, 9, 10) alike.

The Italian and Spanish styles draw the 40-card deck only: an 8, 9 or 10 is refused (the
client shows the 32-card deck in French faces).

>>> card_svg("napoletane", "Ab")[:38]
'<svg xmlns="http://www.w3.org/2000/svg'
>>> card_svg("spanish", "8b")
Traceback (most recent call last):
...
ValueError: 8b is not a card of the spanish style (the 40-card deck: ranks A 2 3 4 5 6 7 J Q \
K of suits c d s b); the 32-card deck with 8, 9 and 10 is drawn in the french style
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from briscola.engine.cards import ITALIAN_RANKS, Card, Rank, Suit, make_deck
from briscola.words.cards import letter

STYLES: tuple[str, ...] = ("napoletane", "spanish", "french")
"""The card styles, the client's default first."""

W, H = 240, 360
OPEN = (
    f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" '
    f'height="{H}" role="img">'
)
EDGE = f'<rect x="2" y="2" width="{W - 4}" height="{H - 4}" rx="16" fill="{{}}" stroke="#333" '
EDGE += 'stroke-width="3"/>'
SKIN = "#f3c9a0"
INK = "#222"

NUMBERS = {
    Rank.ACE: "Ace", Rank.TWO: "Two", Rank.THREE: "Three", Rank.FOUR: "Four",
    Rank.FIVE: "Five", Rank.SIX: "Six", Rank.SEVEN: "Seven", Rank.EIGHT: "Eight",
    Rank.NINE: "Nine", Rank.TEN: "Ten",
}  # fmt: skip
COURTS = (Rank.JACK, Rank.QUEEN, Rank.KING)

# -- suit symbols, each in a box from -50 to 50 ----------------------------------------------

CUP_IT = (
    '<path d="M-34-42h68c0 30-14 44-26 48v14c0 6 14 10 18 18v6h-52v-6c4-8 18-12 18-18v-14'
    'c-12-4-26-18-26-48z" fill="#e8b830"/><path d="M-34-42h68l-3 12h-62z" fill="#c0392b"/>'
    '<circle cy="14" r="7" fill="#c0392b"/>'
)
CUP_ES = (
    '<path d="M-40-30c0 28 20 40 32 42v10c-10 4-22 10-22 20h60c0-10-12-16-22-20v-10c12-2 '
    '32-14 32-42z" fill="#e0a526"/><ellipse cy="-30" rx="40" ry="10" fill="#b03020"/>'
    '<path d="M-30 0h60" fill="none"/>'
)
COIN_IT = (
    '<circle r="44" fill="#f0c419"/><circle r="32" fill="#e07020"/><g fill="#f7dc6f">'
    + "".join(f'<ellipse rx="7" ry="27" transform="rotate({a})"/>' for a in (0, 45, 90, 135))
    + '</g><circle r="7" fill="#c0392b"/>'
)
COIN_ES = (
    '<circle r="44" fill="#e6b422"/><circle r="33" fill="#f4d35e"/><circle r="16" '
    'fill="#c77d0a"/><path d="M0-31v11M0 20v11M-31 0h11M20 0h11M-22-22l8 8M14 14l8 8M22-22'
    'l-8 8M-14 14l-8 8" fill="none"/>'
)
SWORD_IT = (
    '<path d="M2-50c16 22 14 50 6 72h-14c6-22 8-46 8-72z" fill="#a9c4e0"/>'
    '<rect x="-22" y="22" width="44" height="7" rx="3" fill="#c0392b"/>'
    '<rect x="-5" y="29" width="10" height="13" fill="#e8b830"/>'
    '<circle cy="46" r="5" fill="#c0392b"/>'
)
SWORD_ES = (
    '<path d="M0-50l8 12v60h-16v-60z" fill="#d5dde5"/><path d="M0-36v56" fill="none"/>'
    '<rect x="-24" y="22" width="48" height="7" rx="3" fill="#2c5aa0"/>'
    '<circle cx="-24" cy="25" r="5" fill="#2c5aa0"/><circle cx="24" cy="25" r="5" '
    'fill="#2c5aa0"/><rect x="-5" y="29" width="10" height="13" fill="#b03020"/>'
    '<circle cy="46" r="5" fill="#2c5aa0"/>'
)
CLUB_IT = (
    '<path d="M-11-44c4-8 18-8 22 0l-5 86c-2 6-10 6-12 0z" fill="#4f8a34"/>'
    '<path d="M-10-22h20l-1 7h-18zM-8 10h16l-1 7h-14z" fill="#c0392b"/>'
)
CLUB_ES = (
    '<g fill="#9a6630"><circle cx="-13" cy="-18" r="6"/><circle cx="12" cy="-2" r="6"/>'
    '<circle cx="-10" cy="20" r="5"/></g><path d="M-14-42c4-10 24-10 28 0l-7 84c-2 6-12 6'
    '-14 0z" fill="#9a6630"/><path d="M-6-30l4 10M3 6l3 8" fill="none"/>'
)
RED, BLACK = "#cc1f1f", "#161616"
HEART = (
    '<path d="M0 44C-10 30-46 8-46-18c0-20 16-28 26-28 10 0 18 8 20 16 2-8 10-16 20-16 10 0 '
    f'26 8 26 28C46 8 10 30 0 44z" fill="{RED}" stroke="none"/>'
)
DIAMOND = (
    f'<path d="M0-48Q14-22 36 0 14 22 0 48-14 22-36 0-14-22 0-48z" fill="{RED}" stroke="none"/>'
)
SPADE = (
    '<path d="M0-46C-8-30-46-10-46 12c0 18 18 26 32 20 6-3 10-8 12-12L-10 46h20L2 20c2 4 6 '
    f'9 12 12 14 6 32-2 32-20C46-10 8-30 0-46z" fill="{BLACK}" stroke="none"/>'
)
CLUB = (
    f'<g fill="{BLACK}" stroke="none"><circle cy="-24" r="19"/><circle cx="-23" cy="8" r="19"/>'
    '<circle cx="23" cy="8" r="19"/><path d="M-8 0h16v-10h-16zM-3 8L-12 46h24L3 8z"/></g>'
)


@dataclass(frozen=True)
class Style:
    """What a style draws: its suits' names, symbols and inks, its ranks' names and corners."""

    key: str
    paper: str
    suits: dict[Suit, tuple[str, str, str]]  # name, symbol, ink of the corner
    courts: tuple[str, str, str]  # the names of J, Q, K
    corners: dict[Rank, str]
    ranks: tuple[Rank, ...]
    palette: dict[Suit, tuple[str, str]]  # the court figures' two colours
    long: frozenset[Suit] = frozenset({Suit.SPADE, Suit.BASTONI})  # tall symbols: crossed pips

    def rank_name(self, rank: Rank) -> str:
        return self.courts[COURTS.index(rank)] if rank in COURTS else NUMBERS[rank]


def corners(style: str) -> dict[Rank, str]:
    """A style's corners: each rank as the deck prints it, from the one table of the decks'
    letters (:func:`briscola.words.cards.letter`), which the words people read use too."""
    return {r: letter(r, style) for r in Rank}


ITALIAN_CORNERS = corners("napoletane")
SPANISH_CORNERS = corners("spanish")
FRENCH_CORNERS = corners("french")

STYLE = {
    "napoletane": Style(
        "napoletane",
        "#fffaf0",
        {
            Suit.COPPE: ("coppe", CUP_IT, "#a01818"),
            Suit.DENARI: ("denari", COIN_IT, "#8a5a00"),
            Suit.SPADE: ("spade", SWORD_IT, "#1f3f8a"),
            Suit.BASTONI: ("bastoni", CLUB_IT, "#2f6b1f"),
        },
        ("Fante", "Cavallo", "Re"),
        ITALIAN_CORNERS,
        ITALIAN_RANKS,
        {
            Suit.COPPE: ("#c0392b", "#e8b830"),
            Suit.DENARI: ("#e8b830", "#3a7d44"),
            Suit.SPADE: ("#2c5aa0", "#c0392b"),
            Suit.BASTONI: ("#3a7d44", "#c0392b"),
        },
    ),
    "spanish": Style(
        "spanish",
        "#fffdf7",
        {
            Suit.COPPE: ("copas", CUP_ES, "#a01818"),
            Suit.DENARI: ("oros", COIN_ES, "#8a5a00"),
            Suit.SPADE: ("espadas", SWORD_ES, "#1f3f8a"),
            Suit.BASTONI: ("bastos", CLUB_ES, "#6b3f12"),
        },
        ("Sota", "Caballo", "Rey"),
        SPANISH_CORNERS,
        ITALIAN_RANKS,
        {
            Suit.COPPE: ("#b03020", "#e0a526"),
            Suit.DENARI: ("#e0a526", "#2c5aa0"),
            Suit.SPADE: ("#2c5aa0", "#e0a526"),
            Suit.BASTONI: ("#3a7d44", "#b03020"),
        },
    ),
    "french": Style(
        "french",
        "#ffffff",
        {
            Suit.COPPE: ("hearts", HEART, RED),
            Suit.DENARI: ("diamonds", DIAMOND, RED),
            Suit.SPADE: ("spades", SPADE, BLACK),
            Suit.BASTONI: ("clubs", CLUB, BLACK),
        },
        ("Jack", "Queen", "King"),
        FRENCH_CORNERS,
        tuple(Rank),
        {
            Suit.COPPE: ("#cc1f1f", "#2c5aa0"),
            Suit.DENARI: ("#cc1f1f", "#e8b830"),
            Suit.SPADE: ("#2c5aa0", "#e8b830"),
            Suit.BASTONI: ("#3a7d44", "#cc1f1f"),
        },
        frozenset(),
    ),
}


def style_of(style: str) -> Style:
    """The :class:`Style` named ``style``; a ``ValueError`` naming the styles otherwise."""
    try:
        return STYLE[style]
    except (KeyError, TypeError):
        raise ValueError(
            f"{style!r} is not a card style: the styles are {', '.join(STYLES)}"
        ) from None


def cards(style: str) -> tuple[str, ...]:
    """The cards ``style`` draws, in the engine's notation and deck order: the 40-card deck
    for the Italian and Spanish styles, every rank (the 40 and the 32 cards) for French."""
    return tuple(str(c) for c in make_deck(style_of(style).ranks))


# -- placing the suit symbol -----------------------------------------------------------------


def put(x: float, y: float, scale: float, angle: float = 0, cls: str = "pip") -> str:
    """A ``<use>`` of the suit symbol centred at (x, y)."""
    turn = f" rotate({angle:g})" if angle else ""
    return (
        f'<use href="#s" class="{cls}" transform="translate({x:g} {y:g}){turn} scale({scale:g})"/>'
    )


Spot = tuple[float, float, float, float]  # x, y, angle, scale

L, M, R = 82, 120, 158  # the pips' columns
ROWS3 = (62, 180, 298)
ROWS4 = (62, 141, 219, 298)
SMALL = 0.42


def grid(rows: tuple[int, ...], cols: tuple[int, ...]) -> list[Spot]:
    return [(x, y, 0, SMALL) for y in rows for x in cols]


ROUND: dict[int, list[Spot]] = {
    2: grid((62, 298), (M,)),
    3: grid(ROWS3, (M,)),
    4: grid((62, 298), (L, R)),
    5: [*grid((62, 298), (L, R)), (M, 180, 0, SMALL)],
    6: grid(ROWS3, (L, R)),
    7: [*grid(ROWS3, (L, R)), (M, 121, 0, SMALL)],
    8: [*grid(ROWS3, (L, R)), (M, 121, 0, SMALL), (M, 239, 0, SMALL)],
    9: [*grid(ROWS4, (L, R)), (M, 180, 0, SMALL)],
    10: [*grid(ROWS4, (L, R)), (M, 101, 0, SMALL), (M, 259, 0, SMALL)],
}
"""Where the pips of coins, cups and the French suits go, as real decks lay them out."""

TILT, BIG, HALF, THIRD = 26, 2.2, 1.25, 0.95
CROSS: list[Spot] = [(M, 180, -TILT, BIG), (M, 180, TILT, BIG)]
CROSSES: list[Spot] = [(M, y, a, HALF) for y in (112, 248) for a in (-TILT, TILT)]


def crossed(y: float, upright: bool = False) -> list[Spot]:
    """A pair crossed in an X a third of the card high (with ``upright`` a third one
    through it), centred at height y."""
    return [(M, y, a, THIRD) for a in (-TILT, TILT, *((0,) if upright else ()))]


LONG: dict[int, list[Spot]] = {
    2: CROSS,
    3: [*CROSS, (M, 180, 0, BIG)],
    4: CROSSES,
    5: [*crossed(76), (M, 180, 0, THIRD), *crossed(284)],
    6: [*crossed(76), *crossed(180), *crossed(284)],
    7: [*crossed(76), *crossed(180, True), *crossed(284)],
}
"""Swords and batons cross each other, as the Italian and Spanish decks draw them."""


def pips(style: Style, card: Card) -> str:
    long = card.suit in style.long
    if card.rank is Rank.ACE:
        if long:
            return put(M, 180, 2.5)
        ring = '<circle cx="120" cy="180" r="84" fill="none" stroke-dasharray="3 7"/>'
        return ring + put(M, 180, 1.45 if style.key != "french" else 1.1)
    n = int(card.rank.value) if card.rank.value.isdigit() else 10
    spots = (LONG if long else ROUND)[n]
    flip = style.key == "french"  # the lower pips of a French card point down
    return "".join(put(x, y, k, 180 if flip and y > 180 else a) for x, y, a, k in spots)


# -- the corners and the frames --------------------------------------------------------------


def corner(style: Style, card: Card) -> str:
    """The rank and suit in the top left corner, as ``#ix``, and turned in the bottom right."""
    text = style.corners[card.rank]
    fit = ' textLength="46" lengthAdjust="spacingAndGlyphs"' if len(text) > 1 else ""
    ink = style.suits[card.suit][2]
    scale = 0.42 if card.suit in style.long else 0.3
    return (
        f'<g id="ix"><text x="30" y="56" text-anchor="middle" font-family="sans-serif" '
        f'font-weight="bold" font-size="50" fill="{ink}" stroke="none"{fit}>{text}</text>'
        f"{put(30, 86, scale, cls='ix')}</g>"
        f'<use href="#ix" transform="rotate(180 120 180)"/>'
    )


BREAKS = {Suit.DENARI: 0, Suit.COPPE: 1, Suit.SPADE: 2, Suit.BASTONI: 3}
"""The Spanish frame's breaks (la pinta): none for oros, one copas, two espadas, three bastos."""


def spanish_frame(suit: Suit) -> str:
    """The frame line of a Spanish card, broken at top and bottom as many times as its suit
    says, so that a glance at the edge names the suit."""
    x0, x1, y0, y1 = 60, 180, 14, 346
    n = BREAKS[suit]
    gap, seg = 10, (x1 - x0 - 10 * n) / (n + 1)
    edges = f"M{x0} {y0}V{y1}M{x1} {y0}V{y1}"
    for y in (y0, y1):
        for i in range(n + 1):
            start = x0 + i * (seg + gap)
            edges += f"M{start:g} {y}h{seg:g}"
    return f'<path d="{edges}" fill="none" stroke="#a01818" stroke-width="3"/>'


BACKDROP = '<rect x="60" y="14" width="120" height="332" fill="#fbf4e4" stroke="none"/>'
"""Behind a Spanish court figure, inside the frame line."""


def court_frame(fill: str) -> str:
    return f'<rect x="60" y="14" width="120" height="332" rx="6" fill="{fill}" stroke-width="2"/>'


# -- the court figures -----------------------------------------------------------------------


def held(style: Style, suit: Suit, x: float, y: float, long_scale: float = 0.9) -> str:
    """The suit symbol in a hand at (x, y): a sword or baton by its grip, a cup or coin
    above the hand."""
    if suit in style.long:
        return put(x, y - 32 * long_scale, long_scale, cls="held")
    return put(x, y - 24, 0.42, cls="held")


def face(x: float, y: float, r: float = 18) -> str:
    return (
        f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{SKIN}"/>'
        f'<g fill="{INK}" stroke="none"><circle cx="{x - 6:g}" cy="{y:g}" r="1.8"/>'
        f'<circle cx="{x + 6:g}" cy="{y:g}" r="1.8"/></g>'
        f'<path d="M{x - 5:g} {y + 9:g}q5 3 10 0" fill="none" stroke-width="1.5"/>'
    )


CROWN = '<path d="M{a} {b}l-2-24 10 12 10-18 10 18 10-12-2 24z" fill="#f0c419"/>'


def crown(x: float, y: float) -> str:
    return CROWN.format(a=f"{x - 18:g}", b=f"{y:g}")


def standing(style: Style, suit: Suit, a: str, b: str, king: bool) -> str:
    """A standing fante (sota), or with ``king`` a crowned re (rey) in a long robe."""
    if king:
        body = (
            f'<path d="M102 300h14v10h-18zM124 300h14l4 10h-18z" fill="{INK}"/>'
            f'<path d="M100 132h40l26 172h-92z" fill="{a}"/>'
            f'<path d="M100 132c-10 50-16 110-22 172h18c4-60 8-116 12-170z" fill="{b}"/>'
            '<path d="M96 128h48v14h-48z" fill="#fff"/>'
            f'<path d="M98 134l-12 62 10 3 12-56z" fill="{a}"/>'
        )
        head = (
            face(120, 108)
            + '<path d="M104 114c2 22 30 22 32 0-6 8-26 8-32 0z" fill="#8a6a4a"/>'
            + crown(120, 92)
        )
    else:
        hat = (
            f'<path d="M100 100c0-24 40-24 40 0z" fill="{b}"/>'
            f'<path d="M134 88c14-18 26-14 30-6-10-2-20 4-28 12z" fill="{a}"/>'
            if style.key == "napoletane"
            else f'<ellipse cx="120" cy="92" rx="26" ry="8" fill="{b}"/>'
        )
        body = (
            f'<path d="M104 232h12v74h-12zM124 232h12v74h-12z" fill="{b}"/>'
            f'<path d="M100 306h18v8h-22zM122 306h18l4 8h-22z" fill="{INK}"/>'
            f'<path d="M100 130h40l14 110h-68z" fill="{a}"/>'
            f'<rect x="90" y="190" width="60" height="8" fill="{b}"/>'
            '<path d="M106 126h28l-14 14z" fill="#fff"/>'
            f'<path d="M100 134l-16 52 10 4 14-42z" fill="{a}"/>'
        )
        head = face(120, 108) + hat
    arm = (
        f'<path d="M136 130l10-2 18 42-9 4z" fill="{a}"/>'
        f'<circle cx="160" cy="172" r="6" fill="{SKIN}"/>'
    )
    return body + head + arm + held(style, suit, 160, 172)


def rider(style: Style, suit: Suit, a: str, b: str) -> str:
    """The cavallo (caballo): a rider on a horse walking to the right."""
    horse, dark = "#b98a5a", "#6b4a2b"
    return (
        f'<path d="M66 222c-12 10-14 34-6 48 0-16 6-32 14-40z" fill="{dark}"/>'
        f'<path d="M74 236h10v64h-10zM92 244h10v56h-10zM128 244h10v56h-10zM144 236h10v64h-10z"'
        f' fill="{horse}"/><path d="M72 300h14v6h-14zM142 300h14v6h-14z" fill="{INK}"/>'
        f'<ellipse cx="112" cy="230" rx="46" ry="24" fill="{horse}"/>'
        f'<path d="M130 224l14-56 18-8 2 66z" fill="{horse}"/>'
        f'<path d="M150 150l4-12 6 10z" fill="{horse}"/>'
        f'<path d="M144 170l8-22 10 4 18 32c4 8-2 14-10 10l-14-8z" fill="{horse}"/>'
        f'<path d="M146 166l-12 54" fill="none" stroke="{dark}" stroke-width="6"/>'
        f'<circle cx="160" cy="166" r="2" fill="{INK}" stroke="none"/>'
        f'<path d="M88 208h46l-4 36h-38z" fill="{a}"/>'
        f'<path d="M104 150h30l6 62h-42z" fill="{a}"/>'
        f'<path d="M108 206h14l4 50h-12z" fill="{b}"/><path d="M112 256h16v7h-18z" fill="{INK}"/>'
        + face(118, 130, 16)
        + f'<path d="M100 122c0-22 36-22 36 0z" fill="{b}"/>'
        + f'<path d="M126 152l10 2 18-24-8-6z" fill="{a}"/><circle cx="150" cy="128" r="6" '
        f'fill="{SKIN}"/>' + held(style, suit, 150, 128, 0.8)
    )


def bust(style: Style, suit: Suit, rank: Rank, a: str, b: str) -> str:
    """Half a French court card, above the middle: a jack in a feathered cap, a queen in a
    small crown and veil, a king crowned and bearded; each holds its suit. The other half is
    the same turned round."""
    if rank is Rank.KING:
        top = '<path d="M102 98c2 22 34 22 36 0-6 8-30 8-36 0z" fill="#8a6a4a"/>' + crown(120, 76)
    elif rank is Rank.QUEEN:
        top = (
            f'<path d="M98 90c-6 20-8 50-14 66h12c2-20 4-44 6-62zM142 90c6 20 8 50 14 66h-12c-2'
            f'-20-4-44-6-62z" fill="{b}"/><path d="M106 74l-2-14 8 8 8-12 8 12 8-8-2 14z" '
            'fill="#f0c419"/><g fill="#f0c419"><circle cx="104" cy="59" r="3"/><circle cx="120"'
            ' cy="55" r="3"/><circle cx="136" cy="59" r="3"/></g>'
        )
    else:
        top = (
            f'<path d="M98 86c0-26 44-26 44 0z" fill="{b}"/>'
            f'<path d="M136 70c14-18 26-14 30-6-10-2-20 4-28 12z" fill="{a}"/>'
        )
    return (
        '<g id="half">'
        f'<path d="M74 180c0-34 10-62 46-64 36 2 46 30 46 64z" fill="{a}"/>'
        f'<path d="M100 118l20 62 20-62z" fill="{b}"/>'
        + face(120, 92, 20)
        + top
        + f'<circle cx="150" cy="156" r="6" fill="{SKIN}"/>'
        + (put(150, 136, 0.34, cls="held") if suit not in style.long else "")
        + put(80, 34, 0.2, cls="held")
        + '</g><use href="#half" transform="rotate(180 120 180)"/>'
        '<path d="M60 180h120" fill="none" stroke-width="2"/>'
    )


def court(style: Style, card: Card) -> str:
    a, b = style.palette[card.suit]
    if style.key == "french":
        return court_frame("#fdf6e3") + bust(style, card.suit, card.rank, a, b)
    figure = (
        rider(style, card.suit, a, b)
        if card.rank is Rank.QUEEN
        else standing(style, card.suit, a, b, card.rank is Rank.KING)
    )
    ground = '<path d="M66 316h108" fill="none" stroke-width="3"/>'
    frame = court_frame("#fdf1d6") if style.key == "napoletane" else BACKDROP
    return frame + ground + figure


# -- the documents ---------------------------------------------------------------------------


def document(title: str, paper: str, defs: str, body: str) -> str:
    return (
        f"{OPEN}<title>{title}</title><defs>{defs}</defs>{EDGE.format(paper)}"
        f'<g stroke="{INK}" stroke-width="3" stroke-linejoin="round">{body}</g></svg>'
    )


def card_title(style: str, card: str) -> str:
    """The card's name in English, as its SVG's ``<title>``: ``Cavallo of denari``."""
    st, c = style_of(style), face_card(style, card)
    return f"{st.rank_name(c.rank)} of {st.suits[c.suit][0]}"


def face_card(style: str, card: str) -> Card:
    """The card ``card`` names, when ``style`` draws it; a ``ValueError`` saying which cards
    the style draws otherwise."""
    st = style_of(style)
    ranks = " ".join(r.value for r in st.ranks)
    what = (
        f"the 40-card deck: ranks {ranks}" if st.key != "french" else f"ranks {ranks}"
    ) + " of suits c d s b"
    try:
        parsed = Card.parse(card)
    except ValueError:
        raise ValueError(
            f"{card!r} is not a card: write rank then suit, like 5b or Qd ({what})"
        ) from None
    if parsed.rank not in st.ranks:
        raise ValueError(
            f"{parsed} is not a card of the {st.key} style ({what}); the 32-card deck with 8,"
            " 9 and 10 is drawn in the french style"
        )
    return parsed


@functools.lru_cache(maxsize=512)
def card_svg(style: str, card: str) -> str:
    """The SVG document of ``card`` (``Ab``, ``Qd``, ``Ts``...) in ``style``."""
    st, c = style_of(style), face_card(style, card)
    drawing = court(st, c) if c.rank in COURTS else pips(st, c)
    if st.key == "spanish":
        drawing += spanish_frame(c.suit)
    symbol = f'<g id="s">{st.suits[c.suit][1]}</g>'
    return document(card_title(style, card), st.paper, symbol, drawing + corner(st, c))


BACKS: dict[str, Callable[[], tuple[str, str]]] = {
    "napoletane": lambda: (
        '<pattern id="p" width="20" height="20" patternUnits="userSpaceOnUse">'
        '<rect width="20" height="20" fill="#8b1a1a"/><path d="M10 1l9 9-9 9-9-9z" '
        'fill="#d4a72c"/><circle cx="10" cy="10" r="3" fill="#8b1a1a"/></pattern>',
        '<ellipse cx="120" cy="180" rx="54" ry="78" fill="#fffaf0"/>'
        '<ellipse cx="120" cy="180" rx="40" ry="62" fill="#8b1a1a"/>'
        '<path d="M120 132l12 36h-24zM120 228l12-36h-24z" fill="#d4a72c"/>',
    ),
    "spanish": lambda: (
        '<pattern id="p" width="24" height="24" patternUnits="userSpaceOnUse">'
        '<rect width="24" height="24" fill="#1d3f7a"/><circle cx="12" cy="12" r="8" '
        'fill="none" stroke="#e0a526" stroke-width="2"/><circle r="3" fill="#e0a526"/>'
        '<circle cx="24" cy="24" r="3" fill="#e0a526"/></pattern>',
        '<circle cx="120" cy="180" r="56" fill="#fffdf7"/>'
        '<circle cx="120" cy="180" r="42" fill="#1d3f7a"/>'
        '<circle cx="120" cy="180" r="20" fill="#e0a526"/>',
    ),
    "french": lambda: (
        '<pattern id="p" width="14" height="14" patternUnits="userSpaceOnUse">'
        '<rect width="14" height="14" fill="#23447a"/><path d="M0 0l14 14M14 0L0 14" '
        'stroke="#8fb0e0" stroke-width="1.5"/></pattern>',
        '<path d="M120 110l50 70-50 70-50-70z" fill="#ffffff"/>'
        '<path d="M120 130l36 50-36 50-36-50z" fill="#b8262b"/>',
    ),
}


@functools.lru_cache(maxsize=8)
def back_svg(style: str) -> str:
    """The SVG document of the back of a card of ``style``."""
    pattern, middle = BACKS[style_of(style).key]()
    body = f'<rect x="14" y="14" width="{W - 28}" height="{H - 28}" rx="8" fill="url(#p)"/>{middle}'
    return document(f"Back of a {style} card", STYLE[style].paper, pattern, body)


@functools.lru_cache(maxsize=1)
def slot_svg() -> str:
    """The SVG document of an empty place for a card: a dashed outline."""
    return (
        f'{OPEN}<title>Empty place</title><rect x="4" y="4" width="{W - 8}" '
        f'height="{H - 8}" rx="16" fill="none" stroke="#888" stroke-width="4" '
        'stroke-dasharray="16 10"/></svg>'
    )


def picture(style: str, name: str) -> str:
    """The SVG document named ``name`` in ``style``: a card (``Ab``), ``back`` or ``slot``."""
    if name == "back":
        return back_svg(style)
    if name == "slot":
        style_of(style)
        return slot_svg()
    return card_svg(style, name)


def pictures(style: str) -> tuple[str, ...]:
    """The names of every picture of ``style``: its cards, then ``back`` and ``slot``."""
    return (*cards(style), "back", "slot")
