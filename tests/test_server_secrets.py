"""Hidden information stays hidden (1883's Random Event deck: ruling R36): while a game runs
nothing the server serves lets anyone work out the next card (its seed is withheld, the state
hash it serves is keyed with it), an action that drew a card cannot be undone, and the
finished game's export is complete and replays to the same result.

The games are played to the moment that matters by the engine (a random bot) and made live
through the server's registry; the moves that matter are posted through the API.
"""

from __future__ import annotations

import functools
import json
import random
import re
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from conftest_server import auth
from tresham.bots.players import get_bot
from tresham.core.actions import Action
from tresham.core.game import Game
from tresham.core.game_spec import SetupError
from tresham.io.save import from_save, new_game
from tresham.server import ServerConfig, create_app
from tresham.titles.t1883 import events

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

PLAYERS = ["Ann", "Bob", "Cid"]
SEED = 2**62 + 1_234_567  # a seed of the size the server draws


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    config = ServerConfig(database_url=sqlite_url, bot_delay=0.0, undo_grace=0.0)
    with TestClient(create_app(config)) as c:
        yield c


def played_until(game: Game, stop: Callable[[int, Game], bool], rng: random.Random) -> Action:
    """Random legal moves until the next one (returned, not applied) makes `stop(cards,
    after)` true (`cards`: how many were undrawn before it)."""
    bot = get_bot("random")
    while True:
        action = bot.choose(game, rng)
        cards = len(events.undrawn(game))
        game.apply(action)
        if stop(cards, game):
            game.undo()
            return action


def made_live(client: TestClient, game: Game) -> tuple[str, dict[str, str]]:
    server: Any = client.app.state.holder["server"]  # type: ignore[attr-defined]
    assert client.portal is not None
    live, seats = client.portal.call(functools.partial(server.registry.create, game))
    return live.record.id, {s.player: s.token for s in seats if s.token}


def live_game(client: TestClient, game_id: str) -> Game:
    server: Any = client.app.state.holder["server"]  # type: ignore[attr-defined]
    found: Game = server.registry.games[game_id].game
    return found


def post(client: TestClient, game_id: str, token: str, entry: dict[str, Any]) -> Any:
    index = client.get(f"/api/games/{game_id}").json()["index"]
    body = {"index": index, "action": entry}
    return client.post(f"/api/games/{game_id}/actions", json=body, headers=auth(token))


def everything_served(client: TestClient, game_id: str, tokens: dict[str, str]) -> str:
    """Every answer the API gives about the game, to anyone: each GET route with each seat's
    token, every past position, and both websockets' first messages."""
    answers: list[str] = []
    paths = client.get("/api/openapi.json").json()["paths"]
    for path, methods in paths.items():
        if "{game_id}" in path and "get" in methods:
            for token in tokens.values():
                url = path.replace("{game_id}", game_id)
                answers.append(client.get(url, headers=auth(token)).text)
    index = client.get(f"/api/games/{game_id}").json()["index"]
    for at in sorted({0, 1, index // 2, index - 1, index}):
        answers.append(client.get(f"/api/games/{game_id}?at={at}").text)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        answers.append(json.dumps(ws.receive_json()))
    with client.websocket_connect(f"/api/games/{game_id}/chat/ws") as ws:
        answers.append(json.dumps(ws.receive_json()))
    return "\n".join(answers)


def drew_a_card(cards: int, after: Game) -> bool:
    return 0 < len(events.undrawn(after)) < cards


def test_nothing_served_while_1883_runs_predicts_the_next_card(client: TestClient) -> None:
    game = new_game("1883", PLAYERS, SEED)
    drawing = played_until(game, drew_a_card, random.Random(5))
    game_id, tokens = made_live(client, game)
    drawer = game.acting_player()
    assert drawer is not None
    answer = post(client, game_id, tokens[drawer], drawing.to_json())
    assert answer.status_code == 200, answer.text
    live = live_game(client, game_id)
    deck = events.undrawn(live)
    assert len(deck) == len(events.undrawn(game)) - 1 and deck  # a card drawn, more to come

    served = everything_served(client, game_id, tokens)
    export = client.get(f"/api/games/{game_id}/export").json()
    # try it: replay what is served
    assert export["seed"] is None and "when the game ends" in export["seed_withheld"]
    with pytest.raises(SetupError):
        from_save(export)
    # with the seed, the export would have given the deck away (what withholding it guards)
    assert events.undrawn(from_save({**export, "seed": SEED})) == deck
    # nothing else served holds the seed, or anything a 63-bit seed could be read from
    assert str(SEED) not in served and not re.search(
        r"(?<![0-9A-Za-z])[0-9]{10,}(?![0-9A-Za-z])", served
    )
    # the hash served cannot be matched against the deck's orders: it is keyed
    state = client.get(f"/api/games/{game_id}").json()
    assert state["state_hash"] != live.state_hash() and live.state_hash() not in served
    for order in (deck, list(deck)):
        assert (
            json.dumps(order) not in served
            and json.dumps(order, separators=(",", ":")) not in served
        )


def test_an_action_that_drew_a_card_cannot_be_undone(client: TestClient) -> None:
    game = new_game("1883", PLAYERS, SEED)
    rng = random.Random(8)
    drawing = played_until(game, drew_a_card, rng)
    game_id, tokens = made_live(client, game)
    drawer = game.acting_player()
    assert drawer is not None
    assert post(client, game_id, tokens[drawer], drawing.to_json()).status_code == 200
    before = client.get(f"/api/games/{game_id}").json()
    assert before["undo"] is None
    assert before["undo_gone"]["player"] == drawer
    assert "cannot be undone" in before["undo_gone"]["why"]
    answer = post(client, game_id, tokens[drawer], {"type": "undo"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["rule"] == "undo" and "cannot be undone" in answer.json()["error"]
    assert client.get(f"/api/games/{game_id}").json() == before  # nothing changed
    # the next action that reveals nothing may be undone by its seat
    live = live_game(client, game_id)
    quiet = played_until(live.clone(), lambda _cards, after: not after.revealed(), rng)
    actor = live.acting_player()
    assert actor is not None
    assert post(client, game_id, tokens[actor], quiet.to_json()).status_code == 200
    assert client.get(f"/api/games/{game_id}").json()["undo"] == actor
    assert post(client, game_id, tokens[actor], {"type": "undo"}).status_code == 200
    assert client.get(f"/api/games/{game_id}").json()["state_hash"] == before["state_hash"]


def test_the_finished_games_export_is_complete_and_replays(client: TestClient) -> None:
    game = new_game("1883", PLAYERS, SEED)
    last = played_until(game, lambda _cards, after: after.state.finished, random.Random(2))
    game_id, tokens = made_live(client, game)
    running = client.get(f"/api/games/{game_id}/export").json()
    assert running["seed"] is None
    player = game.acting_player()
    assert player is not None
    assert post(client, game_id, tokens[player], last.to_json()).status_code == 200
    state = client.get(f"/api/games/{game_id}").json()
    assert state["finished"]
    export = client.get(f"/api/games/{game_id}/export").json()
    assert export["seed"] == SEED and "seed_withheld" not in export
    replayed = from_save(export)
    game.apply(last)
    assert replayed.state_hash() == state["state_hash"] == game.state_hash()
    assert replayed.title.scores(replayed) == state["scores"]


def test_a_title_that_keeps_nothing_hidden_exports_its_seed_while_it_runs(
    client: TestClient,
) -> None:
    """1849 draws only at setup, in the open: its export is complete from the start."""
    made = client.post("/api/games", json={"title": "1849", "players": PLAYERS, "seed": 7})
    export = client.get(f"/api/games/{made.json()['id']}/export").json()
    assert export["seed"] == 7
    state = client.get(f"/api/games/{made.json()['id']}").json()
    assert from_save(export).state_hash() == state["state_hash"]


def test_the_server_draws_seeds_no_one_can_try_in_turn(client: TestClient) -> None:
    """A game made without a seed gets 63 random bits (31 bits could be tried in turn against
    the cards drawn)."""
    server: Any = client.app.state.holder["server"]  # type: ignore[attr-defined]
    seeds = []
    for _ in range(8):
        made = client.post("/api/games", json={"title": "1883", "players": PLAYERS}).json()
        seeds.append(server.registry.games[made["id"]].game.seed)
    assert max(seeds) >= 2**40 and len(set(seeds)) == len(seeds)


def test_a_1883_game_with_open_seats_draws_its_own_seed(client: TestClient) -> None:
    """Strangers take open seats: a seed the host chose would be a secret the host knows."""
    body = {"title": "1883", "players": ["Ann"], "open_seats": 2}
    refused = client.post("/api/games", json={**body, "seed": 7})
    assert refused.status_code == 422 and refused.json()["field"] == "seed", refused.text
    assert "draws its own seed" in refused.json()["error"]
    assert client.post("/api/games", json=body).status_code == 201
    made_1849 = client.post("/api/games", json={**body, "title": "1849", "seed": 7})
    assert made_1849.status_code == 201  # its seed decides only the set-up, in the open


def test_a_1883_game_with_open_seats_refuses_the_site_generator(client: TestClient) -> None:
    """18xx.games' generator has 31 bits of state: from the first cards drawn the rest could be
    worked out, so a game strangers sit at does not take it (1849's, which hides nothing, may)."""
    body = {"title": "1883", "players": ["Ann"], "open_seats": 2}
    refused = client.post("/api/games", json={**body, "options": {"rng": "18xx.games"}})
    assert refused.status_code == 422 and refused.json()["field"] == "options", refused.text
    assert "18xx.games generator" in refused.json()["error"]
    made_1849 = client.post(
        "/api/games", json={**body, "title": "1849", "options": {"rng": "18xx.games"}}
    )
    assert made_1849.status_code == 201
