"""The API's docs (``/api/docs``): a page the server writes from its OpenAPI description
(``/api/openapi.json``), every route with its summary and description. It runs no script (an
interactive page would load one from a CDN, on the origin whose storage holds the seat
tokens)."""

from __future__ import annotations

from html import escape
from typing import Any

METHODS = ("get", "post", "put", "patch", "delete")


def docs_page(schema: dict[str, Any]) -> str:
    """The HTML of the docs of `schema` (an OpenAPI description)."""
    info = schema.get("info", {})
    title = escape(str(info.get("title", "API")))
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{title}: API</title>",
        '<link rel="stylesheet" href="/web/lobby.css"></head><body><main>',
        f"<h1>{title}: the API</h1>",
        f"<p>{escape(str(info.get('summary', '')))}. The machine-readable description: "
        '<a href="/api/openapi.json">/api/openapi.json</a>.</p>',
    ]
    for path, methods in schema.get("paths", {}).items():
        for method in METHODS:
            route = methods.get(method)
            if route is None:
                continue
            summary = escape(str(route.get("summary", "")))
            described = escape(str(route.get("description", ""))).replace("\n\n", "</p><p>")
            parts.append(
                f"<section><h2><code>{method.upper()} {escape(path)}</code></h2>"
                f"<p><strong>{summary}</strong></p><p>{described}</p></section>"
            )
    parts.append("</main></body></html>")
    return "\n".join(parts)
