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

from spades.i18n import N_, _, ngettext
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
    table.add_column(_("Hand"), justify="right", style="dim")
    per = len(sheet.columns)
    for side in sheet.sides:
        for i, col in enumerate(sheet.columns):
            head = f"{side}\n{col}" if i == 0 else f"\n{col}"
            table.add_column(
                head,
                justify="left" if i == 0 else "right",
                style="bold" if i == per - 1 else "",
                no_wrap=True,
            )
    rows = sheet.rows
    notes = []
    if len(rows) > max_rows:
        hidden = len(rows) - max_rows
        notes.append(
            ngettext("the first hand is not shown", "the first {n} hands are not shown", hidden).format(
                n=hidden
            )
        )
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
    table.add_row(_("Now"), *totals, style="bold")
    if any(cell.endswith("!") for row in sheet.rows for cell in row):
        notes.append(_("! = bag penalty"))
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

    def __init__(self, sheet: ScoreSheet, heading: str, footer: str | None = None) -> None:
        super().__init__()
        self.sheet = sheet
        self.heading = heading
        self.footer = _("Enter: continue") if footer is None else footer

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
                yield Static(_("No trick has been played yet."), classes="title")
            else:
                yield Static(
                    _("Last trick (trick {number})").format(number=self.trick.number), classes="title"
                )
                body = Text()
                for i, (seat, card) in enumerate(self.trick.plays):
                    lead = "  " + _("led") if i == 0 else ""
                    body.append(f"{self.names[seat]:>12} ")
                    body.append(f" {card_label(card):<3}", style=card_style(card))
                    won = " ★ " + _("won") if seat == self.trick.winner else ""
                    body.append(f"{lead}{won}\n")
                yield Static(body)
            yield Static(_("Enter: close"), classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)


HELP_RULES = N_("""\
Bid the tricks you will take, then take them: spades are trump, follow the
suit led if you can, and spades may not be led until one has been played.""")

HELP_RULES_ANY_LEAD = N_("""\
Bid the tricks you will take, then take them: spades are trump, follow the
suit led if you can; spades may be led at any time.""")

HELP_KEYS = N_("""\
[b]←/→[/b]  move between cards or choices     [b]Enter[/b]  play / bid / confirm
[b]A K Q J T 9..2[/b] then [b]S H D C[/b]  choose a card (10 is T or 0), Enter plays it
[b]0-13, N[/b]  choose a bid (N is Nil)        [b]L[/b]  look at your cards
[b]B[/b]  Blind Nil (before you look)          [b]Space[/b]  pick a card to pass
[b]K / D[/b]  keep or discard (two players)    [b]H[/b]  hint from the best bot
[b]P[/b]  the last trick                       [b]S[/b]  the score sheet
[b]?[/b]  this help                            [b]Ctrl+Q[/b]  save and quit

Mouse: click a card to play or pick it, click a choice to make it.
The game record is saved when the game ends and when you quit;
continue a saved game with: spades play --resume FILE""")


def house_rules_help(rules: Rules) -> list[str]:
    """One line per house rule in play (``docs/spec/house-rules.md``); none under the rules of
    ``rules.md``. The help lists them so the player knows what differs from plain Spades. Each
    line fits the 80-column help box (74 characters after its bullet)."""
    lines = []
    if rules.players == 3:
        lines.append(_("Three players, each for himself: 17 cards each (no 2♣), bids 0 to 17."))
    if rules.jokers == "big_little":
        lines.append(_("Jokers: BJ and LJ are the top spades (BJ, LJ, A♠ … 2♠); no 2♣ or 2♦."))
    elif rules.jokers == "jjdd":
        lines.append(_("Joker Joker Deuce Deuce: spades run BJ LJ 2♦ 2♠ A♠ … 3♠; no 2♥ or 2♣."))
    if rules.jokers is not None:
        lines.append(_("Type B then J for the Big Joker, L then J for the Little Joker."))
    if rules.bidding == "suicide":
        lines.append(
            _("Suicide: in each partnership one bids Nil, the other {n} or more.").format(n=rules.suicide_min)
        )
    elif rules.bidding == "whiz":
        lines.append(_("Whiz: bid Nil or exactly the spades you hold (no spades: Nil)."))
    elif rules.bidding == "mirror":
        lines.append(_("Mirror: every bid is the spades held, made for you (none: Nil)."))
    if rules.team_min_bid:
        lines.append(_("Each partnership must bid {n} tricks or more in all.").format(n=rules.team_min_bid))
    if rules.big_bid is not None:
        lines.append(_("Big bid: a made contract of {n}+ scores 20 a trick, not 10.").format(n=rules.big_bid))
    if rules.nil_tricks == "partner":
        lines.append(_("A failed Nil's tricks count toward the partner's contract, not as bags."))
    if rules.spades_lead == "any":
        lines.append(_("Spades may be led at any time, broken or not."))
    return lines


def scoring_help(rules: Rules) -> str:
    """What the bids are worth under these rules: Nil, Blind Nil, bags (the help's middle)."""
    lines = []
    if rules.bags == "off":
        lines.append(_("Each trick over your bid scores 1 point; bags carry no penalty."))
    else:
        lines.append(
            _("Each trick over your bid is a bag (1 point); {limit} bags cost {penalty} points.").format(
                limit=rules.bag_limit, penalty=rules.bag_penalty
            )
        )
    if rules.nil_allowed:
        lines.append(
            _("Nil (bid 0, N): +{bonus} if you take no trick, -{bonus} if you take any.").format(
                bonus=rules.nil_bonus
            )
        )
    if rules.blind_nil:
        k = rules.blind_nil_exchange
        swap = ""
        if k and rules.teams:
            swap = ngettext(
                "; you and your partner swap {n} card", "; you and your partner swap {n} cards", k
            )
            swap = swap.format(n=k)
        lines.append(
            _("Blind Nil (B, before you look): +/-{bonus}{swap}.").format(
                bonus=rules.blind_nil_bonus, swap=swap
            )
        )
    if (rules.nil_allowed or rules.blind_nil) and rules.nil_tricks == "bags":
        if rules.teams:
            lines.append(_("Tricks taken by a failed Nil or Blind Nil count as bags for the side."))
        else:
            lines.append(_("Tricks taken by a failed Nil or Blind Nil count as bags for the bidder."))
    return "\n".join(lines)


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape,space,question_mark,f1", "close", "Close")]

    def __init__(self, rules: Rules | None = None) -> None:
        super().__init__()
        self.rules = rules if rules is not None else Rules()

    def compose(self) -> ComposeResult:
        r = self.rules
        house = house_rules_help(r)
        text = HELP_RULES_ANY_LEAD if r.spades_lead == "any" else HELP_RULES
        rules = _(text)
        if house:
            rules += "\n[b]" + _("House rules") + "[/b]\n" + "\n".join(f"• {line}" for line in house)
        keys = _(HELP_KEYS).replace("0-13", f"0-{deck_of(r).max_bid}")
        with Vertical(classes="dialog", id="help"):
            yield Static(_("Spades — help"), classes="title")
            with VerticalScroll(id="help-body"):
                yield Static(f"{rules}\n{scoring_help(r)}\n\n{keys}", markup=True)
            yield Static(_("Enter: close · ↑↓ scroll"), classes="hint")

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
            yield Static(_("Save the game and quit?"), classes="title")
            yield Static(_("[b]Enter[/b]  save and quit      [b]Esc[/b]  cancel, keep playing"))
            where = self.path if self.path is not None else _("FILE")
            yield Static(
                Text(_("Continue later with: spades play --resume {path}").format(path=where)), classes="hint"
            )

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
            yield Static(_("Game over — {result}").format(result=self.result), classes="title")
            yield Static(sheet_table(self.sheet, _rows_that_fit(self) - 1))
            if self.saved is not None:
                yield Static(_("Record saved to {path}").format(path=self.saved), classes="hint")
            if self.error:
                yield Static(self.error, classes="hint")
            yield Static(_("Enter: quit"), classes="hint")

    def action_close(self) -> None:
        self.app.exit()
