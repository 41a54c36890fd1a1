"""The handouts' plain dict versions: the oracle of the tests and the baseline of the benchmarks.

``morpion`` follows td-jeu-de-morpion (states ``(s, J)``: strings of ``'.'``, ``'O'`` (J0),
``'X'`` (J1) and the player to move), ``grilles`` follows tp-positions-gagnantes (3x3 lists of
0/1/2, player 1 = X starts). Everything is written with strings, tuples, lists and dicts, as a
student would, so that :mod:`fastttt.compat` can be checked against it value for value.
"""
