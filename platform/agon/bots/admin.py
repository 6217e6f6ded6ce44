"""Bots in the admin: read-mostly. Bots and versions are made through uploads (the
services check and validate them), so the admin browses them and changes nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.http import HttpRequest

from agon.bots.models import Bot, BotVersion

# The admin's classes are generic only in the type stubs.
if TYPE_CHECKING:
    VersionInlineBase = admin.TabularInline[BotVersion, Bot]
    BotAdminBase = admin.ModelAdmin[Bot]
    BotVersionAdminBase = admin.ModelAdmin[BotVersion]
else:
    VersionInlineBase = admin.TabularInline
    BotAdminBase = admin.ModelAdmin
    BotVersionAdminBase = admin.ModelAdmin


class VersionInline(VersionInlineBase):
    model = BotVersion
    fields = ("number", "status", "reason", "filename", "size", "sha256", "created")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Bot | None = None) -> bool:
        return False


@admin.register(Bot)
class BotAdmin(BotAdminBase):
    list_display = ("id", "name", "owner", "game", "created")
    list_filter = ("game",)
    list_select_related = ("owner",)
    search_fields = ("name", "owner__username")
    readonly_fields = ("owner", "name", "game", "created")
    inlines = (VersionInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(BotVersion)
class BotVersionAdmin(BotVersionAdminBase):
    list_display = ("id", "bot", "number", "status", "size", "created")
    list_filter = ("status", "bot__game")
    list_select_related = ("bot__owner",)
    search_fields = ("bot__name", "bot__owner__username", "sha256")
    readonly_fields = (
        "bot",
        "number",
        "archive",
        "filename",
        "sha256",
        "size",
        "status",
        "reason",
        "created",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
