"""The fair shuffle: the canonical deal, commitments, FairDeals, ``briscola verify`` and
docs/fairness.md's check by hand."""

from __future__ import annotations

import hashlib
import json
import random
import re
import secrets
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from briscola.engine import (
    GAMES,
    BriscolaError,
    Deal,
    MalformedError,
    Match,
    Rules,
    parse_record,
    replay,
)
from briscola.engine.fairness import Fairness, canonical_deal, committed_bytes
from briscola.engine.match import parse_match_record
from briscola.fair_shuffle import FairDeals, check_record, commitment, verify_commitment
from briscola.terminal.cli import app
from helpers import make_deal

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")
runner = CliRunner()
SALT = "00" * 31 + "ff"


def golden_deal() -> Deal:
    return make_deal(Rules.make("briscola-2"), ["5b 5c Ad", "Ab Kb 6s"], "4s", 1, stock="7c")


def test_the_canonical_deal_is_stable() -> None:
    deal = golden_deal()
    rest = ",".join(f'"{c}"' for c in deal.to_json()["stock"])
    golden = (
        '{"dealer":1,"hands":[["5b","5c","Ad"],["Ab","Kb","6s"]],"stock":['
        + rest
        + '],"trump":"4s"}'
    )
    assert canonical_deal(deal) == golden.encode()
    assert rest.startswith('"7c","Ac","2c"')  # the stock in the order make_deal gives
    assert committed_bytes(deal, SALT) == golden.encode() + SALT.encode()
    assert commitment(deal, SALT) == hashlib.sha256(golden.encode() + SALT.encode()).hexdigest()


@pytest.mark.parametrize("game", list(GAMES))
def test_the_canonical_deal_is_the_sorted_compact_json_of_every_game(game: str) -> None:
    options: dict[str, object] = {"players": 4} if game in ("brisca", "briskula") else {}
    for rules in (Rules.make(game, options), _spotted(game)):
        if rules is None:
            continue
        deal = FairDeals(random.Random(game))(rules, 0)
        text = json.dumps(deal.to_json(), sort_keys=True, separators=(",", ":"))
        assert canonical_deal(deal) == text.encode("ascii")
        if rules.needs_seed:
            assert b'"seed":' in canonical_deal(deal)


def _spotted(game: str) -> Rules | None:
    """The game with signals spotted by chance, whose deals carry a seed, where it has them."""
    try:
        return Rules.make(game, {"communication": "signals", "signal_audience": "spotted"})
    except BriscolaError:
        return None


def test_any_change_of_the_deal_or_the_salt_changes_the_commitment() -> None:
    deal = golden_deal()
    base = commitment(deal, SALT)
    h0, h1 = deal.hands
    swapped = replace(deal, hands=((h1[0], *h0[1:]), (h0[0], *h1[1:])))
    stock = replace(deal, stock=(deal.stock[1], deal.stock[0], *deal.stock[2:]))
    assert deal.trump is not None
    turned = replace(deal, trump=deal.stock[0], stock=(deal.trump, *deal.stock[1:]))
    seeded = replace(deal, seed=1)
    dealer = replace(deal, dealer=0)
    others = [commitment(d, SALT) for d in (swapped, stock, turned, seeded, dealer)]
    others.append(commitment(deal, SALT[:-1] + "e"))
    others.append(commitment(deal, "ff" + SALT[2:]))
    assert len({base, *others}) == len(others) + 1
    assert verify_commitment(deal, SALT, base)
    assert not verify_commitment(swapped, SALT, base)
    assert not verify_commitment(deal, SALT[:-1] + "e", base)
    assert not verify_commitment(deal, SALT, base.upper())
    assert not verify_commitment(deal, SALT, None)  # type: ignore[arg-type]


@pytest.mark.parametrize("salt", ["", "ab", SALT.upper(), SALT + "0", "g" * 64, 5, None])
def test_a_salt_is_64_lowercase_hex_digits(salt: Any) -> None:
    with pytest.raises(MalformedError, match="salt: expected 64 lowercase hexadecimal"):
        commitment(golden_deal(), salt)


# ------------------------------------------------------------------- the deal source


def play_first_hand(match: Match, deals: FairDeals) -> list[dict[str, Any]]:
    """Play the match's first hand to its end (and any hand dealt again at once); its
    hand record before its first move and at its end."""
    seen = [deals.hand_record(match.hand)]
    while not match.finished:
        match.apply(match.hand.legal_actions()[0])
    seen.append(deals.hand_record(match.finished[0]))
    return seen


@pytest.mark.parametrize("game", list(GAMES))
def test_fair_deals_fit_the_rules_and_commit_before_the_first_move(game: str) -> None:
    options: dict[str, object] = {"players": 4} if game in ("brisca", "briskula") else {}
    rules = Rules.make(game, options)
    deals = FairDeals(random.Random(len(game)))
    match = Match(rules, random.Random(1), deals=deals)
    assert len(deals.dealt) >= 1  # dealt, and committed to, before anybody acts
    first = deals.dealt[0]
    assert re.fullmatch("[0-9a-f]{64}", deals.commitment_of(1))
    assert re.fullmatch("[0-9a-f]{64}", deals.reveal(1))
    records = play_first_hand(match, deals)
    for hand in deals.dealt:
        hand.deal.check(rules)
        assert verify_commitment(hand.deal, hand.salt, hand.commitment)
    assert records[0]["fairness"] == {"commitment": first.commitment}  # no salt in play
    assert records[-1]["fairness"]["salt"] == first.salt  # revealed at the end
    assert [c.ok for c in check_record(records[-1])] == [True]
    with pytest.raises(MalformedError, match=r"fairness\.salt: missing"):
        check_record(records[0])


def test_the_match_record_reveals_the_finished_hands_only() -> None:
    rules = Rules.make("briscola-2", {"match": "best-of-3"})
    deals = FairDeals(random.Random(2))
    match = Match(rules, deals=deals)
    while len(match.finished) < 1:
        match.apply(match.hand.legal_actions()[0])
    record = deals.match_record(match)
    first, second = record["hands"]
    assert first["fairness"] == deals.dealt[0].revealed().to_json()
    assert second["fairness"] == {"commitment": deals.commitment_of(2)}
    assert deals.dealt[0].salt != deals.dealt[1].salt
    while not match.over:
        match.apply(match.hand.legal_actions()[0])
    done = deals.match_record(match)
    assert [c.ok for c in check_record(done)] == [True] * len(done["hands"])
    assert Match.from_record(done).result() == match.result()  # the field replays too
    assert all(h.fairness is not None for h in parse_match_record(done).hands)


def test_a_live_source_shuffles_with_secrets_and_numbers_hands_from_one() -> None:
    deals = FairDeals()
    assert isinstance(deals.rng, secrets.SystemRandom)
    rules = Rules.make("briscola-2")
    deals(rules, 0)
    deals(rules, 1)
    assert deals.dealt[0].deal != deals.dealt[1].deal and deals.reveal(2) != deals.reveal(1)
    for bad in (0, 3, "1", None):
        with pytest.raises(MalformedError, match="no hand"):
            deals.commitment_of(bad)  # type: ignore[arg-type]
    again = FairDeals(dealt=deals.dealt)
    again(rules, 0)
    assert [h.number for h in again.dealt] == [1, 2, 3]
    with pytest.raises(MalformedError, match=r"random\.Random"):
        FairDeals(rng=7)  # type: ignore[arg-type]
    assert deals.fairness(golden_deal(), over=True) is None  # a deal it did not give


# -------------------------------------------------------------- records and verify


def finished_records() -> tuple[dict[str, Any], dict[str, Any]]:
    """A finished hand's record, and a finished best-of-3 match's record."""
    deals = FairDeals(random.Random(9))
    match = Match(Rules.make("briscola-2", {"match": "best-of-3"}), deals=deals)
    while not match.over:
        match.apply(match.hand.legal_actions()[0])
    return deals.hand_record(match.finished[0]), deals.match_record(match)


def test_records_without_the_field_still_read_and_replay_unchanged() -> None:
    hand, match = finished_records()
    old = {k: v for k, v in hand.items() if k != "fairness"}
    record = parse_record(old)
    assert record.fairness is None and record.to_json() == old
    assert replay(record).state.over
    assert parse_record(hand).to_json() == hand
    assert parse_record(hand).fairness == Fairness(**hand["fairness"])
    stripped = json.loads(json.dumps(match))
    for h in stripped["hands"]:
        del h["fairness"]
    assert Match.from_record(stripped).result().to_json() == match["result"]


def run_verify(tmp_path: Path, content: bytes | str, *args: str) -> Any:
    path = tmp_path / "records.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return runner.invoke(app, ["verify", str(path), *args])


def test_verify_accepts_good_records(tmp_path: Path) -> None:
    hand, match = finished_records()
    result = run_verify(tmp_path, json.dumps(hand) + "\n" + json.dumps(match) + "\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("matches its commitment") == 1 + len(match["hands"])
    result = run_verify(tmp_path, json.dumps(match, indent=2), "--json")
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert out["ok"] and [h["hand"] for h in out["hands"]] == list(range(len(match["hands"])))


def tampered_deal(hand: dict[str, Any]) -> dict[str, Any]:
    """The hand with the first card of each starting hand swapped (the moves no longer
    matter to verify: it checks the deal)."""
    hand = json.loads(json.dumps(hand))
    hands = hand["deal"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    hand["moves"] = []
    return hand


def test_verify_refuses_a_tampered_deal_or_salt(tmp_path: Path) -> None:
    hand, match = finished_records()
    bad_salt = json.loads(json.dumps(hand))
    salt = bad_salt["fairness"]["salt"]
    bad_salt["fairness"]["salt"] = ("1" if salt[0] != "1" else "2") + salt[1:]
    for bad in (tampered_deal(hand), bad_salt):
        result = run_verify(tmp_path, json.dumps(bad))
        assert result.exit_code == 1, result.output
        text = " ".join(result.stderr.split())
        assert "the hand" in text and hand["fairness"]["commitment"] in text
        computed = commitment(parse_record(bad).deal, bad["fairness"]["salt"])
        assert computed in text
    match["hands"][1] = tampered_deal(match["hands"][1])
    match.pop("result")
    result = run_verify(tmp_path, json.dumps(match), "--json")
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert not out["ok"] and [h["ok"] for h in out["hands"]][:2] == [True, False]
    assert "hands[1]" in result.stderr


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("fairness"), "fairness: missing"),
        (lambda r: r["fairness"].pop("salt"), "fairness.salt: missing"),
        (lambda r: r["fairness"].pop("commitment"), "fairness.commitment: missing"),
        (lambda r: r.update(fairness="abc"), "fairness: expected an object"),
        (lambda r: r.update(fairness=None), "fairness: expected an object"),
        (lambda r: r["fairness"].update(salt=12), "fairness.salt: expected 64 lowercase"),
        (lambda r: r["fairness"].update(salt="AB" * 32), "fairness.salt: expected 64"),
        (lambda r: r["fairness"].update(commitment=["x"]), "fairness.commitment: expected"),
        (lambda r: r["fairness"].update(nonce="1"), "fairness: unknown field 'nonce'"),
        (lambda r: r["deal"].update(dealer="0"), "deal.dealer"),
    ],
)
def test_verify_says_what_is_wrong_with_a_record(tmp_path: Path, change: Any, message: str) -> None:
    hand, _ = finished_records()
    change(hand)
    result = run_verify(tmp_path, json.dumps(hand))
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.stderr.split())
    assert len(result.stderr.strip().splitlines()) == 1
    result = run_verify(tmp_path, json.dumps(hand), "--json")
    assert result.exit_code == 2 and message in json.loads(result.stdout)["error"]


def test_verify_refuses_a_match_hand_with_nothing_to_verify(tmp_path: Path) -> None:
    _, match = finished_records()
    del match["hands"][1]["fairness"]["salt"]
    result = run_verify(tmp_path, json.dumps(match))
    assert result.exit_code == 2
    assert "hands[1].fairness.salt: missing" in " ".join(result.stderr.split())


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"game": "briscola-2", "deal": "\xff\xfe"}\n', "not UTF-8"),
        (b"[1, 2,\n", "not valid JSON"),
        (b"[1, 2]\n", "record: expected a JSON object"),
        (b'{"game": 7, "deal": {}}\n', "game: expected a game key"),
        (b'"' + b"x" * 1_100_000 + b'"\n', "longer than the limit"),
        (b"", ""),
    ],
)
def test_verify_reads_bad_input_safely(tmp_path: Path, content: bytes, message: str) -> None:
    result = run_verify(tmp_path, content)
    if not content:
        assert result.exit_code == 0 and result.stdout == ""  # nothing to check
        return
    assert result.exit_code == 2, result.output
    assert message in result.stderr and result.stderr.count("error:") == 1
    missing = runner.invoke(app, ["verify", str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and "cannot read the file" in missing.stderr


# ------------------------------------------------------------------ docs/fairness.md


def doc_record() -> dict[str, Any]:
    block = DOC.split("```json\n")[2].split("```")[0]
    record: dict[str, Any] = json.loads(block)
    return record


def doc_commands() -> list[str]:
    return [b.split("```")[0].strip() for b in DOC.split("```sh\n")[1:]]


def test_the_docs_example_is_a_record_that_verifies(tmp_path: Path) -> None:
    record = doc_record()
    parsed = parse_record(record)
    parsed.deal.check(parsed.rules)
    canonical = DOC.split("Its canonical deal is\n\n```text\n")[1].split("\n```")[0]
    assert canonical_deal(parsed.deal) == canonical.encode()
    printed = DOC.split("Each prints\n\n```text\n")[1].split("\n```")[0]
    assert printed == f"{record['fairness']['commitment']}  -"
    result = run_verify(tmp_path, json.dumps(record))
    assert result.exit_code == 0, result.output


def run_documented(command: str, tmp_path: Path) -> str:
    (tmp_path / "hand.json").write_text(json.dumps(doc_record(), indent=1), encoding="utf-8")
    command = command.replace("python3 ", f"{sys.executable} ", 1)
    done = subprocess.run(
        ["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.mark.skipif(shutil.which("sha256sum") is None, reason="no sha256sum here")
def test_the_documented_python_pipeline_gives_the_commitment(tmp_path: Path) -> None:
    command = next(c for c in doc_commands() if c.startswith("python3"))
    assert run_documented(command, tmp_path) == f"{doc_record()['fairness']['commitment']}  -"


@pytest.mark.skipif(
    shutil.which("sha256sum") is None or shutil.which("jq") is None, reason="no jq here"
)
def test_the_documented_jq_pipeline_gives_the_commitment(tmp_path: Path) -> None:
    command = next(c for c in doc_commands() if "jq" in c)
    assert run_documented(command, tmp_path) == f"{doc_record()['fairness']['commitment']}  -"
