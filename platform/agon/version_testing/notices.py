"""What a version test's owner is told when it ends (agon.notifications): its verdict,
or why it stopped. Called inside the transaction that ends it."""

from __future__ import annotations

from django.urls import reverse

from agon.notifications.services import notify
from agon.version_testing.models import VersionTest


def version_test_ended_notify(test: VersionTest) -> None:
    candidate = test.candidate
    name = f"{candidate.bot.name} v{candidate.number}"
    if test.status == VersionTest.Status.FAILED:
        title = f"Version test of {name} stopped"
        text = f"It could not be played to its end: {test.error}"
    else:
        verdict = VersionTest.Verdict(test.verdict)
        title = f"Version test of {name}: {verdict.label.split(':')[0]}"
        text = (
            f"Against {test.baseline_label}: {verdict.label}, after {test.games_counted} "
            f"games ({test.wins} wins, {test.draws} draws, {test.losses} losses)."
        )
    notify(
        user_id=test.created_by_id,
        kind="version_test_verdict",
        key=f"{test.id}",
        title=title,
        text=text,
        path=reverse("web:version-test", args=[test.bot_id, test.id]),
        data={
            "test": test.id,
            "bot": test.bot_id,
            "candidate": candidate.number,
            "baseline": test.baseline_label,
            "status": test.status,
            "verdict": test.verdict,
            "games": test.games_counted,
            "elo": test.elo,
        },
    )
