"""The pages' forms: signing up, uploading, renaming and testing bots, filtering matches."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib.auth.forms import SetPasswordMixin, UsernameField
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from agon.accounts.names import BOT_NAME_MAX, BOT_NAME_TAKEN, USERNAME_RULE
from agon.accounts.services import username_available
from agon.bots.models import Bot, BotVersion
from agon.bots.services import bot_name_available
from agon.ladders.models import Ladder
from agon.matches.models import Match
from agon.version_testing.selectors import baseline_bots
from agon.version_testing.services import PLAYED_VERSIONS, Baseline
from agon.web.games import games
from competition import sprt_words
from competition.sprt import (
    DEFAULT_ALPHA,
    DEFAULT_BETA,
    DEFAULT_ELO0,
    DEFAULT_ELO1,
)
from engine.bots import BUILTIN_BOTS
from engine.registry import get_game

PACKAGE_HELP = "A single .py file, or a .zip / .tar.gz with main.py at the top; at most 5 MiB."


def sentences(error: ValidationError) -> list[str]:
    """A service's refusals (lower case, no full stop) as a form shows its errors."""
    return [sentence(message) for message in error.messages]


def sentence(message: str) -> str:
    return f"{message[:1].upper()}{message[1:]}" + ("" if message.endswith(".") else ".")


def _game_choices() -> list[tuple[str, str]]:
    return [(g.id, f"{g.name} ({g.players_text})") for g in games()]


def _game_filter_choices() -> list[tuple[str, str]]:
    return [("", "All games")] + [(g.id, g.name) for g in games()]


class SignUpForm(forms.Form):
    """A username and a password typed twice. The form checks only that the two agree:
    what a username or a password may be is `user_register`'s to say, for the site as for
    the API (`username_available`'s, while the passwords disagree), and `refused` shows
    its reasons by their fields."""

    username = UsernameField(
        max_length=150,
        help_text=sentence(USERNAME_RULE),
        widget=forms.TextInput(attrs={"autofocus": True}),
    )
    password1, password2 = SetPasswordMixin.create_password_fields()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        username, first, second = (cleaned.get(f) for f in ("username", "password1", "password2"))
        if first and second and first != second:
            self.add_error("password2", SetPasswordMixin.error_messages["password_mismatch"])
            if username:  # the sign-up waits for the passwords: the username's reasons now
                try:
                    username_available(username)
                except ValidationError as refused:
                    self.refused(ValidationError({"username": refused.error_list}))
        return cleaned

    def refused(self, refusal: ValidationError) -> None:
        """Show `user_register`'s refusal: a username's reasons under the username, a
        password's under the confirmation, as Django's own sign-up form does."""
        fields = {"username": "username", "password": "password2"}
        by_field = refusal.error_dict if hasattr(refusal, "error_dict") else {"": refusal}
        for field, errors in by_field.items():
            self.add_error(fields.get(field), sentences(ValidationError(errors)))


def _bot_name(owner: User, name: str, *, renaming: Bot | None = None, hint: str = "") -> str:
    """`bot_name_available`'s answer as a form field's: the name kept, or its reasons, with
    `hint` after the refusal of a name the owner's other bot has."""
    try:
        return bot_name_available(owner=owner, name=name, renaming=renaming)
    except ValidationError as refused:
        reasons = sentences(refused)
        if hint and any(error.code == BOT_NAME_TAKEN for error in refused.error_list):
            reasons = [f"{reason[:-1]}: {hint}." for reason in reasons]
        raise forms.ValidationError(reasons) from None


class BotUploadForm(forms.Form):
    name = forms.CharField(
        max_length=BOT_NAME_MAX,
        help_text=f"Up to {BOT_NAME_MAX} characters; unique among your bots.",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    game = forms.ChoiceField(choices=_game_choices)
    file = forms.FileField(label="Bot file", help_text=PACKAGE_HELP)

    def __init__(self, *args: Any, owner: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner

    def clean_name(self) -> str:
        return _bot_name(
            self.owner, self.cleaned_data["name"], hint="upload a new version on its page"
        )


class BotRenameForm(forms.Form):
    name = forms.CharField(
        max_length=BOT_NAME_MAX,
        label="New name",
        help_text=f"Up to {BOT_NAME_MAX} characters; unique among your bots. Matches played "
        "keep the name it had in their replays.",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args: Any, bot: Bot, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bot = bot
        self.initial.setdefault("name", bot.name)

    def clean_name(self) -> str:
        return _bot_name(self.bot.owner, self.cleaned_data["name"], renaming=self.bot)


class VersionUploadForm(forms.Form):
    file = forms.FileField(label="New version", help_text=PACKAGE_HELP)


class MatchFilterForm(forms.Form):
    game = forms.ChoiceField(required=False, choices=_game_filter_choices)
    ladder = forms.ModelChoiceField(
        queryset=Ladder.objects.order_by("game", "players", "id"),
        required=False,
        empty_label="All ladders",
    )
    bot = forms.CharField(
        required=False,
        max_length=200,
        label="Bot",
        widget=forms.TextInput(attrs={"placeholder": "owner/name"}),
    )
    status = forms.ChoiceField(
        required=False,
        choices=[("", "Played or playing"), ("any", "Any status"), *Match.Status.choices],
    )

    def clean_bot(self) -> Bot | None:
        """The bot named `owner/name` (or by id), or None when the field is empty."""
        text: str = self.cleaned_data["bot"].strip()
        if not text:
            return None
        if text.isdigit():
            bot = Bot.objects.select_related("owner").filter(id=int(text)).first()
        elif "/" in text:
            owner, _, name = text.partition("/")
            bot = (
                Bot.objects.select_related("owner")
                .filter(owner__username__iexact=owner.strip(), name=name.strip())
                .first()
            )
        else:
            bot = None
        if bot is None:
            raise forms.ValidationError(f"There is no bot {text!r}: write it as owner/name.")
        return bot


class VersionTestForm(forms.Form):
    """Start a version test of one of the owner's bot's versions."""

    help_line = sprt_words.HELP

    candidate = forms.TypedChoiceField(coerce=int, label="Version under test")
    baseline = forms.ChoiceField(label="Against")
    players = forms.TypedChoiceField(
        coerce=int,
        help_text="Above 2, each version plays its own table against the same greedy "
        "builtin bots, each table dealt afresh.",
    )
    elo0 = forms.FloatField(
        initial=DEFAULT_ELO0,
        label="elo0 (H0)",
        widget=forms.NumberInput({"step": "any"}),
        help_text="H0: the version is elo0 Elo stronger or less (0: not stronger).",
    )
    elo1 = forms.FloatField(
        initial=DEFAULT_ELO1,
        label="elo1 (H1)",
        widget=forms.NumberInput({"step": "any"}),
        help_text="H1: it is at least elo1 Elo stronger. The closer elo1 is to elo0, the "
        "more games a verdict takes.",
    )
    alpha = forms.FloatField(
        initial=DEFAULT_ALPHA,
        widget=forms.NumberInput({"step": "any"}),
        help_text="The chance of a wrong yes: accepting H1 when H0 is true.",
    )
    beta = forms.FloatField(
        initial=DEFAULT_BETA,
        widget=forms.NumberInput({"step": "any"}),
        help_text="The chance of a wrong no: accepting H0 when H1 is true.",
    )
    max_games = forms.IntegerField(
        initial=400,
        min_value=2,
        label="Game limit",
        help_text="Inconclusive if the test has not decided by then; counted in your daily "
        "budget of version-test games.",
    )

    def __init__(self, *args: Any, bot: Bot, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        played = [v for v in bot.versions.all() if v.status in PLAYED_VERSIONS]
        played.sort(key=lambda v: -v.number)
        cast(forms.ChoiceField, self.fields["candidate"]).choices = [
            (v.number, f"v{v.number}") for v in played
        ]
        cast(forms.ChoiceField, self.fields["baseline"]).choices = _baseline_choices(bot, played)
        if len(played) > 1:
            self.initial.setdefault("baseline", f"version:{played[1].number}")
        else:
            self.initial.setdefault("baseline", "builtin:greedy")
        counts = get_game(bot.game).player_counts
        cast(forms.ChoiceField, self.fields["players"]).choices = [
            (n, f"{n} players") for n in counts
        ]
        self.playable = bool(played)

    def baseline_choice(self) -> Baseline:
        """The baseline chosen (one of those offered: `version_test_create` checks again)."""
        kind, _, value = self.cleaned_data["baseline"].partition(":")
        if kind == "version":
            return Baseline(version=int(value))
        if kind == "bot":
            return Baseline(bot=int(value))
        return Baseline(builtin=value)


Choices = list[tuple[str, str]]


def _baseline_choices(bot: Bot, played: list[BotVersion]) -> list[tuple[str, Choices]]:
    """What a test may measure against, grouped: the builtin bots, the bot's versions
    that played, the owner's other bots, and other users' public bots with their owners
    and ratings (`baseline_bots`). Empty groups are left out."""
    others = baseline_bots(bot=bot)
    groups: list[tuple[str, Choices]] = [
        ("Builtin bots", [(f"builtin:{name}", name) for name in BUILTIN_BOTS]),
        ("Versions of this bot", [(f"version:{v.number}", f"v{v.number}") for v in played]),
        ("Your other bots", [(f"bot:{o.bot_id}", f"{o.name} (your bot)") for o in others.own]),
        (
            "Other users' public bots",
            [
                (
                    f"bot:{o.bot_id}",
                    f"{o.owner}/{o.name} · "
                    + (f"{o.rating} on {o.ladder}" if o.rating else "unrated"),
                )
                for o in others.public
            ],
        ),
    ]
    return [(label, choices) for label, choices in groups if choices]


class ChallengeForm(forms.Form):
    """A challenge on one ladder: one of the user's bots with an active version against
    as many of the ladder's rated bots as its tables seat, the user's bot in the seat
    chosen. What it offers is what the user may pick; `challenge_create` checks again."""

    def __init__(
        self,
        *args: Any,
        players: int,
        own_bots: list[tuple[int, str]],
        opponents: list[tuple[int, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        self.has_own_bot = bool(own_bots)
        # Whether the user's bots and the ladder's are enough for a table at all.
        self.tables_possible = len({bot_id for bot_id, _ in own_bots + opponents}) >= players
        self.fields["bot"] = forms.TypedChoiceField(label="Your bot", coerce=int, choices=own_bots)
        for number in range(1, players):
            self.fields[f"opponent_{number}"] = forms.TypedChoiceField(
                label="Opponent" if players == 2 else f"Opponent {number}",
                coerce=int,
                choices=[("", "Choose a bot"), *opponents],
            )
        self.fields["seat"] = forms.TypedChoiceField(
            label="Your seat",
            coerce=int,
            choices=[(seat, ordinal_turn(seat)) for seat in range(players)],
            initial=0,
            help_text="Seats move in turn, the first seat first.",
        )

    def seated_bot_ids(self) -> list[int]:
        """The bot ids in seat order (once the form is valid)."""
        data = self.cleaned_data
        seated = [data[f"opponent_{number}"] for number in range(1, self.players)]
        seated.insert(data["seat"], data["bot"])
        return seated


def ordinal_turn(seat: int) -> str:
    names = ["first", "second", "third", "fourth", "fifth", "sixth"]
    return names[seat] if seat < len(names) else f"in seat {seat + 1}"


class HumanGameForm(forms.Form):
    """A human game: how many players, the user's seat, and a bot for every other seat
    (builtin ones, or uploaded bots that play humans). `human_game_create` checks again."""

    def __init__(self, *args: Any, game: str, bots: list[Bot], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        counts = get_game(game).player_counts or (2,)
        self.most = max(counts)
        self.fields["game"] = forms.CharField(widget=forms.HiddenInput, initial=game)
        self.fields["players"] = forms.TypedChoiceField(
            label="Players", coerce=int, choices=[(n, str(n)) for n in counts], initial=counts[0]
        )
        self.fields["seat"] = forms.TypedChoiceField(
            label="Your seat",
            coerce=int,
            choices=[(seat, ordinal_turn(seat)) for seat in range(self.most)],
            initial=0,
            help_text="Seats move in turn, the first seat first.",
        )
        choices = [(f"builtin:{name}", f"builtin {name}") for name in BUILTIN_BOTS]
        choices += [(f"bot:{bot.id}", f"{bot.owner.username}/{bot.name}") for bot in bots]
        self.bots = {f"bot:{bot.id}": bot for bot in bots}
        for number in range(1, self.most):
            self.fields[f"opponent_{number}"] = forms.ChoiceField(
                label="Opponent" if self.most == 2 else f"Opponent {number}",
                choices=choices,
                initial="builtin:greedy",
                required=number == 1,
                help_text=""
                if number == 1 or number < 2
                else "Used when the game has more players.",
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        players, seat = data.get("players"), data.get("seat")
        if players is not None and seat is not None and seat >= players:
            self.add_error(
                "seat",
                f"A game of {players} players has seats up to the {ordinal_turn(players - 1)}.",
            )
        if players is not None:
            for number in range(1, players):
                if not data.get(f"opponent_{number}"):
                    self.add_error(f"opponent_{number}", "Choose a bot for this seat.")
        return data

    def opponents(self) -> list[Bot | str]:
        """The bots of the other seats in order (once the form is valid)."""
        chosen = [
            self.cleaned_data[f"opponent_{n}"] for n in range(1, self.cleaned_data["players"])
        ]
        return [
            self.bots[value] if value in self.bots else value.removeprefix("builtin:")
            for value in chosen
        ]
