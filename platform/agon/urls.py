"""Top-level URLs: the REST API under /api/, its schema and docs, the admin, and the
web pages at the root. Errors Django answers itself (an unknown path, a bad request, a
crash) go through agon.web.views.errors: JSON under /api/, the site's pages elsewhere."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

# Swagger UI with its start script in a file of its own and no inline style, for the
# Content-Security-Policy (agon.security_headers).
api_docs = SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="web/api_docs.html")

urlpatterns = [
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("api/", include("agon.api.urls")),
    path("admin/", admin.site.urls),
    path("", include("agon.web.urls")),
]

handler400 = "agon.web.views.errors.bad_request"
handler403 = "agon.web.views.errors.permission_denied"
handler404 = "agon.web.views.errors.page_not_found"
handler500 = "agon.web.views.errors.server_error"
