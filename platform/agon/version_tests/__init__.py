"""Version tests: is this version of a bot stronger than another? Pairs of games stopped
by fishtest's SPRT (`agon.tournaments.formats.sprt`), played by the match workers at the
lowest priority."""
