"""A game's statistics from its ranked matches: win rate by seat, game lengths, final
scores and openings (`GET /api/games/{id}/stats/`, `/games/{id}/stats/`)."""
