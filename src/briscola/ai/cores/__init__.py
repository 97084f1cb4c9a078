"""Compiled cores (numba): positions as flat integer arrays and the kernels that play and
solve them. :mod:`.head_to_head` plays the two-player games, :mod:`.head_to_head_solver`
solves them exactly, :mod:`.table_games` plays the games of three to six players;
:mod:`.compiled` compiles the kernels and says where their machine code is cached. A core
imports the engine and other cores only, never a player or a search."""
