"""Each game family's Game protocol (:class:`fastttt.games.registry.Game`): a thin adapter around
the plain spec that gives it the players, pictures, move values and move text living above the
game model. :mod:`.mnk` (m,n,k-games) and :mod:`.ultimate` (Ultimate tic-tac-toe); the package
registers them with the registry when imported (``fastttt/__init__.py``)."""
