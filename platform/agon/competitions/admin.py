"""Competitions in the admin: staff make and edit them (name, rules, dates before they
pass); entries and the archive are what the phases wrote, so read-only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.forms import ModelForm
from django.http import HttpRequest

from agon.competitions.models import ArchivedStanding, Competition, CompetitionEntry
from agon.competitions.services import competition_check, competition_create

if TYPE_CHECKING:
    CompetitionAdminBase = admin.ModelAdmin[Competition]
    EntryInlineBase = admin.TabularInline[CompetitionEntry, Competition]
    StandingInlineBase = admin.TabularInline[ArchivedStanding, Competition]
    CompetitionFormBase = ModelForm[Competition]
else:
    CompetitionAdminBase = admin.ModelAdmin
    EntryInlineBase = admin.TabularInline
    StandingInlineBase = admin.TabularInline
    CompetitionFormBase = ModelForm


class EntryInline(EntryInlineBase):
    model = CompetitionEntry
    extra = 0
    fields = ("bot", "version", "ladder_place", "ladder_rating", "finalist", "created")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Competition | None = None) -> bool:
        return False


class StandingInline(StandingInlineBase):
    model = ArchivedStanding
    extra = 0
    fields = ("rank", "ladder_place", "bot_name", "owner_name", "version_number", "points")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Competition | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class CompetitionForm(CompetitionFormBase):
    """A new competition's settings checked as the service checks them, so that a
    mistake is shown on the form."""

    class Meta:
        model = Competition
        fields = "__all__"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.instance.pk is None and not self.errors:
            try:
                competition_check(
                    name=str(data.get("name", "")).strip(),
                    game=str(data.get("game", "")),
                    player_counts=list(data.get("player_counts") or []),
                    opens=data["opens"],
                    freezes=data["freezes"],
                    final_starts=data["final_starts"],
                    final_format=str(data.get("final_format", "")),
                    final_size=int(data.get("final_size") or 0),
                    final_players=data.get("final_players"),
                    final_meetings=int(data.get("final_meetings") or 1),
                    final_rounds=data.get("final_rounds"),
                    options=dict(data.get("options") or {}),
                    rules=str(data.get("rules", "")),
                )
            except (ValidationError, TypeError, ValueError) as error:
                raise ValidationError(str(getattr(error, "message", error))) from None
        return data


@admin.register(Competition)
class CompetitionAdmin(CompetitionAdminBase):
    form = CompetitionForm
    list_display = ("id", "name", "game", "phase", "opens", "freezes", "final_starts")
    list_filter = ("phase", "game")
    search_fields = ("name",)
    fields = (
        "name",
        "game",
        "player_counts",
        "options",
        "rules",
        "opens",
        "freezes",
        "final_starts",
        "final_format",
        "final_size",
        "final_players",
        "final_meetings",
        "final_rounds",
        "phase",
        "phase_changed",
        "finished",
        "final",
        "note",
    )
    readonly_fields = ("phase", "phase_changed", "finished", "final", "note")
    inlines = (EntryInline, StandingInline)

    def get_readonly_fields(self, request: HttpRequest, obj: Competition | None = None) -> Any:
        if obj is None:
            return self.readonly_fields
        # Once made, its game, ladders and final are what entrants signed up for.
        fixed = ("game", "player_counts", "options", "final_format", "final_players")
        return (*self.readonly_fields, *fixed, "final_size", "final_meetings", "final_rounds")

    def save_model(
        self, request: HttpRequest, obj: Competition, form: ModelForm[Competition], change: bool
    ) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        # A new one goes through the service: its checks, its ladders.
        made = competition_create(
            creator=request.user,  # type: ignore[arg-type]
            name=obj.name,
            game=obj.game,
            player_counts=list(obj.player_counts),
            opens=obj.opens,
            freezes=obj.freezes,
            final_starts=obj.final_starts,
            final_format=obj.final_format,
            final_size=obj.final_size,
            final_players=obj.final_players,
            final_meetings=obj.final_meetings,
            final_rounds=obj.final_rounds,
            options=dict(obj.options),
            rules=obj.rules,
        )
        obj.pk = made.pk
        obj.refresh_from_db()
