"""Each finished match's story: every seat's chances after every move (agon.analysis.services)."""
