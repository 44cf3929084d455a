#!/usr/bin/env python3
"""Search-parameter SPRTs: one binary against itself, engine 1 with a candidate setting of UCI
options, engine 2 with the defaults, one match.py SPRT per candidate, one after the other.

    python3 tests/python/param_sprt.py --engine target/release/horizon \\
        --candidate NullMoveR=3 --candidate "LMRFullDepthMoves=2 LMRMinDepth=2" \\
        --tc 2+0.02 --games 800 --sprt 0,10 --concurrency 2 --markdown sprt.md

A candidate is one or more NAME=VALUE assignments separated by spaces (option names without
spaces, as Horizon's are). Every candidate plays the same openings, so the rows compare. The
markdown table is rewritten after every candidate, so a long batch that is stopped keeps what it
measured. docs/strength.md has the results that set Horizon's defaults.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import os
import shlex
import sys
from typing import List, Optional, Sequence, Tuple

import chess.engine

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gauntlet  # noqa: E402
import match  # noqa: E402

NOOB_OPENINGS = os.path.join(gauntlet.REPO_ROOT, gauntlet.NOOB_OPENINGS)


def parse_candidate(text: str) -> List[Tuple[str, str]]:
    """'NullMoveR=3 NullMoveAdaptiveDepth=8' -> [('NullMoveR', '3'), ('NullMoveAdaptiveDepth', '8')].
    Raises ValueError on an empty candidate or an assignment without '='."""
    assignments = [match.parse_option(part) for part in text.split()]
    if not assignments:
        raise ValueError("empty candidate")
    return assignments


def describe(assignments: Sequence[Tuple[str, str]]) -> str:
    return " ".join(f"{k}={v}" for k, v in assignments)


def verdict(res: match.MatchResult) -> str:
    if res.sprt_decision:
        return f"{res.sprt_decision} after {res.sprt_decided_at}"
    if res.interrupted:
        return "interrupted"
    return "no decision"


def table_row(candidate: str, res: match.MatchResult) -> str:
    """One markdown row: candidate, games, W/D/L of the candidate, Elo with its 95 % interval,
    LLR, verdict, wall time."""
    w, d, l = res.wdl()
    est = match.elo_estimate(w, d, l) if w + d + l else None
    elo = (f"{match.format_elo(est.elo)} ({match.format_elo(est.lower)} .. {match.format_elo(est.upper)})"
           if est else "-")
    minutes = res.wall_seconds / 60
    errors = sum(len(r.errors) for r in res.records)
    return (f"| {candidate} | {len(res.records)} | {w}/{d}/{l} | {elo} | {res.llr:+.2f} | {verdict(res)} | "
            f"{errors} | {minutes:.1f} min |")


TABLE_HEAD = [
    "| candidate (vs defaults) | games | W/D/L | Elo (95% CI) | LLR | SPRT | errors | wall |",
    "| --- | ---: | ---: | --- | ---: | --- | ---: | ---: |",
]


def against_defaults(args: argparse.Namespace, base_options: List[Tuple[str, str]],
                     assignments: List[Tuple[str, str]], label: str, tc: Tuple[float, float],
                     sprt: Optional[Tuple[float, float]], event: str) -> match.MatchConfig:
    """One binary against itself: engine 1 with `assignments` on top of `base_options`, engine 2
    with the defaults; games, openings, PGN and adjudication from the shared command line."""
    return match.MatchConfig(
        engine1=match.EngineSpec(args.engine, base_options + assignments, f"Horizon [{label}]", "uci"),
        engine2=match.EngineSpec(args.engine, base_options, "Horizon [defaults]", "uci"),
        base=tc[0], inc=tc[1], games=args.games, concurrency=args.concurrency, openings_path=args.openings,
        opening_start=args.opening_start, sprt=sprt, pgn_path=args.pgn, pgn_append=True,
        save_logs="errors", quiet=True, event=event,
        adjudication=match.Adjudication(args.resign_moves, args.resign_score, args.draw_moves, args.draw_score,
                                        args.draw_movenumber))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description="SPRTs of search-parameter candidates against the defaults, "
                                            "one binary against itself (match.py underneath).")
    p.add_argument("--engine", required=True, help="Horizon's binary")
    p.add_argument("--candidate", action="append", required=True, metavar="'NAME=VALUE [NAME=VALUE ...]'",
                   help="options of engine 1 for one SPRT (repeatable; run in order)")
    p.add_argument("--base-option", action="append", default=[], metavar="NAME=VALUE",
                   help="option of both engines (repeatable), e.g. Hash=16")
    p.add_argument("--tc", default="2+0.02", help="time control, default 2+0.02")
    p.add_argument("--games", type=int, default=800, help="most games per candidate, default 800")
    p.add_argument("--sprt", default="0,10", metavar="ELO0,ELO1", help="default 0,10")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--openings", default=NOOB_OPENINGS, help="default ../shared/openings/noob-3moves-sample.epd")
    p.add_argument("--opening-start", type=int, default=1)
    p.add_argument("--resign-moves", type=int, default=3, help="resign adjudication (match.py), default 3; 0 = off")
    p.add_argument("--resign-score", type=int, default=1000)
    p.add_argument("--draw-moves", type=int, default=8, help="draw adjudication (match.py), default 8; 0 = off")
    p.add_argument("--draw-score", type=int, default=10)
    p.add_argument("--draw-movenumber", type=int, default=40)
    p.add_argument("--markdown", metavar="FILE", help="write the table here after every candidate")
    p.add_argument("--pgn", metavar="FILE", help="every game of every candidate")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        candidates = [parse_candidate(c) for c in args.candidate]
        base_options = [match.parse_option(o) for o in args.base_option]
        base, inc = match.parse_tc(args.tc)
        e0, e1 = (float(x) for x in args.sprt.split(","))
        if not e0 < e1:
            raise ValueError("--sprt needs ELO0 < ELO1")
        if args.games < 1 or args.concurrency < 1:
            raise ValueError("--games and --concurrency must be at least 1")
    except ValueError as err:
        print(f"param_sprt.py: {err}", file=sys.stderr)
        return 2
    if not os.path.isfile(args.openings):
        print(f"param_sprt.py: opening file {args.openings} not found", file=sys.stderr)
        return 2
    command = "python3 tests/python/param_sprt.py " + " ".join(
        shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    head = [f"SPRT H0 {e0:g} / H1 {e1:g} Elo, alpha = beta = 0.05, {args.tc} s, concurrency {args.concurrency}, "
            f"openings {args.openings} from line {args.opening_start}", "", f"`{command}`", ""] + TABLE_HEAD
    rows: List[str] = []
    if args.pgn:
        open(args.pgn, "w", encoding="utf-8").close()
    match.install_log_router()
    status = 0
    for assignments in candidates:
        name = describe(assignments)
        cfg = against_defaults(args, base_options, assignments, name, (base, inc), (e0, e1), f"SPRT {name}")
        print(f"== {name}", flush=True)
        try:
            res = match.Match(cfg).run()
        except (OSError, ValueError, chess.engine.EngineError, asyncio.TimeoutError,
                concurrent.futures.TimeoutError) as err:
            print(f"param_sprt.py: {name}: cannot run the match: {type(err).__name__}: {err}", file=sys.stderr)
            return 2
        rows.append(table_row(name, res))
        print(rows[-1], flush=True)
        if res.failed:
            status = 1
        if args.markdown:
            with open(args.markdown, "w", encoding="utf-8") as handle:
                handle.write("\n".join(head + rows) + "\n")
        if res.interrupted:
            return 1
    print()
    print("\n".join(head + rows))
    return status


if __name__ == "__main__":
    sys.exit(main())
