"""Fairness results as text (a line per game and chance kind), JSON (the ``fairness`` part of
the ``report-fairness`` schema) and a self-contained HTML page (bar charts of observed
against expected counts with bands, and a histogram of the PIT values; no script, no
network)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from oracle.fairness import PIT_BINS, TESTS, Check, FairnessResult, GroupResult

SHOWN = 3
"""Outcomes furthest from expectation shown under a biased group."""


def _number(x: float) -> str:
    """A count as a whole number, any other statistic to four significant digits."""
    return f"{x:.0f}" if x == int(x) and abs(x) < 1e15 else f"{x:.4g}"


def _p(p: float) -> str:
    return f"{p:.2g}" if p < 0.001 else f"{p:.3f}"


def group_line(g: GroupResult) -> str:
    """One line: game, chance kind, draws (and the draws needed), the deciding test with
    its statistic and p-values, the verdict."""
    need = f", {g.required} needed" if g.required and g.draws < g.required else ""
    head = f"{g.game} {g.title} ({g.type}): {g.draws} draws{need}"
    test = g.deciding
    if test is None:
        return f"{head}; no test can run: {g.verdict.upper()}"
    df = f" (df {test.df})" if test.df is not None else ""
    return (
        f"{head}; {test.title} = {_number(test.statistic)}{df}, p = {_p(test.p)}, "
        f"Holm p = {_p(test.p_holm)}: {g.verdict.upper()}"
    )


def outcome_lines(g: GroupResult, count: int = SHOWN) -> list[str]:
    """The outcomes furthest from expectation, observed against expected."""
    return [
        f"  {o.label}: observed {o.observed:.0f}, expected {o.expected:.1f} (z {o.z:+.1f})"
        for o in g.furthest(count)
    ]


def fairness_text(result: FairnessResult) -> str:
    """A line per group (outcomes furthest from expectation under a biased one), then
    the totals."""
    lines = []
    for g in result.groups:
        lines.append(group_line(g))
        if g.verdict == "biased":
            lines += outcome_lines(g)
    lines.append(totals_line(result))
    return "\n".join(lines)


def totals_line(result: FairnessResult) -> str:
    s = result.settings
    verdicts = [g.verdict for g in result.groups]
    counts = ", ".join(f"{verdicts.count(v)} {v}" for v in ("fair", "biased", "insufficient"))
    draws = sum(g.draws for g in result.groups)
    groups = len(result.groups)
    return (
        f"fairness: {groups} group{'' if groups == 1 else 's'} ({counts}), {draws} draws; "
        f"{result.tests_run()} tests, Holm-corrected, alpha {s.alpha}; "
        f"sample size for w = {s.effect} at power {s.power}"
    )


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def check_json(t: Check) -> dict[str, Any]:
    return {
        "test": t.id,
        "title": t.title,
        "statistic": _finite(t.statistic),
        "df": t.df,
        "p": t.p,
        "p_holm": t.p_holm,
    }


def group_json(g: GroupResult) -> dict[str, Any]:
    return {
        "game": g.game,
        "kind": g.type,
        "title": g.title,
        "draws": g.draws,
        "forced": g.forced,
        "sequences": g.sequences,
        "required": g.required,
        "verdict": g.verdict,
        "tests": [check_json(t) for t in g.tests],
        "outcomes": [
            {"label": o.label, "observed": o.observed, "expected": o.expected, "sd": o.sd}
            for o in g.outcomes
        ],
        "furthest": [o.label for o in g.furthest()] if g.verdict == "biased" else [],
        "pit_histogram": list(g.pit_histogram),
    }


def fairness_json(result: FairnessResult) -> dict[str, Any]:
    """The ``fairness`` object of the JSON report."""
    s = result.settings
    return {
        "settings": {"effect": s.effect, "power": s.power, "alpha": s.alpha, "seed": result.seed},
        "tests": [{"test": t, "title": title} for t, title in TESTS],
        "tests_run": result.tests_run(),
        "biased": result.biased,
        "groups": [group_json(g) for g in result.groups],
    }


# --- the HTML page ---------------------------------------------------------------------

TEMPLATES = Path(__file__).resolve().parent / "html" / "templates"
CHART_HEIGHT = 160
BAR_WIDTH = 22


def _band_z(alpha: float) -> float:
    from scipy import stats

    return float(stats.norm.isf(alpha / 2))


def _bars(g: GroupResult, z: float) -> dict[str, Any]:
    """Geometry of a group's bar chart: per outcome, observed and expected bars and the
    band expected +- z sd (z for the run's alpha, uncorrected)."""
    top = max([o.observed for o in g.outcomes] + [o.expected + z * o.sd for o in g.outcomes])
    scale = CHART_HEIGHT / top if top > 0 else 0.0
    bars = []
    for i, o in enumerate(g.outcomes):
        low, high = max(o.expected - z * o.sd, 0.0), o.expected + z * o.sd
        bars.append(
            {
                "x": 40 + i * (BAR_WIDTH + 6),
                "label": o.label,
                "observed": o.observed,
                "expected": o.expected,
                "h_observed": o.observed * scale,
                "y_expected": CHART_HEIGHT - o.expected * scale,
                "y_high": CHART_HEIGHT - high * scale,
                "h_band": (high - low) * scale,
                "outside": not low <= o.observed <= high,
                "z": o.z,
            }
        )
    width = 40 + len(bars) * (BAR_WIDTH + 6) + 10
    return {"bars": bars, "width": width, "height": CHART_HEIGHT, "top": top}


def _histogram(g: GroupResult, z: float) -> dict[str, Any]:
    n = sum(g.pit_histogram)
    each = n / PIT_BINS if n else 0.0
    sd = math.sqrt(each * (1 - 1 / PIT_BINS))
    top = max([*g.pit_histogram, each + z * sd, 1.0])
    scale = CHART_HEIGHT / top
    bins = [
        {"x": 40 + i * 16, "h": count * scale, "count": count}
        for i, count in enumerate(g.pit_histogram)
    ]
    return {
        "bins": bins,
        "width": 40 + PIT_BINS * 16 + 10,
        "height": CHART_HEIGHT,
        "y_each": CHART_HEIGHT - each * scale,
        "y_high": CHART_HEIGHT - (each + z * sd) * scale,
        "h_band": 2 * z * sd * scale if each - z * sd > 0 else (each + z * sd) * scale,
        "each": each,
    }


def fairness_page(result: FairnessResult, title: str = "rules-oracle fairness") -> str:
    """The self-contained HTML page of a result."""
    import jinja2

    z = _band_z(result.settings.alpha)
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    template = environment.get_template("fairness.html.j2")
    groups = [
        {
            "g": g,
            "line": group_line(g),
            "chart": _bars(g, z),
            "histogram": _histogram(g, z),
            "furthest": outcome_lines(g) if g.verdict == "biased" else [],
        }
        for g in result.groups
    ]
    return template.render(
        title=title, groups=groups, totals=totals_line(result), result=result, z=z
    )
