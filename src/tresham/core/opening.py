"""A game's opening state, read from the title's data tables (``data/game.json``): the bank
and the players' starting money, the corporations and their certificates, the private
companies, the trains, and the map with every corporation's home cities reserved.

The rows are read the one way every title writes them (docs/data-format.md):

- the bank: ``bank`` (its money) and ``starting_cash`` (players → each one's money);
- a corporation: ``sym``, ``name``, ``kind`` (else the kind the title gives), ``shares``
  (the certificates' sizes, the president's first), its station tokens (``tokens``, else one
  per ``token_costs`` entry), ``token_fee``, and its home (``home``: a hex or ``[hex, city]``;
  else the first of ``homes``);
- a private company: ``sym``, ``name``, ``value``, ``revenue``, and the facts of its power
  the title names;
- a train type: ``name``, ``distance``, ``price``, how many there are (``count``, or the
  column the title names), ``rusts_on``, ``events``, ``available_on``, ``title``; a row with
  an ``option`` is in a game only with that option on.

What differs between titles is a parameter: which rows, the corporations' default kind,
whether the last certificate is marked, the train count's column, when a train type is
offered, the market's movement, the generator. What is a title's own (a drawn order of
corporations, a kind of company of its own, a corporation that starts in play) the title
adds to the :class:`Opening` or to the state after.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tresham.core.bank import Bank, seat_players
from tresham.core.entities import Company, Corporation
from tresham.core.game import GameState
from tresham.core.shares import ShareRegistry, treasury
from tresham.core.trains import Depot, TrainType

if TYPE_CHECKING:
    from tresham.core.game import Game
    from tresham.core.market import MarketState
    from tresham.core.rng import GameRandom
    from tresham.core.track import MapState

Row = Mapping[str, Any]


def _home(row: Row) -> str | None:
    """A corporation row's home hex: ``home`` (a hex, or ``[hex, city]``), else the first of
    ``homes``; None where it has none yet."""
    home = row.get("home")
    if isinstance(home, list):
        return str(home[0])
    if home is None and row.get("homes"):
        return str(row["homes"][0])
    return None if home is None else str(home)


def train_types(
    rows: Iterable[Row],
    options: Mapping[str, Any],
    *,
    count: str = "count",
    available_on: Callable[[Row], str | None] | None = None,
) -> list[TrainType]:
    """The train types of `rows` in a game with `options`: a row with an ``option`` only
    where that option is on; `count` names the column of how many there are; `available_on`
    gives the phase from which a type is offered out of turn (default: the row's own
    ``available_on``)."""
    return [
        TrainType(
            t["name"],
            t["distance"],
            t["price"],
            t[count],
            t.get("rusts_on"),
            tuple(t.get("events", ())),
            t.get("available_on") if available_on is None else available_on(t),
            title=t.get("title", ""),
        )
        for t in rows
        if t.get("option") is None or options.get(t["option"])
    ]


@dataclass
class Opening:
    """A game's opening, built from the title's data: the certificates and corporations so
    far (a title may add its own kinds to both before :meth:`state`)."""

    game: Game
    data: Row
    shares: ShareRegistry = field(default_factory=ShareRegistry)
    corps: dict[str, Corporation] = field(default_factory=dict)

    def charter(
        self, rows: Iterable[Row], *, kind: str = "major", last_certificate: bool = False
    ) -> None:
        """Add the corporations of `rows`, their certificates in their treasuries (their
        initial offerings); `kind` for a row that names none; `last_certificate`: the last
        of several certificates is marked as the last (a title that sells it apart)."""
        for row in rows:
            sym = str(row["sym"])
            tokens = row["tokens"] if "tokens" in row else len(row.get("token_costs", ()))
            self.corps[sym] = Corporation(
                sym,
                str(row["name"]),
                kind=str(row.get("kind", kind)),
                tokens=int(tokens),
                token_fee=int(row.get("token_fee", 0)),
                home=_home(row),
            )
            self.shares.add_corporation(sym, list(row["shares"]), last_certificate, treasury(sym))

    def state(
        self,
        *,
        market: MarketState,
        map_state: MapState,
        trains: Sequence[TrainType],
        companies: Iterable[Row] | None = None,
        powers: Sequence[str] = (),
        rng: GameRandom | None = None,
    ) -> GameState:
        """The opening state: the bank's money less what every player is given; the
        corporations chartered; the private companies of `companies` (default: the data's
        ``companies``), each with the facts of `powers` its row has; a depot of `trains` in
        the order given; on `map_state`, every chartered corporation's home cities reserved
        (in the board's order); the game's generator (`rng`, where the title drew from it
        already); the first phase reached."""
        game, data = self.game, self.data
        bank = Bank(data["bank"])
        cash = data["starting_cash"][str(len(game.player_names))]
        players = seat_players(bank, game.player_names, cash)
        rows = data["companies"] if companies is None else companies
        board = map_state.board
        for sym, homes in board.home_cities.items():
            if sym in self.corps:
                for coord, node in homes:
                    map_state.reserve(sym, coord, node)
        return GameState(
            players=players,
            bank=bank,
            corps=self.corps,
            companies={
                c["sym"]: Company(
                    c["sym"],
                    c["name"],
                    c["value"],
                    c["revenue"],
                    powers={k: c[k] for k in powers if k in c},
                )
                for c in rows
            },
            shares=self.shares,
            market=market,
            depot=Depot.build(list(trains)),
            map=map_state,
            rng=game.new_rng() if rng is None else rng,
            phases_reached=[game.title.phases[0].name],
        )
