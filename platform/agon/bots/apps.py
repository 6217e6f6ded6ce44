from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "agon.bots"
    label = "bots"
    verbose_name = "Bots"
