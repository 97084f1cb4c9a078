"""Every sentence a player reads: one catalogue per language (:mod:`.catalogue`), the
cards' names (:mod:`.cards`), the computer players' first names (:mod:`.names`), the seats
as one person names them (:mod:`.seating`), one narration of the seat stream
(:mod:`.narrate`), and the rules in plain words (:mod:`.rules`), shared by the terminal
and, through the server, the browser."""
