"""tresham's 1849 against the site's own engine (``shared/oracle``): play a game, write it as
an 18xx.games export (``site_writer``), replay the export in the site's engine with
``replay.rb --states``, and import the export back with that states file, so that tresham's
state is compared with the site's after every action by the import's own states check
(``site_import.StateCheck``).

The engine is unpacked once into a cache folder outside the project's tree
(``$XDG_CACHE_HOME/tresham/oracle-<digest>``, else ``~/.cache``). :func:`differential` gives
one game's verdict: equal to the end, or where and why it stops, with both engines' words.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tresham.bots.random_bot import choose
from tresham.core.actions import IssueShares
from tresham.core.end import EndReason
from tresham.core.game import Game
from tresham.io.save import new_game
from tresham.io.site_export import ImportFailure
from tresham.io.site_import import StateDivergence, adapter_for, import_export
from tresham.io.site_states import (
    first_difference,
    our_view,
    parse_states,
    site_view,
)
from tresham.io.site_writer import ExportFailure, export_game

ORACLE = Path(__file__).resolve().parents[4] / "shared" / "oracle"
ENGINE_TAR = "18xx-engine.tar.gz"
REPLAY = "replay.rb"
#: The most actions a random game may take before it counts as not ending.
MAX_ACTIONS = 20_000
#: How long the site's engine may take over one game (seconds).
REPLAY_TIMEOUT = 600

#: Verdicts.
EQUAL = "equal"
SITE_REFUSES = "site refuses"
STATE_DIFFERS = "state differs"
IMPORT_FAILS = "import fails"
EXPORT_FAILS = "export fails"
RESULT_DIFFERS = "result differs"
NO_END = "no end"
#: The site's words naming the reason its game ended (``replay.rb``).
SITE_END_WORDS = re.compile(r"game_end_reason: :(\w+)")
#: The site's engine fails inside itself (an error other than its refusal of an action,
#: ``Engine::GameError`` or ``Engine::GameIsOver``, e.g. a ``NoMethodError``). Not counted as
#: the site's: such a failure can follow an action the site would not have offered.
SITE_CRASH = "site engine fault"
#: AFG's purchase of the first 12H sets off the Messina earthquake; where AFG loses its only
#: token there, the site closes it and starts the next corporation's turn inside that
#: purchase (``G1849::Game#event_earthquake!``: ``force_next_entity!``), and the purchase then
#: ends with the Buy Trains step's ``pass!`` (AFG can buy no more), which marks that step
#: passed for the corporation now operating: it can buy no train that turn, and the site
#: refuses its purchase (``Blocking step Issue or Redeem Shares cannot process action
#: buy_train``) that its own rules allow. The site's fault (issue 39).
SITE_STALE_TRAIN_STEP = "site train step passed by AFG's closure"
#: A corporation that cannot pay its bond interest issues shares in its operating turn and
#: its share price enters the "Closed" box: the site charges the interest as its turn ends
#: (``BondInterestPayment``: the treasury goes below L.0, which opens its
#: ``EmergencyMoneyRaising`` step), then closes the corporation after the action
#: (``Game::Base#action_processed``, ``close_corporations_in_close_cell!``) and asks that step
#: for the actions of the entity that acted: the step finds no corporation below L.0 any more
#: and fails (``NoMethodError`` on ``current.owner``). tresham closes the corporation, as the
#: site's own rules do. The site's fault (issue 39: random games 4 players seeds 118 and 148
#: with bonds, 149 with electric_dreams).
SITE_CLOSING_ISSUE = "site engine fault after an issue into the Closed box"
#: The site's words when its Emergency Money Raising step fails after such a closure.
CLOSING_ISSUE_WORDS = ("NoMethodError", "current.owner")
#: Verdicts that are the site's, never tresham's.
SITE_CAUSES = (
    SITE_STALE_TRAIN_STEP,
    SITE_CLOSING_ISSUE,
)


def oracle_missing(oracle: Path = ORACLE) -> str | None:
    """Why the site's engine cannot run here (None: it can)."""
    if shutil.which("ruby") is None:
        return "Debian's ruby is not installed (make ruby)"
    for name in (ENGINE_TAR, REPLAY):
        if not (oracle / name).is_file():
            return f"{oracle / name} is missing (../shared/oracle)"
    return None


def engine_dir(oracle: Path = ORACLE) -> Path:
    """The unpacked engine, in a cache folder named for the archive's digest."""
    tar = oracle / ENGINE_TAR
    digest = hashlib.sha256(tar.read_bytes()).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    target = cache / "tresham" / f"oracle-{digest}"
    if (target / "lib" / "engine.rb").is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=target.parent))
    with tarfile.open(tar) as archive:
        archive.extractall(work, filter="data")
    try:
        work.rename(target)
    except OSError:  # another process unpacked it first
        shutil.rmtree(work, ignore_errors=True)
    return target


@dataclass
class SiteReplay:
    """The site engine's replay of an export: its exit status, its words, its states."""

    status: int
    output: str
    states: list[dict[str, Any]]


def site_replay(export: dict[str, Any], oracle: Path = ORACLE) -> SiteReplay:
    """Replay `export` in the site's engine, with its state after every action."""
    engine = engine_dir(oracle)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "export.json"
        out = Path(tmp) / "states.jsonl"
        path.write_text(json.dumps(export))
        run = subprocess.run(
            [
                "ruby",
                str(oracle / REPLAY),
                "--engine",
                str(engine),
                "--states",
                str(out),
                str(path),
            ],
            capture_output=True,
            text=True,
            timeout=REPLAY_TIMEOUT,
            check=False,
        )
        lines = out.read_text().splitlines() if out.is_file() else []
    return SiteReplay(run.returncode, (run.stdout + run.stderr).strip(), parse_states(lines))


@dataclass
class Verdict:
    """One game's comparison: `verdict` (EQUAL or where it stops), the site action id, the
    site action, the engines' words and both states where they differ."""

    players: int
    seed: int
    options: dict[str, Any]
    verdict: str
    actions: int = 0
    site_actions: int = 0
    lines_equal: int = 0
    action_id: int | None = None
    action: dict[str, Any] | None = None
    site_words: str = ""
    tresham_words: str = ""
    field: str | None = None
    site_value: Any = None
    tresham_value: Any = None
    site_state: dict[str, Any] | None = None
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def play_random(
    players: int,
    seed: int,
    options: dict[str, Any],
    actions: int = MAX_ACTIONS,
    rules_version: int | None = None,
) -> Game:
    """A random game of 1849 with the rule set 18xx.games, played by the random bot (to its
    end, or its first `actions` actions), under the current rules or `rules_version`'s."""
    names = [f"P{i + 1}" for i in range(players)]
    options = {"rule_set": "18xx.games", "rng": "18xx.games", **options}
    game = new_game("1849", names, seed, options, rules_version)
    rng = random.Random(seed * 7919 + players)
    for _ in range(actions):
        if game.state.finished:
            break
        game.apply(choose(game, rng))
    return game


def differential(
    players: int,
    seed: int,
    options: dict[str, Any],
    oracle: Path = ORACLE,
    actions: int | None = None,
    rules_version: int | None = None,
) -> Verdict:
    """Play, export, replay on the site, import with the site's states: the verdict. With
    `actions`, only the game's first actions (bounded: the states compared up to there);
    with `rules_version`, the game played under that version's rules (an older save's)."""
    game = play_random(players, seed, options, actions or MAX_ACTIONS, rules_version)
    verdict = Verdict(players, seed, dict(options), EQUAL, actions=len(game.actions))
    if not game.state.finished and actions is None:
        verdict.verdict = NO_END
        return verdict
    try:
        export = export_game(game, seed)
    except ExportFailure as exc:
        verdict.verdict = EXPORT_FAILS
        verdict.tresham_words = str(exc)
        return verdict
    verdict.site_actions = len(export["actions"])
    replay = site_replay(export, oracle)
    by_id = {a["id"]: a for a in export["actions"]}
    refused = _engine_error(replay.output)
    full_length = len(export["actions"])
    stopped = refused is not None and len(replay.states) < full_length
    if refused is not None and stopped:
        # what the site replayed before it refused is compared first: a state that differs
        # there is the cause, not the refusal it led to (e.g. a purchase the site refuses at
        # a price tresham's state moved and the site's did not)
        export = {**export, "actions": [a for a in export["actions"] if a["id"] < refused[0]]}
        export.pop("result", None)
        export["status"] = "active"
    try:
        result = import_export(export, states=replay.states)
    except StateDivergence as exc:
        div = exc.divergence
        if (
            refused is None
            and replay.status == 0
            and runs_on_to_the_same_end(game, export, replay, div.id)
        ):
            verdict.lines_equal = len(replay.states)
            verdict.extra["site_end"] = "its own passes to the end"
            return verdict
        verdict.verdict = STATE_DIFFERS
        verdict.lines_equal = exc.result.state_lines_compared or 0
        verdict.action_id = div.id
        verdict.action = by_id.get(div.id)
        verdict.field = div.field
        verdict.site_value = div.site
        verdict.tresham_value = div.tresham
        verdict.site_state = next((s for s in replay.states if s.get("id") == div.id), None)
        verdict.site_words = replay.output[-2000:]
        return verdict
    except ImportFailure as exc:
        if refused is not None and stopped:  # the import of the lines before stops short
            verdict.extra["compared_before_refusal"] = str(exc)
            return _refusal(verdict, export, replay, refused, by_id, len(replay.states))
        verdict.verdict = IMPORT_FAILS
        verdict.action_id = exc.action_id
        verdict.action = by_id.get(exc.action_id) if exc.action_id is not None else None
        verdict.tresham_words = str(exc)
        verdict.site_words = replay.output[-2000:]
        return verdict
    if refused is not None and stopped:
        return _refusal(verdict, export, replay, refused, by_id, result.state_lines_compared or 0)
    verdict.lines_equal = result.state_lines_compared or 0
    if replay.status != 0 and game.state.finished:
        verdict.verdict = RESULT_DIFFERS
        verdict.site_words = replay.output[-2000:]
    return verdict


def _refusal(
    verdict: Verdict,
    export: dict[str, Any],
    replay: SiteReplay,
    refused: tuple[int, str],
    by_id: dict[int, dict[str, Any]],
    lines_equal: int,
) -> Verdict:
    """The verdict of an action the site refuses (or fails on) after every line before it
    compared equal: the site's own cause where a detector knows it, else the refusal."""
    verdict.verdict = SITE_REFUSES if "Engine::Game" in refused[1] else SITE_CRASH
    actions = [*export["actions"], *([by_id[refused[0]]] if refused[0] in by_id else [])]
    if stale_train_step_refusal(actions, replay.states, refused):
        verdict.verdict = SITE_STALE_TRAIN_STEP
    elif closing_issue_fault({**export, "actions": actions}, refused):
        verdict.verdict = SITE_CLOSING_ISSUE
    verdict.action_id = refused[0]
    verdict.action = by_id.get(refused[0])
    verdict.site_words = refused[1]
    verdict.lines_equal = lines_equal
    verdict.site_state = replay.states[-1] if replay.states else None
    return verdict


def runs_on_to_the_same_end(
    game: Game, export: dict[str, Any], replay: SiteReplay, action_id: int
) -> bool:
    """Whether the site's line for `action_id`, where tresham's imported state differs, is the
    site running on by itself to the end tresham's game reached: within that action no one can
    act but pass, and the site passes for them round after round (paying the privates), where
    tresham's log has its players' passes, which the export leaves to the site. Only chat
    lines may follow that action in the export; the site's line shows the game over for the
    reason tresham's game ended, and tresham's state at its end is that line. The site's end
    is its limit of 100 stock rounds (``Engine::Game::Base#process_action``: ``:dnf``), which
    the "18xx.games" rule set follows (ruling S28: random game 4 players seed 102, after AFG's
    bankruptcy only a departed player's private pays), or which it reaches in a game tresham
    ended before as no one could act any more (``no_play``, ruling R13: nothing changes in the
    empty rounds the site plays on; random game 5 players seed 142, after the closure the site
    makes at the chat line that ends the export, and random game 4 players seed 209, within
    P1's sale, whose chat line after it wakes the stalled stock round). Where the action's
    entity then runs nothing on the site (a ``run_routes`` with no route: the Route step the
    site leaves open, which tresham, finding no route, has moved past and compares with the
    action before), the site's run on is within that run, and its line is the one compared
    (random game 3 players seed 564 with bonds: RCS's token in Catania, then its run of
    nothing, within which the site plays its empty rounds on to its limit)."""
    later = [a for a in export["actions"] if a["id"] > action_id]
    action: dict[str, Any] = next((a for a in export["actions"] if a["id"] == action_id), {})
    if later and _no_route(later[0]) and later[0].get("entity") == action.get("entity"):
        action_id = later.pop(0)["id"]
    last = next((s for s in replay.states if s.get("id") == action_id), {})
    if any(a["type"] != "message" for a in later) or not last.get("finished"):
        return False
    words = SITE_END_WORDS.search(replay.output)
    reason = game.state.end_reason
    # a game that no one can change any more plays on to the site's limit (ruling R13)
    site_reason = EndReason.TURN_LIMIT if reason == EndReason.NO_PLAY else reason
    if words is None or reason is None or words.group(1) != site_reason:
        return False
    names = {str(p["id"]): str(p["name"]) for p in export["players"]}
    ids = {name: pid for pid, name in names.items()}
    ours = our_view(game, ids, adapter_for(game.title.name).penalty)
    return first_difference(site_view(last), ours) is None


def _no_route(action: dict[str, Any]) -> bool:
    """Whether a site action is a ``run_routes`` with no route."""
    return action.get("type") == "run_routes" and not action.get("routes")


def stale_train_step_refusal(
    actions: list[dict[str, Any]], states: list[dict[str, Any]], refused: tuple[int, str]
) -> bool:
    """Whether the site refuses a corporation's train purchase because AFG's closure in the
    earthquake left its Buy Trains step passed (SITE_STALE_TRAIN_STEP): the refused action
    buys a train, blocked by a later step; the last action before it by another entity is
    AFG's purchase of a train, after which the site's line shows a new phase, AFG with no
    token left and the refusing corporation to act; and every action between is that
    corporation's own (its turn, begun inside AFG's purchase)."""
    by_id = {a["id"]: a for a in actions}
    action = by_id.get(refused[0])
    words = refused[1]
    if action is None or action["type"] != "buy_train" or "Blocking step" not in words:
        return False
    if "cannot process action buy_train" not in words:
        return False
    corp = action["entity"]
    earlier = [a for a in actions if a["id"] < refused[0] and a["type"] != "message"]
    others = [a for a in earlier if a.get("entity") != corp]
    if not others:
        return False
    buy = others[-1]
    if (buy["type"], buy.get("entity")) != ("buy_train", "AFG"):
        return False
    lines = {s["id"]: s for s in states}
    before = max((i for i in lines if i < buy["id"]), default=None)
    after = lines.get(buy["id"])
    if before is None or after is None:
        return False
    return (
        after.get("phase") != lines[before].get("phase")
        and not after["corps"].get("AFG", {}).get("tokens")
        and after.get("active") == [corp]
    )


def closing_issue_fault(export: dict[str, Any], refused: tuple[int, str]) -> bool:
    """Whether the site's engine failed after an issue that closed the corporation
    (SITE_CLOSING_ISSUE): the failing action is a corporation's sale of its own certificates
    (an issue), the site's words are its Emergency Money Raising step's failure
    (`CLOSING_ISSUE_WORDS`), and tresham, importing the export up to that action, closes the
    corporation with it (its share price enters the "Closed" box)."""
    action = next((a for a in export["actions"] if a["id"] == refused[0]), None)
    if action is None or action["type"] != "sell_shares":
        return False
    corp = str(action["entity"])
    shares = [str(share) for share in action.get("shares") or []]
    if action.get("entity_type") != "corporation" or not shares:
        return False
    if any(share.rpartition("_")[0] != corp for share in shares):
        return False
    if not all(words in refused[1] for words in CLOSING_ISSUE_WORDS):
        return False
    upto = [a for a in export["actions"] if a["id"] <= refused[0]]
    partial = {k: v for k, v in export.items() if k not in ("result", "game_end_reason")}
    try:
        game = import_export({**partial, "status": "active", "actions": upto}).game
    except ImportFailure:
        return False
    last = game.actions[-1] if game.actions else None
    issued = isinstance(last, IssueShares) and last.entity == corp
    return issued and not game.state.corps[corp].floated


def _engine_error(output: str) -> tuple[int, str] | None:
    """The action id and message of the site engine's refusal, if it printed one."""
    for line in output.splitlines():
        if "GameError" in line or "Error" in line:
            digits = [int(w) for w in line.replace(":", " ").split() if w.isdigit()]
            return (digits[0] if digits else -1), line.strip()
    return None
