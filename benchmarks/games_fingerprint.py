"""Fingerprint of seeded games: a SHA-256 over everything the engine returns.

A change that is meant to make the engine faster without changing what it
plays must leave this fingerprint as it was: run it on the old and the new tree
(the same seed and counts) and compare. It hashes, for each policy and wall,
the per-game results, the fan counts, the final state vectors and the move logs
of ``--games`` games (``mjstats.games.kernels.play_games``, the engine's kernel,
with the tile checks on), and prints one digest per combination and one over
all.

Usage::

    PYTHONPATH=. python benchmarks/games_fingerprint.py                # 2,000 games each
    PYTHONPATH=/old/tree python benchmarks/games_fingerprint.py --games 2000
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np


def fingerprint(n: int, seed: int, policy: str, wall: str) -> str:
    """SHA-256 (hex) of ``n`` games of ``policy`` at every seat on ``wall``."""
    from mjstats.games import kernels as G
    from mjstats.games.engine import engine_context
    from mjstats.rules import get_ruleset

    rs = get_ruleset("mcr")
    gctx, pctx, tab, suits = engine_context(rs, wall, 0, policy, check=True)
    out = np.zeros((n, G.N_R), np.int64)
    fans = np.zeros((n, rs.n_fans), np.uint8)
    final = np.zeros((n, G.N_STATE), np.int64)
    logs = np.zeros((n, G.MAX_LOG, 4), np.int64)
    G.play_games(0, n, np.uint64(seed), gctx, pctx, tab, suits, rs.n_fans, out, fans, final, logs)
    digest = hashlib.sha256()
    for a in (out, fans, final, logs):
        digest.update(np.ascontiguousarray(a).tobytes())
    return digest.hexdigest()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--policies", default="random,efficiency")
    args = parser.parse_args(argv)
    total = hashlib.sha256()
    for policy in args.policies.split(","):
        for wall in ("shared", "botzone"):
            t0 = time.perf_counter()
            h = fingerprint(args.games, args.seed, policy, wall)
            total.update(h.encode())
            print(f"{policy:11} {wall:8} {h[:16]}  ({time.perf_counter() - t0:.1f} s)")
    print(f"all: {total.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
