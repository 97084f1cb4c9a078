"""The engine, records and the rule-based players install light: without the ``ai``
extra (numpy, numba) or the ``tui`` extra (Textual) everything else works, and what
needs them says how to install it."""

from __future__ import annotations

import subprocess
import sys
import textwrap

LIGHT = textwrap.dedent(
    """
    import sys
    for name in ("numba", "numpy", "textual"):
        sys.modules[name] = None  # as if not installed: importing it fails
    from typer.testing import CliRunner
    from briscola.terminal.cli import app

    def run(*args):
        r = CliRunner().invoke(app, list(args))
        print(f"{args[0]} {args[-1]} -> {r.exit_code}: {r.output.strip()[-300:]}")

    run("variants", "--json")
    run("simulate", "--game", "briscola-4", "--seed", "1")
    run("arena", "--games", "4", "--seed", "1", "intermediate", "beginner")
    run("arena", "--games", "4", "--seed", "1", "strong", "random")
    run("bench", "-n", "5", "-g", "briscola-2")
    run("play", "--seed", "1")
    run("play", "--plain", "--seed", "1", "--rule", "match=one-hand")
    """
)


def test_without_the_extras_the_rest_works_and_the_missing_say_what_to_install() -> None:
    done = subprocess.run(
        [sys.executable, "-c", LIGHT], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = {line.split(" -> ")[0]: line for line in done.stdout.splitlines() if " -> " in line}
    assert lines["variants --json"].startswith("variants --json -> 0")
    assert lines["simulate 1"].startswith("simulate 1 -> 0")
    assert lines["arena beginner"].startswith("arena beginner -> 0")
    assert "-> 2" in lines["arena random"] and "pip install 'briscola[ai]'" in lines["arena random"]
    assert lines["bench briscola-2"].startswith("bench briscola-2 -> 0")
    assert "fast core" not in lines["bench briscola-2"]  # said on stderr: not timed
    assert "-> 2" in lines["play 1"] and "pip install 'briscola[tui]'" in lines["play 1"]
    assert lines["play match=one-hand"].startswith("play match=one-hand -> 1")  # input ended
    assert "Traceback" not in done.stdout + done.stderr
