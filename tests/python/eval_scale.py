#!/usr/bin/env python3
"""The network's scale against the classic evaluation, on the positions of real games.

The search's static-evaluation margins (reverse futility, futility, delta pruning, the
aspiration window) were tuned for the classic evaluation; this measures how much wider the
network's values spread on the same positions, which sets the first candidate of a re-tune
(docs/nnue.md, "The network's scale against the classic evaluation").

For every position of the first --games games that is not in check and not over, the engine's
UCI `eval` command gives both values (the `Final` line: classic; the `network` line: the
network, both for the side to move). Positions where either value is 1,500 cp or more are left
out (won positions say nothing about margins).

    python3 tests/python/eval_scale.py --engine target/release/horizon --games 20 games.pgn
    python3 tests/python/eval_scale.py --games 3000 --men 3-6 games.pgn   # small endings only
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from dataclasses import dataclass
from typing import Iterator, List, Sequence, TextIO, Tuple

import chess
import chess.pgn

CLASSIC_LINE = re.compile(r"Final \((?:white|black) to move\): ([+-]?\d+) cp")
NETWORK_LINE = re.compile(r"network \S+ \([^)]*\): ([+-]?\d+) cp")
CLASSIC_BANDS = [(0, 50), (50, 150), (150, 400), (400, 1500)]


def game_positions(
    handle: TextIO, games: int, men: Tuple[int, int] = (2, 32)
) -> Iterator[str]:
    """FENs after every move of the first `games` games, skipping checks, ended games and
    boards whose number of men (kings included) lies outside `men` (inclusive)."""
    for _ in range(games):
        game = chess.pgn.read_game(handle)
        if game is None:
            return
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            if (
                men[0] <= chess.popcount(board.occupied) <= men[1]
                and not board.is_check()
                and not board.is_game_over()
            ):
                yield board.fen()


def parse_eval_output(text: str) -> List[Tuple[int, int]]:
    """(classic, network) per `eval` answer, in order. Raises ValueError when the two kinds of
    line do not pair up (an engine without a network line, or a changed format)."""
    classic = [int(v) for v in CLASSIC_LINE.findall(text)]
    network = [int(v) for v in NETWORK_LINE.findall(text)]
    if len(classic) != len(network):
        raise ValueError(f"{len(classic)} classic values but {len(network)} network values")
    return list(zip(classic, network))


@dataclass
class Scale:
    positions: int
    mean_abs_classic: float
    mean_abs_network: float
    sd_classic: float
    sd_network: float
    slope: float  # least squares, network on classic
    intercept: float
    correlation: float


def summarize(pairs: Sequence[Tuple[int, int]], cap: int = 1500) -> Scale:
    kept = [(c, n) for c, n in pairs if abs(c) < cap and abs(n) < cap]
    if len(kept) < 2:
        raise ValueError("fewer than two positions below the cap")
    classic = [c for c, _ in kept]
    network = [n for _, n in kept]
    try:
        slope, intercept = statistics.linear_regression(classic, network)
        correlation = statistics.correlation(classic, network)
    except statistics.StatisticsError as err:
        raise ValueError(f"no scale: {err}") from err
    return Scale(
        positions=len(kept),
        mean_abs_classic=statistics.fmean(abs(c) for c in classic),
        mean_abs_network=statistics.fmean(abs(n) for n in network),
        sd_classic=statistics.pstdev(classic),
        sd_network=statistics.pstdev(network),
        slope=slope,
        intercept=intercept,
        correlation=correlation,
    )


def band_rows(pairs: Sequence[Tuple[int, int]]) -> List[Tuple[str, int, float, float]]:
    """Per band of |classic|: label, positions, mean |classic|, mean |network|."""
    rows = []
    for low, high in CLASSIC_BANDS:
        band = [(c, n) for c, n in pairs if low <= abs(c) < high and abs(n) < 1500]
        if band:
            rows.append(
                (
                    f"{low}–{high - 1}",
                    len(band),
                    sum(abs(c) for c, _ in band) / len(band),
                    sum(abs(n) for _, n in band) / len(band),
                )
            )
    return rows


def evaluate(engine: str, fens: Sequence[str]) -> List[Tuple[int, int]]:
    commands = "".join(f"position fen {fen}\neval\n" for fen in fens) + "quit\n"
    done = subprocess.run([engine], input=commands, capture_output=True, text=True, check=True)
    pairs = parse_eval_output(done.stdout)
    if len(pairs) != len(fens):
        raise ValueError(f"{len(fens)} positions sent, {len(pairs)} evaluations read")
    return pairs


def report(scale: Scale, bands: Sequence[Tuple[str, int, float, float]]) -> str:
    lines = [
        f"{scale.positions} positions (not in check, both values below 1,500 cp)",
        "",
        "| measure | classic | network |",
        "| --- | --: | --: |",
        f"| mean absolute value | {scale.mean_abs_classic:.0f} cp | {scale.mean_abs_network:.0f} cp |",
        f"| standard deviation | {scale.sd_classic:.0f} cp | {scale.sd_network:.0f} cp |",
        f"| least-squares slope, network on classic | | {scale.slope:.2f} "
        f"(intercept {scale.intercept:+.0f}) |",
        f"| correlation | | {scale.correlation:.2f} |",
        "",
        "| classic value | positions | mean \\|classic\\| | mean \\|network\\| |",
        "| --- | --: | --: | --: |",
    ]
    lines += [f"| {label} | {n} | {c:.0f} | {w:.0f} |" for label, n, c, w in bands]
    return "\n".join(lines)


def men_range(text: str) -> Tuple[int, int]:
    """`LOW-HIGH` (or one number) as an inclusive range of men on the board."""
    low, _, high = text.partition("-")
    try:
        bounds = (int(low), int(high or low))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a range of men: {text!r}") from None
    if not 2 <= bounds[0] <= bounds[1] <= 32:
        raise argparse.ArgumentTypeError(f"men must satisfy 2 <= LOW <= HIGH <= 32: {text!r}")
    return bounds


def main(argv: List[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", help="games whose positions are measured")
    parser.add_argument("--engine", default="target/release/horizon")
    parser.add_argument("--games", type=int, default=20, help="first N games of the file")
    parser.add_argument(
        "--men",
        type=men_range,
        default=(2, 32),
        help="only boards with LOW-HIGH men, kings included (e.g. 3-6)",
    )
    args = parser.parse_args(argv)
    try:
        with open(args.pgn, encoding="utf-8", errors="replace") as handle:
            fens = list(game_positions(handle, args.games, args.men))
        if not fens:
            raise ValueError(f"no positions in the first {args.games} games of {args.pgn}")
        pairs = evaluate(args.engine, fens)
        print(report(summarize(pairs), band_rows(pairs)))
    except (OSError, ValueError, subprocess.CalledProcessError) as err:
        print(f"eval_scale: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
