"""Croatian as Dalmatian briškula players speak it (issue 22): each finding of the review,
a sentence rendered in Croatian and compared with the right one.

The words chosen once: a trick is a "ruka" (it is "nosi ruku"), a deal to 61 an "igra",
the match a "partija"; carichi are "karici", lisci "lišine", the court cards "figure",
the low trumps "male briškule"; the partner is always "suigrač"; "briškula" is declined
("dvica briškule"); "ti" everywhere, and the pronoun dropped where the verb says it."""

from __future__ import annotations

import random
from typing import Any

from briscola.engine import Card, Rules
from briscola.terminal.local import Session
from briscola.words.catalogue import catalogue
from briscola.words.narrate import Narrator, describe_action, describe_bid, describe_view
from briscola.words.rules import rules_text, words
from briscola.words.seating import Seating

HR = catalogue("hr")


def south(game: str = "briscola-2", seat: int = 0) -> Seating:
    """The Croatian table of the person at ``seat`` (South): "ti", and Sjever, Istok..."""
    return Seating.of(Rules.make(game), seat, "hr")


def card(code: str, voice: Seating | None = None) -> str:
    return (voice or south()).card(Card.parse(code))


def rules_said(game: str, rules: dict[str, Any] | None = None, trump: str | None = None) -> str:
    return " ".join(s.text for s in rules_text(game, rules or {}, "hr", trump_word=trump))


def test_you_play_a_card_in_the_accusative_and_with_no_pronoun() -> None:
    you = south()
    assert you.say("tell.played", 0, card=card("Ac")) == "igraš asa kupa"
    assert you.say("tell.played", 1, card=card("3b")) == "Sjever igra tricu baštona"
    assert you.say("tell.drew", 0, card=card("Qd")) == "vučeš konja dinara"
    assert you.say("tell.drew_turned", 1, card=card("7s")) == (
        "Sjever vuče okrenutu kartu, sedmicu špada"
    )
    given, taken = card("7c"), card("Ac")
    assert you.say("tell.exchanged", 0, given=given, taken=taken) == (
        "daješ sedmicu kupa za okrenutu kartu, asa kupa"
    )


def test_the_menu_plays_calls_and_swaps_the_card_in_the_accusative() -> None:
    you = south("chiamata")
    assert describe_action({"play": "Ac"}, you) == "igraj asa kupa"
    assert describe_action({"call": "Qc"}, you) == "zovi konja kupa"
    assert describe_action({"exchange": "7c"}, south()) == "zamijeni sedmicu kupa za okrenutu kartu"
    assert describe_action({"bid": "K"}, you) == "licitiraj kralja (R)"
    assert describe_action({"bid": "7"}, you) == "licitiraj sedmicu (7)"
    assert describe_action({"bid": 75}, you) == "licitiraj dvicu na 75"
    assert HR.say("move.not_held", card=card("Ac"), code="Ac", yours="") == "nemaš asa kupa (Ac)"


def test_seat_names_are_declined_like_any_noun_and_nicknames_stand_beside_suigrac() -> None:
    """Seat names are declined (issue 39: "pita Sjevera", "suigrač Sjeveroistoka"); a
    nickname, which no rule declines, stands beside "suigrača" as it is written."""
    you = south("briscola-4")
    asks = describe_action({"ask": "lisci", "to": 2}, you)
    assert asks == "pitaj suigrača Sjevera: imaš li lišina (karata bez bodova)?"
    orders = describe_action({"order": "carico", "to": 2}, you)
    assert orders == "naredi suigraču Sjeveru: igraj karika"
    assert describe_action({"look": 2}, you) == "pogledaj karte suigrača Sjevera"
    assert HR.say("view.partner_is", who="Ana") == "suigrač je Ana"
    assert HR.say("menu.ask", to="Ana", what="x") == "pitaj suigrača Ana: x?"
    rules = Rules.make("briscola-6", {"communication": "conversation"})
    six = Narrator(rules, Seating.of(rules, 0, "hr"))
    asked = {"kind": "ask", "seat": 2, "to": 4, "what": "lisci", "answer": "yes"}
    assert six.describe_talk(asked, True).startswith("Sjeveroistok pita suigrača Sjeverozapada: ")
    chiamata = south("chiamata")
    assert (
        chiamata.words.say("tell.partner_of", partner=chiamata.name(1), caller=chiamata.name(2))
        == "Istok je suigrač igrača Sjeveroistoka"
    )
    assert [chiamata.name(s).form("gen") for s in range(1, 5)] == [
        "Istoka", "Sjeveroistoka", "Sjeverozapada", "Zapada",
    ]  # fmt: skip


def test_what_the_partner_asks_and_orders_the_reader_says_te_and_ti() -> None:
    rules = Rules.make("briscola-4", {"communication": "conversation"})
    narrator = Narrator(rules, Seating.of(rules, 0, "hr"))
    asked = {"kind": "ask", "seat": 2, "to": 0, "what": "lisci", "answer": "yes"}
    assert narrator.describe_talk(asked, True) == (
        "Sjever te pita: imaš li lišina (karata bez bodova)? Ti: da"
    )
    trumps = {"kind": "ask", "seat": 0, "to": 2, "what": "trumps", "answer": "briscoline vestite"}
    assert narrator.describe_talk(trumps, True).endswith(
        "? Sjever: male briškule i figure briškule"
    )
    ordered = {"kind": "order", "seat": 2, "to": 0, "what": "trump-low"}
    assert narrator.describe_talk(ordered, True) == "Sjever ti naređuje: igraj malu briškulu"
    looked = {"kind": "look", "seat": 2, "to": 0}
    assert narrator.describe_talk(looked, True) == "Sjever gleda tvoje karte"


def test_a_trick_is_a_ruka_a_deal_an_igra_and_the_match_a_partija() -> None:
    you = south()
    points = HR.say("count.points", n=10)
    assert you.say("tell.took", 1, trick=3, points=points) == "Sjever nosi ruku 3: 10 bodova"
    assert you.say("tell.took", 0, trick=1, points=points) == "nosiš ruku 1: 10 bodova"
    assert HR.say("end.hand_over", n=3) == "Igra 3 je gotova"
    assert you.say("tell.hand_started", 1, n=2) == "--- igra 2: dijeli Sjever ---"
    assert HR.say("end.match_over") == "Partija je gotova"
    said = rules_said("briscola-2")
    assert "Ruku nosi najjača bačena karta u boji briškule" in said
    assert "Igru dobiva tko ima 61 bod ili više." in said
    assert "štih" not in said and "ruka 1" not in said


def test_carichi_are_karici_lisci_lisine_and_the_low_trumps_have_one_name() -> None:
    assert HR.say("word.carico") == "karik" and HR.say("word.carichi") == "karici"
    assert HR.say("word.liscio") == "lišina" and HR.say("word.lisci") == "lišine"
    assert HR.say("question.carichi") == "imaš li karika (asa ili tricu izvan briškule)"
    assert HR.say("order.liscio") == "igraj lišinu"
    assert HR.say("signal.low-trumps") == "imam malu briškulu (sedmicu ili manju)"
    assert HR.say("order.trump-low") == "igraj malu briškulu"
    assert HR.say("talkword.answer.vestite") == "figure briškule"
    assert HR.say("rule.court_order.title") == "Redoslijed figura"


def test_briskula_is_declined_and_a_familys_own_word_is_said_as_written() -> None:
    assert "Ako imaš dvicu briškule, smiješ je zamijeniti" in rules_said(
        "briscola-2", {"trump_exchange": "two"}
    )
    assert "Ne moraš odgovoriti na boju ni baciti briškulu" in rules_said("briscola-2")
    assert "bez briškule" in words("hr")["games"]["briscolone"]["summary"]
    assert "Ne moraš odgovoriti na boju ni baciti adut" in rules_said("briscola-2", trump="adut")
    assert "koja je" not in rules_said("briscola-4", {"communication": "conversation"})


def test_the_two_briskulas_have_their_own_names() -> None:
    """Issue 39: "Briškula s francuskim kartama, bosanska igra s 32 karte"; the Dalmatian
    briškula is played with the 40 Triestine cards."""
    names = [HR.say(f"game.{key}.name") for key in ("briscola-2", "briskula")]
    assert names == ["Briškula", "Briškula s francuskim kartama"]
    summary = HR.say("game.briskula.summary")
    assert summary.startswith("bosanska igra s 32 karte")
    assert "dalmatinska se igra s 40 tršćanskih karata" in summary


def test_the_rules_read_as_a_croatian_would_say_them() -> None:
    """Issue 39's Croatian lines: "poništava li se", "jedan krug oko stola, pa još jedan",
    "(po španjolsku)", "nikad se ne pita za asa ni za tricu"."""
    assert HR.say("rule.throw_in.help").startswith("poništava li se igra")
    assert "jedan krug oko stola, pa još jedan" in rules_said("briskula-double")
    assert HR.say("choice.exchange_timing.after-win").endswith("(po španjolsku)")
    talk = rules_said("briscola-4", {"communication": "conversation"})
    assert "nikad se ne pita za asa ni za tricu" in talk
    assert "Samo raisi pitaju" in rules_said("schembil")


def test_the_plurals_follow_croatian_one_few_and_many() -> None:
    assert [HR.say("table.cards_in_hand", n=n) for n in (1, 3, 5)] == [
        "1 karta u ruci", "3 karte u ruci", "5 karata u ruci",
    ]  # fmt: skip
    assert HR.say("table.stock", n=22) == "22 karte u špilu"
    assert HR.say("view.to_draw", n=34) == "; još 34 karte za vučenje"
    assert HR.say("standing.points", n=121, sides="Sjever 0") == "partija (do 121 boda): Sjever 0"
    assert HR.say("standing.hands", n=2, sides="ti 1") == "partija (na 2 dobivene igre): ti 1"
    assert "u igri je 36 karata" in rules_said("briscola-6")
    assert "u igri je 39 karata" in rules_said("briscola-3")
    assert "Dijeli se svih 40 karata, svakom po 8" in rules_said("chiamata")


def test_bids_are_said_in_words_and_their_case() -> None:
    you = south("chiamata")
    assert you.say("tell.bid", 1, bid=describe_bid("K", you)) == "Istok licitira kralja (R)"
    won = you.say("tell.auction_won", 0, bid=describe_bid("2 at 75", you))
    assert won == "dobivaš licitaciju: dvica na 75"  # no "s"/"sa" to agree with the bid
    view = {
        "auction": {
            "bids": [{"seat": 1, "bid": "pass"}, {"seat": 2, "bid": "K"}, {"seat": 0, "bid": "7"}],
            "called": None,
        },
        "sides": [[0], [1], [2], [3], [4]], "points": [0] * 5, "stock_size": 0,
        "visible_hands": {}, "known_cards": {}, "trick": [], "hand": [],
    }  # fmt: skip
    assert describe_view(view, you)[0] == (
        "licitacija: Istok kaže dalje, Sjeveroistok licitira kralja (R), licitiraš sedmicu (7)"
    )


def test_your_own_call_is_said_in_the_second_person() -> None:
    you = south("chiamata")
    view = {
        "auction": {"called": "Qc", "caller": 0, "partner": None, "high": "K", "bids": []},
        "sides": [[0], [1], [2], [3], [4]], "points": [0] * 5, "stock_size": 0,
        "visible_hands": {}, "known_cards": {}, "trick": [], "hand": [],
    }  # fmt: skip
    assert describe_view(view, you)[0] == (
        "briškula: kupe; zoveš konja kupa, licitacija: kralj (R); suigrač se još ne zna"
    )


def test_nobody_is_addressed_formally_nor_in_the_masculine() -> None:
    assert HR.say("prefs.trump") == "Tvoja riječ za briškulu"
    assert HR.say("table.invited") == "Imaš poziv za stol: odaberi nadimak i sjedni."
    assert HR.say("words.family_no_name") == "Najprije daj ime ovim pravilima."
    assert HR.say("replay.winner", names="Ana i Marko") == "Pobjeda: Ana i Marko"
    assert south().say("tell.alone", 0) == "igraš bez suigrača"
    assert HR.say("tell.match_won", form="you") == "=== partija je gotova: pobjeđuješ ==="


def test_the_computers_levels_agree_with_racunalo() -> None:
    levels = [HR.say(f"level.{name}") for name in ("beginner", "intermediate", "strong")]
    assert [HR.say("table.bot_label", name="Ante", level=level) for level in levels] == [
        "Ante, početničko računalo", "Ante, srednje računalo", "Ante, jako računalo",
    ]  # fmt: skip


def test_the_fair_shuffle_speaks_of_a_hash_and_says_what_it_is() -> None:
    said = HR.say("fair.commitment")
    assert said.startswith("Otisak (hash) objavljen pri dijeljenju: ")
    assert "dokazuje da se dijeljenje poslije nije mijenjalo" in said
    assert "bveza" not in HR.say("fair.bad", committed="a", computed="b")


def test_the_rais_sit_at_seats_counted_from_one() -> None:
    said = rules_said("schembil", {"rais": "0-3"})
    assert "Kapetan (rais) jedne ekipe sjedi na mjestu 1, a druge na mjestu 4." in said


def test_the_terminal_names_the_game_in_croatian() -> None:
    session = Session(Rules.make("briscola-4"), 0, {}, random.Random(1), lang="hr")
    assert session.opening()[0].startswith(
        "Briškula u parovima: sjediš na jugu; igra ide od tebe redom: Istok, Sjever i Zapad"
    )
