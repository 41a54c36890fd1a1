"""Drop-in fast versions of the course handouts' functions, with the handouts' own names.

Each module mirrors one handout (``morpion``: td-jeu-de-morpion, ``grilles``:
tp-positions-gagnantes, ``minimax_tp``: tp-minimax, ``ttt``: tp-arbres-de-jeu,
``morpionception``: morpionception) and returns exactly the handout's outputs, computed by the
Numba kernels and solved tables. The plain dict versions live in :mod:`fastttt.reference`.
"""
