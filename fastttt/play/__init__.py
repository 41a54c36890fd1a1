"""Playing: players by name (:mod:`.players`, Ultimate's :mod:`.ultimate_players`), the game
loop (:mod:`.loop`), matches (:mod:`.match`) and the value of every move (:mod:`.move_values`),
through the Game protocol."""
