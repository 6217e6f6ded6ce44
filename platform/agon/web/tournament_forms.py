"""The tournament pages' forms: a new tournament, and entering a bot into one.

They offer what the user may pick; `agon.tournaments.services` checks everything again
(and its refusals are shown on the form)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef
from django.utils import timezone

from agon.bots.models import Bot, BotVersion
from agon.tournaments.models import Tournament
from agon.tournaments.services import MAX_MEETINGS, MAX_ROUNDS
from agon.web.games import games
from competition.formats.registry import format_choices, get_format

MOST_BOTS_OFFERED = 200
"""A private tournament's owner may enter anyone's bot: the list offers this many at most
(the user's own first)."""


LOCAL_TIME = {"type": "datetime-local", "data-local-time": ""}
ZONE_SHOWN = '<span data-zone-name="">UTC</span>'
"""The times are typed in the user's own zone: static/web/local_zone.js puts the browser's
zone in the hidden `zone` field and its name in the help texts, and turns the default
(rendered in UTC) into the browser's time; without the script they are UTC, as said."""


def next_quarter_hour(now: datetime, *, ahead: timedelta = timedelta(minutes=5)) -> datetime:
    """The first quarter hour at least `ahead` of `now`: a default entry close that leaves
    a few minutes to enter bots, as arena creation does on lichess."""
    earliest = now + ahead
    rounded = earliest.replace(minute=0, second=0, microsecond=0)
    quarters = -(-(earliest - rounded) // timedelta(minutes=15))
    return rounded + quarters * timedelta(minutes=15)


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=100, widget=forms.TextInput(attrs={"autocomplete": "off"}))
    game = forms.ChoiceField(choices=lambda: [(g.id, g.name) for g in games()])
    format = forms.ChoiceField(choices=format_choices)
    players = forms.IntegerField(
        min_value=2,
        max_value=6,
        initial=2,
        label="Bots at each table",
        help_text="Gauntlets and double eliminations are played two at a table.",
    )
    rounds = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ROUNDS,
        label="Swiss rounds",
        help_text="A Swiss only; by default log2 of the field, plus one.",
    )
    meetings = forms.IntegerField(
        min_value=1,
        max_value=MAX_MEETINGS,
        initial=1,
        help_text="Games each table plays: one per rotation of the seats, each time.",
    )
    max_entrants = forms.IntegerField(min_value=2, max_value=65535, initial=16, label="Most bots")
    entry_opens = forms.DateTimeField(
        required=False,
        widget=forms.DateTimeInput(attrs=LOCAL_TIME, format="%Y-%m-%dT%H:%M"),
        help_text=f"Your time ({ZONE_SHOWN}). Empty: now.",
    )
    entry_closes = forms.DateTimeField(
        widget=forms.DateTimeInput(attrs=LOCAL_TIME, format="%Y-%m-%dT%H:%M"),
        help_text=f"Your time ({ZONE_SHOWN}). Then each entrant's active version is frozen "
        "and the first round starts.",
    )
    zone = forms.CharField(
        required=False,
        max_length=64,
        initial="UTC",
        widget=forms.HiddenInput(attrs={"data-zone": ""}),
    )
    public = forms.BooleanField(
        required=False, help_text="Staff only: listed for everyone, entered by anyone."
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        closes = next_quarter_hour(timezone.now()).astimezone(ZoneInfo("UTC"))
        kwargs.setdefault("initial", {"entry_closes": closes, "format": "swiss"})
        super().__init__(*args, **kwargs)
        if not user.is_staff:
            del self.fields["public"]  # a private tournament: the only kind a user makes
        if not self.is_bound:
            # Rendered in UTC, turned into the browser's time by the script.
            self.fields["entry_closes"].widget.attrs["data-utc"] = closes.strftime(
                "%Y-%m-%dT%H:%MZ"
            )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        name = cleaned.get("zone") or "UTC"
        try:
            zone = ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            # The field is hidden: say it above the form.
            self.add_error(None, f"Unknown time zone: {name}.")
            return cleaned
        for field in ("entry_opens", "entry_closes"):
            typed = cleaned.get(field)
            if isinstance(typed, datetime):
                # Django read the wall-clock time as UTC: it is the user's zone's.
                local = typed.replace(tzinfo=zone)
                cleaned[field] = local.astimezone(ZoneInfo("UTC"))
        return cleaned

    def service_arguments(self) -> dict[str, Any]:
        """The cleaned fields as `tournament_create` takes them."""
        data = dict(self.cleaned_data)
        data["public"] = data.get("public", False)
        data.pop("zone", None)
        if not get_format(data["format"]).TAKES_ROUNDS:
            data["rounds"] = None  # only a Swiss has rounds: ignore a stray number
        return data


class EntryForm(forms.Form):
    bot = forms.TypedChoiceField(coerce=int, label="Bot")

    def __init__(self, *args: Any, user: User, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.TypedChoiceField, self.fields["bot"])
        field.choices = [("", "Choose a bot"), *entry_choices(user, tournament)]
        self.has_choices = len(field.choices) > 1


def entry_choices(user: User, tournament: Tournament) -> list[tuple[int, str]]:
    """The bots `user` may enter: their own bots of the tournament's game with an active
    version, not retired, not entered yet, and in their own private tournament other
    users' bots open to events as well."""
    active = BotVersion.objects.filter(bot=OuterRef("pk"), status=BotVersion.Status.ACTIVE)
    bots = (
        Bot.objects.filter(game=tournament.game, retired__isnull=True)
        .filter(Exists(active))
        .exclude(entries__tournament=tournament)
        .select_related("owner")
    )
    own = [(bot.id, bot.name) for bot in bots.filter(owner=user).order_by("name", "id")]
    if tournament.public:
        return own
    others = (
        bots.exclude(owner=user)
        .filter(open_to_events=True)
        .order_by("owner__username", "name", "id")
    )
    room = MOST_BOTS_OFFERED - len(own)
    return own + [(bot.id, f"{bot.owner.username}/{bot.name}") for bot in others[: max(room, 0)]]
