"""The component data: 120 tiles of 21 kinds as the text counts them, bonus points and
silver borders as the rules file says, each marked sourced or reconstructed."""

from __future__ import annotations

from collections import Counter

from engine.megalopolis.components import ALL_TILES, KINDS, RULES_NUMBERS, TOKENS_PER_PLAYER

TEXT_COUNTS = {
    "arboretum": 4, "bank": 6, "capitol": 1, "construction_site": 7, "disaster_site": 3,
    "embassy": 8, "factory": 5, "hotel": 4, "housing": 10, "library": 6, "mausoleum": 6,
    "plaza": 6, "police_hq": 3, "port": 8, "post_office": 8, "power_station": 5,
    "security_guard": 9, "shopping_complex": 4, "stadium": 5, "temple": 4,
    "transit_station": 8,
}  # fmt: skip


def test_there_are_21_kinds_with_the_texts_counts_summing_to_120() -> None:
    assert {kind.name: kind.count for kind in KINDS} == TEXT_COUNTS
    assert len(ALL_TILES) == 120
    assert Counter(KINDS[k].name for k in ALL_TILES) == TEXT_COUNTS


def test_each_player_has_15_tokens() -> None:
    assert TOKENS_PER_PLAYER == 15


def test_bonus_points_are_sourced_on_the_power_station_and_police_hq_only() -> None:
    bonus = {kind.name: kind.bonus for kind in KINDS if kind.bonus}
    assert bonus == dict.fromkeys(
        ("bank", "capitol", "police_hq", "power_station", "stadium", "temple"), 1
    )
    sourced = {kind.name for kind in KINDS if kind.bonus_provenance == "sourced"}
    assert sourced == {"power_station", "police_hq"}


def test_silver_borders_are_sourced_on_the_power_station_and_construction_site_only() -> None:
    silver = {kind.name for kind in KINDS if kind.silver}
    assert silver == {
        "power_station", "construction_site", "factory", "port", "transit_station"
    }  # fmt: skip
    sourced = {kind.name for kind in KINDS if kind.silver_provenance == "sourced"}
    assert sourced == {"power_station", "construction_site"}


def test_every_kind_carries_its_power_text_in_french_and_english() -> None:
    for kind in KINDS:
        assert kind.power_fr and kind.power
        assert len(kind.abbreviation) == 3
    assert len({kind.abbreviation for kind in KINDS}) == 21


def test_the_rules_numbers_are_sourced() -> None:
    assert {q.provenance for q in RULES_NUMBERS} == {"sourced"}
