"""Testing chance draws for fairness (docs/fairness.md): each group of draws (one game's
chance kind, oracle.chance) gets

- fit: the chi-square of the summed observed-minus-expected category counts against their
  summed covariance (correct when the probabilities change from draw to draw), and a
  Kolmogorov-Smirnov test that the randomized PIT values are uniform;
- independence: the lag-1 correlation of the PIT values (as normal scores) and a runs test
  (pairs of successive values on the same side of 1/2), pairs taken within a sequence; and
  the correlation of each sequence's j-th value with the j-th of the sequence before, of the
  same kind and of any kind (a generator reseeded alike every game, a list drawn by index and
  never reshuffled);
- a sample size: the fewest draws for which the chi-square test detects an effect of size
  ``effect`` (Cohen's w) with ``power`` at ``alpha``; a group with fewer is never ``fair``;

and every test's p-value is corrected for the number of tests run (Holm). The statistics
come from scipy (the ``stats`` extra), imported when a tally is tested.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

import attrs

from oracle.chance import GroupTally, Label, Stream, Tally

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Vector = npt.NDArray[np.float64]

Verdict = Literal["fair", "biased", "insufficient"]
TESTS: tuple[tuple[str, str], ...] = (
    ("chi_square", "fit: chi-square of counts"),
    ("max_z", "fit: largest outcome deviation |z|"),
    ("pit_uniform", "fit: PIT uniformity (Kolmogorov-Smirnov)"),
    ("lag1", "independence: lag-1 correlation"),
    ("runs", "independence: runs about 1/2"),
    ("across_games", "independence: each draw against the same draw of its kind a game before"),
    ("across_stream", "independence: each draw against the same chance event a game before"),
)
"""Each test by id, with its title in reports."""
MIN_EXPECTED = 10.0
"""Categories expected fewer times than this are pooled (the chi-square approximation), and
left out of the largest-deviation test: the corrected p-values reach far into the tails,
where small counts are far from normal."""
PIT_BINS = 20
STATS_MISSING = "fairness tests need scipy: pip install 'rules-oracle[stats]'"


class StatsMissing(Exception):
    """scipy is not installed (the ``stats`` extra)."""


def need_stats() -> None:
    """Raise StatsMissing unless scipy can be imported."""
    from importlib.util import find_spec

    if find_spec("scipy") is None:
        raise StatsMissing(STATS_MISSING)


@attrs.frozen
class Settings:
    """What a group must show: the effect size (Cohen's w) to detect, with what power, at
    what significance level (also the level each corrected p-value is compared with)."""

    effect: float = 0.1
    power: float = 0.9
    alpha: float = 0.01

    def problem(self) -> str | None:
        """Why these settings cannot be used, or None."""
        if not 0 < self.effect <= 10:
            return "the effect size must be above 0 (at most 10)"
        if not 0 < self.alpha < 1 or not 0 < self.power < 1:
            return "alpha and power must lie strictly between 0 and 1"
        if self.power <= self.alpha:
            return "the power must exceed alpha"
        return None


@attrs.frozen
class Check:
    """One test of one group: its statistic, degrees of freedom (if any), p-value, and
    the p-value after Holm's correction over every test of the report."""

    id: str
    title: str
    statistic: float
    p: float
    df: int | None = None
    p_holm: float = 1.0


@attrs.frozen
class Outcome:
    """One category of a group: observed and expected counts, the standard deviation of
    the count and the standardized difference z = (observed - expected) / sd."""

    label: Label
    observed: float
    expected: float
    sd: float

    @property
    def z(self) -> float:
        return (self.observed - self.expected) / self.sd if self.sd > 0 else 0.0


@attrs.frozen
class GroupResult:
    """The tests of one game's chance kind and their verdict."""

    game: str
    type: str
    title: str
    draws: int
    forced: int
    sequences: int
    required: int
    """The sample size needed (see the module doc)."""
    verdict: Verdict
    tests: tuple[Check, ...]
    outcomes: tuple[Outcome, ...]
    """Every category, in label order."""
    pit_histogram: tuple[int, ...]
    """PIT values counted in PIT_BINS equal bins of [0, 1]."""

    @property
    def deciding(self) -> Check | None:
        """The test with the smallest corrected p-value (the one that rejected, if any)."""
        return min(self.tests, key=lambda t: (t.p_holm, t.p)) if self.tests else None

    def furthest(self, count: int = 3) -> list[Outcome]:
        """The outcomes furthest from expectation (by |z|; over-drawn ones first on a tie)."""
        ranked = sorted(self.outcomes, key=lambda o: (-round(abs(o.z), 9), -o.z, o.label))
        return ranked[:count]


@attrs.frozen
class FairnessResult:
    """Every group's result, in the order the groups were first met."""

    settings: Settings
    groups: tuple[GroupResult, ...]
    seed: int = 0

    @property
    def biased(self) -> bool:
        return any(g.verdict == "biased" for g in self.groups)

    def tests_run(self) -> int:
        return sum(len(g.tests) for g in self.groups)


# --- the tests ---------------------------------------------------------------------


def judge(tally: Tally, settings: Settings | None = None) -> FairnessResult:
    """Test every group of ``tally``; raises StatsMissing without scipy."""
    settings = settings or Settings()
    need_stats()
    raw = [
        (group, _group_tests(group, tally.streams.get(group.game)))
        for group in tally.groups.values()
    ]
    p_values = [t.p for _, (tests, _, _) in raw for t in tests]
    adjusted = iter(holm(p_values))
    groups = []
    for group, (tests, outcomes, df) in raw:
        corrected = tuple(attrs.evolve(t, p_holm=next(adjusted)) for t in tests)
        required = sample_size(df, settings) if df else 0
        groups.append(
            GroupResult(
                game=group.game,
                type=group.type,
                title=group.kind.title,
                draws=group.draws,
                forced=group.forced,
                sequences=group.sequences,
                required=required,
                verdict=_verdict(group.draws, required, corrected, settings.alpha),
                tests=corrected,
                outcomes=outcomes,
                pit_histogram=_histogram(group),
            )
        )
    return FairnessResult(settings, tuple(groups), tally.seed)


def _verdict(draws: int, required: int, tests: Sequence[Check], alpha: float) -> Verdict:
    if any(t.p_holm <= alpha for t in tests):
        return "biased"
    if not required or draws < required or not tests:
        return "insufficient"
    return "fair"


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def _group_tests(
    group: GroupTally, stream: Stream | None
) -> tuple[list[Check], tuple[Outcome, ...], int]:
    """The raw tests of a group, its outcomes, and the degrees of freedom of its counts
    (unpooled: what the sample size is worked out for)."""
    import numpy as np

    order = sorted(range(len(group.labels)), key=lambda i: group.labels[i])
    labels = [group.labels[i] for i in order]
    observed = np.array(group.observed)[order]
    expected = np.asarray(group.expected)[order]
    third = np.asarray(group.third)[order]
    covariance = np.asarray(group.covariance)[np.ix_(order, order)]
    sds = np.sqrt(np.clip(np.diag(covariance), 0.0, None)) if labels else np.zeros(0)
    outcomes = tuple(
        Outcome(a, float(o), float(e), float(s))
        for a, o, e, s in zip(labels, observed, expected, sds, strict=True)
    )
    df_full = _rank(covariance) if labels else 0
    tests: list[Check] = []
    if labels:
        chi = chi_square(observed - expected, covariance, expected)
        if chi is not None:
            tests.append(chi)
        largest = max_z(observed - expected, sds, expected, third)
        if largest is not None:
            tests.append(largest)
    pits = np.frombuffer(group.pits, dtype=np.float64) if len(group.pits) else np.zeros(0)
    if len(pits):
        tests.append(_pit_uniform(pits))
    tests += _serial(pits, group.starts)
    for across in (_across(pits, group.starts), _across_stream(pits, group.in_stream, stream)):
        if across is not None:
            tests.append(across)
    return tests, outcomes, df_full


def _rank(matrix: Vector) -> int:
    import numpy as np

    values = np.linalg.eigvalsh(matrix)
    top = float(values.max()) if len(values) else 0.0
    return int((values > top * 1e-9).sum()) if top > 0 else 0


def chi_square(difference: Vector, covariance: Vector, expected: Vector) -> Check | None:
    """The quadratic form of the summed differences in their summed covariance (its
    pseudo-inverse: the counts are tied together, e.g. they add up to the draws), after
    pooling the categories expected fewer than MIN_EXPECTED times; None with no degree of
    freedom left."""
    import numpy as np
    from scipy import stats

    pooling = _pooling(expected)
    d = pooling @ difference
    v = pooling @ covariance @ pooling.T
    values, vectors = np.linalg.eigh(v)
    scale = float(np.abs(covariance).max()) if covariance.size else 0.0
    keep = values > scale * 1e-9  # what is left of a sum fixed by the draws is rounding
    if scale <= 0 or not keep.any():
        return None
    projected = vectors.T @ d
    statistic = float((projected[keep] ** 2 / values[keep]).sum())
    df = int(keep.sum())
    return Check(
        "chi_square", _title("chi_square"), statistic, float(stats.chi2.sf(statistic, df)), df
    )


def max_z(
    difference: Vector, sds: Vector, expected: Vector, third: Vector | None = None
) -> Check | None:
    """The largest standardized difference |observed - expected| / sd over the outcomes
    expected at least MIN_EXPECTED times, its two-sided p-value multiplied by their number
    (Bonferroni): the score test of one outcome's weight, where the chi-square spreads its
    power over every direction. A count is skewed (a rare outcome's more to the right):
    with its third cumulant each z is first corrected for skewness (Cornish-Fisher,
    z - g (z^2 - 1) / 6, g = third / sd^3), so the far tails Holm's correction reaches
    are not taken for normal ones. None with no such outcome."""
    import numpy as np
    from scipy import stats

    keep = (expected >= MIN_EXPECTED) & (sds > 0)
    count = int(keep.sum())
    if not count:
        return None
    z = difference[keep] / sds[keep]
    if third is not None:
        z = _skew_corrected(z, third[keep] / sds[keep] ** 3)
    largest = float(np.abs(z).max())
    p = min(1.0, count * 2 * float(stats.norm.sf(largest)))
    return Check("max_z", _title("max_z"), largest, p)


def _skew_corrected(z: Vector, skew: Vector) -> Vector:
    """z - g (z^2 - 1) / 6, measured in the direction of the skew g; past its turning point
    (z = 3 / |g|, where it would start to fall) it goes on rising one for one."""
    import numpy as np

    g = np.abs(skew)
    sign = np.where(skew < 0, -1.0, 1.0)
    along = sign * z
    with np.errstate(divide="ignore"):
        turning = np.where(g > 0, 3 / np.where(g > 0, g, 1.0), np.inf)
    capped = np.minimum(along, turning)
    corrected = capped - g * (capped**2 - 1) / 6 + (along - capped)
    result: Vector = sign * corrected
    return result


def _pooling(expected: Vector) -> Vector:
    """A 0/1 matrix summing categories into buckets: the two smallest buckets are joined
    while the smallest is expected fewer than MIN_EXPECTED times."""
    import numpy as np

    buckets = [[i] for i in range(len(expected))]
    totals = [float(e) for e in expected]
    while len(buckets) > 1 and min(totals) < MIN_EXPECTED:
        order = sorted(range(len(buckets)), key=lambda k: totals[k])
        a, b = sorted(order[:2])
        buckets[a] += buckets.pop(b)
        totals[a] += totals.pop(b)
    matrix = np.zeros((len(buckets), len(expected)))
    for row, members in enumerate(buckets):
        matrix[row, members] = 1.0
    return matrix


def _title(test_id: str) -> str:
    return dict(TESTS)[test_id]


def _pit_uniform(pits: Vector) -> Check:
    from scipy import stats

    found = stats.kstest(pits, "uniform")
    return Check("pit_uniform", _title("pit_uniform"), float(found.statistic), _p(found))


def _p(found: Any) -> float:
    p = float(found.pvalue)
    return 1.0 if math.isnan(p) else min(max(p, 0.0), 1.0)


def _serial(pits: Vector, starts: Sequence[int]) -> list[Check]:
    """Lag-1 correlation and runs over successive pairs within each sequence."""
    import numpy as np
    from scipy import stats

    n = len(pits)
    if n < 2:
        return []
    within = np.ones(n - 1, dtype=bool)
    breaks = [s - 1 for s in starts if 0 < s < n]
    within[breaks] = False
    pairs = int(within.sum())
    tests: list[Check] = []
    if pairs >= 3:
        scores = stats.norm.ppf(np.clip(pits, 1e-12, 1 - 1e-12))
        x, y = scores[:-1][within], scores[1:][within]
        if x.std() > 0 and y.std() > 0:
            found = stats.pearsonr(x, y)
            tests.append(Check("lag1", _title("lag1"), float(found.statistic), _p(found)))
    if pairs >= 1:
        high = pits >= 0.5
        same = int((high[:-1] == high[1:])[within].sum())
        found = stats.binomtest(same, pairs, 0.5)
        tests.append(Check("runs", _title("runs"), same / pairs, _p(found)))
    return tests


def _across(pits: Vector, starts: Sequence[int]) -> Check | None:
    """Each sequence's j-th value of the group paired with the j-th of the sequence before
    (a deck shuffled alike every game, a list drawn by index and never reshuffled)."""
    import numpy as np

    bounds = np.array([*starts, len(pits)], dtype=np.int64)
    later = np.arange(len(pits))
    return _correlated("across_games", pits, _partners(later, bounds), pits)


def _across_stream(pits: Vector, in_stream: Sequence[int], stream: Stream | None) -> Check | None:
    """Each value of the group paired with the value at the same place of its game's stream
    (the k-th chance event, of any kind) in the sequence before: a generator reseeded alike
    every game, whose k-th number decides the k-th draw whatever its kind."""
    import numpy as np

    if stream is None or not len(in_stream):
        return None
    bounds = np.array([*stream.starts, len(stream.pits)], dtype=np.int64)
    at = np.asarray(in_stream, dtype=np.int64)
    values = np.asarray(stream.pits, dtype=np.float64)
    return _correlated("across_stream", pits, _partners(at, bounds), values)


def _partners(at: Any, bounds: Any) -> Any:
    """For each place ``at`` in a list of sequences (sequence i spans bounds[i] to
    bounds[i + 1]), the place j-th in the sequence before when ``at`` is j-th in its own,
    or -1 where the sequence before is shorter (or there is none)."""
    import numpy as np

    sequence = np.searchsorted(bounds, at, side="right") - 1
    j = at - bounds[sequence]
    before = np.maximum(sequence - 1, 0)
    length = bounds[before + 1] - bounds[before]
    paired = (sequence >= 1) & (j < length)
    return np.where(paired, bounds[before] + j, -1)


def _correlated(test_id: str, pits: Vector, partners: Any, values: Vector) -> Check | None:
    """Pearson's correlation of normal scores between each PIT value and its partner's
    value (unpaired values left out). For fair draws a value is uniform and independent of
    every draw before it, the earlier sequence's included, so the correlation is zero
    whatever the positions were."""
    import numpy as np
    from scipy import stats

    paired = partners >= 0
    if int(paired.sum()) < 3:
        return None
    x, y = (
        stats.norm.ppf(np.clip(v, 1e-12, 1 - 1e-12))
        for v in (values[partners[paired]], np.asarray(pits)[paired])
    )
    if x.std() == 0 or y.std() == 0:
        return None
    found = stats.pearsonr(x, y)
    return Check(test_id, _title(test_id), float(found.statistic), _p(found))


@cache
def _noncentrality(df: int, power: float, alpha: float) -> float:
    """The noncentrality at which a chi-square test with ``df`` degrees of freedom at
    ``alpha`` rejects with probability ``power``."""
    from scipy import optimize, stats

    critical = stats.chi2.isf(alpha, df)

    def shortfall(lam: float) -> float:
        return float(stats.ncx2.sf(critical, df, lam)) - power

    high = 1.0
    while shortfall(high) < 0:
        high *= 2
    return float(optimize.brentq(shortfall, 1e-9, high))


def sample_size(df: int, settings: Settings) -> int:
    """The fewest draws for which a chi-square test with ``df`` degrees of freedom detects
    an effect of size w = ``settings.effect`` with ``settings.power`` at ``settings.alpha``
    (Cohen: noncentrality = draws * w^2)."""
    lam = _noncentrality(df, settings.power, settings.alpha)
    return math.ceil(lam / settings.effect**2)


def _histogram(group: GroupTally) -> tuple[int, ...]:
    counts = [0] * PIT_BINS
    for u in group.pits:
        counts[min(int(u * PIT_BINS), PIT_BINS - 1)] += 1
    return tuple(counts)
