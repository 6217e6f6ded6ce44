"""Nim, the tests' own fifth game: proof that a game is its package plus one registry line.

Two players take 1 to 3 stones in turn from one pile; whoever takes the last stone wins.
It is registered only for the tests that ask for it (the `nim` fixture), through
`AGON_EXTRA_GAMES`: no file outside this package names it.
"""
