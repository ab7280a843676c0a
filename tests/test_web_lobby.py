"""Playing online in real browsers (Debian's Chromium driven by Playwright, against a `tresham
serve` process): three independent browser contexts, as three people on three devices. One
creates a 1849 game with two open seats and a bot; the two others join from its link (one
under a name made of markup, shown as text everywhere); the game starts by itself when full;
each sees "(your turn)" in the page title when the turn is theirs, and is notified when away;
they chat; the creator, a spectator, sees the chat but cannot post until the game allows
spectators. Also: the lobby offers every option of every title, lists your games with your turn
highlighted, and imports a save; a seat sets and clears its turn webhook from the table's chat
panel. Screenshots of the lobby (1366x768) go to tests/artifacts/.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

import test_web_browser as web
from conftest_server import Receiver, ServerProcess, auth, play_until_turn
from test_web_browser import ARTIFACTS, WAIT_MS, Errors

INJECTED = "Ann<img src=x onerror=pwned=1>"
VIEWPORT = {"width": 1366, "height": 768}
# a stand-in for the browser's notifications (granted), recording what is announced, and a
# page that never has the focus (as one in the background)
NOTIFICATIONS = """
window.__notes = [];
window.Notification = class { constructor(title, options) { window.__notes.push(title); } };
window.Notification.permission = "granted";
window.Notification.requestPermission = async () => "granted";
document.hasFocus = () => false;
"""


# The fixtures of test_web_browser.py: a `tresham serve` process and Debian's Chromium.
server = web.server
browser = web.browser


def person(browser: Any, errors: Errors) -> Any:
    """A page of a browser context of its own (its own storage: another device)."""
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(NOTIFICATIONS)
    return errors.watch(context.new_page())


def seats_of(page: Any, game_id: str) -> dict[str, str]:
    raw = page.evaluate(f"localStorage.getItem('tresham.seats.{game_id}')")
    held: dict[str, str] = json.loads(raw or "{}")
    return held


def test_three_people_play_online(browser: Any, server: ServerProcess) -> None:
    errors = Errors()
    ARTIFACTS.mkdir(exist_ok=True)
    host = person(browser, errors)
    host.goto(f"{server.url}/")
    host.wait_for_selector('body[data-ready="1"]')
    host.select_option("#title", "1849")
    assert host.is_visible("#option-delay_ift") and host.is_visible("#option-rule_set")
    host.fill("#players", "Robot")
    host.fill("#bots", "Robot")
    host.select_option('.bot-level[data-player="Robot"]', "easy")
    host.fill("#open-seats", "2")
    host.fill("#seed", "7")
    host.check("#option-delay_ift")
    host.click("#create")
    host.wait_for_selector("#join-link-created")
    link = host.get_attribute("#join-link-created", "href")
    assert link is not None and link.endswith("/join") and "seat=" not in link
    game_id = link.rstrip("/").split("/")[-2]
    host.screenshot(path=str(ARTIFACTS / "lobby-created.png"))
    host.click("#open-waiting")
    host.wait_for_selector('body[data-seating="waiting"]')
    assert host.is_visible("#host-box") and host.is_visible("#start")
    assert host.is_disabled("#start")  # 1 of 3 seated

    players = {}
    for name in (INJECTED, "Bob"):
        page = person(browser, errors)
        page.goto(link)
        page.wait_for_selector("#join-form:not([hidden])")
        page.fill("#join-name", name)
        page.click("#join")
        players[name] = page
    first = players[INJECTED]
    for page in players.values():  # the last join starts the game: both go to the table
        page.wait_for_url(f"**/games/{game_id}", timeout=WAIT_MS)
        page.wait_for_selector("#status[data-index]", timeout=WAIT_MS)
    assert first.locator("#chat-box").is_visible()
    host.wait_for_selector("#join-table:not([hidden])", timeout=WAIT_MS)
    host.screenshot(path=str(ARTIFACTS / "lobby-join-page.png"))
    host.click("#join-table")
    host.wait_for_selector("#status[data-index]", timeout=WAIT_MS)

    api = httpx.Client(base_url=server.url, timeout=30)
    state = api.get(f"/api/games/{game_id}").json()
    assert sorted(p["name"] for p in state["players"]) == sorted([INJECTED, "Bob", "Robot"])
    assert api.get(f"/api/games/{game_id}/seating").json()["options"] == {"delay_ift": True}
    tokens = {name: seats_of(page, game_id)[name] for name, page in players.items()}

    # each sees "(your turn)" when it comes, and only then
    seen: set[str] = set()
    for _move in range(40):
        state = api.get(f"/api/games/{game_id}").json()
        acting = state["acting_player"]
        if acting not in players:  # the bot is playing
            players["Bob"].wait_for_timeout(200)
            continue
        page, other = players[acting], players["Bob" if acting == INJECTED else INJECTED]
        web.wait_until(page, "document.title.startsWith('(your turn)')", timeout=WAIT_MS)
        web.wait_until(other, "!document.title.startsWith('(your turn)')", timeout=WAIT_MS)
        assert not host.evaluate("document.title").startswith("(your turn)")
        seen.add(acting)
        if seen == set(players):
            break
        legal = api.get(f"/api/games/{game_id}/legal", headers=auth(tokens[acting])).json()
        action = next((a for a in legal["actions"] if a["type"] == "pass"), legal["actions"][0])
        answer = api.post(
            f"/api/games/{game_id}/actions",
            json={"index": legal["index"], "action": action},
            headers=auth(tokens[acting]),
        )
        assert answer.status_code == 200, answer.text
    assert seen == set(players)
    for page in players.values():
        assert page.evaluate("window.__notes.length") >= 1  # announced while away

    # "your games": the lobby highlights the game whose turn is this browser's
    acting = api.get(f"/api/games/{game_id}").json()["acting_player"]
    if acting in players:
        lobby = players[acting].context.new_page()
        lobby.goto(f"{server.url}/")
        lobby.wait_for_selector(f'#your-games li.your-turn[data-game="{game_id}"]')
        assert "your turn" in lobby.inner_text(f'#your-games li[data-game="{game_id}"]')
        lobby.screenshot(path=str(ARTIFACTS / "lobby-your-turn.png"))
        lobby.close()

    # chat: the seats write, everyone reads, the spectator may not write yet
    first.fill("#chat-text", "<b>deal?</b> <script>pwned=2</script>")
    first.click("#chat-send")
    players["Bob"].wait_for_selector("#chat-lines li.chat-line")
    players["Bob"].fill("#chat-text", "no deal")
    players["Bob"].click("#chat-send")
    for page in (first, players["Bob"], host):
        web.wait_until(page, "document.querySelectorAll('#chat-lines li').length === 2")
        texts = page.locator("#chat-lines .chat-text").all_inner_texts()
        assert texts == ["<b>deal?</b> <script>pwned=2</script>", "no deal"]
        assert page.locator("#chat-lines .chat-who").first.inner_text() == INJECTED
        assert page.locator("#chat-lines b, #chat-lines script, #chat-lines img").count() == 0
        # the log shows them too, among the entries, as words between players
        web.wait_until(page, "document.querySelectorAll('#log li.log-chat').length === 2")
        assert "no deal" in page.locator("#log li.log-chat").last.inner_text()
        assert page.locator("#log li.log-chat b, #log li.log-chat script").count() == 0
    assert host.is_hidden("#chat-form")
    assert "Only the players" in host.inner_text("#chat-note")
    host_token = host.evaluate(f"localStorage.getItem('tresham.host.{game_id}')")
    stranger = api.post(f"/api/games/{game_id}/chat", json={"text": "hi", "name": "Eve"})
    assert stranger.status_code == 403
    # the creator allows spectators: now the spectator writes under a name
    allowed = api.post(
        f"/api/games/{game_id}/listing", json={"spectator_chat": True}, headers=auth(host_token)
    )
    assert allowed.status_code == 200
    host.reload()
    host.wait_for_selector("#chat-form:not([hidden])", timeout=WAIT_MS)
    host.fill("#chat-name", "Eve")
    host.fill("#chat-text", "nice game")
    host.click("#chat-send")
    first.wait_for_selector("#chat-lines li.spectator", timeout=WAIT_MS)
    assert "Eve (spectator)" in first.inner_text("#chat-lines li.spectator")
    first.screenshot(path=str(ARTIFACTS / "table-chat.png"))
    # the names and the chat were shown, never run
    for page in (first, players["Bob"], host):
        assert page.evaluate("typeof window.pwned") == "undefined"
        assert INJECTED in page.inner_text("#players")
    assert errors.seen == []


def test_the_lobby_offers_every_option_and_imports(browser: Any, server: ServerProcess) -> None:
    errors = Errors()
    page = person(browser, errors)
    page.goto(f"{server.url}/")
    page.wait_for_selector('body[data-ready="1"]')
    titles = httpx.get(f"{server.url}/api/titles").json()
    for title in titles:
        page.select_option("#title", title["title"])
        for option in title["options"]:
            field = page.locator(f"#option-{option['name']}")
            assert field.count() == 1, option
            assert option["description"] in page.inner_text("#options")
    page.select_option("#title", "1849")
    page.screenshot(path=str(ARTIFACTS / "lobby.png"))
    # an import: a save of a game some moves in, with its chat
    created = httpx.post(
        f"{server.url}/api/games", json={"title": "1849", "players": ["A", "B", "C"], "seed": 2}
    ).json()
    token = created["seats"][0]["token"]
    httpx.post(
        f"{server.url}/api/games/{created['id']}/chat", json={"text": "hi"}, headers=auth(token)
    )
    save = httpx.get(f"{server.url}/api/games/{created['id']}/export").json()
    path = Path(ARTIFACTS / "lobby-import.json")
    path.write_text(json.dumps(save))
    page.set_input_files("#import-file", str(path))
    page.click("#import")
    page.wait_for_selector("#imported #open-table")
    page.click("#imported #open-table")
    page.wait_for_selector("#chat-lines li.chat-line", timeout=WAIT_MS)
    assert page.inner_text("#chat-lines .chat-text") == "hi"
    path.unlink()
    assert errors.seen == []


def test_a_seat_sets_its_webhook_at_the_table(browser: Any, server: ServerProcess) -> None:
    """The chat panel's webhook control: a seat opens it, the server's check refuses a URL
    that is not http(s) (the message shown), a good one is saved and called on the seat's
    turn, it is shown again after a reload, and cleared; a spectator has no such control."""
    errors = Errors()
    receiver = Receiver()
    api = httpx.Client(base_url=server.url, timeout=30)
    try:
        body = {"title": "1849", "players": ["Ann", "Bob", "Cid"], "seed": 7}
        created = api.post("/api/games", json=body).json()
        game_id = created["id"]
        tokens = {s["player"]: s["token"] for s in created["seats"]}
        hook = f"/api/games/{game_id}/seat/webhook"
        page = person(browser, errors)
        page.goto(next(s["url"] for s in created["seats"] if s["player"] == "Bob"))
        page.wait_for_selector("#status[data-index]", timeout=WAIT_MS)
        page.wait_for_selector("#webhook-box", state="visible", timeout=WAIT_MS)
        assert "Bob" in page.inner_text("#webhook-box summary")
        page.click("#webhook-box summary")
        page.wait_for_selector("#webhook-note:has-text('No webhook')", timeout=WAIT_MS)

        page.fill("#webhook-url", "ftp://example.com/hook")
        page.click("#webhook-save")
        page.wait_for_selector("#webhook-note.error", timeout=WAIT_MS)
        assert "http://" in page.inner_text("#webhook-note")
        assert api.get(hook, headers=auth(tokens["Bob"])).json()["webhook"] is None

        page.fill("#webhook-url", receiver.url)
        page.click("#webhook-save")
        page.wait_for_selector("#webhook-note:has-text('Saved')", timeout=WAIT_MS)
        assert api.get(hook, headers=auth(tokens["Bob"])).json()["webhook"] == receiver.url
        play_until_turn(api, game_id, tokens, "Bob")
        call = receiver.next_call()
        assert call["tresham"]["player"] == "Bob" and "Bob: your turn" in call["content"]

        page.reload()
        page.wait_for_selector("#status[data-index]", timeout=WAIT_MS)
        page.click("#webhook-box summary")
        web.wait_until(
            page,
            f"document.getElementById('webhook-url').value === {json.dumps(receiver.url)}",
            timeout=WAIT_MS,
        )
        page.screenshot(path=str(ARTIFACTS / "table-webhook.png"))
        page.click("#webhook-clear")
        page.wait_for_selector("#webhook-note:has-text('Cleared')", timeout=WAIT_MS)
        assert page.input_value("#webhook-url") == ""
        assert api.get(hook, headers=auth(tokens["Bob"])).json()["webhook"] is None

        watcher = person(browser, errors)
        watcher.goto(f"{server.url}/games/{game_id}")
        watcher.wait_for_selector("#status[data-index]", timeout=WAIT_MS)
        assert watcher.is_visible("#chat-box") and watcher.is_hidden("#webhook-box")
    finally:
        receiver.close()
        api.close()
    # the refused URL's 422 is the one error the browser reports
    assert all("status of 422" in seen for seen in errors.seen), errors.seen
