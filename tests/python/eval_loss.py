#!/usr/bin/env python3
"""How well the classic evaluation, the network and their blends predict game results.

`NetworkClassicBlend` mixes the classic evaluation into the network's in endings of six men or
fewer; it solves more of `endgames-tb.epd` (docs/strength.md). This asks the other question:
on the positions of Horizon's own games, which evaluation foretells the result better? For a
sample of positions with --min-men to --max-men men (kings included) from a file of
`horizon data --format text --score` (`<FEN> | <result> | <score>`, side to move's view), the
engine's UCI `eval` command gives both values; each evaluation, and each blend of them as the
engine forms it, is scored by the mean squared error of `sigmoid(value / 400)` against the
game's result, at scale 1 and at the scale that fits best (which compares evaluations of
different spreads by how well they rank positions).

    horizon data --in val_d18a.bin,val_d18b.bin --format text --score --out val.txt
    python3 tests/python/eval_loss.py --engine target/release/horizon --data val.txt --max-men 6
"""

from __future__ import annotations

import argparse
import math
import random
import subprocess
import sys
from typing import List, Sequence, TextIO, Tuple

import eval_scale

Record = Tuple[str, float, int]
SCALES = [s / 100 for s in range(20, 301, 5)]


def read_records(handle: TextIO) -> List[Record]:
    """(FEN, result, score) per `<FEN> | <result> | <score>` line; blank lines are skipped."""
    records = []
    for number, line in enumerate(handle, 1):
        if not line.strip():
            continue
        fields = [f.strip() for f in line.split("|")]
        if len(fields) != 3:
            raise ValueError(f"line {number}: expected `<FEN> | <result> | <score>`")
        fen, result, score = fields
        try:
            records.append((fen, float(result), int(score)))
        except ValueError as err:
            raise ValueError(f"line {number}: {err}") from err
    return records


def men(fen: str) -> int:
    """Pieces on the board, kings included."""
    return sum(c.isalpha() for c in fen.split()[0])


def blend(network: int, classic: int, percent: int) -> int:
    """`percent` of the classic value and the rest of the network's, rounded toward zero as
    the engine does (`eval/endgame.rs`, `blend_network_value`)."""
    total = network * (100 - percent) + classic * percent
    magnitude = abs(total) // 100
    return magnitude if total >= 0 else -magnitude


def result_loss(values: Sequence[int], results: Sequence[float], scale: float = 1.0) -> float:
    """Mean squared error of `sigmoid(scale * value / 400)` against the results."""
    if not values or len(values) != len(results):
        raise ValueError("values and results must be equally many, and some")
    total = 0.0
    for value, result in zip(values, results):
        predicted = 1.0 / (1.0 + math.exp(-scale * value / 400.0))
        total += (predicted - result) ** 2
    return total / len(values)


def best_scale(values: Sequence[int], results: Sequence[float]) -> Tuple[float, float]:
    """(loss, scale) at the scale of `SCALES` that fits best."""
    return min((result_loss(values, results, s), s) for s in SCALES)


def rows(
    records: Sequence[Record], pairs: Sequence[Tuple[int, int]], blends: Sequence[int]
) -> List[Tuple[str, float, float, float, float]]:
    """Per evaluation: name, mean |value|, loss at scale 1, best-scale loss, its scale."""
    results = [r for _, r, _ in records]
    columns = [("network", [n for _, n in pairs]), ("classic", [c for c, _ in pairs])]
    columns += [(f"blend {p}", [blend(n, c, p) for c, n in pairs]) for p in blends]
    columns.append(("the games' search scores", [s for _, _, s in records]))
    out = []
    for name, values in columns:
        loss, scale = best_scale(values, results)
        mean_abs = sum(abs(v) for v in values) / len(values)
        out.append((name, mean_abs, result_loss(values, results), loss, scale))
    return out


def main(argv: List[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, help="`horizon data --format text --score` file")
    parser.add_argument("--engine", default="target/release/horizon")
    parser.add_argument("--min-men", type=int, default=2)
    parser.add_argument("--max-men", type=int, default=6)
    parser.add_argument("--sample", type=int, default=3000, help="positions drawn (all if fewer)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--blends", default="10,25,50,75", help="percentages, comma-separated")
    args = parser.parse_args(argv)
    try:
        blends = [int(p) for p in args.blends.split(",") if p.strip()]
        if any(not 0 <= p <= 100 for p in blends):
            raise ValueError("--blends: percentages from 0 to 100")
        if args.sample < 1:
            raise ValueError("--sample: at least one position")
        with open(args.data, encoding="utf-8") as handle:
            records = [r for r in read_records(handle) if args.min_men <= men(r[0]) <= args.max_men]
        if not records:
            raise ValueError(f"no positions of {args.min_men} to {args.max_men} men in {args.data}")
        random.Random(args.seed).shuffle(records)
        records = records[: args.sample]
        pairs = eval_scale.evaluate(args.engine, [fen for fen, _, _ in records])
        table = rows(records, pairs, blends)
    except (OSError, ValueError, subprocess.CalledProcessError) as err:
        print(f"eval_loss: {err}", file=sys.stderr)
        return 1
    print(f"{len(records)} positions of {args.min_men} to {args.max_men} men from {args.data}")
    print()
    print("| evaluation | mean \\|value\\| | result loss | best-scale loss (scale) |")
    print("| --- | --: | --: | --: |")
    for name, mean_abs, loss, best, scale in table:
        print(f"| {name} | {mean_abs:.0f} cp | {loss:.4f} | {best:.4f} (×{scale:.2f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
