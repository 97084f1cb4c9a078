"""What the server does when the database fails: tell a database away (it comes back, and
the work is done again) from a fault of the server's, count it and log it as such."""

from __future__ import annotations

import logging

from briscola.server.metrics import Metrics, is_storage_error

log = logging.getLogger("briscola.server")


def database_away(error: BaseException) -> bool:
    """Whether ``error`` says the database failed or could not be reached (the storage's
    own errors, the driver's, or the socket's), rather than a fault of the server's."""
    return is_storage_error(error) or isinstance(error, OSError | TimeoutError)


def log_failed(error: BaseException, message: str, *args: object) -> None:
    """Log that the work ``message`` names could not be done: with the database away
    (:func:`database_away`: it comes back, and the work is done again), a warning
    naming ``error``; else ``error`` with its traceback, a fault of the server's."""
    if database_away(error):
        log.warning(message + ": %r", *args, error)
    else:
        log.error(message, *args, exc_info=error)


def storage_failed(
    metrics: Metrics, operation: str, error: BaseException, message: str, *args: object
) -> None:
    """The work ``message`` names (a storage call of ``operation``) failed with ``error``:
    counted among the storage errors when the database is away (:func:`database_away`),
    and logged (:func:`log_failed`)."""
    if database_away(error):
        metrics.storage_failed(operation, error)
    log_failed(error, message, *args)
