"""The search bots (`builtin:mcts-1`, `mcts-2`, `mcts-3`) and the match analysis.

`bot` draws the states a seat's observation allows (each game's
`GameSpec.sample_state`) and `guided` searches them, guided by the game's greedy bot
(`GameSpec.move_values`); `uct` is the tree search on one whole state that the match
analysis (`analysis`) runs. Deterministic from the seat's seed and bounded by playouts,
never by time.
"""
