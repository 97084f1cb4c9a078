"""``briscola cards``: the card art of a style (or all) as SVG files, with a contact
sheet to look at them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from briscola.terminal.cli.common import fail, out


def cards(
    out_dir: Annotated[
        Path, typer.Option("--out", "-o", help="The folder to write the pictures in.")
    ],
    style: Annotated[
        str,
        typer.Option("--style", "-s", help="napoletane, spanish or french; all: every style."),
    ] = "all",
) -> None:
    """Write the card art of a style (or all) as SVG files, with an index.html to see them.

    Every face, the back and the empty place of each style, one file each, and an
    index.html showing them in a grid: a contact sheet to look at."""
    from html import escape as html_escape

    from briscola.web import art

    styles = art.STYLES if style == "all" else (style,)
    if style != "all" and style not in art.STYLES:
        raise fail(f"--style {style!r}: choose {', '.join(art.STYLES)} or all")
    sections = []
    try:
        for key in styles:
            folder = out_dir / key
            folder.mkdir(parents=True, exist_ok=True)
            cells = []
            for name in art.pictures(key):
                (folder / f"{name}.svg").write_text(art.picture(key, name), encoding="utf-8")
                label = html_escape(art.card_title(key, name) if len(name) == 2 else name)
                cells.append(
                    f'<figure><img src="{key}/{name}.svg" alt="{label}">'
                    f"<figcaption>{name}: {label}</figcaption></figure>"
                )
            sections.append(f"<h2>{key}</h2><div>{''.join(cells)}</div>")
        index = out_dir / "index.html"
        index.write_text(CONTACT_SHEET.format(body="".join(sections)), encoding="utf-8")
    except OSError as e:
        raise fail(f"--out {out_dir}: cannot write the pictures: {e.strerror or e}") from None
    out.print(f"wrote {index}")


CONTACT_SHEET = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>briscola: the cards</title>
<style>body{{font-family:sans-serif;background:#2e6b3f;color:#fff}}
div{{display:flex;flex-wrap:wrap;gap:12px}}figure{{margin:0;width:120px;font-size:12px}}
img{{width:120px;display:block}}</style></head><body>{body}</body></html>
"""
