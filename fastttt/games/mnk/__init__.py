"""m,n,k-games, free or with gravity: the spec (:mod:`.spec`) and positions (:mod:`.board`)."""
