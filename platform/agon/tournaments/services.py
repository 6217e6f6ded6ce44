"""Tournament writes from users: making a tournament, entering a bot, withdrawing it.

Staff make public tournaments, which any user enters with their own bots. Any user makes
private ones (AGON_PRIVATE_TOURNAMENTS_PER_USER not yet finished at a time), into which
only they enter bots: their own, and other users' bots whose owners opened them to
events (`Bot.open_to_events`, off by default: nobody's bot is drafted without consent).
A bot's owner sees every tournament their bot is entered in, and may withdraw it
(`agon.tournaments.withdrawal` says what that means once it runs). Every tournament is
bounded before it is made: at most AGON_TOURNAMENT_MAX_ENTRANTS entrants, and at most
AGON_TOURNAMENT_MAX_GAMES games (staff: AGON_TOURNAMENT_MAX_GAMES_PUBLIC) with a full field.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils import timezone

from agon.bots.models import Bot, BotVersion
from agon.tournaments.events import most_games
from agon.tournaments.models import Entry, Tournament, TournamentGame
from agon.tournaments.withdrawal import entry_forfeit
from competition.formats.registry import UnknownFormat, get_format
from engine.core import InvalidOptions
from engine.registry import UnknownGame, get_game
from engine.setup_checks import checked_options

MAX_ROUNDS = 50
MAX_MEETINGS = 20
LONGEST_ENTRY_WINDOW_DAYS = 90


@transaction.atomic
def tournament_create(
    *,
    owner: User,
    name: str,
    game: str,
    format: str,
    entry_closes: datetime,
    entry_opens: datetime | None = None,
    players: int = 2,
    rounds: int | None = None,
    meetings: int = 1,
    options: dict[str, object] | None = None,
    max_entrants: int = 32,
    public: bool = False,
    seed: int | None = None,
) -> Tournament:
    """A tournament open for entries from `entry_opens` (now if not given) until
    `entry_closes`, when its entrants' active versions are frozen and it starts."""
    if public and not owner.is_staff:
        raise PermissionDenied("only staff make public tournaments; make a private one")
    try:
        spec = get_game(game)
    except UnknownGame:
        raise ValidationError(f"there is no game {game!r}") from None
    try:
        kind = get_format(format)
    except UnknownFormat as error:
        raise ValidationError(str(error)) from None
    try:
        checked = checked_options(spec, 0, players, dict(options or {}))
    except InvalidOptions as error:
        raise ValidationError(str(error)) from None
    if players != 2 and kind.TWO_PLAYERS:
        raise ValidationError(f"a {format} is played by two bots a game: players must be 2")
    if rounds is not None and not kind.TAKES_ROUNDS:
        raise ValidationError("only a Swiss has a number of rounds")
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        raise ValidationError(f"a Swiss has 1 to {MAX_ROUNDS} rounds")
    if not 1 <= meetings <= MAX_MEETINGS:
        raise ValidationError(f"a table plays 1 to {MAX_MEETINGS} meetings")
    _check_window(entry_opens, entry_closes)
    _check_size(owner, public, format, players, meetings, rounds, max_entrants)
    if not public and not owner.is_staff:
        _check_quota(owner)
    now = timezone.now()
    return Tournament.objects.create(
        name=name,
        game=game,
        format=format,
        players=players,
        rounds=rounds,
        meetings=meetings,
        options={key: value for key, value in checked.items() if key in (options or {})},
        seed=secrets.randbits(63) if seed is None else seed,
        public=public,
        owner=owner,
        max_entrants=max_entrants,
        entry_opens=entry_opens or now,
        entry_closes=entry_closes,
    )


def _check_window(opens: datetime | None, closes: datetime) -> None:
    now = timezone.now()
    if closes <= now:
        raise ValidationError("the entry must close in the future")
    if opens is not None and opens >= closes:
        raise ValidationError("the entry must open before it closes")
    if (closes - now).days > LONGEST_ENTRY_WINDOW_DAYS:
        raise ValidationError(f"the entry closes within {LONGEST_ENTRY_WINDOW_DAYS} days")


def _check_size(
    owner: User,
    public: bool,
    format: str,
    players: int,
    meetings: int,
    rounds: int | None,
    max_entrants: int,
) -> None:
    limit = settings.AGON_TOURNAMENT_MAX_ENTRANTS
    if not max(2, players) <= max_entrants <= limit:
        raise ValidationError(f"a tournament takes {max(2, players)} to {limit} entrants")
    try:
        games = most_games(
            format=format, entrants=max_entrants, players=players, meetings=meetings, rounds=rounds
        )
    except ValueError as error:
        raise ValidationError(str(error)) from None
    most = (
        settings.AGON_TOURNAMENT_MAX_GAMES_PUBLIC
        if public or owner.is_staff
        else settings.AGON_TOURNAMENT_MAX_GAMES
    )
    if games > most:
        raise ValidationError(
            f"with {max_entrants} entrants this tournament could play {games} games, "
            f"more than the {most} allowed: take fewer entrants, rounds or meetings"
        )


def _check_quota(owner: User) -> None:
    # The owner's row is locked so that two requests at once cannot both pass the count.
    User.objects.select_for_update().filter(id=owner.id).first()
    unfinished = Tournament.objects.filter(
        owner=owner,
        public=False,
        status__in=[Tournament.Status.ENTRY, Tournament.Status.RUNNING],
    ).count()
    quota = settings.AGON_PRIVATE_TOURNAMENTS_PER_USER
    if unfinished >= quota:
        raise ValidationError(
            f"you have {unfinished} private tournaments not finished yet, the most allowed "
            f"(AGON_PRIVATE_TOURNAMENTS_PER_USER = {quota})"
        )


def tournament_visible(tournament: Tournament, user: User | None) -> bool:
    """Public tournaments are everyone's to see; a private one its owner's, staff's and
    the owners' of the bots entered in it (`tournaments_visible_to`)."""
    if tournament.public:
        return True
    if user is None or not user.is_authenticated:
        return False
    return (
        user.id == tournament.owner_id
        or user.is_staff
        or tournament.entries.filter(bot__owner=user).exists()
    )


def tournaments_visible_to(user: User | None) -> Q:
    """The tournaments `user` may see, as a condition on tournaments: the public ones,
    their own, and those a bot of theirs is entered in (staff: every one)."""
    if user is None or not user.is_authenticated:
        return Q(public=True)
    if user.is_staff:
        return Q()
    entered = Entry.objects.filter(bot__owner=user).values("tournament_id")
    return Q(public=True) | Q(owner=user) | Q(id__in=entered)


def tournament_matches_audience(user: User) -> list[QuerySet[Any, Any]]:
    """The ids of the private tournaments' matches `user` sees beyond their own
    (agon.matches.visibility): those of a tournament one of their bots is entered in, its
    games' and the failed attempts they replaced."""
    entered = Entry.objects.filter(bot__owner=user).values("tournament_id")
    games = TournamentGame.objects.filter(tournament_id__in=entered, match__isnull=False)
    attempts = TournamentGame.attempts.through.objects.filter(
        tournamentgame__tournament_id__in=entered
    )
    return [games.values("match_id").order_by(), attempts.values("match_id").order_by()]


@transaction.atomic
def entry_create(*, user: User, tournament_id: int, bot_id: int) -> Entry:
    """Enter a bot while the entry is open. Its version is taken when the entry closes: the
    bot must have an active version by then (it needs one now too)."""
    tournament = Tournament.objects.select_for_update().filter(id=tournament_id).first()
    if tournament is None or not tournament_visible(tournament, user):
        raise Http404(f"there is no tournament {tournament_id}")
    now = timezone.now()
    if tournament.status != Tournament.Status.ENTRY or now >= tournament.entry_closes:
        raise ValidationError("the entry of this tournament is closed")
    if now < tournament.entry_opens:
        raise ValidationError("the entry of this tournament is not open yet")
    if not tournament.public and user.id != tournament.owner_id:
        raise PermissionDenied("only the owner of a private tournament enters bots into it")
    bot = Bot.objects.filter(id=bot_id).first()
    if bot is None:
        raise ValidationError(f"there is no bot with id {bot_id}")
    if tournament.public and bot.owner_id != user.id:
        raise PermissionDenied("you enter your own bots into a public tournament")
    if bot.owner_id != user.id and not bot.open_to_events:
        raise PermissionDenied(
            f"the bot {bot.name!r} is not open to events: only its owner enters it, "
            "unless they open it to events on its page"
        )
    if bot.game != tournament.game:
        raise ValidationError(f"the bot {bot.name!r} plays {bot.game}, not {tournament.game}")
    if not bot.versions.filter(status=BotVersion.Status.ACTIVE).exists():
        raise ValidationError(f"the bot {bot.name!r} has no active version yet")
    if bot.retired is not None:
        raise ValidationError(
            f"the bot {bot.name!r} is retired: its owner brings it back on its page to enter it"
        )
    if tournament.entries.count() >= tournament.max_entrants:
        raise ValidationError(f"the tournament is full ({tournament.max_entrants} entrants)")
    try:
        with transaction.atomic():
            return Entry.objects.create(tournament=tournament, bot=bot, entered_by=user)
    except IntegrityError:
        raise ValidationError(f"the bot {bot.name!r} is already entered") from None


def may_withdraw(entry: Entry, user: User | None) -> bool:
    """The bot's owner withdraws an entry, and so do who entered it and the tournament's
    owner (a private tournament's owner enters anyone's bots)."""
    if user is None:
        return False
    return user.id in (entry.bot.owner_id, entry.entered_by_id, entry.tournament.owner_id)


@transaction.atomic
def entry_withdraw(*, user: User, tournament_id: int, entry_id: int) -> Entry | None:
    """Take an entry out: while the entry is open it is removed (None); while the
    tournament runs its bot forfeits what it has left to play (`entry_forfeit`) and the
    entry, marked withdrawn, is returned. An entry that is not there (withdrawn already
    before the start) or not the user's to see is a 404; one they may not withdraw a 403;
    one of a tournament that is over, or between the close of its entry and its start, a
    400."""
    tournament = Tournament.objects.select_for_update().filter(id=tournament_id).first()
    if tournament is None or not tournament_visible(tournament, user):
        raise Http404(f"there is no tournament {tournament_id}")
    entry = (
        Entry.objects.select_related("bot", "tournament")
        .filter(id=entry_id, tournament=tournament)
        .first()
    )
    if entry is None:
        raise Http404(f"there is no entry {entry_id} in this tournament")
    if not may_withdraw(entry, user):
        raise PermissionDenied("only the bot's owner withdraws its entry")
    if tournament.status == Tournament.Status.RUNNING:
        entry_forfeit(tournament=tournament, entry=entry)
        return entry
    if tournament.status != Tournament.Status.ENTRY:
        raise ValidationError("the tournament is over: its entrants stay as they played")
    if timezone.now() >= tournament.entry_closes:
        raise ValidationError("the entry of this tournament is closed: it starts in a moment")
    entry.delete()
    return None
