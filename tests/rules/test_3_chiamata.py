"""rules.md §3, Briscola chiamata: the auction, the call, the secret partner, scoring and
the match."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from briscola.catalog import variants_json
from briscola.engine import (
    GameState,
    IllegalActionError,
    Match,
    Play,
    Rules,
    parse_record,
    replay,
    seat_view,
    shuffled_deal,
    spectator_view,
)
from briscola.engine.actions import Bid, Call, Pass
from briscola.engine.cards import Rank
from briscola.engine.chiamata import Chiamata, multiplier
from briscola.engine.events import CardPlayed, PartnerRevealed, ThrownIn
from helpers import card, cards, make_deal

# Dealer 4, so seat 0 bids first and leads. Seat 4 holds no card points.
HANDS = [
    "Ac 3c Kc Qc Jc 7c 6c 5c",
    "Ad 3d Kd Qd Jd 7d 6d 5d",
    "As 3s Ks Qs Js 7s 6s 5s",
    "Ab 3b Kb Qb Jb 7b 6b 5b",
    "4c 2c 4d 2d 4s 2s 4b 2b",
]


def chiamata(options: dict[str, object] | None = None, hands: list[str] = HANDS) -> GameState:
    rules = Rules.make("chiamata", options)
    return GameState(rules, make_deal(rules, hands, None, dealer=4))


def bids(state: GameState, *moves: str | int) -> None:
    """Each move is the bid of the seat to act: a rank, points, or 'pass'."""
    for m in moves:
        seat = state.turn
        if m == "pass":
            state.apply(Pass(seat))
        elif isinstance(m, int):
            state.apply(Bid(seat, points=m))
        else:
            state.apply(Bid(seat, rank=Rank(m)))


def play_out(state: GameState) -> None:
    while not state.over:
        state.apply(next(a for a in state.legal_actions() if isinstance(a, Play)))


def test_deal_and_auction_start() -> None:
    state = chiamata()
    assert state.phase == "auction" and state.turn == 0
    assert state.trump is None and state.stock_size == 0 and state.turned is None
    assert all(len(h) == 8 for h in state.hands)
    legal = state.legal_actions()
    assert Pass(0) in legal and Bid(0, rank=Rank.ACE) in legal
    assert not any(isinstance(a, Bid) and a.points is not None for a in legal)
    with pytest.raises(IllegalActionError, match="auction comes first"):
        state.apply(Play(0, card("Ac")))


def test_bids_go_down_in_rank_then_up_in_points() -> None:
    state = chiamata()
    bids(state, "A", "3")
    with pytest.raises(IllegalActionError, match="does not beat"):
        state.apply(Bid(2, rank=Rank.ACE))
    with pytest.raises(IllegalActionError, match="only once someone has bid a 2"):
        state.apply(Bid(2, points=70))
    bids(state, "2", 61, 75)
    with pytest.raises(IllegalActionError, match="does not beat"):
        state.apply(Bid(0, points=70))
    assert min(a.points for a in state.legal_actions() if isinstance(a, Bid)) == 76  # type: ignore[type-var]


def test_a_pass_is_final_and_the_last_bidder_calls() -> None:
    state = chiamata()
    bids(state, "A", "pass", "3", "pass", "pass")
    assert state.turn == 0  # seats 1, 3, 4 are out
    bids(state, "K")
    assert state.turn == 2
    bids(state, "pass")
    assert state.phase == "call" and state.turn == 0
    assert {a.card.rank for a in state.legal_actions()} == {Rank.KING}  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError, match="call a card of rank K"):
        state.apply(Call(0, card("Qd")))


def test_four_passes_leave_the_last_to_bid_or_pass() -> None:
    state = chiamata()
    bids(state, "pass", "pass", "pass", "pass")
    assert state.turn == 4 and not state.over
    bids(state, "7")
    assert state.phase == "call" and state.turn == 4


def test_all_pass_ends_the_hand_for_a_redeal() -> None:
    state = chiamata()
    bids(state, "pass", "pass", "pass", "pass", "pass")
    assert state.over and state.winners() == ()
    chiamata_addon = state.addon(Chiamata)
    assert isinstance(chiamata_addon, Chiamata) and chiamata_addon.redeal(state)


def called_with_partner() -> GameState:
    state = chiamata()
    bids(state, "K", "pass", "pass", "pass", "pass")
    state.apply(Call(0, card("Kd")))  # held by seat 1
    return state


def test_the_call_sets_trump_and_the_secret_partner() -> None:
    state = called_with_partner()
    assert state.trump is card("Kd").suit and state.phase == "play" and state.turn == 0
    assert state.sides == tuple((s,) for s in range(5))  # nobody knows the sides yet
    views = {s: seat_view(state, s) for s in range(5)}
    assert views[1].auction is not None and views[1].auction.partner == 1  # the partner knows
    for seat in (0, 2, 3, 4):
        auction = views[seat].auction
        assert auction is not None and auction.partner is None
        assert auction.caller == 0 and auction.called is card("Kd")
    assert spectator_view(state).auction.partner is None  # type: ignore[union-attr]


def test_the_called_cards_play_reveals_the_partner() -> None:
    state = called_with_partner()
    state.apply(Play(0, card("5c")))
    events = state.apply(Play(1, card("Kd")))
    for seat in range(5):
        assert seat_view(state, seat).auction.partner == 1  # type: ignore[union-attr]
    events += state.apply(Play(2, card("5s")))
    events += state.apply(Play(3, card("5b")))
    events += state.apply(Play(4, card("2b")))
    assert PartnerRevealed(0, 1) in events
    assert state.sides == ((0, 1), (2, 3, 4))


def swapped(hands: list[str], a: str, b: str) -> list[str]:
    return [" ".join(b if c == a else a if c == b else c for c in h.split()) for h in hands]


def test_swapping_who_holds_the_called_card_changes_no_other_view() -> None:
    """Non-interference: seat 1 or seat 3 holds Kd; no seat but those two can tell, until
    the called card is played."""
    worlds = [chiamata(), chiamata(hands=swapped(HANDS, "Kd", "Kb"))]
    for state in worlds:
        bids(state, "K", "pass", "pass", "pass", "pass")
        state.apply(Call(0, card("Kd")))
        for c in ("Ac", "5d", "5s", "5b", "2b", "6d", "6s", "6b", "2c", "3c"):
            state.apply(Play(state.turn, card(c)))
    for seat in (0, 2, 4, None):
        views = [seat_view(w, seat) if seat is not None else spectator_view(w) for w in worlds]
        assert views[0] == views[1]
    assert seat_view(worlds[0], 1) != seat_view(worlds[1], 1)


def test_calling_ones_own_card_plays_alone_and_cappotto_doubles() -> None:
    state = chiamata()
    bids(state, "K", "pass", "pass", "pass", "pass")
    state.apply(Call(0, card("Kc")))
    # the caller knows it plays alone; nobody else does until Kc is played
    assert seat_view(state, 0).auction.partner == 0  # type: ignore[union-attr]
    assert seat_view(state, 1).auction.partner is None  # type: ignore[union-attr]
    # seat 0 leads its coppe, the trump suit: it takes every trick
    while not state.over:
        seat = state.turn
        legal = [a for a in state.legal_actions() if isinstance(a, Play)]
        state.apply(legal[0] if seat else max(legal, key=lambda a: state.rules.strength[a.card]))
    assert state.seat_points[0] == 120 and state.winners() == (0,)
    assert state.sides == ((0,), (1, 2, 3, 4))
    addon = state.addon(Chiamata)
    assert isinstance(addon, Chiamata)
    assert addon.scores(state) == (8, -2, -2, -2, -2)


def test_scores_with_a_partner_follow_the_caller_sides_points() -> None:
    for seed in range(40):
        rules = Rules.make("chiamata")
        state = GameState(rules, shuffled_deal(rules, seed % 5, random.Random(seed)))
        rng = random.Random(seed)
        while not state.over:
            legal = state.legal_actions()
            passes = [a for a in legal if isinstance(a, Pass)]
            # bid once (a rank), then pass: keeps the bids at 61 points
            bid = [a for a in legal if isinstance(a, Bid) and a.rank is not None]
            if passes and (state.moves or not bid):
                state.apply(passes[0])
            elif bid:
                state.apply(bid[0])
            else:
                state.apply(rng.choice(legal))
        addon = state.addon(Chiamata)
        assert isinstance(addon, Chiamata)
        if addon.redeal(state):
            continue
        caller, partner = addon.caller, addon.partner
        assert caller is not None and partner is not None
        team = {caller, partner}
        taken = sum(state.seat_points[s] for s in team)
        won = taken >= 61
        factor = (2 if taken in (0, 120) else 1) * (1 if won else -1)
        expected = []
        for s in range(5):
            if s == caller:
                expected.append((4 if caller == partner else 2) * factor)
            elif s == partner:
                expected.append(factor)
            else:
                expected.append(-factor)
        assert addon.scores(state) == tuple(expected)
        assert sum(expected) == 0
        assert set(state.winners()) == (team if won else set(range(5)) - team)


def test_a_points_bid_sets_the_target_and_the_multiplier() -> None:
    state = chiamata({"multipliers": "high-bids"})
    bids(state, "2", 85, "pass", "pass", "pass", "pass")
    assert state.phase == "call" and state.turn == 1
    state.apply(Call(1, card("2c")))  # held by seat 4
    play_out(state)
    addon = state.addon(Chiamata)
    assert isinstance(addon, Chiamata) and addon.need() == 85
    taken = state.seat_points[1] + state.seat_points[4]
    won = taken >= 85
    assert (1 in state.winners()) == won
    sign = 1 if won else -1
    cappotto = 2 if taken in (0, 120) else 1
    assert addon.scores(state)[1] == sign * 2 * 3 * cappotto  # type: ignore[index]


@pytest.mark.parametrize(
    ("points", "factor"),
    [(61, 1), (70, 1), (71, 2), (80, 2), (81, 3), (90, 3), (91, 4), (100, 4), (101, 5), (120, 5)],
)
def test_high_bid_multipliers(points: int, factor: int) -> None:
    assert multiplier(points) == factor


def test_the_caller_may_lead_by_house_rule() -> None:
    state = chiamata({"leader": "caller"})
    bids(state, "pass", "A", "pass", "pass", "pass")
    state.apply(Call(1, card("As")))
    assert state.turn == 1 and state.order[0] == 1


def test_a_hand_with_no_points_is_thrown_in_by_house_rule() -> None:
    state = chiamata({"throw_in": "yes"})
    assert state.over
    assert ThrownIn(4, tuple(state.hands[4])) in state.opening_events()
    assert not chiamata().over


def test_replay_reports_auction_call_reveal_and_score() -> None:
    state = called_with_partner()
    play_out(state)
    report = replay(parse_record(json.loads(json.dumps(state.to_record())))).to_json()
    assert report["auction"][:2] == [{"seat": 0, "bid": "K"}, {"seat": 1, "bid": "pass"}]
    assert report["caller"] == 0 and report["called"] == "Kd" and report["partner"] == 1
    assert report["finished"] is True and len(report["tricks"]) == 8
    assert report["score"] is not None and sum(report["score"]) == 0
    assert report["points"] == [
        sum(state.seat_points[s] for s in side) for side in ((0, 1), (2, 3, 4))
    ]


def test_match_runs_to_the_target_and_redeals_when_all_pass() -> None:
    rules = Rules.make("chiamata", {"target": "points:7"})
    match = Match(rules, random.Random(1), dealer=4)
    first_dealer = match.dealer
    for _ in range(5):
        match.apply(Pass(match.hand.turn))
    assert match.number == 2 and match.dealer == first_dealer  # dealt again, same dealer
    assert match.history[-1].replayed and match.history[-1].counted == 0
    rng = random.Random(2)
    while not match.over:
        match.apply(rng.choice(match.hand.legal_actions()))
    assert max(match.scores) >= 7 and sum(match.scores) == 0
    assert match.winners == tuple(s for s, x in enumerate(match.scores) if x == max(match.scores))


@pytest.mark.parametrize("goal", [1, 3])
def test_a_match_of_n_hands_ends_after_exactly_n_hands(goal: int) -> None:
    """``target=hands:N`` (rules.md §3, an agreed number of hands): after N hands the match
    is over whatever the scores; the highest total wins, seats tied at the top share it.
    Ties at the top are common: when the caller loses, every opponent scores the same."""
    shared = 0
    for seed in range(150):
        match = Match(Rules.make("chiamata", {"target": f"hands:{goal}"}), random.Random(seed))
        rng = random.Random(seed + 1000)
        while not match.over:
            assert match.hands_played < goal
            match.apply(rng.choice(match.hand.legal_actions()))
        assert match.hands_played == goal
        assert sum(not h.replayed for h in match.history) == goal
        best = max(match.scores)
        assert match.winners == tuple(s for s, x in enumerate(match.scores) if x == best)
        shared += len(match.winners) > 1
    assert shared > 30  # the case that used to play on


def test_a_match_to_n_points_ends_when_a_seat_reaches_them() -> None:
    """``target=points:N``: the hand that takes a seat to N ends the match; the highest
    total wins, and seats tied at the top share the win, as over a number of hands."""
    shared = 0
    for seed in range(60):
        match = Match(Rules.make("chiamata", {"target": "points:5"}), random.Random(seed))
        rng = random.Random(seed + 1000)
        while not match.over:
            assert max(match.scores) < 5
            match.apply(rng.choice(match.hand.legal_actions()))
        best = max(match.scores)
        assert best >= 5
        assert match.winners == tuple(s for s, x in enumerate(match.scores) if x == best)
        shared += len(match.winners) > 1
    assert shared > 0  # ties at the top happen at this total too


def test_match_over_a_number_of_hands() -> None:
    match = Match(Rules.make("chiamata", {"target": "hands:3"}), random.Random(5))
    rng = random.Random(6)
    while not match.over:
        match.apply(rng.choice(match.hand.legal_actions()))
    assert match.hands_played >= 3
    assert match.winners and match.scores[match.winners[0]] == max(match.scores)


def test_the_target_rule_says_what_ends_the_match() -> None:
    """``briscola variants --json`` gives each rule's help: it says what ends the match."""
    (game,) = [g for g in variants_json() if g["key"] == "chiamata"]
    (target,) = [r for r in game["rules"] if r["name"] == "target"]
    assert "agreed number of hands (hands:N)" in target["help"]
    assert "the highest total wins, seats tied at the top share the win" in target["help"]
    assert {"pattern": "points:N", "min": 1, "max": 9999} in target["patterns"]


# ----------------------------------------------------------------- deals thrown in, in a match


def test_a_match_scores_a_thrown_in_deal_and_the_same_dealer_deals_again() -> None:
    """rules.md §3, ``throw_in``: the deal scores nothing and the match goes on. Seed 387
    with dealer 4 throws the first deal in (a seat holds no card points)."""
    match = Match(Rules.make("chiamata", {"throw_in": "yes"}), random.Random(387), dealer=4)
    assert any(isinstance(e, ThrownIn) for e in match.events)
    void = match.history[0]
    assert void.replayed and void.counted == 0 and void.scores == (0,) * 5
    assert match.number == 2 and match.dealer == 4 and match.hands_played == 0
    assert not match.hand.over and match.hand.legal_actions()
    assert match.scores == [0] * 5


def test_seeded_chiamata_matches_with_throw_in_always_end() -> None:
    """Deals thrown in at the start of a match, after a hand, and after all passed: every
    match ends. Bidders pass often, so that all five passing happens too."""
    thrown = passed_out = 0
    for seed in range(400):
        match = Match(Rules.make("chiamata", {"throw_in": "yes"}), random.Random(seed))
        rng = random.Random(seed + 1)
        for _ in range(2000):
            if match.over:
                break
            legal = match.hand.legal_actions()
            assert legal, f"seed {seed}: hand {match.number} has no legal action"
            passing = [a for a in legal if isinstance(a, Pass)]
            match.apply(passing[0] if passing and rng.random() < 0.7 else rng.choice(legal))
        assert match.over, f"seed {seed}: the match did not end"
        thrown += sum(isinstance(e, ThrownIn) for e in match.events)
        passed_out += sum(h.replayed for h in match.history)
    assert thrown > 0 and passed_out > thrown


def test_the_terminal_game_tells_a_thrown_in_deal_and_plays_on() -> None:
    args = ["--game", "chiamata", "--rule", "throw_in=yes", "--seed", "387", "--bot", "random"]
    done = subprocess.run(
        [str(Path(sys.executable).parent / "briscola"), "play", "--plain", *args],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in done.stderr, done.stderr
    out = done.stdout
    assert "you left the match" in out  # at the first chance to move, not in a traceback
    assert "the deal is thrown in and dealt again" in out
    assert out.index("--- hand 1:") < out.index("thrown in") < out.index("--- hand 2:")
    assert "your hand:" in out


# ----------------------------------------------------------------- the court order in the auction


def test_under_south_a_bid_of_j_comes_before_q() -> None:
    """rules.md §3: the bids go down the table's order of strength; under
    ``court_order=south`` the fante (J) outranks the cavallo (Q)."""
    south = chiamata({"court_order": "south"})
    bids(south, "K")
    offered = [a.rank for a in south.legal_actions() if isinstance(a, Bid)]
    assert offered[:2] == [Rank.JACK, Rank.QUEEN]
    bids(south, "J", "Q")
    with pytest.raises(IllegalActionError, match=r"does not beat.*A 3 K J Q 7"):
        south.apply(Bid(south.turn, rank=Rank.JACK))
    north = chiamata()
    bids(north, "K", "Q", "J")
    with pytest.raises(IllegalActionError, match=r"does not beat.*A 3 K Q J 7"):
        north.apply(Bid(north.turn, rank=Rank.QUEEN))
    refused = chiamata({"court_order": "south"})
    bids(refused, "Q")
    with pytest.raises(IllegalActionError, match="does not beat"):
        refused.apply(Bid(refused.turn, rank=Rank.JACK))


def test_under_south_a_replayed_auction_follows_the_southern_order() -> None:
    state = chiamata({"court_order": "south"})
    bids(state, "J", "Q", "pass", "pass", "pass", "pass")
    assert state.phase == "call" and state.turn == 1
    state.apply(Call(1, card("Qs")))
    record = json.loads(json.dumps(state.to_record()))
    assert replay(parse_record(record)).error is None
    record["rules"] = {}
    error = replay(parse_record(record)).error
    assert error is not None and error.index == 1  # Q after J is no bid in the north


def test_the_bots_bid_in_the_tables_court_order() -> None:
    """The intermediate and beginner bots take the cheapest bid in the table's order, and
    value the fante above the cavallo of trumps under the southern order."""
    from briscola.ai import make_bot
    from briscola.ai.rules.auction import best_suit, bid_level, suit_value

    hand = cards("Ad 3d Kd 7d 5d Ab 4c 2s")
    assert bid_level(Bid(0, rank=Rank.JACK), south=True) == 3
    assert bid_level(Bid(0, rank=Rank.QUEEN), south=True) == 4
    trumps_j, trumps_q = cards("Jd 4c"), cards("Qd 4c")
    d = card("Jd").suit
    assert suit_value(trumps_j, d, south=True) > suit_value(trumps_q, d, south=True)
    assert suit_value(trumps_j, d) < suit_value(trumps_q, d)
    assert best_suit(hand, Rank.JACK, south=True)[1] > best_suit(hand, Rank.QUEEN, south=True)[1]
    for level in ("intermediate", "beginner"):
        for seed in range(20):
            state = chiamata({"court_order": "south"})
            bids(state, "K")
            bot = make_bot(level, seed)
            action = bot.choose(seat_view(state, state.turn))
            assert not (isinstance(action, Bid) and action.rank is Rank.QUEEN), level


# ----------------------------------------------------------------- the moment of the reveal


def test_the_sides_switch_the_moment_the_called_card_is_played() -> None:
    """rules.md §3: the partner is revealed, and the sides known, when the called card is
    played, not when its trick ends: events, views and a replay stopped right there."""
    state = called_with_partner()
    state.apply(Play(0, card("Ac")))
    events = state.apply(Play(1, card("Kd")))
    assert events == [CardPlayed(1, card("Kd")), PartnerRevealed(0, 1)]
    assert state.sides == ((0, 1), (2, 3, 4)) and state.points == [0, 0]
    for view in [*(seat_view(state, s) for s in range(5)), spectator_view(state)]:
        assert view.sides == ((0, 1), (2, 3, 4)) and view.points == (0, 0)
        assert view.auction is not None and view.auction.partner == 1
    report = replay(parse_record(json.loads(json.dumps(state.to_record())))).to_json()
    assert report["partner"] == 1 and report["points"] == [0, 0]
    before = called_with_partner()
    before.apply(Play(0, card("Ac")))
    report = replay(parse_record(before.to_record())).to_json()
    assert report["partner"] is None and report["points"] == [0] * 5
    rest = [state.apply(Play(s, card(c))) for s, c in ((2, "5s"), (3, "5b"), (4, "2b"))]
    assert not any(isinstance(e, PartnerRevealed) for batch in rest for e in batch)
    assert state.points == [11 + 4, 0]


def test_the_replay_report_lists_bids_as_the_moves_write_them() -> None:
    state = chiamata()
    bids(state, "A", "3", "2", 61, 75, "pass", "pass", "pass", "pass")
    record = state.to_record()
    report = replay(parse_record(record)).to_json()
    moves = [m for m in record["moves"] if "bid" in m]
    assert report["auction"] == moves
    assert {"seat": 4, "bid": 75} in report["auction"]
