"""How the ladders store ratings (`agon.ratings.stored`): the Django half of the ratings.

What a rating is and how results move it are pure and live in `competition.ratings`,
which the demo, the benchmarks and the kit use without Django.
"""
