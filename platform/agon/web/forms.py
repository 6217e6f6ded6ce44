"""The pages' forms: signing up, uploading bots and versions, filtering matches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.contrib.auth.models import User

from agon.bots.models import Bot
from agon.ladders.models import Ladder
from agon.matches.models import Match
from agon.web.games import games

PACKAGE_HELP = "A single .py file, or a .zip / .tar.gz with main.py at the top; at most 5 MiB."


if TYPE_CHECKING:
    BaseSignUpForm = UserCreationForm[User]
else:
    BaseSignUpForm = UserCreationForm


def _game_choices() -> list[tuple[str, str]]:
    return [(g.id, f"{g.name} ({g.players_text})") for g in games()]


def _game_filter_choices() -> list[tuple[str, str]]:
    return [("", "All games")] + [(g.id, g.name) for g in games()]


class SignUpForm(BaseSignUpForm):
    class Meta:
        model = User
        fields = ("username",)
        field_classes: ClassVar[dict[str, type[forms.Field]]] = {"username": UsernameField}

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"].strip()
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(f"The username {username!r} is taken; choose another.")
        return username


class BotUploadForm(forms.Form):
    name = forms.CharField(
        max_length=64,
        help_text="Up to 64 characters; unique among your bots.",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    game = forms.ChoiceField(choices=_game_choices)
    file = forms.FileField(label="Bot file", help_text=PACKAGE_HELP)

    def __init__(self, *args: Any, owner: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError("Give your bot a name.")
        if Bot.objects.filter(owner=self.owner, name=name).exists():
            raise forms.ValidationError(
                f"You already have a bot called {name!r}: upload a new version on its page."
            )
        return name


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
