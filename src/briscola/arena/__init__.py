"""The arena: a host where computer players play duplicate deals against each other
(:mod:`.duplicate`), the log of its games (:mod:`.log`) and its statistics
(:mod:`.stats`). It hosts the players of :mod:`briscola.ai`; they never import it."""
