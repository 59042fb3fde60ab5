"""Printed scale versus the catalogue's unit: "85.3" accuracy printed in percent is 0.853 in the catalogue."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.catalogue import MetricDef, Range
from pipeline.mapping.model import Scale


def percent_share(values: Sequence[float], metric: MetricDef, bounds: Range) -> float:
    """The share of a metric's values that lie above the catalogue's maximum (1) but within 0-100: how much a
    table looks printed on a 0-100 scale. A lone 1.07 among 0.8s is an out-of-range value, not a percent."""
    high = bounds[1]
    if metric.unit == "percent" or high is None or high > 1 or not values:
        return 0.0
    return sum(high < abs(v) <= 100 for v in values) / len(values)


def scale_for(value: float, metric: MetricDef, percent: bool, why: str) -> Scale:
    """The catalogue value of a printed value, and the rescale note when one was applied."""
    if not percent or metric.unit == "percent":
        return Scale("as catalogue unit", 1.0, value)
    rescaled = float(f"{value / 100:.12g}")
    note = f"printed in percent ({why}); divided by 100 into the catalogue's unit '{metric.unit}'"
    return Scale("percent", 0.01, rescaled, note)
