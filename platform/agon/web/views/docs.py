"""How to write a bot: the protocol page, the other documents, examples, the starter kit
and the bot kit's wheel."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import cache_control

from agon.kit_wheel import kit_sdist, kit_wheel
from agon.web.docs import doc_render, example_files, example_source, starter_kit_zip


def guide(request: HttpRequest) -> HttpResponse:
    return doc_page(request, "bot-protocol")


def doc_page(request: HttpRequest, slug: str) -> HttpResponse:
    doc = doc_render(slug)
    if doc is None:
        raise Http404(f"there is no document {slug!r}")
    return render(
        request,
        "web/doc.html",
        {
            "doc": doc,
            "slug": slug,
            "toc": [h for h in doc.headings if h.level == 2],
            "examples": [path.name for path in example_files()],
            # The sdist: pip builds the compiled cores from it where the machine has a C
            # compiler, and installs the kit in pure Python where it has none.
            "kit_url": request.build_absolute_uri(
                reverse("web:kit-wheel", args=[kit_sdist().filename])
            ),
        },
    )


def example(request: HttpRequest, name: str) -> HttpResponse:
    source = example_source(name)
    if source is None:
        raise Http404(f"there is no example {name!r}")
    return HttpResponse(source, content_type="text/plain; charset=utf-8")


@cache_control(max_age=300)
def starter_kit(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(starter_kit_zip(), content_type="application/zip")
    response["Content-Disposition"] = 'attachment; filename="agon-starter-kit.zip"'
    return response


@cache_control(max_age=7 * 24 * 3600, public=True)
def kit_wheel_file(request: HttpRequest, filename: str) -> HttpResponse:
    """The bot kit's sdist or wheel; their names carry a digest of their files, so they
    may be kept."""
    kits = {kit.filename: kit for kit in (kit_sdist(), kit_wheel())}
    kit = kits.get(filename)
    if kit is None:
        raise Http404(f"the bot kit is {' or '.join(kits)} now")
    content_type = "application/zip" if filename.endswith(".whl") else "application/gzip"
    response = HttpResponse(kit.content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{kit.filename}"'
    return response
