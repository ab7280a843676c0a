"""A minimal page behind a game's links until the browser table exists: it shows the public
state and follows the game live through the websocket."""

from __future__ import annotations

import html
import json

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>tresham: __TITLE__ game __ID__</title>
<style>
body { font-family: sans-serif; margin: 2em; }
pre { background: #f4f4f4; padding: 1em; overflow: auto; }
</style>
</head>
<body>
<h1>__TITLE__ game __ID__</h1>
<p id="turn">connecting...</p>
<p>The table is not built yet; this page shows the game's public state, live.
API: <a href="/api/docs">/api/docs</a>.</p>
<pre id="state"></pre>
<script>
const gameId = __ID_JSON__;
const state = document.getElementById("state");
const turn = document.getElementById("turn");
function show(s) {
  turn.textContent = s.finished
    ? "Game over: " + JSON.stringify(s.scores)
    : "Entry " + s.index + ": " + s.acting_player + " to act (" + s.active_entity + ")";
  state.textContent = JSON.stringify(s, null, 1);
}
function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(scheme + location.host + "/api/games/" + gameId + "/ws");
  ws.onmessage = (event) => show(JSON.parse(event.data).state);
  ws.onclose = () => setTimeout(connect, 2000);
}
connect();
</script>
</body>
</html>
"""


def game_page(game_id: str, title: str) -> str:
    """The page of one game."""
    return (
        PAGE.replace("__ID_JSON__", json.dumps(game_id))
        .replace("__TITLE__", html.escape(title))
        .replace("__ID__", html.escape(game_id))
    )
