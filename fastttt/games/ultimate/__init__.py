"""Ultimate tic-tac-toe's rules: the spec (:mod:`.spec`) and positions (:mod:`.state`)."""
