#!/usr/bin/python3
"""numpy/scipy side of bench/stats.bench.ts: the same population analysis on the same input.

Usage: /usr/bin/python3 bench/stats-reference.py <column-major float64 file> <rows> <cols>
then, one per line on stdin: `versions`, `stage <name>`, `whole` (each answered with {"ms": ...}) or `check`
(values to compare with ours). The TypeScript side alternates its own runs with these, so both see the same load.
"""
import json
import os
import platform
import sys
import time

import numpy as np
import scipy
from scipy import stats

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools", "stats-reference"))
from algorithms import extreme_cases  # noqa: E402

PERCENTILES = [5, 50, 95]
ALPHA = 0.001


def per_parameter(x):
    out = []
    for j in range(x.shape[1]):
        c = x[:, j]
        q1, med, q3 = np.percentile(c, [25, 50, 75])
        summary = (c.size, c.mean(), c.std(ddof=1), c.min(), c.max(), med, q1, q3, stats.skew(c, bias=False))
        pct = np.percentile(c, PERCENTILES)
        lo, hi = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
        tukey = np.nonzero((c < lo) | (c > hi))[0]
        out.append((summary, pct, tukey))
    return out


def kde(x, points=256):
    out = []
    for j in range(x.shape[1]):
        c = x[:, j]
        k = stats.gaussian_kde(c, bw_method="scott")
        h = np.sqrt(k.covariance[0, 0])
        grid = np.linspace(c.min() - 3 * h, c.max() + 3 * h, points)
        out.append(k.evaluate(grid))
    return out


def pearson(x):
    n = x.shape[0]
    r = np.clip(np.corrcoef(x, rowvar=False), -1, 1)
    ab = n / 2 - 1  # scipy.stats.pearsonr's exact null distribution of r, vectorised
    p = 2 * stats.beta.sf(np.abs(r), ab, ab, loc=-1, scale=2)
    return r, p


def spearman(x):
    res = stats.spearmanr(x)
    return res.statistic, res.pvalue


def mahalanobis(x):
    diff = x - x.mean(axis=0)
    cov = np.cov(x, rowvar=False)
    d2 = np.einsum("ij,ij->i", diff @ np.linalg.inv(cov), diff)
    thr = stats.chi2.ppf(1 - ALPHA, x.shape[1])
    idx = np.nonzero(d2 > thr)[0]
    return d2, idx


def wilson(count, n, z):
    p = count / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def coverage(x, sizes):
    n = x.shape[0]
    z = stats.norm.ppf(0.975)
    masks = []
    for ranges in sizes:
        m = np.ones(n, dtype=bool)
        for j, lo, hi in ranges:
            m &= (x[:, j] >= lo) & (x[:, j] <= hi)
        masks.append(m)
        wilson(m.sum(), n, z)
    union = np.logical_or.reduce(masks).sum()
    wilson(union, n, z)
    # sizing window: narrowest window of `needed` sorted values containing the median
    s = np.sort(x[:, 0])
    seed = np.percentile(s, 50)
    needed = int(np.ceil(0.5 * n - 1e-9))
    lo, hi = s[: n - needed + 1], s[needed - 1 :]
    width = np.where((lo <= seed) & (hi >= seed), hi - lo, np.inf)
    offset = np.abs((lo + hi) / 2 - seed)
    best = np.lexsort((offset, width))[0]
    return int(union), float(lo[best]), float(hi[best])


def main():
    path, rows, cols = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    x = np.fromfile(path, dtype="<f8").reshape(cols, rows).T.copy()  # column-major on disk -> patients x parameters
    c0 = x[:, 0]
    q1, q3 = np.percentile(c0, [25, 75])
    sizes = [[(0, c0.min(), q1)], [(0, q1, q3)], [(0, q3, c0.max()), (2, -1e9, 1e9)]]
    stages = {
        "summary, percentiles, Tukey": lambda: per_parameter(x),
        "KDE (Scott, 256 points)": lambda: kde(x),
        "Pearson + p-values": lambda: pearson(x),
        "Spearman + p-values": lambda: spearman(x),
        "Mahalanobis": lambda: mahalanobis(x),
        "extreme cases": lambda: extreme_cases(x, count=5, seed=1),
        "coverage + sizing window": lambda: coverage(x, sizes),
    }

    def whole():
        return {name: fn() for name, fn in stages.items()}

    def timed(fn):
        t0 = time.perf_counter()
        fn()
        return {"ms": (time.perf_counter() - t0) * 1000}

    def check():
        results = whole()
        d2, idx = results["Mahalanobis"]
        union, smin, smax = results["coverage + sizing window"]
        return {
            "densitySum": float(sum(d.sum() for d in results["KDE (Scott, 256 points)"])),
            "pearsonSum": float(results["Pearson + p-values"][0].sum()),
            "spearmanSum": float(np.asarray(results["Spearman + p-values"][0]).sum()),
            "mahalanobisMax": float(d2.max()),
            "mahalanobisCount": int(idx.size),
            "extremeRows": [c["row"] for c in results["extreme cases"]["cases"]],
            "unionCount": union,
            "sizingMin": smin,
            "sizingMax": smax,
        }

    # One command per line on stdin, one JSON line per answer on stdout.
    for line in sys.stdin:
        command = line.strip()
        if command == "versions":
            answer = {"python": platform.python_version(), "numpy": np.__version__, "scipy": scipy.__version__}
        elif command == "whole":
            answer = timed(whole)
        elif command.startswith("stage "):
            answer = timed(stages[command[len("stage ") :]])
        elif command == "check":
            answer = check()
        else:
            answer = {"error": f"unknown command {command!r}"}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
