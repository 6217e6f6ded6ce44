"""What a bot's owner is told of its versions (agon.notifications): a rejected version,
a version paused for its faults, and resumed. Called inside the change's transaction."""

from __future__ import annotations

from django.urls import reverse

from agon.bots.models import BotVersion
from agon.notifications.services import notify


def _page(version: BotVersion) -> str:
    return reverse("web:my-bot", args=[version.bot_id])


def _facts(version: BotVersion) -> dict[str, object]:
    return {
        "bot": version.bot_id,
        "bot_name": version.bot.name,
        "version": version.number,
        "game": version.bot.game,
    }


def version_rejected_notify(version: BotVersion) -> None:
    notify(
        user_id=version.bot.owner_id,
        kind="validation_failed",
        key=f"{version.id}",
        title=f"{version.bot.name} v{version.number} failed its validation",
        text=f"Rejected: {version.reason}",
        path=_page(version),
        data={**_facts(version), "reason": version.reason},
    )


def _episode(version: BotVersion) -> str:
    """Which pause of the version: each resume starts its faults' count afresh."""
    counted_from = version.faults_counted_from
    return "0" if counted_from is None else f"{counted_from.timestamp():.6f}"


def version_paused_notify(version: BotVersion) -> None:
    notify(
        user_id=version.bot.owner_id,
        kind="bot_paused",
        key=f"{version.id}:{_episode(version)}",
        title=f"{version.bot.name} v{version.number} is paused from matchmaking",
        text=(
            f"{version.paused_reason} Upload a fixed version, or resume this one from "
            "the bot's page."
        ),
        path=_page(version),
        data={**_facts(version), "reason": version.paused_reason},
    )


def version_resumed_notify(version: BotVersion) -> None:
    notify(
        user_id=version.bot.owner_id,
        kind="bot_resumed",
        key=f"{version.id}:{_episode(version)}",
        title=f"{version.bot.name} v{version.number} plays ranked matches again",
        text="It was resumed: its past faults are forgiven, new ones are judged afresh.",
        path=_page(version),
        data=_facts(version),
    )
