from django.apps import AppConfig


class VersionTestingConfig(AppConfig):
    """Version tests (a bot's version against another, to a verdict), a name its pages and
    API keep. The package was `agon.version_tests`, which read like a folder of test code;
    its label stays `version_tests`, the prefix of its tables and the name of its migration
    history, so that no table is renamed and every existing database migrates as before."""

    name = "agon.version_testing"
    label = "version_tests"
    verbose_name = "Version tests"
