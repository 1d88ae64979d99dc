"""The history's chart of a game: every player's total over the rounds.

Its tooltips are the chart's own, painted on its canvas when a point is tapped: not Flutter's
Tooltip widget, whose hover overlay takes the keyboard from a text field on the same screen
(tests/test_architecture.py keeps those off such screens; this module has no text field)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import flet as ft

import scoring
from scoring.errors import Term

from .i18n import Translator
from .widgets import color_dot

if TYPE_CHECKING:
    import flet_charts as fch

PLACES_APART = 0.08  # how far apart the lines of players on one place are drawn


def totals_axis() -> fch.ChartAxis:
    """The totals at the chart's even steps, and its lowest (0, where every line starts): the
    highest total's own label ("155") lay over the step's next to it ("150")."""
    import flet_charts as fch

    return fch.ChartAxis(label_size=40, show_min=True, show_max=False)


def places_axis(count: int) -> fch.ChartAxis:
    """Each whole place, 1 at the top (a place is drawn at minus itself)."""
    import flet_charts as fch

    labels = [
        fch.ChartAxisLabel(value=-place, label=ft.Text(str(place))) for place in range(1, count + 1)
    ]
    return fch.ChartAxis(label_size=40, labels=labels)


def totals_chart(
    t: Translator,
    result: scoring.Replay,
    title: str,
    round_name: Term,
    colors: Sequence[str],
) -> ft.Control:
    """Each player's total after every round, with the totals and rounds on its axes, a line
    in each player's colour (`colors`: the shades, in seating order); a tap on a point says its
    round, player and total. Black Spy's end value as a dashed line."""
    # Imported here, when a chart is drawn: flet_charts is a third of what the app imports at
    # start, which a phone running the app in its browser (the static site) feels.
    import flet_charts as fch

    names = list(result.table.names)
    if len(colors) != len(names):  # none worked out (a game gone meanwhile): all in one
        colors = [ft.Colors.ON_SURFACE_VARIANT] * len(names)

    places = result.rules.places_only  # SPY: each total is a place, 1 the best
    # A place is drawn at minus itself, so that 1 is at the top; each player's line a little
    # apart from the others', so that players on one place are all seen.
    apart = {
        name: (index - (len(names) - 1) / 2) * PLACES_APART for index, name in enumerate(names)
    }

    def height(name: str, total: Fraction) -> float:
        return -float(total) + apart[name] if places else float(total)

    def point(number: int, name: str, total: Fraction) -> fch.LineChartDataPoint:
        called = t(round_name, number=number)  # "deal 3": the start of a line, so "Deal 3"
        value = t("place {place}", place=t.number(total)) if places else t.number(total)
        said = f"{called[:1].upper()}{called[1:]} · {name}: {value}"
        style = ft.TextStyle(color=ft.Colors.ON_INVERSE_SURFACE, size=12)
        tip = fch.LineChartDataPointTooltip(text=said, text_style=style)
        return fch.LineChartDataPoint(number, height(name, total), tooltip=tip)

    start = result.first_totals  # before the first round: 0 points, or everyone's place

    def first(name: str) -> fch.LineChartDataPoint:
        return fch.LineChartDataPoint(0, height(name, start[name]), show_tooltip=False)

    series = [
        fch.LineChartData(
            points=[first(name)]
            + [point(i + 1, name, totals[name]) for i, totals in enumerate(result.round_totals)],
            color=colors[index],
            stroke_width=3,
        )
        for index, name in enumerate(names)
    ]
    end_value = result.end_value
    if end_value is not None:
        series.append(
            fch.LineChartData(
                points=[
                    fch.LineChartDataPoint(0, end_value, show_tooltip=False),
                    fch.LineChartDataPoint(len(result.round_totals), end_value, show_tooltip=False),
                ],
                color=ft.Colors.ON_SURFACE_VARIANT,  # grey: not one of the players' colours
                stroke_width=1,
                dash_pattern=[6, 4],
            )
        )
    legend = ft.Row(
        wrap=True,
        controls=[
            ft.Row([color_dot(colors[i]), ft.Text(name)], spacing=4) for i, name in enumerate(names)
        ]
        + ([ft.Text(t("dashed: the end value {value}", value=end_value))] if end_value else []),
    )
    rounds = len(result.round_totals)
    chart = fch.LineChart(
        data_series=series,
        height=240,
        interactive=True,  # a tap shows the point's tooltip, in the client: no round trip
        tooltip=fch.LineChartTooltip(  # the theme's inverse surface, kept inside the chart
            bgcolor=ft.Colors.INVERSE_SURFACE,
            max_width=220,
            fit_inside_horizontally=True,
            fit_inside_vertically=True,
        ),
        left_axis=places_axis(len(names)) if places else totals_axis(),
        **({"min_y": -len(names) - 0.5, "max_y": -0.5} if places else {}),
        bottom_axis=fch.ChartAxis(label_size=24, label_spacing=max(1, (rounds + 5) // 6)),
        expand=True,
    )
    if places:
        legend.controls.append(ft.Text(t("place 1 at the top")))
    return ft.Column(
        [
            ft.Semantics(
                label=t("Chart: {title}", title=title),
                # room on the right for the last round's number under the axis
                content=ft.Container(chart, padding=ft.Padding.only(right=12)),
            ),
            legend,
        ]
    )
