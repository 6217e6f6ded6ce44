"""Version tests: is this version of a bot at least elo1 Elo stronger than another? Pairs of
games stopped by a sequential test (`competition.sprt`), played by the match
workers at the lowest priority."""
