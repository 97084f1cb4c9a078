"""Search players, ``strong`` and ``champion`` (:mod:`.players`, settings in
:mod:`.config`): worlds sampled from a view (:mod:`.determinize`), searched head to head
(:mod:`.pimc`) or at a table of three to six (in :mod:`.players`), exact endgames over
engine states (:mod:`.exact_endgame`) and over the compiled core
(:mod:`.exact_head_to_head`), and the playout weights trained by self-play
(read by :mod:`.judge`; trained by ``benchmarks/train_judge.py``). The compiled kernels they
run are in :mod:`briscola.ai.cores`."""
