"""Rule-based players, ``beginner`` and ``intermediate`` (:mod:`.heuristic`), and what
they read from a seat's view: card counting (:mod:`.counting`, with the trick rule every
Python player uses), chiamata's auction (:mod:`.auction`), partner talk (:mod:`.talking`).
They see only views; the intermediate level solves the last tricks with
:mod:`briscola.ai.search.exact_endgame`, which needs no compiled code."""
