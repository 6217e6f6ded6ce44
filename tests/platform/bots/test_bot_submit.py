"""`bot_submit` refuses a duplicate name even when two uploads race past the check."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from pytest_django import Settings

from agon.bots.models import Bot
from agon.bots.services import bot_submit
from tests.platform.support import py_upload

pytestmark = pytest.mark.django_db


def test_a_duplicate_name_that_slips_past_the_check_is_still_refused_clearly(
    alice: User, monkeypatch: pytest.MonkeyPatch, settings: Settings, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = tmp_path
    bot_submit(owner=alice, name="twin", game="akropolis", upload=py_upload())
    # As if another request created the bot between the check and the insert.
    monkeypatch.setattr(QuerySet, "exists", lambda self: False)

    with pytest.raises(ValidationError, match="you already have a bot called 'twin'"):
        bot_submit(owner=alice, name="twin", game="akropolis", upload=py_upload())

    assert Bot.objects.filter(name="twin").count() == 1
