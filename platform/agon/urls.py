"""Top-level URLs: the REST API under /api/, its schema and docs, the admin, and the
web pages at the root."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/", include("agon.api.urls")),
    path("admin/", admin.site.urls),
    path("", include("agon.web.urls")),
]
