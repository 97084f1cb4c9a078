"""The terminal: the ``briscola`` command (:mod:`briscola.terminal.cli`, one module per
command group), the plain game (:mod:`~briscola.terminal.plain`) and the full-screen one
(:mod:`~briscola.terminal.screen`), which offer the same choices
(:mod:`~briscola.terminal.moves`) at a local table (:mod:`~briscola.terminal.local`) or an
online one (:mod:`~briscola.terminal.remote`), both a :class:`~briscola.terminal.seat.Source`.

The top floor: nothing else in ``briscola`` imports it (tests/test_boundaries.py).
"""
