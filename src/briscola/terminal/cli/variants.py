"""``briscola variants``: every game with its players, teams, deck and house rules, read
from :mod:`briscola.catalog`."""

from __future__ import annotations

import json

from briscola.catalog import variants_json
from briscola.terminal.cli.common import JsonFlag, out


def variants(as_json: JsonFlag = False) -> None:
    """List every game with its players, teams, deck and house rules."""
    data = variants_json()
    if as_json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return
    for g in data:
        out.print(f"[bold]{g['key']}[/]  {g['name']}: {g['summary']}")
        dealt = all(s["players"] * g["hand_size"] == s["cards"] for s in g["seatings"])
        hand = f"{g['hand_size']} cards each{', all dealt' if dealt else ''}"
        twice = "; each plays twice to a trick" if g["plays_per_trick"] == 2 else ""
        out.print(f"  {g['seating']}; {g['deck']['in_words']}; {hand}{twice}")
        out.print("  house rules (default first):")
        for r in g["rules"]:
            others = [str(c) for c in r["choices"] if c != r["default"]]
            others += [p["pattern"] for p in r["patterns"]]
            out.print(f"    [bold]{r['name']}[/]: {' | '.join([str(r['default']), *others])}")
            spans = {(p["min"], p["max"]): p["pattern"] for p in r["patterns"]}
            ranges = [
                f"{'N' if len(spans) == 1 else pattern} from {low} to {high}"
                for (low, high), pattern in spans.items()
            ]
            accepts = f" ({'; '.join(ranges)})" if ranges else ""
            out.print(f"      {r['help']}{accepts}", style="dim")
        out.print()
