"""The `tresham` command: play in the terminal, replay a save, review a game, simulate random
games, import a game from 18xx.games, run the game server."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from tresham.core.actions import Action
from tresham.core.errors import RuleError, quote
from tresham.core.game import REVEALED, Game
from tresham.core.game_spec import SetupError, parse_options
from tresham.io.save import load, new_game, save, to_save
from tresham.titles.registry import get_title, titles

if TYPE_CHECKING:
    from tresham.terminal import Terminal

T = TypeVar("T")

DEFAULT_SAVES = Path("saves")


def result_json(game: Game) -> dict[str, Any]:
    """The summary of a game as `replay --json` prints it."""
    s = game.state
    return {
        "title": game.title.name,
        "finished": s.finished,
        "game_end_reason": s.end_reason,
        "scores": game.title.scores(game) if s.finished else None,
        "raw_scores": game.title.raw_scores(game) if s.finished else None,
        "actions": len(game.actions),
    }


# ------------------------------------------------------------------------ play
def _with_amount(action: Action, amount: int) -> Action:
    for name in ("price", "percent"):
        if hasattr(action, name):
            changes: dict[str, Any] = {name: amount}
            return dataclasses.replace(action, **changes)
    raise RuleError("this action takes no amount", "terminal")


#: The players' names of a new game played without --names.
DEFAULT_NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay")


def _names(args: argparse.Namespace) -> list[str]:
    """The players of a new game: --names, else the first --players of DEFAULT_NAMES (then
    Player 7, ...)."""
    if args.names:
        return list(args.names.split(","))
    return [
        DEFAULT_NAMES[i] if i < len(DEFAULT_NAMES) else f"Player {i + 1}"
        for i in range(args.players)
    ]


def bot_levels(spec: str | None, players: list[str]) -> dict[str, str]:
    """The bots of `--bots NAME[:LEVEL],...`: each player's level (the default level where
    none is given). A SetupError (field "bots") for a name that is not a player, a player
    named twice, or an unknown level."""
    from tresham.bots.players import DEFAULT_LEVEL, get_bot

    levels: dict[str, str] = {}
    for item in (spec or "").split(","):
        item = item.strip()
        if not item:
            continue
        name, level = item, DEFAULT_LEVEL
        if item not in players and ":" in item:
            # the level follows the player's name and may name a budget (Bob:hard:250ms)
            cut = next(
                (i for i, ch in enumerate(item) if ch == ":" and item[:i].strip() in players),
                item.rfind(":"),
            )
            name, level = item[:cut].strip(), item[cut + 1 :].strip()
        if name not in players:
            known = ", ".join(players)
            raise SetupError(
                f"--bots: {quote(name)} is not a player (the players: {known})", "bots"
            )
        if name in levels:
            raise SetupError(f"--bots: {quote(name)} is named twice", "bots")
        try:
            get_bot(level)
        except SetupError as exc:
            raise SetupError(f"--bots: {exc.message}", "bots") from None
        levels[name] = level
    return levels


def bot_move(game: Game, level: str) -> Action:
    """A terminal bot's move: the bot of `level`, its random numbers seeded from the game's
    seed and how many actions are in force (as the server seeds them)."""
    import random

    from tresham.bots.players import get_bot

    rng = random.Random(f"tresham-bot:{game.seed}:{len(game.actions)}")
    return get_bot(level).choose(game, rng)


def _take_back(game: Game, bots: dict[str, str], undo: bool) -> None:
    """Undo (or redo) one action, and with it the bots' moves since (or after) it: a bot
    would only make its move again. An action that revealed hidden information is never
    undone (a RuleError saying so)."""
    if undo and game.revealed():
        raise RuleError(REVEALED, "undo")
    step = game.undo if undo else game.redo
    step()
    while game.acting_player() in bots and (game.actions if undo else game.undone):
        if undo and game.revealed():
            break  # a bot's move that revealed hidden information stays
        step()


#: What a player types for a hint in `tresham play --hints`.
HINT_KEYS = ("?", "h", "hint")


def show_hint(term: Terminal, game: Game) -> None:
    """Print `hard`'s hint for the player to act (``bots/hints.py``)."""
    from rich.markup import escape

    from tresham.bots.hints import hint
    from tresham.words import Words

    term.console.print(f"[cyan]{escape(hint(game).text(Words(game)))}[/cyan]")


def cmd_play(args: argparse.Namespace) -> int:
    """Hotseat play in the terminal; the players named by --bots are played by bots; with
    --hints, ? (or h) asks for a hint."""
    from tresham.terminal import Terminal

    if args.load:
        game = load(Path(args.load))
        path = Path(args.load)
        bots = bot_levels(args.bots, game.player_names)
    else:
        game = new_game(args.title, _names(args), args.seed, _options(args.title, args.option))
        bots = bot_levels(args.bots, game.player_names)
        DEFAULT_SAVES.mkdir(exist_ok=True)
        path = DEFAULT_SAVES / f"{args.title}-{time.strftime('%Y%m%d-%H%M%S')}.json"
    from rich.markup import escape

    from tresham.orders import OrderBook, OrderKind

    term = Terminal(game, bots=bots)
    term.console.print(f"Saving after every action to [bold]{path}[/bold]")
    book = OrderBook()
    acted = False  # an action was just made: standing orders may act (never after an undo)
    made: dict[int, tuple[str, OrderKind]] = {}  # the actions orders made, by number

    def by_order(player: str, action: Action, kind: OrderKind) -> None:
        term.show_bot_move(player, action, "(standing order)")
        game.apply(action)
        save(game, path)
        made[len(game.actions)] = (player, kind)

    term.hints = args.hints
    while not game.state.finished:
        if acted:
            acted = False
            if book.follow(game, by_order, None):
                acted = True
            for told in book.ended_lines():
                term.console.print(f"[yellow]{escape(told)}[/yellow]")
            continue
        player = game.acting_player()
        level = bots.get(player) if player is not None else None
        if player is not None and level is not None:
            action = bot_move(game, level)
            term.show_bot_move(player, action)
            game.apply(action)
            save(game, path)
            book.traded(game, player, action)
            acted = True
            continue
        term.show()
        actions = game.legal_actions()
        term.show_actions(actions)
        try:
            line = term.console.input("[bold]> [/bold]").strip()
        except EOFError:
            return 0
        if line in ("q", "quit"):
            return 0
        if line in HINT_KEYS:
            if args.hints:
                show_hint(term, game)
            else:
                term.console.print("[red]hints are off: play with --hints to allow them[/red]")
            continue
        if line in ("u", "undo", "r", "redo"):
            count = len(game.actions)
            try:
                _take_back(game, bots, undo=line in ("u", "undo"))
                save(game, path)
            except RuleError as exc:
                term.console.print(f"[red]{exc}[/red]")
            for number in range(len(game.actions) + 1, count + 1):
                if number in made:  # an order's move taken back: the order goes
                    book.taken_back(game, *made.pop(number))
            for told in book.ended_lines():
                term.console.print(f"[yellow]{escape(told)}[/yellow]")
            continue
        parts = line.split()
        if parts[:1] == ["o"] and player is not None:
            text, acted = order_command(game, book, player, parts[1:])
            term.console.print(escape(text))
            continue
        try:
            choice = actions[int(parts[0])]
            if len(parts) > 1:
                choice = _with_amount(choice, int(parts[1]))
            game.apply(choice)
            save(game, path)
            if player is not None:
                book.traded(game, player, choice)
            acted = True
        except (ValueError, IndexError):
            term.console.print("[red]type the number of an action (and an amount)[/red]")
        except RuleError as exc:
            term.console.print(f"[red]{exc}[/red]")
    term.show()
    term.console.print(json.dumps(result_json(game)))
    return 0


ORDER_HELP = (
    "standing orders: o (list yours), o auto-pass, o pass-round, o pass-privates, "
    "o buy-until CORP PERCENT, o cancel (all of yours)"
)


def order_command(game: Game, book: Any, player: str, words: list[str]) -> tuple[str, bool]:
    """A terminal line ``o ...`` of `player`'s (tresham/orders.py): list, set or cancel
    their standing orders; returns what to print and whether the orders may act now (one
    just set may, at once)."""
    from tresham.orders import SeatOrders, make_order

    mine = book.seats.setdefault(player, SeatOrders())
    if not words:
        listed = "; ".join(o.words(game) for o in mine.orders) or "none"
        return f"{player}'s standing orders: {listed}. {ORDER_HELP}", False
    if words == ["cancel"]:
        for order in list(mine.orders):
            book.end(game, player, order, f"cancelled by {player}")
        book.changed.discard(player)
        return f"{player}'s standing orders are cancelled", False
    raw: dict[str, Any] = {"kind": words[0]}
    if words[0] == "buy-until" and len(words) == 3 and words[2].rstrip("%").isdigit():
        raw.update(corporation=words[1].upper(), percent=int(words[2].rstrip("%")))
    try:
        order = make_order(game, raw)
    except RuleError as exc:
        return f"{exc} ({ORDER_HELP})", False
    if any((o.kind, o.corporation) == (order.kind, order.corporation) for o in mine.orders):
        return f"{player} already holds that order", False
    mine.orders.append(order)
    return f"{player}'s standing order: {order.words(game)}", True


def _options(title: str, pairs: list[str] | None) -> dict[str, Any]:
    """`--option NAME` switches an option on; `--option NAME=VALUE` sets it to VALUE
    (``true``/``false`` for a boolean); an unknown option or value is a SetupError."""
    return parse_options(get_title(title), pairs or [])


# ------------------------------------------------------------------------ replay
def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a save and print its result."""
    try:
        game = load(Path(args.save))
    except SetupError:
        raise  # what the game is made from: exit code 2, as for play and simulate
    except (RuleError, OSError, json.JSONDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    summary = result_json(game)
    if args.json:
        print(json.dumps(summary))
    else:
        for k, v in summary.items():
            print(f"{k}: {v}")
    return 0


# ------------------------------------------------------------------------ import-18xx
def cmd_import(args: argparse.Namespace) -> int:
    """Import an 18xx.games export, replaying every action with full validation; with the
    site's states file (``--states``, or ``<export>.states.jsonl`` beside the export), compare
    the state after every action and stop at the first difference."""
    from rich.progress import Progress

    from tresham.io.site_export import ImportFailure
    from tresham.io.site_import import ImportResult, StateDivergence, import_export
    from tresham.io.site_states import read_states, states_path

    path = Path(args.file)
    states_file = None if args.no_states else args.states or states_path(path)
    try:
        data = json.loads(path.read_text())
        states = read_states(Path(states_file)) if states_file is not None else None
        if sys.stderr.isatty():
            with Progress(transient=True) as bar:
                task = bar.add_task(f"importing {path.name}", total=None)
                result: ImportResult = import_export(
                    data,
                    lambda n, total: bar.update(task, completed=n, total=total),
                    check_routes=args.check_routes,
                    states=states,
                )
        else:
            result = import_export(data, check_routes=args.check_routes, states=states)
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 1
    except json.JSONDecodeError as exc:
        print(f"error: {path} is not JSON: {exc}", file=sys.stderr)
        return 1
    except StateDivergence as exc:
        print(f"error: {path}: {exc}", file=sys.stderr)
        if args.json:
            print(json.dumps(exc.result.summary()))
        return 1
    except ImportFailure as exc:
        print(f"error: {path}: {exc}", file=sys.stderr)
        return 1
    summary = result.summary()
    differences = result.differences_from_site()
    if args.out:
        save(result.game, Path(args.out))
    if args.json:
        print(json.dumps(summary))
    else:
        for k, v in summary.items():
            print(f"{k}: {v}")
        if states_file is not None:
            print(f"compared with the site's state after every action ({states_file})")
        if args.out:
            print(f"saved to {args.out} (continue with: tresham play --load {args.out})")
    for line in differences:
        print(f"differs from the site: {line}", file=sys.stderr)
    return 1 if differences else 0


# ------------------------------------------------------------------------ export-18xx
def cmd_export(args: argparse.Namespace) -> int:
    """Write a saved game as an 18xx.games export (the site's JSON, which its engine replays:
    1849 played with the rule set 18xx.games)."""
    from tresham.io.site_writer import ExportFailure, export_game

    try:
        game = load(Path(args.save))
        export = export_game(game, args.game_id)
    except SetupError:
        raise
    except (RuleError, OSError, json.JSONDecodeError, ExportFailure) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    text = json.dumps(export, indent=1)
    if args.out:
        Path(args.out).write_text(text + "\n")
        print(f"wrote {len(export['actions'])} site actions to {args.out}")
    else:
        print(text)
    return 0


# ------------------------------------------------------------------------ routes
def cmd_routes(args: argparse.Namespace) -> int:
    """Solve the routes of one corporation in a saved position, or every position of a
    positions file."""
    if args.positions:
        return _routes_positions(Path(args.positions), args.json)
    if not args.save or not args.corp:
        print("error: give a SAVE and --corp SYM, or --positions FILE", file=sys.stderr)
        return 2
    try:
        game = load(Path(args.save), upto=args.at)
        if args.corp not in game.state.corps:
            raise RuleError(f"no corporation {args.corp!r} in this game", "routes")
        start = time.perf_counter()
        solution = game.title.best_routes(game, args.corp)
        ms = 1000 * (time.perf_counter() - start)
    except (RuleError, OSError, json.JSONDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    runs = [
        {"train": r.train, "stops": [f"{h}-{n}" for h, n in r.stops], "revenue": r.revenue}
        for r in solution.runs
    ]
    if args.json:
        print(
            json.dumps(
                {
                    "revenue": solution.revenue,
                    "runs": runs,
                    "optimal": solution.optimal,
                    "ms": round(ms, 2),
                }
            )
        )
        return 0
    for r in solution.runs:
        print(f"{r.train}: {' - '.join(f'{h}-{n}' for h, n in r.stops)}  L.{r.revenue}")
    proof = "optimal" if solution.optimal else "best found (work cap reached)"
    print(f"total L.{solution.revenue} ({proof}, {ms:.1f} ms)")
    return 0


def _routes_positions(path: Path, as_json: bool) -> int:
    """Solve every position of a positions file; exit 0 only if each revenue is the
    expected one."""
    import statistics

    from tresham.routes import solve
    from tresham.routes.positions import load_positions

    try:
        positions = load_positions(path)
    except (OSError, ValueError, KeyError) as exc:
        print(f"error: {path}: {exc!r}", file=sys.stderr)
        return 1
    times: list[float] = []
    counts = {"equal": 0, "below": 0, "above": 0}
    for pos in positions:
        start = time.perf_counter()
        solution = solve(pos.state, pos.company, pos.trains, pos.rules)
        ms = 1000 * (time.perf_counter() - start)
        times.append(ms)
        verdict = (
            "equal"
            if solution.revenue == pos.expected
            else "below"
            if solution.revenue < pos.expected
            else "above"
        )
        counts[verdict] += 1
        line = {
            "id": pos.id,
            "revenue": solution.revenue,
            "expected": pos.expected,
            "ms": round(ms, 2),
            "optimal": solution.optimal,
        }
        print(
            json.dumps(line)
            if as_json
            else f"{pos.id}: {solution.revenue} ({verdict}), {ms:.1f} ms"
        )
    summary = {
        "positions": len(positions),
        **counts,
        "ms_p50": round(statistics.median(times), 2) if times else 0.0,
        "ms_max": round(max(times), 2) if times else 0.0,
    }
    print(json.dumps(summary) if as_json else ", ".join(f"{k}: {v}" for k, v in summary.items()))
    return 0 if counts["equal"] == len(positions) else 1


# ------------------------------------------------------------------------ review
def cmd_review(args: argparse.Namespace) -> int:
    """Each player's decisions where `hard`'s choice would have gained most
    (``bots/review.py``)."""
    from tresham.bots.review import review
    from tresham.bots.search import budget_ms, work_units

    game = load(Path(args.save))
    if args.budget is None:
        from tresham.bots.review import REVIEW_WORK

        work = REVIEW_WORK
    else:
        ms = budget_ms(f"hard:{args.budget}")
        if ms is None:
            raise SetupError(f"--budget {quote(args.budget)}: a time such as 100ms or 1s", "budget")
        work = work_units(ms, game.title)
    result = _with_progress(
        f"reviewing {len(game.actions)} actions",
        len(game.actions),
        lambda progress: review(
            game,
            work,
            args.top,
            progress=None if progress is None else lambda done, _total: progress(done),
        ),
    )
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        print("\n".join(result.lines()))
    return 0


# ------------------------------------------------------------------------ simulate
def _with_progress(label: str, total: int, work: Callable[[Callable[[int], None] | None], T]) -> T:
    """Run `work(progress)` with a progress bar on a terminal (no bar when piped)."""
    if not sys.stderr.isatty():
        return work(None)
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task(label, total=total)
        return work(lambda n: bar.update(task, completed=n))


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play random games, checking invariants after every action."""
    from tresham.sim import simulate

    options = _options(args.title, args.option)
    result = _with_progress(
        f"{args.title} x{args.games}",
        args.games,
        lambda progress: simulate(
            args.title,
            args.games,
            args.players,
            args.seed,
            options,
            progress=progress,
            roundtrip_every=args.roundtrip_every,
        ),
    )
    for failure in result.failures:
        path = Path(f"failed-{args.title}-seed{failure['seed']}.json")
        path.write_text(json.dumps(to_save(failure["game"]), indent=1))
        print(f"seed {failure['seed']}: {failure['problem']} (save: {path})")
    summary = result.summary()
    if args.json:
        print(json.dumps(summary))
    else:
        for k, v in summary.items():
            print(f"{k}: {v}")
        if result.seconds > 0:
            print(f"games/second: {result.games / result.seconds:.2f}")
            print(f"actions/second: {result.actions / result.seconds:.0f}")
    ok = result.finished == result.games and not result.invariant_violations
    return 0 if ok and not result.errors else 1


# ------------------------------------------------------------------------ fuzz
def cmd_fuzz(args: argparse.Namespace) -> int:
    """Submit malformed and illegal actions during random games."""
    from tresham.fuzz import fuzz

    result = _with_progress(
        f"fuzz {args.title}",
        args.actions,
        lambda progress: fuzz(args.title, args.actions, args.seed, args.players, progress),
    )
    for sample in result.samples:
        print(sample)
    summary = result.summary()
    print(json.dumps(summary) if args.json else ", ".join(f"{k}: {v}" for k, v in summary.items()))
    return 0 if result.ok else 1


# ------------------------------------------------------------------------ tournament
def cmd_tournament(args: argparse.Namespace) -> int:
    """Bots against each other: wins with confidence intervals, ranks, margins, times."""
    from tresham.bots.tournament import run

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    lo, hi = get_title(args.title).player_range
    if not lo <= len(bots) <= hi:
        raise SetupError(f"{args.title} is for {lo}-{hi} players, not {len(bots)} bots", "bots")
    summary = _with_progress(
        f"{args.title} tournament",
        args.games,
        lambda progress: run(args.title, bots, args.games, args.seed, args.jobs, progress),
    )
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{summary['title']}: {summary['games']} games in {summary['seconds']} s")
        for name, b in summary["bots"].items():
            print(
                f"  {name:8} win rate {b['win_rate']:.3f} [{b['ci_low']:.3f}, {b['ci_high']:.3f}]"
                f"  rank {b['mean_rank']:.2f}  margin {b['mean_margin']:+.0f}"
                f"  bankruptcies {b['bankruptcies']}  ms mean {b['decision_ms_mean']:.2f}"
                f" p95 {b['decision_ms_p95']:.2f} max {b['decision_ms_max']:.1f}"
            )
        print(
            f"  operating rounds {summary['rounds_mean']}, ends {summary['end_reasons']}, "
            f"illegal {summary['illegal_actions']}, crashes {summary['crashes']}"
        )
    return 0 if summary["illegal_actions"] == 0 and summary["crashes"] == 0 else 1


# ------------------------------------------------------------------------ info
def cmd_info(args: argparse.Namespace) -> int:
    """Print a title's facts (``tresham/info.py``)."""
    from tresham.info import describe, facts

    data = facts(args.title)
    print(json.dumps(data) if args.json else describe(data))
    return 0


# ------------------------------------------------------------------------ serve
def cmd_serve(args: argparse.Namespace) -> int:
    """Run the game server (HTTP and websocket API)."""
    from tresham.server.serve import serve

    return serve(args.host, args.port, args.db)


def cmd_bot_worker(args: argparse.Namespace) -> int:
    """Take bot turns from the server's database and move for them."""
    from tresham.server.bot_worker import run_worker

    return run_worker(
        args.db,
        lease=args.lease,
        poll=args.poll,
        nice=args.nice,
        hold=args.hold,
        wake_fd=args.wake_fd,
        report=args.report,
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `tresham`."""
    parser = argparse.ArgumentParser(prog="tresham", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play a hotseat game in the terminal")
    play.add_argument("title", choices=titles())
    play.add_argument("--players", type=int, default=3)
    play.add_argument("--names", help="comma-separated player names (default: Ann, Bob, Cid, ...)")
    play.add_argument("--seed", type=int, default=int(time.time()) % 100_000)
    play.add_argument(
        "--option",
        action="append",
        help="a game option, e.g. delay_ift or rule_set=18xx.games",
    )
    play.add_argument("--load", help="continue from a save file")
    play.add_argument(
        "--bots",
        help="players played by bots: NAME[:LEVEL],... (levels random, easy, medium, hard "
        "or hard:BUDGET such as hard:250ms; default medium), e.g. Bob:hard:250ms,Cid:easy",
    )
    play.add_argument(
        "--hints", action="store_true", help="allow hints: type ? for what the search suggests"
    )
    play.set_defaults(func=cmd_play)

    rev = sub.add_parser(
        "review", help="each player's decisions where the search's choice would gain most"
    )
    rev.add_argument("save")
    rev.add_argument("--top", type=int, default=5, help="decisions listed per player")
    rev.add_argument(
        "--budget", help="the search's budget per decision, e.g. 100ms (default 100ms)"
    )
    rev.add_argument("--json", action="store_true")
    rev.set_defaults(func=cmd_review)

    replay = sub.add_parser("replay", help="replay a save file and print the result")
    replay.add_argument("save")
    replay.add_argument("--json", action="store_true")
    replay.set_defaults(func=cmd_replay)

    imp = sub.add_parser("import-18xx", help="import a game exported from 18xx.games")
    imp.add_argument("file", help="the site's JSON export")
    imp.add_argument("--out", help="write a tresham save of the imported game")
    imp.add_argument("--json", action="store_true")
    imp.add_argument(
        "--check-routes",
        action="store_true",
        help="also solve every recorded run_routes position with the optimizer",
    )
    imp.add_argument(
        "--states",
        help="the site's state after every action (default: <export>.states.jsonl beside "
        "the export, when there is one): compare with it and stop at the first difference",
    )
    imp.add_argument("--no-states", action="store_true", help="do not compare with a states file")
    imp.set_defaults(func=cmd_import)

    exp = sub.add_parser(
        "export-18xx", help="write a saved 1849 game (rule set 18xx.games) as an 18xx.games export"
    )
    exp.add_argument("save", help="a tresham save")
    exp.add_argument("--out", help="write the export here (default: print it)")
    exp.add_argument("--game-id", type=int, default=0, help="the export's game id")
    exp.set_defaults(func=cmd_export)

    routes = sub.add_parser(
        "routes", help="the optimal runs of a corporation in a saved game, or of position files"
    )
    routes.add_argument("save", nargs="?")
    routes.add_argument("--corp", help="the corporation's symbol")
    routes.add_argument("--positions", help="solve every position of a positions file")
    routes.add_argument("--at", type=int, help="after this many actions (default: all)")
    routes.add_argument("--json", action="store_true")
    routes.set_defaults(func=cmd_routes)

    sim = sub.add_parser("simulate", help="play random games, checking invariants")
    sim.add_argument("title", choices=titles())
    sim.add_argument("--games", type=int, default=10)
    sim.add_argument("--players", type=int, default=3)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--option", action="append")
    sim.add_argument(
        "--roundtrip-every",
        type=int,
        default=500,
        help="save and reload every N actions and at the end, expecting the same state (0: off)",
    )
    sim.add_argument("--json", action="store_true")
    sim.set_defaults(func=cmd_simulate)

    fz = sub.add_parser("fuzz", help="submit malformed and illegal actions in random games")
    fz.add_argument("title", choices=titles())
    fz.add_argument("--actions", type=int, default=1000, help="made-up actions to submit")
    fz.add_argument("--seed", type=int, default=1)
    fz.add_argument("--players", type=int, default=3)
    fz.add_argument("--json", action="store_true")
    fz.set_defaults(func=cmd_fuzz)

    tour = sub.add_parser("tournament", help="bots against each other, with win rates")
    tour.add_argument("title", choices=titles())
    tour.add_argument(
        "--bots",
        required=True,
        help="comma-separated levels, one per seat (random, easy, medium, hard, hard:250ms)",
    )
    tour.add_argument("--games", type=int, default=30)
    tour.add_argument("--seed", type=int, default=1)
    tour.add_argument("--jobs", type=int, default=1, help="games played at once")
    tour.add_argument("--json", action="store_true")
    tour.set_defaults(func=cmd_tournament)

    info = sub.add_parser("info", help="a title's facts: players, tiles, board, trains")
    info.add_argument("title", choices=titles())
    info.add_argument("--json", action="store_true")
    info.set_defaults(func=cmd_info)

    srv = sub.add_parser("serve", help="run the game server (HTTP and websocket API)")
    srv.add_argument("--host", default="127.0.0.1")
    srv.add_argument("--port", type=int, default=8000, help="0: any free port")
    srv.add_argument(
        "--db",
        help="database URL (default: $TRESHAM_DATABASE_URL, else an SQLite file in the data "
        "folder); e.g. postgresql://user@host/dbname",
    )
    srv.set_defaults(func=cmd_serve)

    worker = sub.add_parser(
        "bot-worker",
        help="take bot turns (and hints asked) from the server's database and move for them "
        "(any number, on any machines sharing a PostgreSQL database)",
    )
    worker.add_argument(
        "--db", help="database URL (default: $TRESHAM_DATABASE_URL, else the SQLite file)"
    )
    worker.add_argument(
        "--lease",
        type=float,
        default=10.0,
        help="seconds a claim on a turn lasts unless renewed (a dead worker's turn is taken "
        "again after at most this)",
    )
    worker.add_argument(
        "--poll", type=float, default=1.0, help="look for turns at least this often (seconds)"
    )
    worker.add_argument(
        "--nice", type=int, default=10, help="run at this lower priority than the server"
    )
    worker.add_argument(
        "--hold",
        metavar="FILE",
        help="a test hook: think the first turn through, then hold it until killed, writing "
        "'PID GAME INDEX' to FILE",
    )
    worker.add_argument("--wake-fd", type=int, help=argparse.SUPPRESS)
    worker.add_argument("--report", action="store_true", help=argparse.SUPPRESS)
    worker.set_defaults(func=cmd_bot_worker)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `tresham` console script."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except SetupError as exc:
        print(f"error: {exc.message} ({exc.field})", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
