#!/usr/bin/env python3
"""Lazy SMP time to depth: `horizon bench DEPTH` with 1 and with N threads, interleaved.

Prints, per run, each thread count's total time and the per-thread lines bench prints
(completed depth, nodes, nps, whose line was played), then the time-to-depth ratio
(1-thread time / N-thread time) over the total and as the geometric mean of the
per-position ratios. Run it on a quiet machine: every thread needs its own core.

    python3 tests/python/smp_ttd.py --engine target/release/horizon --depth 12 --runs 3 \
        [--threads 2] [--nnue] [--set SMPHelperSkip=true ...]
"""

import argparse
import math
import re
import subprocess

POSITION_LINE = re.compile(r"^(\S+ \S+)\s+-?\d+\s+\d+ nodes\s+(\d+) ms")


def parse_bench(text):
    """Milliseconds per bench position id, from `horizon bench`'s output."""
    times = {}
    for line in text.splitlines():
        match = POSITION_LINE.match(line)
        if match:
            times[match.group(1)] = int(match.group(2))
    return times


def ratios(single, multi):
    """(total ratio, geometric mean of per-position ratios) of 1-thread over N-thread times,
    each argument a list of per-run {id: ms} dictionaries over the same positions."""
    ids = sorted(set(single[0]) & set(multi[0]))
    if not ids:
        raise ValueError("no bench positions in common")
    total_single = sum(run[i] for run in single for i in ids)
    total_multi = sum(run[i] for run in multi for i in ids)
    logs = []
    for i in ids:
        one = sum(run[i] for run in single) / len(single)
        many = sum(run[i] for run in multi) / len(multi)
        logs.append(math.log(max(one, 1) / max(many, 1)))
    return total_single / max(total_multi, 1), math.exp(sum(logs) / len(logs))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True)
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--hash", type=int, default=64)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--nnue", action="store_true",
                        help="evaluate with the built-in network (bench's default is classic)")
    args = parser.parse_args()
    times = {1: [], args.threads: []}
    for run in range(args.runs):
        for threads in (1, args.threads):
            command = [args.engine, "bench", str(args.depth), "--threads", str(threads),
                       "--hash", str(args.hash)]
            for assignment in args.set:
                command += ["--set", assignment]
            if args.nnue:
                command.append("--nnue")
            out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
            per_position = parse_bench(out)
            times[threads].append(per_position)
            print(f"run {run} threads {threads}: {sum(per_position.values())} ms; "
                  f"{out.splitlines()[-1]}", flush=True)
            for line in out.splitlines():
                if line.startswith("thread "):
                    print("   ", line)
    total, geometric = ratios(times[1], times[args.threads])
    print(f"time to depth {args.depth}, 1 thread / {args.threads} threads: total {total:.2f}, "
          f"geometric mean per position {geometric:.2f}")


if __name__ == "__main__":
    main()
