"""The game model: every game by name (:mod:`.registry`, the Game/State protocol), the m,n,k
family (:mod:`.mnk`: spec, positions) and Ultimate (:mod:`.ultimate`: spec, state), move lists
as people write them (:mod:`.movetext`) and what is known about solved boards (:mod:`.facts`).

Specs and positions are plain rules and geometry: nothing here imports a table, a search, a
player or a picture (those live above; each family's Game adapter is in :mod:`fastttt.families`).
"""
