"""Runs bot programs in isolated boxes and referees matches."""
