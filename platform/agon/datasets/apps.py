from django.apps import AppConfig


class DatasetsConfig(AppConfig):
    name = "agon.datasets"
    label = "datasets"
    verbose_name = "Datasets"
