"""The bot page's games: its ranked games in their own list, first, and its other games
(challenges, tournaments, version tests) apart, each list a page at a time."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agon.bots.models import BotVersion
from agon.ladders.models import Ladder
from agon.ladders.services import ladder_match_create
from agon.matches.models import Match
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.support import finish_match, play_ranked

pytestmark = pytest.mark.django_db


def test_ranked_games_come_first_and_many_version_tests_do_not_hide_them(
    ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    ant, bee = make_bot(alice, "ant"), make_bot(bob, "bee")
    ranked = play_ranked(ladder_2p, [ant, bee], scores=[9, 3])
    versions = [BotVersion.objects.get(bot=bot, status="active") for bot in (ant, bee)]
    tests = []
    for _ in range(25):
        match = ladder_match_create(ladder=ladder_2p, kind=Match.Kind.VERSION_TEST, seats=versions)
        finish_match(match, scores=[1, 9])
        tests.append(match)
    client = Client()
    assert client.login(username="alice", password=PASSWORD)
    page = client.get(f"/bots/{ant.id}/").content.decode()
    ranked_at = page.index('id="ranked-title"')
    other_at = page.index('id="other-title"')
    assert ranked_at < other_at
    ranked_part = page[ranked_at:other_at]
    assert f"/matches/{ranked.id}/" in ranked_part
    assert not any(f"/matches/{m.id}/" in ranked_part for m in tests)
    other_part = page[other_at:]
    shown = set(re.findall(r'href="/matches/(\d+)/"', other_part))
    assert 0 < len(shown) <= 10 and str(ranked.id) not in shown
    assert "?other=2&amp;ranked=1" in other_part
    second = client.get(f"/bots/{ant.id}/?other=3").content.decode()
    assert f"/matches/{ranked.id}/" in second[second.index('id="ranked-title"') :]
    assert "Page 3 of 3" in second
