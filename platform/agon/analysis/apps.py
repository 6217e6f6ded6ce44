from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "agon.analysis"
    label = "analysis"
    verbose_name = "Match analysis"
