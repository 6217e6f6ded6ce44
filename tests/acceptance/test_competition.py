"""A competition's season on `agon up` itself, on each stack, as its staff and entrants
live it: staff make the competition with `manage.py competition_create` in the
platform's environment; three authors upload bots, choose to be told by e-mail and by a
webhook, and enter the competition, all through the API; the platform's own worker and
beat open it, freeze it, play its final and archive it on a clock of seconds; each notice
reaches each author's webhook (a receiver on this machine) once, signed with the secret
the API showed when the webhook was added, is logged as delivered in the webhook's
deliveries, and is printed once by the console mail backend into the platform's log.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import uuid
from collections import Counter
from typing import Any

from agon.notifications.payloads import SIGNATURE_HEADER, TIMESTAMP_HEADER, verify
from tests.acceptance.platforms import platform_env
from tests.acceptance.support import (
    FIRST_LEGAL,
    GAME,
    LAST_LEGAL,
    RANDOM,
    AgonUp,
    User,
    wait_for,
)
from tests.platform.notifications.receiver import receiver
from tests.platform.pipeline.support import REPO_DIR

OPEN_MINUTES = 0.4
"""From its making to the freeze (24 s): its ladder plays ranked matches meanwhile."""
FROZEN_MINUTES = 0.1
"""From the freeze to the final."""
PHASES = ("open", "frozen", "final", "finished")
EVERYWHERE = {"site": True, "email": True, "webhooks": True}


def be_told_of_the_season(author: User, url: str) -> dict[str, Any]:
    """The author's address, the competitions' notices everywhere and a webhook to `url`,
    set through the API as a script would: the webhook, with its secret."""
    author.json(
        "PATCH",
        "/api/notifications/settings/",
        {
            "email": f"{author.username}@example.org",
            "kinds": {"competition_phase": EVERYWHERE, "competition_result": EVERYWHERE},
        },
    )
    webhook: dict[str, Any] = author.post(
        "/api/notifications/webhooks/", {"url": url, "style": "generic"}
    )
    return webhook


def manage(agon: AgonUp, *args: str) -> str:
    """`manage.py` with the platform's environment (its database, broker and settings)."""
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [sys.executable, "manage.py", *args],
        cwd=REPO_DIR,
        env=platform_env(agon),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    return done.stdout


def test_a_season_on_agon_up_tells_every_entrant_once_by_webhook_and_mail(
    agon: AgonUp,
) -> None:
    started = time.monotonic()
    run = uuid.uuid4().hex[:6]
    authors = [User.sign_up(agon.url, f"season-{run}-{n}") for n in range(3)]
    bots = [
        author.upload_bot(f"entrant-{n}", source)
        for n, (author, source) in enumerate(
            zip(authors, (FIRST_LEGAL, LAST_LEGAL, RANDOM), strict=True)
        )
    ]
    with receiver() as hooks:
        staff = f"season-{run}-staff"
        manage(agon, "createsuperuser", "--noinput", "--username", staff, "--email", "s@x.org")
        webhooks = {
            author.username: be_told_of_the_season(author, f"{hooks.url}/{author.username}")
            for author in authors
        }
        for author, bot in zip(authors, bots, strict=True):
            author.wait_active(bot["id"], 1, agon.explain)
        made = manage(
            agon,
            "competition_create",
            f"Season {run}",
            "--staff",
            staff,
            "--game",
            GAME,
            "--freezes",
            f"+{OPEN_MINUTES}",
            "--final",
            f"+{OPEN_MINUTES + FROZEN_MINUTES}",
            "--final-size",
            "2",
        )
        competition_id = int(re.search(r"competition (\d+):", made)[1])  # type: ignore[index]
        made_at = time.monotonic()
        for author, bot in zip(authors, bots, strict=True):
            author.post(f"/api/competitions/{competition_id}/entries/", {"bot": bot["id"]})

        seen: dict[str, float] = {}

        def finished() -> bool:
            shown = authors[0].get(f"/api/competitions/{competition_id}/")
            assert shown["phase"] != "cancelled", shown
            seen.setdefault(shown["phase"], time.monotonic() - made_at)
            return bool(shown["phase"] == "finished")

        wait_for(
            finished,
            timeout=OPEN_MINUTES * 60 + 240,
            what=f"competition {competition_id} to finish (seen: {seen})",
            explain=agon.explain,
            interval=0.5,
        )
        season_seconds = time.monotonic() - made_at
        expected = len(authors) * len(PHASES)

        def delivered() -> list[tuple[str, str]]:
            return [
                (hook.path.rsplit("/", 1)[1], body["kind"] + ":" + body["data"]["phase"])
                for hook in hooks.received
                if (body := json.loads(hook.body))["data"].get("competition") == competition_id
            ]

        wait_for(
            lambda: len(delivered()) >= expected,
            timeout=60,
            what=f"{expected} notices at the webhook receiver (got {delivered()})",
            explain=agon.explain,
        )
        time.sleep(3)  # a duplicate would come now
        hooked = Counter(delivered())
        for hook in hooks.received:
            secret = webhooks[hook.path.rsplit("/", 1)[1]]["secret"]
            timestamp, signature = hook.headers[TIMESTAMP_HEADER], hook.headers[SIGNATURE_HEADER]
            assert verify(secret, timestamp, hook.body, signature), hook.headers

    assert set(seen) <= {"upcoming", *PHASES}, seen
    standings = authors[0].get(f"/api/competitions/{competition_id}/standings/")
    assert standings["stage"] == "archive" and len(standings["rows"]) == 3
    assert [row["rank"] for row in standings["rows"]].count(None) == 1  # two finalists
    games = authors[0].get(f"/api/competitions/{competition_id}/games/")
    assert games["count"] == 2  # each seat order once
    ladder_id = authors[0].get(f"/api/competitions/{competition_id}/")["ladders"][0]["id"]
    board = authors[0].get(f"/api/ladders/{ladder_id}/leaderboard/")["results"]
    ranked = sum(row["games"] for row in board) // 2

    told = {
        (author.username, f"competition_phase:{phase}")
        for author in authors
        for phase in PHASES[:3]
    } | {(author.username, "competition_result:finished") for author in authors}
    assert hooked == Counter(told), hooked  # each notice once, to its author's webhook

    def logged_as_delivered() -> bool:
        """Each author's webhook's log: the season's four notices, delivered (the API's
        own log of what the receiver got)."""
        for author in authors:
            hook_id = webhooks[author.username]["id"]
            rows = author.get(f"/api/notifications/webhooks/{hook_id}/deliveries/")["results"]
            statuses = [row["status"] for row in rows if row["kind"].startswith("competition_")]
            if statuses != ["delivered"] * 4:
                return False
        return True

    wait_for(logged_as_delivered, timeout=30, what="the deliveries logged", explain=agon.explain)
    log = (agon.var_dir / "agon-up.log").read_text(errors="replace")
    mailed = Counter(
        address
        for address in re.findall(r"\bTo: (season-[0-9a-f]+-\d)@example\.org\b", log)
        if address.startswith(f"season-{run}-")
    )
    assert mailed == dict.fromkeys((author.username for author in authors), 4), mailed
    subjects = re.findall(rf"\bSubject: \[Agon\] [^\n]*Season {run}\b", log)
    assert len(subjects) == expected, subjects
    phases = ", ".join(f"{phase} {at:.0f} s" for phase, at in seen.items())
    print(
        f"\n[figure] {agon.stack}: a season on agon up (open {OPEN_MINUTES * 60:.0f} s, "
        f"frozen {FROZEN_MINUTES * 60:.0f} s): phases seen at {phases}; finished "
        f"{season_seconds:.0f} s after its making ({time.monotonic() - started:.0f} s with "
        f"the authors' set-up); {ranked} ranked matches on its ladder; "
        f"{sum(hooked.values())} webhook deliveries and {sum(mailed.values())} e-mails, "
        "each notice once"
    )
