#!/usr/bin/env python3
"""Elo ablation: what each search enhancement is worth in playing strength. For every
enhancement named, one binary plays itself: the default configuration against the default
with that enhancement switched off (or, for those off by default such as pre-search and ETC,
switched on), paired openings, a fixed number of games or an SPRT (match.py underneath).

    python3 tests/python/elo_ablation.py --engine target/release/horizon --games 200 \\
        --tc 2+0.02 --concurrency 2 --out docs/elo-ablation

writes docs/elo-ablation.md (the table), .csv (one row per enhancement, read back by
--resume so a batch can be stopped and continued in a later run) and .svg (a bar chart with the
95 % intervals). Elo is the default's over the changed engine: what the enhancement buys
(for an enhancement switched on, what leaving it off buys).
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import csv
import dataclasses
import math
import os
import shlex
import sys
from typing import Dict, List, Optional, Sequence, Tuple

import chess.engine

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gauntlet  # noqa: E402
import match  # noqa: E402
import param_sprt  # noqa: E402

NOOB_OPENINGS = os.path.join(gauntlet.REPO_ROOT, gauntlet.NOOB_OPENINGS)

# name -> (description, the options that change the default). Order: Schaeffer's six seeds,
# then the classic techniques, then those the search-strength issue made defaults.
ENHANCEMENTS: Dict[str, Tuple[str, str]] = {
    "table": ("transposition table off", "TranspositionTable=false"),
    "knowledge": ("knowledge ordering (captures by SEE/MVV-LVA) off", "Knowledge=false"),
    "aspiration": ("aspiration windows off", "Aspiration=false"),
    "refutation": ("refutation table off", "Refutation=false"),
    "killers": ("killer moves off", "Killers=false"),
    "history": ("history heuristic off", "History=false"),
    "null-move": ("null-move pruning off", "NullMove=false"),
    "lmr": ("late move reductions off", "LMR=false"),
    "qsearch-see": ("quiescence SEE pruning off", "QSearchSEE=false"),
    "extensions": ("check, single-reply and pawn-to-7th extensions off",
                   "ExtendCheck=false ExtendSingleReply=false ExtendPawnSeventh=false"),
    "presearch": ("pre-search on (off by default)", "PreSearch=true"),
    "etc": ("enhanced transposition cutoffs on (off by default)", "ETC=true"),
    "gravity": ("gravity history updates replaced by 2^d", "HistoryWeight=pow2"),
    "see-pruning": ("SEE pruning of quiet moves and captures off", "SEEPruning=false"),
    "iir": ("internal iterative reduction off", "IIR=false"),
    "ghi-exact": ("GHI=exact instead of the default mark", "GHI=exact"),
}
# Switched on, not off: their row measures the default (without them) against them.
TURNED_ON = {"presearch", "etc", "ghi-exact"}

CSV_FIELDS = ["enhancement", "change", "games", "wins", "draws", "losses", "elo", "lower", "upper",
              "errors", "minutes"]


@dataclasses.dataclass
class Row:
    """One enhancement's result, W/D/L from the default configuration's side."""

    enhancement: str
    change: str
    wins: int
    draws: int
    losses: int
    errors: int
    minutes: float

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def estimate(self) -> match.EloEstimate:
        return match.elo_estimate(self.wins, self.draws, self.losses)


def row_from_match(name: str, change: str, res: match.MatchResult) -> Row:
    """Engine 1 of the match is the changed engine; the row counts from the default's side."""
    w, d, l = res.wdl()
    errors = sum(len(r.errors) for r in res.records)
    return Row(name, change, l, d, w, errors, res.wall_seconds / 60)


def parse_names(text: Optional[str]) -> List[str]:
    """'table,lmr' -> ['table', 'lmr']; None -> every enhancement. Raises ValueError on an
    unknown name."""
    if text is None:
        return list(ENHANCEMENTS)
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in ENHANCEMENTS]
    if unknown or not names:
        raise ValueError(f"unknown enhancement(s) {', '.join(unknown) or '(none)'}; "
                         f"known: {', '.join(ENHANCEMENTS)}")
    return names


def markdown(rows: Sequence[Row], head: Sequence[str]) -> str:
    lines = list(head) + [
        "| enhancement | change against the default | games | W/D/L (default) | Elo it is worth (95% CI) | errors |",
        "| --- | --- | ---: | ---: | --- | ---: |",
    ]
    for row in rows:
        est = row.estimate()
        elo = (f"{match.format_elo(est.elo)} ({match.format_elo(est.lower)} .. {match.format_elo(est.upper)})"
               if row.games else "-")
        lines.append(f"| {row.enhancement} | `{row.change}` | {row.games} | {row.wins}/{row.draws}/{row.losses} | "
                     f"{elo} | {row.errors} |")
    return "\n".join(lines) + "\n"


def write_csv(path: str, rows: Sequence[Row]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for row in rows:
            est = row.estimate()
            writer.writerow({"enhancement": row.enhancement, "change": row.change, "games": row.games,
                             "wins": row.wins, "draws": row.draws, "losses": row.losses,
                             "elo": f"{est.elo:.1f}", "lower": f"{est.lower:.1f}", "upper": f"{est.upper:.1f}",
                             "errors": row.errors, "minutes": f"{row.minutes:.1f}"})


def read_csv(path: str) -> List[Row]:
    """The rows of an earlier run's CSV (for --resume); [] when there is no file."""
    if not os.path.isfile(path):
        return []
    with open(path, newline="", encoding="utf-8") as handle:
        return [Row(r["enhancement"], r["change"], int(r["wins"]), int(r["draws"]), int(r["losses"]),
                    int(r["errors"]), float(r["minutes"])) for r in csv.DictReader(handle)]


def svg_chart(rows: Sequence[Row], title: str) -> str:
    """A horizontal bar per enhancement (Elo it is worth) with its 95 % interval as a whisker."""
    rows = [r for r in rows if r.games]
    finite = [v for r in rows for v in (r.estimate().lower, r.estimate().upper, r.estimate().elo)
              if math.isfinite(v)]
    low = min([0.0] + finite)
    high = max([0.0] + finite)
    span = max(high - low, 1.0)
    left, width, bar, gap, top = 190, 520, 18, 8, 40
    height = top + len(rows) * (bar + gap) + 40

    def x(value: float) -> float:
        value = min(max(value, low), high)  # an infinite bound is drawn to the edge
        return left + (value - low) / span * width

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 150}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{left}" y="20" font-size="14">{escape(title)}</text>']
    for i, r in enumerate(rows):
        est = r.estimate()
        y = top + i * (bar + gap)
        x0, x1 = sorted((x(0.0), x(est.elo if math.isfinite(est.elo) else (high if est.elo > 0 else low))))
        colour = "#3a7" if est.elo >= 0 else "#c55"
        out.append(f'<text x="{left - 8}" y="{y + bar - 5}" text-anchor="end">{escape(r.enhancement)}</text>')
        out.append(f'<rect x="{x0:.1f}" y="{y}" width="{max(x1 - x0, 0.5):.1f}" height="{bar}" fill="{colour}"/>')
        mid = y + bar / 2
        out.append(f'<line x1="{x(est.lower):.1f}" y1="{mid}" x2="{x(est.upper):.1f}" y2="{mid}" stroke="black"/>')
        label = f"{match.format_elo(est.elo)} ({r.games} games)"
        out.append(f'<text x="{left + width + 8}" y="{y + bar - 5}" fill="#333">{escape(label)}</text>')
    axis_y = top + len(rows) * (bar + gap) + 5
    out.append(f'<line x1="{x(0.0):.1f}" y1="{top - 5}" x2="{x(0.0):.1f}" y2="{axis_y}" stroke="#555"/>')
    for tick in ticks(low, high):
        out.append(f'<line x1="{x(tick):.1f}" y1="{axis_y}" x2="{x(tick):.1f}" y2="{axis_y + 4}" stroke="#555"/>')
        out.append(f'<text x="{x(tick):.1f}" y="{axis_y + 16}" text-anchor="middle">{tick:g}</text>')
    out.append(f'<text x="{left + width / 2}" y="{axis_y + 32}" text-anchor="middle">'
               f'Elo of the default over the engine without the enhancement (bars), 95% interval (lines)</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def ticks(low: float, high: float) -> List[float]:
    """Round tick values covering [low, high]: a step of 1, 2 or 5 times a power of ten."""
    span = max(high - low, 1.0)
    raw = span / 6
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step) * step
    return [first + i * step for i in range(int((high - first) / step + 1e-9) + 1)]


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description="Elo ablation: the default configuration against itself with one "
                                            "enhancement changed, for each enhancement (match.py underneath).")
    p.add_argument("--engine", required=True, help="Horizon's binary")
    p.add_argument("--enhancements", metavar="NAME,NAME,...",
                   help=f"which ones, in this order (default all: {', '.join(ENHANCEMENTS)})")
    p.add_argument("--base-option", action="append", default=[], metavar="NAME=VALUE",
                   help="option of both engines (repeatable), e.g. Hash=16")
    p.add_argument("--tc", default="2+0.02", help="time control, default 2+0.02")
    p.add_argument("--games", type=int, default=200, help="games per enhancement (the most, with --sprt), default 200")
    p.add_argument("--sprt", metavar="ELO0,ELO1", help="stop each match when an SPRT decides")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--openings", default=NOOB_OPENINGS, help="default ../shared/openings/noob-3moves-sample.epd")
    p.add_argument("--opening-start", type=int, default=1)
    p.add_argument("--resign-moves", type=int, default=3, help="resign adjudication, default 3; 0 = off")
    p.add_argument("--resign-score", type=int, default=1000)
    p.add_argument("--draw-moves", type=int, default=8, help="draw adjudication, default 8; 0 = off")
    p.add_argument("--draw-score", type=int, default=10)
    p.add_argument("--draw-movenumber", type=int, default=40)
    p.add_argument("--out", required=True, metavar="PREFIX", help="writes PREFIX.md, PREFIX.csv and PREFIX.svg")
    p.add_argument("--resume", action="store_true",
                   help="keep the rows of PREFIX.csv and play only the enhancements it lacks")
    p.add_argument("--pgn", metavar="FILE", help="every game")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        names = parse_names(args.enhancements)
        base_options = [match.parse_option(o) for o in args.base_option]
        base, inc = match.parse_tc(args.tc)
        sprt = None
        if args.sprt:
            e0, e1 = (float(v) for v in args.sprt.split(","))
            if not e0 < e1:
                raise ValueError("--sprt needs ELO0 < ELO1")
            sprt = (e0, e1)
        if args.games < 1 or args.concurrency < 1:
            raise ValueError("--games and --concurrency must be at least 1")
    except ValueError as err:
        print(f"elo_ablation.py: {err}", file=sys.stderr)
        return 2
    if not os.path.isfile(args.openings):
        print(f"elo_ablation.py: opening file {args.openings} not found", file=sys.stderr)
        return 2
    csv_path, md_path, svg_path = (args.out + ext for ext in (".csv", ".md", ".svg"))
    rows = read_csv(csv_path) if args.resume else []
    done = {r.enhancement for r in rows}
    command = "python3 tests/python/elo_ablation.py " + " ".join(
        shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    stop = f", SPRT {args.sprt}" if args.sprt else ""
    head = [f"Elo ablation: {args.tc} s, up to {args.games} games per enhancement{stop}, concurrency "
            f"{args.concurrency}, openings {os.path.basename(args.openings)} from line {args.opening_start}, "
            "each played with both colours", "", f"`{command}`", ""]

    def save() -> None:
        write_csv(csv_path, rows)
        with open(md_path, "w", encoding="utf-8") as handle:
            handle.write(markdown(rows, head))
        with open(svg_path, "w", encoding="utf-8") as handle:
            handle.write(svg_chart(rows, f"Elo ablation ({args.tc} s)"))

    if args.pgn:
        open(args.pgn, "a", encoding="utf-8").close()
    match.install_log_router()
    status = 0
    for name in names:
        if name in done:
            print(f"== {name}: kept from {csv_path}", flush=True)
            continue
        _, change = ENHANCEMENTS[name]
        assignments = [match.parse_option(part) for part in change.split()]
        cfg = param_sprt.against_defaults(args, base_options, assignments, change, (base, inc), sprt,
                                          f"Elo ablation {name}")
        print(f"== {name}: {change}", flush=True)
        try:
            res = match.Match(cfg).run()
        except (OSError, ValueError, chess.engine.EngineError, asyncio.TimeoutError,
                concurrent.futures.TimeoutError) as err:
            print(f"elo_ablation.py: {name}: cannot run the match: {type(err).__name__}: {err}", file=sys.stderr)
            save()
            return 2
        if res.interrupted:
            save()
            return 1
        rows.append(row_from_match(name, change, res))
        save()
        print(markdown(rows[-1:], []).splitlines()[-1], flush=True)
        if res.failed:
            status = 1
    save()
    print()
    print(markdown(rows, head))
    return status


if __name__ == "__main__":
    sys.exit(main())
