"""The history's chart of a game. SPY's "Places over the events" confused: ticks at 0.5, 1.5
and 2.5, every line starting at place 0, place 3 without a label, two players' lines on top of
each other, and a worse place drawn higher. Places are whole, 1 at the top, each line seen."""

from __future__ import annotations

import json

from builders import SCENARIOS

import scoring
from views.charts import totals_chart
from views.i18n import Translator


def chart_of(control: object) -> object:
    """The LineChart inside the chart's column."""
    import flet_charts as fch

    waiting = [control]
    while waiting:
        found = waiting.pop()
        if isinstance(found, fch.LineChart):
            return found
        waiting += list(getattr(found, "controls", None) or [])
        content = getattr(found, "content", None)
        if content is not None and not isinstance(content, str):
            waiting.append(content)
    raise AssertionError("no chart")


def text_of(label: object) -> str:
    return str(getattr(label, "value", label))


def test_spys_places_are_whole_one_at_the_top_and_every_line_is_seen() -> None:
    record = json.loads((SCENARIOS / "spy-three-players.json").read_text())
    result = scoring.replay(record)
    chart = chart_of(totals_chart(Translator("en"), result, "Places", "event {number}", []))
    labels = {label.value: text_of(label.label) for label in chart.left_axis.labels}
    assert sorted(labels.values()) == ["1", "2", "3"]  # whole places, each labelled
    assert all(float(value).is_integer() for value in labels)  # at whole places only
    top, bottom = max(labels), min(labels)
    assert (labels[top], labels[bottom]) == ("1", "3")  # place 1 drawn highest
    lines = [[point.y for point in line.points] for line in chart.data_series]
    starts = {line[0] for line in lines}
    assert len(starts) == len(lines), "two lines lie on top of each other"
    assert all(-1.5 < y < -0.5 for y in starts), starts  # each starts at place 1, not 0


def test_a_chart_of_points_labels_its_zero() -> None:
    """Kompromat's chart starts at 0 and had no 0 on its axis."""
    record = json.loads((SCENARIOS / "kompromat-short-final-round-outcome.json").read_text())
    result = scoring.replay(record)
    chart = chart_of(totals_chart(Translator("en"), result, "VP", "round {number}", []))
    assert chart.left_axis.show_min, "the axis's lowest label, 0, is left out"
