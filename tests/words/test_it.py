"""Italian as its players speak it (issue 22): each finding of the review, said by the
program in Italian and compared with the right sentence. "You" is the reader's own seat,
with the subject dropped ("giochi l'asso di coppe"); cards with their article; a trick is
a "presa", a deal a "mano"; Chiamata's partner is "il socio"; bids in words; plurals at 1;
seats counted from 1; the fair shuffle's "impronta (hash)"."""

from __future__ import annotations

from typing import Any

from briscola.engine import Card, Rules
from briscola.words.catalogue import catalogue
from briscola.words.narrate import Narrator, describe_action, describe_bid, describe_view
from briscola.words.rules import rules_text, words
from briscola.words.seating import Seating

ACE = Card.parse("Ac")


def seating(game: str = "briscola-2", seat: int = 0) -> Seating:
    return Seating.of(Rules.make(game), seat, "it")


def told(game: str, *events: dict[str, Any]) -> list[str]:
    return Narrator(Rules.make(game), seating(game)).tell(list(events))


def rules(game: str, **given: object) -> str:
    return " ".join(s.text for s in rules_text(game, given, "it"))


def test_you_play_and_take_without_the_pronoun_and_the_card_with_its_article() -> None:
    you = seating()
    assert you.say("tell.played", 0, card=you.card(ACE)) == "giochi l'asso di coppe"
    assert you.say("tell.played", 1, card=you.card(ACE)) == "Nord gioca l'asso di coppe"
    lines = told(
        "briscola-2",
        {"type": "card_played", "seat": 1, "card": "3c"},
        {"type": "card_played", "seat": 0, "card": "Ac"},
        {"type": "trick_won", "winner": 0, "leader": 1, "seats": [1, 0],
         "cards": ["3c", "Ac"], "points": 21},
    )  # fmt: skip
    assert lines == [
        "Nord gioca il tre di coppe",
        "giochi l'asso di coppe",
        "la 1ª presa è tua: tre di coppe, asso di coppe (21 punti)",
    ]


def test_a_trick_taken_is_the_nth_presa_with_its_cards_and_points_only_if_shown() -> None:
    """Issue 39: "la 1ª presa è tua: 4 punti", "Nord fa la 2ª presa"; at a table that
    counts in its head, no points."""
    you = seating()
    assert you.say("tell.took", 0, trick=1, points="4 punti") == "la 1ª presa è tua: 4 punti"
    assert you.say("tell.took_no_points", 1, trick=2) == "Nord fa la 2ª presa"
    hidden = Seating.of(Rules.make("briscola-2"), 0, "it", {1: "Giulia"}, points="hidden")
    events = [
        {"type": "trick_won", "winner": 1, "leader": 0, "seats": [0, 1],
         "cards": ["2c", "Ac"], "points": 11},
    ]  # fmt: skip
    said = Narrator(Rules.make("briscola-2"), hidden).tell(events)
    assert said == ["Giulia fa la 1ª presa: due di coppe, asso di coppe"], said


def test_the_turned_card_is_the_briscola_on_the_table() -> None:
    lines = told(
        "brisca",
        {"type": "trump_exchanged", "seat": 0, "given": "7c", "taken": "Ac"},
        {"type": "trump_exchanged", "seat": 1, "given": "2c", "taken": "7c"},
    )
    assert lines == [
        "scambi il sette di coppe con la briscola in tavola, l'asso di coppe",
        "Nord scambia il due di coppe con la briscola in tavola, il sette di coppe",
    ]
    menu = describe_action({"exchange": "7c"}, seating("brisca"))
    assert menu == "scambia il sette di coppe con la briscola in tavola"


def test_you_sit_south_and_the_others_play_after_you() -> None:
    assert seating("briscola-4").introduction() == (
        "sei a Sud; dopo di te giocano, in quest'ordine, Est, Nord e Ovest; Nord è il tuo compagno"
    )
    assert seating().introduction() == "sei a Sud; dopo di te gioca Nord"


def test_a_question_asked_of_you_is_asked_of_te_and_answered_in_italian() -> None:
    lines = told(
        "briscola-4",
        {"type": "talk", "kind": "ask", "seat": 2, "to": 0, "what": "lisci",
         "answer": "yes", "public": True},
        {"type": "talk", "kind": "ask", "seat": 1, "to": 3, "what": "trumps",
         "answer": "briscoline vestite", "public": True},
        {"type": "talk", "kind": "order", "seat": 2, "to": 0, "what": "carico",
         "public": True},
    )  # fmt: skip
    assert lines == [
        "Nord chiede a te: hai lisci (carte che non valgono niente)? Tu: sì",
        "Est chiede a Ovest: che briscole hai (briscoline: le basse, fino al 6; vestite: re, "
        "cavallo e fante)? Ovest: briscoline e vestite",
        "Nord dice a te: gioca un carico",
    ]


def test_a_rais_looks_at_your_cards() -> None:
    lines = told("schembil", {"type": "talk", "kind": "look", "seat": 1, "to": 0, "public": True})
    assert lines == ["Est guarda le carte in mano a te"]


def test_the_auction_speaks_of_chiamate_in_words_and_you_are_the_caller() -> None:
    you = seating("chiamata")
    assert describe_bid("K", you) == "il re (R)"
    assert describe_bid("6", you) == "il sei (6)"
    assert describe_bid("2 at 75", you) == "il due a 75"
    lines = told(
        "chiamata",
        {"type": "bid_made", "seat": 1, "bid": "K"},
        {"type": "bid_made", "seat": 0, "bid": "pass"},
        {"type": "auction_ended", "caller": 1, "bid": "2 at 75"},
        {"type": "card_called", "seat": 1, "card": "2c"},
    )
    assert lines == [
        "Est chiama il re (R)",
        "passi",
        "Est vince l'asta con il due a 75",
        "Est chiama il due di coppe: la briscola è coppe",
    ]
    view: dict[str, Any] = {
        "auction": {"bids": [{"seat": 0, "bid": "K"}, {"seat": 1, "bid": "pass"}],
                    "called": None, "caller": None},
        "stock_size": 0, "sides": [[0], [1], [2], [3], [4]], "points": [0] * 5,
        "visible_hands": {}, "known_cards": {}, "trick": [], "hand": [],
    }  # fmt: skip
    assert describe_view(view, you)[0] == "l'asta: chiami il re (R), Est passa"
    view["auction"] = {"bids": [], "called": "Kc", "caller": 0, "partner": None, "high": "K"}
    assert describe_view(view, you)[0] == (
        "briscola: coppe; hai vinto l'asta con il re (R) e hai chiamato il re di coppe; "
        "il socio non è ancora noto"
    )


def test_chiamatas_partner_is_the_socio() -> None:
    assert told("chiamata", {"type": "partner_revealed", "caller": 1, "partner": 0}) == [
        "la carta chiamata è uscita: sei il socio di Est"
    ]
    it = catalogue("it")
    assert it.say("view.you_partner") == "il socio sei tu"
    assert it.say("view.partner_is", who="Ana") == "il socio è Ana"
    assert "un socio segreto" in rules("chiamata") and "compagno" not in rules("chiamata")


def test_a_deal_without_points_goes_a_monte() -> None:
    assert told("chiamata", {"type": "thrown_in", "seat": 0, "cards": ["4c", "5d"]}) == [
        "non hai carte che valgono punti (quattro di coppe, cinque di denari): "
        "la mano va a monte e si ridanno le carte"
    ]
    assert words("it")["rules"]["throw_in"]["title"] == "Mano a monte"
    assert "la mano va a monte prima dell'asta" in rules("chiamata", throw_in="yes")


def test_whoever_leads_first_is_di_mano() -> None:
    assert words("it")["rules"]["leader"]["title"] == "Chi è di mano"
    assert "È di mano il giocatore dopo il mazziere" in rules("briscola-2")


def test_a_trick_is_a_presa_and_a_deal_a_mano() -> None:
    it = catalogue("it")
    points = it.say("count.points", n=21)
    assert it.say("table.last_trick", form="you", points=points) == (
        "Ultima presa: l'hai fatta tu, 21 punti"
    )
    assert it.say("table.last_trick", who="Ana", points=points) == (
        "Ultima presa: l'ha fatta Ana, 21 punti"
    )
    assert it.say("end.chart") == "Punti presa dopo presa"
    assert it.say("tell.auction_won", form="you", bid="il re (R)") == "vinci l'asta con il re (R)"


def test_one_card_one_point_one_hand() -> None:
    it = catalogue("it")
    assert it.say("table.stock", n=1) == "1 carta nel mazzo"
    assert it.say("table.cards_in_hand", n=1) == "1 carta in mano"
    assert it.say("standing.points", n=1, sides="tu 0") == "partita (a 1 punto): tu 0"
    assert it.say("form.players.N", n=1) == "1 giocatore"


def test_the_cards_named_in_an_answer_to_a_move_have_their_article() -> None:
    it = catalogue("it")
    you = seating()
    assert it.say("move.cannot_play", card=you.card(ACE)) == "ora non puoi giocare l'asso di coppe"
    view: dict[str, Any] = {
        "trump": "c", "turned": "Ac", "stock_size": 3, "sides": [[0], [1]], "points": [0, 0],
        "visible_hands": {}, "known_cards": {}, "trick": [], "hand": [],
    }  # fmt: skip
    assert describe_view(view, you)[0] == (
        "briscola: coppe; la briscola in tavola è l'asso di coppe (Ac); 4 carte da pescare"
    )


def test_the_words_for_the_rules_and_the_trump_word_are_the_tables() -> None:
    it = catalogue("it")
    assert it.say("words.topic.play") == "Come si gioca"
    assert it.say("words.rules_in_words") == "Le regole spiegate"
    assert it.say("table.rules_missing") == "Le regole spiegate non sono disponibili."
    assert it.say("prefs.trump") == "La tua parola per «briscola»"


def test_the_rais_sit_at_seats_counted_from_1() -> None:
    assert "chi siede al posto 1, per una squadra, e al posto 4, per l'altra" in rules(
        "schembil", rais="0-3"
    )
    assert words("it")["rules"]["rais"]["choices"][0]["label"] == "posti 1 e 2"


def test_the_fair_shuffle_is_an_impronta_explained() -> None:
    it = catalogue("it")
    assert it.say("fair.commitment").startswith(
        "Prima di giocare, il server ha pubblicato l'impronta (hash) del mazzo"
    )
    assert "Impegno" not in it.say("fair.commitment")
    assert it.say("fair.bad", committed="a", computed="b").startswith("Non corrisponde! L'impronta")


def test_the_computer_is_il_computer_and_the_rais_ask_together() -> None:
    """Issue 39: "giocatori del computer" is "il computer"; "Solo i rais" ask."""
    it = catalogue("it")
    for key, text in it.texts.items():
        for said in [text] if isinstance(text, str) else text.values():
            assert "giocatori del computer" not in said, key
            assert "giocatore forte del computer" not in said or key == "hint.suggested", key
    assert it.say("rules.rais_talk").startswith("Solo i rais fanno domande e danno ordini")


def test_a_bid_names_the_rank_by_the_letter_its_italian_card_shows() -> None:
    """Issue 39: the Neapolitan cards show R, C and F; the bids said "re (K)"."""
    you = seating("chiamata")
    assert [describe_bid(r, you) for r in ("K", "Q", "J", "A")] == [
        "il re (R)", "il cavallo (C)", "il fante (F)", "l'asso (A)",
    ]  # fmt: skip
