"""Human games: a signed-in user plays bots from the browser, unranked.

`services` starts a game (within the limits: a daily budget per user, a cap on the games
in flight, the bot owners' consent) and takes a move; `selectors` gives the page the
turn it waits on, with the legal actions grouped by `targets` into things to click. The
match itself is the matches app's: a `human` match whose seat is played by
`agon.matches.human_seat`.
"""
