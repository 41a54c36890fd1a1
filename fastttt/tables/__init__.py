"""Strong solutions: the value and depth of every position of a board, and the files that hold them.

Dense tables, in RAM: :mod:`.dense` (the solver and its :class:`~.dense.Solution`) over the
compact index of :mod:`.layout`, questions to any table in :mod:`.queries`, ``.fttt`` files in
:mod:`.dense_store`. Layered tables: :mod:`.index` (perfect indexes of a layer, free and gravity,
optional symmetry), :mod:`.layered` (the layer-by-layer solver), :mod:`.layer_store` (chunked,
checksummed, resumable layers on disk), :mod:`.probe` (look-ups that read only the chunks they
need, of either kind of table), :mod:`.count` (positions per ply), :mod:`.distributed` (the same
chunk tasks on a Dask cluster). :mod:`.cache`: which engine solves a board, and the tables kept
for the process.
"""
