"""Errors the OpenAPI schema declares for whole classes of operations, so that no view
has to remember them: a paginated list answers 400 for a malformed `page` or
`page_size` and 404 for a page past its end; an operation with an id in its path 404s
when nothing has that id (a non-integer id included, agon.web.views.errors); an
operation that reads a body answers 415 to a body of a media type it does not read (a
JSON body where a form is expected, or none named at all)."""

from __future__ import annotations

from typing import Any

ERROR_REF = "#/components/schemas/Error"


def declare_common_errors(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"])."""
    error = {
        "content": {"application/json": {"schema": {"$ref": ERROR_REF}}},
        "description": "",
    }
    for path, operations in result.get("paths", {}).items():
        for operation in operations.values():
            query = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
            codes = set()
            if query & {"page", "page_size"}:
                codes |= {"400", "404"}
            if "{" in path:
                codes.add("404")
            if "requestBody" in operation:
                codes.add("415")
            for code in sorted(codes):
                operation["responses"].setdefault(code, error)
    return result
