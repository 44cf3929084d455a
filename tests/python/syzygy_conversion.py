#!/usr/bin/env python3
"""Tablebase conversion in real games: Horizon, with the Syzygy tables, plays 20 won 3- and
4-piece positions (KQvK, KRvK, KPvK, KQvKR; each side to move) to the end against Stockfish,
which has no tables. Every game must end in Horizon's checkmate within the fifty-move rule
(no claimable fifty-move or threefold draw on the way), with only legal moves.

The positions were drawn at random (seeded) among those the tables call won, with a long
distance to zeroing (DTZ, in plies) so that each needs a real conversion.

    python3 tests/python/syzygy_conversion.py HORIZON SYZYGY_DIR [--stockfish PATH] [--movetime MS]

Exit status 0 when all 20 are won, 1 otherwise; one line per game either way.
"""

import argparse
import sys

import chess
import chess.engine

POSITIONS = [
    "8/8/8/4k3/8/8/2K3Q1/8 w - - 0 1",  # KQvK, DTZ 15
    "4Q3/6K1/8/8/8/2k5/8/8 w - - 0 1",  # DTZ 15
    "6K1/8/6Q1/8/1k6/8/8/8 w - - 0 1",  # DTZ 15
    "8/4K3/8/8/8/7q/8/7k b - - 0 1",  # DTZ 17
    "1q6/3K4/8/8/8/8/8/1k6 b - - 0 1",  # DTZ 15
    "1R6/8/8/8/8/8/2k5/K7 w - - 0 1",  # KRvK, DTZ 25
    "8/8/5k2/2R5/8/8/8/5K2 w - - 0 1",  # DTZ 27
    "6K1/8/8/8/4k3/1R6/8/8 w - - 0 1",  # DTZ 29
    "8/8/r7/8/5K2/8/8/4k3 b - - 0 1",  # DTZ 27
    "8/2k5/4K3/8/8/8/5r2/8 b - - 0 1",  # DTZ 27
    "8/8/1k6/8/8/K7/5P2/8 w - - 0 1",  # KPvK, DTZ 13
    "8/6k1/8/8/2P3K1/8/8/8 w - - 0 1",  # DTZ 13
    "8/8/8/8/8/2P3k1/8/3K4 w - - 0 1",  # DTZ 13
    "8/1k6/4p3/8/8/8/8/6K1 b - - 0 1",  # DTZ 13
    "8/8/5p2/2k5/8/3K4/8/8 b - - 0 1",  # DTZ 13
    "1k6/2r5/2Q5/8/7K/8/8/8 w - - 0 1",  # KQvKR, DTZ 43
    "6K1/8/1k6/1r6/8/1Q6/8/8 w - - 0 1",  # DTZ 45
    "3K4/6r1/8/8/8/7Q/5k2/8 w - - 0 1",  # DTZ 43
    "6q1/8/8/K7/3R4/8/8/6k1 b - - 0 1",  # DTZ 45
    "3k4/8/8/4q3/6KR/8/8/8 b - - 0 1",  # DTZ 43
]

MAX_PLIES = 400


def play(horizon, stockfish, fen, limit):
    """Plays one game from `fen` with Horizon on the side to move; returns (ok, text)."""
    board = chess.Board(fen)
    horizon_color = board.turn
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        engine = horizon if board.turn == horizon_color else stockfish
        result = engine.play(board, limit)
        if result.move is None or result.move not in board.legal_moves:
            return False, f"illegal or missing move {result.move} in {board.fen()}"
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    plies = board.ply()
    if outcome is None:
        return False, f"no result after {plies} plies"
    if outcome.termination != chess.Termination.CHECKMATE or outcome.winner != horizon_color:
        return False, f"{outcome.termination.name} after {plies} plies, result {outcome.result()}"
    return True, f"mate after {plies} plies"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("horizon")
    parser.add_argument("syzygy")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--movetime", type=int, default=50, help="ms per move, both engines")
    args = parser.parse_args()
    limit = chess.engine.Limit(time=args.movetime / 1000)
    horizon = chess.engine.SimpleEngine.popen_uci(args.horizon)
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    try:
        horizon.configure({"SyzygyPath": args.syzygy, "Hash": 16, "Threads": 1})
        stockfish.configure({"Hash": 16, "Threads": 1})
        won = 0
        for number, fen in enumerate(POSITIONS, 1):
            ok, text = play(horizon, stockfish, fen, limit)
            won += ok
            print(f"{number:2}. {'won ' if ok else 'FAIL'} {fen}: {text}", flush=True)
        print(f"won {won} of {len(POSITIONS)} within the fifty-move rule")
    finally:
        horizon.quit()
        stockfish.quit()
    return 0 if won == len(POSITIONS) else 1


if __name__ == "__main__":
    sys.exit(main())
