"""Each game's datasheet (`/games/<id>/dataset/`, linked from the game's page) says what
its dataset holds, how it is made, how big it is and its licence; /docs/datasets/ is
served."""

from __future__ import annotations

import pytest
from django.test import Client

from agon.datasets.building import dataset_build
from agon.datasets.schema import COLUMNS
from agon.matches.models import Match
from tests.platform.datasets.conftest import GAME

pytestmark = pytest.mark.django_db


def test_the_game_page_links_its_datasheet(client: Client) -> None:
    page = client.get(f"/games/{GAME}/").content.decode()
    assert f'href="/games/{GAME}/dataset/"' in page


def test_an_empty_dataset_says_so(client: Client) -> None:
    page = client.get(f"/games/{GAME}/dataset/").content.decode()
    assert "Nothing yet" in page
    assert all(f"<code>{column.name}</code>" in page for column in COLUMNS)
    assert "CC BY 4.0" in page


@pytest.mark.django_db(transaction=True)
def test_a_datasheet_gives_the_dataset_s_size(client: Client, played: list[Match]) -> None:
    dataset_build(game=GAME)
    page = client.get(f"/games/{GAME}/dataset/").content.decode()
    assert "3 matches" in page and "in 1 part " in page
    assert f"agon-kit dataset pull {GAME}" in page


def test_no_datasheet_for_an_unknown_game_and_the_docs_are_served(client: Client) -> None:
    assert client.get("/games/chess/dataset/").status_code == 404
    docs = client.get("/docs/datasets/")
    assert docs.status_code == 200
    assert "one row per decision" in docs.content.decode()
