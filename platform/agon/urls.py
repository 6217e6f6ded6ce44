"""URL routes of the Agon platform; apps add theirs here."""

from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
