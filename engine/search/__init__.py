"""The search bots (`builtin:mcts-1`, `mcts-2`, `mcts-3`): UCT with determinization.

`uct` is the tree search on one whole state; `bot` draws the states a seat's
observation allows (each game's `GameSpec.sample_state`), searches them and picks a
move. Deterministic from the seat's seed and bounded by playouts, never by time.
"""
