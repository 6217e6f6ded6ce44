"""Tournament formats as pure functions of the games played so far.

Each format (`round_robin`, `swiss`, `knockout` with its double elimination, `gauntlet`)
is a class of the `protocol.Format` shape, named in `registry`: built from a
tournament's settings, it answers `next_games(results)` (the next batch of games to play,
or nothing once the event is over) and `standings(results)` (`standings`). Everything a
format decides is a function of its settings and the results given back, so a
tournament resumes from its list of results and gives the same schedule whatever order
or parallelism played the games. `core` holds what they share: a game, a result, a
meeting, points and seeds.
"""
