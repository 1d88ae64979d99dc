"""The history's chart of a game: every player's total over the rounds.

Its tooltips are the chart's own, painted on its canvas when a point is tapped: not Flutter's
Tooltip widget, whose hover overlay takes the keyboard from a text field on the same screen
(tests/test_architecture.py keeps those off such screens; this module has no text field)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import flet as ft

import scoring
from scoring.errors import Term

from .i18n import Translator
from .widgets import color_dot


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

    def point(number: int, name: str, total: Fraction) -> fch.LineChartDataPoint:
        called = t(round_name, number=number)  # "deal 3": the start of a line, so "Deal 3"
        said = f"{called[:1].upper()}{called[1:]} · {name}: {t.number(total)}"
        style = ft.TextStyle(color=ft.Colors.ON_INVERSE_SURFACE, size=12)
        tip = fch.LineChartDataPointTooltip(text=said, text_style=style)
        return fch.LineChartDataPoint(number, float(total), tooltip=tip)

    series = [
        fch.LineChartData(
            points=[fch.LineChartDataPoint(0, 0, show_tooltip=False)]
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
        # The labels at even steps only: the highest total's own label ("155") lay over the
        # step's next to it ("150").
        left_axis=fch.ChartAxis(label_size=40, show_min=False, show_max=False),
        bottom_axis=fch.ChartAxis(label_size=24, label_spacing=max(1, (rounds + 5) // 6)),
        expand=True,
    )
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
