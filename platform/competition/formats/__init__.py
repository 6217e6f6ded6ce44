"""Tournament formats and version tests as pure functions of the games played so far.

Each format (`round_robin`, `swiss`, `knockout`, `gauntlet`) is an object with
`next_games(results)` (the next batch of games to play, or nothing once the event is over)
and `standings(results)` (`standings`). Everything a format decides is a function of its
settings and the results given back, so a tournament resumes from its list of results and
gives the same schedule whatever order or parallelism played the games. `sprt` and
`version_test` are the statistics and the games of a test between two versions of a bot.
"""
