"""Exact search beyond the tables: alpha-beta with a transposition table (:mod:`.alphabeta`),
Connect Four (:mod:`.connect4`, opening books :mod:`.book`), df-pn (:mod:`.dfpn`) on the
line-count board (:mod:`.lineboard`), threat-space search (:mod:`.threats`), pairings
(:mod:`.pairing`), the heuristic search (:mod:`.heuristic`), the portfolio prover
(:mod:`.portfolio`), checkable proofs (:mod:`.prooftree`) and Ultimate's engine and proofs
(:mod:`.ultimate`).
"""
