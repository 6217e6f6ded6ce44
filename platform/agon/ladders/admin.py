"""Ladders in the admin: ladders may be edited (opened, closed, renamed); ratings and
their history are results, so they are read-only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.http import HttpRequest

from agon.ladders.models import LEADERBOARD_ORDER, Ladder, Rating, RatingChange
from agon.ratings.stored import RATING_CHANGE_COLUMNS, RATING_COLUMNS

# The admin's classes are generic only in the type stubs.
if TYPE_CHECKING:
    LadderAdminBase = admin.ModelAdmin[Ladder]
    RatingAdminBase = admin.ModelAdmin[Rating]
    RatingChangeAdminBase = admin.ModelAdmin[RatingChange]
else:
    LadderAdminBase = admin.ModelAdmin
    RatingAdminBase = admin.ModelAdmin
    RatingChangeAdminBase = admin.ModelAdmin


@admin.register(Ladder)
class LadderAdmin(LadderAdminBase):
    list_display = ("id", "name", "game", "players", "active")
    list_filter = ("game", "players", "active")
    search_fields = ("name",)


@admin.register(Rating)
class RatingAdmin(RatingAdminBase):
    list_display = ("id", "ladder", "bot", "shown", "games", "wins", "active", "updated")
    list_filter = ("ladder", "active")
    list_select_related = ("ladder", "bot__owner")
    search_fields = ("bot__name", "bot__owner__username")
    ordering = ("ladder", *LEADERBOARD_ORDER)
    readonly_fields = (
        "ladder",
        "bot",
        "version",
        *RATING_COLUMNS,
        "games",
        "version_games",
        "wins",
        "active",
        "updated",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(RatingChangeAdminBase):
    list_display = (
        "id",
        "match",
        "ladder",
        "bot",
        "shown_before",
        "shown_after",
        "provisional",
        "created",
    )
    list_filter = ("ladder", "provisional")
    list_select_related = ("ladder", "bot__owner", "match")
    search_fields = ("bot__name", "bot__owner__username")
    readonly_fields = (
        "match",
        "ladder",
        "bot",
        "version",
        *RATING_CHANGE_COLUMNS,
        "provisional",
        "created",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: RatingChange | None = None) -> bool:
        return False
