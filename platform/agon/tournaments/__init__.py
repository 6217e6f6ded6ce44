"""Tournaments and version tests. `formats` holds the pure parts (pairings, brackets,
standings, tie-breaks, SPRT), free of Django so the local CLI and the platform share them."""
