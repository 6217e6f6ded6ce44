"""Competition writes from staff and users: making a competition, entering a bot and
taking it out again.

Staff make competitions (the admin, `manage.py competition_create`, `competition_create`
here). Any user enters their own bots while it is upcoming or open: an entered bot is
rated on the competition's ladders, and only there beyond the open ladders (a
competition's ladders are not open: `Ladder.open`). Its owner may take it out again
until the freeze (`competition_leave`).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.http import Http404
from django.utils import timezone

from agon.bots.models import Bot, BotVersion
from agon.competitions.models import Competition, CompetitionEntry
from agon.ladders.models import Ladder, Rating
from agon.tournaments.events import most_games
from competition.formats.registry import UnknownFormat, get_format
from engine.core import InvalidOptions
from engine.registry import UnknownGame, get_game
from engine.setup_checks import checked_options

LONGEST_SEASON_DAYS = 366
NAME_MAX = 80
RULES_MAX = 20_000

OPEN_TO_ENTRIES = (Competition.Phase.UPCOMING, Competition.Phase.OPEN)


@transaction.atomic
def competition_create(
    *,
    creator: User,
    name: str,
    game: str,
    player_counts: Sequence[int],
    opens: datetime,
    freezes: datetime,
    final_starts: datetime,
    final_format: str,
    final_size: int = 8,
    final_players: int | None = None,
    final_meetings: int = 1,
    final_rounds: int | None = None,
    options: dict[str, object] | None = None,
    rules: str = "",
    seed: int | None = None,
) -> Competition:
    """A competition with one ladder per player count (inactive until it opens), its
    phases at the dates given and a final of the top `final_size` of the ladder of
    `final_players` (the first count if not given)."""
    if not creator.is_staff:
        raise PermissionDenied("only staff make competitions")
    name = name.strip()
    counts, final_players, checked = competition_check(
        name=name,
        game=game,
        player_counts=player_counts,
        opens=opens,
        freezes=freezes,
        final_starts=final_starts,
        final_format=final_format,
        final_size=final_size,
        final_players=final_players,
        final_meetings=final_meetings,
        final_rounds=final_rounds,
        options=options,
        rules=rules,
    )
    competition = Competition.objects.create(
        name=name,
        game=game,
        player_counts=counts,
        options={key: value for key, value in checked.items() if key in (options or {})},
        rules=rules,
        opens=opens,
        freezes=freezes,
        final_starts=final_starts,
        final_format=final_format,
        final_size=final_size,
        final_players=final_players,
        final_meetings=final_meetings,
        final_rounds=final_rounds,
        seed=secrets.randbits(63) if seed is None else seed,
        created_by=creator,
    )
    competition.ladders.set(
        Ladder.objects.create(
            name=f"{name} ({count}p)"[:100],
            game=game,
            players=count,
            options=competition.options,
            active=False,
            open=False,
        )
        for count in counts
    )
    return competition


def competition_check(
    *,
    name: str,
    game: str,
    player_counts: Sequence[int],
    opens: datetime,
    freezes: datetime,
    final_starts: datetime,
    final_format: str,
    final_size: int,
    final_players: int | None,
    final_meetings: int,
    final_rounds: int | None,
    options: dict[str, object] | None,
    rules: str,
) -> tuple[list[int], int, dict[str, bool]]:
    """A new competition's settings checked (ValidationError says what is wrong): its
    player counts sorted, the final's player count and the game's options."""
    if not name or len(name) > NAME_MAX:
        raise ValidationError(f"a competition's name has 1 to {NAME_MAX} characters")
    if len(rules) > RULES_MAX:
        raise ValidationError(f"the rules text has at most {RULES_MAX} characters")
    try:
        spec = get_game(game)
    except UnknownGame:
        raise ValidationError(f"there is no game {game!r}") from None
    counts = sorted({int(count) for count in player_counts})
    if not counts or any(count not in spec.player_counts for count in counts):
        raise ValidationError(
            f"{game} is played by {', '.join(map(str, spec.player_counts))} players"
        )
    final_players = counts[0] if final_players is None else final_players
    if final_players not in counts:
        raise ValidationError("the final is played at one of the competition's player counts")
    checked: dict[str, bool] = {}
    for count in counts:
        try:
            checked = checked_options(spec, 0, count, dict(options or {}))
        except InvalidOptions as error:
            raise ValidationError(str(error)) from None
    _check_final(final_format, final_size, final_players, final_meetings, final_rounds)
    _check_dates(opens, freezes, final_starts)
    if Competition.objects.filter(name=name).exists():
        raise ValidationError(f"there is a competition called {name!r} already")
    return counts, final_players, checked


def _check_final(format: str, size: int, players: int, meetings: int, rounds: int | None) -> None:
    try:
        kind = get_format(format)
    except UnknownFormat as error:
        raise ValidationError(str(error)) from None
    if players != 2 and kind.TWO_PLAYERS:
        raise ValidationError(f"a {format} is played by two bots a game: the final's players")
    if rounds is not None and not kind.TAKES_ROUNDS:
        raise ValidationError("only a Swiss has a number of rounds")
    limit = settings.AGON_TOURNAMENT_MAX_ENTRANTS
    if not max(2, players) <= size <= limit:
        raise ValidationError(f"a final takes {max(2, players)} to {limit} entrants")
    try:
        games = most_games(
            format=format, entrants=size, players=players, meetings=meetings, rounds=rounds
        )
    except ValueError as error:
        raise ValidationError(str(error)) from None
    if games > settings.AGON_TOURNAMENT_MAX_GAMES_PUBLIC:
        raise ValidationError(f"with {size} finalists the final could play {games} games: too many")


def _check_dates(opens: datetime, freezes: datetime, final_starts: datetime) -> None:
    if not opens < freezes <= final_starts:
        raise ValidationError("it opens, then freezes, then its final starts (in this order)")
    if final_starts <= timezone.now():
        raise ValidationError("its final starts in the future")
    if final_starts - opens > timedelta(days=LONGEST_SEASON_DAYS):
        raise ValidationError(f"a season lasts at most {LONGEST_SEASON_DAYS} days")


@transaction.atomic
def competition_enter(*, user: User, competition_id: int, bot_id: int) -> CompetitionEntry:
    """Enter one's own bot while the competition is upcoming or open: it is rated on
    each of the competition's ladders with its active version (and each version it
    validates until the freeze)."""
    competition = Competition.objects.select_for_update().filter(id=competition_id).first()
    if competition is None:
        raise Http404(f"there is no competition {competition_id}")
    if competition.phase not in OPEN_TO_ENTRIES or timezone.now() >= competition.freezes:
        raise ValidationError("this competition's entries are frozen")
    bot = Bot.objects.filter(id=bot_id).first()
    if bot is None or bot.owner_id != user.id:
        raise PermissionDenied("you enter your own bots")
    if bot.game != competition.game:
        raise ValidationError(f"the bot {bot.name!r} plays {bot.game}, not {competition.game}")
    if bot.retired is not None:
        raise ValidationError(f"the bot {bot.name!r} is retired")
    version = bot.versions.filter(status=BotVersion.Status.ACTIVE).first()
    if version is None:
        raise ValidationError(f"the bot {bot.name!r} has no active version yet")
    try:
        with transaction.atomic():
            entry = CompetitionEntry.objects.create(
                competition=competition, bot=bot, entered_by=user
            )
    except IntegrityError:
        raise ValidationError(f"the bot {bot.name!r} is entered already") from None
    now = timezone.now()
    for ladder in competition.ladders.all():
        Rating.objects.get_or_create(
            ladder=ladder, bot=bot, defaults={"version": version, "deviation_at": now}
        )
    return entry


@transaction.atomic
def competition_leave(*, user: User, competition_id: int, bot_id: int) -> None:
    """Take one's own bot out of a competition while it is upcoming or open: its entry
    and its ratings on the competition's ladders go (it is off the leaderboard and
    matchmaking; the matches it played stay). Under the competition's row lock, as the
    freeze takes it: a bot leaves before the freeze or not at all."""
    competition = Competition.objects.select_for_update().filter(id=competition_id).first()
    if competition is None:
        raise Http404(f"there is no competition {competition_id}")
    entry = competition.entries.select_related("bot").filter(bot_id=bot_id).first()
    if entry is None:
        raise Http404(f"bot {bot_id} is not entered in competition {competition_id}")
    if entry.bot.owner_id != user.id:
        raise PermissionDenied("you take out your own bots")
    if competition.phase not in OPEN_TO_ENTRIES or timezone.now() >= competition.freezes:
        raise ValidationError("this competition's entries are frozen")
    Rating.objects.filter(ladder__in=competition.ladders.all(), bot_id=bot_id).delete()
    entry.delete()
