"""The browser tests wait on functions, never on expressions: under the server's
Content-Security-Policy (``script-src 'self'``) Playwright evaluates an expression given to
``wait_for_function`` as a string when it polls, and the page refuses it. The first check
passes if the condition already holds, so such a test fails only now and then; this check
finds them all, without a browser."""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).parent.parent
FUNCTION = re.compile(r"^\s*(?:async\s+)?(?:\([^)]*\)|\w+)\s*=>|^\s*(?:async\s+)?function\b")


def waits(tree: ast.Module) -> list[tuple[int, str | None]]:
    """Each ``wait_for_function`` call's line and its first argument's text (None if it is
    neither a string, an f-string nor a module constant holding a string)."""
    constants = {
        target.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    found: list[tuple[int, str | None]] = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "wait_for_function"
            and node.args
        ):
            continue
        first = node.args[0]
        text: str | None = None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            text = first.value
        elif isinstance(first, ast.JoinedStr):  # an f-string: its fields stand as "x"
            text = "".join(
                part.value if isinstance(part, ast.Constant) else "x" for part in first.values
            )
        elif isinstance(first, ast.Name):
            text = constants.get(first.id)
        found.append((node.lineno, text))
    return found


def test_every_wait_for_function_is_given_a_function() -> None:
    checked = 0
    wrong = []
    for path in sorted(TESTS.rglob("*.py")):
        for line, text in waits(ast.parse(path.read_text(), str(path))):
            checked += 1
            if text is None or not FUNCTION.match(text):
                wrong.append(f"{path.relative_to(TESTS)}:{line}: {text!r}")
    assert checked > 20, checked  # the tests were found
    assert not wrong, "give wait_for_function '() => ...', not an expression:\n" + "\n".join(wrong)


def test_the_check_tells_an_expression_from_a_function() -> None:
    tree = ast.parse(
        "EXPR = 'document.title === \"x\"'\n"
        "page.wait_for_function('() => 1')\n"
        "page.wait_for_function('n => n > 1', arg=1)\n"
        "page.wait_for_function('async () => await f()')\n"
        "page.wait_for_function('window.ready')\n"
        "page.wait_for_function(EXPR)\n"
        "page.wait_for_function(f'() => n === {n}')\n"
        "page.wait_for_function(f'{n} === 2')\n"
    )
    assert [bool(text and FUNCTION.match(text)) for _, text in waits(tree)] == [
        True,
        True,
        True,
        False,
        False,
        True,
        False,
    ]
