"""The title interface: data and hooks a title supplies to the generic engine.

The engine drives rounds and prompts; a title says how a game is set up, which rounds follow
each other, and answers the questions rules differ on. Each title subclasses `Title` in its
own rules module.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar

from tresham.core import deals
from tresham.core.actions import Action, BuyShares, Par, SellShares
from tresham.core.display import FactTable, MapMarker
from tresham.core.end import EndReason
from tresham.core.errors import RuleError
from tresham.core.game_spec import RNG_OPTION, OptionSpec
from tresham.core.prompts import COMMON, Prompt
from tresham.core.rounds.operating import OperatingRound, Turn
from tresham.core.rounds.stock import StockRound
from tresham.core.trains import Phase

if TYPE_CHECKING:
    from tresham.core.game import Game, GameState
    from tresham.core.rounds.auction import WaterfallAuction
    from tresham.core.rounds.base import Round
    from tresham.core.rounds.operating import Step
    from tresham.core.rules_protocols import TrackRules, TrainSpec
    from tresham.routes.optimizer import RouteSolution


def title_data(package: str, name: str = "data/game.json") -> dict[str, Any]:
    """A JSON data file shipped with a title's package (its game tables, manifest...)."""
    text = resources.files(package).joinpath(name).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@functools.cache
def _abilities(package: str) -> dict[str, str]:
    """A title package's private-company abilities by symbol (none without the file)."""
    path = resources.files(package).joinpath("data/abilities.json")
    if not path.is_file():
        return {}
    data: dict[str, str] = json.loads(path.read_text("utf-8"))
    return data


class Title:
    """Base of every title. Subclasses set the data attributes and override hooks."""

    name = ""
    player_range = (2, 6)
    phases: list[Phase]
    #: Bumped by every fix that changes the outcome of some action log; a save records it,
    #: and a save made under another version is refused rather than replayed differently,
    #: unless the version is in `older_rules`: the title still plays those (it asks
    #: ``game.rules_version`` where they differ), so their saves replay as they were played.
    rules_version = 1
    older_rules: frozenset[int] = frozenset()
    #: The options the title offers besides the generator (``core/game_spec.py``).
    declared_options: tuple[OptionSpec, ...] = ()

    def for_rules(self, rules_version: int) -> Title:
        """The title object that plays a game of `rules_version` (one of `rules_version` and
        `older_rules`): this one, unless the title's data changed between versions (e.g.
        1854's board, whose older saves keep the edition they were played on)."""
        return self

    def info(self, game: Game) -> dict[str, Any]:
        """What the title adds to or changes in ``tresham info`` (``tresham/info.py``) for a
        new game `game`: e.g. a tile manifest that counts tiles the map's supply does not
        hold, or facts only this title's board has."""
        return {}

    def option_specs(self) -> tuple[OptionSpec, ...]:
        """Every option a game of this title may be given."""
        return (RNG_OPTION, *self.declared_options)

    # -------------------------------------------------------------- set-up & sequence
    def setup(self, game: Game) -> GameState:
        """Build the initial state (players' cash, companies, corporations, map...)."""
        raise NotImplementedError

    def next_round(self, game: Game) -> Round:
        """The round that follows the current (finished) one."""
        raise NotImplementedError

    # -------------------------------------------------------------- stock round hooks
    extra_buys_after_par = 0
    privates_count_toward_limit = True
    #: A player who buys a share before selling anything may then sell (1883 §5.1 option 5).
    sell_after_buy = False

    def other_purchases(self, game: Game, player: str) -> list[Action]:
        """Purchases other than shares that may be a turn's one buy (e.g. 1883's Political
        Support cards and Government Concessions)."""
        return []

    def other_purchase(self, game: Game, player: str, action: Action) -> None:
        """Apply one of `other_purchases`."""
        raise NotImplementedError

    def trains_toward_limit(self, game: Game, corp: str) -> int:
        """How many of `corp`'s trains count toward its train limit (all, by default)."""
        return len(game.state.corps[corp].trains)

    def pool_may_exceed(self, game: Game, corp: str) -> bool:
        """Whether the rules have let the pool hold more than 50% of `corp` (e.g. 1883's
        bankrupt player's shares)."""
        return False

    def turn_lost(self, game: Game, player: str) -> bool:
        """Whether `player`'s stock-round turn now is one a title's rule passes: he may only
        pass (1849's ruling S27)."""
        return False

    def pass_problem(self, game: Game, player: str) -> RuleError | None:
        """Why `player` may not end the turn now (e.g. 1883's SARSA holding rule), if so."""
        return None

    def over_cert_limit(self, game: Game, player: str) -> bool:
        """Whether `player` holds more certificates than the limit (must sell)."""
        raise NotImplementedError

    def certificate_limit(self, game: Game) -> int | None:
        """How many certificates a player may hold now (None: no figure applies)."""
        return None

    def sellable_corps(self, game: Game, player: str) -> list[str]:
        """Corporations `player` may sell now."""
        raise NotImplementedError

    def sell_bundles(self, game: Game, player: str, corp: str) -> list[tuple[int, bool]]:
        """(percent, includes the last certificate) of each legal sale."""
        raise NotImplementedError

    def sell_shares(self, game: Game, player: str, action: SellShares) -> None:
        """Apply a sale."""
        raise NotImplementedError

    def buy_options(self, game: Game, player: str, sold: list[str]) -> list[BuyShares]:
        """Legal single-certificate purchases (`sold`: corporations sold this round)."""
        raise NotImplementedError

    def buy_shares(self, game: Game, player: str, action: BuyShares) -> None:
        """Apply a purchase."""
        raise NotImplementedError

    def par_options(self, game: Game, player: str) -> list[Par]:
        """Legal ways to start a corporation."""
        raise NotImplementedError

    def par(self, game: Game, player: str, action: Par) -> None:
        """Start a corporation."""
        raise NotImplementedError

    # -------------------------------------------------------------- auction hooks
    def on_company_bought(self, game: Game, company: str, player: str) -> None:
        """A private was bought in the auction (e.g. it brings a share)."""

    def on_auction_all_passed(self, game: Game, rnd: WaterfallAuction) -> None:
        """Every player passed in succession during the private auction."""

    # -------------------------------------------------------------- operating round hooks
    step_objects: dict[str, Step] = {}
    #: What a corporation's turn remembers (``core/rounds/operating.py``): a title whose steps
    #: remember more than core's facts names its subclass of `Turn`.
    turn_record: ClassVar[type[Turn]] = Turn
    #: The kinds of the actions a corporation may take at any point of its turn
    #: (`anytime_actions`): an action of one of them is validated and carried out as one
    #: (`anytime_validate`, `anytime_process`), never by a step.
    anytime_types: frozenset[str] = frozenset()
    #: What the title's rules call the holder of the president's certificate (1854:
    #: "Director"), in the log's words for a presidency changing hands.
    president_word: ClassVar[str] = "president"
    #: How many work units of the search bot (``bots/search.py``: an action played on a
    #: search copy) a second of its budget buys: what a unit costs depends on the title's
    #: board and trains (``benchmarks/hard.py --calibrate`` measures it).
    search_units_per_second: ClassVar[int] = 800

    def controller(self, game: Game, entity: str) -> str | None:
        """The player who decides for `entity`: a corporation's president, else the entity."""
        if entity in game.state.corps:
            return game.state.shares.president.get(entity)
        return entity

    def step_actor(self, game: Game, rnd: OperatingRound, corp: str) -> str:
        """Who acts in the operating corporation's turn (default: the corporation)."""
        return corp

    def anytime_actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        """Actions allowed at any point of the turn (representatives)."""
        return []

    def anytime_validate(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
        """Raise RuleError unless `action`, of an anytime kind (`anytime_types`), is legal now
        (default: one that `anytime_actions` lists; a title may accept more, such as a
        private bought at any price of its range where the list names the range's ends)."""
        if action not in self.anytime_actions(game, rnd, corp):
            raise RuleError(f"{action.describe()} is not open to {corp} now", "anytime action")

    def anytime_process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
        """Apply an anytime action."""

    def start_turn(self, game: Game, rnd: OperatingRound, corp: str) -> None:
        """Before the first step of a corporation's turn."""

    def end_turn(self, game: Game, rnd: OperatingRound, corp: str) -> None:
        """After the last step of a corporation's turn."""

    # -------------------------------------------------------------- standing limits
    def restore_limits(self, game: Game) -> None:
        """Put right at once what a change of holdings made exceed a limit the rules keep at
        all times, whatever the change was (a sale, an event, a discard, a merger). Called
        after an action is processed and after every settling of the round, before anyone
        decides again. Default: nothing."""

    def limit_violations(self, game: Game) -> list[str]:
        """The title's own limits that do not hold now (checked after every action by
        `tresham simulate`). Default: none."""
        return []

    # -------------------------------------------------------------- search copies
    def unknown(self, game: Game) -> object:
        """What the rules keep from every player and the game's seed decides, as a value to
        compare (e.g. the order of the undrawn cards); None: nothing (what the seed decides
        is drawn at setup, in the open, and the seed gives nothing away). While it is not
        None the seed is a secret until the game ends (`Game.keeps_secrets`); an action that
        changes it, or draws from the generator, revealed hidden information
        (`Game.revealed`). Default: None; a title that draws from its generator in play
        returns at least a value that is not None."""
        return None

    def hide_unknown(self, game: Game, rng: random.Random) -> None:
        """Re-randomise, in a bot's search copy, what no player can know yet (e.g. the order
        of undrawn cards); its generator has already been reseeded. Default: nothing."""

    # -------------------------------------------------------------- deals
    def deals_need_consent(self, game: Game) -> bool:
        """Whether a train or private bought from a company or player that another person
        controls waits for the seller's answer (``core/deals.py``). Default: no (a title
        whose rules let the price be agreed says yes)."""
        return False

    #: What the title's rulebook calls its rounds, by kind, as the table's headings and the
    #: log name them: a stock or operating round with its number after it ("Stock round 2",
    #: 1854's "Share Buying Round 2"), any other as it is.
    round_names: ClassVar[Mapping[str, str]] = {
        "stock": "Stock round",
        "operating": "Operating round",
    }

    def money(self, amount: int) -> str:
        """An amount in the title's currency, as its players write it (e.g. "L.100")."""
        return f"L.{amount}"

    def company_ability(self, sym: str) -> str:
        """What a private company does, as its rulebook says it (the title's
        ``data/abilities.json``); "" when the title says nothing of it."""
        return _abilities(type(self).__module__.rsplit(".", 1)[0]).get(sym, "")

    def company_group(self, game: Game, sym: str) -> str:
        """The heading a private company is listed under where players' holdings are shown
        ("privates"; a title whose certificates of another kind are private companies in
        the rules names their own heading)."""
        return "privates"

    def action_words(self, game: Game, action: Action, words: Any) -> str | None:
        """One of the title's own actions in a player's words (`words`: the game's
        ``tresham.words.Words``, for its names of places, trains and money); None: the
        common wording serves."""
        return None

    def why_closes(self, game: Game, action: Action, corp: str) -> str:
        """Why `action`, played in `game`, closes the corporation `corp`, in a player's words
        with the rule ("its share price enters the Closed section (5.8)"); "": the warning
        that it closes says no more."""
        return ""

    def price_range(self, game: Game, action: Action) -> tuple[int, int] | None:
        """The prices the acting side may name for a listed `action` instead of the one it
        is listed at (both ends legal, and every price between), where the title lists one
        price of a range; None: the listing shows the range, or there is none."""
        return None

    # -------------------------------------------------------------- prompts
    #: The prompts the title puts beside the common ones (``core/prompts.py``), by kind.
    prompts: ClassVar[Mapping[str, Prompt]] = {}
    #: How the log says a train given back over the limit (``{corp}``, ``{train}``).
    discard_log: ClassVar[str] = "{corp} discards its {train} train"

    def counts_toward_limit(self, game: Game, tid: str) -> bool:
        """Whether the train `tid` counts toward its owner's train limit (all do, by
        default); only those are offered when the owner must give trains back."""
        return True

    def prompt(self, kind: str) -> Prompt:
        """The registered prompt of `kind`: the title's (``prompts``), else a common one."""
        prompt = self.prompts.get(kind) or COMMON.get(kind)
        if prompt is None:
            raise RuleError(f"{self.name} has no prompt {kind}", kind)
        return prompt

    # -------------------------------------------------------------- dispatch
    def active_entity(self, game: Game) -> str:
        """The entity to act: the first pending prompt's, else the round's."""
        s = game.state
        if s.pending:
            return s.pending[0][1]
        assert s.round is not None
        return s.round.active(game)

    def legal_actions(self, game: Game) -> list[Action]:
        """Legal actions of the entity to act."""
        s = game.state
        if s.pending:
            kind, entity = s.pending[0]
            return self.prompt(kind).actions(game, entity)
        assert s.round is not None
        return s.round.actions(game)

    def may_act_out_of_turn(self, game: Game, action: Action) -> bool:
        """Whether `action.entity` may act although it is not the active entity."""
        return False

    def validate(self, game: Game, action: Action) -> None:
        """Raise RuleError unless `action` is legal now."""
        s = game.state
        if s.pending:
            kind, entity = s.pending[0]
            self.prompt(kind).validate(game, entity, action)
            return
        assert s.round is not None
        s.round.validate(game, action)

    def process(self, game: Game, action: Action) -> None:
        """Apply a validated action."""
        s = game.state
        if s.pending:
            kind, entity = s.pending.pop(0)
            self.prompt(kind).process(game, entity, action)
            return
        offer = deals.offer_for(game, action)
        if offer is not None:
            deals.propose(game, offer)
            return
        assert s.round is not None
        s.round.process(game, action)

    def advance(self, game: Game) -> None:
        """Skip what needs no decision, start the next rounds, and detect the game end."""
        s = game.state
        for _ in range(10_000):
            self.restore_limits(game)
            if s.finished or s.pending:
                return
            if s.round is None or s.round.finished(game):
                if self.check_end(game, round_over=True):
                    return
                s.round = self.next_round(game)
                continue
            before = len(s.events)
            s.round.settle(game)
            self.restore_limits(game)
            if self.check_end(game, round_over=False):
                return
            if s.pending:
                return
            if s.round.finished(game):
                continue
            if len(s.events) == before:
                return
        raise RuntimeError("the game does not advance")

    # -------------------------------------------------------------- end & scores
    def check_end(self, game: Game, round_over: bool) -> bool:
        """Finish the game if an end condition is met now; returns whether it ended."""
        return False

    def finish(self, game: Game, reason: EndReason) -> None:
        """End the game now, for `reason`."""
        s = game.state
        if not s.finished:
            s.finished = True
            s.end_reason = reason
            game.log(f"Game over: {reason.words}")

    def counters(self, game: Game) -> dict[str, int]:
        """Title-specific tallies of a game for simulation summaries (e.g. events drawn)."""
        return {}

    def cash_aside(self, game: Game) -> int:
        """Money the rules have taken out of the bank and set aside for now (default: none);
        it counts toward the money in the game."""
        return 0

    def begin_operating_set(self, game: Game) -> None:
        """A set of operating rounds begins: as many as the phase gives now; if the bank
        broke during the stock round just ended, this set is the last (see
        :meth:`bank_break_end`)."""
        s = game.state
        s.ors_in_set = self.phases[s.phase_index].operating_rounds
        s.or_in_set = 0
        if s.extra.pop("bank_broke_in_sr", False):
            s.extra["final_set"] = True

    def bank_break_end(self, game: Game, round_over: bool) -> bool:
        """The common 18xx end when the bank breaks: broken in a stock round, one more complete
        set of operating rounds is played; broken in an operating round, the current set is
        completed. Call from `check_end`; returns whether the game has ended."""

        s = game.state
        if s.finished:
            return True
        if s.bank.broken and s.end_trigger is None:
            s.end_trigger = "bank"
            if isinstance(s.round, StockRound):
                s.extra["bank_broke_in_sr"] = True
            else:
                s.extra["final_set"] = True
        if (
            round_over
            and s.extra.get("final_set")
            and isinstance(s.round, OperatingRound)
            and s.or_in_set >= s.ors_in_set
        ):
            self.finish(game, EndReason.BANK)
        return s.finished

    def scores(self, game: Game) -> dict[str, int]:
        """Final scores by player name, as the title's rules count them."""
        raise NotImplementedError

    def raw_scores(self, game: Game) -> dict[str, int]:
        """Scores before any title-specific floor (same as `scores` by default)."""
        return self.scores(game)

    def describe_state(self, game: Game) -> dict[str, Any]:
        """Title-specific facts for displays (e.g. which corporation starts next)."""
        return {}

    def fact_tables(self, game: Game) -> list[FactTable]:
        """The title's own facts as tables in players' words (e.g. who holds which
        concession, its deadline and penalty). Default: none."""
        return []

    def corporation_holds(self, game: Game, corp: str) -> list[str]:
        """What `corp` holds besides trains, stations, shares and privates, each in a few
        words for its row of the corporations table (e.g. a mail contract). Default:
        nothing."""
        return []

    def train_note(self, kind: str) -> str:
        """What a train type does that the common trains do not, in players' words (e.g.
        1883's 2G); "" for a common train."""
        return ""

    def map_markers(self, game: Game) -> list[MapMarker]:
        """The title's own tokens on the map beside stations and tiles (e.g. port tokens).
        Default: none."""
        return []

    def route_inputs(self, game: Game, corp: str) -> tuple[list[TrainSpec], TrackRules]:
        """`corp`'s trains that run for revenue and the route rules of the current position."""
        raise NotImplementedError

    def best_routes(self, game: Game, corp: str) -> RouteSolution:
        """The optimizer's runs for `corp`'s trains in the current position."""
        # routes builds on core (its graph and tiles): core reaches it only when asked
        from tresham.routes import solve

        trains, rules = self.route_inputs(game, corp)
        return solve(game.state.map, corp, trains, rules)

    def has_routes(self, game: Game, corp: str) -> bool:
        """Whether `best_routes` would give `corp` any run, found without optimizing."""
        from tresham.routes import has_run  # as in best_routes

        trains, rules = self.route_inputs(game, corp)
        return has_run(game.state.map, corp, trains, rules)
