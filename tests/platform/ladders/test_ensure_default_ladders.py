"""`django-admin ensure_default_ladders`, which a deployment runs after `migrate`."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from agon.ladders.models import Ladder
from engine.registry import game_ids, get_game


@pytest.mark.django_db
def test_it_creates_one_ladder_per_game_and_player_count_once() -> None:
    expected = sum(len(get_game(game).player_counts) for game in game_ids())
    out = StringIO()
    call_command("ensure_default_ladders", stdout=out)
    assert Ladder.objects.count() == expected
    assert out.getvalue().startswith(f"{expected} ladders: ")
    assert "Architekton 2p" in out.getvalue()

    call_command("ensure_default_ladders", stdout=StringIO())
    assert Ladder.objects.count() == expected
