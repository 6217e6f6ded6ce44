"""A platform with data, for the backup tests: `python -m tests.deploy.platform_data fill`
makes users, bots and real matches (played in boxes, replays stored) in the database and
files folder the environment names; `describe` prints, as JSON, what a restore must bring
back: the rows that matter, and each stored file's checksum and whether its replay still
verifies through the engine.

It runs in a process of its own with the platform's settings (`agon.settings.local`
pointed at the test's database by AGON_DATABASE_URL and AGON_VAR_DIR), as an operator's
platform would, not inside the test's own database.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from typing import Any

PASSWORD = "backups are restored"  # noqa: S105 - the made-up users' password
SOURCE = (
    b"from agon_bot import run\n\n"
    b"def act(observation, legal_actions):\n"
    b"    return legal_actions[-1]\n\n"
    b"run(act)\n"
)


def fill() -> dict[str, Any]:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command

    from agon.accounts.services import user_register
    from agon.bots.models import BotVersion
    from agon.bots.services import bot_submit
    from agon.ladders.models import Ladder
    from agon.ladders.services import ladder_ensure_defaults
    from agon.matches.models import Match
    from agon.matches.services import match_execute
    from tests.platform.support import ranked_match

    call_command("migrate", interactive=False, verbosity=0)
    ladder_ensure_defaults()
    versions = []
    for name in ("alice", "bob"):
        owner = user_register(username=name, password=PASSWORD)
        upload = SimpleUploadedFile("main.py", SOURCE, content_type="text/x-python")
        bot = bot_submit(owner=owner, name=f"{name}-bot", game="akropolis", upload=upload)
        version = BotVersion.objects.get(bot=bot)
        validation = Match.objects.get(kind=Match.Kind.VALIDATION, seats__version=version)
        match_execute(match_id=validation.id)
        version.refresh_from_db()
        assert version.status == BotVersion.Status.ACTIVE, version.reason
        versions.append(version)
    ladder = Ladder.objects.get(game="akropolis", players=2)
    ranked = ranked_match(ladder, versions)
    assert match_execute(match_id=ranked.id)
    return describe()


def describe() -> dict[str, Any]:
    from django.contrib.auth.models import User

    from agon.bots.models import Bot, BotVersion
    from agon.ladders.models import Rating, RatingChange
    from agon.matches.models import Match
    from engine.replay import Replay, ReplayError, verify_replay

    def checksum(field: Any) -> str:
        with field.open("rb") as stored:
            return hashlib.sha256(stored.read()).hexdigest()

    def verified(match: Match) -> bool:
        with match.replay.open("rb") as stored:
            replay = Replay.from_json(json.loads(stored.read()))
        try:
            verify_replay(replay)
        except ReplayError:
            return False
        return bool(replay.result["ranks"] == match.ranks)

    return {
        "users": sorted(
            [user.username, user.password, user.check_password(PASSWORD)]
            for user in User.objects.all()
        ),
        "bots": sorted([bot.id, bot.owner.username, bot.name] for bot in Bot.objects.all()),
        "versions": sorted(
            [v.id, v.bot_id, v.status, v.sha256, v.archive.name, checksum(v.archive)]
            for v in BotVersion.objects.all()
        ),
        "matches": sorted(
            [
                m.id,
                m.kind,
                m.status,
                m.seed,
                m.ranks,
                m.scores,
                m.replay.name,
                checksum(m.replay),
                verified(m),
            ]
            for m in Match.objects.filter(status=Match.Status.FINISHED)
        ),
        "ratings": sorted(
            [r.bot_id, r.ladder.name, r.rating, r.games] for r in Rating.objects.all()
        ),
        "rating_changes": RatingChange.objects.count(),
    }


def main() -> int:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "agon.settings.local")
    django.setup()
    action = {"fill": fill, "describe": describe}[sys.argv[1]]
    print(json.dumps(action()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
