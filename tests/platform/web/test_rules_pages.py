"""The rules pages at /games/<id>/rules/: one per registered game, made from
docs/rules/<game>.md (and the game's decisions file when there is one), escaped, and
linked from the home page, the ladders, the match viewer and the bot protocol."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from engine.registry import game_ids, get_game
from tests.platform.web.conftest import World
from tests.platform.web.test_pages import get


@pytest.fixture
def repo(settings: Settings, tmp_path: Path) -> Path:
    """A repository of our own, so a test can write the rules files it needs."""
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    settings.REPO_DIR = tmp_path
    return tmp_path


@pytest.mark.parametrize("game_id", game_ids())
def test_every_registered_game_has_its_rules_page(client: Client, game_id: str) -> None:
    page = get(client, reverse("web:rules", args=[game_id]))
    name = get_game(game_id).name
    assert f'<h1 id="{name.lower()}-the-rules">{name}: the rules</h1>' in page
    assert page.count("<h1") == 1, "the decisions below the rules are a part of the page"
    assert "<title>" in page and f"{name}: the rules" in page
    assert 'aria-label="On this page"' in page
    assert '<a href="#where-the-printed-rules-are-silent">' in page
    assert '<a href="#worked-example">' not in page  # only the main sections are listed
    assert f'href="/docs/bot-protocol/#{game_id}"' in page
    others = [other for other in game_ids() if other != game_id]
    assert all(f'href="/games/{other}/rules/"' in page for other in others)


def test_an_unknown_game_has_no_rules_page(client: Client) -> None:
    page = get(client, "/games/chess/rules/", 404)
    assert "There is no game &#x27;chess&#x27;." in page


def test_a_registered_game_without_a_rules_file_is_a_clear_404(client: Client, repo: Path) -> None:
    page = get(client, reverse("web:rules", args=["akropolis"]), 404)
    assert "The game &#x27;akropolis&#x27; has no rules page yet." in page


def test_the_rules_are_escaped_and_keep_no_raw_html(client: Client, repo: Path) -> None:
    (repo / "docs" / "rules" / "akropolis.md").write_text(
        "# Akropolis\n\n## Setup\n\n<script>alert(1)</script>\n\n"
        'A <b onclick="x()">bold</b> claim & [a link](javascript:alert(1)).\n',
        encoding="utf-8",
    )
    page = get(client, reverse("web:rules", args=["akropolis"]))
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<b onclick" not in page and "&lt;b onclick" in page
    assert 'href="javascript:' not in page


def test_the_decisions_file_follows_the_rules_with_its_own_anchors(
    client: Client, repo: Path
) -> None:
    rules = repo / "docs" / "rules"
    (rules / "architekton.md").write_text(
        "# Architekton\n\n## Setup\n\nSee [the decisions](architekton-decisions.md) and "
        "[the loss](architekton-decisions.md#setup).\n",
        encoding="utf-8",
    )
    (rules / "architekton-decisions.md").write_text(
        "# Architekton: our decisions\n\n## Setup\n\nSeat 0 first.\n\n"
        '### <a id="lone-house"></a>lone-house: a house alone\n\nIt scores.\n',
        encoding="utf-8",
    )
    page = get(client, reverse("web:rules", args=["architekton"]))
    assert '<h2 id="setup">Setup</h2>' in page
    assert '<section id="decisions"' in page
    assert '<h2 id="decisions-architekton-our-decisions">Architekton: our decisions</h2>' in page
    assert '<h3 id="decisions-setup">Setup</h3>' in page
    # A heading that names its anchor keeps it, and shows no markup.
    assert '<h4 id="decisions-lone-house">lone-house: a house alone</h4>' in page
    assert "&lt;a id=" not in page
    assert 'href="/games/architekton/rules/#decisions"' in page
    assert 'href="/games/architekton/rules/#decisions-setup"' in page
    assert '<a href="#decisions">Our decisions in full</a>' in page


def test_without_a_decisions_file_the_page_has_no_decisions_part(
    client: Client, repo: Path
) -> None:
    (repo / "docs" / "rules" / "attika.md").write_text("# Attika\n\n## Setup\n", "utf-8")
    page = get(client, reverse("web:rules", args=["attika"]))
    assert 'id="decisions"' not in page


def test_home_ladder_and_match_pages_link_to_the_rules(client: Client, world: World) -> None:
    home = get(client, "/")
    for game_id in game_ids():
        assert f'href="/games/{game_id}/rules/"' in home
    ladder = get(client, reverse("web:ladder", args=[world.ladder.id]))
    assert 'href="/games/akropolis/rules/">Rules of Akropolis</a>' in ladder
    match = get(client, reverse("web:match", args=[world.match.id]))
    assert 'href="/games/akropolis/rules/">Rules of Akropolis</a>' in match


def test_the_bot_protocol_points_to_each_rules_page(client: Client) -> None:
    page = get(client, reverse("web:guide"))
    for game_id in game_ids():
        assert f'href="/games/{game_id}/rules/"' in page


def test_insert_lines_become_the_games_pictures_and_tables(client: Client, repo: Path) -> None:
    (repo / "docs" / "rules" / "akropolis.md").write_text(
        "# Akropolis\n\n## Components\n\n<!-- agon: component-tables -->\n\n"
        "## Coordinates\n\n<!-- agon: coordinates -->\n\n<!-- agon: no-such-insert -->\n\n"
        "```\n<!-- agon: coordinates -->\n```\n",
        encoding="utf-8",
    )
    page = get(client, reverse("web:rules", args=["akropolis"]))
    assert page.count('data-picture="coordinates"') == 1
    assert 'data-components="akropolis-stacks"' in page
    assert "<!-- agon: no-such-insert -->" in page  # an unknown one stays a hidden comment
    assert "&lt;!-- agon: coordinates --&gt;" in page  # a code block shows its text
    assert "&lt;!-- agon: no-such-insert" not in page
