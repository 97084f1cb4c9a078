"""A live table: one writer with its helpers.

The writer (:class:`~briscola.server.table.writer.LiveTable`) holds the table's lock and
its match, takes each action (checked by the engine), stores it in the log and only then
tells it; it finishes the match, and loads it from storage. Its helpers do the rest, one
job a module, each reaching the writer through a Protocol
(:mod:`~briscola.server.table.ports`) and never importing it:

- :mod:`~briscola.server.table.seating`: the seats, the start, the rematch;
- :mod:`~briscola.server.table.bots`: the computer players, their claims, the stand-ins'
  moves;
- :mod:`~briscola.server.table.clock`: the move clock;
- :mod:`~briscola.server.table.presence`: connections, absences, stand-ins;
- :mod:`~briscola.server.table.follow`: what another server process appended;
- :mod:`~briscola.server.table.chat`: the table's chat;
- :mod:`~briscola.server.table.hints`: a person's hint;
- :mod:`~briscola.server.table.view`: what each connection is sent (read only).

:mod:`~briscola.server.table.connection` is a connection as the table sees it,
:mod:`~briscola.server.table.options` the options stored with a table, and
:mod:`~briscola.server.table.hands` the hands stored with their commitments.
"""
