"""What the server's pages tell a browser (server/headers.py): a Content-Security-Policy that
lets only the server's own scripts, styles and sockets run, never in another site's frame; the
API's docs are the server's own page, with no script (the browser tests in test_web_*.py run
every page under this policy and fail on any console error, which a refused inline style
would be)."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator

import pytest

from tresham.server import ServerConfig, create_app
from tresham.server.page import PAGES, web_root

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(ServerConfig(database_url=sqlite_url))) as c:
        yield c


def test_every_answer_sends_the_policy_and_frame_protection(client: TestClient) -> None:
    made = client.post("/api/games", json={"title": "1849", "players": ["Ann", "Bob", "Cid"]})
    game_id = made.json()["id"]
    for path in (
        "/",
        f"/games/{game_id}",
        f"/games/{game_id}/tiles",
        "/games/nope",
        "/api/docs",
        "/api/games",
        f"/api/games/{game_id}",
        "/web/table.js",
    ):
        answer = client.get(path, headers={"Accept": "text/html"})
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["x-content-type-options"] == "nosniff"


def test_the_pages_hold_nothing_inline() -> None:
    """Under the policy an inline script, style or handler would not run: the pages have
    none, and the scripts set no style attribute as markup (common.js sets styles through
    the CSS object model)."""
    for name in PAGES:
        html = web_root().joinpath(name).read_text("utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), name
        assert "<style" not in html and "style=" not in html, name
        assert not re.search(r"\son[a-z]+=", html), name
    for script in web_root().iterdir():
        if script.name.endswith(".js"):
            text = script.read_text("utf-8")
            assert 'setAttribute("style"' not in text and "innerHTML" not in text, script.name
            assert "eval(" not in text and "new Function" not in text, script.name


def test_the_api_docs_load_no_third_party_script(client: TestClient) -> None:
    answer = client.get("/api/docs")
    assert answer.status_code == 200 and "text/html" in answer.headers["content-type"]
    page = answer.text
    assert "<script" not in page and "cdn" not in page.lower()
    assert not re.search(r"(src|href)=\"(https?:)?//", page)
    assert "POST /api/games/{game_id}/actions" in page and "/api/openapi.json" in page
    assert "Add an action" in page
