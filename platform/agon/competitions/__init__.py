"""Competitions: seasons with a ladder of their own, a freeze, a final and an archive."""
