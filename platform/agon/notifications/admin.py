"""Deliveries in the admin, read-only: staff see what was sent where and why a webhook
failed (webhooks' secrets are not shown)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.http import HttpRequest

from agon.notifications.models import Delivery

# The admin's classes are generic only in the type stubs.
if TYPE_CHECKING:
    DeliveryAdminBase = admin.ModelAdmin[Delivery]
else:
    DeliveryAdminBase = admin.ModelAdmin


@admin.register(Delivery)
class DeliveryAdmin(DeliveryAdminBase):
    list_display = ("id", "notification", "channel", "status", "attempts", "response_status")
    list_filter = ("status", "channel")
    list_select_related = ("notification__user",)
    readonly_fields = tuple(
        field.name for field in Delivery._meta.fields if field.name not in {"webhook"}
    )
    exclude = ("webhook",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Delivery | None = None) -> bool:
        return False
