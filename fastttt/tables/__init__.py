"""Layered strong solutions: perfect layer indexes, layer-by-layer retrograde, chunked stores.

Rooms: :mod:`.index` (perfect indexes of a layer, free and gravity, optional symmetry),
:mod:`.layered` (the layer-by-layer solver), :mod:`.store` (chunked, checksummed, resumable
layers on disk), :mod:`.probe` (look-ups that read only the chunks they need),
:mod:`.distributed` (the same chunk tasks on a Dask cluster).
"""
