"""My bots: uploads with clear errors, versions with their status and reason, logs for
the owner only."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from agon.bots.models import Bot, BotVersion
from agon.ladders.models import Ladder, Rating
from agon.matches.models import Match
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.support import BOT_SOURCE, fail_validation, play_ranked, zip_bytes
from tests.platform.web.conftest import World


def upload(name: str = "main.py", data: bytes = BOT_SOURCE) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


def test_my_bots_asks_to_sign_in_first(client: Client) -> None:
    response = client.get(reverse("web:my-bots"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("web:signin") + "?next=")


def test_uploading_a_bot_makes_its_first_version_and_its_validation_match(
    alice_browser: Client, alice: User, ladders: list[Ladder]
) -> None:
    response = alice_browser.post(
        reverse("web:my-bots"), {"name": "athena", "game": "akropolis", "file": upload()}
    )
    bot = Bot.objects.get(owner=alice, name="athena")
    assert response.status_code == 302 and response["Location"] == f"/my/bots/{bot.id}/"
    version = bot.versions.get()
    assert version.status == BotVersion.Status.VALIDATING
    assert Match.objects.filter(kind=Match.Kind.VALIDATION, seats__version=version).exists()
    page = alice_browser.get(response["Location"]).content.decode()
    assert "athena v1 is uploaded" in page
    assert "playing its validation match" in page
    assert "web/mybots.js" in page


def test_upload_errors_are_shown_next_to_the_form(
    alice_browser: Client, make_bot: MakeBot, alice: User
) -> None:
    make_bot(alice, "athena")
    page = alice_browser.post(
        reverse("web:my-bots"), {"name": "athena", "game": "akropolis", "file": upload()}
    ).content.decode()
    assert "You already have a bot called &#x27;athena&#x27;" in page
    page = alice_browser.post(
        reverse("web:my-bots"), {"name": "other", "game": "akropolis"}
    ).content.decode()
    assert "This field is required." in page
    no_main = zip_bytes({"bot.py": BOT_SOURCE})
    page = alice_browser.post(
        reverse("web:my-bots"),
        {"name": "other", "game": "akropolis", "file": upload("bot.zip", no_main)},
    ).content.decode()
    assert "Your bot was not uploaded:" in page and "main.py" in page
    assert not Bot.objects.filter(name="other").exists()


def test_a_new_version_and_a_rejected_one_with_its_reason(
    alice_browser: Client, make_bot: MakeBot, alice: User
) -> None:
    bot = make_bot(alice, "athena")
    response = alice_browser.post(reverse("web:my-bot", args=[bot.id]), {"file": upload()})
    assert response.status_code == 302
    version = bot.versions.get(number=2)
    fail_validation(version, "timeout")
    page = alice_browser.get(reverse("web:my-bot", args=[bot.id])).content.decode()
    assert "badge-rejected" in page and "badge-active" in page
    version.refresh_from_db()
    assert version.reason.startswith("timeout on its 1st move (game turn 1)")
    assert version.reason.replace("'", "&#x27;") in page


def test_a_bad_version_is_refused_with_the_reason(
    alice_browser: Client, make_bot: MakeBot, alice: User
) -> None:
    bot = make_bot(alice, "athena")
    page = alice_browser.post(
        reverse("web:my-bot", args=[bot.id]), {"file": upload("bot.tar.gz", b"not a tar")}
    ).content.decode()
    assert "This version was not uploaded:" in page
    assert bot.versions.count() == 1


def test_nobody_manages_anybody_else_s_bots(
    alice_browser: Client, make_bot: MakeBot, bob: User
) -> None:
    bobs = make_bot(bob, "hermes")
    assert alice_browser.get(reverse("web:my-bot", args=[bobs.id])).status_code == 404
    response = alice_browser.post(reverse("web:my-bot", args=[bobs.id]), {"file": upload()})
    assert response.status_code == 404
    assert bobs.versions.count() == 1


def test_the_status_poll_lists_only_the_owner_s_versions(
    alice_browser: Client, make_bot: MakeBot, alice: User, bob: User
) -> None:
    mine = make_bot(alice, "athena", active=False)
    make_bot(bob, "hermes")
    states = alice_browser.get(reverse("web:my-versions-status")).json()["versions"]
    assert states == {str(mine.versions.get().id): "validating"}


def test_a_seat_s_log_is_for_its_bot_s_owner_only(alice: User, bob: User, world: World) -> None:
    url = reverse("web:seat-log", args=[world.match.id, 0])
    alice_client, bob_client = Client(), Client()
    alice_client.login(username="alice", password=PASSWORD)
    bob_client.login(username="bob", password=PASSWORD)
    assert "athena thinks" in alice_client.get(url).content.decode()
    assert bob_client.get(url).status_code == 404
    assert Client().get(url).status_code == 302
    page = alice_client.get(reverse("web:match", args=[world.match.id])).content.decode()
    assert f'href="{url}"' in page
    assert f'href="{reverse("web:seat-log", args=[world.match.id, 1])}"' not in page


def test_a_validated_bot_s_page_names_the_ladders_it_plays_on(
    alice_browser: Client, make_bot: MakeBot, alice: User
) -> None:
    validated = make_bot(alice, "athena")
    waiting = make_bot(alice, "hera", active=False)
    Ladder.objects.filter(game="akropolis", players=4).update(active=False)

    page = alice_browser.get(f"/my/bots/{validated.id}/").content.decode()
    unrated = alice_browser.get(f"/my/bots/{waiting.id}/").content.decode()

    ladders = Ladder.objects.filter(game="akropolis").order_by("players")
    two, three, four = (f'<a href="/ladders/{ladder.id}/">' for ladder in ladders)
    assert "Plays ranked matches on " in page
    assert two in page and three in page and four not in page
    assert "you can challenge bots from a ladder's page" in page
    assert "Plays ranked matches on" not in unrated


def test_my_bots_shows_each_bot_s_place_on_each_ladder(
    client: Client, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    """Issue 26: My bots showed no ratings."""
    mine, theirs, idle = make_bot(alice, "mine"), make_bot(bob, "theirs"), make_bot(alice, "idle")
    for _ in range(2):
        play_ranked(ladder_2p, [mine, theirs], scores=[3, 1])
    client.login(username="alice", password=PASSWORD)

    page = client.get(reverse("web:my-bots")).content.decode()

    mine_card = page[page.index('id="bot-' + str(mine.id)) :]
    mine_card = mine_card[: mine_card.index("</article>")]
    rated = Rating.objects.get(bot=mine, ladder=ladder_2p)
    assert f"{ladder_2p.name}</a>: <strong>#1</strong> of 3 · {rated.shown} · 2 games" in mine_card
    idle_card = page[page.index('id="bot-' + str(idle.id)) :]
    idle_card = idle_card[: idle_card.index("</article>")]
    assert "<strong>#3</strong> of 3" in idle_card, "never played: last, as on the leaderboard"
    assert "theirs" not in page
