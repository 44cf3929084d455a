#!/usr/bin/env python3
"""Turns PGN games into labelled positions for `horizon tune`: one `<FEN> | <result>` line per
position (White's result 1.0 / 0.5 / 0.0), the format `horizon selfplay` writes.

Skips games without a decisive or drawn result, the first --skip plies of each game, positions
where the side to move is in check, and positions whose next move in the game is a capture or a
promotion (the tuner's quiescence filter removes the rest of the tactical ones).

    python3 tests/python/pgn_positions.py games.pgn [more.pgn ...] > positions.txt
"""

from __future__ import annotations

import argparse
import sys
from typing import Iterator, TextIO

import chess
import chess.pgn

RESULTS = {"1-0": "1.0", "0-1": "0.0", "1/2-1/2": "0.5"}


def positions(handle: TextIO, skip: int) -> Iterator[str]:
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            return
        result = RESULTS.get(game.headers.get("Result", "*"))
        if result is None:
            continue
        board = game.board()
        for ply, move in enumerate(game.mainline_moves()):
            quiet = not board.is_capture(move) and move.promotion is None
            if ply >= skip and quiet and not board.is_check():
                yield f"{board.fen()} | {result}"
            board.push(move)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="+", help="PGN files")
    parser.add_argument("--skip", type=int, default=8, help="plies skipped at the start of each game (default 8)")
    args = parser.parse_args(argv)
    count = 0
    for path in args.pgn:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in positions(handle, args.skip):
                print(line)
                count += 1
    print(f"{count} positions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
