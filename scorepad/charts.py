"""Chart geometry for inline SVG: numbers in, coordinates out; the template draws them.

Pure Python, no Django: a line chart is a set of series (each a list of segments of
(x, y) points, so a line can break where a new game starts over), optional vertical
lines (game boundaries) and horizontal reference lines (start score, target). The SVG
scales with its viewBox; players are told apart by colour (a CSS class ``s0``..``s7``),
by marker shape and by dash pattern, so the chart reads without colour too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

Point = tuple[float, float]

MARKERS = ("circle", "square", "triangle", "diamond", "cross", "down", "plus", "bar")
DASHES = ("", "6 3", "2 3", "9 3 2 3", "4 4", "1 3", "12 4", "6 2 2 2")
COLOURS = 8
#: Most markers drawn on one line; longer lines get one every few points (and the last).
MAX_MARKERS = 16
#: Lines that pass through the same point are drawn this many px apart there, side by
#: side instead of on top of each other (two players with the same scores both show).
SPREAD = 3.0


@dataclass(frozen=True)
class Tick:
    pos: float
    label: str


@dataclass(frozen=True)
class Rule:
    """A straight line across the plot (x1, y1) → (x2, y2) with a label at its end."""

    x1: float
    y1: float
    x2: float
    y2: float
    label: str = ""


@dataclass(frozen=True)
class Series:
    name: str
    css: str  # colour class, s0..s7
    marker: str
    dash: str
    lines: tuple[str, ...]  # SVG polyline "points", one per segment
    markers: str  # one SVG path "d" drawing every marker
    legend_x: float
    legend_y: float
    legend_line: str  # "points" of the short sample line in the legend
    legend_marker: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: float
    top: float
    right: float
    bottom: float
    series: tuple[Series, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    boundaries: tuple[Rule, ...]
    references: tuple[Rule, ...]
    empty: bool


def nice_step(span: float, most: int = 5) -> float:
    """A step of 1, 2 or 5 × 10^k so that ``span`` needs at most ``most`` steps."""
    if span <= 0:
        return 1.0
    raw = span / most
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return float(factor * power)
    return float(10 * power)  # pragma: no cover - the loop always returns


#: The largest size of a figure drawn or averaged: far above any score or sum of scores
#: that the rules allow (docs/rules.md, "Scores have a limit"), far below a float's
#: overflow, so that whatever a row holds, arithmetic on it stays finite.
FIGURE_LIMIT = 10**100


def as_figure(value: int | float | Fraction) -> float:
    """A whole number (or a ratio of them) as a float for a chart or a statistic, held
    within ±FIGURE_LIMIT: ``float()`` of a larger int raises OverflowError."""
    if value > FIGURE_LIMIT:
        return float(FIGURE_LIMIT)
    if value < -FIGURE_LIMIT:
        return -float(FIGURE_LIMIT)
    return float(value)


#: From here on a tick label is written short ("9.01e+15"): a long number would not fit
#: beside the plot (scores may reach 2^53, docs/rules.md "Scores have a limit").
SHORT_FROM = 1e6


def _fmt(value: float, digits: int = 3) -> str:
    if abs(value) >= SHORT_FROM:
        return f"{value:.{digits}g}"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _labels(values: Sequence[float]) -> list[str]:
    """Tick labels, short for large values but with as many digits as tell them apart."""
    for digits in range(3, 18):
        labels = [_fmt(v, digits) for v in values]
        if len(set(labels)) == len(labels):
            return labels
    return labels


def marker_path(kind: str, x: float, y: float, r: float = 4.0) -> str:
    """An SVG path for one marker centred on (x, y)."""
    if kind == "circle":
        return (f"M{x - r:.1f},{y:.1f}a{r:.1f},{r:.1f} 0 1,0 {2 * r:.1f},0"
                f"a{r:.1f},{r:.1f} 0 1,0 {-2 * r:.1f},0Z")
    if kind == "square":
        s = r * 0.85
        return f"M{x - s:.1f},{y - s:.1f}h{2 * s:.1f}v{2 * s:.1f}h{-2 * s:.1f}Z"
    if kind == "triangle":
        return f"M{x:.1f},{y - r:.1f}L{x + r:.1f},{y + r:.1f}L{x - r:.1f},{y + r:.1f}Z"
    if kind == "down":
        return f"M{x:.1f},{y + r:.1f}L{x + r:.1f},{y - r:.1f}L{x - r:.1f},{y - r:.1f}Z"
    if kind == "diamond":
        return f"M{x:.1f},{y - r:.1f}L{x + r:.1f},{y:.1f}L{x:.1f},{y + r:.1f}L{x - r:.1f},{y:.1f}Z"
    if kind == "cross":
        return (f"M{x - r:.1f},{y - r:.1f}L{x + r:.1f},{y + r:.1f}"
                f"M{x + r:.1f},{y - r:.1f}L{x - r:.1f},{y + r:.1f}")
    if kind == "plus":
        return f"M{x - r:.1f},{y:.1f}h{2 * r:.1f}M{x:.1f},{y - r:.1f}v{2 * r:.1f}"
    return f"M{x - r:.1f},{y - r / 2:.1f}h{2 * r:.1f}v{r:.1f}h{-2 * r:.1f}Z"  # bar


def line_chart(
    series: Mapping[str, Sequence[Sequence[Point]]],
    *,
    x_labels: Mapping[float, str] | None = None,
    boundaries: Sequence[float] = (),
    references: Sequence[tuple[float, str]] = (),
    width: int = 360,
    plot_height: int = 200,
) -> Chart:
    """Lay out a line chart: ``series`` maps a name to segments of (x, y) points."""
    names = list(series)
    points = [p for segs in series.values() for seg in segs for p in seg]
    legend_rows = math.ceil(len(names) / 2)
    left, top, right = 40.0, 12.0, width - 24.0
    bottom = top + plot_height
    height = int(bottom + 28 + legend_rows * 22 + 4)
    if not points:
        return Chart(width, height, left, top, right, bottom, (), (), (), (), (), True)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points] + [v for v, _ in references]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    step = nice_step(y1 - y0 if y1 > y0 else 2)
    if all(float(y).is_integer() for y in ys):
        step = max(step, 1.0)  # whole numbers get whole ticks
    # Far from zero a float cannot step by less than its spacing (2 above 2^53): a step
    # below it would never leave y0.
    step = max(step, nice_step(5 * math.ulp(max(abs(y0), abs(y1)))))
    y0 = math.floor(y0 / step) * step
    y1 = math.ceil(y1 / step) * step
    if y1 == y0:
        y0, y1 = y0 - step, y1 + step

    def sx(x: float) -> float:
        if x1 == x0:
            return (left + right) / 2
        return left + (x - x0) / (x1 - x0) * (right - left)

    def sy(y: float) -> float:
        return bottom - (y - y0) / (y1 - y0) * (bottom - top)

    # counted, not summed up: adding a step to a large float may round back
    values = [y0 + k * step for k in range(round((y1 - y0) / step) + 1)]
    y_ticks = [Tick(round(sy(v), 1), label) for v, label in zip(values, _labels(values),
                                                                 strict=True)]
    if x_labels is None:
        every = max(1, math.ceil((x1 - x0 + 1) / 8))
        x_labels = {float(x): _fmt(x) for x in range(int(x0), int(x1) + 1)
                    if (x - int(x0)) % every == 0}
    else:
        keys = sorted(x_labels)
        every = max(1, math.ceil(len(keys) / 6))
        x_labels = {k: x_labels[k] for i, k in enumerate(keys) if i % every == 0}
    x_ticks = tuple(Tick(round(sx(x), 1), label) for x, label in sorted(x_labels.items()))
    shift = spread(series)
    out = []
    for i, name in enumerate(names):
        segs = [seg for seg in series[name] if seg]
        flat = [p for seg in segs for p in seg]
        marker = MARKERS[i % len(MARKERS)]
        every = max(1, math.ceil(len(flat) / MAX_MARKERS))
        marked = [p for j, p in enumerate(flat) if j % every == 0 or j == len(flat) - 1]
        lx = left + (i % 2) * (right - left) / 2
        ly = bottom + 30 + (i // 2) * 22

        def at(x: float, y: float, name: str = name) -> tuple[float, float]:
            return sx(x), sy(y) + shift.get((name, x, y), 0.0)

        out.append(Series(
            name=name,
            css=f"s{i % COLOURS}",
            marker=marker,
            dash=DASHES[i % len(DASHES)],
            lines=tuple(" ".join("{:.1f},{:.1f}".format(*at(x, y)) for x, y in seg)
                        for seg in segs),
            markers="".join(marker_path(marker, *at(x, y)) for x, y in marked),
            legend_x=round(lx + 34, 1),
            legend_y=round(ly + 4, 1),
            legend_line=f"{lx:.1f},{ly:.1f} {lx + 28:.1f},{ly:.1f}",
            legend_marker=marker_path(marker, lx + 14, ly),
        ))
    return Chart(
        width, height, left, top, right, bottom, tuple(out), x_ticks, tuple(y_ticks),
        tuple(Rule(round(sx(b), 1), top, round(sx(b), 1), bottom) for b in boundaries),
        tuple(Rule(left, round(sy(v), 1), right, round(sy(v), 1), label)
              for v, label in references),
        False,
    )

def spread(series: Mapping[str, Sequence[Sequence[Point]]]) -> dict[tuple[str, float, float],
                                                                    float]:
    """Where several lines pass through one point, each one's vertical shift there (px,
    SPREAD apart, centred on the point, in the order of the lines): lines with the same
    values run side by side instead of one hiding the other."""
    through: dict[Point, list[str]] = {}
    for name, segs in series.items():
        for point in dict.fromkeys(p for seg in segs for p in seg):
            through.setdefault(point, []).append(name)
    shift = {}
    for (x, y), names in through.items():
        if len(names) > 1:
            for k, name in enumerate(names):
                shift[(name, x, y)] = (k - (len(names) - 1) / 2) * SPREAD
    return shift


def plain(values: Sequence[float], start: float = 0) -> list[list[Point]]:
    """One unbroken segment: the i-th value at x = start + i."""
    return [[(start + i, as_figure(v)) for i, v in enumerate(values)]]
