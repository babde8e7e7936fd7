#!/usr/bin/python3
"""Reference values for @insilico/stats, computed with numpy/scipy.

Run with Debian's interpreter (numpy/scipy live there, not in the python3 first on PATH):

    /usr/bin/python3 tools/stats-reference/reference.py

Generates deterministic inputs (numpy Generator seeded below), computes every method of
packages/stats with numpy/scipy, and writes packages/stats/test/fixtures/reference.json with the
versions used. The TS tests read the inputs and the expected values from that file, so the test
suite needs no Python. The output is deterministic: rerunning on the same versions gives the same file.
"""
import json
import os
import platform
import sys

import numpy as np
import scipy
from scipy import stats

from algorithms import extreme_cases

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "packages", "stats", "test", "fixtures", "reference.json")
SEED = 20261121


def population(rng, n):
    """n patients x 6 anatomical-like parameters (mm, mm^2, degrees), correlated, rounded to 0.1 (ties)."""
    size = rng.normal(0.0, 1.0, n)
    shape = rng.normal(0.0, 1.0, n)
    cols = [
        72.0 + 6.0 * size + rng.normal(0, 1.2, n),  # annulus perimeter, mm
        22.5 + 1.9 * size + rng.normal(0, 0.35, n),  # annulus diameter, mm (r > 0.9 with the perimeter)
        380.0 + 60.0 * size + 25.0 * shape + rng.normal(0, 20, n),  # annulus area, mm^2
        14.0 + 2.0 * shape + rng.gamma(2.0, 1.0, n),  # coronary height, mm (skewed)
        45.0 + 8.0 * rng.standard_t(5, n),  # angle, degrees (heavy tails)
        30.0 + 3.0 * rng.normal(0, 1, n) + 1.5 * shape,  # sinus width, mm
    ]
    x = np.column_stack(cols)
    x[7, 3] += 15.0  # a univariate outlier
    x[42, :] = x[42, :] + np.array([-8.0, 3.0, 0.0, 0.0, 0.0, 0.0])  # a multivariate outlier (breaks the size relation)
    return np.round(x, 1)


def encode(value):
    """JSON has no NaN/Infinity: write them as the strings "NaN", "Infinity", "-Infinity"."""
    if isinstance(value, float) and not np.isfinite(value):
        return "NaN" if np.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    return value


def wilson(count, n, confidence=0.95):
    z = stats.norm.ppf(1 - (1 - confidence) / 2)
    p = count / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return {"count": int(count), "n": int(n), "fraction": p, "lower": max(0.0, centre - half), "upper": min(1.0, centre + half)}


def kde_entry(x, rule, points=256):
    kde = stats.gaussian_kde(x, bw_method=rule)
    h = float(np.sqrt(kde.covariance[0, 0]))
    grid = np.linspace(x.min() - 3 * h, x.max() + 3 * h, points)
    return {"rule": rule, "points": points, "bandwidth": h, "x": grid.tolist(), "density": kde.evaluate(grid).tolist()}


def main():
    rng = np.random.default_rng(SEED)
    x = population(rng, 200)
    n, p = x.shape
    cols = [x[:, j] for j in range(p)]

    summary = []
    for c in cols:
        summary.append(
            {
                "n": int(c.size),
                "mean": float(np.mean(c)),
                "sd": float(np.std(c, ddof=1)),
                "min": float(np.min(c)),
                "max": float(np.max(c)),
                "median": float(np.median(c)),
                "q1": float(np.percentile(c, 25)),
                "q3": float(np.percentile(c, 75)),
                "skewness": float(stats.skew(c, bias=False)),
            }
        )

    requested = [-5, 0, 2.5, 5, 33.3, 50, 95, 99.9, 100, 120]
    raw_percentiles = [[float(np.percentile(c, min(100, max(0, q)))) for q in requested] for c in cols]

    small = {}
    for m in (2, 12, 19, 20, 21):
        v = np.round(rng.normal(70.0, 5.0, m), 2)
        if m >= 20:
            vals = [float(np.percentile(v, min(100, max(0, q)))) for q in requested]
        else:
            sd = np.std(v, ddof=1)
            vals = [float(stats.norm.ppf(min(100, max(0, q)) / 100, loc=np.mean(v), scale=sd)) for q in requested]
        small[str(m)] = {"values": v.tolist(), "method": "raw" if m >= 20 else "normal", "percentiles": vals}

    density = [[kde_entry(c, rule) for rule in ("scott", "silverman")] for c in cols]

    pearson_r = np.corrcoef(x, rowvar=False)
    pearson_p = np.zeros((p, p))
    for a in range(p):
        for b in range(p):
            pearson_p[a, b] = 0.0 if a == b else stats.pearsonr(x[:, a], x[:, b]).pvalue
    sp = stats.spearmanr(x)
    ranks = [stats.rankdata(c, method="average").tolist() for c in cols]

    # p-values far into the tail, and for small n.
    pvalue_cases = []
    for m, rho in ((5, 0.3), (20, 0.5), (30, 0.99), (200, 0.95), (200, -0.2), (1000, 0.999), (50, 0.0)):
        a = rng.normal(0, 1, m)
        b = rho * a + np.sqrt(1 - rho * rho) * rng.normal(0, 1, m)
        res = stats.pearsonr(a, b)
        pvalue_cases.append({"n": m, "r": float(res.statistic), "p": float(res.pvalue)})

    tukey = []
    for c in cols:
        q1, q3 = np.percentile(c, [25, 75])
        lo, hi = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
        tukey.append({"q1": float(q1), "q3": float(q3), "lower": float(lo), "upper": float(hi), "indices": np.nonzero((c < lo) | (c > hi))[0].tolist()})

    mean = x.mean(axis=0)
    cov = np.cov(x, rowvar=False)
    inv = np.linalg.inv(cov)
    diff = x - mean
    d2 = np.einsum("ij,jk,ik->i", diff, inv, diff)
    maha = {}
    for alpha in (0.001, 0.05):
        thr = float(stats.chi2.ppf(1 - alpha, p))
        idx = np.nonzero(d2 > thr)[0]
        idx = idx[np.lexsort((idx, -d2[idx]))]
        maha[str(alpha)] = {"threshold": thr, "indices": idx.tolist()}

    extremes = {}
    for seed, count, kept in ((1, 5, 0.9), (7, 3, 0.9), (3, 5, 1.0)):
        extremes[f"{seed}-{count}-{kept}"] = extreme_cases(x, count=count, seed=seed, variance_kept=kept)

    sizes = [
        {"name": "S", "ranges": [{"parameter": 0, "min": 60.0, "max": 68.0}]},
        {"name": "M", "ranges": [{"parameter": 0, "min": 66.0, "max": 80.0}]},
        {"name": "L", "ranges": [{"parameter": 0, "min": 78.0, "max": 90.0}, {"parameter": 3, "min": 10.0, "max": 30.0}]},
    ]
    inside = []
    for s in sizes:
        mask = np.ones(n, dtype=bool)
        for r in s["ranges"]:
            v = x[:, r["parameter"]]
            mask &= (v >= r["min"]) & (v <= r["max"])
        inside.append(mask)
    coverage = {
        "sizes": sizes,
        "perSize": [dict(wilson(int(m.sum()), n), name=s["name"]) for s, m in zip(sizes, inside)],
        "union": wilson(int(np.logical_or.reduce(inside).sum()), n),
    }
    wilson_cases = [dict(wilson(c, m, conf), confidence=conf) for c, m, conf in ((0, 20, 0.95), (20, 20, 0.95), (7, 23, 0.95), (137, 200, 0.95), (5000, 10000, 0.99), (1, 3, 0.9))]

    out = {
        "generator": "tools/stats-reference/reference.py",
        "versions": {"python": platform.python_version(), "numpy": np.__version__, "scipy": scipy.__version__},
        "seed": SEED,
        "population": {"rows": n, "cols": p, "columns": [c.tolist() for c in cols]},
        "summary": summary,
        "percentiles": {"requested": requested, "raw": raw_percentiles, "small": small},
        "density": density,
        "ranks": ranks,
        "pearson": {"r": pearson_r.ravel().tolist(), "p": pearson_p.ravel().tolist()},
        "spearman": {"r": np.asarray(sp.statistic).ravel().tolist(), "p": np.asarray(sp.pvalue).ravel().tolist()},
        "pvalueCases": pvalue_cases,
        "tukey": tukey,
        "mahalanobis": {"distances": d2.tolist(), "alphas": maha},
        "extremeCases": extremes,
        "coverage": coverage,
        "wilson": wilson_cases,
    }
    with open(OUT, "w") as f:
        json.dump(encode(out), f, indent=None, separators=(",", ":"), allow_nan=False)
        f.write("\n")
    print(f"wrote {os.path.relpath(OUT, ROOT)} (python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__})", file=sys.stderr)


if __name__ == "__main__":
    main()
