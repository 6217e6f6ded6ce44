from django.apps import AppConfig


class CompetitionsConfig(AppConfig):
    name = "agon.competitions"
    label = "competitions"
    verbose_name = "Competitions"
