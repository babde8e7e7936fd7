#!/usr/bin/env python3
"""Reference output of non-rigid coherent point drift for @insilico/mesh, computed with numpy.

    python3 tools/cpd-reference/cpd_reference.py   (numpy 2)

Implements Myronenko & Song (2010), Fig. 4, as directly as numpy allows: the dense Gaussian kernel G, the posterior
matrix P, and the M-step's system (G + lambda sigma^2 d(P1)^-1) W = d(P1)^-1 P X - Y solved by LAPACK; both sets
normalised to zero mean and unit RMS radius first, as the authors' code does. The TypeScript implementation
(packages/mesh/src/coherentPointDrift.ts) solves the same system through a low-rank kernel and the Woodbury
identity; at full rank it must give these positions. Inputs are generated here (numpy Generator, seed below) and
written with the output to packages/mesh/test/fixtures/cpd-reference.json, so the test suite needs no Python.
"""
import json
import os
import platform

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "packages", "mesh", "test", "fixtures", "cpd-reference.json")
SEED = 20261128


def cpd(moving, fixed, beta, lam, w, max_iterations, tolerance):
    def normalise(p):
        mean = p.mean(0)
        q = p - mean
        scale = np.sqrt((q ** 2).sum() / len(p))
        return q / scale, mean, scale

    x, x_mean, x_scale = normalise(fixed)
    y, _, _ = normalise(moving)
    m, n, d = len(y), len(x), 3
    g = np.exp(-((y[:, None, :] - y[None, :, :]) ** 2).sum(2) / (2 * beta ** 2))
    w_ = np.zeros((m, d))
    t = y.copy()
    sigma2 = ((x[None, :, :] - y[:, None, :]) ** 2).sum() / (d * m * n)
    previous = np.inf
    iterations = 0
    while iterations < max_iterations:
        iterations += 1
        k = np.exp(-((x[None, :, :] - t[:, None, :]) ** 2).sum(2) / (2 * sigma2))
        c = (2 * np.pi * sigma2) ** 1.5 * w / (1 - w) * m / n
        den = k.sum(0) + c
        p = k / den
        p1, pt1, px = p.sum(1), p.sum(0), p @ x
        np_ = p1.sum()
        objective = -np.log(den).sum() + np_ * d * np.log(sigma2) / 2 + lam / 2 * np.trace(w_.T @ g @ w_)
        if abs(objective - previous) <= tolerance * abs(objective):
            break
        previous = objective
        a = g + lam * sigma2 * np.diag(1 / p1)
        w_ = np.linalg.solve(a, px / p1[:, None] - y)
        t = y + g @ w_
        sigma2 = ((pt1 * (x ** 2).sum(1)).sum() - 2 * (px * t).sum() + (p1 * (t ** 2).sum(1)).sum()) / (np_ * d)
        sigma2 = max(sigma2, 1e-12)
    return t * x_scale + x_mean, iterations


def ellipsoid_cloud(rng, count, radii):
    """Points on an ellipsoid (mm), directions uniform on the sphere."""
    v = rng.normal(size=(count, 3))
    v /= np.linalg.norm(v, axis=1)[:, None]
    return v * np.array(radii)


def bend(p):
    """A smooth warp (mm): a sideways bend, a taper and a twist, a few mm on a 60 mm shape."""
    x, y, z = p[:, 0], p[:, 1], p[:, 2]
    return np.stack([x + 4 * np.sin(z / 25), y * (1 + z / 150), z + 3 * np.cos(x / 30)], axis=1) + [5, -3, 8]


def main():
    rng = np.random.default_rng(SEED)
    cases = []
    for name, m, n, options in [
        ("paper defaults", 60, 90, dict(beta=2.0, lam=3.0, w=0.1)),
        ("narrow kernel, no outliers", 80, 70, dict(beta=0.5, lam=2.0, w=0.0)),
    ]:
        moving = ellipsoid_cloud(rng, m, [30, 20, 15])
        fixed = bend(ellipsoid_cloud(rng, n, [30, 20, 15]))
        # A fixed number of EM iterations (tolerance 0): no stopping decision near a threshold to differ on.
        positions, iterations = cpd(moving, fixed, max_iterations=50, tolerance=0.0, **options)
        cases.append(
            {
                "name": name,
                "beta": options["beta"],
                "lambda": options["lam"],
                "w": options["w"],
                "maxIterations": 50,
                "tolerance": 0,
                "moving": moving.ravel().tolist(),
                "fixed": fixed.ravel().tolist(),
                "positions": positions.ravel().tolist(),
                "iterations": iterations,
            }
        )
    out = {"generator": f"numpy {np.__version__}, Python {platform.python_version()}", "seed": SEED, "cases": cases}
    with open(OUT, "w") as f:
        json.dump(out, f)
        f.write("\n")


if __name__ == "__main__":
    main()
