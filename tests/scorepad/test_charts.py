"""Chart geometry: numbers in, coordinates inside the plot out."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.charts import (
    DASHES,
    FIGURE_LIMIT,
    MARKERS,
    SPREAD,
    as_figure,
    line_chart,
    marker_path,
    nice_step,
    plain,
)


def coords(chart):
    for s in chart.series:
        for line in s.lines:
            for pair in line.split():
                x, y = pair.split(",")
                yield float(x), float(y)


def test_an_empty_chart_says_so_and_draws_nothing():
    chart = line_chart({})
    assert chart.empty and chart.series == ()
    assert line_chart({"Anna": [[]]}).empty


def test_one_deal_sits_in_the_middle_of_the_plot():
    chart = line_chart({"Anna": [[(1.0, 18.0)]]})
    (x, y), = coords(chart)
    assert x == (chart.left + chart.right) / 2
    assert chart.top <= y <= chart.bottom


def test_the_first_and_last_deal_span_the_plot_and_higher_scores_are_higher_up():
    chart = line_chart({"Anna": plain([21, 18, 25])})
    points = list(coords(chart))
    assert points[0][0] == chart.left and points[-1][0] == chart.right
    assert points[2][1] < points[0][1] < points[1][1]  # SVG y grows downwards


def test_negative_scores_get_ticks_below_zero_and_stay_inside():
    chart = line_chart({"Anna": plain([21, 5, -13])}, references=[(0, "target")])
    labels = [t.label for t in chart.y_ticks]
    assert labels[0].startswith("-") and "0" in labels
    assert all(chart.top <= y <= chart.bottom for _, y in coords(chart))
    (target,) = chart.references
    assert chart.top < target.y1 < chart.bottom and target.label == "target"


def test_game_boundaries_are_vertical_lines_at_their_deal():
    chart = line_chart({"A": [[(0, 21), (4, -1)], [(4, 21), (8, 10)]]}, boundaries=[4])
    (b,) = chart.boundaries
    assert b.x1 == b.x2 == (chart.left + chart.right) / 2
    assert (b.y1, b.y2) == (chart.top, chart.bottom)
    assert len(chart.series[0].lines) == 2  # the line breaks where the new game starts


def test_many_players_differ_by_colour_marker_and_dash_and_get_a_legend_row_each_pair():
    chart = line_chart({f"P{i}": plain([i, i + 1]) for i in range(10)})
    styles = [(s.css, s.marker, s.dash) for s in chart.series[:8]]
    assert len(set(styles)) == 8
    assert {s.marker for s in chart.series[:8]} == set(MARKERS)
    assert {s.dash for s in chart.series[:8]} == set(DASHES)
    assert chart.height >= chart.bottom + 5 * 22  # five legend rows
    assert max(s.legend_y for s in chart.series) < chart.height


def test_long_lines_draw_a_limited_number_of_markers():
    chart = line_chart({"A": plain(list(range(200)))})
    assert 1 < chart.series[0].markers.count("M") // 2 <= 17


def test_every_marker_is_a_path():
    for kind in MARKERS:
        assert re.fullmatch(r"M[-0-9.,MLhvaZz ]+", marker_path(kind, 10, 10))


def test_nice_steps_are_one_two_or_five_times_a_power_of_ten():
    assert nice_step(29) == 10 and nice_step(7) == 2 and nice_step(0) == 1
    assert nice_step(0.3) == 0.1


@given(st.lists(st.integers(-500, 500), min_size=1, max_size=60))
def test_any_scores_land_inside_the_plot(values):
    chart = line_chart({"A": plain(values)}, references=[(21, "start"), (0, "target")])
    for x, y in coords(chart):
        assert chart.left - 0.1 <= x <= chart.right + 0.1
        assert chart.top - 0.1 <= y <= chart.bottom + 0.1
    ticks = [float(t.label) for t in chart.y_ticks]
    assert min(ticks) <= min(values) and max(ticks) >= max(values)


def test_whole_numbers_get_whole_ticks():
    chart = line_chart({"Anna": plain([0, 1])})
    assert [t.label for t in chart.y_ticks] == ["0", "1"]


@pytest.mark.parametrize("ys", [(2**53 - 4, 2**53 - 1), (1e17, 1e17), (-(2**53 - 1), 2**53 - 1),
                                (1e300, 1e300)])
def test_a_chart_of_values_near_and_past_the_score_limit_has_a_few_distinct_ticks(ys):
    chart = line_chart({"Anna": plain(list(ys))})
    labels = [t.label for t in chart.y_ticks]
    assert 2 <= len(labels) <= 12
    assert len(set(labels)) == len(labels)
    assert all(len(label) <= 24 for label in labels)


def test_large_tick_labels_are_written_short():
    chart = line_chart({"Anna": plain([21, 8 * 1000 * 2**40])})
    assert "8e+15" in [t.label for t in chart.y_ticks]


def test_a_value_too_large_for_a_float_is_drawn_at_the_figure_limit():
    assert plain([2**2000, -(2**2000), 5]) == [[(0, float(FIGURE_LIMIT)),
                                               (1, -float(FIGURE_LIMIT)), (2, 5.0)]]
    assert as_figure(2**53 - 1) == float(2**53 - 1)


def test_lines_with_the_same_values_are_drawn_side_by_side_not_on_top_of_each_other():
    # issue 23: two players who won the same games each session drew one line
    same = plain([0, 1, 1, 2])
    chart = line_chart({"Anna": same, "Bert": same, "Cilli": plain([0, 0, 1, 3])})
    anna, bert, cilli = (s.lines[0] for s in chart.series)
    assert anna != bert
    ya = [float(p.split(",")[1]) for p in anna.split()]
    yb = [float(p.split(",")[1]) for p in bert.split()]
    assert all(b - a == pytest.approx(SPREAD, abs=0.11) for a, b in zip(ya, yb, strict=True))
    # the first point is shared by all three: they are spread around it, the middle on it
    yc = [float(p.split(",")[1]) for p in cilli.split()]
    assert ya[0] < yb[0] < yc[0] and yb[0] == pytest.approx(chart.bottom, abs=0.11)
    # where a line has a point of its own it is drawn exactly there
    alone = line_chart({"Cilli": plain([0, 0, 1, 3])}).series[0].lines[0]
    assert cilli.split()[3] == alone.split()[3]
    assert chart.series[0].markers != chart.series[1].markers
