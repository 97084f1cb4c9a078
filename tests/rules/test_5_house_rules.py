"""rules.md §5, the house rules: one test per house rule the engine plays (hand-built deals
where the rule needs a particular position, seeded random games where it needs many). The
core game's rules are in test_1_core_game.py, the games' in test_2_games.py."""

from __future__ import annotations

import random

import pytest

from briscola.engine import (
    Card,
    Deal,
    GameOverError,
    GameState,
    IllegalActionError,
    MalformedError,
    Match,
    NotYourTurnError,
    Play,
    Rank,
    Rules,
    RulesError,
    parse_record,
    replay,
    seat_view,
    shuffled_deal,
    spectator_view,
)
from briscola.engine.actions import Exchange, Signal
from briscola.engine.cards import ITALIAN_40
from briscola.engine.events import (
    CardDrawn,
    HandOver,
    HandShown,
    TrickWon,
    TrumpExchanged,
)
from briscola.engine.match import HandScored, HandStarted, MatchOver, PartnersDrawn
from helpers import (
    all_views,
    card,
    cards,
    find_finished,
    make_deal,
    new_state,
    play,
    random_state,
)

# ------------------------------------------------------------------ follow suit


def test_follow_suit_required_refuses_an_off_suit_card_when_able() -> None:
    state = new_state(
        "briscola-2",
        ["5b 2c 2d", "Ab 6s 4d"],
        "4s",
        dealer=1,
        options={"follow_suit": "required"},
    )
    play(state, "5b")
    assert state.legal_actions() == [Play(1, card("Ab"))]
    before = state.to_record()
    for off in ("6s", "4d"):
        assert not state.is_legal(Play(1, card(off)))
        with pytest.raises(IllegalActionError, match="must follow suit") as err:
            state.apply(Play(1, card(off)))
        assert off in str(err.value) and "bastoni" in str(err.value)
    assert state.to_record() == before
    play(state, "Ab")
    assert state.tricks[0].winner == 1


def test_follow_suit_required_allows_any_card_when_void() -> None:
    state = new_state(
        "briscola-2",
        ["5b 2c 2d", "Ac 6s 4d"],
        "4s",
        dealer=1,
        options={"follow_suit": "required"},
    )
    play(state, "5b")
    assert {a.card for a in state.legal_actions()} == set(cards("Ac 6s 4d"))
    play(state, "6s")
    assert state.tricks[0].winner == 1


def test_follow_suit_required_leader_plays_anything() -> None:
    state = new_state(
        "briscola-2", ["5b 2c 2d", "Ab 6s 4d"], "4s", dealer=1, options={"follow_suit": "required"}
    )
    assert {a.card for a in state.legal_actions()} == set(cards("5b 2c 2d"))


# ------------------------------------------------------------------ the trump exchange


def test_exchange_card_for_each_variant() -> None:
    def ex(variant: str, turned: str) -> str | None:
        rules = Rules.make("briscola-2", {"trump_exchange": variant})
        c = rules.exchange_card(card(turned))
        return None if c is None else str(c)

    assert ex("none", "Ks") is None
    assert ex("two", "Ks") == "2s" and ex("two", "4d") == "2d" and ex("two", "2s") is None
    assert ex("seven", "Ks") == "7s" and ex("seven", "4d") == "7d" and ex("seven", "7s") is None
    # Spanish: the 7 for a turned card higher than the 7, else the 2.
    for turned in ("As", "3s", "Ks", "Qs", "Js"):
        assert ex("seven-or-two", turned) == "7s", turned
    for turned in ("7s", "6s", "5s", "4s"):
        assert ex("seven-or-two", turned) == "2s", turned
    assert ex("seven-or-two", "2s") is None


def on_turn(variant: str, hands: list[str], trump: str) -> GameState:
    opts = {"trump_exchange": variant, "exchange_timing": "on-turn"}
    return new_state("briscola-2", hands, trump, dealer=1, options=opts)


@pytest.mark.parametrize(
    ("variant", "trump", "give"),
    [("two", "Ks", "2s"), ("seven", "Ks", "7s"), ("seven-or-two", "Ks", "7s"),
     ("seven-or-two", "5s", "2s"), ("seven", "5s", "7s")],
)  # fmt: skip
def test_exchange_on_turn(variant: str, trump: str, give: str) -> None:
    state = on_turn(variant, [f"{give} 5b 2c", "Ab 4c 4d"], trump)
    ex = Exchange(0, card(give))
    assert ex in state.legal_actions()
    assert seat_view(state, 0).legal[-1] == ex
    assert Exchange(1, card(give)) not in seat_view(state, 1).legal
    with pytest.raises(NotYourTurnError):
        state.apply(Exchange(1, card(give)))
    wrong = "2s" if give == "7s" else "7s"
    with pytest.raises(IllegalActionError, match=f"can only be exchanged for {give}"):
        state.apply(Exchange(0, card(wrong)))
    events = state.apply(ex)
    assert events == [TrumpExchanged(0, card(give), card(trump))]
    assert state.turned is card(give) and state.pile[0] is card(give)
    assert card(trump) in state.hands[0] and card(give) not in state.hands[0]
    assert state.turn == 0 and state.phase == "play"
    v1 = seat_view(state, 1)
    assert v1.turned is card(give) and v1.known_cards == {0: (card(trump),)}
    # Still seat 0's turn: it plays on as usual.
    play(state, "5b", "Ab")
    assert state.tricks[0].winner == 1


def test_exchange_on_turn_by_the_second_player() -> None:
    state = on_turn("two", ["5b 3c 2c", "Ab 2s 4d"], "Ks")
    assert not any(isinstance(a, Exchange) for a in state.legal_actions())
    play(state, "5b")
    assert Exchange(1, card("2s")) in state.legal_actions()
    state.apply(Exchange(1, card("2s")))
    assert state.turn == 1 and card("Ks") in state.hands[1]


def test_exchange_not_offered_when_the_card_is_not_held() -> None:
    state = on_turn("two", ["5b 3c 2c", "Ab 2s 4d"], "Ks")
    with pytest.raises(IllegalActionError, match="does not hold 2s"):
        state.apply(Exchange(0, card("2s")))


def test_exchange_on_turn_is_refused_once_the_stock_is_empty() -> None:
    state = on_turn("two", ["2s 5b 2c", "Ab 4c 4d"], "Ks")
    seen_with_stock = 0
    while state.stock_size > 0:
        if state.turn == 0:
            assert Exchange(0, card("2s")) in state.legal_actions()
            seen_with_stock += 1
        plays = [a for a in state.legal_actions() if isinstance(a, Play) and a.card != card("2s")]
        state.apply(plays[0])
    assert seen_with_stock >= 17
    assert state.turned is None
    while state.turn != 0:
        state.apply(state.legal_actions()[0])
    assert card("2s") in state.hands[0]
    assert not any(isinstance(a, Exchange) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="already been drawn"):
        state.apply(Exchange(0, card("2s")))


def test_exchange_refused_without_the_house_rule() -> None:
    state = new_state("briscola-2", ["2s 5b 2c", "Ab 4c 4d"], "Ks", dealer=1)
    assert not any(isinstance(a, Exchange) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="not part of the rules at this table"):
        state.apply(Exchange(0, card("2s")))


def brisca(hands: list[str], trump: str, stock: str = "", **options: object) -> GameState:
    """Brisca (Spanish exchange after a win, the 7 or the 2), dealer 1, so seat 0 leads."""
    players = len(hands)
    opts = {"players": players, **options} if players != 2 else options
    return new_state("brisca", hands, trump, dealer=players - 1, stock=stock, options=opts)


def exchanges(state: GameState) -> list[Exchange]:
    return [a for a in state.legal_actions() if isinstance(a, Exchange)]


def test_exchange_after_win_is_offered_at_the_winners_next_lead() -> None:
    state = brisca(["Ab 7s 2c", "4c 4d 5d"], "Ks", stock="3c 3d")
    # Not before any trick was won.
    assert state.legal_actions() == [Play(0, c) for c in cards("Ab 7s 2c")]
    with pytest.raises(IllegalActionError, match="only be exchanged by the winner of the last"):
        state.apply(Exchange(0, card("7s")))
    events = play(state, "Ab", "4c")
    # No pause: the hand draws at once, and nothing public says that seat 0 holds the 7.
    assert [(e.seat, e.card) for e in events if isinstance(e, CardDrawn)] == [
        (0, card("3c")),
        (1, card("3d")),
    ]
    assert state.phase == "play" and state.turn == 0
    assert state.legal_actions() == [
        *(Play(0, c) for c in cards("7s 2c 3c")),
        Exchange(0, card("7s")),
    ]
    assert Exchange(0, card("7s")) in seat_view(state, 0).legal
    assert seat_view(state, 1).legal == () and seat_view(state, 1).phase == "play"
    with pytest.raises(NotYourTurnError):
        state.apply(Exchange(1, card("7s")))
    events = state.apply(Exchange(0, card("7s")))
    assert events == [TrumpExchanged(0, card("7s"), card("Ks"))]
    assert state.phase == "play" and state.turn == 0 and state.turned is card("7s")
    assert state.pile[0] is card("7s")
    assert sorted(state.hands[0]) == sorted(cards("2c Ks 3c"))
    assert seat_view(state, 1).known_cards == {0: (card("Ks"),)}
    assert seat_view(state, 1).turned is card("7s")
    # Once only; then seat 0 leads as usual.
    assert exchanges(state) == []
    play(state, "Ks", "4d")
    assert state.tricks[-1].winner == 0


def test_exchange_after_win_is_declined_by_playing_and_the_window_closes() -> None:
    state = brisca(["Ab 7s 2c", "4c 4d 5c"], "Ks", stock="3c 3d")
    play(state, "Ab", "4c")
    assert exchanges(state) == [Exchange(0, card("7s"))]
    play(state, "2c")  # declined: seat 0 leads instead
    # The window closed with the lead. (A leader does not act again in its own trick, so
    # this shows in what the others may do, and in the next trick.)
    assert state.turn == 1 and exchanges(state) == []
    play(state, "5c")  # seat 1 takes the trick with the 5 of coppe
    assert state.tricks[-1].winner == 1 and state.turn == 1
    assert exchanges(state) == []
    play(state, "4d")
    # Seat 0 still holds the 7, but did not win the last trick.
    assert state.turn == 0 and card("7s") in state.hands[0]
    assert exchanges(state) == [] and Exchange(0, card("7s")) not in seat_view(state, 0).legal
    before = state.to_record()
    with pytest.raises(IllegalActionError, match="winner of the last trick"):
        state.apply(Exchange(0, card("7s")))
    assert state.to_record() == before and state.turned is card("Ks")


def test_exchange_after_win_not_for_another_seat_holding_the_card() -> None:
    # Seat 1 holds the 7 of trumps but loses the trick: seat 0 wins and lacks it.
    state = brisca(["Ab 6s 2c", "4c 7s 5d"], "Ks", stock="3c 3d")
    events = play(state, "Ab", "4c")
    assert [(e.seat, e.card) for e in events if isinstance(e, CardDrawn)] == [
        (0, card("3c")),
        (1, card("3d")),
    ]
    assert exchanges(state) == []
    with pytest.raises(NotYourTurnError):
        state.apply(Exchange(1, card("7s")))
    play(state, "2c")
    # Seat 1's turn, after the leader has played: it holds the 7 but won nothing.
    assert state.turn == 1 and exchanges(state) == []
    with pytest.raises(IllegalActionError, match="winner of the last trick"):
        state.apply(Exchange(1, card("7s")))
    assert state.turned is card("Ks") and card("7s") in state.hands[1]


def test_exchange_after_win_not_with_a_card_drawn_just_now() -> None:
    # Seat 0 wins the first trick without the 7 of trumps, and draws it.
    state = brisca(["Ab 6c 2c", "4c 4d 5d"], "Ks", stock="7s 3d")
    events = play(state, "Ab", "4c")
    assert CardDrawn(0, card("7s"), frozenset({0})) in events
    assert state.turn == 0 and card("7s") in state.hands[0]
    assert exchanges(state) == []
    with pytest.raises(IllegalActionError, match="held before drawing"):
        state.apply(Exchange(0, card("7s")))
    # It wins the next trick holding it: now it may.
    play(state, "2c", "4d")
    assert state.tricks[-1].winner == 0
    assert exchanges(state) == [Exchange(0, card("7s"))]


def test_exchange_after_win_survives_talk_before_the_lead() -> None:
    # Four players with signals: seat 0 wins, signals, and may still exchange before leading.
    state = brisca(
        ["Ab 7s 2c", "4c 4d 5d", "5c 6d 7d", "6c Jd Qd"],
        "Ks",
        communication="signals",
        signal_audience="table",
    )
    play(state, "Ab", "4c", "5c", "6c")
    assert state.turn == 0 and exchanges(state) == [Exchange(0, card("7s"))]
    state.apply(Signal(0, "low-trumps"))
    assert exchanges(state) == [Exchange(0, card("7s"))]
    state.apply(Exchange(0, card("7s")))
    assert state.turned is card("7s") and card("Ks") in state.hands[0]


@pytest.mark.parametrize("turned", ["As", "3s", "Ks", "Qs", "Js", "7s", "6s", "5s", "4s"])
def test_brisca_default_exchange_is_the_seven_above_a_seven_else_the_two(turned: str) -> None:
    give = "7s" if turned in ("As", "3s", "Ks", "Qs", "Js") else "2s"
    held = "7s 2s" if turned != "7s" else "2s 6c"
    state = brisca([f"Ab {held}", "4c 4d 5d"], turned)
    play(state, "Ab", "4c")
    assert exchanges(state) == [Exchange(0, card(give))]
    if turned != "7s":
        other = "2s" if give == "7s" else "7s"
        with pytest.raises(IllegalActionError, match=f"can only be exchanged for {give}"):
            state.apply(Exchange(0, card(other)))
    events = state.apply(Exchange(0, card(give)))
    assert events == [TrumpExchanged(0, card(give), card(turned))]
    assert state.turned is card(give) and card(turned) in state.hands[0]


def seat_0_wins_every_trick_holding_the_seven() -> GameState:
    """Brisca, turned Ks: seat 0 holds the 7 of trumps and draws every other trump and
    every card that can take a trick; seat 1 holds no trump until it draws the turned card
    in the last round of drawing. Whatever seat 0 leads wins until then."""
    mine = cards("3s Qs Js 6s 5s 4s 2s Ac Ad Ab 3c 3d 3b Kc Kd Kb Qc Qd")
    theirs = cards("Jc 7c 6c 5c 4c 2c Jd 7d 6d 5d 4d 2d Qb Jb 7b 6b 5b 4b 2b")
    hands = ["7s As " + str(mine[0]), " ".join(map(str, theirs[:3]))]
    stock = [c for pair in zip(mine[1:], theirs[3:], strict=False) for c in pair]
    stock.append(mine[-1])
    state = brisca(hands, "Ks", stock=" ".join(map(str, stock)))
    assert len(state.deal.stock) == 33 and list(state.deal.stock) == stock
    return state


def lead_and_lose(state: GameState) -> None:
    """Seat 0 leads any card but the 7 of trumps; seat 1 plays its first card."""
    play(state, str(next(c for c in state.hands[0] if c != card("7s"))))
    play(state, str(state.hands[1][0]))
    assert state.tricks[-1].winner == 0


def test_exchange_after_win_not_in_the_last_round_of_drawing() -> None:
    state = seat_0_wins_every_trick_holding_the_seven()
    lead_and_lose(state)
    # Seat 0 may exchange at every lead while the turned card is still to be drawn after
    # a later round, down to the lead before the last round of drawing ...
    while state.stock_size > 0:
        assert exchanges(state) == [Exchange(0, card("7s"))], len(state.tricks)
        lead_and_lose(state)
    assert len(state.tricks) == 17
    # ... but not after it: that round gave the turned card to seat 1.
    assert state.turned is None and state.known[1] == {card("Ks")}
    assert card("7s") in state.hands[0] and exchanges(state) == []
    with pytest.raises(IllegalActionError, match="already been drawn"):
        state.apply(Exchange(0, card("7s")))


def test_exchange_after_win_at_the_lead_before_the_last_round() -> None:
    state = seat_0_wins_every_trick_holding_the_seven()
    while state.stock_size > 1 or len(state.tricks) == 0:
        lead_and_lose(state)
    assert state.stock_size == 1 and len(state.tricks) == 16
    # The last chance: the 7 becomes the turned card, and seat 1 draws it next round.
    state.apply(Exchange(0, card("7s")))
    assert state.turned is card("7s")
    events = play(state, "Ks", str(state.hands[1][0]))
    assert [(e.seat, e.card, e.audience) for e in events if isinstance(e, CardDrawn)][-1] == (
        1,
        card("7s"),
        None,
    )
    assert state.known[1] == {card("7s")} and state.known[0] == set()


@pytest.mark.parametrize("players", [2, 4])
def test_exchange_after_win_offered_exactly_when_the_rule_says(players: int) -> None:
    """Over many random games where players keep the exchange card: at each lead, the
    exchange is offered to the leader exactly when it won the last trick holding the card
    before drawing, and that was not the last round of drawing; never to anyone else."""
    rules = Rules.make("brisca", {"players": players})
    offered = taken = drawn_just_now = last_round = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = random_state(rules, rng)
        expect: Card | None = None
        while not state.over:
            legal = state.legal_actions()
            assert exchanges(state) == ([] if expect is None else [Exchange(state.turn, expect)])
            give = None if state.turned is None else rules.exchange_card(state.turned)
            for seat in range(players):
                if give is not None and (seat != state.turn or expect is None):
                    assert not state.is_legal(Exchange(seat, give))
            if expect is not None:
                offered += 1
                if rng.random() < 0.25:
                    state.apply(Exchange(state.turn, expect))
                    taken += 1
                    expect = None
                    continue
            keep = [a for a in legal if isinstance(a, Play) and a.card is not give]
            pile_before = len(state.pile)
            events = state.apply(rng.choice(keep or legal))
            expect = None
            won = [e.winner for e in events if isinstance(e, TrickWon)]
            if not won or give is None or give not in state.hands[won[0]]:
                continue
            winner = won[0]
            if any(
                isinstance(e, CardDrawn) and e.seat == winner and e.card is give for e in events
            ):
                drawn_just_now += 1
            elif pile_before > players:
                expect = give
            else:
                assert pile_before == players and state.turned is None
                last_round += 1
    assert offered > 10 and taken > 0 and drawn_just_now > 0 and last_round > 0


# ------------------------------------------------------------------ turned ace or three


@pytest.mark.parametrize(
    ("key", "high"),
    [
        ("briscola-2", (Rank.ACE, Rank.THREE)),
        ("briscola-4", (Rank.ACE, Rank.THREE)),
        ("briscola-6", (Rank.ACE, Rank.THREE)),
        ("briskula", (Rank.ACE, Rank.TEN)),  # the 32-card deck: its two strongest
        ("briskula-double", (Rank.ACE, Rank.TEN)),
    ],
)
def test_turned_high_reshuffle_never_turns_the_two_strongest_ranks(
    key: str, high: tuple[Rank, Rank]
) -> None:
    rules = Rules.make(key, {"turned_high": "reshuffle"})
    stays = Rules.make(key)
    turned_with_stays: set[Rank] = set()
    for seed in range(150):
        deal = shuffled_deal(rules, seed % rules.players, random.Random(seed))
        assert deal.trump is not None and deal.trump.rank not in high
        deal.check(rules)
        assert sorted(deal.cards()) == sorted(rules.deck)
        other = shuffled_deal(stays, seed % rules.players, random.Random(seed))
        assert other.trump is not None
        turned_with_stays.add(other.trump.rank)
    assert set(high) <= turned_with_stays  # the control: without the rule both turn up


@pytest.mark.parametrize(
    ("key", "refused", "kept"),
    [("briscola-2", ("As", "3s"), ("Ks", "Ts")), ("briskula", ("As", "Ts"), ("Ks", "3s"))],
)
def test_turned_high_reshuffle_refuses_a_record_deal_with_a_turned_high_card(
    key: str, refused: tuple[str, ...], kept: tuple[str, ...]
) -> None:
    rules = Rules.make(key, {"turned_high": "reshuffle"})
    hands = ["5b 2c 2d", "Ab 4c 4d"] if key == "briscola-2" else ["7c 8c 9c", "Ab 7d 8d"]
    kept = tuple(c for c in kept if card(c) in rules.deck)
    for turned in refused:
        with pytest.raises(MalformedError, match="turned_high=reshuffle") as err:
            make_deal(rules, hands, turned, dealer=1)
        assert turned in str(err.value)
        make_deal(Rules.make(key), hands, turned, dealer=1)
    for turned in kept:
        make_deal(rules, hands, turned, dealer=1)


# ------------------------------------------------------------------ 60-60


def tied_game() -> GameState:
    return find_finished(Rules.make("briscola-2"), lambda s: s.points == [60, 60])


def test_sixty_sixty_tie_has_no_winners() -> None:
    state = tied_game()
    assert state.over and state.winners() == ()
    assert state.rules.option("sixty_sixty") == "tie"
    for v in all_views(state):
        assert v.winners == () and v.points == (60, 60)


def test_sixty_sixty_last_trick_wins() -> None:
    state = tied_game()
    rec = state.to_record()
    rec["rules"] = {"sixty_sixty": "last-trick"}
    result = replay(parse_record(rec))
    last = result.state.tricks[-1].winner
    assert result.error is None and result.state.points == [60, 60]
    assert result.state.winners() == (last,)
    over = result.events[-1]
    assert isinstance(over, HandOver)
    assert over._replace(carichi=()) == HandOver((60, 60), (last,), sides=result.state.sides)
    # Without a tie the rule changes nothing.
    other = find_finished(Rules.make("briscola-2"), lambda s: s.points[0] > 60)
    rec = other.to_record()
    rec["rules"] = {"sixty_sixty": "last-trick"}
    assert replay(parse_record(rec)).state.winners() == (0,)


def test_sixty_sixty_last_trick_only_breaks_a_tie_among_the_tied() -> None:
    # Three players: a top tie, and the last trick taken by the third, lowest player.
    rules = Rules.make("briscola-3", {"sixty_sixty": "last-trick"})

    def odd(s: GameState) -> bool:
        p = s.points
        last = s.tricks[-1].winner
        return sorted(p)[1] == sorted(p)[2] and p[last] < max(p)

    state = find_finished(rules, odd)
    assert state.winners() == ()

    def fair(s: GameState) -> bool:
        p = s.points
        return sorted(p)[1] == sorted(p)[2] and p[s.tricks[-1].winner] == max(p)

    state = find_finished(rules, fair)
    assert state.winners() == (state.tricks[-1].winner,)


# ------------------------------------------------------------------ show partners, last trick


def test_show_partner_hands_once_the_stock_is_empty() -> None:
    rules = Rules.make("briscola-4", {"show_partner_hands": "yes"})
    rng = random.Random(9)
    state = random_state(rules, rng)
    shown_events = []
    while not state.over:
        views = [seat_view(state, s) for s in range(4)]
        for s, v in enumerate(views):
            partner = (s + 2) % 4
            if state.pile:
                assert v.visible_hands == {}
            else:
                assert v.visible_hands == {partner: tuple(state.hands[partner])}
        assert spectator_view(state).visible_hands == {}
        events = state.apply(rng.choice(state.legal_actions()))
        shown_events.extend(e for e in events if isinstance(e, HandShown))
    assert [(e.seat, e.audience) for e in shown_events] == [
        (s, frozenset({(s + 2) % 4})) for s in range(4)
    ]
    assert all(len(e.cards) == 3 for e in shown_events)


def test_show_partner_hands_no_by_default() -> None:
    rules = Rules.make("briscola-4")
    rng = random.Random(9)
    state = random_state(rules, rng)
    while not state.over:
        assert all(seat_view(state, s).visible_hands == {} for s in range(4))
        events = state.apply(rng.choice(state.legal_actions()))
        assert not any(isinstance(e, HandShown) for e in events)


def test_last_trick_allowed_and_hidden() -> None:
    allowed = new_state("briscola-2", ["5b 2c 2d", "Ab 4c 4d"], "4s", dealer=1)
    hidden = new_state(
        "briscola-2", ["5b 2c 2d", "Ab 4c 4d"], "4s", dealer=1, options={"last_trick": "hidden"}
    )
    for st in (allowed, hidden):
        assert seat_view(st, 0).last_trick is None
        play(st, "5b", "Ab")
    lt = seat_view(allowed, 0).last_trick
    assert lt is not None and lt.cards == (card("5b"), card("Ab")) and lt.winner == 1
    assert lt.leader == 0 and lt.points == 11
    assert spectator_view(allowed).last_trick == lt
    for v in all_views(hidden):
        assert v.last_trick is None
        assert v.to_json()["last_trick"] is None


# ------------------------------------------------------------------ rule configuration


def test_unknown_house_rule_is_refused_by_name() -> None:
    with pytest.raises(RulesError, match="'colour'") as err:
        Rules.make("briscola-2", {"colour": "red"})
    assert "briscola-2 has no house rule" in str(err.value)
    assert "follow_suit" in str(err.value)  # it lists the rules the game takes


def test_bad_value_is_refused_naming_the_rule() -> None:
    with pytest.raises(RulesError, match="house rule follow_suit cannot be 'maybe'") as err:
        Rules.make("briscola-2", {"follow_suit": "maybe"})
    assert str(err.value).endswith(": choose one of free, required")
    with pytest.raises(RulesError, match="house rule match"):
        Rules.make("briscola-2", {"match": "points:0"})
    with pytest.raises(RulesError, match=r"players cannot be 5: choose one of 2, 3, 4$"):
        Rules.make("briskula-double", {"players": 5})
    with pytest.raises(RulesError, match="house rule players"):
        Rules.make("briskula", {"players": 7})


def test_match_values_are_canonical() -> None:
    assert Rules.make("briscola-2", {"match": " points:121 "}).option("match") == "points:121"
    assert Rules.make("briscola-2", {"match": "hands:3"}).option("match") == "hands:3"


def test_a_rule_a_game_does_not_take_is_refused() -> None:
    with pytest.raises(RulesError, match="no house rule 'removed_two'"):
        Rules.make("briscola-2", {"removed_two": "2b"})
    with pytest.raises(RulesError, match="no house rule 'trump_exchange'"):
        Rules.make("briskula", {"trump_exchange": "two"})
    with pytest.raises(RulesError, match="no house rule 'players'"):
        Rules.make("briscola-2", {"players": 2})


def test_team_rules_on_a_game_without_teams_are_refused() -> None:
    with pytest.raises(RulesError, match="show_partner_hands"):
        Rules.make("briscola-2", {"show_partner_hands": "yes"})
    with pytest.raises(RulesError, match="house rule show_partner_hands needs a game in teams"):
        Rules.make("briskula", {"players": 3, "show_partner_hands": "yes"})
    with pytest.raises(RulesError, match="partners needs a game in teams"):
        Rules.make("brisca", {"partners": "drawn"})
    with pytest.raises(RulesError, match="in pairs only with 4 players, not 3"):
        Rules.make("briskula", {"players": 3, "teams": "pairs"})
    ok = Rules.make("briskula", {"players": 4, "teams": "pairs", "show_partner_hands": "yes"})
    assert ok.sides == ((0, 2), (1, 3))
    assert Rules.make("briskula", {"players": 4}).sides == ((0,), (1,), (2,), (3,))
    assert Rules.make("brisca", {"players": 4}).sides == ((0, 2), (1, 3))


def test_overrides_keep_the_player_count() -> None:
    rules = Rules.make("brisca", {"players": 4, "show_partner_hands": "yes"})
    assert rules.overrides() == {"players": 4, "show_partner_hands": "yes"}
    again = Rules.make(rules.key, rules.overrides())
    assert again.players == 4 and again.options == rules.options
    assert Rules.make("briskula", {"players": 2}).overrides() == {}
    assert (
        repr(Rules.make("briscola-2", {"cut": "cut"})) == "Rules.make('briscola-2', {'cut': 'cut'})"
    )


def test_cut_keeps_every_card() -> None:
    rules = Rules.make("briscola-2", {"cut": "cut"})
    plain = Rules.make("briscola-2")
    differs = 0
    for seed in range(20):
        a = shuffled_deal(rules, 0, random.Random(seed))
        b = shuffled_deal(plain, 0, random.Random(seed))
        a.check(rules)
        assert sorted(a.cards()) == sorted(b.cards())
        differs += a != b
    assert differs == 20


# ------------------------------------------------------------------ matches


def drive(match: Match, rng: random.Random, limit: int = 100) -> None:
    while not match.over:
        match.apply(rng.choice(match.hand.legal_actions()))
        assert match.number <= limit


def test_match_best_of_three() -> None:
    for seed in range(6):
        rules = Rules.make("briscola-2")
        assert rules.option("match") == "best-of-3"
        m = Match(rules, random.Random(seed), dealer=1)
        drive(m, random.Random(seed + 100))
        assert max(m.hands_won) == 2 and min(m.hands_won) <= 1
        side = m.hands_won.index(2)
        assert m.winners == rules.sides[side]
        scored = [e for e in m.events if isinstance(e, HandScored)]
        assert scored == m.history and len(scored) >= 2
        won = [0, 0]
        for h in scored:
            if h.winners:
                won[rules.side_of[h.winners[0]]] += h.counted
            assert sum(h.points) == 120
        assert won == m.hands_won
        # The match ended with the hand that gave a side its second win.
        assert scored[-1].winners == rules.sides[side]
        started = [e for e in m.events if isinstance(e, HandStarted)]
        assert [e.dealer for e in started] == [(1 + i) % 2 for i in range(len(started))]
        assert [e.number for e in started] == list(range(1, len(started) + 1))
        assert m.events[-1] == MatchOver(
            m.winners, tuple(m.hands_won), tuple(m.totals), tuple(m.scores)
        )
        with pytest.raises(GameOverError):
            m.apply(Play(0, card("Ab")))


def test_match_dealer_rotates_round_the_table() -> None:
    rules = Rules.make("briscola-4", {"match": "hands:3"})
    m = Match(rules, random.Random(2), dealer=2)
    drive(m, random.Random(3))
    started = [e.dealer for e in m.events if isinstance(e, HandStarted)]
    assert started == [(2 + i) % 4 for i in range(len(started))]
    assert max(m.hands_won) == 3


def test_match_one_hand_and_best_of_five() -> None:
    m = Match(Rules.make("briscola-2", {"match": "one-hand"}), random.Random(1))
    drive(m, random.Random(1))
    assert m.number == 1 and len(m.history) == 1
    assert m.winners == m.history[0].winners
    m = Match(Rules.make("briscola-2", {"match": "best-of-5"}), random.Random(1))
    drive(m, random.Random(1))
    assert max(m.hands_won) == 3 and m.number >= 3


def cappotto_hand(rules: Rules) -> GameState:
    """Briscolone, dealer 1: seat 0 holds and draws every counting card, seat 1 every blank,
    so seat 0 takes every trick (no trump, and a blank never beats a counting card)."""
    counting = [c for c in ITALIAN_40 if rules.points[c] > 0]
    blank = [c for c in ITALIAN_40 if rules.points[c] == 0]
    stock = [c for pair in zip(counting[5:], blank[5:], strict=True) for c in pair]
    deal = Deal(1, (tuple(counting[:5]), tuple(blank[:5])), None, tuple(stock))
    deal.check(rules)
    return GameState(rules, deal)


@pytest.mark.parametrize(("cappotto", "counted"), [("double", 2), ("nothing", 1)])
def test_match_cappotto(cappotto: str, counted: int) -> None:
    rules = Rules.make("briscolone", {"match": "best-of-3", "cappotto": cappotto})
    m = Match(rules, random.Random(1), dealer=1)
    m.hand = cappotto_hand(rules)
    rng = random.Random(2)
    while m.number == 1 and not m.over:
        m.apply(rng.choice(m.hand.legal_actions()))
    assert m.history[0].points == (120, 0) and m.history[0].counted == counted
    assert m.hands_won == [counted, 0]
    assert m.over is (counted == 2)
    if m.over:
        assert m.winners == (0,)


def test_match_to_points_ends_on_cumulative_points() -> None:
    rules = Rules.make("briscolone")
    for seed in range(4):
        m = Match(rules, random.Random(seed))
        drive(m, random.Random(seed))
        totals = [0, 0]
        for i, h in enumerate(m.history):
            totals = [t + p for t, p in zip(totals, h.points, strict=True)]
            if i < len(m.history) - 1:
                assert max(totals) < 121 or totals[0] == totals[1]
        assert totals == m.totals and max(totals) >= 121 and totals[0] != totals[1]
        assert m.winners == rules.sides[totals.index(max(totals))]
        assert len(m.history) >= 2


def replay_into_match(m: Match, source: GameState) -> list[object]:
    """Play ``source``'s deal and moves as the match's current hand."""
    m.hand = GameState(m.rules, source.deal)
    out: list[object] = []
    for move in source.moves:
        out.extend(m.apply(move))
    return out


def test_match_sixty_sixty_replay_redeals_with_the_same_dealer() -> None:
    tied = tied_game()
    rules = Rules.make("briscola-2", {"sixty_sixty": "replay"})
    m = Match(rules, random.Random(1), dealer=tied.deal.dealer)
    out = replay_into_match(m, tied)
    scored = [e for e in out if isinstance(e, HandScored)]
    assert scored == [HandScored(1, (60, 60), (), 0, True)]
    assert m.hands_won == [0, 0] and not m.over
    assert m.number == 2 and m.dealer == tied.deal.dealer
    assert m.hand.deal.dealer == tied.deal.dealer and not m.hand.moves
    assert HandStarted(2, tied.deal.dealer) in out


def test_match_sixty_sixty_tie_passes_the_deal() -> None:
    tied = tied_game()
    m = Match(Rules.make("briscola-2"), random.Random(1), dealer=tied.deal.dealer)
    replay_into_match(m, tied)
    assert m.history[-1] == HandScored(1, (60, 60), (), 0, False)
    assert m.dealer == 1 - tied.deal.dealer and m.hands_won == [0, 0]


def test_match_sixty_sixty_replay_in_a_one_hand_match() -> None:
    tied = tied_game()
    m = Match(Rules.make("briscola-2", {"sixty_sixty": "replay", "match": "one-hand"}),
              random.Random(1), dealer=tied.deal.dealer)  # fmt: skip
    replay_into_match(m, tied)
    assert not m.over and m.number == 2
    drive(m, random.Random(5))
    assert m.over


def test_match_partners_drawn() -> None:
    rules = Rules.make("briscola-4", {"partners": "drawn"})
    m = Match(rules, random.Random(4))
    drawn = m.events[0]
    assert isinstance(drawn, PartnersDrawn)
    assert sorted(drawn.seating) == [0, 1, 2, 3] and m.seating == drawn.seating
    strength = [rules.strength[c] for c in drawn.cards]
    high = {drawn.seating[s] for s in rules.sides[0]}
    assert min(strength[p] for p in high) >= max(strength[p] for p in set(range(4)) - high)
