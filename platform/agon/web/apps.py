from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "agon.web"
    label = "web"
    verbose_name = "Web pages"
