"""Every page renders for anybody (the owner-only ones aside), with what it promises."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from agon.kit_wheel import kit_sdist, kit_wheel
from agon.matches.models import Match
from agon.matches.services import match_claim
from agon.web import docs
from tests.platform.support import ranked_match
from tests.platform.web.conftest import World


def get(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, f"{url}: {response.status_code}"
    return response.content.decode()


def test_home_shows_the_games_the_leaders_and_the_recent_matches(
    client: Client, world: World
) -> None:
    page = get(client, "/")
    for name in ("Akropolis", "Attika", "Architekton", "Megalopolis"):
        assert name in page
    assert "alice/athena" in page and "bob/hermes" in page
    assert f'href="/matches/{world.match.id}/"' in page
    assert 'href="/ladders/' in page


def test_every_public_page_has_a_plain_title(client: Client, world: World) -> None:
    """A <title> is text: a block left open in a template once put the home page's
    tournaments section into it."""
    urls = [
        "/",
        reverse("web:ladders"),
        reverse("web:ladder", args=[world.ladder.id]),
        reverse("web:matches"),
        reverse("web:match", args=[world.match.id]),
        reverse("web:bot", args=[world.bots[0].id]),
        reverse("web:tournaments"),
        reverse("web:guide"),
        reverse("web:signup"),
        reverse("web:signin"),
        reverse("web:rules", args=["akropolis"]),
    ]
    for url in urls:
        title = get(client, url).split("<title>", 1)[1].split("</title>", 1)[0]
        assert "<" not in title and ">" not in title and 0 < len(title) < 120, (url, title)


def test_home_lists_running_matches_as_live(client: Client, world: World) -> None:
    versions = [bot.versions.get(status="active") for bot in world.bots]
    running = ranked_match(world.ladder, versions, seed=3)
    match_claim(match_id=running.id)
    page = get(client, "/")
    live = page.split('id="live-title"')[1].split('id="recent-title"')[0]
    assert f"#{running.id}" in live and "Watch" in live


ATHENA = 'athena</a> <span class="owner">by alice</span>'
"""Alice's bot athena as a leaderboard row shows it."""


def test_the_leaderboard_ranks_bots_and_marks_provisional_ones(
    client: Client, world: World
) -> None:
    page = get(client, reverse("web:ladder", args=[world.ladder.id]))
    assert page.index(ATHENA) > 0 and page.index('hermes</a> <span class="owner">by bob') > 0
    assert page.count("badge-provisional") >= 3, "the note and both bots (one game each)"
    assert "Page 1 of" not in page, "one page only"


def test_the_leaderboard_is_paginated(client: Client, world: World) -> None:
    page = get(client, reverse("web:ladder", args=[world.ladder.id]) + "?page=9")
    assert ATHENA in page, "a page beyond the last shows the last"
    get(client, reverse("web:ladder", args=[99999]), 404)


def test_the_ladder_list_names_each_leader(client: Client, world: World) -> None:
    page = get(client, reverse("web:ladders"))
    assert "Akropolis 2p" in page and "Megalopolis 6p" in page


@pytest.mark.parametrize(
    ("query", "found"),
    [("", True), ("?game=akropolis", True), ("?game=attika", False), ("?status=running", False)],
)
def test_the_match_list_filters(client: Client, world: World, query: str, found: bool) -> None:
    page = get(client, reverse("web:matches") + query)
    assert (f'href="/matches/{world.match.id}/"' in page) is found


def test_the_match_list_shows_played_matches_first_with_their_time(
    client: Client, world: World
) -> None:
    queued = [ranked_match(world.ladder, world.versions, seed=seed) for seed in range(3)]
    page = get(client, reverse("web:matches"))
    assert f'href="/matches/{world.match.id}/"' in page
    assert all(f'href="/matches/{match.id}/"' not in page for match in queued)
    played = Match.objects.exclude(status=Match.Status.QUEUED).count()
    assert f"{played} matches; " in page
    assert '<a href="?status=queued">3 more waiting for a worker</a>' in page
    finished = world.match.finished
    assert finished is not None and world.match.match_seconds is not None
    assert f'<time datetime="{finished.isoformat()}">' in page
    assert f"{world.match.match_seconds:.1f} s" in page

    waiting = get(client, reverse("web:matches") + "?status=queued")
    assert all(f'href="/matches/{match.id}/"' in waiting for match in queued)
    everything = get(client, reverse("web:matches") + "?status=any")
    assert f"{played + 3} matches" in everything and "waiting for a worker" not in everything


def test_the_match_list_filters_by_ladder_and_bot(client: Client, world: World) -> None:
    athena = world.bots[0]
    page = get(client, f"{reverse('web:matches')}?bot={athena.id}&ladder={world.ladder.id}")
    assert f'href="/matches/{world.match.id}/"' in page
    assert "Matches of" in page
    by_name = get(client, f"{reverse('web:matches')}?bot=alice/athena")
    assert f'href="/matches/{world.match.id}/"' in by_name
    other = get(client, f"{reverse('web:matches')}?bot=nobody/nothing")
    assert f'href="/matches/{world.match.id}/"' not in other
    assert "There is no bot &#x27;nobody/nothing&#x27;" in other


def test_the_match_page_has_the_viewer_the_seats_and_the_breakdown(
    client: Client, world: World
) -> None:
    match = world.match
    page = get(client, reverse("web:match", args=[match.id]))
    assert f'data-timeline-url="/api/matches/{match.id}/timeline/"' in page
    assert "web/games/akropolis.js" in page
    assert "Final score breakdown" in page
    for seat in match.seats.all():
        assert f">{seat.score}<" in page
    assert f'href="/api/matches/{match.id}/replay/"' in page
    labels = json.loads(page.split('id="seat-labels" type="application/json">')[1].split("<")[0])
    assert labels == ["alice/athena v1", "bob/hermes v1"]


def test_the_match_page_gives_the_viewer_the_logs_of_its_visitor_s_own_seats_only(
    client: Client, world: World
) -> None:
    match = world.match
    url = reverse("web:match", args=[match.id])

    def own_logs() -> dict[str, str]:
        page = get(client, url)
        found: dict[str, str] = json.loads(
            page.split('id="own-logs" type="application/json">')[1].split("<")[0]
        )
        return found

    assert own_logs() == {}
    client.force_login(world.bots[1].owner)
    assert own_logs() == {"1": f"/api/matches/{match.id}/logs/1/"}


def test_the_viewer_reads_the_timeline_of_the_api(client: Client, world: World) -> None:
    match = world.match
    replay = client.get(f"/api/matches/{match.id}/replay/")
    data = json.loads(b"".join(replay.streaming_content))  # type: ignore[attr-defined]
    timeline = client.get(f"/api/matches/{match.id}/timeline/?since=5").json()
    assert timeline["total"] == len(data["actions"]) + 1
    assert timeline["since"] == 5 and len(timeline["steps"]) == timeline["total"] - 5


def test_a_queued_match_has_no_replay_yet(client: Client, world: World) -> None:
    versions = [bot.versions.get(status="active") for bot in world.bots]
    queued = ranked_match(world.ladder, versions, seed=3)
    page = get(client, reverse("web:match", args=[queued.id]))
    assert 'data-status="queued"' in page and "Replay JSON" not in page
    get(client, reverse("web:match", args=[99999]), 404)


def test_the_bot_page_shows_its_rating_chart_record_and_matches(
    client: Client, world: World
) -> None:
    athena = world.bots[0]
    page = get(client, reverse("web:bot", args=[athena.id]))
    assert '<svg class="chart"' in page and "<polyline" in page
    assert "Rating of athena on Akropolis 2p" in page
    assert f'href="/matches/{world.match.id}/"' in page
    assert "Manage this bot" not in page
    get(client, reverse("web:bot", args=[99999]), 404)


def test_the_owner_sees_a_link_to_manage_the_bot(alice_browser: Client, world: World) -> None:
    page = get(alice_browser, reverse("web:bot", args=[world.bots[0].id]))
    assert "Manage this bot" in page


def test_the_guide_renders_the_bot_protocol_with_its_contents(client: Client) -> None:
    page = get(client, reverse("web:guide"))
    assert '<h1 id="the-bot-protocol">The bot protocol</h1>' in page
    assert '<a href="#akropolis">Akropolis</a>' in page
    assert 'href="/docs/examples/random_bot.py"' in page
    assert 'href="/docs/attika-reconstruction/"' in page
    assert 'href="/docs/starter-kit.zip"' in page
    assert "<table" in page


def test_the_other_documents_and_the_examples_are_served(client: Client) -> None:
    assert "Attika" in get(client, reverse("web:doc", args=["attika-reconstruction"]))
    get(client, reverse("web:doc", args=["nothing"]), 404)
    source = client.get(reverse("web:example", args=["random_bot.py"]))
    assert source["Content-Type"].startswith("text/plain")
    assert b"from agon_bot import" in source.content
    get(client, reverse("web:example", args=["secret.py"]), 404)


def test_the_starter_kit_is_a_zip_of_the_examples_the_protocol_and_a_readme(
    client: Client,
) -> None:
    response = client.get(reverse("web:starter-kit"))
    assert response["Content-Disposition"] == 'attachment; filename="agon-starter-kit.zip"'
    with zipfile.ZipFile(io.BytesIO(response.content)) as kit:
        names = set(kit.namelist())
        main = kit.read("agon-starter-kit/main.py")
        readme = kit.read("agon-starter-kit/README.md").decode()
    assert names == {
        "agon-starter-kit/README.md",
        "agon-starter-kit/main.py",
        "agon-starter-kit/examples/random_bot.py",
        "agon-starter-kit/examples/lookahead_bot.py",
        "agon-starter-kit/docs/bot-protocol.md",
        "agon-starter-kit/docs/command-line.md",
        f"agon-starter-kit/{kit_sdist().filename}",
        f"agon-starter-kit/{kit_wheel().filename}",
    }
    assert b"run(" in main and "agon-kit play" in readme
    assert "pip install agon_kit-*.tar.gz" in readme
    assert "agon-kit submit" in readme and "docs/command-line.md" in readme
    assert client.get(reverse("web:starter-kit")).content == response.content


def test_the_starter_kit_is_zipped_once_while_its_files_stay_the_same(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Zipping the wheel again took 70-145 ms a download, for anybody asking."""
    zipped = []
    real = zipfile.ZipFile

    def counting(*args: Any, **kwargs: Any) -> zipfile.ZipFile:
        zipped.append(args)
        return real(*args, **kwargs)

    kit_wheel()  # the wheel itself is built once per version of its files already
    docs._zipped.cache_clear()
    monkeypatch.setattr(zipfile, "ZipFile", counting)
    downloads = [client.get(reverse("web:starter-kit")).content for _ in range(3)]

    assert len(zipped) == 1
    assert downloads[0] == downloads[1] == downloads[2]


def test_the_guide_gives_the_command_that_installs_the_bot_kit_and_serves_it(
    client: Client,
) -> None:
    """The command names the sdist (it builds the compiled core where it can); the pure
    wheel of the same version is served too."""
    sdist, wheel = kit_sdist(), kit_wheel()
    page = get(client, reverse("web:guide"))
    assert f"<code>pip install http://testserver/docs/kit/{sdist.filename}</code>" in page
    for kit, content_type in ((sdist, "application/gzip"), (wheel, "application/zip")):
        response = client.get(f"/docs/kit/{kit.filename}")
        assert response.status_code == 200
        assert response.content == kit.content
        assert response["Content-Type"] == content_type
        assert "max-age" in response["Cache-Control"]
    get(client, "/docs/kit/agon_kit-0.0.1-py3-none-any.whl", 404)
    get(client, "/docs/kit/agon_kit-0.0.1.tar.gz", 404)


def test_pages_of_a_running_match_and_its_timeline(client: Client, world: World) -> None:
    versions = [bot.versions.get(status="active") for bot in world.bots]
    running = ranked_match(world.ladder, versions, seed=3)
    match_claim(match_id=running.id)
    page = get(client, reverse("web:match", args=[running.id]))
    assert 'data-status="running"' in page
    timeline = client.get(f"/api/matches/{running.id}/timeline/").json()
    assert timeline["status"] == Match.Status.RUNNING and timeline["total"] == 1
