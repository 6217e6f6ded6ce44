"""Tournaments in the admin: a tournament's settings may be edited (renamed, its window
moved, cancelled); its entries and games are what the schedule made, so read-only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.http import HttpRequest

from agon.tournaments.models import Entry, Tournament, TournamentGame

# The admin's classes are generic only in the type stubs.
if TYPE_CHECKING:
    TournamentAdminBase = admin.ModelAdmin[Tournament]
    EntryInlineBase = admin.TabularInline[Entry, Tournament]
    TournamentGameAdminBase = admin.ModelAdmin[TournamentGame]
else:
    TournamentAdminBase = admin.ModelAdmin
    EntryInlineBase = admin.TabularInline
    TournamentGameAdminBase = admin.ModelAdmin


class EntryInline(EntryInlineBase):
    model = Entry
    extra = 0
    fields = ("number", "bot", "version", "entered_by", "created")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Tournament | None = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(TournamentAdminBase):
    list_display = ("id", "name", "game", "format", "players", "public", "status", "entry_closes")
    list_filter = ("status", "format", "game", "public")
    list_select_related = ("owner",)
    search_fields = ("name", "owner__username")
    readonly_fields = ("seed", "created", "started", "finished", "standings")
    inlines = (EntryInline,)


@admin.register(TournamentGame)
class TournamentGameAdmin(TournamentGameAdminBase):
    list_display = ("id", "tournament", "round", "tie", "index", "match", "replays", "void")
    list_filter = ("void",)
    list_select_related = ("tournament", "match")
    readonly_fields = (
        "tournament",
        "round",
        "tie",
        "index",
        "bots",
        "seed",
        "match",
        "replays",
        "ranks",
        "void",
        "created",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(
        self, request: HttpRequest, obj: TournamentGame | None = None
    ) -> bool:
        return False
