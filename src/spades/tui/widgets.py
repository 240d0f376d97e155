"""The table's widgets. Each draws one part of a ``TableView`` and knows nothing of the game.

The hand and the choice bar are single widgets that lay out their own cells, so that 13 to
17 cards fit in 80 columns and a click maps to a card by its column.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from spades.i18n import _, pgettext
from spades.tui.view import CardView, Choice, SeatView, TableView, TrickShown, card_label, is_red

FACE = "#f4f1e8"
RED = "#c62828"
BLACK = "#111111"
CURSOR = "#ffd54f"
PICKED = "#81d4fa"
DIM_FACE = "#7d7d7d"
DIM_INK = "#4a4a4a"
BACK = "#1e4f9c"
BACK_INK = "#8fb4ec"
FELT = "#0d5c2e"
WIN = "#ffb300"


def card_style(card: int, *, bg: str = FACE, dim: bool = False) -> Style:
    if dim:
        return Style(color=DIM_INK, bgcolor=DIM_FACE)
    return Style(color=RED if is_red(card) else BLACK, bgcolor=bg, bold=True)


def chip(card: int, *, bg: str = FACE) -> Text:
    """A card as a 4-cell chip on the table: `` K♥ ``."""
    return Text(f" {card_label(card):<3}", style=card_style(card, bg=bg))


class Canvas:
    """A small grid of styled cells, for drawing the table centre."""

    def __init__(self, width: int, height: int, style: Style) -> None:
        self.width, self.height = width, height
        self.lines = [Text(" " * width, style=style) for _row in range(height)]

    def put(self, x: int, y: int, text: Text | str, style: Style | None = None) -> None:
        if not 0 <= y < self.height:
            return
        t = text if isinstance(text, Text) else Text(text, style=style or "")
        x = max(0, x)
        if x >= self.width:
            return
        t = t[: self.width - x]
        line = self.lines[y]
        self.lines[y] = line[:x] + t + line[x + len(t) :]

    def text(self) -> Text:
        return Text("\n").join(self.lines)


@dataclass(frozen=True, slots=True)
class _Cell:
    x: int
    width: int
    index: int


WIDE = 120
"""Columns from which the hand's cards grow past their 80-column size."""


class HandView(Widget):
    """The player's cards, sorted by suit; legal ones bright, the cursor raised."""

    class Clicked(Message):
        def __init__(self, card: int) -> None:
            super().__init__()
            self.card = card

    DEFAULT_CSS = """
    HandView { height: 3; width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: tuple[CardView, ...] = ()
        self.face_down = 0
        self.cursor: int | None = None
        self.picked: frozenset[int] = frozenset()
        self.show_legal = False

    def show(
        self,
        cards: Sequence[CardView],
        *,
        face_down: int,
        cursor: int | None,
        picked: frozenset[int],
        show_legal: bool,
    ) -> None:
        self.cards = tuple(cards)
        self.face_down = face_down
        self.cursor = cursor
        self.picked = picked
        self.show_legal = show_legal
        self.refresh()

    def cells(self) -> list[_Cell]:
        """Where each card sits: suits apart by one column, cards by one when there is room."""
        count = len(self.cards) or self.face_down
        suits = [c.suit for c in self.cards] if self.cards else [0] * count
        breaks = sum(1 for a, b in itertools.pairwise(suits) if a != b)
        width = self.size.width or 80
        sizes = (7, 6, 5, 4) if width >= WIDE else (4,)  # a wide terminal gets bigger cards
        cell = next((c for c in sizes if count * (c + 1) - 1 + breaks <= width), 3)
        # 3: 14 to 16 cards during an exchange, or 17 with three players, on 80 columns:
        # narrower cards, still apart
        gap = 1 if count * (cell + 1) - 1 + breaks <= width else 0
        total = count * cell + (count - 1) * gap + breaks
        x = max(0, (width - total) // 2)
        out = []
        for i in range(count):
            if i and suits[i] != suits[i - 1]:
                x += 1
            out.append(_Cell(x, cell, i))
            x += cell + gap
        return out

    def card_x(self, card: int) -> int:
        """The column of ``card`` (for clicks in tests and hit-testing)."""
        for cell in self.cells():
            if self.cards[cell.index].card == card:
                return cell.x + 1
        raise KeyError(card)

    def render(self) -> Text:
        width = self.size.width or 80
        rows = [Text(" " * width) for _ in range(3)]

        def put(y: int, x: int, t: Text) -> None:
            rows[y] = rows[y][:x] + t + rows[y][x + len(t) :]

        for cell in self.cells():
            if not self.cards:
                back = Style(color=BACK_INK, bgcolor=BACK)
                put(1, cell.x, Text("░" * cell.width, style=back))
                put(2, cell.x, Text("░" * cell.width, style=back))
                continue
            cv = self.cards[cell.index]
            raised = cv.card == self.cursor or cv.card in self.picked
            bg = CURSOR if cv.card == self.cursor else PICKED if cv.card in self.picked else FACE
            dim = self.show_legal and not cv.legal and cv.card != self.cursor
            style = card_style(cv.card, bg=bg, dim=dim)
            top = 0 if raised else 1
            put(top, cell.x, Text(f"{cv.label:<{cell.width}}", style=style))
            mark = "•" if cv.received else " "
            put(top + 1, cell.x, Text(f"{mark:>{cell.width}}", style=style))
        return Text("\n").join(rows)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self.cards:
            return
        for cell in self.cells():
            if cell.x <= offset.x < cell.x + cell.width:
                self.post_message(self.Clicked(self.cards[cell.index].card))
                return


class ChoiceBar(Widget):
    """A row of choices (bids, look, Blind Nil, keep or discard), one under the cursor."""

    class Chosen(Message):
        def __init__(self, value: str) -> None:
            super().__init__()
            self.value = value

    DEFAULT_CSS = """
    ChoiceBar { height: 1; width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.choices: tuple[Choice, ...] = ()
        self.cursor: str | None = None

    def show(self, choices: Sequence[Choice], cursor: str | None) -> None:
        self.choices = tuple(choices)
        self.cursor = cursor
        self.refresh()

    def spans(self) -> list[tuple[int, int, Choice]]:
        width = self.size.width or 80
        sizes = [len(c.label) + 2 for c in self.choices]
        gap = 1 if sum(sizes) + len(sizes) <= width else 0
        total = sum(sizes) + gap * max(0, len(sizes) - 1)
        x = max(0, (width - total) // 2)
        out = []
        for size, c in zip(sizes, self.choices, strict=True):
            out.append((x, size, c))
            x += size + gap
        return out

    def choice_x(self, value: str) -> int:
        for x, _w, c in self.spans():
            if c.value == value:
                return x + 1
        raise KeyError(value)

    def render(self) -> Text:
        width = self.size.width or 80
        line = Text(" " * width)
        for x, size, c in self.spans():
            style = (
                Style(color=BLACK, bgcolor=CURSOR, bold=True)
                if c.value == self.cursor
                else Style(color="#eeeeee", bgcolor="#37474f")
            )
            line = line[:x] + Text(f" {c.label} ", style=style) + line[x + size :]
        return line

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for x, size, c in self.spans():
            if x <= offset.x < x + size:
                self.post_message(self.Chosen(c.value))
                return


class SeatBox(Static):
    """One seat: who sits there, the bid, tricks won, the dealer button and the turn marker."""

    def show(self, seat: SeatView | None) -> None:
        if seat is None:
            self.update("")
            return
        mark = "▶ " if seat.to_move else "  "
        name = Text(mark, style="bold #ffd54f")
        name.append(f"{seat.name}", style="bold #ffffff" if seat.to_move else "bold #e0e0e0")
        who = f" ({seat.label})" if not seat.is_human else " (" + _("you") + ")"
        bid = pgettext("seat", "bid {bid}").format(bid=seat.bid)
        won = pgettext("seat", "won {n}").format(n=seat.won)
        stats = Text(f"{bid} · {won}", style="#c8e6c9")
        side_stats = Text(f"{bid}\n{won}", style="#c8e6c9")
        dealer = Text(" " + _("dealer"), style="bold #ffcc80") if seat.dealer else Text("")
        if seat.position in ("left", "right"):
            body = Text("\n").join([name + dealer, Text(who.strip(), style="italic #a5d6a7"), side_stats])
        else:
            body = name + Text(who, style="italic #a5d6a7") + dealer + Text("  ") + stats
        self.update(body)
        self.set_class(seat.to_move, "turn")


class TrickArea(Widget):
    """The centre of the table: the cards played to this trick, by seat, or the stock."""

    DEFAULT_CSS = """
    TrickArea { width: 1fr; height: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view: TableView | None = None
        self.trick: TrickShown | None = None

    def show(self, view: TableView, trick: TrickShown | None) -> None:
        self.view, self.trick = view, trick
        self.refresh()

    def render(self) -> Text:
        w, h = self.size.width or 40, self.size.height or 9
        felt = Style(bgcolor=FELT, color="#e8f5e9")
        canvas = Canvas(w, h, felt)
        v = self.view
        if v is None:
            return canvas.text()
        cx, cy = w // 2 - 2, max(3, (h - 1) // 2)
        spots = {
            "top": (cx, cy - 3),
            "bottom": (cx, cy + 1),
            "left": (cx - 8, cy - 1),
            "right": (cx + 8, cy - 1),
        }
        caption = ""
        if v.phase == "draw":
            canvas.put(cx - 3, cy - 1, Text(_("Stock {n}").format(n=v.stock_left), style=felt))
            if v.stock_top is not None:
                canvas.put(cx, cy + 1, chip(v.stock_top))
            else:
                canvas.put(cx, cy + 1, Text("░░░░", style=Style(color=BACK_INK, bgcolor=BACK)))
            caption = _("Draw: keep the shown card, or take the next one")
            if v.discarded:
                seen = Text(_("You threw away:") + " ", style=felt)
                for card in v.discarded:
                    seen += Text(
                        card_label(card), style=felt + Style(color="#ffcdd2" if is_red(card) else "#ffffff")
                    )
                    seen += Text(" ", style=felt)
                canvas.put(max(0, (w - len(seen)) // 2), h - 2, seen)
        elif self.trick is not None:
            seat_pos = {s.seat: s.position for s in v.seats}
            who = {s.seat: _("you") if s.is_human else s.name[0] for s in v.seats}
            for i, (seat, card) in enumerate(self.trick.plays):
                x, y = spots[seat_pos[seat]]
                won = self.trick.winner == seat
                bg = WIN if won else FACE
                canvas.put(x, y, chip(card, bg=bg))
                canvas.put(x, y + 1, Text(f"{who[seat]:>4}", style=Style(color="#8d8d8d", bgcolor=bg)))
                if i == 0:
                    canvas.put(x + 4, y, Text("◂", style=felt + Style(color="#ffe082")))
            if self.trick.winner is not None:
                winner = next(s for s in v.seats if s.seat == self.trick.winner)
                if winner.is_human:
                    caption = _("Trick {number}: you won it").format(number=self.trick.number)
                else:
                    caption = _("Trick {number}: {who} won it").format(
                        number=self.trick.number, who=winner.name
                    )
            else:
                caption = _("Trick {number} of {total}").format(
                    number=self.trick.number, total=v.tricks_per_hand
                )
        elif v.phase == "bid":
            caption = _("Bidding")
        elif v.phase == "exchange":
            caption = _("Blind Nil exchange")
        elif v.phase == "play":
            caption = _("Trick {number} of {total}").format(number=1, total=v.tricks_per_hand)
        if v.spades_broken and v.phase == "play":
            caption += " · " + _("spades broken")
        if caption:
            canvas.put(max(0, (w - len(caption)) // 2), h - 1, Text(caption, style=felt + Style(italic=True)))
        return canvas.text()
