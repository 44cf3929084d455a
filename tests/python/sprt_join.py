#!/usr/bin/env python3
"""Joins SPRT runs of the same test: sums the pentanomial pair counts that fastchess prints
(``Ptnml(0-2): [a, b, c, d, e]``) and computes the log-likelihood ratio for logistic Elo bounds
the way fastchess and fishtest do (maximum likelihood of the pair-score distribution under each
hypothesis's mean), with the Elo estimate and its 95 % interval.

Used when an SPRT stopped at its game cap undecided and was continued by a second run with
other openings (docs/strength.md says where)::

    python3 tests/python/sprt_join.py --elo0 0 --elo1 5 run1.out run2.out

Each file's last ``Ptnml`` line counts (a fastchess log, or a file holding just that line).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from typing import List, Sequence, Tuple

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
PTNML = re.compile(r"Ptnml\(0-2\):\s*\[([\d,\s]+)\]")


def expected_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _constrained_mle(freqs: Sequence[float], mean: float) -> List[float]:
    """The distribution nearest (in likelihood) to ``freqs`` whose mean pair score is ``mean``:
    q_i = p_i / (1 + lam (a_i - mean)), lam found by bisection."""
    above = [-1.0 / (a - mean) for a, p in zip(PAIR_SCORES, freqs) if p > 0 and a > mean]
    below = [-1.0 / (a - mean) for a, p in zip(PAIR_SCORES, freqs) if p > 0 and a < mean]
    lo = max(above) + 1e-12 if above else -1e9
    hi = min(below) - 1e-12 if below else 1e9
    for _ in range(200):
        lam = (lo + hi) / 2
        drift = sum(p * (a - mean) / (1 + lam * (a - mean)) for a, p in zip(PAIR_SCORES, freqs))
        if drift > 0:
            lo = lam
        else:
            hi = lam
    lam = (lo + hi) / 2
    return [p / (1 + lam * (a - mean)) for a, p in zip(PAIR_SCORES, freqs)]


def pentanomial_llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """LLR of H1 (elo1) against H0 (elo0) for pair counts [LL, LD, DD/WL, WD, WW]."""
    total = sum(counts)
    if total == 0:
        return 0.0
    freqs = [c / total for c in counts]
    h0 = _constrained_mle(freqs, expected_score(elo0))
    h1 = _constrained_mle(freqs, expected_score(elo1))
    return sum(c * math.log(b / a) for c, a, b in zip(counts, h0, h1) if c > 0)


def elo_interval(counts: Sequence[int]) -> Tuple[float, float, float]:
    """Elo estimate and 95 % interval from the pair scores (normal approximation)."""
    total = sum(counts)
    mean = sum(c * a for c, a in zip(counts, PAIR_SCORES)) / total
    var = sum(c * (a - mean) ** 2 for c, a in zip(counts, PAIR_SCORES)) / total
    half = 1.96 * math.sqrt(var / total)

    def elo(score: float) -> float:
        score = min(max(score, 1e-9), 1 - 1e-9)
        return -400.0 * math.log10(1.0 / score - 1.0)

    return elo(mean), elo(mean - half), elo(mean + half)


def read_ptnml(text: str) -> List[int]:
    found = PTNML.findall(text)
    if not found:
        raise ValueError("no 'Ptnml(0-2): [...]' line")
    counts = [int(x) for x in found[-1].replace(",", " ").split()]
    if len(counts) != 5:
        raise ValueError(f"expected 5 pair counts, got {counts}")
    return counts


def main(argv: Sequence[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=5.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args(argv)
    total = [0] * 5
    for path in args.files:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                counts = read_ptnml(f.read())
        except (OSError, ValueError) as error:
            print(f"sprt_join: {path}: {error}", file=sys.stderr)
            return 2
        print(f"{path}: {counts}")
        total = [a + b for a, b in zip(total, counts)]
    llr = pentanomial_llr(total, args.elo0, args.elo1)
    upper = math.log((1 - args.beta) / args.alpha)
    lower = math.log(args.beta / (1 - args.alpha))
    elo, lo, hi = elo_interval(total)
    verdict = "H1 accepted" if llr >= upper else "H0 accepted" if llr <= lower else "no decision"
    print(f"joined: {2 * sum(total)} games, pairs {total}, Elo {elo:+.1f} ({lo:+.1f} .. {hi:+.1f}), "
          f"LLR {llr:.2f} ({lower:.2f}, {upper:.2f}): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
