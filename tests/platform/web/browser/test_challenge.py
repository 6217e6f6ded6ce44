"""A challenge from the web: from a bot's page to its ladder's challenge form, a refusal
said in the form, then a match whose page waits for it and follows it to its end."""

from __future__ import annotations

from django.contrib.auth.models import User
from playwright.sync_api import expect

from agon.ladders.models import Ladder
from agon.matches.models import Match
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.web.browser.checks import accessibility_problems, horizontal_overflow
from tests.platform.web.browser.conftest import PHONE, Site
from tests.platform.web.support import play_and_finish


def test_challenge_a_bot_from_its_page_and_follow_the_match(
    site: Site, ladders: list[Ladder], make_bot: MakeBot, alice: User, bob: User
) -> None:
    carol = User.objects.create_user("carol", password=PASSWORD)
    ant = make_bot(alice, "ant")
    bee = make_bot(bob, "bee")
    cicada = make_bot(carol, "cicada")
    ladder = Ladder.objects.get(game="akropolis", players=3)

    page = site.open(f"/signin/?next=/bots/{bee.id}/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"**/bots/{bee.id}/")
    page.get_by_role("link", name="Challenge bee on Akropolis 3p").click()
    page.wait_for_url(f"**/ladders/{ladder.id}/?opponent={bee.id}#challenge")

    form = page.locator("form.challenge-form")
    expect(form.get_by_label("Your bot")).to_have_value(str(ant.id))
    expect(form.get_by_label("Opponent 1")).to_have_value(str(bee.id))
    assert not accessibility_problems(page)
    site.screenshot("challenge-form")

    # The same bot twice: the service's refusal, in words, above the form.
    form.get_by_label("Opponent 2").select_option(str(bee.id))
    form.get_by_role("button", name="Start the match").click()
    expect(page.get_by_role("alert")).to_have_text(
        "Your challenge was not sent: a bot cannot play against itself: name each bot once."
    )
    site.screenshot("challenge-refused")
    assert not Match.objects.filter(kind=Match.Kind.CHALLENGE).exists()

    form = page.locator("form.challenge-form")
    form.get_by_label("Opponent 2").select_option(label=f"carol/cicada · {_shown(cicada.id)}")
    form.get_by_label("Your seat").select_option(label="second")
    form.get_by_role("button", name="Start the match").click()
    match = Match.objects.get(kind=Match.Kind.CHALLENGE)
    page.wait_for_url(f"**/matches/{match.id}/")
    expect(page.get_by_role("status").first).to_contain_text(f"Your challenge is match #{match.id}")
    expect(page.locator("#viewer-status")).to_contain_text("waiting for a worker")
    site.screenshot("challenge-queued")

    play_and_finish(match)  # as a worker would, while the page waits
    expect(page.locator("#viewer-status")).to_contain_text("Finished", timeout=15_000)
    seated = [seat.version.bot_id for seat in match.seats.order_by("seat") if seat.version]
    assert seated == [bee.id, ant.id, cicada.id]
    site.screenshot("challenge-finished")

    phone = site.new_page(PHONE)
    phone.goto(f"{site.url}/ladders/{ladder.id}/")
    assert horizontal_overflow(phone) <= 0, "the challenge form is wider than a phone"
    assert not accessibility_problems(phone)
    site.screenshot("challenge-form-phone", phone)


def _shown(bot_id: int) -> str:
    from agon.ladders.models import Rating

    rating = Rating.objects.get(bot_id=bot_id, ladder__game="akropolis", ladder__players=3)
    return rating.shown
