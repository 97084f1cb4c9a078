"""The rules of a table in plain words, and the game's words, in four languages.

:func:`rules_text` says the whole rules of one table, each sentence a consequence of its
game and house rules as a new table takes them (read by :meth:`Rules.make`, so a bad rule
is the engine's error); :func:`words` gives the client the vocabulary: cards, games, house
rules and their choices. Every text is a :class:`T`, which cannot be made without all four
languages.

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
from briscola.engine.cards import FRENCH_32, ITALIAN_40
from briscola.engine.chiamata import bid_ranks
from briscola.engine.errors import BriscolaError, shown
from briscola.engine.house_rules import RuleValue

LANGUAGES = ("it", "en", "es", "hr")
"""Italian, English, Spanish, Croatian."""

STYLES = ("napoletane", "spanish", "french")
"""The card faces a player may choose."""

STYLE_OF_DECK = {"italian-40": "napoletane", "spanish-40": "spanish", "french-32": "french"}
"""The faces a game's own deck is named by in its rules."""


class LanguageError(BriscolaError):
    """A language the interface does not speak."""


def check_language(lang: object) -> str:
    """``lang`` if it is one of :data:`LANGUAGES`, else a :class:`LanguageError`."""
    if isinstance(lang, str) and lang.strip().lower() in LANGUAGES:
        return lang.strip().lower()
    raise LanguageError(f"there is no language {shown(lang)}: choose one of {', '.join(LANGUAGES)}")


@dataclass(frozen=True, slots=True)
class T:
    """One text in the four languages (all four are needed to make one), with ``{name}``
    places filled by :meth:`say`; ``{trump}`` is the word for trump."""

    it: str
    en: str
    es: str
    hr: str

    def say(self, lang: str, **values: object) -> str:
        text: str = getattr(self, lang)
        return text.format(**values)


@dataclass(frozen=True, slots=True)
class N:
    """A noun's forms after a number: one and many (Croatian: one, few, many)."""

    it: tuple[str, str]
    en: tuple[str, str]
    es: tuple[str, str]
    hr: tuple[str, str, str]

    def of(self, lang: str, n: int) -> str:
        """The form that goes with ``n``.

        >>> HANDS.of("hr", 1), HANDS.of("hr", 3), HANDS.of("hr", 5), HANDS.of("en", 2)
        ('ruku', 'ruke', 'ruku', 'hands')
        """
        forms: tuple[str, ...] = getattr(self, lang)
        if lang == "hr":
            if n % 10 == 1 and n % 100 != 11:
                return forms[0]
            if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
                return forms[1]
            return forms[2]
        return forms[0] if n == 1 else forms[1]


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

TRUMP = T(it="briscola", en="trump", es="triunfo", hr="briškula")
"""The word for trump, unless a family has its own."""

VOCABULARY: dict[str, T] = {
    "trump": TRUMP,
    "trick": T(it="presa", en="trick", es="baza", hr="štih"),
    "tricks": T(it="prese", en="tricks", es="bazas", hr="štihovi"),
    "hand": T(it="mano", en="hand", es="mano", hr="ruka"),
    "match": T(it="partita", en="match", es="partida", hr="partija"),
    "points": T(it="punti", en="points", es="puntos", hr="bodovi"),
    "carico": T(it="carico", en="carico", es="carga", hr="jaka karta"),
    "carichi": T(it="carichi", en="carichi", es="cargas", hr="jake karte"),
    "liscio": T(it="liscio", en="liscio", es="blanca", hr="prazna karta"),
    "lisci": T(it="lisci", en="lisci", es="blancas", hr="prazne karte"),
    "stock": T(it="mazzo", en="stock", es="mazo", hr="špil"),
    "turned": T(it="carta girata", en="turned card", es="carta vuelta", hr="okrenuta karta"),
    "dealer": T(it="mazziere", en="dealer", es="el que reparte", hr="djelitelj"),
    "caller": T(it="chiamante", en="caller", es="el que llama", hr="onaj koji zove"),
    "partner": T(it="compagno", en="partner", es="compañero", hr="suigrač"),
    "cappotto": T(it="cappotto", en="cappotto", es="capote", hr="kapot"),
    "seat": T(it="posto", en="seat", es="puesto", hr="mjesto"),
}
"""The words the interface names the game's things by."""

_NUMBERS = {
    Rank.ACE: T(it="asso", en="ace", es="as", hr="as"),
    Rank.TWO: T(it="due", en="two", es="dos", hr="dvica"),
    Rank.THREE: T(it="tre", en="three", es="tres", hr="trica"),
    Rank.FOUR: T(it="quattro", en="four", es="cuatro", hr="četvorka"),
    Rank.FIVE: T(it="cinque", en="five", es="cinco", hr="petica"),
    Rank.SIX: T(it="sei", en="six", es="seis", hr="šestica"),
    Rank.SEVEN: T(it="sette", en="seven", es="siete", hr="sedmica"),
    Rank.EIGHT: T(it="otto", en="eight", es="ocho", hr="osmica"),
    Rank.NINE: T(it="nove", en="nine", es="nueve", hr="devetka"),
    Rank.TEN: T(it="dieci", en="ten", es="diez", hr="desetka"),
}
_LATIN_COURTS = {
    Rank.JACK: T(it="fante", en="knave", es="sota", hr="fanat"),
    Rank.QUEEN: T(it="cavallo", en="knight", es="caballo", hr="konj"),
    Rank.KING: T(it="re", en="king", es="rey", hr="kralj"),
}
_FRENCH_COURTS = {
    Rank.JACK: T(it="fante", en="jack", es="jota", hr="dečko"),
    Rank.QUEEN: T(it="donna", en="queen", es="reina", hr="dama"),
    Rank.KING: T(it="re", en="king", es="rey", hr="kralj"),
}
RANKS: dict[str, dict[Rank, T]] = {
    "napoletane": {**_NUMBERS, **_LATIN_COURTS},
    "spanish": {**_NUMBERS, **_LATIN_COURTS},
    "french": {**_NUMBERS, **_FRENCH_COURTS},
}
"""The name of each rank, by card style."""

SUITS: dict[str, dict[Suit, T]] = {
    "napoletane": {
        Suit.COPPE: T(it="coppe", en="cups", es="copas", hr="kupe"),
        Suit.DENARI: T(it="denari", en="coins", es="oros", hr="dinari"),
        Suit.SPADE: T(it="spade", en="swords", es="espadas", hr="špade"),
        Suit.BASTONI: T(it="bastoni", en="batons", es="bastos", hr="baštoni"),
    },
    "spanish": {
        Suit.COPPE: T(it="coppe", en="cups", es="copas", hr="kupe"),
        Suit.DENARI: T(it="denari", en="coins", es="oros", hr="dinari"),
        Suit.SPADE: T(it="spade", en="swords", es="espadas", hr="špade"),
        Suit.BASTONI: T(it="bastoni", en="clubs", es="bastos", hr="baštoni"),
    },
    "french": {
        Suit.COPPE: T(it="cuori", en="hearts", es="corazones", hr="herc"),
        Suit.DENARI: T(it="quadri", en="diamonds", es="diamantes", hr="karo"),
        Suit.SPADE: T(it="picche", en="spades", es="picas", hr="pik"),
        Suit.BASTONI: T(it="fiori", en="clubs", es="tréboles", hr="tref"),
    },
}
"""The name of each suit, by card style."""

_HR_SUIT_OF = {"kupe": "kupa", "dinari": "dinara", "špade": "špada", "baštoni": "baštona"}
"""Croatian names a card by its suit in the genitive: as kupa, fanat baštona (the French
suits do not change: as herc)."""

CARD_NAME = T(
    it="{rank} di {suit}", en="{rank} of {suit}", es="{rank} de {suit}", hr="{rank} {suit}"
)

STYLE_CARDS = {
    "napoletane": ITALIAN_40,
    "spanish": ITALIAN_40,
    "french": ITALIAN_40 + tuple(c for c in FRENCH_32 if c not in ITALIAN_40),
}
"""The cards each style names: the French faces serve the 40-card games and Briškula's 32."""


def card_name(card: Card, style: str, lang: str) -> str:
    """A card's name in a style's words: ``asso di bastoni``, ``as baštona``."""
    suit = SUITS[style][card.suit].say(lang)
    if lang == "hr":
        suit = _HR_SUIT_OF.get(suit, suit)
    return CARD_NAME.say(lang, rank=RANKS[style][card.rank].say(lang), suit=suit)


GAME_WORDS: dict[str, tuple[T, T]] = {
    "briscola-2": (
        T(it="Briscola", en="Briscola", es="Briscola", hr="Briškula"),
        T(
            it="il gioco base, uno contro uno",
            en="the core game, head to head",
            es="el juego básico, uno contra uno",
            hr="osnovna igra, jedan na jedan",
        ),
    ),
    "briscola-3": (
        T(it="Briscola a 3", en="Briscola for three", es="Briscola a tres", hr="Briškula u troje"),
        T(
            it="tre giocatori, ognuno per sé; si toglie un due",
            en="three players, each alone; one 2 leaves the deck",
            es="tres jugadores, cada uno por su cuenta; se quita un dos",
            hr="tri igrača, svatko za sebe; jedna dvica se vadi iz špila",
        ),
    ),
    "briscola-4": (
        T(it="Briscola a coppie", en="Briscola in pairs", es="Briscola por parejas",
          hr="Briškula u parovima"),
        T(
            it="quattro giocatori in due coppie, i compagni uno di fronte all'altro",
            en="four players in two pairs, partners opposite",
            es="cuatro jugadores en dos parejas, los compañeros enfrentados",
            hr="četiri igrača u dva para, suigrači jedan nasuprot drugome",
        ),
    ),
    "briscola-6": (
        T(it="Briscola a 6", en="Briscola for six", es="Briscola a seis", hr="Briškula u šestero"),
        T(
            it="sei giocatori in due squadre di tre, alternate intorno al tavolo; si tolgono "
            "i quattro due",
            en="six players in two teams of three, alternating round the table; the four 2s "
            "leave the deck",
            es="seis jugadores en dos equipos de tres, alternados alrededor de la mesa; se "
            "quitan los cuatro doses",
            hr="šest igrača u dvije ekipe po tri, naizmjence oko stola; četiri dvice se vade "
            "iz špila",
        ),
    ),
    "schembil": (
        T(it="Schembil", en="Schembil", es="Schembil", hr="Schembil"),
        T(
            it="la briscola a 6 in cui il capitano di ogni squadra, il rais, fa domande e dà "
            "ordini, e a mazzo finito può guardare le carte di un compagno",
            en="Briscola for six where each team's captain, the rais, asks and orders, and "
            "may look at a partner's hand once the stock is exhausted",
            es="la briscola a seis en la que el capitán de cada equipo, el rais, pregunta y "
            "manda, y acabado el mazo puede mirar las cartas de un compañero",
            hr="briškula u šestero u kojoj kapetan svake ekipe, rais, pita i naređuje, a kad "
            "špila nestane smije pogledati karte jednog suigrača",
        ),
    ),
    "chiamata": (
        T(it="Briscola chiamata", en="Briscola chiamata", es="Briscola llamada",
          hr="Zvana briškula"),
        T(
            it="cinque giocatori: un'asta, una carta chiamata e un compagno segreto",
            en="five players: an auction, a called card and a secret partner",
            es="cinco jugadores: una subasta, una carta llamada y un compañero secreto",
            hr="pet igrača: licitacija, zvana karta i tajni suigrač",
        ),
    ),
    "scoperta": (
        T(it="Briscola scoperta", en="Open Briscola", es="Briscola descubierta",
          hr="Otvorena briškula"),
        T(
            it="uno contro uno, con le carte in mano e la prima del mazzo scoperte",
            en="head to head, with hands and the top of the stock face up",
            es="uno contra uno, con las manos y la primera carta del mazo boca arriba",
            hr="jedan na jedan, s otvorenim kartama u ruci i otvorenom gornjom kartom špila",
        ),
    ),
    "briscolone": (
        T(it="Briscolone", en="Briscolone", es="Briscolone", hr="Briscolone"),
        T(
            it="cinque carte a testa, senza {trump}; la partita va a punti",
            en="five cards each, no {trump}; a match runs to a points target",
            es="cinco cartas cada uno, sin {trump}; la partida va a puntos",
            hr="pet karata svakom, bez boje koja je {trump}; partija ide na bodove",
        ),
    ),
    "brisca": (
        T(it="Brisca", en="Brisca", es="Brisca", hr="Brisca"),
        T(
            it="il gioco spagnolo, in 2 o in 4 a coppie, con lo scambio della carta girata",
            en="the Spanish game, for 2 or for 4 in pairs, with the exchange of the turned card",
            es="el juego español, para 2 o para 4 por parejas, con el cambio de la carta vuelta",
            hr="španjolska igra, za 2 ili za 4 u parovima, sa zamjenom okrenute karte",
        ),
    ),
    "briskula": (
        T(it="Briškula", en="Briškula", es="Briškula", hr="Briškula"),
        T(
            it="il gioco bosniaco e dalmata con 32 carte francesi, da 2 a 6 ognuno per sé o "
            "in 4 a coppie",
            en="the Bosnian and Dalmatian game with 32 French cards, for 2 to 6 alone or 4 "
            "in pairs",
            es="el juego bosnio y dálmata con 32 cartas francesas, de 2 a 6 cada uno por su "
            "cuenta o 4 por parejas",
            hr="bosanska i dalmatinska igra s 32 francuske karte, za 2 do 6 igrača svaki za "
            "sebe ili za 4 u parovima",
        ),
    ),
    "briskula-double": (
        T(it="Briškula a quattro carte", en="Four-card Briškula",
          es="Briškula de cuatro cartas", hr="Dupla briškula"),
        T(
            it="quattro carte a testa, e ognuno gioca due volte in ogni presa",
            en="four cards each, and everyone plays twice to each trick",
            es="cuatro cartas cada uno, y cada uno juega dos veces en cada baza",
            hr="četiri karte svakom, i svatko igra dvaput u svakom štihu",
        ),
    ),
}  # fmt: skip
"""Each game's name and one-line summary."""

RULE_WORDS: dict[str, tuple[T, T]] = {
    "match": (
        T(it="Partita", en="Match", es="Partida", hr="Partija"),
        T(it="quanto dura una partita", en="how long a match lasts",
          es="cuánto dura una partida", hr="koliko traje partija"),
    ),
    "sixty_sixty": (
        T(it="60 a 60", en="60-60", es="60 a 60", hr="60:60"),
        T(it="cosa succede se la mano finisce pari", en="what happens when a hand ends level",
          es="qué pasa si la mano acaba empatada", hr="što ako ruka završi neriješeno"),
    ),
    "removed_two": (
        T(it="Il due tolto", en="The 2 taken out", es="El dos que se quita",
          hr="Izvađena dvica"),
        T(it="in tre si gioca con 39 carte: quale due si toglie",
          en="three players play with 39 cards: which 2 leaves the deck",
          es="entre tres se juega con 39 cartas: qué dos se quita",
          hr="u troje se igra s 39 karata: koja dvica se vadi"),
    ),
    "direction": (
        T(it="Verso di gioco", en="Direction of play", es="Sentido del juego", hr="Smjer igre"),
        T(it="da che parte gira il gioco intorno al tavolo",
          en="which way play goes round the table",
          es="hacia dónde gira el juego en la mesa", hr="na koju stranu ide igra oko stola"),
    ),
    "trump_exchange": (
        T(it="Scambio della girata", en="Exchange of the turned card",
          es="Cambio de la vuelta", hr="Zamjena okrenute karte"),
        T(it="quale carta di {trump} si può dare in cambio della carta girata",
          en="which {trump} card may be given for the turned card",
          es="qué carta de {trump} se puede dar a cambio de la carta vuelta",
          hr="koja se karta u boji koja je {trump} smije dati za okrenutu kartu"),
    ),
    "exchange_timing": (
        T(it="Quando si scambia", en="When to exchange", es="Cuándo se cambia",
          hr="Kad se mijenja"),
        T(it="in quale momento si può fare lo scambio", en="when the swap may be made",
          es="en qué momento se puede cambiar", hr="kada se smije zamijeniti"),
    ),
    "last_trick": (
        T(it="Ultima presa", en="Last trick", es="Última baza", hr="Posljednji štih"),
        T(it="se si può guardare l'ultima presa", en="whether players may look at the last trick",
          es="si se puede mirar la última baza", hr="smije li se pogledati posljednji štih"),
    ),
    "show_partner_hands": (
        T(it="Carte del compagno", en="Partners' hands", es="Cartas del compañero",
          hr="Karte suigrača"),
        T(it="se a mazzo finito i compagni si vedono le carte",
          en="whether partners see each other's hands once the stock runs out",
          es="si al acabarse el mazo los compañeros se ven las cartas",
          hr="vide li suigrači karte jedan drugome kad špila nestane"),
    ),
    "cappotto": (
        T(it="Cappotto", en="Cappotto", es="Capote", hr="Kapot"),
        T(it="cosa vale prendere tutti i 120 punti", en="what taking all 120 points is worth",
          es="qué vale llevarse los 120 puntos", hr="što vrijedi uzeti svih 120 bodova"),
    ),
    "turned_high": (
        T(it="Girata alta", en="High turned card", es="Vuelta alta", hr="Jaka okrenuta karta"),
        T(it="se un asso o un tre girato resta o torna nel mazzo (con 32 carte: asso o 10)",
          en="whether a turned ace or three stays or goes back into the stock (with 32 cards: "
          "an ace or a 10)",
          es="si un as o un tres vuelto se queda o vuelve al mazo (con 32 cartas: un as o un "
          "10)",
          hr="ostaje li okrenuti as ili trica ili se vraća u špil (s 32 karte: as ili desetka)"),
    ),
    "court_order": (
        T(it="Ordine delle figure", en="Court order", es="Orden de las figuras",
          hr="Redoslijed slika"),
        T(it="ordine e punti delle figure", en="the order and points of the court cards",
          es="orden y puntos de las figuras", hr="redoslijed i bodovi slika"),
    ),
    "follow_suit": (
        T(it="Rispondere al seme", en="Follow suit", es="Seguir el palo", hr="Pratiti boju"),
        T(it="se bisogna giocare il seme di uscita quando lo si ha",
          en="whether you must play the suit led when you can",
          es="si hay que jugar el palo de salida cuando se tiene",
          hr="moraš li igrati boju prve karte kad je imaš"),
    ),
    "cut": (
        T(it="Alzare il mazzo", en="Cut", es="Cortar", hr="Dizanje špila"),
        T(it="se il giocatore a sinistra del mazziere alza il mazzo",
          en="whether the player at the dealer's left cuts the deck",
          es="si el jugador a la izquierda del que reparte corta la baraja",
          hr="diže li igrač lijevo od djelitelja špil"),
    ),
    "partners": (
        T(it="Compagni", en="Partners", es="Compañeros", hr="Suigrači"),
        T(it="come si formano le squadre", en="how the teams are made",
          es="cómo se forman los equipos", hr="kako se slažu ekipe"),
    ),
    "communication": (
        T(it="Comunicazione", en="Communication", es="Comunicación", hr="Dogovaranje"),
        T(it="cosa i compagni possono dirsi delle carte",
          en="what partners may tell each other about their cards",
          es="qué pueden decirse los compañeros de sus cartas",
          hr="što suigrači smiju reći jedan drugome o kartama"),
    ),
    "signal_audience": (
        T(it="Chi vede i segni", en="Who sees signs", es="Quién ve las señas",
          hr="Tko vidi znakove"),
        T(it="chi vede un segno fatto al compagno", en="who sees a sign made to a partner",
          es="quién ve una seña hecha al compañero", hr="tko vidi znak dan suigraču"),
    ),
    "spot_chance": (
        T(it="Segni colti", en="Spotting chance", es="Señas pilladas", hr="Uočavanje znakova"),
        T(it="la probabilità che un avversario colga un segno",
          en="the chance that an opponent spots a sign",
          es="la probabilidad de que un contrario pille una seña",
          hr="vjerojatnost da protivnik uoči znak"),
    ),
    "rais": (
        T(it="Rais", en="Rais", es="Rais", hr="Rais"),
        T(it="i capitani delle due squadre", en="the captains of the two teams",
          es="los capitanes de los dos equipos", hr="kapetani dviju ekipa"),
    ),
    "target": (
        T(it="Fine della partita", en="Match target", es="Fin de la partida",
          hr="Kraj partije"),
        T(it="a quanti punti di classifica, o dopo quante mani, finisce la partita",
          en="the score to reach, or the number of hands, that ends the match",
          es="a cuántos puntos de marcador, o tras cuántas manos, acaba la partida",
          hr="na koliko bodova rezultata, ili nakon koliko ruku, završava partija"),
    ),
    "leader": (
        T(it="Chi apre", en="First lead", es="Quién sale", hr="Tko otvara"),
        T(it="chi gioca per primo nella prima presa", en="who leads the first trick",
          es="quién sale en la primera baza", hr="tko otvara prvi štih"),
    ),
    "multipliers": (
        T(it="Moltiplicatori", en="Multipliers", es="Multiplicadores", hr="Množitelji"),
        T(it="se le chiamate alte moltiplicano il punteggio",
          en="whether high bids multiply the score",
          es="si las pujas altas multiplican el tanteo", hr="množe li visoke licitacije rezultat"),
    ),
    "throw_in": (
        T(it="Carte buttate", en="Throw-in", es="Anular el reparto", hr="Bacanje karata"),
        T(it="se una mano senza punti si butta e si ridistribuisce",
          en="whether a hand with no card points is thrown in and dealt again",
          es="si una mano sin puntos se anula y se reparte de nuevo",
          hr="baca li se ruka bez bodova i dijeli ponovno"),
    ),
    "players": (
        T(it="Giocatori", en="Players", es="Jugadores", hr="Igrači"),
        T(it="quanti giocano", en="how many play", es="cuántos juegan", hr="koliko ih igra"),
    ),
    "teams": (
        T(it="Squadre", en="Teams", es="Equipos", hr="Ekipe"),
        T(it="in quattro: ognuno per sé o due coppie", en="with four players: each alone or "
          "two pairs", es="con cuatro: cada uno por su cuenta o dos parejas",
          hr="u četvero: svatko za sebe ili dva para"),
    ),
}  # fmt: skip
"""Each house rule's title and one-line explanation."""

YES_NO = {
    "no": T(it="no", en="no", es="no", hr="ne"),
    "yes": T(it="sì", en="yes", es="sí", hr="da"),
}

CHOICE_WORDS: dict[str, dict[str, T]] = {
    "match": {
        "best-of-3": T(it="al meglio delle tre mani", en="best of three hands",
                       es="al mejor de tres manos", hr="najbolje od tri ruke"),
        "one-hand": T(it="una mano sola", en="one hand", es="una sola mano", hr="jedna ruka"),
        "best-of-5": T(it="al meglio delle cinque mani", en="best of five hands",
                       es="al mejor de cinco manos", hr="najbolje od pet ruku"),
    },
    "sixty_sixty": {
        "tie": T(it="pari, non vince nessuno", en="a tie, nobody wins",
                 es="empate, no gana nadie", hr="neriješeno, nitko ne dobiva"),
        "replay": T(it="la mano si rigioca", en="the hand is dealt again",
                    es="se vuelve a repartir", hr="ruka se dijeli ponovno"),
        "last-trick": T(it="vince chi fa l'ultima presa", en="the last trick wins",
                        es="gana quien se lleva la última baza",
                        hr="dobiva tko uzme posljednji štih"),
    },
    "removed_two": {
        "random": T(it="un due a caso a ogni mano", en="a random 2 at each deal",
                    es="un dos al azar en cada mano", hr="nasumična dvica u svakoj ruci"),
    },
    "direction": {
        "right": T(it="verso destra (antiorario)", en="to the right (counter-clockwise)",
                   es="hacia la derecha (antihorario)",
                   hr="udesno (suprotno od kazaljke na satu)"),
        "left": T(it="verso sinistra (orario)", en="to the left (clockwise)",
                  es="hacia la izquierda (horario)", hr="ulijevo (u smjeru kazaljke na satu)"),
    },
    "trump_exchange": {
        "none": T(it="nessuno scambio", en="no exchange", es="sin cambio", hr="bez zamjene"),
        "two": T(it="il due di {trump}", en="the {trump} 2", es="el dos de {trump}",
                 hr="dvica koja je {trump}"),
        "seven": T(it="il sette di {trump}", en="the {trump} 7", es="el siete de {trump}",
                   hr="sedmica koja je {trump}"),
        "seven-or-two": T(it="il sette se la girata è più alta, se no il due",
                          en="the 7 if the turned card is higher, else the 2",
                          es="el siete si la vuelta es más alta, si no el dos",
                          hr="sedmica ako je okrenuta karta jača, inače dvica"),
    },
    "exchange_timing": {
        "on-turn": T(it="al proprio turno, finché c'è il mazzo",
                     en="on your turn, while the stock lasts",
                     es="en tu turno, mientras quede mazo", hr="kad si na redu, dok ima špila"),
        "after-win": T(it="solo dopo aver preso, prima di pescare (alla spagnola)",
                       en="only right after taking a trick, before drawing (Spanish)",
                       es="solo tras ganar una baza, antes de robar (a la española)",
                       hr="samo nakon uzetog štiha, prije vučenja (španjolski)"),
    },
    "last_trick": {
        "allowed": T(it="si può guardare", en="allowed", es="se puede mirar",
                     hr="smije se gledati"),
        "hidden": T(it="non si può guardare", en="not allowed", es="no se puede mirar",
                    hr="ne smije se gledati"),
    },
    "show_partner_hands": YES_NO,
    "cappotto": {
        "nothing": T(it="niente in più", en="nothing extra", es="nada más", hr="ništa više"),
        "double": T(it="vale due mani vinte", en="counts as two won hands",
                    es="cuenta como dos manos ganadas", hr="vrijedi kao dvije dobivene ruke"),
    },
    "turned_high": {
        "stays": T(it="resta", en="it stays", es="se queda", hr="ostaje"),
        "reshuffle": T(it="torna nel mazzo e se ne gira un'altra",
                       en="back into the stock, and another is turned",
                       es="vuelve al mazo y se vuelve otra",
                       hr="vraća se u špil i okreće se druga"),
    },
    "court_order": {
        "north": T(it="nord: K, Q, J (4, 3, 2 punti)", en="north: K, Q, J (4, 3, 2 points)",
                   es="norte: K, Q, J (4, 3, 2 puntos)", hr="sjever: K, Q, J (4, 3, 2 boda)"),
        "south": T(it="sud: K, J, Q (4, 3, 2 punti)", en="south: K, J, Q (4, 3, 2 points)",
                   es="sur: K, J, Q (4, 3, 2 puntos)", hr="jug: K, J, Q (4, 3, 2 boda)"),
    },
    "follow_suit": {
        "free": T(it="non obbligatorio", en="not required", es="no obligatorio",
                  hr="nije obavezno"),
        "required": T(it="obbligatorio quando si può", en="required when you can",
                      es="obligatorio cuando se pueda", hr="obavezno kad se može"),
    },
    "cut": {
        "none": T(it="non si alza", en="no cut", es="sin corte", hr="nitko ne diže"),
        "cut": T(it="alza chi sta a sinistra del mazziere", en="the player at the dealer's "
                 "left cuts", es="corta el jugador a la izquierda del que reparte",
                 hr="diže igrač lijevo od djelitelja"),
    },
    "partners": {
        "seated": T(it="come si è seduti", en="as seated", es="como están sentados",
                    hr="kako sjede"),
        "drawn": T(it="estratti a sorte con le carte", en="drawn by cards",
                   es="sorteados con cartas", hr="izvlače se kartama"),
    },
    "communication": {
        "none": T(it="nessuna", en="none", es="ninguna", hr="nikakvo"),
        "signals": T(it="segni", en="signs", es="señas", hr="znakovi"),
        "conversation": T(it="conversazione alla romana", en="Roman conversation",
                          es="conversación romana", hr="rimski razgovor"),
    },
    "signal_audience": {
        "partner": T(it="solo il compagno", en="the partner only", es="solo el compañero",
                     hr="samo suigrač"),
        "table": T(it="tutto il tavolo", en="the whole table", es="toda la mesa",
                   hr="cijeli stol"),
        "spotted": T(it="il compagno, e gli avversari per caso",
                     en="the partner, and opponents by chance",
                     es="el compañero, y los contrarios por casualidad",
                     hr="suigrač, a protivnici slučajno"),
    },
    "leader": {
        "dealer-right": T(it="il giocatore dopo il mazziere", en="the player after the dealer",
                          es="el jugador siguiente al que reparte", hr="igrač nakon djelitelja"),
        "caller": T(it="il chiamante", en="the caller", es="el que llama",
                    hr="onaj koji zove"),
    },
    "multipliers": {
        "none": T(it="nessuno", en="none", es="ninguno", hr="bez množenja"),
        "high-bids": T(it="per le chiamate alte", en="for high bids", es="para pujas altas",
                       hr="za visoke licitacije"),
    },
    "throw_in": YES_NO,
    "teams": {
        "alone": T(it="ognuno per sé", en="each alone", es="cada uno por su cuenta",
                   hr="svatko za sebe"),
        "pairs": T(it="due coppie", en="two pairs", es="dos parejas", hr="dva para"),
    },
}  # fmt: skip
"""The label of each fixed choice of each house rule (the 2s, seats and numbers are made
from :data:`FORM_WORDS`)."""

FORM_WORDS: dict[str, dict[str, T]] = {
    "match": {
        "hands:N": T(it="mani da vincere: {n}", en="hands to win: {n}",
                     es="manos a ganar: {n}", hr="ruku za pobjedu: {n}"),
        "points:N": T(it="punti da raggiungere: {n}", en="points to reach: {n}",
                      es="puntos a alcanzar: {n}", hr="bodova za pobjedu: {n}"),
    },
    "target": {
        "points:N": T(it="punti di classifica da raggiungere: {n}",
                      en="score points to reach: {n}", es="puntos de marcador a alcanzar: {n}",
                      hr="bodova rezultata za kraj: {n}"),
        "hands:N": T(it="mani da giocare: {n}", en="hands to play: {n}",
                     es="manos a jugar: {n}", hr="ruku za odigrati: {n}"),
    },
    "spot_chance": {
        "N": T(it="{n} su 100", en="{n} in 100", es="{n} entre 100", hr="{n} od 100"),
    },
    "players": {
        "N": T(it="{n} giocatori", en="{n} players", es="{n} jugadores", hr="{n} igrača"),
    },
    "rais": {
        "A-B": T(it="posti {a} e {b}", en="seats {a} and {b}", es="puestos {a} y {b}",
                 hr="mjesta {a} i {b}"),
    },
}  # fmt: skip
"""Labels of the choices that carry a number (``{n}``) or seats (``{a}``, ``{b}``)."""


def choice_label(name: str, value: RuleValue, lang: str, trump: str | None = None) -> str:
    """The label of one value of a house rule (validated by the caller).

    >>> choice_label("match", "points:121", "it"), choice_label("removed_two", "2d", "es")
    ('punti da raggiungere: 121', 'dos de oros')
    """
    word = trump or TRUMP.say(lang)
    fixed = CHOICE_WORDS.get(name, {}).get(str(value))
    if fixed is not None:
        return fixed.say(lang, trump=word)
    forms = FORM_WORDS.get(name, {})
    if name == "rais":
        a, b = str(value).split("-")
        return forms["A-B"].say(lang, a=a, b=b)
    if name == "removed_two":
        return card_name(Card.parse(str(value)), "napoletane", lang)
    if isinstance(value, int):
        return forms["N"].say(lang, n=value)
    kind, _, n = str(value).partition(":")
    return forms[f"{kind}:N"].say(lang, n=n)


def words(lang: str, trump_word: str | None = None) -> dict[str, Any]:
    """The game's vocabulary in ``lang``, JSON-ready: the word for trump (``trump_word``
    if the family has its own) and the other words of the game, the suits, ranks and
    cards of each card style, each game's name, summary and house rules with their
    defaults, and each house rule's title, explanation and the labels of its choices."""
    lang = check_language(lang)
    trump = trump_word.strip() if trump_word and trump_word.strip() else TRUMP.say(lang)
    vocab = {k: v.say(lang) for k, v in VOCABULARY.items()}
    vocab["trump"] = trump
    games = {}
    for key, game in GAMES.items():
        name, summary = GAME_WORDS[key]
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
        title, help_text = RULE_WORDS[rname]
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
                f.pattern: FORM_WORDS[rname][f.pattern].say(lang, n="{n}") for f in rule.forms
            },
        }
    return {
        "lang": lang,
        "trump": trump,
        "words": vocab,
        "suits": {s: {suit.value: t.say(lang) for suit, t in SUITS[s].items()} for s in STYLES},
        "ranks": {s: {r.value: t.say(lang) for r, t in RANKS[s].items()} for s in STYLES},
        "cards": {s: {str(c): card_name(c, s, lang) for c in STYLE_CARDS[s]} for s in STYLES},
        "games": games,
        "rules": rules,
    }


# -- the rules in plain words ---------------------------------------------------------------

HANDS = N(it=("mano", "mani"), en=("hand", "hands"), es=("mano", "manos"),
          hr=("ruku", "ruke", "ruku"))  # fmt: skip
"""Hands after a number (Croatian: as an object, "dobije 3 ruke")."""
POINTS = N(it=("punto", "punti"), en=("point", "points"), es=("punto", "puntos"),
           hr=("bod", "boda", "bodova"))  # fmt: skip
CARDS = N(it=("carta", "carte"), en=("card", "cards"), es=("carta", "cartas"),
          hr=("kartu", "karte", "karata"))  # fmt: skip

S = T  # a sentence's text: a T whose places the rules fill

GAME = S(
    it="{name} — {summary}.",
    en="{name} — {summary}.",
    es="{name} — {summary}.",
    hr="{name} — {summary}.",
)
SEAT_ALONE = S(
    it="{n} giocatori, ognuno per sé.",
    en="{n} players, each playing alone.",
    es="{n} jugadores, cada uno por su cuenta.",
    hr="{n} igrača, svatko za sebe.",
)
SEAT_PAIRS = S(
    it="Quattro giocatori in due coppie: i compagni siedono uno di fronte all'altro.",
    en="Four players in two pairs: partners sit opposite each other.",
    es="Cuatro jugadores en dos parejas: los compañeros se sientan uno frente al otro.",
    hr="Četiri igrača u dva para: suigrači sjede jedan nasuprot drugome.",
)
SEAT_SIX = S(
    it="Sei giocatori in due squadre di tre, alternate intorno al tavolo: un giocatore sì e "
    "uno no è tuo compagno.",
    en="Six players in two teams of three, alternating round the table: every other player "
    "is your partner.",
    es="Seis jugadores en dos equipos de tres, alternados alrededor de la mesa: uno de cada "
    "dos jugadores es tu compañero.",
    hr="Šest igrača u dvije ekipe po tri, naizmjence oko stola: svaki drugi igrač je tvoj suigrač.",
)
SEAT_CHIAMATA = S(
    it="Cinque giocatori: chi vince l'asta, il chiamante, gioca con un compagno segreto "
    "contro gli altri tre, oppure da solo contro quattro.",
    en="Five players: the winner of the auction, the caller, plays with a secret partner "
    "against the other three, or alone against four.",
    es="Cinco jugadores: quien gana la subasta, el que llama, juega con un compañero secreto "
    "contra los otros tres, o solo contra cuatro.",
    hr="Pet igrača: pobjednik licitacije, onaj koji zove, igra s tajnim suigračem protiv "
    "ostale trojice ili sam protiv četvorice.",
)
DIRECTION = {
    "right": S(
        it="Si gioca verso destra (in senso antiorario), e così girano anche la distribuzione "
        "e i numeri dei posti.",
        en="Play goes round to the right (counter-clockwise), and so do the deal and the seat "
        "numbers.",
        es="Se juega hacia la derecha (en sentido contrario a las agujas del reloj), y así van "
        "también el reparto y los números de los puestos.",
        hr="Igra ide udesno (suprotno od kazaljke na satu), a tako idu i dijeljenje i brojevi "
        "mjesta.",
    ),
    "left": S(
        it="Si gioca verso sinistra (in senso orario), e così girano anche la distribuzione e "
        "i numeri dei posti.",
        en="Play goes round to the left (clockwise), and so do the deal and the seat numbers.",
        es="Se juega hacia la izquierda (en el sentido de las agujas del reloj), y así van "
        "también el reparto y los números de los puestos.",
        hr="Igra ide ulijevo (u smjeru kazaljke na satu), a tako idu i dijeljenje i brojevi "
        "mjesta.",
    ),
}
PARTNERS = {
    "seated": S(
        it="Le squadre sono come si è seduti.",
        en="The teams are as the players sit.",
        es="Los equipos quedan como están sentados.",
        hr="Ekipe su onakve kako igrači sjede.",
    ),
    "drawn": S(
        it="Prima della prima mano ognuno pesca una carta: le {k} carte più alte giocano "
        "insieme contro le altre, e chi ha pescato la più alta fa le carte nella prima mano.",
        en="Before the first hand each player draws a card: the {k} highest cards play "
        "together against the others, and the player with the highest card deals the first "
        "hand.",
        es="Antes de la primera mano cada jugador saca una carta: las {k} cartas más altas "
        "juegan juntas contra las demás, y quien sacó la más alta reparte la primera mano.",
        hr="Prije prve ruke svaki igrač izvlači kartu: {k} najjače karte igraju zajedno protiv "
        "ostalih, a tko izvuče najjaču, dijeli prvu ruku.",
    ),
}
DECKS = {
    "italian-40": T(it="le 40 carte italiane", en="the 40 Italian cards",
                    es="las 40 cartas italianas", hr="40 talijanskih karata"),
    "spanish-40": T(it="le 40 carte spagnole", en="the 40 Spanish cards",
                    es="la baraja española de 40 cartas", hr="40 španjolskih karata"),
    "french-32": T(it="32 carte francesi: asso, re, donna, fante, 10, 9, 8 e 7 di ogni seme",
                   en="32 French cards: ace, king, queen, jack, 10, 9, 8 and 7 of each suit",
                   es="32 cartas francesas: as, rey, reina, jota, 10, 9, 8 y 7 de cada palo",
                   hr="32 francuske karte: as, kralj, dama, dečko, 10, 9, 8 i 7 u svakoj boji"),
}  # fmt: skip
DECK = S(it="Si gioca con {deck}.", en="The game is played with {deck}.",
         es="Se juega con {deck}.", hr="Igra se s {deck}.")  # fmt: skip
NO_TWOS = S(
    it="Si tolgono i quattro due: si gioca con {n} carte.",
    en="The four 2s leave the deck: {n} cards are played.",
    es="Se quitan los cuatro doses: se juega con {n} cartas.",
    hr="Četiri dvice se vade iz špila: igra se s {n} karata.",
)
REMOVED_TWO = S(
    it="Si toglie dal mazzo il {card}: si gioca con {n} carte.",
    en="The {card} leaves the deck: {n} cards are played.",
    es="Se quita de la baraja el {card}: se juega con {n} cartas.",
    hr="Iz špila se vadi {card}: igra se s {n} karata.",
)
REMOVED_RANDOM = S(
    it="A ogni mano si toglie dal mazzo un due estratto a caso: si gioca con {n} carte.",
    en="At each deal one 2, drawn at random, leaves the deck: {n} cards are played.",
    es="En cada mano se quita de la baraja un dos sacado al azar: se juega con {n} cartas.",
    hr="U svakoj ruci iz špila se nasumce vadi jedna dvica: igra se s {n} karata.",
)
CUT = {
    "none": S(
        it="Il mazziere mescola e distribuisce; nessuno alza.",
        en="The dealer shuffles and deals; nobody cuts.",
        es="El que reparte baraja y reparte; nadie corta.",
        hr="Djelitelj miješa i dijeli; nitko ne diže špil.",
    ),
    "cut": S(
        it="Il mazziere mescola, il giocatore alla sua sinistra alza lasciando almeno 4 carte "
        "per parte, poi il mazziere distribuisce.",
        en="The dealer shuffles, the player at the dealer's left cuts, leaving at least 4 cards "
        "on each side, and the dealer deals.",
        es="El que reparte baraja, el jugador a su izquierda corta dejando al menos 4 cartas en "
        "cada lado, y luego reparte.",
        hr="Djelitelj miješa, igrač s njegove lijeve strane diže špil, ostavljajući barem 4 "
        "karte sa svake strane, pa djelitelj dijeli.",
    ),
}
DEAL = S(
    it="Il mazziere dà {n} {cards} a ciascuno, una alla volta, cominciando dal giocatore "
    "seguente nel verso di gioco.",
    en="The dealer deals {n} {cards} to each player, one at a time, starting with the next "
    "player in the direction of play.",
    es="El que reparte da {n} {cards} a cada jugador, de una en una, empezando por el "
    "siguiente en el sentido del juego.",
    hr="Djelitelj svakom igraču daje {n} {cards}, jednu po jednu, počevši od sljedećeg igrača "
    "u smjeru igre.",
)
DEAL_ALL = S(
    it="Si distribuiscono tutte le 40 carte, 8 a testa: non c'è mazzo né carta girata.",
    en="All 40 cards are dealt, 8 to each player: there is no stock and no turned card.",
    es="Se reparten las 40 cartas, 8 a cada uno: no hay mazo ni carta vuelta.",
    hr="Dijele se sve 40 karata, svakom po 8: nema špila za vučenje ni okrenute karte.",
)
TURNED = S(
    it="La carta seguente si gira scoperta sotto il mazzo: il suo seme è il seme di {trump} "
    "per tutta la mano, ed è l'ultima carta che si pesca.",
    en="The next card is turned face up under the stock: its suit is the {trump} suit for the "
    "hand, and it is the last card drawn.",
    es="La carta siguiente se vuelve boca arriba bajo el mazo: su palo es el palo de {trump} "
    "para toda la mano, y es la última carta que se roba.",
    hr="Sljedeća karta okreće se licem prema gore ispod špila: njezina boja je {trump} za "
    "cijelu ruku, i ona se vuče posljednja.",
)
NO_TRUMP = S(
    it="Non si gira nessuna carta e non c'è {trump}: nessun seme batte un altro.",
    en="No card is turned and there is no {trump} suit: no suit beats another.",
    es="No se vuelve ninguna carta y no hay {trump}: ningún palo gana a otro.",
    hr="Ne okreće se nijedna karta i {trump} ne postoji: nijedna boja ne tuče drugu.",
)
HIGH = {
    False: T(it="un asso o un tre", en="an ace or a three", es="un as o un tres",
             hr="as ili trica"),
    True: T(it="un asso o un 10", en="an ace or a 10", es="un as o un 10", hr="as ili desetka"),
}  # fmt: skip
"""The two strongest ranks, in the 40-card decks and in the 32 (True)."""
TURNED_HIGH = {
    "stays": S(
        it="La carta girata resta dov'è, anche quando è {high}.",
        en="The turned card stays where it is, even when it is {high}.",
        es="La carta vuelta se queda donde está, aunque sea {high}.",
        hr="Okrenuta karta ostaje gdje jest, čak i kad je {high}.",
    ),
    "reshuffle": S(
        it="Se la carta girata è {high}, torna in mezzo al mazzo e si gira la carta seguente.",
        en="If the turned card is {high}, it goes back into the middle of the stock and the "
        "next card is turned.",
        es="Si la carta vuelta es {high}, vuelve al medio del mazo y se vuelve la siguiente.",
        hr="Ako je okrenuta karta {high}, vraća se u sredinu špila i okreće se sljedeća.",
    ),
}
OPEN_HANDS = S(
    it="Le due mani si giocano scoperte, e così la prima carta del mazzo: restano ignote solo "
    "le carte in mezzo al mazzo.",
    en="Both hands are played face up, and so is the top card of the stock: only the cards in "
    "the middle of the stock are unknown.",
    es="Las dos manos se juegan boca arriba, y también la primera carta del mazo: solo se "
    "desconocen las cartas del medio del mazo.",
    hr="Obje ruke igraju se otvoreno, a tako i gornja karta špila: nepoznate su samo karte u "
    "sredini špila.",
)
LEAD = {
    "dealer-right": S(
        it="Apre la prima presa il giocatore dopo il mazziere; chi prende apre la presa seguente.",
        en="The player after the dealer leads the first trick; whoever takes a trick leads the "
        "next.",
        es="Sale primero el jugador siguiente al que reparte; quien gana una baza sale en la "
        "siguiente.",
        hr="Prvi štih otvara igrač nakon djelitelja; tko uzme štih, otvara sljedeći.",
    ),
    "caller": S(
        it="Apre la prima presa il chiamante; chi prende apre la presa seguente.",
        en="The caller leads the first trick; whoever takes a trick leads the next.",
        es="Sale primero el que llama; quien gana una baza sale en la siguiente.",
        hr="Prvi štih otvara onaj koji zove; tko uzme štih, otvara sljedeći.",
    ),
}
FOLLOW = {
    "free": S(
        it="Non c'è obbligo di rispondere al seme né di giocare {trump}: si può giocare "
        "qualsiasi carta.",
        en="You need not follow suit nor play a {trump} card: you may play any card.",
        es="No hay obligación de seguir el palo ni de jugar {trump}: se puede jugar cualquier "
        "carta.",
        hr="Ne moraš pratiti boju niti igrati kartu koja je {trump}: smiješ igrati bilo koju "
        "kartu.",
    ),
    "free-no-trump": S(
        it="Non c'è obbligo di rispondere al seme: si può giocare qualsiasi carta.",
        en="You need not follow suit: you may play any card.",
        es="No hay obligación de seguir el palo: se puede jugar cualquier carta.",
        hr="Ne moraš pratiti boju: smiješ igrati bilo koju kartu.",
    ),
    "required": S(
        it="Bisogna rispondere al seme: se hai una carta del seme di uscita devi giocarla; se "
        "non ne hai, giochi quella che vuoi.",
        en="You must follow suit: when you have a card of the suit led you must play one; when "
        "you have none, play any card.",
        es="Hay que seguir el palo: si tienes una carta del palo de salida debes jugarla; si no "
        "tienes, juegas la que quieras.",
        hr="Moraš pratiti boju: ako imaš kartu u boji prve karte, moraš je igrati; ako nemaš, "
        "igraš koju hoćeš.",
    ),
}
TAKES = S(
    it="Prende la carta di {trump} più alta; se non ne è stata giocata nessuna, la carta più "
    "alta del seme di uscita. Una carta di un altro seme non prende mai, per quanto alta.",
    en="The highest {trump} card played takes the trick; if none was played, the highest card "
    "of the suit led. A card of another suit never takes, however high.",
    es="Gana la baza la carta de {trump} más alta; si no se jugó ninguna, la más alta del palo "
    "de salida. Una carta de otro palo nunca gana, por alta que sea.",
    hr="Štih uzima najjača karta koja je {trump}; ako takve nema, najjača karta u boji prve "
    "karte. Karta druge boje nikad ne uzima, ma koliko bila jaka.",
)
TAKES_NO_TRUMP = S(
    it="Prende la carta più alta del seme di uscita; una carta di un altro seme non prende "
    "mai, per quanto alta.",
    en="The highest card of the suit led takes the trick; a card of another suit never takes, "
    "however high.",
    es="Gana la baza la carta más alta del palo de salida; una carta de otro palo nunca gana, "
    "por alta que sea.",
    hr="Štih uzima najjača karta u boji prve karte; karta druge boje nikad ne uzima, ma koliko "
    "bila jaka.",
)
TWICE = S(
    it="Ognuno gioca due volte in ogni presa: un giro del tavolo, poi un altro; chi vince la "
    "presa prende tutte le sue carte.",
    en="Everyone plays twice to each trick: once round the table, then once more; the trick's "
    "winner takes all its cards.",
    es="Cada uno juega dos veces en cada baza: una vuelta a la mesa y otra más; quien gana la "
    "baza se lleva todas sus cartas.",
    hr="Svatko u svaki štih igra dvaput: jednom oko stola, pa još jednom; tko dobije štih, "
    "uzima sve njegove karte.",
)
ORDER = S(
    it="Dalla carta più alta alla più bassa: {order}.",
    en="From highest to lowest: {order}.",
    es="De la carta más alta a la más baja: {order}.",
    hr="Od najjače do najslabije karte: {order}.",
)
POINT_VALUES = S(
    it="Punti: {points}; le altre carte non valgono niente. In tutto {total} punti.",
    en="Points: {points}; the other cards count nothing. {total} points in all.",
    es="Puntos: {points}; las demás cartas no valen nada. En total, {total} puntos.",
    hr="Bodovi: {points}; ostale karte ne nose ništa. Ukupno {total} bodova.",
)
DRAW = S(
    it="Dopo ogni presa, finché c'è il mazzo, ognuno pesca una carta, prima chi ha preso e poi "
    "gli altri nel verso di gioco; la carta girata si pesca per ultima. Finito il mazzo, le "
    "ultime carte si giocano senza pescare.",
    en="After each trick, while the stock lasts, everyone draws a card, the trick's winner "
    "first, then the others in playing order; the turned card is drawn last. When the stock "
    "is gone the last cards are played without drawing.",
    es="Después de cada baza, mientras quede mazo, cada uno roba una carta, primero quien ganó "
    "la baza y luego los demás en el orden de juego; la carta vuelta se roba la última. "
    "Acabado el mazo, las últimas cartas se juegan sin robar.",
    hr="Nakon svakog štiha, dok ima špila, svatko vuče kartu, prvo onaj koji je uzeo štih, pa "
    "ostali redom igre; okrenuta karta vuče se posljednja. Kad špila nestane, posljednje karte "
    "igraju se bez vučenja.",
)
DRAW_TWICE = S(
    it="Dopo ogni presa, finché c'è il mazzo, ognuno pesca una carta, prima chi ha preso e poi "
    "gli altri, e poi ognuno ne pesca una seconda; la carta girata si pesca per ultima.",
    en="After each trick, while the stock lasts, everyone draws one card, the trick's winner "
    "first, then everyone draws a second; the turned card is drawn last.",
    es="Después de cada baza, mientras quede mazo, cada uno roba una carta, primero quien ganó "
    "la baza, y luego cada uno roba otra; la carta vuelta se roba la última.",
    hr="Nakon svakog štiha, dok ima špila, svatko vuče jednu kartu, prvo onaj koji je uzeo "
    "štih, pa svatko vuče i drugu; okrenuta karta vuče se posljednja.",
)
DRAW_PLAIN = S(
    it="Dopo ogni presa, finché c'è il mazzo, ognuno pesca una carta, prima chi ha preso e poi "
    "gli altri nel verso di gioco. Finito il mazzo, le ultime carte si giocano senza pescare.",
    en="After each trick, while the stock lasts, everyone draws a card, the trick's winner "
    "first, then the others in playing order. When the stock is gone the last cards are "
    "played without drawing.",
    es="Después de cada baza, mientras quede mazo, cada uno roba una carta, primero quien ganó "
    "la baza y luego los demás en el orden de juego. Acabado el mazo, las últimas cartas se "
    "juegan sin robar.",
    hr="Nakon svakog štiha, dok ima špila, svatko vuče kartu, prvo onaj koji je uzeo štih, pa "
    "ostali redom igre. Kad špila nestane, posljednje karte igraju se bez vučenja.",
)
UNEVEN = S(
    it="Se il mazzo finisce a metà di un giro di pescate, alla presa seguente giocano solo "
    "quelli che hanno pescato, così che tutti tornino ad avere lo stesso numero di carte.",
    en="When the stock runs out part-way through a round of drawing, only the players who drew "
    "play to the next trick, so that everyone again holds as many cards.",
    es="Si el mazo se acaba a mitad de una ronda de robo, en la baza siguiente juegan solo los "
    "que robaron, para que todos vuelvan a tener las mismas cartas.",
    hr="Ako špil nestane usred kruga vučenja, u sljedećem štihu igraju samo oni koji su vukli, "
    "da bi svi opet imali jednako karata.",
)
EXCHANGE = {
    "none": S(
        it="La carta girata non si può scambiare.",
        en="The turned card cannot be exchanged.",
        es="La carta vuelta no se puede cambiar.",
        hr="Okrenuta karta ne može se zamijeniti.",
    ),
    "two": S(
        it="Chi ha il due di {trump} può scambiarlo con la carta girata.",
        en="If you hold the {trump} 2 you may swap it for the turned card.",
        es="Quien tiene el dos de {trump} puede cambiarlo por la carta vuelta.",
        hr="Tko ima dvicu koja je {trump}, smije je zamijeniti za okrenutu kartu.",
    ),
    "seven": S(
        it="Chi ha il sette di {trump} può scambiarlo con la carta girata.",
        en="If you hold the {trump} 7 you may swap it for the turned card.",
        es="Quien tiene el siete de {trump} puede cambiarlo por la carta vuelta.",
        hr="Tko ima sedmicu koja je {trump}, smije je zamijeniti za okrenutu kartu.",
    ),
    "seven-or-two": S(
        it="Se la carta girata è più alta del sette ({higher}), chi ha il sette di {trump} può "
        "scambiarlo con essa; se è il sette o più bassa, può farlo chi ha il due di {trump}.",
        en="If the turned card is higher than the 7 ({higher}), whoever holds the {trump} 7 may "
        "swap it for the turned card; if it is the 7 or lower, whoever holds the {trump} 2 may.",
        es="Si la carta vuelta es más alta que el siete ({higher}), quien tiene el siete de "
        "{trump} puede cambiarlo por ella; si es el siete o más baja, puede hacerlo quien tiene "
        "el dos de {trump}.",
        hr="Ako je okrenuta karta jača od sedmice ({higher}), tko ima sedmicu koja je {trump}, "
        "smije je zamijeniti za nju; ako je sedmica ili slabija, to smije tko ima dvicu koja "
        "je {trump}.",
    ),
}
TIMING = {
    "on-turn": S(
        it="Lo scambio si fa al proprio turno, prima di giocare, finché c'è il mazzo.",
        en="You may swap on your turn, before you play, while the stock lasts.",
        es="El cambio se hace en tu turno, antes de jugar, mientras quede mazo.",
        hr="Zamjena se radi kad si na redu, prije nego što igraš, dok ima špila.",
    ),
    "after-win": S(
        it="Può scambiare solo chi ha appena preso, con una carta che aveva prima di pescare, "
        "prima di aprire la presa seguente; non all'ultimo giro di pescate, quando si pesca la "
        "carta girata.",
        en="Only the player who has just taken a trick may swap, with a card held before "
        "drawing, before leading the next trick; not in the last round of drawing, when the "
        "turned card itself is drawn.",
        es="Solo puede cambiar quien acaba de ganar una baza, con una carta que tenía antes de "
        "robar, antes de salir en la siguiente; no en la última ronda de robo, cuando se roba "
        "la propia carta vuelta.",
        hr="Zamijeniti smije samo onaj tko je upravo uzeo štih, kartom koju je imao prije "
        "vučenja, prije nego otvori sljedeći štih; ne u posljednjem krugu vučenja, kad se vuče "
        "sama okrenuta karta.",
    ),
}
LAST_TRICK = {
    "allowed": S(
        it="Si può guardare l'ultima presa, e solo quella.",
        en="You may look at the last trick taken, and only the last one.",
        es="Se puede mirar la última baza, y solo esa.",
        hr="Smije se pogledati posljednji štih, i samo njega.",
    ),
    "hidden": S(
        it="Nessuno può guardare l'ultima presa.",
        en="Nobody may look at the last trick.",
        es="Nadie puede mirar la última baza.",
        hr="Nitko ne smije gledati posljednji štih.",
    ),
}
SHOW_PARTNER = {
    "no": S(
        it="I compagni non si vedono mai le carte.",
        en="Partners never see each other's hands.",
        es="Los compañeros nunca se ven las cartas.",
        hr="Suigrači nikad ne vide karte jedan drugome.",
    ),
    "yes": S(
        it="Finito il mazzo, i compagni si vedono le carte.",
        en="When the stock runs out, partners see each other's hands.",
        es="Cuando se acaba el mazo, los compañeros se ven las cartas.",
        hr="Kad špila nestane, suigrači vide karte jedan drugome.",
    ),
}
COUNT = {
    True: S(
        it="Giocate tutte le carte, ogni squadra conta i punti delle prese fatte.",
        en="When all the cards are played, each side counts the points in the tricks it took.",
        es="Jugadas todas las cartas, cada equipo cuenta los puntos de sus bazas.",
        hr="Kad se odigraju sve karte, svaka ekipa broji bodove u štihovima koje je uzela.",
    ),
    False: S(
        it="Giocate tutte le carte, ognuno conta i punti delle sue prese.",
        en="When all the cards are played, each player counts the points in the tricks taken.",
        es="Jugadas todas las cartas, cada jugador cuenta los puntos de sus bazas.",
        hr="Kad se odigraju sve karte, svaki igrač broji bodove u svojim štihovima.",
    ),
}
WIN_61 = S(
    it="Con 61 punti o più si vince la mano.",
    en="61 points or more wins the hand.",
    es="Con 61 puntos o más se gana la mano.",
    hr="Ruku dobiva tko ima 61 bod ili više.",
)
WIN_MOST = S(
    it="Vince la mano chi ha più punti.",
    en="Whoever has the most points wins the hand.",
    es="Gana la mano quien tiene más puntos.",
    hr="Ruku dobiva tko ima najviše bodova.",
)
SIXTY_TWO = {
    "tie": S(
        it="Sul 60 a 60 la mano è pari: non la vince nessuno.",
        en="At 60-60 the hand is a tie: nobody wins it.",
        es="Con 60 a 60 la mano es empate: no la gana nadie.",
        hr="Kod 60:60 ruka je neriješena: nitko je ne dobiva.",
    ),
    "replay": S(
        it="Sul 60 a 60 la mano si rigioca.",
        en="At 60-60 the hand is dealt again.",
        es="Con 60 a 60 la mano se vuelve a repartir.",
        hr="Kod 60:60 ruka se dijeli ponovno.",
    ),
    "last-trick": S(
        it="Sul 60 a 60 vince chi ha fatto l'ultima presa.",
        en="At 60-60 whoever took the last trick wins the hand.",
        es="Con 60 a 60 gana quien se llevó la última baza.",
        hr="Kod 60:60 ruku dobiva tko je uzeo posljednji štih.",
    ),
}
SIXTY_MANY = {
    "tie": S(
        it="Se due o più sono pari in testa, la mano è pari.",
        en="If two or more share the most points, the hand is a tie.",
        es="Si dos o más empatan con más puntos, la mano es empate.",
        hr="Ako dvojica ili više imaju jednako najviše bodova, ruka je neriješena.",
    ),
    "replay": S(
        it="Se due o più sono pari in testa, la mano si rigioca.",
        en="If two or more share the most points, the hand is dealt again.",
        es="Si dos o más empatan con más puntos, la mano se vuelve a repartir.",
        hr="Ako dvojica ili više imaju jednako najviše bodova, ruka se dijeli ponovno.",
    ),
    "last-trick": S(
        it="Se due o più sono pari in testa, vince chi di loro ha fatto l'ultima presa; se "
        "nessuno di loro, la mano è pari.",
        en="If two or more share the most points, the one of them who took the last trick wins; "
        "if none of them did, the hand is a tie.",
        es="Si dos o más empatan con más puntos, gana el que de ellos se llevó la última baza; "
        "si ninguno, la mano es empate.",
        hr="Ako dvojica ili više imaju jednako najviše bodova, ruku dobiva onaj od njih tko je "
        "uzeo posljednji štih; ako nijedan, ruka je neriješena.",
    ),
}
CAPPOTTO = {
    ("nothing", True): S(
        it="Fare cappotto (tutti i 120 punti) conta come una mano vinta, come le altre.",
        en="Taking all 120 points (cappotto) counts as one won hand, like any other.",
        es="Llevarse los 120 puntos (capote) cuenta como una mano ganada, como las demás.",
        hr="Uzeti svih 120 bodova (kapot) vrijedi kao jedna dobivena ruka, kao i svaka druga.",
    ),
    ("double", True): S(
        it="Fare cappotto (tutti i 120 punti) conta come due mani vinte.",
        en="Taking all 120 points (cappotto) counts as two won hands.",
        es="Llevarse los 120 puntos (capote) cuenta como dos manos ganadas.",
        hr="Uzeti svih 120 bodova (kapot) vrijedi kao dvije dobivene ruke.",
    ),
    ("nothing", False): S(
        it="Fare cappotto (tutti i 120 punti) non dà niente in più.",
        en="Taking all 120 points (cappotto) earns nothing extra.",
        es="Llevarse los 120 puntos (capote) no da nada más.",
        hr="Uzeti svih 120 bodova (kapot) ne donosi ništa više.",
    ),
    ("double", False): S(
        it="Il cappotto (tutti i 120 punti) conterebbe come due mani vinte, ma questa partita "
        "non conta le mani vinte, quindi non cambia niente.",
        en="Taking all 120 points (cappotto) would count as two won hands, but this match does "
        "not count won hands, so it changes nothing.",
        es="El capote (los 120 puntos) contaría como dos manos ganadas, pero esta partida no "
        "cuenta manos ganadas, así que no cambia nada.",
        hr="Kapot (svih 120 bodova) vrijedio bi kao dvije dobivene ruke, ali ova partija ne "
        "broji dobivene ruke, pa to ništa ne mijenja.",
    ),
}
"""Cappotto, in a match that counts won hands (True) or not (points, one hand)."""
MATCH = {
    "best-of-3": S(
        it="La partita è al meglio delle tre mani: vince chi vince per primo due mani.",
        en="The match is the best of three hands: whoever first wins two hands wins it.",
        es="La partida es al mejor de tres manos: gana quien gane primero dos manos.",
        hr="Partija se igra na najbolje od tri ruke: pobjeđuje tko prvi dobije dvije ruke.",
    ),
    "best-of-5": S(
        it="La partita è al meglio delle cinque mani: vince chi vince per primo tre mani.",
        en="The match is the best of five hands: whoever first wins three hands wins it.",
        es="La partida es al mejor de cinco manos: gana quien gane primero tres manos.",
        hr="Partija se igra na najbolje od pet ruku: pobjeđuje tko prvi dobije tri ruke.",
    ),
    "one-hand": S(
        it="La partita è di una mano sola.",
        en="The match is one hand.",
        es="La partida es de una sola mano.",
        hr="Partija je samo jedna ruka.",
    ),
    "hands": S(
        it="Vince la partita chi vince per primo {n} {hands}.",
        en="Whoever first wins {n} {hands} wins the match.",
        es="Gana la partida quien gane primero {n} {hands}.",
        hr="Partiju dobiva tko prvi dobije {n} {hands}.",
    ),
    "points": S(
        it="Vince la partita chi arriva per primo a {n} {points}, in quante mani servono.",
        en="Whoever first reaches {n} {points}, over as many hands as it takes, wins the match.",
        es="Gana la partida quien llegue primero a {n} {points}, en las manos que haga falta.",
        hr="Partiju dobiva tko prvi skupi {n} {points}, u koliko god ruku treba.",
    ),
}
TARGET = {
    "points": S(
        it="La partita va avanti finché qualcuno arriva a {n} {points} di classifica; vince il "
        "totale più alto, e chi è pari in testa divide la vittoria.",
        en="The match runs until somebody reaches {n} score {points}; the highest total then "
        "wins, and those tied at the top share the win.",
        es="La partida sigue hasta que alguien llega a {n} {points} de marcador; gana el total "
        "más alto, y los empatados en cabeza comparten la victoria.",
        hr="Partija traje dok netko ne skupi {n} {points} rezultata; tada pobjeđuje najveći "
        "zbroj, a izjednačeni na vrhu dijele pobjedu.",
    ),
    "hands": S(
        it="La partita dura {n} {hands}; vince il totale più alto, e chi è pari in testa "
        "divide la vittoria.",
        en="The match lasts {n} {hands}; the highest total then wins, and those tied at the top "
        "share the win.",
        es="La partida dura {n} {hands}; gana el total más alto, y los empatados en cabeza "
        "comparten la victoria.",
        hr="Partija traje {n} {hands}; pobjeđuje najveći zbroj, a izjednačeni na vrhu dijele "
        "pobjedu.",
    ),
}
AUCTION = S(
    it="Cominciando dal giocatore dopo il mazziere, nel verso di gioco, ognuno chiama un "
    "valore o passa; ogni chiamata deve essere più bassa della precedente, in quest'ordine: "
    "{order}. Chi passa è fuori dall'asta.",
    en="Starting from the player after the dealer, in playing order, each bids a rank or "
    "passes; each bid must be lower than the last, in this order: {order}. A pass is final.",
    es="Empezando por el jugador siguiente al que reparte, en el orden de juego, cada uno puja "
    "un valor o pasa; cada puja debe ser más baja que la anterior, en este orden: {order}. "
    "Quien pasa queda fuera.",
    hr="Počevši od igrača nakon djelitelja, redom igre, svatko licitira vrijednost ili kaže "
    "dalje; svaka licitacija mora biti niža od prethodne, ovim redom: {order}. Tko kaže "
    "dalje, ispada.",
)
AUCTION_POINTS = S(
    it="Dopo il due l'asta continua a punti: due a 61, e così via fino a 120, ogni chiamata più "
    "alta della precedente. Quando tutti tranne uno hanno passato, quello è il chiamante; se "
    "passano tutti e cinque, lo stesso mazziere ridistribuisce.",
    en="After a bid of 2 the auction goes on in points: 2 at 61, and so on up to 120, each bid "
    "higher than the last. When all but one have passed, that one is the caller; if all five "
    "pass, the same dealer deals again.",
    es="Después de pujar el dos, la subasta sigue por puntos: dos a 61, y así hasta 120, cada "
    "puja más alta que la anterior. Cuando todos menos uno han pasado, ese es el que llama; si "
    "pasan los cinco, el mismo jugador vuelve a repartir.",
    hr="Nakon licitacije dvice licitira se u bodovima: dvica na 61, i tako do 120, svaka "
    "licitacija viša od prethodne. Kad svi osim jednoga kažu dalje, taj je onaj koji zove; "
    "ako svih pet kaže dalje, isti djelitelj dijeli ponovno.",
)
THROW_IN = {
    "no": S(
        it="Ogni distribuzione si gioca, qualunque siano le carte.",
        en="Every deal is played, whatever the cards.",
        es="Todo reparto se juega, sean cuales sean las cartas.",
        hr="Svako dijeljenje se igra, kakve god bile karte.",
    ),
    "yes": S(
        it="Se un giocatore non ha punti in mano, le carte si buttano prima dell'asta e lo "
        "stesso mazziere ridistribuisce; quella mano non conta.",
        en="A deal where a player holds no card points is thrown in before the auction and "
        "dealt again by the same dealer; it scores nothing.",
        es="Si un jugador no tiene ningún punto en la mano, el reparto se anula antes de la "
        "subasta y el mismo jugador vuelve a repartir; esa mano no cuenta.",
        hr="Ako neki igrač nema nijednog boda u ruci, karte se bacaju prije licitacije i isti "
        "djelitelj dijeli ponovno; ta ruka se ne broji.",
    ),
}
CALL = S(
    it="Il chiamante nomina un seme: la carta del valore chiamato in quel seme è la carta "
    "chiamata, e il suo seme è {trump}.",
    en="The caller names a suit: the card of the bid rank in that suit is the called card, and "
    "its suit is the {trump} suit.",
    es="El que llama nombra un palo: la carta del valor pujado en ese palo es la carta llamada, "
    "y su palo es {trump}.",
    hr="Onaj koji zove imenuje boju: karta licitirane vrijednosti u toj boji je zvana karta, a "
    "njezina boja je {trump}.",
)
SECRET = S(
    it="Chi ha la carta chiamata è il compagno segreto del chiamante, e si scopre solo quando "
    "quella carta viene giocata. Il chiamante può chiamare una carta che ha in mano e giocare "
    "da solo contro quattro.",
    en="Whoever holds the called card is the caller's secret partner, known only when that card "
    "is played. The caller may call a card of their own hand and play alone against four.",
    es="Quien tiene la carta llamada es el compañero secreto del que llama, y se descubre solo "
    "cuando se juega esa carta. El que llama puede llamar una carta de su propia mano y jugar "
    "solo contra cuatro.",
    hr="Tko ima zvanu kartu, tajni je suigrač onoga koji zove, i otkriva se tek kad se ta karta "
    "odigra. Onaj koji zove smije zvati kartu iz vlastite ruke i igrati sam protiv četvorice.",
)
CALLER_WINS = S(
    it="La squadra del chiamante vince con 61 punti o più, o, dopo una chiamata di due a N, con "
    "almeno N; il 60 a 60 è una sconfitta per il chiamante.",
    en="The caller's side wins with 61 points or more, or, after a bid of 2 at N, with at least "
    "N; 60-60 is a loss for the caller.",
    es="El bando del que llama gana con 61 puntos o más, o, tras una puja de dos a N, con al "
    "menos N; el 60 a 60 es derrota para el que llama.",
    hr="Strana onoga koji zove dobiva sa 61 bodom ili više, ili, nakon licitacije dvice na N, s "
    "barem N; 60:60 je poraz onoga koji zove.",
)
CALL_SCORE = S(
    it="Punteggio: se vince la squadra del chiamante, il chiamante fa 2, il compagno 1 e ogni "
    "avversario -1; se perde, il contrario. Da solo, il chiamante fa 4 e ogni avversario -1, o "
    "il contrario. Se la squadra del chiamante prende tutti i 120 punti, o nessuno, il "
    "punteggio raddoppia.",
    en="Score: when the caller's side wins, the caller scores 2, the partner 1 and each "
    "opponent -1; when it loses, the opposite. Alone, the caller scores 4 and each opponent -1, "
    "or the opposite. If the caller's side takes all 120 points, or none, the score is doubled.",
    es="Tanteo: si gana el bando del que llama, este suma 2, el compañero 1 y cada contrario "
    "-1; si pierde, al revés. Solo, el que llama suma 4 y cada contrario -1, o al revés. Si el "
    "bando del que llama se lleva los 120 puntos, o ninguno, el tanteo se dobla.",
    hr="Rezultat: kad dobije strana onoga koji zove, on dobiva 2, suigrač 1, a svaki protivnik "
    "-1; kad izgubi, obrnuto. Sam, onaj koji zove dobiva 4, a svaki protivnik -1, ili obrnuto. "
    "Ako strana onoga koji zove uzme svih 120 bodova, ili nijedan, rezultat se udvostručuje.",
)
MULTIPLIERS = {
    "none": S(
        it="Le chiamate alte valgono come le altre.",
        en="High bids score the same as any other.",
        es="Las pujas altas valen como las demás.",
        hr="Visoke licitacije vrijede kao i ostale.",
    ),
    "high-bids": S(
        it="Dopo una chiamata di due a 71-80 il punteggio raddoppia; a 81-90 triplica; a 91-100 "
        "si moltiplica per 4; da 101 in su per 5.",
        en="After a bid of 2 at 71 to 80 the score is doubled; at 81 to 90, tripled; at 91 to "
        "100, times 4; at 101 or more, times 5.",
        es="Tras una puja de dos a 71-80 el tanteo se dobla; a 81-90 se triplica; a 91-100 se "
        "multiplica por 4; de 101 en adelante, por 5.",
        hr="Nakon licitacije dvice na 71-80 rezultat se udvostručuje; na 81-90 utrostručuje; na "
        "91-100 množi s 4; od 101 naviše s 5.",
    ),
}
NO_CHANNEL = S(
    it="Tra compagni non ci si parla: il compagno è segreto.",
    en="Partners have no way to talk: the partner is secret.",
    es="Los compañeros no tienen forma de hablarse: el compañero es secreto.",
    hr="Suigrači se nemaju kako dogovarati: suigrač je tajan.",
)
COMMUNICATION_NONE = S(
    it="I compagni non possono dirsi niente delle loro carte.",
    en="Partners may not tell each other anything about their cards.",
    es="Los compañeros no pueden decirse nada de sus cartas.",
    hr="Suigrači si ne smiju ništa reći o svojim kartama.",
)
SIGNALS = S(
    it="Al tuo turno, prima di giocare, puoi fare segni al compagno: quali carte di {trump} hai "
    "tra {honours}; che hai carte basse di {trump} ({low}); che non hai carte di {trump}; che "
    "hai un carico; oppure chiedergli un carico o un liscio. Un segno dice sempre il vero, e "
    "ognuno si fa una volta per presa.",
    en="On your turn, before you play, you may make signs to your partner: which {trump} cards "
    "you hold among {honours}; that you hold low {trump} cards ({low}); that you hold no {trump} "
    "card; that you hold a carico; or ask for a carico or a liscio. A sign is always true, and "
    "each is made once a trick.",
    es="En tu turno, antes de jugar, puedes hacer señas a tu compañero: qué cartas de {trump} "
    "tienes entre {honours}; que tienes cartas bajas de {trump} ({low}); que no tienes ninguna "
    "carta de {trump}; que tienes una carga; o pedirle una carga o una blanca. Una seña siempre "
    "dice la verdad, y cada una se hace una vez por baza.",
    hr="Kad si na redu, prije nego što igraš, smiješ suigraču davati znakove: koje karte u "
    "boji koja je {trump} imaš ({honours}); da imaš slabe karte te boje ({low}); da nemaš "
    "nijednu kartu te boje; da imaš jaku kartu; ili tražiti jaku ili praznu kartu. Znak uvijek "
    "govori istinu, i svaki se daje jednom po štihu.",
)
SIGNS = S(
    it="I segni: {ace}, si stringono le labbra sui denti; {three}, si storce la bocca da una "
    "parte; {king}, si guarda in alto; {queen}, si mostra la punta della lingua; {jack}, si "
    "alza una spalla.",
    en="The signs: {ace}, stretch the lips over the teeth; {three}, twist the mouth to one "
    "side; {king}, look upwards; {queen}, show the tip of the tongue; {jack}, shrug a shoulder.",
    es="Las señas: {ace}, estirar los labios sobre los dientes; {three}, torcer la boca hacia "
    "un lado; {king}, mirar hacia arriba; {queen}, sacar la punta de la lengua; {jack}, encoger "
    "un hombro.",
    hr="Znakovi: {ace}, razvući usne preko zuba; {three}, iskriviti usta na jednu stranu; "
    "{king}, pogledati gore; {queen}, pokazati vrh jezika; {jack}, slegnuti jednim ramenom.",
)
AUDIENCE = {
    "partner": S(
        it="Solo il compagno vede i tuoi segni.",
        en="Only your partner sees your signs.",
        es="Solo tu compañero ve tus señas.",
        hr="Tvoje znakove vidi samo suigrač.",
    ),
    "table": S(
        it="Tutto il tavolo vede ogni segno.",
        en="The whole table sees every sign.",
        es="Toda la mesa ve todas las señas.",
        hr="Cijeli stol vidi svaki znak.",
    ),
    "spotted": S(
        it="Il compagno vede i tuoi segni, e un avversario può coglierne uno per caso.",
        en="Your partner sees your signs, and an opponent may spot one by chance.",
        es="Tu compañero ve tus señas, y un contrario puede pillar alguna por casualidad.",
        hr="Suigrač vidi tvoje znakove, a protivnik neki može slučajno uočiti.",
    ),
}
SPOT = S(
    it="Ogni avversario coglie ogni segno con una probabilità di {n} su 100.",
    en="Each opponent spots each sign with a chance of {n} in 100.",
    es="Cada contrario pilla cada seña con una probabilidad de {n} entre 100.",
    hr="Svaki protivnik uočava svaki znak s vjerojatnošću {n} od 100.",
)
TOP = {
    False: T(it="asso e tre", en="ace and the three", es="el as y el tres", hr="asa i tricu"),
    True: T(it="asso e 10", en="ace and the 10", es="el as y el 10", hr="asa i desetku"),
}  # fmt: skip
"""The two trumps the conversation never asks about."""
WHOM = {
    False: T(it="al compagno", en="the partner", es="al compañero", hr="suigrača"),
    True: T(it="a uno dei due compagni", en="either partner",
            es="a cualquiera de sus dos compañeros", hr="bilo kojeg od dvojice suigrača"),
}  # fmt: skip
CONVERSATION = S(
    it="Durante la prima presa non si parla. Dalla seconda, prima di aprire, chi apre può fare "
    "{whom} ciascuna di queste domande una volta, e tutto il tavolo sente domanda e risposta.",
    en="No talking during the first trick. From the second trick on, before leading, the "
    "leader may ask {whom} each of these questions once, and the whole table hears question "
    "and answer.",
    es="Durante la primera baza no se habla. Desde la segunda, antes de salir, quien sale puede "
    "hacer {whom} cada una de estas preguntas una vez, y toda la mesa oye pregunta y respuesta.",
    hr="Tijekom prvog štiha ne govori se. Od drugog štiha, prije otvaranja, onaj koji otvara "
    "smije pitati {whom} svako od ovih pitanja jednom, a cijeli stol čuje pitanje i odgovor.",
)
QUESTIONS = S(
    it="Si può chiedere: se ha lisci (carte senza punti); se le sue carte di {trump} sono "
    "briscoline ({low}) o vestite ({dressed}), ma non si chiede di {top}; se può prendere senza "
    "usare {trump}; se ha carichi ({big} di un altro seme).",
    en="One may ask: whether the partner has lisci (cards worth nothing); whether their {trump} "
    "cards are briscoline ({low}) or vestite ({dressed}), never about the {top}; whether they "
    "can take the trick without a {trump} card; whether they have carichi ({big} of another "
    "suit).",
    es="Se puede preguntar: si tiene blancas (cartas sin puntos); si sus cartas de {trump} son "
    "bajas ({low}) o vestidas ({dressed}), nunca por {top}; si puede ganar la baza sin usar "
    "{trump}; si tiene cargas ({big} de otro palo).",
    hr="Smije se pitati: ima li praznih karata (karata bez bodova); jesu li mu karte u boji "
    "koja je {trump} male ({low}) ili obučene ({dressed}), nikad za {top}; može li uzeti štih "
    "bez karte koja je {trump}; ima li jakih karata ({big} druge boje).",
)
ORDERS = S(
    it="Chi apre può anche dare un ordine: giocare un liscio, giocare una carta di {trump} alta "
    "o bassa, prendere senza {trump}, o giocare un carico. Gli ordini guidano: il compagno può "
    "comunque giocare qualsiasi carta. Le risposte dicono sempre il vero.",
    en="The leader may also give one order: play a liscio, play a high or a low {trump} card, "
    "take the trick without a {trump} card, or play a carico. Orders guide: the partner may "
    "still play any card. Answers are always true.",
    es="Quien sale puede dar también una orden: jugar una blanca, jugar una carta de {trump} "
    "alta o baja, ganar la baza sin {trump}, o jugar una carga. Las órdenes orientan: el "
    "compañero puede jugar cualquier carta. Las respuestas siempre son verdad.",
    hr="Onaj koji otvara smije dati i jednu naredbu: igraj praznu kartu, igraj jaču ili slabiju "
    "kartu koja je {trump}, uzmi štih bez karte koja je {trump}, ili igraj jaku kartu. Naredbe "
    "samo usmjeravaju: suigrač smije igrati bilo koju kartu. Odgovori su uvijek istiniti.",
)
RAIS_SEATS = S(
    it="I capitani (rais) sono il posto {a} per una squadra e il posto {b} per l'altra.",
    en="The captains (rais) are seat {a} for one team and seat {b} for the other.",
    es="Los capitanes (rais) son el puesto {a} de un equipo y el puesto {b} del otro.",
    hr="Kapetani (rais) su mjesto {a} za jednu ekipu i mjesto {b} za drugu.",
)
RAIS_TALK = S(
    it="Solo un rais fa domande e dà ordini: dalla seconda presa, prima di ogni uscita, il rais "
    "della squadra che apre e poi l'altro possono fare ai compagni ogni domanda una volta e "
    "dare un ordine; gli altri rispondono soltanto.",
    en="Only a rais asks and gives orders: from the second trick on, before each lead, the rais "
    "of the leading side and then the other rais may each ask their partners each question "
    "once and give one order; the others only answer.",
    es="Solo un rais pregunta y da órdenes: desde la segunda baza, antes de cada salida, el "
    "rais del equipo que sale y luego el otro pueden hacer a sus compañeros cada pregunta una "
    "vez y dar una orden; los demás solo responden.",
    hr="Samo rais pita i daje naredbe: od drugog štiha, prije svakog otvaranja, rais strane "
    "koja otvara, pa drugi rais, smiju suigračima postaviti svako pitanje jednom i dati jednu "
    "naredbu; ostali samo odgovaraju.",
)
RAIS_LOOK = S(
    it="Finito il mazzo, un rais può guardare le carte di un compagno.",
    en="Once the stock is exhausted, a rais may look at the hand of one partner.",
    es="Acabado el mazo, un rais puede mirar las cartas de un compañero.",
    hr="Kad špila nestane, rais smije pogledati karte jednog suigrača.",
)

SENTENCES: dict[str, S | dict[Any, S]] = {
    "GAME": GAME, "SEAT_ALONE": SEAT_ALONE, "SEAT_PAIRS": SEAT_PAIRS, "SEAT_SIX": SEAT_SIX,
    "SEAT_CHIAMATA": SEAT_CHIAMATA, "DIRECTION": DIRECTION, "PARTNERS": PARTNERS, "DECK": DECK,
    "NO_TWOS": NO_TWOS, "REMOVED_TWO": REMOVED_TWO, "REMOVED_RANDOM": REMOVED_RANDOM,
    "CUT": CUT, "DEAL": DEAL, "DEAL_ALL": DEAL_ALL, "TURNED": TURNED, "NO_TRUMP": NO_TRUMP,
    "TURNED_HIGH": TURNED_HIGH, "OPEN_HANDS": OPEN_HANDS, "LEAD": LEAD, "FOLLOW": FOLLOW,
    "TAKES": TAKES, "TAKES_NO_TRUMP": TAKES_NO_TRUMP, "TWICE": TWICE, "ORDER": ORDER,
    "POINT_VALUES": POINT_VALUES, "DRAW": DRAW, "DRAW_TWICE": DRAW_TWICE,
    "DRAW_PLAIN": DRAW_PLAIN, "UNEVEN": UNEVEN, "EXCHANGE": EXCHANGE, "TIMING": TIMING,
    "LAST_TRICK": LAST_TRICK, "SHOW_PARTNER": SHOW_PARTNER, "COUNT": COUNT, "WIN_61": WIN_61,
    "WIN_MOST": WIN_MOST, "SIXTY_TWO": SIXTY_TWO, "SIXTY_MANY": SIXTY_MANY,
    "CAPPOTTO": CAPPOTTO, "MATCH": MATCH, "TARGET": TARGET, "AUCTION": AUCTION,
    "AUCTION_POINTS": AUCTION_POINTS, "THROW_IN": THROW_IN, "CALL": CALL, "SECRET": SECRET,
    "CALLER_WINS": CALLER_WINS, "CALL_SCORE": CALL_SCORE, "MULTIPLIERS": MULTIPLIERS,
    "NO_CHANNEL": NO_CHANNEL, "COMMUNICATION_NONE": COMMUNICATION_NONE, "SIGNALS": SIGNALS,
    "SIGNS": SIGNS, "AUDIENCE": AUDIENCE, "SPOT": SPOT, "CONVERSATION": CONVERSATION,
    "QUESTIONS": QUESTIONS, "ORDERS": ORDERS, "RAIS_SEATS": RAIS_SEATS,
    "RAIS_TALK": RAIS_TALK, "RAIS_LOOK": RAIS_LOOK, "HIGH": HIGH, "TOP": TOP, "WHOM": WHOM,
    "DECKS": DECKS,
}  # fmt: skip
"""Every sentence's text, for the tests: each in all four languages, with the same places."""


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
        return RANKS[self.style][rank].say(self.lang)

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
    trump = trump_word.strip() if trump_word and trump_word.strip() else TRUMP.say(lang)
    say = _Said(table, lang, trump)
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
    name, summary = GAME_WORDS[g.key]
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
            a, b = str(r.option("rais")).split("-")
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
