from django.apps import AppConfig


class VersionTestsConfig(AppConfig):
    name = "agon.version_tests"
    label = "version_tests"
    verbose_name = "Version tests"
