"""The form of a competition's page: entering one of the viewer's bots."""

from __future__ import annotations

from django import forms
from django.contrib.auth.models import User

from agon.bots.models import Bot, BotVersion
from agon.competitions.models import Competition, CompetitionEntry


class CompetitionEntryForm(forms.Form):
    bot = forms.TypedChoiceField(coerce=int, label="Your bot")

    def __init__(
        self, *args: object, user: User, competition: Competition, **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        entered = CompetitionEntry.objects.filter(competition=competition).values("bot_id")
        bots = (
            Bot.objects.filter(owner=user, game=competition.game, retired__isnull=True)
            .filter(versions__status=BotVersion.Status.ACTIVE)
            .exclude(id__in=entered)
            .order_by("name")
        )
        field = self.fields["bot"]
        assert isinstance(field, forms.TypedChoiceField)  # noqa: S101 - declared above
        field.choices = [(bot.id, bot.name) for bot in bots]

    @property
    def has_choices(self) -> bool:
        field = self.fields["bot"]
        return bool(getattr(field, "choices", []))
