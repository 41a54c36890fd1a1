"""Ultimate tic-tac-toe's searches: the engine (:mod:`.engine`), df-pn proofs (:mod:`.proof`)
and proofs split into tasks (:mod:`.split`)."""
