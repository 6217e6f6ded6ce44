from django.apps import AppConfig


class LimitsConfig(AppConfig):
    name = "agon.limits"
    label = "limits"
    verbose_name = "Rate limits"
