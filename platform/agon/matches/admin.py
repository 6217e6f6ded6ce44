"""Matches in the admin: read-only. Matches are made by matchmaking, uploads and
challenges, and finished exactly once by the match task."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.http import HttpRequest

from agon.matches.models import Match, MatchSeat

# The admin's classes are generic only in the type stubs.
if TYPE_CHECKING:
    SeatInlineBase = admin.TabularInline[MatchSeat, Match]
    MatchAdminBase = admin.ModelAdmin[Match]
else:
    SeatInlineBase = admin.TabularInline
    MatchAdminBase = admin.ModelAdmin


class SeatInline(SeatInlineBase):
    model = MatchSeat
    fields = ("seat", "version", "builtin", "rank", "score", "fault", "thinking_seconds")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Match | None = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(MatchAdminBase):
    list_display = ("id", "kind", "game", "players", "ladder", "status", "created", "finished")
    list_filter = ("status", "kind", "game")
    list_select_related = ("ladder",)
    # Counting 100,000s of matches on every page view is slow; the admin can do without.
    show_full_result_count = False
    readonly_fields = tuple(field.name for field in Match._meta.fields)
    inlines = (SeatInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Match | None = None) -> bool:
        return False
