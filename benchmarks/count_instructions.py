"""Instructions, branches and (simulated) mispredictions per hand of the MCR
batch scorer, counted by valgrind's callgrind.

Timings on a shared VM move by a third between runs; instruction counts do not:
the same kernel on the same hands gives the same count, whatever else the
machine is doing. That makes this the instrument for comparing two versions of
a kernel (a change that removes instructions without adding mispredictions
makes it faster; confirm with timings). The mispredictions come from
callgrind's simple branch model, not the CPU's predictor: compare them between
versions, do not read them as the CPU's.

How: the script scores N + 1 and 1 hands (``score_rows`` on one thread) in two
processes under ``valgrind --tool=callgrind``, collecting only inside numba's
dispatcher (``--toggle-collect=*call_cfunc*``, so Python's start-up is not
counted), and prints the difference divided by N. ``PYTHONHASHSEED`` and
numba's CPU name and features are fixed so that both processes, and the run
that fills the numba cache beforehand (natively: compiling under valgrind
is far slower; a run that had to compile was stopped after 15 CPU minutes),
see the same machine. Needs valgrind (Debian's ``valgrind``).

Usage::

    python benchmarks/count_instructions.py                    # mixed, 20,000 hands
    python benchmarks/count_instructions.py --style concealed --hands 5000

Output (mixed hands, 20,000, at the commit that added this script)::

    mixed: 1822 instructions, 148 conditional branches, 17.1 mispredicted (model) per hand
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

_CHILD = """
import sys
import numpy as np
import numba
numba.set_num_threads(1)
from mjstats.rulesets.mcr import kernel as mcr
from mjstats.kernels.decompose import suit_table
from mjstats.studies.generate_wins import generate_wins

style, total, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
w = generate_wins(total, 1, style).as_dict()  # the same hands whatever n
keys = ("concealed", "melds", "win_tile", "self_drawn", "last_of_kind", "kong_win",
        "last_of_wall", "seat_wind", "round_wind", "flowers")
args = [np.ascontiguousarray(w[k][:n]) for k in keys]
for a in args:
    a.setflags(write=False)
table = suit_table()
out = (np.zeros(n, np.int16), np.zeros((n, mcr.N_FANS), np.uint8), np.zeros(n, np.uint8),
       np.zeros(n, np.bool_), np.zeros((0, 8, 4), np.uint8))
mcr.score_rows(*args, 3, 8, False, *out, table)
print("scored", n, int(out[0].astype(np.int64).sum()))
"""


def _environment() -> dict:
    import llvmlite.binding as llvm

    env = dict(os.environ)
    env["PYTHONHASHSEED"] = "0"
    # the host's unless set (valgrind 3.19 stops with SIGILL on AVX-512 code: on
    # such a host run with NUMBA_CPU_NAME=haswell NUMBA_CPU_FEATURES="")
    if "NUMBA_CPU_NAME" not in env:
        env["NUMBA_CPU_NAME"] = llvm.get_host_cpu_name()
        env["NUMBA_CPU_FEATURES"] = llvm.get_host_cpu_features().flatten()
    env.setdefault("NUMBA_CACHE_DIR", os.path.join(tempfile.gettempdir(), "mjstats-callgrind"))
    return env


def _counts(script: str, style: str, total: int, n: int, env: dict) -> list[int]:
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--branch-sim=yes",
        "--collect-atstart=no",
        "--toggle-collect=*call_cfunc*",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        script,
        style,
        str(total),
        str(n),
    ]
    run = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : ([\d ]+)", run.stderr)
    if not found:
        raise RuntimeError(f"no callgrind totals in its output:\n{run.stderr[-2000:]}")
    return [int(x) for x in found.group(1).split()]  # Ir Bc Bcm Bi Bim


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--style", default="mixed", help="generate_wins style (mixed, concealed)")
    parser.add_argument("--hands", type=int, default=20_000, help="hands counted (default 20,000)")
    args = parser.parse_args(argv)
    env = _environment()
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "score_under_callgrind.py")
        with open(script, "w") as fh:
            fh.write(_CHILD)
        total = args.hands + 1
        # fill the numba cache natively first (the same CPU name and features)
        subprocess.run(
            [sys.executable, script, args.style, str(total), "1"],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        one = _counts(script, args.style, total, 1, env)
        many = _counts(script, args.style, total, total, env)
    ir, bc, bcm = ((b - a) / args.hands for a, b in zip(one[:3], many[:3], strict=True))
    print(
        f"{args.style}: {ir:.0f} instructions, {bc:.0f} conditional branches, "
        f"{bcm:.1f} mispredicted (model) per hand"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
