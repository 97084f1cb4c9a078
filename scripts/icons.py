"""Draw the site's icons (the web app manifest's, the apple-touch-icon): our own mark, a
card on the table's green with a gold coin (denari) at its heart, as SVG, rasterized to
PNG by Debian's Chromium through Playwright.

    .venv/bin/python scripts/icons.py

writes src/briscola/web/static/icons/: ``icon.svg``; ``icon-192.png``, ``icon-512.png``
(the card on a rounded tile); ``maskable-512.png`` (the green to every edge, the card within
the central safe circle, for launchers that cut the icon to their own shape);
``apple-touch-icon.png`` (180 px, full bleed: iOS rounds it itself).
"""

from __future__ import annotations

from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "briscola" / "web" / "static" / "icons"
GREEN, DARK, PAPER, GOLD, RED = "#0f5132", "#0a3622", "#fdfbf5", "#ffcf40", "#b3261e"


def mark(scale: float) -> str:
    """The card, centred on a 512 x 512 canvas, ``scale`` its size (1: 300 px tall)."""
    return f"""<g transform="translate(256 256) scale({scale}) rotate(-8)">
<rect x="-105" y="-150" width="210" height="300" rx="22" fill="{PAPER}"
 stroke="{DARK}" stroke-width="8"/>
<rect x="-85" y="-130" width="170" height="260" rx="12" fill="none"
 stroke="{RED}" stroke-width="5"/>
<circle r="62" fill="{GOLD}" stroke="{RED}" stroke-width="8"/>
<circle r="38" fill="none" stroke="{RED}" stroke-width="6"/>
<circle r="12" fill="{RED}"/>
</g>"""


def svg(*, full_bleed: bool, scale: float) -> str:
    tile = (
        f'<rect width="512" height="512" fill="{GREEN}"/>'
        if full_bleed
        else f'<rect width="512" height="512" rx="96" fill="{GREEN}"/>'
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" '
        f'height="512">{tile}{mark(scale)}</svg>\n'
    )


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    plain = svg(full_bleed=False, scale=1.3)
    (OUT / "icon.svg").write_text(plain, encoding="utf-8")
    wanted = [
        ("icon-192.png", plain, 192),
        ("icon-512.png", plain, 512),
        ("maskable-512.png", svg(full_bleed=True, scale=1.0), 512),
        ("apple-touch-icon.png", svg(full_bleed=True, scale=1.15), 180),
    ]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for name, text, size in wanted:
            page = browser.new_page(viewport={"width": size, "height": size})
            body = text.replace('width="512" height="512">', f'width="{size}" height="{size}">', 1)
            page.set_content(f'<body style="margin:0">{body}</body>')
            page.screenshot(path=str(OUT / name), omit_background=True)
            page.close()
        browser.close()
    for p in sorted(OUT.iterdir()):
        print(p.name, p.stat().st_size)


if __name__ == "__main__":
    main()
