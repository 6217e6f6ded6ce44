from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "agon.matches"
    label = "matches"
    verbose_name = "Matches"

    def ready(self) -> None:
        # Tasks are sent with the project's Celery app, configured from settings.
        import agon.celery  # noqa: F401
