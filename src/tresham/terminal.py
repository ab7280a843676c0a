"""The terminal table (Rich): shows the game and the legal actions to choose from, and the
moves of the players bots play."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from tresham.core.actions import Action
from tresham.core.game import Game
from tresham.core.shares import POOL, treasury
from tresham.offers import offer_facts, waiting_text
from tresham.words import Words, bank_words, round_label


class Terminal:
    """Draws a game as readable tables."""

    def __init__(
        self, game: Game, console: Console | None = None, bots: dict[str, str] | None = None
    ) -> None:
        self.game = game
        self.console = console or Console()
        #: The players bots play, and each bot's level.
        self.bots: dict[str, str] = dict(bots or {})

    #: Whether the players may ask for a hint (`tresham play --hints`).
    hints: bool = False

    def who(self, player: str) -> str:
        """A player's name, with its bot's level if a bot plays it: "Cid (bot, easy)"."""
        level = self.bots.get(player)
        return player if level is None else f"{player} (bot, {level})"

    def show(self) -> None:
        """Print the whole table: round, players, corporations, trains, board, log."""
        g = self.game
        s = g.state
        c = self.console
        money = g.title.money
        c.rule(
            f"[bold]{g.title.name}[/bold] · {round_label(g)} · phase {g.phase.name} · "
            f"bank {bank_words(s.bank.cash, s.bank.broken, money)}"
        )
        players = Table(title="Players", show_lines=False)
        # privates, and any other kind of private certificate under its own heading
        group = {co: g.title.company_group(g, co) for co in s.companies}
        groups = list(dict.fromkeys(group.values()))
        for col in ("", "player", "cash", "certs", *groups, "loans"):
            players.add_column(col)
        for i, p in enumerate(s.players):
            certs = ", ".join(
                f"{sym} {pct}%" for sym in s.corps if (pct := s.shares.percent(p.name, sym))
            )
            owned = [co.sym for co in s.companies.values() if co.owner == p.name and not co.closed]
            mark = "P" if i == s.priority else ""
            players.add_row(
                mark,
                self.who(p.name) + (" (out)" if p.bankrupt else ""),
                money(p.cash),
                certs,
                *(", ".join(co for co in owned if group[co] == kind) for kind in groups),
                str(p.loans or ""),
            )
        c.print(players)
        corps = Table(title="Corporations")
        for col in (
            "corp",
            "president",
            "price",
            "cash",
            "trains",
            "tokens",
            "treasury",
            "pool",
            "privates",
        ):
            corps.add_column(col)
        words = Words(g)
        for sym, corp in s.corps.items():
            if not corp.parred:
                continue
            corps.add_row(
                sym,
                s.shares.president[sym] or "",
                money(s.market.price(sym)) if sym in s.market else "",
                money(corp.cash),
                " ".join(words.train(t) for t in corp.trains),
                f"{len(corp.placed)}/{corp.tokens}",
                f"{s.shares.percent(treasury(sym), sym)}%",
                f"{s.shares.percent(POOL, sym)}%",
                " ".join(
                    co.sym for co in s.companies.values() if co.owner == sym and not co.closed
                ),
            )
        c.print(corps)
        for sym, corp in s.corps.items():  # what each holds besides (Title.corporation_holds)
            for line in g.title.corporation_holds(g, sym) if corp.parred else []:
                style = "bold red" if line.startswith("\N{WARNING SIGN}") else "default"
                c.print(f"[{style}]{escape(sym)}: {escape(line)}[/{style}]")
        extra = g.title.describe_state(g)
        if extra:
            c.print(" · ".join(f"{k}: {v}" for k, v in extra.items()))
        for facts in g.title.fact_tables(g):
            if not facts.rows:
                continue
            own = Table(title=facts.title, caption=escape(facts.note) or None)
            for col in facts.head:
                own.add_column(escape(col))
            for row in facts.rows:
                own.add_row(*(escape(cell) for cell in row))
            c.print(own)
        depot = s.depot.purchasable(set(s.phases_reached))
        c.print(
            "Trains for sale: "
            + ", ".join(f"{t.kind} {money(s.depot.types[t.kind].price)}" for t in depot)
        )
        placed = [f"{h}:{t}/{r}" for h, (t, r) in sorted(s.map.tiles.items())]
        if placed:
            c.print("Board: " + "; ".join(placed))
        for line in s.events[-8:]:
            c.print(f"[dim]{line}[/dim]")

    def show_bot_move(self, player: str, action: Action, note: str = "") -> None:
        """One line for a move made without a key pressed (before it is applied): a bot's
        or a standing order's (`note`); who makes it (a bot's level), and what it does, in
        the words the table uses (tresham/words.py)."""
        text = Words(self.game).text(action) + (f" {note}" if note else "")
        self.console.print(f"[cyan]{escape(self.who(player))}:[/cyan] {escape(text)}")

    def show_actions(self, actions: list[Action]) -> None:
        """Number the legal actions of the entity to act, each in words with what it
        would do (tresham/words.py), under the step of the turn they belong to."""
        who = self.game.active_entity()
        player = self.game.acting_player()
        offer = offer_facts(self.game)
        if offer is not None:
            self.console.print(f"[bold yellow]Offer:[/bold yellow] {escape(waiting_text(offer))}")
        words = Words(self.game)
        step = words.step()[0]
        undo = (
            "no undo: the last action revealed hidden information"
            if self.game.revealed()
            else "u=undo"
        )
        self.console.print(
            f"[bold]{who}[/bold] to act ({player}){f': {step}' if step else ''}. "
            f"Type a number (and an amount for bids/prices), {undo}, o=standing orders, "
            f"{'?=hint, ' if self.hints else ''}q=quit."
        )
        for i, choice in enumerate(words.choices(actions)):
            effects = (
                f"  [dim]({escape('; '.join(choice.effects))})[/dim]" if choice.effects else ""
            )
            warnings = "".join(
                f"\n         [bold red]! {escape(w)}[/bold red]" for w in choice.warnings
            )
            self.console.print(f"  {i:3}  {escape(choice.text)}{effects}{warnings}")
