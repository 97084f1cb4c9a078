"""Anything a client can send gets an answer, never a server error: Schemathesis reads the
server's OpenAPI schema and sends each operation what it allows and what it does not
(numbers at and past their bounds, wrong types, missing fields), with a session, so that
the routes behind it are reached too. No answer may be a 5xx.

The application runs in this process (its lifespan started at the first case, on a
database of its own, stopped at the module's end); the examples per operation are few
(:data:`EXAMPLES`), so that the module takes about a minute.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
schemathesis = pytest.importorskip("schemathesis")

from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.python import asgi  # noqa: E402

from briscola.server.app import create_app  # noqa: E402
from briscola.server.deps import COOKIE  # noqa: E402
from briscola.server.limits import OFF  # noqa: E402
from briscola.server.settings import ServerSettings  # noqa: E402

EXAMPLES = 15
"""Hypothesis's examples per operation, beside the boundary values Schemathesis adds."""

ENDS_SESSION = ("/api/session", "/api/session/account", "/api/session/devices/{session}")
"""The operations that may end the session asking (``DELETE``): a new one is opened after."""

DATA = Path(tempfile.gettempdir()) / f"briscola-fuzz-{os.getpid()}"
"""The application's folder, made by :func:`session` (nothing is written at import)."""

APP = create_app(ServerSettings(data=DATA / "data", limits=OFF))
"""The server, limits off: one address sends everything."""

schema = schemathesis.openapi.from_dict(APP.openapi())
schema.app = APP
schema.config.generation.update(max_examples=EXAMPLES, deterministic=True, database="none")


class Session:
    """The session every case is sent with: Ana's, opened again once a case ended it."""

    cookie = ""

    def open(self) -> None:
        with asgi.get_client(APP) as client:
            answer = client.post("/api/session", json={"nickname": "Ana"})
        assert answer.status_code == 200, answer.text
        self.cookie = answer.cookies[COOKIE]


@pytest.fixture(scope="module")
def session() -> Iterator[Session]:
    DATA.mkdir(mode=0o700)
    try:
        s = Session()
        s.open()  # (the application's lifespan starts here)
        yield s
        asgi.shutdown_lifespans()
    finally:
        shutil.rmtree(DATA, ignore_errors=True)


@schema.include(path_regex="^/api/").parametrize()
def test_no_operation_answers_a_server_error(case: Any, session: Session) -> None:
    case.call_and_validate(cookies={COOKIE: session.cookie}, checks=[not_a_server_error])
    if case.method == "DELETE" and case.path in ENDS_SESSION:
        session.open()
