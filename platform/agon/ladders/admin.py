"""Ladders in the admin: ladders may be edited (opened, closed, renamed); ratings and
their history are results, so they are read-only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.http import HttpRequest

from agon.ladders.models import Ladder, Rating, RatingChange

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
    list_display = ("id", "ladder", "bot", "rating", "games", "wins", "active", "updated")
    list_filter = ("ladder", "active")
    list_select_related = ("ladder", "bot__owner")
    search_fields = ("bot__name", "bot__owner__username")
    ordering = ("ladder", "-rating")
    readonly_fields = (
        "ladder",
        "bot",
        "version",
        "rating",
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
    list_display = ("id", "match", "ladder", "bot", "before", "after", "provisional", "created")
    list_filter = ("ladder", "provisional")
    list_select_related = ("ladder", "bot__owner", "match")
    search_fields = ("bot__name", "bot__owner__username")
    readonly_fields = (
        "match",
        "ladder",
        "bot",
        "version",
        "before",
        "after",
        "provisional",
        "created",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: RatingChange | None = None) -> bool:
        return False
