"""Alembic's environment: migrations run on the connection :meth:`Storage.open` shares
(``config.attributes["connection"]``), inside its transaction."""

from __future__ import annotations

from alembic import context

from briscola.storage.schema import metadata


def run_migrations() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError(
            "briscola's migrations run through Storage.open(url), which hands them a connection"
        )
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()


# Alembic runs this file with its context set up; merely importing it (as the doctest
# collector does) runs nothing.
if hasattr(context, "config"):
    run_migrations()
