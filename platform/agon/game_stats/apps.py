from django.apps import AppConfig


class GameStatsConfig(AppConfig):
    name = "agon.game_stats"
    label = "game_stats"
    verbose_name = "Game statistics"
