"""Line charts as SVG text, drawn on the server: no plotting library, no script in the page.

Why by hand: a rating or a points-per-hand curve is one polyline with two axes; a plotting
library would add tens of megabytes to the server for that. Every label is escaped, so a
player's name in a title cannot become markup.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime
from xml.sax.saxutils import escape

COLOURS = ("#2f6fdf", "#d9482b", "#2c9a55", "#9b59b6")


def _ticks(lo: float, hi: float, n: int = 5) -> tuple[list[float], int]:
    """Round tick values inside ``[lo, hi]`` (multiples of 1, 2 or 5 times a power of ten,
    about ``n`` steps) and the decimals that print each one differently: evenly split ticks
    printed rounded gave the same label twice on a narrow range (``-132, -132, -133``)."""
    if hi <= lo:
        return [lo], 0
    raw = (hi - lo) / n
    mag = 10.0 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw * (1 - 1e-9))
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    first = math.ceil(lo / step - 1e-9)
    out: list[float] = []
    k = first
    while k * step <= hi + step * 1e-9:
        out.append(round(k * step, decimals + 2))
        k += 1
    return out, decimals


DAY = 86400.0


def time_ticks(t0: float, t1: float, n: int = 4) -> list[tuple[float, str]]:
    """About ``n`` ticks between two Unix times, each labelled once: ISO dates (the same in
    every language) on a range of days, hours and minutes within one day. Labels never
    repeat: a tick whose label equals the previous one's is dropped."""
    if t1 <= t0:  # one point in time: its date
        return [(t0, _stamp(t0, 2 * DAY))]
    out: list[tuple[float, str]] = []
    for k in range(n + 1):
        t = t0 + (t1 - t0) * k / n
        label = _stamp(t, t1 - t0)
        if not out or out[-1][1] != label:
            out.append((t, label))
    return out


def _stamp(t: float, span: float) -> str:
    when = datetime.fromtimestamp(t, UTC)
    return when.strftime("%Y-%m-%d" if span >= 2 * DAY else "%H:%M" if span < DAY / 2 else "%d %H:%M")


def _fmt(v: float, decimals: int) -> str:
    text = f"{v:.{decimals}f}"
    return "0" if float(text) == 0 else text  # never "-0"


def line_chart(
    lines: Sequence[tuple[str, Sequence[float]]],
    *,
    title: str,
    x_label: str,
    empty: str,
    width: int = 480,
    height: int = 200,
    times: Sequence[float] | None = None,
) -> str:
    """One polyline per ``(label, values)`` against their index (1, 2, ...), or, given
    ``times`` (Unix seconds, one per value of a single line), against time with dated ticks
    (UTC) so a month without games shows as a gap; a title, y ticks and an x label; ``empty``
    is written in the middle when there is nothing to draw."""
    if times is not None and (len(lines) != 1 or len(times) != len(lines[0][1])):
        raise ValueError("line_chart: times need exactly one line with one value per time")
    left, right, top, bottom = 44, 12, 26, 30 if times is None else 44
    w, h = width - left - right, height - top - bottom
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{escape(title, {chr(34): "&quot;"})}" '
        'font-family="sans-serif" font-size="11">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>',
        f'<text x="{left}" y="16" font-size="13" fill="#222">{escape(title)}</text>',
    ]
    values = [v for _, vs in lines for v in vs]
    if not values:
        parts.append(
            f'<text x="{width / 2:.0f}" y="{height / 2:.0f}" text-anchor="middle" fill="#777">'
            f"{escape(empty)}</text></svg>"
        )
        return "".join(parts)
    lo, hi = min(values), max(values)
    if hi - lo < 1e-9:
        lo, hi = lo - 2, hi + 2  # a flat line: whole-number ticks around it
    most = max(len(vs) for _, vs in lines)

    t0, t1 = (min(times), max(times)) if times else (0.0, 0.0)

    def x(i: int) -> float:
        if times is not None:
            return x_at(times[i])
        return left + (i * w / max(1, most - 1) if most > 1 else w / 2)

    def x_at(t: float) -> float:
        return left + ((t - t0) * w / (t1 - t0) if t1 > t0 else w / 2)

    def y(v: float) -> float:
        return top + h - (v - lo) * h / (hi - lo)

    ticks, decimals = _ticks(lo, hi)
    for t in ticks:
        label = _fmt(t, decimals)
        parts.append(
            f'<line x1="{left}" x2="{left + w}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#e3e3e3"/>'
            f'<text x="{left - 4}" y="{y(t) + 4:.1f}" text-anchor="end" fill="#555">{label}</text>'
        )
    if times is not None:  # dates under the axis, the x label under them
        ticks_x = time_ticks(t0, t1)
        for k, (t, label) in enumerate(ticks_x):
            last = k == len(ticks_x) - 1
            anchor = "start" if k == 0 and not last else "end" if last and k else "middle"
            parts.append(
                f'<line x1="{x_at(t):.1f}" x2="{x_at(t):.1f}" y1="{top}" y2="{top + h}" stroke="#eee"/>'
                f'<text x="{x_at(t):.1f}" y="{top + h + 14}" text-anchor="{anchor}" fill="#555">'
                f"{escape(label)}</text>"
            )
        parts.append(
            f'<text x="{left + w / 2:.0f}" y="{height - 6}" text-anchor="middle" fill="#555">'
            f"{escape(x_label)}</text>"
        )
    else:
        parts.append(
            f'<text x="{left + w / 2:.0f}" y="{height - 8}" text-anchor="middle" fill="#555">'
            f"{escape(x_label)}</text>"
        )
    for k, (label, vs) in enumerate(lines):
        colour = COLOURS[k % len(COLOURS)]
        pts = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(vs))
        if len(vs) == 1:
            parts.append(f'<circle cx="{x(0):.1f}" cy="{y(vs[0]):.1f}" r="3" fill="{colour}"/>')
        else:
            parts.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2"/>')
        if len(lines) > 1:
            parts.append(
                f'<text x="{left + w - 4}" y="{top + 12 + 13 * k}" text-anchor="end" fill="{colour}">'
                f"{escape(label)}</text>"
            )
    parts.append("</svg>")
    return "".join(parts)
