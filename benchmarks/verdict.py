"""An honest verdict between two conditions on a shared, noisy machine (issues 22, 24).

Runs of the two conditions alternate (A, B, A, B, …) so that a change in the machine's
load falls on both alike. The baseline's run-to-run spread is its lowest to its highest
p99; the other condition is "within" it when the median of its runs' p99 is no higher
than the baseline's highest (lower is within too: nothing got slower). How many of its
runs lie above the spread is reported beside the verdict, and so is the load average
before and after, so a reader can tell a quiet verdict from a loaded one.
"""

from __future__ import annotations

import os
import statistics
from typing import Any


def load_average() -> list[float]:
    """The machine's 1, 5 and 15 minute load averages now."""
    return [round(value, 2) for value in os.getloadavg()]


def verdict(baseline: list[float | None], other: list[float | None]) -> dict[str, Any]:
    """A run with no tap of the kind measured has no p99 (None): left out."""
    baseline = [value for value in baseline if value is not None]
    other = [value for value in other if value is not None]
    if not baseline or not other:
        return {"baseline_p99_ms": baseline, "other_p99_ms": other, "within_spread": None}
    low, high = min(baseline), max(baseline)
    middle = statistics.median(other)
    return {
        "baseline_p99_ms": [round(value, 3) for value in baseline],
        "other_p99_ms": [round(value, 3) for value in other],
        "baseline_spread_ms": [round(low, 3), round(high, 3)],
        "baseline_median_ms": round(statistics.median(baseline), 3),
        "other_median_ms": round(middle, 3),
        "other_runs_above_spread": sum(value > high for value in other),
        "within_spread": middle <= high,
    }


def sentence(name: str, baseline: str, other: str, figures: dict[str, Any]) -> str:
    if figures["within_spread"] is None:
        return f"{name}: too few taps for a verdict"
    low, high = figures["baseline_spread_ms"]
    within = "WITHIN" if figures["within_spread"] else "NOT within"
    return (
        f"{name}: {baseline} p99 spread {low}–{high} ms over {len(figures['baseline_p99_ms'])}"
        f" runs; {other} median p99 {figures['other_median_ms']} ms"
        f" ({figures['other_runs_above_spread']} of {len(figures['other_p99_ms'])} runs"
        f" above): {within} the spread"
    )
