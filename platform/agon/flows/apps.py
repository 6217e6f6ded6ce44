from django.apps import AppConfig


class FlowsConfig(AppConfig):
    name = "agon.flows"
    label = "flows"
    verbose_name = "Flows"

    def ready(self) -> None:
        # Models are importable only once the apps are loaded.
        from agon.flows.outcomes import (
            audiences_install_all,
            background_sources_install_all,
            outcomes_install_all,
        )

        outcomes_install_all()
        audiences_install_all()
        background_sources_install_all()
