"""The server's Prometheus metrics (``prometheus-client``), served at ``/metrics``
(:mod:`briscola.server.routes.health`).

Each application has a registry of its own (:class:`Metrics`), never the library's global
one, so that several applications in one process (the tests') count apart. It holds:

- ``briscola_tables_loaded`` (gauge): the live tables this process holds in memory;
- ``briscola_nicknames_loaded`` (gauge): the nicknames it holds;
- ``briscola_connections`` (gauge): the tables' WebSockets open;
- ``briscola_moves_total`` (counter, ``by`` ``person`` or ``computer``): actions stored
  (its rate is the moves a second);
- ``briscola_echo_seconds`` (histogram): from a client's action received to its result
  (the update with it) sent back to that client;
- ``briscola_storage_errors_total`` (counter, ``operation`` and ``kind``): storage calls
  that failed: the ``operation`` (``append``, ``finish``, ``deadlines``, ``sessions``,
  ``load``, ``request``, ``socket``), the ``kind`` (``conflict``: another writer took the
  version; ``unavailable``: the database could not be reached or did not answer;
  ``other``);
- the library's process and platform metrics (``process_cpu_seconds_total``,
  ``process_resident_memory_bytes``, ``process_open_fds``..., ``python_info``,
  ``python_gc_*``).

Who may read them (:class:`Access`): by default this machine alone (``local``), asked
directly, not through a reverse proxy; ``--metrics on`` any address, ``off`` nobody, or a
list of networks (``10.0.0.0/8,192.168.1.0/24``), this machine always among them.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from prometheus_client import (
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import exc

from briscola.storage import StaleVersion, StorageError

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""The type of the metrics' text (Prometheus's text format 0.0.4)."""

ECHO_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""The echo histogram's buckets, in seconds (the load benchmark's targets: p99 under
50 ms)."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class Access:
    """Who may read ``/metrics``: nobody (``off``), anyone (``on``), or the addresses in
    ``networks`` (loopback always) asked directly, with no proxy's forwarding header."""

    mode: str
    networks: tuple[Network, ...] = ()

    LOOPBACK = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))

    @classmethod
    def parse(cls, text: str) -> Access:
        """``off``, ``local``, ``on``, or networks separated by commas; :class:`ValueError`
        saying what is wrong otherwise.

        >>> Access.parse("local").allows("127.0.0.1", proxied=False)
        True
        >>> Access.parse("10.0.0.0/8").allows("10.1.2.3", proxied=False)
        True
        >>> Access.parse("local").allows("127.0.0.1", proxied=True)
        False
        """
        given = text.strip().lower()
        if given in ("off", "on", "local"):
            return cls(given, cls.LOOPBACK if given == "local" else ())
        networks: list[Network] = list(cls.LOOPBACK)
        for part in given.split(","):
            try:
                networks.append(ipaddress.ip_network(part.strip(), strict=False))
            except ValueError:
                raise ValueError(
                    f"{part.strip()!r} is not a network: give off, local, on, or networks "
                    "such as 10.0.0.0/8,192.168.1.0/24"
                ) from None
        return cls("networks", tuple(networks))

    def allows(self, client: str | None, *, proxied: bool) -> bool:
        """Whether a request from ``client`` (its address) may read the metrics;
        ``proxied``: it carries a reverse proxy's forwarding header (then it came from
        outside, whatever address it has)."""
        if self.mode == "on":
            return True
        if self.mode == "off" or proxied or client is None:
            return False
        try:
            address = ipaddress.ip_address(client)
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in n for n in self.networks)

    def says(self) -> str:
        """Who may read them, in words."""
        if self.mode == "off":
            return "nobody"
        if self.mode == "on":
            return "anyone"
        if self.mode == "local":
            return "this machine alone, asked directly (not through a proxy)"
        return "this machine and " + ", ".join(str(n) for n in self.networks[2:])


def kind_of(error: BaseException) -> str:
    """The kind of a storage failure: ``conflict`` (another writer took the version),
    ``unavailable`` (the database could not be reached or did not answer) or ``other``."""
    if isinstance(error, StaleVersion):
        return "conflict"
    if isinstance(error, OSError | TimeoutError | ConnectionError):
        return "unavailable"
    if isinstance(error, exc.IntegrityError):
        return "conflict"
    if isinstance(error, exc.OperationalError | exc.InterfaceError | exc.TimeoutError):
        return "unavailable"
    if not isinstance(error, exc.DBAPIError):
        return "other"
    sqlstate = getattr(error.orig, "sqlstate", None)
    if error.connection_invalidated or unreachable(sqlstate, error):
        return "unavailable"
    return "other"


UNREACHABLE = ("08", "28", "3D", "53", "57P")
"""The SQLSTATE classes (and class prefixes) of a database that cannot be reached or
used: a connection failed or refused, a login refused, no such database, too many
connections, the server shutting down or starting."""


def unreachable(sqlstate: object, error: BaseException) -> bool:
    """Whether a PostgreSQL error of ``sqlstate`` says the database cannot be reached or
    used now (55000 as it refuses connections: ``ALLOW_CONNECTIONS false``)."""
    if not isinstance(sqlstate, str):
        return False
    if sqlstate == "55000":
        return "accepting connections" in str(error)
    return sqlstate.startswith(UNREACHABLE)


def is_storage_error(error: BaseException) -> bool:
    """Whether ``error`` came from the storage or its database."""
    if isinstance(error, StorageError):
        return True
    return isinstance(error, exc.SQLAlchemyError) or type(error).__module__.startswith(
        ("asyncpg", "aiosqlite", "sqlite3")
    )


class Loaded(Collector):
    """The gauges read when the metrics are: what ``counts`` says at that moment."""

    def __init__(self, counts: Callable[[], dict[str, int]]) -> None:
        self.counts = counts

    def describe(self) -> Iterable[Metric]:
        return []

    def collect(self) -> Iterable[Metric]:
        now = self.counts()
        yield GaugeMetricFamily(
            "briscola_tables_loaded",
            "The live tables this process holds in memory.",
            value=now.get("tables", 0),
        )
        yield GaugeMetricFamily(
            "briscola_nicknames_loaded",
            "The nicknames this process holds in memory.",
            value=now.get("nicknames", 0),
        )
        yield GaugeMetricFamily(
            "briscola_connections",
            "The tables' WebSockets open at this process.",
            value=now.get("connections", 0),
        )


class Metrics:
    """An application's metrics, in a registry of its own: see the module's
    documentation. :meth:`counting` names what the gauges read."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.moves = Counter(
            "briscola_moves",
            "Actions stored, by whom they were made (its rate: the moves a second).",
            ["by"],
            registry=self.registry,
        )
        self.echo = Histogram(
            "briscola_echo",
            "Seconds from a client's action received to its result sent back to it.",
            unit="seconds",
            buckets=ECHO_BUCKETS,
            registry=self.registry,
        )
        self.storage_errors = Counter(
            "briscola_storage_errors",
            "Storage calls that failed, by operation and kind (conflict, unavailable, other).",
            ["operation", "kind"],
            registry=self.registry,
        )
        for by in ("person", "computer"):
            self.moves.labels(by=by)  # both shown from the start, at 0
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        GCCollector(registry=self.registry)
        self._counts: Callable[[], dict[str, int]] = dict
        self.registry.register(Loaded(lambda: self._counts()))

    def counting(self, counts: Callable[[], dict[str, int]]) -> None:
        """Read the gauges (``tables``, ``nicknames``, ``connections``) from ``counts``."""
        self._counts = counts

    def moved(self, computer: bool) -> None:
        """An action stored, a computer player's or a person's."""
        self.moves.labels(by="computer" if computer else "person").inc()

    def echoed(self, since: float) -> None:
        """An action's result sent, the action received at ``since``
        (:func:`time.perf_counter`)."""
        self.echo.observe(time.perf_counter() - since)

    def storage_failed(self, operation: str, error: BaseException) -> None:
        """A storage call of ``operation`` failed with ``error``."""
        self.storage_errors.labels(operation=operation, kind=kind_of(error)).inc()

    def text(self) -> bytes:
        """Every metric, in Prometheus's text format."""
        return generate_latest(self.registry)


__all__ = ["CONTENT_TYPE", "Access", "Metrics", "is_storage_error", "kind_of"]
