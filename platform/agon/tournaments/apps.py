from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "agon.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
