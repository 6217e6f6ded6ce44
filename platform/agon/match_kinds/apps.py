from django.apps import AppConfig


class MatchKindsConfig(AppConfig):
    """What each kind of match means to the apps above the matches app, wired into it
    as the apps load (`agon.match_kinds.wiring`). Once called `flows`; it has no models,
    so its label follows its name."""

    name = "agon.match_kinds"
    label = "match_kinds"
    verbose_name = "Kinds of match"

    def ready(self) -> None:
        # Models are importable only once the apps are loaded.
        from agon.match_kinds.wiring import (
            audiences_install_all,
            background_sources_install_all,
            outcomes_install_all,
        )

        outcomes_install_all()
        audiences_install_all()
        background_sources_install_all()
