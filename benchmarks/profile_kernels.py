"""Where a command's run time goes, by numba kernel: a sampling profile through gdb.

``perf`` cannot name numba's compiled code (it is generated in memory, with no
symbol map), but gdb can: LLVM registers each compiled object with gdb's JIT
interface. This script starts the command, lets it warm up, then stops it
``--samples`` times with ``gdb -batch -ex "bt 1"`` and counts the innermost
frame's function (numba's frames have no frame pointers, so only the innermost
one is reliable: the counts are *self* time, not time under a function). Run it
on one thread (the default sets ``NUMBA_NUM_THREADS=1``) and on a warm cache, or
the compiler is what it samples.

Usage::

    python benchmarks/profile_kernels.py -- python -c "from mjstats.games import \\
        play_games; play_games(100_000, seed=2, policy='planner', wall='botzone')"
    python benchmarks/profile_kernels.py --samples 400 --delay 10 -- mjstats study \\
        games --n 200000 --policy planner --out /tmp/r

Measured with the first line, 2026-12-07, a 2-core Intel Xeon, in two runs (150
samples with a draft of this script, 100 with it; about 2.5 s a sample, gdb reading
the symbols each time): the planner's own time is spread over its plans (36-41 %:
``_kept_value`` 7-12 %, ``collect_targets_beside`` 7-11 %, ``weigh_discards`` 4-5 %,
...), the near-win look-ahead (23-26 %: ``_best_ready`` 10-13 %,
``_legal_ready_draws`` 7-9 %, ``legal_outs`` 4-7 %) and the scorer it calls there
(17-22 %: ``_score_hand``, ``_score_division``, ...); no one kernel holds a fifth.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import time


def frame_name(line: str) -> str:
    """The function of a gdb backtrace line, numba's mangled names made dotted.

    Examples
    --------
    >>> frame_name("#0  0x7f in _ZN7mjstats5games5plans11_kept_valueB4v619E5Array ()")
    'mjstats.games.plans._kept_value'
    >>> frame_name("#0  0x7f in mjstats::kernels::shanten::useful_one[abi:v233](Array<x>)")
    'mjstats.kernels.shanten.useful_one'
    >>> frame_name("#0  0x7f in ?? ()")
    '??'
    """
    m = re.search(r" in (\S+)", line)
    if not m:
        return "?"
    name = m.group(1)
    if name.startswith("_ZN"):  # Itanium mangling: <length><part>..., then the ABI tags
        rest, parts = name[3:], []
        while rest[:1].isdigit():
            digits = re.match(r"\d+", rest).group()
            size = int(digits)
            parts.append(rest[len(digits) : len(digits) + size])
            rest = rest[len(digits) + size :]
        return ".".join(parts) or name
    return re.split(r"\[abi:|\(", name)[0].replace("::", ".")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=200, help="stops to sample")
    parser.add_argument("--interval", type=float, default=0.1, help="seconds between stops")
    parser.add_argument("--delay", type=float, default=6.0, help="seconds of warm-up first")
    parser.add_argument("--threads", default="1", help="NUMBA_NUM_THREADS of the command")
    parser.add_argument("--top", type=int, default=30, help="functions to print")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND ARGS...")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to profile after --")
    if shutil.which("gdb") is None:
        parser.error("gdb is not installed (Debian: apt-get install gdb)")
    env = dict(os.environ, NUMBA_NUM_THREADS=args.threads)
    child = subprocess.Popen(command, env=env)
    counts: collections.Counter[str] = collections.Counter()
    try:
        time.sleep(args.delay)
        for _ in range(args.samples):
            if child.poll() is not None:
                break
            out = subprocess.run(
                ["gdb", "-p", str(child.pid), "-batch", "-ex", "bt 1"],
                capture_output=True,
                text=True,
            ).stdout
            top = next((line for line in out.splitlines() if line.startswith("#0")), "")
            counts[frame_name(top) if top else "?"] += 1
            time.sleep(args.interval)
    finally:
        child.kill()
        child.wait()
    total = sum(counts.values())
    if not total:
        print("no samples: the command ended before the warm-up did", file=sys.stderr)
        return 1
    print(f"{total} samples of the innermost frame (self time)")
    for name, n in counts.most_common(args.top):
        print(f"{100 * n / total:5.1f} %  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
