"""The card art (briscola.web.art): every face of every style a standalone, valid and small
SVG naming its card, its pips as many as its rank; the routes serving it; the contact sheet."""

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from briscola import __version__
from briscola.engine.cards import FRENCH_32, ITALIAN_40
from briscola.server import create_app
from briscola.terminal.cli import app as cli
from briscola.web import art

SVG = "{http://www.w3.org/2000/svg}"

SUITS = {
    "napoletane": {"c": "coppe", "d": "denari", "s": "spade", "b": "bastoni"},
    "spanish": {"c": "copas", "d": "oros", "s": "espadas", "b": "bastos"},
    "french": {"c": "hearts", "d": "diamonds", "s": "spades", "b": "clubs"},
}
NUMBERS = ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"]
COURTS = {
    "napoletane": ("Fante", "Cavallo", "Re"),
    "spanish": ("Sota", "Caballo", "Rey"),
    "french": ("Jack", "Queen", "King"),
}
CORNERS = {
    "napoletane": dict(
        zip("A234567JQK", ["A", "2", "3", "4", "5", "6", "7", "F", "C", "R"], strict=True)
    ),
    "spanish": dict(
        zip("A234567JQK", ["1", "2", "3", "4", "5", "6", "7", "S", "C", "R"], strict=True)
    ),
    "french": dict(
        zip(
            "A23456789TJQK",
            ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"],
            strict=True,
        )
    ),
}
EVERY = [(style, card) for style in art.STYLES for card in art.cards(style)]


def expected_title(style: str, card: str) -> str:
    rank, suit = card[0], card[1]
    name = COURTS[style]["JQK".index(rank)] if rank in "JQK" else NUMBERS["A23456789T".index(rank)]
    return f"{name} of {SUITS[style][suit]}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.get("viewBox") == "0 0 240 360"
    return root


def title(root: ET.Element) -> str:
    found = root.find(f"{SVG}title")
    assert found is not None and found.text
    return found.text


def pips(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}use") if e.get("class") == "pip"]


def test_each_style_draws_the_decks_the_engine_deals() -> None:
    forty = {str(c) for c in ITALIAN_40}
    assert set(art.cards("napoletane")) == set(art.cards("spanish")) == forty
    assert set(art.cards("french")) >= forty | {str(c) for c in FRENCH_32}
    assert len(set(art.cards("french"))) == len(art.cards("french")) == 52


@pytest.mark.parametrize(("style", "card"), EVERY)
def test_every_face_is_a_small_valid_svg_naming_its_card(style: str, card: str) -> None:
    svg = art.card_svg(style, card)
    assert len(svg.encode()) < 12_000
    root = parse(svg)
    assert title(root) == expected_title(style, card)
    corner = [t.text for t in root.iter(f"{SVG}text")]
    assert corner == [CORNERS[style][card[0]]]  # drawn once, turned round by a <use>
    assert sum(1 for e in root.iter(f"{SVG}use") if e.get("href") == "#ix") == 1
    rank = card[0]
    if rank in "JQK":
        assert not pips(root)
        assert any(e.get("class") == "held" for e in root.iter(f"{SVG}use"))
    else:
        assert len(pips(root)) == "A23456789T".index(rank) + 1


def test_the_briefs_examples() -> None:
    assert title(parse(art.card_svg("napoletane", "Ab"))) == "Ace of bastoni"
    assert title(parse(art.card_svg("napoletane", "Qd"))) == "Cavallo of denari"
    assert title(parse(art.card_svg("french", "Qc"))) == "Queen of hearts"
    assert title(parse(art.card_svg("spanish", "Ks"))) == "Rey of espadas"
    assert art.card_svg("french", "10s") == art.card_svg("french", "Ts")


def everything() -> list[tuple[str, str]]:
    return [(f"{s} {n}", art.picture(s, n)) for s in art.STYLES for n in art.pictures(s)]


def test_no_picture_refers_outside_itself_nor_runs_anything() -> None:
    for name, svg in everything():
        root = parse(svg)
        ids = {e.get("id") for e in root.iter()} - {None}
        for e in root.iter():
            assert e.tag not in (f"{SVG}script", f"{SVG}image", f"{SVG}foreignObject"), name
            for key, value in e.attrib.items():
                assert not key.lower().startswith("on"), (name, key)
                if key.endswith("href"):
                    assert value.startswith("#") and value[1:] in ids, (name, value)
                for ref in re.findall(r"url\(([^)]*)\)", value):
                    assert ref.startswith("#") and ref[1:] in ids, (name, value)
        assert "<style" not in svg and "@import" not in svg, name
        assert len(svg.encode()) < 12_000, name


def test_the_faces_of_a_style_all_differ() -> None:
    for style in art.STYLES:
        drawn = [
            re.sub(r"<title>.*?</title>", "", art.card_svg(style, c)) for c in art.cards(style)
        ]
        drawn += [art.back_svg(style), art.slot_svg()]
        assert len(set(drawn)) == len(drawn), style


def no_colour(svg: str) -> str:
    return re.sub(r'(fill|stroke)="#[0-9a-f]+"', "", svg)


def test_the_suits_differ_without_colour() -> None:
    for style in art.STYLES:
        symbols = set()
        for suit in "cdsb":
            root = ET.fromstring(no_colour(art.card_svg(style, f"7{suit}")))
            symbol = next(e for e in root.iter() if e.get("id") == "s")
            symbols.add(ET.tostring(symbol))
        assert len(symbols) == 4, style


def test_the_spanish_frame_is_broken_once_more_for_each_suit() -> None:
    segments = {}
    for suit in "dcsb":
        root = ET.fromstring(art.card_svg("spanish", f"4{suit}"))
        frame = next(e for e in root.iter(f"{SVG}path") if e.get("stroke") == "#a01818")
        segments[suit] = frame.get("d", "").count("h")
    assert segments == {"d": 2, "c": 4, "s": 6, "b": 8}  # top and bottom edges


def test_backs_and_the_empty_place() -> None:
    backs = {art.back_svg(style) for style in art.STYLES}
    assert len(backs) == 3
    for style in art.STYLES:
        assert "Back" in title(parse(art.back_svg(style)))
        assert art.picture(style, "slot") == art.slot_svg()
    assert title(parse(art.slot_svg())) == "Empty place"


def test_results_are_cached() -> None:
    assert art.card_svg("spanish", "3d") is art.card_svg("spanish", "3d")
    assert art.back_svg("french") is art.back_svg("french")


def test_bad_styles_and_cards_are_refused_naming_the_choices() -> None:
    with pytest.raises(ValueError, match="napoletane, spanish, french"):
        art.card_svg("tarot", "Ab")
    with pytest.raises(ValueError, match="napoletane, spanish, french"):
        art.back_svg("tarot")
    with pytest.raises(ValueError, match="napoletane, spanish, french"):
        art.picture("tarot", "slot")
    with pytest.raises(ValueError, match=r"'Xb' is not a card.*suits c d s b"):
        art.card_svg("french", "Xb")
    for style in ("napoletane", "spanish"):
        for rank in "89T":
            with pytest.raises(ValueError, match=r"40-card deck.*drawn in the french style"):
                art.card_svg(style, f"{rank}c")


def client() -> httpx.AsyncClient:
    """A client of the application in this process; the card routes need no storage, so
    the lifespan is not run (httpx's ASGI transport does not run it)."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app()), base_url="http://t")


async def test_the_route_serves_each_picture_with_its_cache_headers() -> None:
    async with client() as http:
        await serves(http)


async def serves(client: httpx.AsyncClient) -> None:
    for path, svg in [
        ("/cards/napoletane/Kb.svg", art.card_svg("napoletane", "Kb")),
        ("/cards/french/Ts.svg", art.card_svg("french", "Ts")),
        ("/cards/spanish/back.svg", art.back_svg("spanish")),
        ("/cards/spanish/slot.svg", art.slot_svg()),
    ]:
        r = await client.get(path)
        assert r.status_code == 200, path
        assert r.headers["content-type"].startswith("image/svg+xml")
        assert r.text == svg
        assert r.headers["cache-control"] == "public, max-age=86400"
        tag = r.headers["etag"]
        again = await client.get(path, headers={"If-None-Match": tag})
        assert again.status_code == 304 and not again.content
        assert again.headers["etag"] == tag
    other = (await client.get("/cards/napoletane/Kc.svg")).headers["etag"]
    assert other != (await client.get("/cards/napoletane/Kb.svg")).headers["etag"]
    pinned = await client.get("/cards/french/Ac.svg", params={"v": __version__})
    assert pinned.headers["cache-control"] == "public, max-age=31536000, immutable"


async def test_the_route_refuses_a_bad_style_or_card_with_json() -> None:
    async with client() as http:
        await refuses(http)


async def refuses(client: httpx.AsyncClient) -> None:
    for path, words in [
        ("/cards/tarot/Ab.svg", "napoletane, spanish, french"),
        ("/cards/tarot/back.svg", "napoletane, spanish, french"),
        ("/cards/french/Xb.svg", "is not a card"),
        ("/cards/napoletane/8b.svg", "french style"),
    ]:
        r = await client.get(path)
        assert r.status_code == 404, path
        error = r.json()["error"]
        assert error["code"] == "not_found" and words in error["message"], path


def test_the_contact_sheet(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["cards", "--style", "french", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in (tmp_path / "french").iterdir())
    assert files == sorted(f"{n}.svg" for n in art.pictures("french"))
    index = (tmp_path / "index.html").read_text()
    assert index.count("<img ") == 54 and "Queen of hearts" in index
    assert (tmp_path / "french" / "Qc.svg").read_text() == art.card_svg("french", "Qc")
    everything = CliRunner().invoke(cli, ["cards", "--out", str(tmp_path / "all")])
    assert everything.exit_code == 0
    assert sorted(p.name for p in (tmp_path / "all").iterdir()) == sorted(
        [*art.STYLES, "index.html"]
    )


def test_the_contact_sheet_refuses_a_bad_style(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["cards", "--style", "tarot", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "napoletane, spanish, french or all" in result.output
    assert not any(tmp_path.iterdir())
