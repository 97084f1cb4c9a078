"""A session's device, named from its browser's ``User-Agent`` for the person's list of
sessions: "Firefox · Android", "Chrome · Windows", or a program's own name ("curl").

Only the browser's and the system's names are kept, never the whole header (which says
more of a person's machine than the list needs). The names are the products' own, the
same in every language.

>>> device_of("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like "
...           "Gecko) Chrome/131.0.0.0 Mobile Safari/537.36")
'Chrome · Android'
>>> device_of("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
...           "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1")
'Safari · iPhone'
>>> device_of("python-httpx/0.28.1")
'python-httpx'
>>> device_of("") is None
True
"""

from __future__ import annotations

import re

BROWSERS = (
    ("Edg", "Edge"),
    ("OPR", "Opera"),
    ("SamsungBrowser", "Samsung Internet"),
    ("FxiOS", "Firefox"),
    ("Firefox", "Firefox"),
    ("CriOS", "Chrome"),
    ("Chromium", "Chromium"),
    ("Chrome", "Chrome"),
    ("HeadlessChrome", "Chrome"),
    ("Safari", "Safari"),
)
"""The browsers told apart, by their token in the header (the first found wins: Edge and
Opera also say Chrome, and Chrome also says Safari)."""

SYSTEMS = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Macintosh", "macOS"),
    ("Linux", "Linux"),
)

PROGRAM = re.compile(r"[A-Za-z][A-Za-z0-9._-]{0,39}")


def device_of(user_agent: str | None) -> str | None:
    """The device a ``User-Agent`` names, ``None`` when it names none."""
    if not user_agent:
        return None
    tokens = set(re.findall(r"([A-Za-z]+)/", user_agent))
    browser = next((name for token, name in BROWSERS if token in tokens), None)
    system = next((name for token, name in SYSTEMS if token in user_agent), None)
    if browser is None or not user_agent.startswith("Mozilla/"):
        found = PROGRAM.match(user_agent)
        return found.group(0).rstrip("/") if found else None
    return f"{browser} · {system}" if system else browser
