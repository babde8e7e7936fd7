#!/usr/bin/env python3
"""Reference values for packages/stats/src/representativeness.ts (issue 23), computed with numpy/scipy.

    python3 tools/stats-reference/representativeness.py   (the interpreter with numpy/scipy)

Writes packages/stats/test/fixtures/representativeness.json: the inputs (seeded numpy Generator) and, per case,
scipy's two-sample Kolmogorov-Smirnov statistic and exact p-value, Kolmogorov's limit law (kstwobign), the energy
distance (numpy/cdist; scipy.stats.energy_distance squared in one dimension) with the permutation p-value replayed
with the same Mulberry32 shuffles as the TypeScript, and squared Mahalanobis distances with chi-square quantiles.
"""
import json
import os
import platform

import numpy as np
import scipy
from scipy import stats
from scipy.spatial.distance import cdist, mahalanobis

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "packages", "stats", "test", "fixtures", "representativeness.json")
SEED = 20261128


def mulberry32(seed):
    """packages/stats/src/random.ts, bit for bit."""
    a = seed & 0xFFFFFFFF

    def imul(x, y):
        return (x * y) & 0xFFFFFFFF

    def nxt():
        nonlocal a
        a = (a + 0x6D2B79F5) & 0xFFFFFFFF
        t = imul(a ^ (a >> 15), 1 | a)
        t = ((t + imul(t ^ (t >> 7), 61 | t)) & 0xFFFFFFFF) ^ t
        return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296

    return nxt


def energy(x, y):
    n, m = len(x), len(y)
    e = 2 * cdist(x, y).mean() - cdist(x, x).mean() - cdist(y, y).mean()
    return e, n * m / (n + m) * e


def energy_p(x, y, permutations, seed):
    _, observed = energy(x, y)
    pooled = np.vstack([x, y])
    labels = np.array([0] * len(x) + [1] * len(y))
    rand = mulberry32(seed)
    larger = 0
    for _ in range(permutations):
        for i in range(len(pooled) - 1, 0, -1):
            j = int(rand() * (i + 1))
            labels[i], labels[j] = labels[j], labels[i]
        _, t = energy(pooled[labels == 0], pooled[labels == 1])
        if t >= observed:
            larger += 1
    return (1 + larger) / (1 + permutations)


def main():
    rng = np.random.default_rng(SEED)
    ks = []
    # Equal and unequal sizes, a shift, a wider spread, no difference; values continuous (no ties).
    for n1, n2, shift, scale in [(20, 20, 0.0, 1.0), (30, 45, 0.5, 1.0), (100, 506, 0.0, 1.3), (17, 80, 1.0, 1.0),
                                 (200, 150, 0.1, 1.0)]:
        a = rng.normal(size=n1)
        b = rng.normal(shift, scale, size=n2)
        exact = stats.ks_2samp(a, b, method="exact")
        en = n1 * n2 / (n1 + n2)
        ks.append({"a": a.tolist(), "b": b.tolist(), "statistic": float(exact.statistic),
                   "exact": float(exact.pvalue),
                   "limit": float(stats.kstwobign.sf(np.sqrt(en) * exact.statistic))})
    lambdas = [0.2, 0.5, 0.8, 0.99, 1.0, 1.2, 1.5, 2.5]
    kolmogorov = [{"lambda": l, "sf": float(stats.kstwobign.sf(l))} for l in lambdas]

    # Energy: two 3-parameter samples (the second shifted) and one dimension against scipy.
    x = rng.normal(size=(40, 3))
    y = rng.normal(size=(55, 3)) + np.array([0.4, 0.0, -0.2])
    e, t = energy(x, y)
    same = rng.normal(size=(30, 3))
    e_same, t_same = energy(x, same)
    u = rng.normal(size=25)
    v = rng.normal(0.3, 1.2, size=33)
    e1, _ = energy(u[:, None], v[:, None])
    energy_cases = {
        "x": x.tolist(), "y": y.tolist(), "same": same.tolist(), "permutations": 99, "seed": 7,
        "shifted": {"energy": e, "statistic": t, "p": energy_p(x, y, 99, 7)},
        "null": {"energy": e_same, "statistic": t_same, "p": energy_p(x, same, 99, 7)},
        "oneD": {"u": u.tolist(), "v": v.tolist(), "energy": e1,
                 "scipy": float(stats.energy_distance(u, v)) ** 2},
    }

    # Mahalanobis: a reference of 300 correlated patients, a cohort of 60.
    cov = np.array([[4.0, 1.2, 0.5], [1.2, 9.0, -1.0], [0.5, -1.0, 2.25]])
    mean = np.array([24.0, 75.0, 18.0])
    cohort = rng.multivariate_normal(mean + np.array([0.5, 0, 0]), cov * 1.2, size=60)
    inv = np.linalg.inv(cov)
    d2 = sorted(mahalanobis(row, mean, inv) ** 2 for row in cohort)
    n = len(d2)
    maha = {"cohort": cohort.tolist(), "mean": mean.tolist(), "covariance": cov.ravel().tolist(),
            "distances": d2, "expected": [float(stats.chi2.ppf((i + 0.5) / n, 3)) for i in range(n)],
            "beyond95": float(np.mean(np.array(d2) > stats.chi2.ppf(0.95, 3)))}
    out = {"versions": {"python": platform.python_version(), "numpy": np.__version__, "scipy": scipy.__version__},
           "ks": ks, "kolmogorov": kolmogorov, "energy": energy_cases, "mahalanobis": maha}
    with open(OUT, "w") as f:
        json.dump(out, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
