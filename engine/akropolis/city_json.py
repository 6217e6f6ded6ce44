"""The city JSON form of the rules file, read strictly for `agon score`.

`{"stones": s, "variants": [...], "hexes": [{"q", "r", "level", "kind", "color", "stars"}]}`
lists the visible hex of each occupied space. Any surface is accepted; malformed input
raises CityFormatError naming the offending field.
"""

from __future__ import annotations

from typing import Any

from engine.akropolis.components import COLORS, IS_PLAZA, STARS_OF_CODE, hex_code
from engine.akropolis.scoring import VARIANTS, CityScore, Surface, score_surface
from engine.hexgrid import COORD_LIMIT, encode

_HEX_KEYS = {"q", "r", "level", "kind", "color", "stars", "tile"}
"""`tile` (which tile a hex belongs to, as observations give it) is accepted and ignored."""


class CityFormatError(ValueError):
    pass


def _integer(value: Any, where: str, minimum: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise CityFormatError(f"{where} must be an integer, not {value!r}")
    if minimum is not None and value < minimum:
        raise CityFormatError(f"{where} must be at least {minimum}, not {value}")
    return value


def parse_city(data: Any, where: str = "city") -> tuple[Surface, int, list[str]]:
    """(surface, stones, variants) of one city in the JSON form."""
    if not isinstance(data, dict):
        raise CityFormatError(f"{where} must be an object with stones, variants and hexes")
    unknown = set(data) - {"stones", "variants", "hexes"}
    if unknown:
        raise CityFormatError(f"{where} has unknown field(s) {', '.join(sorted(unknown))}")
    stones = _integer(data.get("stones", 0), f"{where}.stones", minimum=0)
    variants = data.get("variants", [])
    if not isinstance(variants, list) or any(v not in VARIANTS for v in variants):
        raise CityFormatError(
            f"{where}.variants must be a list of {', '.join(VARIANTS)}; got {variants!r}"
        )
    hexes = data.get("hexes")
    if not isinstance(hexes, list):
        raise CityFormatError(f"{where}.hexes must be a list of hexes")
    surface: dict[int, tuple[int, int, int]] = {}
    for index, h in enumerate(hexes):
        at = f"{where}.hexes[{index}]"
        if not isinstance(h, dict):
            raise CityFormatError(f"{at} must be an object")
        extra = set(h) - _HEX_KEYS
        if extra:
            raise CityFormatError(f"{at} has unknown field(s) {', '.join(sorted(extra))}")
        for key in ("q", "r", "level", "kind"):
            if key not in h:
                raise CityFormatError(f"{at} is missing {key!r}")
        q = _integer(h["q"], f"{at}.q")
        r = _integer(h["r"], f"{at}.r")
        if abs(q) >= COORD_LIMIT or abs(r) >= COORD_LIMIT:
            raise CityFormatError(f"{at} is too far from the centre")
        level = _integer(h["level"], f"{at}.level", minimum=1)
        color = h.get("color")
        if color is not None and color not in COLORS:
            raise CityFormatError(f"{at}.color must be one of {', '.join(COLORS)}, not {color!r}")
        try:
            code = hex_code(h["kind"], color)
        except ValueError as error:
            raise CityFormatError(f"{at}: {error}") from None
        if "stars" in h and not IS_PLAZA[code]:
            raise CityFormatError(f"{at}: only plazas have stars")
        stars = _integer(h.get("stars", STARS_OF_CODE[code]), f"{at}.stars", minimum=0)
        cell = encode(q, r)
        if cell in surface:
            raise CityFormatError(f"{at}: two hexes at ({q}, {r}); list only the visible one")
        surface[cell] = (level, code, stars)
    return surface, stones, list(variants)


def score_city_json(data: Any, where: str = "city") -> CityScore:
    surface, stones, variants = parse_city(data, where)
    return score_surface(surface, stones, variants)


def score_json(data: Any) -> Any:
    """Score one city or a list of them; the answer has the same shape as the input."""
    if isinstance(data, list):
        return [score_city_json(city, f"city[{i}]").to_json() for i, city in enumerate(data)]
    return score_city_json(data).to_json()
