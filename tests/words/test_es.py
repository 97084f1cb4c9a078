"""Spanish as its players speak it (issue 22): each sentence rendered in Spanish and
compared with the right one. Every test here fails on the catalogue before the issue
("tú juegas sota de oros", "Norte pregunta a tú", "puesto 0", "carta vuelta", ...)."""

from __future__ import annotations

from typing import Any

import pytest

from briscola.engine import Card, Rules
from briscola.words.catalogue import catalogue
from briscola.words.narrate import Narrator, describe_action, describe_bid, describe_view
from briscola.words.rules import choice_label, rules_text
from briscola.words.seating import Seating

ES = catalogue("es")


def seating(game: str = "brisca", seat: int = 0) -> Seating:
    return Seating.of(Rules.make(game), seat, "es")


def rules_es(game: str, **rules: Any) -> str:
    return " ".join(s.text for s in rules_text(game, rules, "es"))


def test_you_are_told_in_the_second_person_without_the_pronoun() -> None:
    """Said to you: "juegas la sota de oros", not "tú juegas sota de oros"."""
    you = seating()
    sota = you.card(Card.parse("Jd"))
    assert you.say("tell.played", 0, card=sota) == "juegas la sota de oros"
    assert you.say("tell.played", 1, card=sota) == "Norte juega la sota de oros"
    assert you.say("tell.took", 0, trick=3, points="11 puntos") == "te llevas la baza 3: 11 puntos"
    assert you.say("tell.drew", 0, card=you.card(Card.parse("Qc"))) == "robas el caballo de copas"
    assert you.introduction() == "estás en el Sur; después de ti juega Norte"  # issue 39
    four = Seating.of(Rules.make("briscola-4"), 0, "es")
    assert four.introduction().startswith(
        "estás en el Sur; después de ti juegan, por este orden, Este, Norte y Oeste"
    )


def test_a_card_has_its_article_and_its_gender() -> None:
    """With the article: "la sota", "la reina", "la jota" are feminine, never "el sota"."""
    you = seating()
    play = describe_action({"play": "Jd"}, you)
    exchange = describe_action({"exchange": "7d"}, you)
    assert (play, exchange) == ("jugar la sota de oros", "cambiar el siete de oros por la muestra")
    french = seating("briskula")
    assert french.say("tell.played", 1, card=french.card(Card.parse("Qs"))) == (
        "Norte juega la reina de picas"
    )
    assert ES.say("move.cannot_play", card=you.card(Card.parse("Jb"))) == (
        "ahora no puedes jugar la sota de bastos"
    )


def test_what_a_partner_says_to_you_is_said_to_you() -> None:
    """Said to you: "Norte te pregunta", "te dice", "mira tus cartas"; not "pregunta a tú"."""
    rules = Rules.make("briscola-4")
    you = Narrator(rules, Seating.of(rules, 0, "es"))
    asked = {"kind": "ask", "seat": 2, "to": 0, "what": "lisci", "answer": "yes", "public": True}
    assert you.describe_talk(asked) == (
        "Norte te pregunta: ¿tienes blancas (cartas que no valen nada)? Tú: sí"
    )
    ordered = {"kind": "order", "seat": 2, "to": 0, "what": "carico", "public": True}
    assert you.describe_talk(ordered) == "Norte te dice: juega una brisca"
    looked = {"kind": "look", "seat": 2, "to": 0, "what": "", "public": True}
    assert you.describe_talk(looked) == "Norte mira tus cartas"
    other = {"kind": "ask", "seat": 1, "to": 3, "what": "trumps", "answer": "briscoline vestite"}
    assert you.describe_talk(other) == (
        "Este le pregunta a Oeste: ¿qué triunfos tienes (bajos: hasta el 6; figuras: rey, "
        "caballo y sota)? Oeste: triunfos bajos y figuras de triunfo"
    )


def called_view(caller: int, partner: int | None) -> dict[str, Any]:
    """A chiamata view after the call, as the stream brings it to seat 0."""
    return {
        "auction": {"bids": [{"seat": caller, "bid": "K"}], "called": "Kc", "caller": caller,
                    "partner": partner, "high": "K"},
        "turned": None, "stock_size": 0, "trump": "c", "sides": [[0], [1], [2], [3], [4]],
        "points": [0, 0, 0, 0, 0], "stock_top": None, "visible_hands": {},
        "known_cards": {}, "trick": [[1, "Ab"]], "hand": ["3d"],
    }  # fmt: skip


def test_the_call_is_yours_when_you_called() -> None:
    """Yours: "llamaste el rey de copas", not "tú llamó rey de copas"."""
    you = seating("chiamata")
    mine = describe_view(called_view(0, None), you)[0]
    assert mine == (
        "triunfo: copas; ganaste la subasta con el rey (R) y llamaste el rey de copas; "
        "aún no se sabe quién es el compañero"
    )
    theirs = describe_view(called_view(1, 0), you)
    assert theirs[0] == (
        "triunfo: copas; Este ganó la subasta con el rey (R) y llamó el rey de copas; "
        "el compañero eres tú"
    )
    assert theirs[2] == "en la mesa: Este con el as de bastos (Ab)"


def test_bids_are_said_in_words() -> None:
    """Bidding is "pujar", and "2 at 75" is "dos a 75 puntos"; a bid has its article
    ("con la sota", issue 39) and the letter the card shows (the Italian cards' R, C, F)."""
    you = seating("chiamata")
    assert describe_bid("2 at 75", you) == "dos a 75 puntos"
    assert describe_action({"bid": 75}, you) == "pujar el dos a 75 puntos"
    assert describe_action({"bid": "J"}, you) == "pujar la sota (F)"
    assert you.say("tell.bid", 1, bid=describe_bid("K", you)) == "Este puja el rey (R)"
    assert you.say("tell.bid", 1, bid=describe_bid("Q", you)) == "Este puja el caballo (C)"
    won = you.say("tell.auction_won", 1, bid=describe_bid("J", you))
    assert won == "Este gana la subasta con la sota (F)"


@pytest.mark.parametrize(
    ("key", "one", "two"),
    [
        ("table.stock", "1 carta en el mazo", "2 cartas en el mazo"),
        ("table.cards_in_hand", "1 carta en la mano", "2 cartas en la mano"),
        ("standing.hands", "partida (a 1 mano ganada): x", "partida (a 2 manos ganadas): x"),
    ],
)
def test_a_count_agrees_with_its_number(key: str, one: str, two: str) -> None:
    assert ES.say(key, n=1, sides="x") == one and ES.say(key, n=2, sides="x") == two


def test_the_turned_card_is_la_muestra_and_never_la_vuelta() -> None:
    """The turned card is la muestra (issue 39), not "la carta descubierta" and never "el
    triunfo": "cambias el siete de espadas por la muestra", in play and in the rules."""
    brisca = rules_es("brisca")
    assert "vuelta" not in brisca and "descubierta" not in brisca
    assert "quien tenga el siete de triunfo puede cambiarlo por ella" in brisca
    assert "bajo el mazo: es la muestra" in brisca
    assert ES.say("rule.trump_exchange.title") == "Cambio de la muestra"
    assert ES.say("rule.turned_high.title") == "Muestra alta"
    assert choice_label("trump_exchange", "seven-or-two", "es") == (
        "el siete si la muestra es más alta, si no el dos"
    )
    you = seating("brisca")
    seven, ace = you.card(Card.parse("7s")), you.card(Card.parse("As"))
    assert you.say("tell.exchanged", 0, given=seven, taken=ace) == (
        "cambias el siete de espadas por la muestra, el as de espadas"
    )
    assert you.say("tell.drew_turned", 1, card=ace) == "Norte roba la muestra, el as de espadas"
    assert ES.say("view.turned", card=you.card_code(Card.parse("As"))) == (
        "; la muestra es el as de espadas (1s)"
    )
    assert ES.say("word.turned") == "muestra"
    for key in ES.texts:  # never the turned card by another name
        for text in [ES.texts[key]] if isinstance(ES.texts[key], str) else ES.texts[key].values():
            assert "carta descubierta" not in text, key


def test_partners_sit_face_to_face_and_the_drawn_partners_are_players() -> None:
    """ "Los compañeros enfrentados" would be opponents; the drawn partners are the
    players who draw the highest cards; the family's way to play is used in the setup."""
    assert ES.say("game.briscola-4.summary").endswith("los compañeros sentados frente a frente")
    assert all("enfrentad" not in str(t) for t in ES.texts.values())
    drawn = ES.say("rules.partners.drawn", k=2)
    assert "los 2 jugadores que sacan las cartas más altas juegan juntos" in drawn
    assert ES.say("words.family_use") == "Usar al preparar la mesa"


def test_the_tables_own_words() -> None:
    """Briscas and blancas, "asistir", "25 de cada 100", "que hagan falta", "seña vista",
    "reglas de la casa", "asiento", "triunfos bajos"."""
    assert "Hay que asistir" in rules_es("briscola-2", follow_suit="required")
    assert "No hay obligación de asistir" in rules_es("briscola-2")
    spotted = rules_es("briscola-4", communication="signals", signal_audience="spotted")
    assert "una probabilidad de 25 de cada 100" in spotted
    assert "que tienes una brisca; o pedirle una brisca o una blanca" in spotted
    assert "Las señas: para el as, estirar los labios" in spotted
    assert "en las manos que hagan falta" in rules_es("briscola-2", match="points:121")
    assert choice_label("spot_chance", 25, "es") == "25 de cada 100"
    assert ES.say("table.spotted") == "vista"
    assert ES.say("end.carichi") == "Briscas ganadas"
    assert ES.say("talkword.answer.briscoline") == "triunfos bajos"
    assert "reglas de la casa" in ES.say("words.family_help")
    assert "reglas de la casa" in ES.say("words.family_none")
    assert ES.say("seat.number", n=2) == "el asiento 2" and ES.say("word.seat") == "asiento"
    assert ES.say("rule.follow_suit.title") == "Asistir"


def test_the_rais_are_counted_from_seat_1() -> None:
    """The rules text and the rule's choices count seats as the table does, from 1."""
    assert "son el asiento 1 de un equipo y el asiento 4 del otro" in rules_es(
        "schembil", rais="0-3"
    )
    assert choice_label("rais", "4-5", "es") == "asientos 5 y 6"


def test_the_fair_shuffle_is_a_huella_and_says_what_that_is() -> None:
    said = ES.say("fair.commitment")
    assert said.startswith("Huella (hash) publicada al repartir: se calcula con el reparto")
    assert "compromiso" not in said.lower()
    assert "huella (hash)" in ES.say("remote.committed", n=1, hash="ab12")


def test_nobody_is_welcomed_or_left_alone_in_a_gender() -> None:
    """The reader may be anyone: "juegas sin compañero", "Te damos la bienvenida"."""
    you = seating("chiamata")
    assert you.say("tell.alone", 0) == "juegas sin compañero"
    assert ES.say("home.welcome") == "Te damos la bienvenida a la mesa"
