"""``briscola backup`` and ``briscola restore``: a copy of a data folder's SQLite database
made while the server runs, and bringing one back (:mod:`briscola.storage.backup`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from briscola.terminal.cli.common import MISSING_EXTRA, fail, out

DataOption = Annotated[
    Path,
    typer.Option(
        "--data",
        metavar="DIR",
        help="The data folder of the server (briscola serve --data DIR).",
    ),
]


def backup(
    target: Annotated[
        Path, typer.Argument(metavar="OUT", help="The backup file to write.", show_default=False)
    ],
    data: DataOption = Path("briscola-data"),
    force: Annotated[bool, typer.Option("--force", help="Replace OUT if it exists.")] = False,
) -> None:
    """Copy the SQLite database of a data folder to OUT, while the server runs.

    The copy holds every match as of one moment (SQLite's online backup), is checked, and
    is readable by its owner alone: it holds the deals of the hands in play. For
    PostgreSQL, use pg_dump (docs/deploy.md)."""
    try:
        from briscola.storage.backup import BackupError
        from briscola.storage.backup import backup as make_backup
    except ImportError as e:
        raise fail(MISSING_EXTRA.format(what=f"backups need {e.name}", extra="server")) from None
    try:
        made = make_backup(data, target, force=force)
    except BackupError as e:
        raise fail(str(e)) from None
    out.print(
        f"backed up {data} to {made.path}: {made.tables} tables, {made.size:,} bytes "
        f"(schema revision {made.revision})"
    )


def restore(
    source: Annotated[
        Path,
        typer.Argument(metavar="BACKUP", help="A file briscola backup wrote.", show_default=False),
    ],
    data: DataOption = Path("briscola-data"),
) -> None:
    """Put BACKUP in place of the database of a data folder (made if missing).

    The server must be stopped first. The database replaced is kept in the folder as
    briscola.db.before-restore-TIMESTAMP."""
    try:
        from briscola.storage.backup import BackupError
        from briscola.storage.backup import restore as bring_back
    except ImportError as e:
        raise fail(MISSING_EXTRA.format(what=f"restoring needs {e.name}", extra="server")) from None
    try:
        done = bring_back(source, data)
    except BackupError as e:
        raise fail(str(e)) from None
    kept = f"; the database it replaced is kept as {done.aside}" if done.aside else ""
    out.print(
        f"restored {source} into {data}: {done.tables} tables (schema revision "
        f"{done.revision}){kept}. Start the server: briscola serve --data {data}"
    )
