"""Version tests in the admin: read-only, like the matches they play (started by their
bots' owners, moved only by their games' ends)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.http import HttpRequest

from agon.version_testing.models import VersionTest

# The admin's classes are generic only in the type stubs.
if TYPE_CHECKING:
    VersionTestAdminBase = admin.ModelAdmin[VersionTest]
else:
    VersionTestAdminBase = admin.ModelAdmin


@admin.register(VersionTest)
class VersionTestAdmin(VersionTestAdminBase):
    list_display = ("id", "bot", "candidate", "status", "verdict", "games_counted", "created")
    list_filter = ("status", "verdict", "game")
    list_select_related = ("bot__owner", "candidate__bot__owner")
    readonly_fields = tuple(field.name for field in VersionTest._meta.fields)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: VersionTest | None = None) -> bool:
        return False
