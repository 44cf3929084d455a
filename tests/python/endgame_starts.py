#!/usr/bin/env python3
"""Start positions for self-play from the endings of earlier games.

Reads the text dump of self-play records (`horizon data --in FILE.bin --format text`, one
`FEN | ...` line a position), keeps the distinct boards (placement, side to move, castling,
en passant) with MIN..MAX men, kings included, shuffles them with Python's `random.seed(SEED)`
and writes the first COUNT as FENs with the clocks reset (`0 1`), one a line: the
`--openings` file of `horizon selfplay` for a generation's games from endings
(`docs/nnue.md`, generations 19e, 22 and 23).

With `--max-score CP` (a dump made with `--score`) only boards whose recorded search score is
within CP centipawns of zero are kept: balanced starts for a match, where starts that one
side has already won give pairs that cannot tell two engines apart.

    python3 tests/python/endgame_starts.py DUMP.txt OUT.epd --men 7-10 --count 40000 --seed 22
"""

import argparse
import random
import sys


def board_key(line):
    """The board of a dump line (its first four FEN fields), or None for a blank line."""
    fen = line.split("|", 1)[0].strip()
    if not fen:
        return None
    fields = fen.split()
    if len(fields) < 4:
        raise ValueError(f"not a FEN: {fen!r}")
    return " ".join(fields[:4])


def men(key):
    """Pieces on the board, kings included."""
    return sum(c.isalpha() for c in key.split(" ", 1)[0])


def score(line):
    """The search score of a dump line made with `--score` (its third field)."""
    fields = line.split("|")
    if len(fields) < 3:
        raise ValueError("no score field: dump with `horizon data --format text --score`")
    try:
        return int(fields[2])
    except ValueError:
        raise ValueError(f"not a score: {fields[2].strip()!r}") from None


def distinct_boards(lines, lo, hi, max_score=None):
    """The distinct boards of lo..hi men (with |score| <= max_score when given), in the order
    they first appear."""
    seen, boards = set(), []
    for number, line in enumerate(lines, 1):
        try:
            key = board_key(line)
            if key is not None and max_score is not None and abs(score(line)) > max_score:
                continue
        except ValueError as e:
            raise ValueError(f"line {number}: {e}") from None
        if key is None or key in seen or not lo <= men(key) <= hi:
            continue
        seen.add(key)
        boards.append(key)
    return boards


def pick(boards, count, seed):
    """`count` boards drawn by a seeded shuffle, as FENs with the clocks reset."""
    shuffled = list(boards)
    random.Random(seed).shuffle(shuffled)  # the draw of random.seed(seed), without the global state
    return [key + " 0 1" for key in shuffled[:count]]


def parse_men(text):
    try:
        lo, hi = (int(x) for x in text.split("-", 1)) if "-" in text else (int(text),) * 2
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected MIN-MAX, e.g. 7-10, not {text!r}") from None
    if not 2 <= lo <= hi <= 32:
        raise argparse.ArgumentTypeError(f"men must satisfy 2 <= MIN <= MAX <= 32, not {text!r}")
    return lo, hi


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dump", help="text dump of records (horizon data --format text)")
    parser.add_argument("out", help="EPD file to write, one FEN a line")
    parser.add_argument("--men", type=parse_men, default=(7, 10), help="MIN-MAX men, default 7-10")
    parser.add_argument("--count", type=int, default=40000, help="boards to write, default 40000")
    parser.add_argument("--seed", type=int, required=True, help="seed of the shuffle")
    parser.add_argument(
        "--max-score",
        type=int,
        metavar="CP",
        help="keep only boards scored within CP of zero (a dump made with --score)",
    )
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")
    if args.max_score is not None and args.max_score < 0:
        parser.error("--max-score must be at least 0")
    lo, hi = args.men
    try:
        with open(args.dump, encoding="utf-8") as f:
            boards = distinct_boards(f, lo, hi, args.max_score)
    except (OSError, ValueError) as e:
        print(f"endgame_starts.py: {args.dump}: {e}", file=sys.stderr)
        return 1
    if not boards:
        within = "" if args.max_score is None else f" within {args.max_score} cp"
        print(f"endgame_starts.py: no board of {lo}-{hi} men{within} in {args.dump}", file=sys.stderr)
        return 1
    chosen = pick(boards, args.count, args.seed)
    with open(args.out, "w", encoding="utf-8") as f:
        f.writelines(fen + "\n" for fen in chosen)
    print(f"{len(boards)} distinct boards of {lo}-{hi} men, {len(chosen)} written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
