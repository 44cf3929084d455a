#!/usr/bin/env python3
"""Bestmove latency at a low clock, through the UCI protocol, for any UCI engine.

Sends `go wtime T btime T winc I binc I` on positions of an EPD file, one after another, and
measures the wall time from writing `go` to reading `bestmove`, as a match runner's clock
does. A time loss at 2+0.02 comes from a move that took longer than what was left; this shows
whether the engine itself overshoots (its own limit, output, thread start) or whether a loss
came from outside it (the machine stalling the process).

    taskset -c 1 python3 tests/python/uci_latency.py ENGINE ../shared/epd/endgames-tb.epd \
        --clock 100 --inc 20 --moves 2000
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_epd import Engine, EngineError, read_fens  # noqa: E402


def summary(times_ms, clock_ms):
    """Mean, median, 99th percentile and maximum, and how many moves used over half the clock
    or all of it (a loss on time in a game)."""
    if not times_ms:
        raise ValueError("no moves measured")
    ordered = sorted(times_ms)
    n = len(ordered)
    return {
        "moves": n,
        "mean": sum(ordered) / n,
        "p50": ordered[n // 2],
        "p99": ordered[min(n - 1, (n * 99) // 100)],
        "max": ordered[-1],
        "over_half_clock": sum(t > clock_ms / 2 for t in ordered),
        "over_clock": sum(t > clock_ms for t in ordered),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine", help="engine command")
    ap.add_argument("epd", help="positions, one EPD or FEN a line")
    ap.add_argument("--clock", type=int, default=100, help="wtime and btime, ms (default 100)")
    ap.add_argument("--inc", type=int, default=20, help="winc and binc, ms (default 20)")
    ap.add_argument("--moves", type=int, default=1000, help="searches to time (default 1000)")
    ap.add_argument("--hash", type=int, default=16, help="Hash, MiB (default 16)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the positions' order")
    args = ap.parse_args()
    fens = read_fens(args.epd)
    if not fens:
        sys.exit(f"no positions in {args.epd}")
    random.Random(args.seed).shuffle(fens)
    times = []
    try:
        engine = Engine("engine", args.engine, [("Hash", str(args.hash))], None)
        for i in range(args.moves):
            engine.send("position fen " + fens[i % len(fens)])
            engine.ready()
            start = time.perf_counter()
            engine.send(f"go wtime {args.clock} btime {args.clock} winc {args.inc} binc {args.inc}")
            engine.wait_for("bestmove", args.clock / 1000 + 5.0)
            times.append((time.perf_counter() - start) * 1000)
        engine.close()
    except EngineError as e:
        sys.exit(f"after {len(times)} searches: {e}")
    s = summary(times, args.clock)
    print(
        f"{s['moves']} moves at {args.clock}+{args.inc} ms: mean {s['mean']:.1f} ms, median "
        f"{s['p50']:.1f}, 99th percentile {s['p99']:.1f}, max {s['max']:.1f}; over half the clock "
        f"{s['over_half_clock']}, over the clock {s['over_clock']}"
    )


if __name__ == "__main__":
    main()
