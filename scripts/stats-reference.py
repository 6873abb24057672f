#!/usr/bin/env python3
"""Reference figures for the experiment statistics (src/service/experiments/stats), made with
scipy.stats (Debian's python3-scipy) from simulated per-unit values.

    python3 scripts/stats-reference.py > src/service/experiments/stats/scipy-reference.cases.ts
    npx prettier --write src/service/experiments/stats/scipy-reference.cases.ts

It prints a TypeScript module of cases; the tests compare the engine against them and never
run Python. The seed is fixed, so the same scipy prints the same table.

What comes from where:
- n, Σx, Σx² from simulated values (math.fsum); the means and variances the lift uses are
  computed here in two passes from the values themselves (numpy's var with ddof=1, or p(1-p)).
- p-values and intervals: scipy.stats.t (sf, ppf) and norm (sf, cdf, ppf); the risk as
  P(loss > 0)·E[loss | loss > 0] with scipy.stats.truncnorm, not the engine's closed form.
- Sample ratio mismatch: scipy.stats.chisquare against the weights (weight-0 variants dropped).
- Benjamini–Hochberg: scipy.stats.false_discovery_control; Holm: written out below.
- Sequential: the confidence sequence of Waudby-Smith et al. written out with numpy (scipy
  has none).
"""
import math

import numpy as np
from scipy import stats

rng = np.random.RandomState(20261127)
ALPHA = 0.05


def r(x):
    """Full precision, as JavaScript reads it back."""
    return repr(float(x))


def moments(kind, values):
    values = np.asarray(values, dtype=float)
    mean = float(values.mean())
    variance = mean * (1 - mean) if kind == "binomial" else float(np.var(values, ddof=1))
    return len(values), mean, variance


def sufficient(values):
    values = [float(v) for v in values]
    return len(values), math.fsum(values), math.fsum(v * v for v in values)


def sequential(estimate, se, n, tuning, alpha=ALPHA):
    l = -2 * np.log(alpha)
    rho = np.sqrt((l + np.log(l + 1)) / tuning)
    s2 = se**2 * n
    half = np.sqrt(s2) * np.sqrt(
        2 * (n * rho**2 + 1) * np.log(np.sqrt(n * rho**2 + 1) / alpha) / (n * rho) ** 2
    )
    st2 = estimate**2 * n / se**2
    growth = n * rho**2 + 1
    evalue = np.exp(rho**2 * st2 / (2 * growth)) / np.sqrt(growth)
    return min(1 / evalue, 1), estimate - half, estimate + half


def expected_loss(mean, sd):
    """E[max(L, 0)] for L ~ N(mean, sd²), through scipy's truncated normal."""
    a = (0 - mean) / sd
    tail = stats.norm.sf(0, loc=mean, scale=sd)
    if tail == 0:
        return 0.0
    return tail * stats.truncnorm.mean(a, np.inf, loc=mean, scale=sd)


def lift_case(name, kind, inverse, a_values, b_values, tuning=5000):
    na, ma, va = moments(kind, a_values)
    nb, mb, vb = moments(kind, b_values)
    estimate = (mb - ma) / abs(ma)
    se = math.sqrt((vb / nb) / ma**2 + (va / na) * mb**2 / ma**4)
    df = (va / na + vb / nb) ** 2 / ((va / na) ** 2 / (na - 1) + (vb / nb) ** 2 / (nb - 1))
    t = estimate / se
    p = 2 * stats.t.sf(abs(t), df)
    q = stats.t.ppf(1 - ALPHA / 2, df)
    z = stats.norm.ppf(1 - ALPHA / 2)
    ctw = stats.norm.cdf(0, loc=estimate, scale=se) if inverse else stats.norm.sf(
        0, loc=estimate, scale=se
    )
    gain = -estimate if inverse else estimate
    risk = expected_loss(-gain, se)
    seq_p, seq_lo, seq_hi = sequential(estimate, se, na + nb, tuning)
    a = sufficient(a_values)
    b = sufficient(b_values)
    return (
        f"  {{ name: '{name}', kind: '{kind}', inverse: {str(inverse).lower()}, "
        f"control: {{ n: {a[0]}, sum: {r(a[1])}, sumSquares: {r(a[2])} }}, "
        f"variant: {{ n: {b[0]}, sum: {r(b[1])}, sumSquares: {r(b[2])} }}, "
        f"estimate: {r(estimate)}, standardError: {r(se)}, degreesOfFreedom: {r(df)}, "
        f"pValue: {r(p)}, interval: [{r(estimate - q * se)}, {r(estimate + q * se)}], "
        f"chanceToWin: {r(ctw)}, credible: [{r(estimate - z * se)}, {r(estimate + z * se)}], "
        f"risk: {r(risk)}, tuning: {tuning}, sequentialPValue: {r(seq_p)}, "
        f"sequentialInterval: [{r(seq_lo)}, {r(seq_hi)}] }},"
    )


def binomial(n, conversions):
    values = np.zeros(n)
    values[:conversions] = 1
    return values


lift_cases = [
    lift_case("binomial 49/100 vs 51/100", "binomial", False, binomial(100, 49), binomial(100, 51)),
    lift_case("binomial small", "binomial", False, binomial(20, 3), binomial(25, 9)),
    lift_case("binomial large", "binomial", False, binomial(50000, 2500), binomial(50000, 2610)),
    lift_case("binomial p≈1e-19", "binomial", False, binomial(100000, 5000), binomial(100000, 6000)),
    lift_case("binomial p≈1e-36", "binomial", False, binomial(100000, 5000), binomial(100000, 6500)),
    lift_case("binomial inverse", "binomial", True, binomial(4000, 400), binomial(4100, 380)),
    lift_case("binomial unequal", "binomial", False, binomial(900, 300), binomial(12000, 3900)),
    lift_case("binomial near 1", "binomial", False, binomial(3000, 2950), binomial(3000, 2900)),
    lift_case("binomial losing", "binomial", False, binomial(8000, 800), binomial(8000, 700)),
    lift_case("binomial inverse losing", "binomial", True, binomial(8000, 700), binomial(8000, 800)),
    lift_case("binomial sequential N*=500", "binomial", False, binomial(3000, 300), binomial(3000, 360), 500),
    lift_case("binomial sequential N*=100000", "binomial", False, binomial(3000, 300), binomial(3000, 360), 100000),
]
for i, (n_a, n_b, lam_a, lam_b, inverse) in enumerate(
    [
        (50, 60, 2.0, 2.2, False),
        (1000, 1000, 0.5, 0.55, False),
        (20000, 20000, 3.0, 3.02, False),
        (300, 250, 1.0, 0.8, True),
        (5000, 5000, 0.1, 0.2, False),
        (4, 3, 3.0, 5.0, False),
        (40000, 40000, 1.0, 1.1, True),
    ]
):
    lift_cases.append(
        lift_case(
            f"count {i + 1}",
            "count",
            inverse,
            rng.poisson(lam_a, n_a),
            rng.poisson(lam_b, n_b),
        )
    )
for i, (n_a, n_b, mu_a, mu_b, sd_a, sd_b, inverse) in enumerate(
    [
        (3, 4, 10.0, 12.0, 2.0, 3.0, False),
        (5, 5, 1.0, 1.5, 0.5, 0.4, False),
        (10, 12, 100.0, 90.0, 30.0, 5.0, True),
        (200, 180, 20.0, 21.0, 8.0, 9.0, False),
        (5000, 5100, 3.5, 3.6, 10.0, 11.0, False),
        (100000, 100000, 50.0, 50.5, 20.0, 20.0, False),
        (2000, 2000, -4.0, -3.0, 2.0, 2.0, False),
        (1500, 1600, 0.02, 0.025, 0.01, 0.012, True),
        (30, 3000, 7.0, 7.5, 2.0, 2.5, False),
        (60000, 60000, 1.0, 1.05, 0.3, 0.3, False),
    ]
):
    lift_cases.append(
        lift_case(
            f"mean {i + 1}",
            "mean",
            inverse,
            rng.normal(mu_a, sd_a, n_a),
            rng.normal(mu_b, sd_b, n_b),
        )
    )
lift_cases.append(
    lift_case(
        "mean lognormal revenue",
        "mean",
        False,
        rng.lognormal(1.0, 1.2, 4000) * (rng.uniform(size=4000) < 0.1),
        rng.lognormal(1.05, 1.2, 4000) * (rng.uniform(size=4000) < 0.11),
    )
)

t_cases = []
for t, df in [
    (0.5, 1),
    (3.0, 1),
    (2.0, 2.5),
    (4.0, 3),
    (1.0, 7.25),
    (2.2, 10),
    (6.0, 30),
    (12.0, 200),
    (25.0, 5000),
    (1.96, 1e6),
    (9.5, 1e6),
]:
    t_cases.append(
        f"  {{ t: {r(t)}, degreesOfFreedom: {r(df)}, pValue: {r(2 * stats.t.sf(t, df))}, "
        f"quantile975: {r(stats.t.ppf(0.975, df))} }},"
    )


def srm(units, weights):
    kept = [(u, w) for u, w in zip(units, weights) if w > 0]
    total = sum(u for u, _ in kept)
    total_weight = sum(w for _, w in kept)
    expected = [total * w / total_weight for _, w in kept]
    p = stats.chisquare([u for u, _ in kept], expected).pvalue
    return f"  {{ units: {list(units)}, weights: {list(weights)}, p: {r(p)} }},"


srm_cases = [
    srm([500, 500], [50, 50]),
    srm([5040, 4960], [50, 50]),
    srm([552, 448], [50, 50]),
    srm([553, 447], [50, 50]),
    srm([1000, 2100], [1, 2]),
    srm([3300, 3300, 3400], [1, 1, 1]),
    srm([10000, 11500, 10200], [1, 1, 1]),
    srm([100, 300, 200, 400], [10, 30, 20, 40]),
    srm([2600, 2400, 2500, 2700, 1800], [20, 20, 20, 20, 20]),
    srm([50000, 52000], [50, 50]),
    srm([800, 0, 820], [50, 0, 50]),
    srm([400, 35, 610, 12], [40, 0, 60, 0]),
    srm([12, 9, 30], [25, 25, 50]),
]

correction_cases = []
for ps in [
    [0.01, 0.04, 0.03, 0.005],
    [0.2, 0.001, 0.04, 0.5, 0.049],
    [0.05],
    [0.9, 0.8, 0.7],
    [1e-20, 1e-10, 0.02, 0.02, 0.6],
    list(rng.uniform(size=8) * 0.1),
]:
    m = len(ps)
    order = np.argsort(ps, kind="stable")
    holm = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[index]))
        holm[index] = running
    bh = stats.false_discovery_control(ps, method="bh")
    correction_cases.append(
        f"  {{ pValues: [{', '.join(r(p) for p in ps)}], "
        f"holm: [{', '.join(r(p) for p in holm)}], bh: [{', '.join(r(p) for p in bh)}] }},"
    )

print(
    f"""// Made by scripts/stats-reference.py with scipy {__import__('scipy').__version__} and numpy {np.__version__}; do not edit by hand.
import type {{ MetricKind }} from '../../../contract/experiments';

interface Stats {{
  n: number;
  sum: number;
  sumSquares: number;
}}

export interface LiftCase {{
  name: string;
  kind: MetricKind;
  inverse: boolean;
  control: Stats;
  variant: Stats;
  estimate: number;
  standardError: number;
  degreesOfFreedom: number;
  pValue: number;
  interval: [number, number];
  chanceToWin: number;
  credible: [number, number];
  risk: number;
  tuning: number;
  sequentialPValue: number;
  sequentialInterval: [number, number];
}}

export const LIFT_CASES: LiftCase[] = [
{chr(10).join(lift_cases)}
];

export const T_CASES: {{ t: number; degreesOfFreedom: number; pValue: number; quantile975: number }}[] = [
{chr(10).join(t_cases)}
];

export const SRM_CASES: {{ units: number[]; weights: number[]; p: number }}[] = [
{chr(10).join(srm_cases)}
];

export const CORRECTION_CASES: {{ pValues: number[]; holm: number[]; bh: number[] }}[] = [
{chr(10).join(correction_cases)}
];"""
)
