"""numpy versions of the deterministic algorithms of @insilico/stats that scipy has no exact equivalent of.

Written independently from the TypeScript, from the method description in
docs/decisions/stats-extreme-cases.md, with numpy.linalg.eigh for the PCA. Shared by the reference
fixtures (reference.py) and the benchmark (bench/stats-reference.py).
"""
import numpy as np

M32 = 0xFFFFFFFF


def mulberry32(seed):
    """Mulberry32 uniform generator on [0, 1), bit-exact with packages/stats/src/random.ts."""
    state = [seed & M32]

    def imul(a, b):
        return (a * b) & M32

    def nxt():
        state[0] = (state[0] + 0x6D2B79F5) & M32
        a = state[0]
        t = imul(a ^ (a >> 15), 1 | a)
        t = ((t + imul(t ^ (t >> 7), 61 | t)) & M32) ^ t
        return ((t ^ (t >> 14)) & M32) / 4294967296.0

    return nxt


def extreme_cases(x, count=5, seed=1, variance_kept=0.9, max_iterations=300):
    """Standardise, PCA (correlation matrix) to variance_kept, k-means++ (seeded) + Lloyd, farthest member per cluster."""
    n, _ = x.shape
    mean = x.mean(axis=0)
    sd = x.std(axis=0, ddof=1)
    keep = sd > 0
    z = (x[:, keep] - mean[keep]) / sd[keep]
    corr = z.T @ z / (n - 1)
    values, vectors = np.linalg.eigh(corr)
    order = np.argsort(-values, kind="stable")
    values, vectors = values[order], vectors[:, order]
    pos = np.maximum(values, 0)
    total = pos.sum()
    cum = np.cumsum(pos)
    q = int(np.argmax(cum >= variance_kept * total * (1 - 1e-12))) + 1
    scores = z @ vectors[:, :q]

    k = min(count, n)
    rand = mulberry32(seed)
    first = int(np.floor(rand() * n))
    centres = [scores[first].copy()]
    nearest = np.full(n, np.inf)
    while True:
        d = ((scores - centres[-1]) ** 2).sum(axis=1)
        nearest = np.minimum(nearest, d)
        total_d = nearest.sum()
        if len(centres) >= k or not total_d > 0:
            break
        u = rand() * total_d
        cs = np.cumsum(nearest)
        pick = int(np.searchsorted(cs, u, side="right"))
        if pick >= n:
            pick = int(np.nonzero(nearest > 0)[0][-1])
        centres.append(scores[pick].copy())
    centres = np.array(centres)
    clusters = len(centres)

    assign = np.full(n, -1)
    iterations = 0
    while iterations < max_iterations:
        d = ((scores[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        new = np.argmin(d, axis=1)
        if np.array_equal(new, assign):
            break
        assign = new
        for c in range(clusters):
            members = scores[assign == c]
            if len(members):
                centres[c] = members.mean(axis=0)
        iterations += 1

    norms = (scores**2).sum(axis=1)
    cases = []
    for c in range(clusters):
        members = np.nonzero(assign == c)[0]
        if len(members) == 0:
            continue
        row = int(members[np.argmax(norms[members])])
        cases.append({"row": row, "cluster": c, "clusterSize": int(len(members)), "distance": float(np.sqrt(norms[row]))})
    cases.sort(key=lambda e: (-e["distance"], e["row"]))
    return {"cases": cases, "components": q, "explainedVariance": float(cum[q - 1] / total), "assignments": assign.tolist(), "iterations": iterations}
