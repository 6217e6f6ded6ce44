"""Bot writes: uploads (checked at once), versions, the validation verdict, a new name,
and the owner's consent to other users' events (retiring: `agon.bots.retirement`;
deleting: `agon.bots.deletion`)."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from django.db.models import Max

from agon.accounts.names import bot_name_check
from agon.bots.models import Bot, BotVersion
from agon.bots.notices import version_rejected_notify
from agon.matches.listed import listed_entries_rewrite
from agon.matches.models import Match
from agon.matches.services import match_create
from agon.sandboxing import MAX_PACKED_BYTES, PackageError, check_package
from agon.tournaments.kept import tournaments_forget
from engine.match import fault_reason
from engine.registry import UnknownGame, get_game

VALIDATION_OPPONENT = "random"


def _read_upload(upload: UploadedFile) -> tuple[bytes, str]:
    if upload.size is not None and upload.size > MAX_PACKED_BYTES:
        raise ValidationError(f"the package is larger than {MAX_PACKED_BYTES // (1024 * 1024)} MiB")
    data = upload.read(MAX_PACKED_BYTES + 1)
    filename = (upload.name or "main.py").rsplit("/", 1)[-1]
    try:
        check_package(data, filename)  # in memory: a refused upload writes nothing
    except PackageError as error:
        raise ValidationError(str(error)) from None
    return data, filename


@transaction.atomic
def version_submit(*, bot: Bot, upload: UploadedFile) -> BotVersion:
    """A new version of a bot: checked now, validated by a match against a builtin bot."""
    data, filename = _read_upload(upload)
    Bot.objects.select_for_update().get(pk=bot.pk)  # one version number at a time
    number = (bot.versions.aggregate(top=Max("number"))["top"] or 0) + 1
    version = BotVersion(
        bot=bot,
        number=number,
        filename=filename,
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
    )
    version.archive.save(f"{bot.id}-v{number}-{filename}", ContentFile(data), save=False)
    version.save()
    game = get_game(bot.game)
    players = min(game.player_counts)
    match_create(
        kind=Match.Kind.VALIDATION,
        game=bot.game,
        players=players,
        options={},
        seats=[version, *[VALIDATION_OPPONENT] * (players - 1)],
    )
    return version


def bot_name_available(*, owner: User, name: str, renaming: Bot | None = None) -> str:
    """The name as it will be kept (NFKC), or ValidationError saying why it cannot be had:
    against the rules of `agon.accounts.names`, or the same as or too like the name of
    another of the owner's bots (`renaming` aside: a bot may take its own name again)."""
    others = Bot.objects.filter(owner=owner)
    if renaming is not None:
        others = others.exclude(id=renaming.id)
    return bot_name_check(name, owner_bots=others.values_list("name", flat=True))


@transaction.atomic
def bot_submit(*, owner: User, name: str, game: str, upload: UploadedFile) -> Bot:
    try:
        get_game(game)
    except UnknownGame as error:
        raise ValidationError(str(error)) from None
    name = bot_name_available(owner=owner, name=name)
    duplicate = ValidationError(f"you already have a bot called {name!r}")
    try:
        with transaction.atomic():  # a savepoint: two uploads of one name at once
            bot = Bot.objects.create(owner=owner, name=name, game=game)
    except IntegrityError:
        raise duplicate from None
    version_submit(bot=bot, upload=upload)
    return bot


def validation_conclude(*, match: Match) -> BotVersion | None:
    """Accept or reject the version a validation match was for (inside its transaction):
    the version judged, or None when this match judged none (judged already, or to be
    validated again after the platform failed)."""
    seat = match.seats.select_related("version__bot").filter(version__isnull=False).first()
    if seat is None or seat.version is None:
        return None
    version = BotVersion.objects.select_for_update().get(pk=seat.version.pk)
    if version.status != BotVersion.Status.VALIDATING:
        return None
    if match.status == Match.Status.FAILED:
        # The platform failed (a bot's failure is a fault of a finished match): that
        # says nothing against the version, so it is validated again, up to a limit.
        if _validation_replay(version=version, failed=match):
            return None
        version.status = BotVersion.Status.REJECTED
        version.reason = (
            f"not judged: the platform failed to run its validation match "
            f"{settings.AGON_MATCH_MAX_ATTEMPTS} times (the last time: {match.error}); this "
            "says nothing against your bot: upload it again later"
        )
    elif seat.fault:
        fault = next(f for f in match.faults if f["seat"] == seat.seat)
        version.status = BotVersion.Status.REJECTED
        version.reason = fault_reason(fault)
    else:
        BotVersion.objects.filter(bot=version.bot, status=BotVersion.Status.ACTIVE).update(
            status=BotVersion.Status.RETIRED
        )
        version.status = BotVersion.Status.ACTIVE
        version.reason = ""
    version.save(update_fields=["status", "reason"])
    if version.status == BotVersion.Status.REJECTED:
        version_rejected_notify(version)
    return version


def _validation_replay(*, version: BotVersion, failed: Match) -> bool:
    """Queue another validation match for the version after one failed for the
    platform's reasons; False once AGON_MATCH_MAX_ATTEMPTS of them have failed."""
    failures = Match.objects.filter(
        kind=Match.Kind.VALIDATION, status=Match.Status.FAILED, seats__version=version
    ).count()
    if failures >= settings.AGON_MATCH_MAX_ATTEMPTS:
        return False
    seats = list(failed.seats.order_by("seat"))
    match_create(
        kind=Match.Kind.VALIDATION,
        game=failed.game,
        players=failed.players,
        options=failed.options,
        seats=[seat.version if seat.version is not None else seat.builtin for seat in seats],
    )
    return True


@transaction.atomic
def bot_rename(*, bot: Bot, name: str) -> Bot:
    """Give the bot a new name, under the rules of a new bot's. Its labels change
    (`owner/name@vN`); the replays already stored keep the name it played under."""
    name = bot_name_available(owner=bot.owner, name=name, renaming=bot)
    try:
        with transaction.atomic():  # a savepoint: a new bot of that name at the same time
            Bot.objects.filter(pk=bot.pk).update(name=name)
    except IntegrityError:
        raise ValidationError(f"you already have a bot called {name!r}") from None
    bot.name = name
    tournaments_forget(bot_id=bot.id)  # their pages show its name
    listed_entries_rewrite(bot_id=bot.id)  # the lists show its name in their labels
    return bot


@transaction.atomic
def bot_open_to_events(*, bot: Bot, open_to_events: bool) -> Bot:
    """The owner lets other users enter the bot into their private tournaments, or stops
    letting them (entries made already stay: the owner withdraws them)."""
    bot.open_to_events = open_to_events
    bot.save(update_fields=["open_to_events"])
    return bot


@transaction.atomic
def bot_update(*, bot: Bot, name: str | None = None, open_to_events: bool | None = None) -> Bot:
    """Rename the bot and/or open or close it to other users' events, all or nothing."""
    if name is not None:
        bot_rename(bot=bot, name=name)
    if open_to_events is not None:
        bot_open_to_events(bot=bot, open_to_events=open_to_events)
    return bot
