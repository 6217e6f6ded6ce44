from django.apps import AppConfig


class LaddersConfig(AppConfig):
    name = "agon.ladders"
    label = "ladders"
    verbose_name = "Ladders"
