"""The repository's documents: the rule book the code cites is the team's."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "RULES.md"


def rule_book() -> str:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    return text.split("-->", 1)[1].lstrip("\n")


def test_the_rule_book_has_every_section_the_code_cites() -> None:
    text = rule_book()
    for heading in (
        "## 1. The core game",
        "## 2. The games",
        "## 3. Briscola chiamata",
        "## 4. Partnership communication",
        "### 4.3 Schembil",
        "## 5. House rules",
    ):
        assert heading in text


@pytest.mark.skipif(not SHARED.exists(), reason="the shared folder is not beside this clone")
def test_the_rule_book_is_the_shared_one() -> None:
    assert rule_book() == SHARED.read_text(encoding="utf-8")
