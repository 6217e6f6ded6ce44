"""How the API shows a rating, on the leaderboards and on a bot: its value, its
uncertainty, the text the pages show and whether it is settled. The words here hold for
any rating system (`competition.ratings`), so another system changes no schema."""

from __future__ import annotations

from typing import Any

from competition import ratings

RATING_HELP = "The rating's value on the Elo scale; leaderboards sort by it, highest first."
DEVIATION_HELP = (
    "The rating's uncertainty on the same scale (a Glicko rating deviation: the true "
    "strength lies within 1.96 deviations of the rating 95% of the time); null for a "
    "rating of a system without one."
)
DISPLAY_HELP = 'The rating as the pages show it with its 95% interval, e.g. "1523 ± 98".'
WINS_HELP = "Rated games it finished first alone."
SHARED_FIRSTS_HELP = "Rated games whose first place it shared with another: ties, not wins."
PROVISIONAL_HELP = (
    "The rating is not settled yet (its deviation is 110 or more): the bot, or its "
    "current version, is new to the ladder or has been idle long."
)
RANK_HELP = (
    "Its place on the leaderboard, ranked by the low end of the rating's 95% interval "
    "(a provisional rating's is wide, so it ranks low until its games narrow it)."
)


def rating_fields(rating: ratings.RatingEstimate) -> dict[str, Any]:
    """A rating's fields in a row of the API."""
    return {
        "rating": rating.value,
        "deviation": rating.deviation,
        "display": ratings.display(rating),
    }
