"""The specimens: every sentence of every catalogue, said with sample values, as a reader
checked it (``tests/words/specimens/LANG.txt``). A sentence changed in a catalogue fails
here until its specimen is written again (``python -m briscola.words.specimens --write``)
and the diff read."""

from __future__ import annotations

import pytest

from briscola.words.catalogue import LANGUAGES
from briscola.words.specimens import NUMBERS, folder, specimens


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sentence_reads_as_its_checked_specimen(lang: str) -> None:
    kept = (folder() / f"{lang}.txt").read_text(encoding="utf-8").splitlines()
    now = specimens(lang)
    changed = [(k, a, b) for k, (a, b) in enumerate(zip(kept, now, strict=False)) if a != b]
    assert not changed and len(kept) == len(now), (
        f"{lang}: the catalogue no longer says what tests/words/specimens/{lang}.txt holds "
        f"(first difference: {changed[:1]}); write it again with python -m "
        "briscola.words.specimens --write and read the diff"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_specimen_says_each_person_and_each_plural(lang: str) -> None:
    lines = specimens(lang)
    played = lines[lines.index("tell.played") + 1 : lines.index("tell.played") + 3]
    assert [line.split(":")[0].strip() for line in played] == ["you", "other"]
    cards = lines[lines.index("count.cards") + 1 :][: len(NUMBERS)]
    assert [line.split(":")[0].strip() for line in cards] == [str(n) for n in NUMBERS]
    assert not any("{" in line for line in lines), [line for line in lines if "{" in line][:3]
