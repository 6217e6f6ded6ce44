from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "agon.notifications"
    label = "notifications"
    verbose_name = "Notifications"
