"""Pop-up screens: the score sheet, the last trick, the help, and the result of the game."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from spades.legal import deck_of
from spades.rules import Rules
from spades.tui.view import ScoreSheet, TrickShown, card_label
from spades.tui.widgets import card_style

MODAL_CSS = """
ModalScreen { align: center middle; background: $background 60%; }
.dialog { width: auto; max-width: 100%; height: auto; max-height: 100%;
          border: round $accent; background: $surface; padding: 0 1; }
.dialog .title { text-style: bold; color: $accent; width: auto; }
.dialog .hint { color: $text-muted; width: auto; }
.dialog Static { width: auto; }
#sheet, #result { width: 78; }
#help-body { height: auto; width: auto; }
"""
"""Global CSS of the pop-ups (the app loads it: a screen's own CSS would be scoped to it)."""


def sheet_table(sheet: ScoreSheet, max_rows: int = 100) -> Table:
    """The score sheet as a table: one row per hand (the last ``max_rows``), columns per side."""
    table = Table(box=None, padding=(0, 0, 0, 1), pad_edge=False, show_edge=False, header_style="bold")
    table.add_column("Hand", justify="right", style="dim")
    per = len(sheet.columns)
    for side in sheet.sides:
        for i, col in enumerate(sheet.columns):
            head = f"{side}\n{col}" if i == 0 else f"\n{col}"
            table.add_column(
                head,
                justify="left" if i == 0 else "right",
                style="bold" if col.startswith("Total") else "",
                no_wrap=True,
            )
    rows = sheet.rows
    notes = []
    if len(rows) > max_rows:
        notes.append(f"the first {len(rows) - max_rows} hands are not shown")
        rows = rows[-max_rows:]
    for row in rows:
        table.add_row(*row)
    table.add_row("", *([""] * (per * len(sheet.sides))))
    totals: list[str] = []
    for k in range(len(sheet.sides)):
        cells = [""] * per
        cells[-1] = str(sheet.totals[k])
        if per == 5:
            cells[-2] = str(sheet.bags[k])
        totals += cells
    table.add_row("Now", *totals, style="bold")
    if any(cell.endswith("!") for row in sheet.rows for cell in row):
        notes.append("! = bag penalty")
    if notes:
        table.caption = "; ".join(notes)
    return table


def _rows_that_fit(screen: ModalScreen[None]) -> int:
    """Hands the sheet can list on this terminal (a long game shows its latest hands)."""
    return max(3, screen.app.size.height - 10)


class ScoreScreen(ModalScreen[None]):
    """The score sheet; shown after every hand and on request."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape,space,s", "close", "Continue"),
    ]

    def __init__(self, sheet: ScoreSheet, heading: str, footer: str = "Enter: continue") -> None:
        super().__init__()
        self.sheet = sheet
        self.heading = heading
        self.footer = footer

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="sheet"):
            yield Static(self.heading, classes="title")
            yield Static(sheet_table(self.sheet, _rows_that_fit(self)), id="sheet-table")
            yield Static(self.footer, classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)


class LastTrickScreen(ModalScreen[None]):
    """The last trick: who played what, in order, and who won it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape,space,p", "close", "Close")]

    def __init__(self, trick: TrickShown | None, names: dict[int, str]) -> None:
        super().__init__()
        self.trick = trick
        self.names = names

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="last-trick"):
            if self.trick is None:
                yield Static("No trick has been played yet.", classes="title")
            else:
                yield Static(f"Last trick (trick {self.trick.number})", classes="title")
                body = Text()
                for i, (seat, card) in enumerate(self.trick.plays):
                    lead = "  led" if i == 0 else ""
                    body.append(f"{self.names[seat]:>12} ")
                    body.append(f" {card_label(card):<3}", style=card_style(card))
                    won = " ★ won" if seat == self.trick.winner else ""
                    body.append(f"{lead}{won}\n")
                yield Static(body)
            yield Static("Enter: close", classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)


HELP_RULES = """\
Bid the tricks you will take, then take them: spades are trump, follow the
suit led if you can, and spades may not be led until one has been played."""

HELP_RULES_ANY_LEAD = """\
Bid the tricks you will take, then take them: spades are trump, follow the
suit led if you can; spades may be led at any time."""

HELP_KEYS = """\
[b]←/→[/b]  move between cards or choices     [b]Enter[/b]  play / bid / confirm
[b]A K Q J T 9..2[/b] then [b]S H D C[/b]  choose a card (10 is T or 0), Enter plays it
[b]0-13, N[/b]  choose a bid (N is Nil)        [b]L[/b]  look at your cards
[b]B[/b]  Blind Nil (before you look)          [b]Space[/b]  pick a card to pass
[b]K / D[/b]  keep or discard (two players)    [b]H[/b]  hint from the best bot
[b]P[/b]  the last trick                       [b]S[/b]  the score sheet
[b]?[/b]  this help                            [b]Ctrl+Q[/b]  save and quit

Mouse: click a card to play or pick it, click a choice to make it.
The game record is saved when the game ends and when you quit;
continue a saved game with: spades play --resume FILE"""


def house_rules_help(rules: Rules) -> list[str]:
    """One line per house rule in play (``docs/spec/house-rules.md``); none under the rules of
    ``rules.md``. The help lists them so the player knows what differs from plain Spades. Each
    line fits the 80-column help box (74 characters after its bullet)."""
    lines = []
    if rules.players == 3:
        lines.append("Three players, each for himself: 17 cards each (no 2♣), bids 0 to 17.")
    if rules.jokers == "big_little":
        lines.append("Jokers: BJ and LJ are the top spades (BJ, LJ, A♠ … 2♠); no 2♣ or 2♦.")
    elif rules.jokers == "jjdd":
        lines.append("Joker Joker Deuce Deuce: spades run BJ LJ 2♦ 2♠ A♠ … 3♠; no 2♥ or 2♣.")
    if rules.jokers is not None:
        lines.append("Type B then J for the Big Joker, L then J for the Little Joker.")
    if rules.bidding == "suicide":
        lines.append(f"Suicide: in each partnership one bids Nil, the other {rules.suicide_min} or more.")
    elif rules.bidding == "whiz":
        lines.append("Whiz: bid Nil or exactly the spades you hold (no spades: Nil).")
    elif rules.bidding == "mirror":
        lines.append("Mirror: every bid is the spades held, made for you (none: Nil).")
    if rules.team_min_bid:
        lines.append(f"Each partnership must bid {rules.team_min_bid} tricks or more in all.")
    if rules.big_bid is not None:
        lines.append(f"Big bid: a made contract of {rules.big_bid}+ scores 20 a trick, not 10.")
    if rules.nil_tricks == "partner":
        lines.append("A failed Nil's tricks count toward the partner's contract, not as bags.")
    if rules.spades_lead == "any":
        lines.append("Spades may be led at any time, broken or not.")
    return lines


def scoring_help(rules: Rules) -> str:
    """What the bids are worth under these rules: Nil, Blind Nil, bags (the help's middle)."""
    lines = []
    if rules.bags == "off":
        lines.append("Each trick over your bid scores 1 point; bags carry no penalty.")
    else:
        lines.append(
            f"Each trick over your bid is a bag (1 point); "
            f"{rules.bag_limit} bags cost {rules.bag_penalty} points."
        )
    if rules.nil_allowed:
        lines.append(
            f"Nil (bid 0, N): +{rules.nil_bonus} if you take no trick, -{rules.nil_bonus} if you take any."
        )
    if rules.blind_nil:
        k = rules.blind_nil_exchange
        swap = f"; you and your partner swap {k} cards" if k and rules.teams else ""
        lines.append(f"Blind Nil (B, before you look): +/-{rules.blind_nil_bonus}{swap}.")
    if (rules.nil_allowed or rules.blind_nil) and rules.nil_tricks == "bags":
        side = "side" if rules.teams else "bidder"
        lines.append(f"Tricks taken by a failed Nil or Blind Nil count as bags for the {side}.")
    return "\n".join(lines)


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape,space,question_mark,f1", "close", "Close")]

    def __init__(self, rules: Rules | None = None) -> None:
        super().__init__()
        self.rules = rules if rules is not None else Rules()

    def compose(self) -> ComposeResult:
        r = self.rules
        house = house_rules_help(r)
        rules = HELP_RULES_ANY_LEAD if r.spades_lead == "any" else HELP_RULES
        if house:
            rules += "\n[b]House rules[/b]\n" + "\n".join(f"• {line}" for line in house)
        keys = HELP_KEYS.replace("0-13", f"0-{deck_of(r).max_bid}")
        with Vertical(classes="dialog", id="help"):
            yield Static("Spades — help", classes="title")
            with VerticalScroll(id="help-body"):
                yield Static(f"{rules}\n{scoring_help(r)}\n\n{keys}", markup=True)
            yield Static("Enter: close · ↑↓ scroll", classes="hint")

    def on_mount(self) -> None:
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """The body scrolls when the help is taller than the terminal (house rules add lines);
        the title and the way out stay in sight."""
        body = self.query_one("#help-body", VerticalScroll)
        body.styles.max_height = max(3, self.app.size.height - 4)

    def action_close(self) -> None:
        self.dismiss(None)


class QuitScreen(ModalScreen[bool]):
    """Ctrl+Q asks first: a slip of the finger must not end the game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,y,q,ctrl+q", "answer(True)", "Save and quit"),
        Binding("escape,n,c", "answer(False)", "Cancel"),
    ]

    def __init__(self, path: Path | None = None) -> None:
        super().__init__()
        self.path = path

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="quit"):
            yield Static("Save the game and quit?", classes="title")
            yield Static("[b]Enter[/b]  save and quit      [b]Esc[/b]  cancel, keep playing")
            where = self.path if self.path is not None else "FILE"
            yield Static(Text(f"Continue later with: spades play --resume {where}"), classes="hint")

    def action_answer(self, quit_: bool) -> None:
        self.dismiss(quit_)


class ResultScreen(ModalScreen[None]):
    """The end: who won, the whole score sheet, and where the record went."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape,q", "close", "Quit")]

    def __init__(self, result: str, sheet: ScoreSheet, saved: Path | None, error: str | None) -> None:
        super().__init__()
        self.result = result
        self.sheet = sheet
        self.saved = saved
        self.error = error

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="result"):
            yield Static(f"Game over — {self.result}", classes="title")
            yield Static(sheet_table(self.sheet, _rows_that_fit(self) - 1))
            if self.saved is not None:
                yield Static(f"Record saved to {self.saved}", classes="hint")
            if self.error:
                yield Static(self.error, classes="hint")
            yield Static("Enter: quit", classes="hint")

    def action_close(self) -> None:
        self.app.exit()
