"""A bot's owner in the browser: renames it, retires it and brings it back, is asked before
deleting a bot of their own and told to retire one that met others, and picks another
user's public bot as a version test's baseline; at 1366x900 and on a phone, nothing
wider than the screen (screenshots bot-lifecycle/*.png)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from agon.bots.models import Bot
from agon.bots.retirement import bot_retire
from agon.ladders.models import Ladder
from tests.platform.conftest import MakeBot
from tests.platform.support import play_ranked
from tests.platform.version_testing.support import bot_with_two_versions
from tests.platform.web.browser.conftest import Site, looked_at, signed_in_page


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_rename_retire_bring_back_and_delete_a_bot(
    site: Site, ladders: list[Ladder], make_bot: MakeBot, alice: User, bob: User, viewport: str
) -> None:
    hero = bot_with_two_versions(make_bot, alice)
    spare = make_bot(alice, "a-spare-bot-with-a-rather-long-name-to-see-how-it-wraps")
    public = make_bot(bob, "open-sparring-partner")
    Bot.objects.filter(id=public.id).update(open_to_events=True)
    ladder = Ladder.objects.get(game="akropolis", players=2)
    play_ranked(ladder, [hero, public], [30, 10])
    page = signed_in_page(site, viewport)

    page.goto(f"{site.url}/my/bots/{hero.id}/")
    baseline = page.get_by_label("Against")
    expect(baseline.locator("optgroup")).to_have_count(4)
    expect(baseline.locator('optgroup[label="Other users\' public bots"] option')).to_contain_text(
        ["bob/open-sparring-partner · "]
    )
    page.locator("#manage").scroll_into_view_if_needed()
    looked_at(site, page, "bot-lifecycle/01-owner-page", viewport)

    page.get_by_label("New name").fill("athena")
    page.get_by_role("button", name="Rename").click()
    expect(page.get_by_text("hero is now called athena.")).to_be_visible()
    page.get_by_role("button", name="Retire athena").click()
    expect(page.get_by_role("heading", name="athena is retired")).to_be_visible()
    looked_at(site, page, "bot-lifecycle/02-retired", viewport)
    page.get_by_role("link", name="Public page").click()
    expect(page.get_by_text("Retired by its owner on")).to_be_visible()
    looked_at(site, page, "bot-lifecycle/02-retired-public-page", viewport)
    page.go_back()
    page.get_by_role("button", name="Bring athena back").click()
    expect(page.get_by_text("athena is back on the ladders")).to_be_visible()

    page.get_by_role("link", name="Delete athena…").click()
    expect(page.get_by_role("heading", name="athena cannot be deleted")).to_be_visible()
    looked_at(site, page, "bot-lifecycle/03-delete-refused", viewport)

    page.goto(f"{site.url}/my/bots/{spare.id}/delete/")
    expect(page.get_by_role("heading", name=f"Delete {spare.name} for good?")).to_be_visible()
    looked_at(site, page, "bot-lifecycle/04-delete-confirm", viewport)
    page.get_by_role("button", name=f"Delete {spare.name}").click()
    page.wait_for_url("**/my/bots/")
    expect(page.get_by_text(f"{spare.name} is deleted, with its versions.")).to_be_visible()
    assert not Bot.objects.filter(id=spare.id).exists()
    bot_retire(bot=hero)
    page.reload()
    expect(page.get_by_role("heading", name="athena Akropolis retired")).to_be_visible()
    looked_at(site, page, "bot-lifecycle/05-my-bots", viewport)
