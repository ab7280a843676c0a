"""Import an 18xx.games export: set the game up as the site did, translate every action of the
effective log into tresham's actions, and apply each with full validation.

The title's adapter (``titles/<title>/site_import.py``) gives the options and translates the
actions; this module runs the import. Where the site stops at a step tresham moves past on its
own (or the other way round), the two logs are aligned by passes only: a site ``pass`` that
tresham does not ask for changes nothing, and before an action tresham rejects, tresham's own
pending steps are passed, but only if the action is then legal. Anything else is a failure
naming the site's action id.

The log is the site's effective log (``site_export.effective_log``): standing orders and chat
are kept there (they change nothing), and every action is followed by the auto actions the
site recorded under it, each applied for the entity it names. Given the site's states file,
:class:`StateCheck` compares tresham's state with the site's after every action of that log
and stops the import at the first difference (:class:`StateDivergence`).
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from tresham.core.actions import (
    Action,
    Bankrupt,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    DiscardTrain,
    Dividend,
    IssueShares,
    LayTile,
    Pass,
    PlaceToken,
    RedeemShares,
    SellShares,
    UseCompany,
)
from tresham.core.errors import NotYourTurnError, RuleError
from tresham.core.game import Game
from tresham.core.shares import POOL, treasury
from tresham.io.site_export import (
    CHAT,
    ImportFailure,
    SiteExport,
    changes_nothing,
    effective_log,
    read_export,
)
from tresham.io.site_states import (
    MAX_SKIPPED_PASSES,
    Divergence,
    aligned_game,
    first_difference,
    our_view,
    passes_by_itself,
    site_active,
    site_view,
)
from tresham.titles.registry import get_title, title_module

#: The key marking an entry of the import's log as one of the site's recorded auto actions.
AUTO = "auto"
MAX_ALIGNING_PASSES = 8

Progress = Callable[[int, int], None]


@dataclass
class SiteContext:
    """What a translation may consult: the game as it stands, the site's players, the whole
    effective log and the position in it. Translations may claim later site actions
    (``claim``) that they fold into the current one; those are then not translated again."""

    game: Game
    export: SiteExport
    log: list[dict[str, Any]]
    index: int = 0
    claimed: set[int] = field(default_factory=set)
    tiles: dict[str, str] = field(default_factory=dict)
    cert_places: dict[str, str] = field(default_factory=dict)
    runs_retraced: int = 0
    #: what the title's adapter keeps between actions (e.g. the site's certificates)
    memo: dict[str, Any] = field(default_factory=dict)

    def player_name(self, site_id: object) -> str:
        """tresham's name for the site's player id."""
        name = names_by_id(self.export).get(str(site_id))
        if name is None:
            raise ImportFailure(f"field entity: no player with id {site_id}")
        return name

    def entity(self, action: dict[str, Any]) -> str:
        """The acting player's name, or the corporation's symbol; a company acts through its
        owner."""
        kind = action.get("entity_type")
        raw = action.get("entity")
        if kind == "player":
            return self.player_name(raw)
        if kind == "company":
            comp = self.game.state.companies.get(str(raw))
            if comp is None or comp.owner is None:
                raise ImportFailure(f"field entity: company {raw} has no owner")
            return comp.owner
        return str(raw)

    def upcoming(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """Later actions of the log (position, action), unclaimed ones only."""
        for i in range(self.index + 1, len(self.log)):
            if i not in self.claimed:
                yield i, self.log[i]


class SiteAdapter(Protocol):
    """A title's half of the import."""

    def options(self, export: SiteExport) -> dict[str, Any]:
        """The tresham options that reproduce the site's set-up."""
        ...

    def translate(self, ctx: SiteContext, action: dict[str, Any]) -> list[Action]:
        """tresham's actions for one site action (none for a step tresham does not have)."""
        ...

    def penalty(self, game: Game, player: str) -> int:
        """What the player loses at the end for loans taken (the site's ``penalty``)."""
        ...

    def skips_pass(self, ctx: SiteContext, action: dict[str, Any]) -> bool:
        """Whether a site pass (an auto action is marked ``AUTO``) is of a step tresham does
        not play at this point, so it changes nothing."""
        ...

    def site_behind(self, game: Game, line: dict[str, Any]) -> bool:
        """Whether the site's states line stands at a step of the turn that tresham has
        already moved past (tresham is the site's pass at that step ahead)."""
        ...

    def followed(self, ctx: SiteContext, action: dict[str, Any]) -> None:
        """After a site action was applied: follow what the site moved by itself."""
        ...

    def cert_holder(self, ctx: SiteContext, cid: str) -> str | None:
        """Who holds the certificate on the site now, where the title follows the site's
        certificates (None: it does not know)."""
        ...


@dataclass
class ImportResult:
    """The imported game and what the import found."""

    game: Game
    export: SiteExport
    actions_imported: int  # actions of the site's effective log, all imported
    runs_retraced: int
    revenue_mismatches: int = 0
    route_checks: list[RouteCheck] | None = None  # with check_routes
    #: With a states file: the lines compared, and the first difference (None: none).
    state_lines_compared: int | None = None
    first_divergence: Divergence | None = None
    #: The chat (``message`` actions): who wrote each line, its text, and how many actions
    #: were in force then.
    chat: list[tuple[str, str, int]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """The JSON summary `tresham import-18xx --json` prints."""
        game = self.game
        ids = {name: pid for pid, name in names_by_id(self.export).items()}
        raw = game.title.raw_scores(game)
        scores = game.title.scores(game)
        return {
            "title": self.export.title,
            "finished": game.state.finished,
            "game_end_reason": game.state.end_reason,
            "raw_scores": {ids[name]: value for name, value in raw.items()},
            "scores": scores,
            "actions_imported": self.actions_imported,
            "revenue_mismatches": self.revenue_mismatches,
            **(route_check_summary(self.route_checks) if self.route_checks is not None else {}),
            **(self.state_summary() if self.state_lines_compared is not None else {}),
        }

    def state_summary(self) -> dict[str, Any]:
        """The state check's figures: lines compared, and the first divergence or None."""
        div = self.first_divergence
        return {
            "state_lines_compared": self.state_lines_compared or 0,
            "first_divergence": div.to_dict() if div is not None else None,
        }

    def differences_from_site(self) -> list[str]:
        """How the imported game's end differs from the export's (empty: identical). An
        unfinished export is compared on nothing; the end's reason only where the export
        names one."""
        if self.export.status != "finished":
            return []
        summary = self.summary()
        out = []
        if not summary["finished"]:
            out.append("the game has not ended")
        reason = self.export.game_end_reason
        if reason is not None and summary["game_end_reason"] != reason:
            out.append(
                f"game_end_reason {summary['game_end_reason']!r}, "
                f"site {self.export.game_end_reason!r}"
            )
        if summary["raw_scores"] != self.export.result:
            out.append(f"raw_scores {summary['raw_scores']}, site result {self.export.result}")
        return out


def names_by_id(export: SiteExport) -> dict[str, str]:
    """tresham player names for the site's ids: the site's names, made distinct if needed."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for p in export.players:
        name = p.name.strip() or f"player {p.id}"
        if name in used:
            name = f"{name} ({p.id})"
        used.add(name)
        out[str(p.id)] = name
    return out


def adapter_for(title: str) -> SiteAdapter:
    """The title's import adapter; a clear failure for a title the site import lacks."""
    try:
        get_title(title)
    except RuleError:
        raise ImportFailure(f"field title: unknown title {title!r}") from None
    module = title_module(title, "site_import")  # a title's own site_import module
    if module is None:
        raise ImportFailure(f"field title: no 18xx.games import for {title} yet")
    adapter: SiteAdapter = module.ADAPTER
    return adapter


@dataclass(frozen=True)
class RouteCheck:
    """The optimizer against one recorded ``run_routes``: the site's total, ours, the time."""

    action_id: int
    corporation: str
    recorded: int
    optimizer: int
    optimal: bool
    ms: float


def route_check_summary(checks: list[RouteCheck]) -> dict[str, Any]:
    """The `--check-routes` figures: positions checked, how many the optimizer found below
    (a bug: it must be 0) or above (players missed revenue) the recorded revenue, and the
    optimizer's median and worst time."""
    times = sorted(c.ms for c in checks)
    return {
        "routes_checked": len(checks),
        "optimizer_below_recorded": sum(c.optimizer < c.recorded for c in checks),
        "optimizer_above_recorded": sum(c.optimizer > c.recorded for c in checks),
        "router_ms_p50": round(statistics.median(times), 2) if times else 0.0,
        "router_ms_max": round(times[-1], 2) if times else 0.0,
    }


def _check_routes(ctx: SiteContext, action: dict[str, Any]) -> RouteCheck:
    game = ctx.game
    corp = ctx.entity(action)
    warm = game.state.map
    game.state.map = warm.copy()  # time the optimizer from a cold cache, as a player sees it
    try:
        start = time.perf_counter()
        solution = game.title.best_routes(game, corp)
        ms = 1000 * (time.perf_counter() - start)
    finally:
        game.state.map = warm
    recorded = sum(int(r["revenue"]) for r in action.get("routes") or [])
    return RouteCheck(int(action["id"]), corp, recorded, solution.revenue, solution.optimal, ms)


def import_export(
    data: object,
    progress: Progress | None = None,
    *,
    check_routes: bool = False,
    states: list[dict[str, Any]] | None = None,
) -> ImportResult:
    """Import a parsed export (the JSON object). With `check_routes` the optimizer also
    solves every position where the site recorded runs. With `states` (the lines of the
    export's states file, ``site_states.read_states``) tresham's state is compared with the
    site's after every action of the effective log, and the first difference fails the
    import (:class:`StateDivergence`). Raises :class:`ImportFailure`."""
    if isinstance(data, dict) and "title" in data:
        adapter_for(str(data["title"]))  # an unknown title is the first thing to report
    export = read_export(data)
    adapter = adapter_for(export.title)
    names = names_by_id(export)
    try:
        game = Game(
            get_title(export.title),
            [names[str(p.id)] for p in export.players],
            export.seed,
            adapter.options(export),
        )
    except RuleError as exc:
        raise ImportFailure(f"set-up: {exc}") from None
    entries = effective_log(export.actions)
    log: list[dict[str, Any]] = []
    line_of: list[int] = []
    for n, entry in enumerate(entries):
        log.append(entry)
        line_of.append(n)
        for auto in entry.get("auto_actions") or []:
            log.append({**auto, "id": entry.get("id"), AUTO: True})
            line_of.append(n)
    ctx = SiteContext(game, export, log)
    checks: list[RouteCheck] | None = [] if check_routes else None
    checker = StateCheck(game, export, adapter, entries, states) if states is not None else None
    result = ImportResult(game, export, len(log), 0, route_checks=checks)
    if checker is not None:
        result.state_lines_compared = 0
    for i, site_action in enumerate(log):
        if progress is not None:
            progress(i, len(log))
        if site_action["type"] == CHAT:
            writer = str(site_action.get("entity", ""))
            text = str(site_action.get("message", ""))
            result.chat.append((names.get(writer, writer), text, len(game.actions)))
        if i not in ctx.claimed:
            ctx.index = i
            _import_one(ctx, adapter, site_action, checks)
        last_of_line = i + 1 == len(log) or line_of[i + 1] != line_of[i]
        if checker is not None and last_of_line:
            ahead = max((line_of[j] for j in ctx.claimed if j > i), default=line_of[i])
            checker.check(line_of[i], ahead, result)
    if export.status == "finished":
        _passes_to_the_end(game)
    if progress is not None:
        progress(len(log), len(log))
    result.runs_retraced = ctx.runs_retraced
    if checker is not None:
        checker.finish(result)
    return result


def _import_one(
    ctx: SiteContext,
    adapter: SiteAdapter,
    site_action: dict[str, Any],
    checks: list[RouteCheck] | None,
) -> None:
    """Translate and apply one site action (an auto action included)."""
    aid, kind = site_action.get("id"), str(site_action["type"])
    if changes_nothing(kind):
        return
    try:
        if kind == "pass":
            if not adapter.skips_pass(ctx, site_action):
                _site_pass(ctx, site_action)
            adapter.followed(ctx, site_action)
            return
        if kind == "run_routes" and checks is not None:
            checks.append(_check_routes(ctx, site_action))
        for action in adapter.translate(ctx, site_action):
            _apply_aligned(ctx.game, action)
        adapter.followed(ctx, site_action)
    except ImportFailure as exc:
        raise ImportFailure(exc.reason, aid, kind) from None
    except RuleError as exc:
        raise ImportFailure(str(exc), aid, kind) from None
    except (KeyError, ValueError, TypeError) as exc:
        raise ImportFailure(f"malformed action: {exc!r}", aid, kind) from None


class StateDivergence(ImportFailure):
    """tresham's state differs from the site's after an action: the import stops there.
    `result` is the import as far as it went (its summary names the divergence)."""

    def __init__(self, divergence: Divergence, kind: str, result: ImportResult) -> None:
        super().__init__(divergence.describe(), divergence.id, kind)
        self.divergence = divergence
        self.result = result


class StateCheck:
    """Compares the import with the site's states file, line by line (STATES.md)."""

    def __init__(
        self,
        game: Game,
        export: SiteExport,
        adapter: SiteAdapter,
        entries: list[dict[str, Any]],
        states: list[dict[str, Any]],
    ) -> None:
        self.game = game
        self.entries = entries
        self.states = states
        self.names = names_by_id(export)
        self.ids = {name: pid for pid, name in self.names.items()}
        self.penalty = adapter.penalty
        self.site_behind = adapter.site_behind
        for n, entry in enumerate(entries):
            if n >= len(states):
                raise ImportFailure(
                    "the states file ends before the effective log: no line for this action",
                    entry.get("id"),
                    str(entry["type"]),
                )
            if states[n].get("id") != entry.get("id"):
                raise ImportFailure(
                    f"the states file's line {n + 1} is for action {states[n].get('id')}, "
                    "not for this one: it is not this export's",
                    entry.get("id"),
                    str(entry["type"]),
                )
        if len(states) > len(entries):
            raise ImportFailure(
                f"the states file has {len(states) - len(entries)} line(s) more than the "
                "export's effective log (from action "
                f"{states[len(entries)].get('id')}): it is not this export's"
            )

    def check(self, line: int, ahead: int, result: ImportResult) -> None:
        """Compare after the actions of `line` (an index of the effective log). When tresham
        took a later site action together with this one (`ahead`: that action's line, e.g.
        AFG's home token with its par), the fields that later action changes on the site are
        compared at its own line. Where the site's next action is a pass only the site asks
        of the entity it waits for, tresham may be that pass ahead: its state is then the
        site's after the pass (at once where tresham waits for someone else; else where the
        line differs and stands at a step tresham has moved past). Where the site stalled
        (:meth:`site_stalled`), its line after the chat line that wakes it is compared."""
        waiting = site_active(self.states[line], self.names)
        game = aligned_game(self.game, waiting)
        behind = game.active_entity() not in waiting or _no_run(self.entries[line + 1 :])
        site_pass = self.site_only_pass(line, waiting)
        first = None if behind and site_pass else self._difference(line, line, ahead)
        if first is None and not (behind and site_pass):
            result.state_lines_compared = (result.state_lines_compared or 0) + 1
            return
        if site_pass and (behind or self.site_behind(game, self.states[line])):
            # tresham is the site's pass ahead: compare with the line after it
            later = self._difference(line, line + 1, ahead)
            if later is not None and self.no_run_after_pass(line):
                later = self._difference(line, line + 2, ahead)
            if later is None:
                result.state_lines_compared = (result.state_lines_compared or 0) + 1
                return
            first = first or later
        if self.site_stalled(line) and self._difference(line, line + 1, ahead) is None:
            # the site's line is stale: its state after the chat line that wakes it is its own
            result.state_lines_compared = (result.state_lines_compared or 0) + 1
            return
        if self.closes_late(line) and self._difference(line, line, line + 1) is None:
            # the closure the site makes at its next action is compared at that action's line
            result.state_lines_compared = (result.state_lines_compared or 0) + 1
            return
        assert first is not None
        result.first_divergence = first
        raise StateDivergence(first, str(self.entries[line]["type"]), result)

    def site_stalled(self, line: int) -> bool:
        """Whether the site's line may be stale: a stock-round sale followed by a chat line.
        The site's stock round stalls after a sale that closes the corporation (its active
        step is remembered from before the closure) until its next action of any kind: its
        line after such a sale still stands where the sale left it, its line after the chat
        line (which changes nothing) is the state the sale led to."""
        if line + 1 >= len(self.entries) or self.entries[line].get("type") != "sell_shares":
            return False
        return self.entries[line + 1].get("type") == "message"

    def closes_late(self, line: int) -> bool:
        """Whether the site's line shows a corporation in the "Closed" box (L.0) still open,
        which its next line shows closed. The site closes such a corporation after an action
        (``Game::Base#action_processed``) but moves share prices at the end of a stock round
        later, as the next round begins (``transition_to_next_round!``): a price that enters
        the box there is closed only after the site's next action, where tresham closes the
        corporation at once (random game 3 players seed 128: ATA's price enters it at the end
        of the stock round the site plays by itself after ATA's issue; its L.82 goes to the
        bank when SFA lays its tile)."""
        if line + 1 >= len(self.states):
            return False
        now, then = self.states[line]["corps"], self.states[line + 1]["corps"]
        return any(
            corp.get("floated") and corp.get("price") == 0 and not then.get(sym, {}).get("floated")
            for sym, corp in now.items()
        )

    def _difference(self, line: int, at: int, ahead: int) -> Divergence | None:
        """The first difference between tresham's state and the site's line `at` (for the
        action of `line`), or None."""
        state = self.states[at]
        waiting = site_active(state, self.names)
        game = aligned_game(self.game, waiting)
        site = site_view(state)
        ours = our_view(game, self.ids, self.penalty)
        # who acts next: one of the entities the site waits for
        active = game.active_entity()
        site["active"] = sorted(self.ids.get(e, e) for e in waiting)
        mine = [] if active is None else [self.ids.get(active, active)]
        ours["active"] = site["active"] if active in waiting else mine
        if state.get("finished") and game.state.finished:
            ours["active"] = site["active"]  # over: the site's last step still names someone
        skip: set[str] = set()
        if ahead > line:
            later = site_view(self.states[ahead])
            skip = {k for k, v in site.items() if later.get(k) != v}
        key = first_difference(site, ours, skip)
        if key is None:
            return None
        return Divergence(int(self.states[line]["id"]), key, site[key], ours.get(key))

    def site_only_pass(self, line: int, waiting: set[str]) -> bool:
        """Whether the site's next action is a pass by the entity it waits for, at a step
        tresham does not have: then tresham's state is compared with the site's after that
        pass. Only a ``pass`` (or a ``run_routes`` with no route) by a waiting entity
        counts."""
        if line + 1 >= len(self.entries):
            return False
        after = self.entries[line + 1]
        kind = after.get("type")
        if kind == "run_routes" and not after.get("routes"):
            kind = "pass"
        if kind != "pass":
            return False
        entity = str(after.get("entity"))
        name = self.names.get(entity, entity) if after.get("entity_type") == "player" else entity
        return name in waiting

    def no_run_after_pass(self, line: int) -> bool:
        """Whether the site's pass after `line` is followed by the same entity's
        ``run_routes`` with no route: tresham, past both steps, is then compared with the
        site's line after that run. The site's Token step stays open for a corporation that
        closed SMS even where no city is left to it (``G1849::Step::Token#can_place_token?``
        asks only ``entity.sms_hexes`` and a token in hand), and its Route step then waits for
        a run of nothing, where the withheld price moves (random games 3 players seed 449,
        5 players seed 469: a corporation closes SMS to lay 675 in Siracusa, whose one slot
        is taken)."""
        if line + 2 >= len(self.entries) or self.entries[line + 1].get("type") != "pass":
            return False
        run = self.entries[line + 2]
        return _no_run([run]) and run.get("entity") == self.entries[line + 1].get("entity")

    def finish(self, result: ImportResult) -> None:
        """Every line was compared: record it (also for an empty log)."""
        result.state_lines_compared = len(self.states)


def _no_run(later: list[dict[str, Any]]) -> bool:
    """Whether the next site action is a ``run_routes`` with no route: the site's Route step
    left open where tresham found nothing to run (tresham has moved past it)."""
    return bool(later) and later[0].get("type") == "run_routes" and not later[0].get("routes")


def _passes_to_the_end(game: Game) -> None:
    """After the last action of a finished export: the passes the site makes by itself (a
    stock-round player with nothing to do but pass), which the export leaves out. Where no one
    can act, the site plays its rounds on by itself to its end (1849: its limit of 100 stock
    rounds, ruling S28, or tresham's end of a game nothing can change, R13)."""
    while not game.state.finished and passes_by_itself(game):
        active = game.active_entity()
        assert active is not None
        game.apply(Pass(active))


def _site_pass(ctx: SiteContext, action: dict[str, Any]) -> None:
    """A site pass: tresham's pass if tresham is waiting for this entity and may pass, after
    the passes of entities before it that can do nothing but pass (the site skips those by
    itself, the entity's own turn too where it can only pass); otherwise the site stopped
    at a step tresham does not have, and nothing changes."""
    game = ctx.game
    entity = ctx.entity(action)
    if game.active_entity() != entity or passes_by_itself(game):
        # the site also ends by itself the turn of a player who can only pass (having
        # bought): its pass is then the one of the player's next turn where it can act
        skipped = aligned_game(game, {entity})
        if skipped is game and game.active_entity() != entity:
            return
        for _ in range(len(skipped.actions) - len(game.actions)):
            active = game.active_entity()
            assert active is not None
            game.apply(Pass(active))
    with contextlib.suppress(RuleError):
        game.apply(Pass(entity))


def _apply_aligned(game: Game, action: Action) -> None:
    """Apply `action`; if tresham rejects it while waiting at a step of its own, pass that
    step (and the next ones) as long as doing so makes the action legal (a few, besides the
    passes of stock-round players who can only pass, which the site makes by itself). If
    nothing does, the error raised is the action's own once it is its entity's turn."""
    try:
        game.apply(action)
        return
    except RuleError as first:
        error = first
    trial = game.clone()
    passes = own = 0  # own: passes of players the site passes by itself (not counted)
    while passes - own < MAX_ALIGNING_PASSES and passes < MAX_SKIPPED_PASSES:
        active = trial.active_entity()
        if active is None:
            break
        by_itself = passes_by_itself(trial)
        try:
            trial.apply(Pass(active))
        except RuleError:
            break
        passes += 1
        own += by_itself
        try:
            trial.apply(action)
        except NotYourTurnError:
            continue
        except RuleError as later:
            error = later  # once it is the entity's turn, its own error says more
            continue
        for _ in range(passes):
            active = game.active_entity()
            assert active is not None
            game.apply(Pass(active))
        game.apply(action)
        return
    raise error


# ---------------------------------------------------------------------------- common actions
def translate_common(ctx: SiteContext, action: dict[str, Any]) -> list[Action]:
    """The site actions every title shares (FORMAT.md's table), as tresham's actions."""
    kind = action["type"]
    entity = ctx.entity(action)
    if kind == "bid":
        return [Bid(entity, str(action["company"]), int(action["price"]))]
    if kind == "buy_shares":
        corp, percent = _share_corp(action), int(action["percent"])
        if entity in ctx.game.state.corps:
            _move_site_certs(ctx, action, "treasury")
            return [RedeemShares(entity, percent)]
        source = _share_source(ctx, action, adapter_for(ctx.export.title))
        _move_site_certs(ctx, action, "owner")
        return [BuyShares(entity, corp, source, percent)]
    if kind == "sell_shares":
        corp, percent = _share_corp(action), int(action["percent"])
        _move_site_certs(ctx, action, "pool")
        if entity in ctx.game.state.corps and entity == corp:
            return [IssueShares(entity, percent)]
        state = ctx.game.state
        last = any(state.shares.certs[c].last for c in action["shares"] if c in state.shares.certs)
        seller = entity
        active = ctx.game.active_entity()
        if active in state.corps and state.shares.president.get(active) == entity:
            seller = active  # the president raising money for the corporation's train
        return [SellShares(seller, corp, percent, last)]
    if kind == "lay_tile":
        tile_id = str(action["tile"])
        ctx.tiles[tile_id] = str(action["hex"])
        name = tile_id.rpartition("-")[0] or tile_id
        return [LayTile(entity, str(action["hex"]), name, int(action["rotation"]))]
    if kind == "place_token":
        hex_, city = site_city(ctx, str(action["city"]))
        return [PlaceToken(entity, hex_, city)]
    if kind == "dividend":
        return [Dividend(entity, str(action["kind"]))]
    if kind == "buy_train":
        return [BuyTrain(entity, str(action["train"]), int(action["price"]))]
    if kind == "discard_train":
        return [DiscardTrain(entity, str(action["train"]))]
    if kind == "buy_company":
        return [BuyCompany(entity, str(action["company"]), int(action["price"]))]
    if kind == "assign":
        return [UseCompany(entity, str(action["entity"]), str(action["target"]))]
    if kind == "bankrupt":
        return [Bankrupt(entity)]
    if kind == "end_game":
        raise ImportFailure(
            "field type: the game was ended by hand on 18xx.games ('end_game'); tresham plays "
            "a game to the end its rules give and cannot replay a manual end (ruling V10)"
        )
    raise ImportFailure(f"field type: tresham cannot translate {kind!r}")


def _share_corp(action: dict[str, Any]) -> str:
    shares = action.get("shares") or []
    if not shares:
        raise ImportFailure("field shares: empty")
    return str(shares[0]).rpartition("_")[0]


def started_on_site(ctx: SiteContext, corp: str) -> None:
    """A corporation starts (again): its certificates are in its treasury, but the
    president's, which its founder holds."""
    for cid in [c for c in ctx.cert_places if c.rpartition("_")[0] == corp]:
        del ctx.cert_places[cid]
    ctx.cert_places[f"{corp}_0"] = "owner"


def _move_site_certs(ctx: SiteContext, action: dict[str, Any], place: str) -> None:
    for cid in action["shares"]:
        ctx.cert_places[str(cid)] = place


def _share_source(ctx: SiteContext, action: dict[str, Any], adapter: SiteAdapter) -> str:
    """Where a bought certificate comes from. The import follows where each certificate went
    by the site's own actions (certificates start in the treasury); a certificate the site
    moved by itself (a presidency exchange) is looked for where tresham offers one of that
    size; where both treasury and pool offer one, the title's own account of the site's
    certificates (``cert_holder``) tells."""
    reg = ctx.game.state.shares
    cid = str(action["shares"][0])
    corp = cid.rpartition("_")[0]
    place = ctx.cert_places.get(cid, "treasury")
    if place in ("treasury", "pool"):
        return place
    percent = int(action["percent"])
    sources = (("treasury", treasury(corp)), ("pool", POOL))
    places = [n for n, where in sources if any(c.percent == percent for c in reg.held(where, corp))]
    if len(places) > 1:
        held = adapter.cert_holder(ctx, cid)
        places = [n for n, where in sources if where == held]
    if len(places) != 1:
        raise ImportFailure(f"field shares: cannot tell where {cid} comes from")
    return places[0]


def site_city(ctx: SiteContext, ref: str) -> tuple[str, int]:
    """The (hex, node index) of a site city reference ``"<tile id>-<city index>"``; a
    preprinted hex's tile id is ``"<hex>-0"``. A city index beyond the cities of a one-city
    hex names that city."""
    tile_id, _, index = ref.rpartition("-")
    hex_ = ctx.tiles.get(tile_id)
    if hex_ is None:
        coord = tile_id.rpartition("-")[0]
        if coord not in ctx.game.state.map.board.hexes:
            raise ImportFailure(f"field city: no tile {tile_id!r} on the map")
        hex_ = coord
    nodes = ctx.game.state.map.tile(hex_).nodes
    cities = [i for i, n in enumerate(nodes) if n.kind == "city"]
    k = int(index)
    if k < len(cities):
        return hex_, cities[k]
    if len(cities) == 1:
        return hex_, cities[0]
    raise ImportFailure(f"field city: {hex_} has no city {k}")
