#!/usr/bin/env python3
"""Horizon's gauntlet: Horizon against a list of reference engines, one match.py match each.

The default opponents are the chess engines Debian packages (apt-get install fairymax phalanx
glaurung toga2 ethereal-chess stockfish), each with its own protocol, one thread, a 64 MiB hash
table (or the nearest its table allows) and no opening book of its own, so that every game
starts from the given opening. Horizon gets Hash=64 and Threads=1.

Every opponent plays paired games (each opening once with each colour) from the same openings,
with the same clocks, error detection (illegal move, time forfeit, crash, hang) and statistics as
match.py. After at least --min-games games against an opponent the match stops early when
Horizon's score is above --early-stop-score percent or below 100 minus it (games already under
way finish and count). The result is a markdown table, printed and optionally written to a file.

Run ``python3 tests/python/gauntlet.py --help``; docs/gauntlet.md has the command and a result.
The pure parts (early-stop rule, opponent parsing, table) are tested in test_gauntlet.py.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import dataclasses
import datetime
import fractions
import math
import os
import shlex
import shutil
import sys
import tempfile
import threading
import time
from typing import Dict, List, Optional, Sequence, Tuple

import chess.engine
import chess.pgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match  # noqa: E402

REPO_ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DEFAULT_HORIZON = "target/release/horizon"  # relative to the repository root
NOOB_OPENINGS = "../shared/openings/noob-3moves-sample.epd"  # relative to the repository root
UHO_OPENINGS = "../shared/openings/uho-4060-v3-sample.epd"
HORIZON_OPTIONS = (("Hash", "64"), ("Threads", "1"))


# --------------------------------------------------------------------------------------------
# Opponents
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Opponent:
    name: str  # short name, used on the command line and in the table
    protocol: str  # "uci" or "xboard"
    command: str
    options: Tuple[Tuple[str, str], ...] = ()
    package: str = ""  # the Debian package that has it
    settings: str = ""  # how hash, threads and book are set (for --list and the docs)

    def spec(self, extra_options: Sequence[Tuple[str, str]] = ()) -> match.EngineSpec:
        return match.EngineSpec(self.command, merge_options(self.options, extra_options), None, self.protocol)


# Weakest first. Debian 12 (bookworm) versions in the comments.
DEFAULT_OPPONENTS: Tuple[Opponent, ...] = (
    # Fairy-Max 5.0b: XBoard; declares setboard=0 (and crashes on setboard), so match.py sets
    # positions up in edit mode. Its hash table is 2^N entries of 12 bytes, N from the command
    # line (default 23 in Debian's build, 96 MiB); `memory 64` rounds up to 96 MiB as well, so
    # N = 22 (48 MiB) is the largest table within 64 MiB. No book, one thread.
    Opponent("fairymax", "xboard", "/usr/games/fairymax 22", (), "fairymax",
             "XBoard; hash: command-line argument 22 = 2^22 entries = 48 MiB (the table is a power of two; "
             "`memory 64` would give 96 MiB); no book; single-threaded; setboard=0, positions set in edit mode"),
    # Phalanx XXV: XBoard with setboard, ping and memory. -b- no book, -l- no learning file,
    # -p- no pondering (python-chess also sends `easy`); it does not resign by default (-r 0).
    Opponent("phalanx", "xboard", "/usr/games/phalanx -b- -l- -p-", (("memory", "64"),), "phalanx",
             "XBoard; `memory 64` (feature memory=1); flags -b- (no book) -l- (no learning) -p- (no pondering); "
             "single-threaded"),
    # Glaurung 2.2: UCI; Threads defaults to 2 and OwnBook to true.
    Opponent("glaurung", "uci", "/usr/games/glaurung", (("Hash", "64"), ("Threads", "1"), ("OwnBook", "false")),
             "glaurung", "UCI; Hash=64, Threads=1 (default 2), OwnBook=false (default true)"),
    # Toga II 3.0: UCI; the thread option is "Number of Threads", OwnBook defaults to true.
    Opponent("toga2", "uci", "/usr/games/toga2", (("Hash", "64"), ("Number of Threads", "1"), ("OwnBook", "false")),
             "toga2", "UCI; Hash=64 (default 128), Number of Threads=1, OwnBook=false (default true)"),
    # Ethereal 12: UCI, no book.
    Opponent("ethereal", "uci", "/usr/games/ethereal-chess", (("Hash", "64"), ("Threads", "1")), "ethereal-chess",
             "UCI; Hash=64, Threads=1; no book"),
    # Stockfish 15.1 (NNUE): UCI, no book, full strength.
    Opponent("stockfish", "uci", "/usr/games/stockfish", (("Hash", "64"), ("Threads", "1")), "stockfish",
             "UCI; Hash=64, Threads=1; no book; full strength"),
)


def merge_options(base: Sequence[Tuple[str, str]], extra: Sequence[Tuple[str, str]]) -> List[Tuple[str, str]]:
    """`base` with `extra` applied: an extra option replaces the base option of the same name
    (names compared case-insensitively, as UCI does), new names are appended in order."""
    merged = list(base)
    for name, value in extra:
        for i, (old_name, _) in enumerate(merged):
            if old_name.lower() == name.lower():
                merged[i] = (old_name, value)
                break
        else:
            merged.append((name, value))
    return merged


def parse_opponent(text: str) -> Opponent:
    """'NAME=[uci:|xboard:]COMMAND' -> an Opponent without options (add them with
    --opponent-option NAME:OPT=VALUE). Raises ValueError."""
    name, sep, command = text.partition("=")
    name = name.strip()
    if not sep or not name or any(c in name for c in ":, "):
        raise ValueError(f"bad opponent {text!r}: expected NAME=[uci:|xboard:]COMMAND (NAME without ':', ',' or spaces)")
    protocol, command = match.split_protocol(command)
    return Opponent(name, protocol, command)


def parse_opponent_option(text: str) -> Tuple[str, str, str]:
    """'toga2:Hash=128' -> ('toga2', 'Hash', '128'). Raises ValueError."""
    name, sep, option = text.partition(":")
    if not sep or not name.strip():
        raise ValueError(f"bad opponent option {text!r}: expected OPPONENT:NAME=VALUE")
    key, value = match.parse_option(option)
    return name.strip(), key, value


def select_opponents(names: Optional[str], extra: Sequence[Opponent]) -> List[Opponent]:
    """The opponents to play: `names` is a comma-separated list from the default opponents and
    the extra ones (in the order given), or None for every default opponent followed by the
    extra ones. Unknown or repeated names raise ValueError."""
    known: Dict[str, Opponent] = {o.name: o for o in DEFAULT_OPPONENTS}
    for o in extra:
        if o.name in known and o not in DEFAULT_OPPONENTS:
            raise ValueError(f"opponent {o.name!r} is defined twice")
        known[o.name] = o
    if names is None:
        return list(DEFAULT_OPPONENTS) + [o for o in extra if o.name not in {d.name for d in DEFAULT_OPPONENTS}]
    chosen: List[Opponent] = []
    for name in (n.strip() for n in names.split(",")):
        if not name:
            continue
        if name not in known:
            raise ValueError(f"unknown opponent {name!r}: known are {', '.join(known)}")
        if any(o.name == name for o in chosen):
            raise ValueError(f"opponent {name!r} is listed twice")
        chosen.append(known[name])
    if not chosen:
        raise ValueError("no opponents")
    return chosen


# --------------------------------------------------------------------------------------------
# Early stop and the table (pure)
# --------------------------------------------------------------------------------------------


def early_stop_reason(wins: int, draws: int, losses: int, min_games: int, threshold: Optional[float]) -> Optional[str]:
    """The early-stop rule: with n = W + D + L scored games, n >= min_games and Horizon's score
    (W + D/2) / n strictly above threshold percent or strictly below 100 - threshold percent,
    the reason to stop; else None. threshold None (or <= 50) disables the rule. Exact
    arithmetic: 19/20 = 95 % is not above 95 %."""
    n = wins + draws + losses
    if threshold is None or n == 0 or n < min_games:
        return None
    limit = fractions.Fraction(str(threshold)) / 100
    if limit <= fractions.Fraction(1, 2):
        return None
    score = fractions.Fraction(2 * wins + draws, 2 * n)
    if score > limit:
        return f"score {float(score) * 100:.1f}% > {threshold:g}% after {n} games"
    if score < 1 - limit:
        return f"score {float(score) * 100:.1f}% < {100 - threshold:g}% after {n} games"
    return None


@dataclasses.dataclass
class OpponentResult:
    opponent: str
    engine_name: str = ""  # the opponent's own name (UCI id name / XBoard myname)
    wins: int = 0  # Horizon's
    draws: int = 0
    losses: int = 0
    games: int = 0  # played, including games without a result
    horizon_errors: Dict[str, int] = dataclasses.field(default_factory=dict)  # kind -> count
    opponent_errors: Dict[str, int] = dataclasses.field(default_factory=dict)
    missing: int = 0  # games without a result (the runner's failure)
    early_stop: Optional[str] = None
    seconds_per_game: float = math.nan  # mean wall time of a game
    wall_seconds: float = 0.0
    failure: Optional[str] = None  # the match could not start / was interrupted

    @property
    def scored(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def error_total(self) -> int:
        return sum(self.horizon_errors.values()) + sum(self.opponent_errors.values()) + self.missing


def format_errors(counts: Dict[str, int]) -> str:
    """'illegal/forfeit/crash' counts; hangs are counted with crashes."""
    return f"{counts.get('illegal', 0)}/{counts.get('forfeit', 0)}/{counts.get('crash', 0) + counts.get('hang', 0)}"


def format_elo_cell(wins: int, draws: int, losses: int) -> Tuple[str, str]:
    """(Elo difference, 95 % interval) cells for Horizon's W/D/L, as match.elo_estimate computes
    them; '-' without games; a one-sided record (every game won or lost) has an infinite Elo and
    no normal-approximation interval, which the cell says."""
    n = wins + draws + losses
    if n == 0:
        return "-", "-"
    est = match.elo_estimate(wins, draws, losses)
    if math.isinf(est.elo):
        return match.format_elo(est.elo), "n/a (every game " + ("won)" if est.elo > 0 else "lost)")
    margin = f" (±{est.margin:.0f})" if math.isfinite(est.margin) else ""
    return match.format_elo(est.elo), f"{match.format_elo(est.lower)} .. {match.format_elo(est.upper)}{margin}"


def markdown_table(results: Sequence[OpponentResult]) -> List[str]:
    """The result table, one row per opponent and a total row (W/D/L and score only: an Elo
    against a mixed pool would mean little)."""
    lines = [
        "| opponent | games | W/D/L (Horizon) | Horizon score | Elo diff | 95% interval | "
        "errors Horizon (illegal/forfeit/crash) | errors opponent | s/game | note |",
        "| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |",
    ]
    for r in results:
        elo, interval = format_elo_cell(r.wins, r.draws, r.losses)
        score = f"{100 * (r.wins + r.draws / 2) / r.scored:.1f}%" if r.scored else "-"
        notes = []
        if r.failure:
            notes.append(r.failure)
        if r.early_stop:
            notes.append(f"stopped early: {r.early_stop}")
        if r.missing:
            notes.append(f"{r.missing} game(s) without result")
        name = r.opponent + (f" ({r.engine_name})" if r.engine_name else "")
        per_game = f"{r.seconds_per_game:.1f}" if not math.isnan(r.seconds_per_game) else "-"
        lines.append(f"| {name} | {r.games} | {r.wins}/{r.draws}/{r.losses} | {score} | {elo} | {interval} | "
                     f"{format_errors(r.horizon_errors)} | {format_errors(r.opponent_errors)} | {per_game} | "
                     f"{'; '.join(notes)} |")
    if len(results) > 1:
        w = sum(r.wins for r in results)
        d = sum(r.draws for r in results)
        l = sum(r.losses for r in results)
        g = sum(r.games for r in results)
        score = f"{100 * (w + d / 2) / (w + d + l):.1f}%" if w + d + l else "-"
        he: Dict[str, int] = {}
        oe: Dict[str, int] = {}
        for r in results:
            for k, v in r.horizon_errors.items():
                he[k] = he.get(k, 0) + v
            for k, v in r.opponent_errors.items():
                oe[k] = oe.get(k, 0) + v
        lines.append(f"| **total** | {g} | {w}/{d}/{l} | {score} | | | {format_errors(he)} | {format_errors(oe)} | | |")
    return lines


def result_from_match(name: str, res: match.MatchResult) -> OpponentResult:
    """An OpponentResult from match.py's result, Horizon being engine 1."""
    w, d, l = res.wdl()
    out = OpponentResult(name, res.names[1], w, d, l, len(res.records))
    for kind in match.ERROR_KINDS:
        out.horizon_errors[kind] = 0
        out.opponent_errors[kind] = 0
    for r in res.records:
        for e in r.errors:
            if e.engine == 1:
                out.horizon_errors[e.kind] += 1
            elif e.engine == 2:
                out.opponent_errors[e.kind] += 1
        if r.result == "*":
            out.missing += 1
    out.early_stop = res.early_stop
    out.wall_seconds = res.wall_seconds
    if res.records:
        out.seconds_per_game = sum(r.seconds for r in res.records) / len(res.records)
    if res.interrupted:
        out.failure = "interrupted"
    return out


# Termination tag of a lost game -> the loser's error kind (match.py writes these tags).
PGN_ERROR_TERMINATIONS = {"time forfeit": "forfeit", "rules infraction": "illegal", "abandoned": "crash"}


def results_from_pgn(paths: Sequence[str], horizon: str = "Horizon") -> List[OpponentResult]:
    """One row per opponent from gauntlet PGN files (for example two runs of the same binary
    with different --opening-start): the opponent is the player that is not `horizon`, rows in
    the order the opponents first appear. A time forfeit, illegal move or crash (Termination tag)
    counts against the side that lost; a game without result counts as missing. Games without
    Horizon raise ValueError. The PGN has no wall times, so s/game stays empty."""
    rows: Dict[str, OpponentResult] = {}
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as handle:
            while True:
                headers = chess.pgn.read_headers(handle)
                if headers is None:
                    break
                white, black = headers.get("White", "?"), headers.get("Black", "?")
                if horizon not in (white, black) or white == black:
                    raise ValueError(f"{path}: game {white} - {black} has no (single) {horizon}")
                horizon_white = white == horizon
                name = black if horizon_white else white
                row = rows.setdefault(name, OpponentResult(name, horizon_errors={k: 0 for k in match.ERROR_KINDS},
                                                           opponent_errors={k: 0 for k in match.ERROR_KINDS}))
                row.games += 1
                result = headers.get("Result", "*")
                if result == "1/2-1/2":
                    row.draws += 1
                elif result in ("1-0", "0-1"):
                    horizon_won = (result == "1-0") == horizon_white
                    if horizon_won:
                        row.wins += 1
                    else:
                        row.losses += 1
                    kind = PGN_ERROR_TERMINATIONS.get(headers.get("Termination", "").lower())
                    if kind:
                        (row.opponent_errors if horizon_won else row.horizon_errors)[kind] += 1
                else:
                    row.missing += 1
    return list(rows.values())


# --------------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------------


def resolve_default(path: str, default: str) -> str:
    """`path` as given (relative to the working directory) when it differs from `default`,
    else `default` relative to the repository root, so the defaults work from any directory."""
    if path == default:
        return os.path.normpath(os.path.join(REPO_ROOT, default))
    return path


def duration(seconds: float) -> str:
    minutes, secs = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m{secs:02d}s" if hours else f"{minutes}m{secs:02d}s"


def build_parser() -> argparse.ArgumentParser:
    names = ", ".join(o.name for o in DEFAULT_OPPONENTS)
    p = argparse.ArgumentParser(
        description="Horizon against reference engines (default: Debian's " + names + "), paired games from an "
                    "opening file, with match.py's clocks, error detection and statistics; ends with a markdown table.",
        epilog="Example (docs/gauntlet.md): python3 tests/python/gauntlet.py --games 200 --concurrency 2 "
               "--markdown gauntlet.md --pgn gauntlet.pgn")
    p.add_argument("--horizon", default=DEFAULT_HORIZON,
                   help=f"Horizon's binary (default {DEFAULT_HORIZON} of the repository)")
    p.add_argument("--horizon-option", action="append", default=[], metavar="NAME=VALUE",
                   help="UCI option of Horizon (repeatable), after Hash=64 and Threads=1, which it can override")
    p.add_argument("--opponents", metavar="LIST", help=f"comma-separated opponents to play, in order (default: {names})")
    p.add_argument("--add-opponent", action="append", default=[], metavar="NAME=[uci:|xboard:]COMMAND",
                   help="another opponent (repeatable); played after the defaults, or where --opponents lists it")
    p.add_argument("--opponent-option", action="append", default=[], metavar="OPPONENT:NAME=VALUE",
                   help="an option for one opponent (repeatable), e.g. toga2:Hash=128 or phalanx:memory=16")
    p.add_argument("--list", action="store_true", help="print the opponents with their settings and exit")
    p.add_argument("--tc", default="10+0.1", help="time control SECONDS[+INCREMENT] per game, default 10+0.1")
    p.add_argument("--games", type=int, default=200, help="games per opponent (the maximum with early stop), default 200")
    p.add_argument("--concurrency", type=int, default=2, help="games played at once, default 2")
    p.add_argument("--min-games", type=int, default=30, help="games before the early-stop rule applies, default 30")
    p.add_argument("--early-stop-score", type=float, default=95.0, metavar="PCT",
                   help="stop against an opponent once Horizon's score is above PCT %% or below 100-PCT %% "
                        "(after --min-games); default 95; 0 disables")
    p.add_argument("--openings", default=NOOB_OPENINGS,
                   help=f"EPD/FEN opening file (default {NOOB_OPENINGS}, relative to the repository)")
    p.add_argument("--uho", action="store_true", help=f"use {UHO_OPENINGS} (unbalanced openings) instead")
    p.add_argument("--opening-order", choices=("sequential", "random"), default="sequential")
    p.add_argument("--opening-start", type=int, default=1, help="1-based line to start from (sequential), default 1")
    p.add_argument("--seed", type=int, default=1, help="seed of --opening-order random, default 1")
    p.add_argument("--tolerance-ms", type=float, default=0.0,
                   help="how far a clock may go below zero before it is a time forfeit; default 0 (strict)")
    p.add_argument("--hang-timeout", type=float, default=5.0, help="seconds past the clock before a silent engine is hung")
    p.add_argument("--markdown", metavar="FILE", help="also write the result (header and table) to FILE")
    p.add_argument("--pgn", metavar="FILE", help="write every game of every opponent to FILE")
    p.add_argument("--log-dir", help="PGN + protocol logs of failed games, one folder per opponent "
                                     "(default: a new temporary folder)")
    p.add_argument("--progress", type=int, default=10, metavar="N",
                   help="a progress line every N games of an opponent (and at its end), default 10")
    p.add_argument("--verbose", action="store_true", help="one line per game, as match.py prints them")
    p.add_argument("--from-pgn", action="append", default=[], metavar="FILE",
                   help="play nothing: print the table of the games in these PGN files (repeatable), "
                        "e.g. to join two runs of the same binary")
    p.add_argument("--skip-missing", action="store_true",
                   help="leave out opponents whose binary is not installed instead of stopping")
    return p


def list_opponents(opponents: Sequence[Opponent]) -> List[str]:
    lines = ["| opponent | Debian package | protocol | command | options | settings |",
             "| --- | --- | --- | --- | --- | --- |"]
    for o in opponents:
        opts = ", ".join(f"{k}={v}" for k, v in o.options) or "-"
        lines.append(f"| {o.name} | {o.package or '-'} | {o.protocol} | `{o.command}` | {opts} | {o.settings or '-'} |")
    return lines


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        base, inc = match.parse_tc(args.tc)
        if args.games < 1 or args.concurrency < 1 or args.min_games < 0 or args.progress < 1:
            raise ValueError("--games, --concurrency and --progress must be at least 1, --min-games at least 0")
        extra = [parse_opponent(t) for t in args.add_opponent]
        opponents = select_opponents(args.opponents, extra)
        overrides: Dict[str, List[Tuple[str, str]]] = {}
        for text in args.opponent_option:
            name, key, value = parse_opponent_option(text)
            if name not in {o.name for o in opponents}:
                raise ValueError(f"--opponent-option {text!r}: {name!r} is not among the opponents played")
            overrides.setdefault(name, []).append((key, value))
        horizon_options = merge_options(HORIZON_OPTIONS, [match.parse_option(o) for o in args.horizon_option])
    except ValueError as err:
        print(f"gauntlet.py: {err}", file=sys.stderr)
        return 2

    if args.from_pgn:
        try:
            rows = results_from_pgn(args.from_pgn)
        except (OSError, ValueError) as err:
            print(f"gauntlet.py: {err}", file=sys.stderr)
            return 2
        lines = [f"Games of {', '.join(args.from_pgn)}", ""] + markdown_table(rows) + [
            "", f"{sum(r.games for r in rows)} games"]
        for line in lines:
            print(line)
        if args.markdown:
            with open(args.markdown, "w", encoding="utf-8") as handle:
                handle.write("\n".join(lines) + "\n")
        return 0

    if args.list:
        for line in list_opponents([dataclasses.replace(o, options=tuple(merge_options(o.options, overrides.get(o.name, []))))
                                    for o in opponents]):
            print(line)
        return 0

    horizon = resolve_default(args.horizon, DEFAULT_HORIZON)
    openings = resolve_default(UHO_OPENINGS if args.uho else args.openings, UHO_OPENINGS if args.uho else NOOB_OPENINGS)
    problems = []
    if not (os.path.isfile(horizon) and os.access(horizon, os.X_OK)):
        problems.append(f"Horizon binary {horizon} not found (cargo build --release, or --horizon PATH)")
    if not os.path.isfile(openings):
        problems.append(f"opening file {openings} not found")
    missing = [o for o in opponents if shutil.which(shlex.split(o.command)[0]) is None]
    if missing and args.skip_missing:
        for o in missing:
            print(f"gauntlet.py: skipping {o.name}: {shlex.split(o.command)[0]} not found", file=sys.stderr)
        opponents = [o for o in opponents if o not in missing]
        if not opponents:
            problems.append("no opponent is installed")
    else:
        for o in missing:
            hint = f" (apt-get install {o.package})" if o.package else ""
            problems.append(f"{o.name}: {shlex.split(o.command)[0]} not found{hint}; --skip-missing leaves it out")
    if problems:
        for text in problems:
            print(f"gauntlet.py: {text}", file=sys.stderr)
        return 2

    log_dir = args.log_dir or tempfile.mkdtemp(prefix="horizon-gauntlet-")
    if args.pgn:
        open(args.pgn, "w", encoding="utf-8").close()
    match.install_log_router()
    threshold = args.early_stop_score if args.early_stop_score > 0 else None
    horizon_spec = match.EngineSpec(horizon, horizon_options, "Horizon", "uci")
    started_at = datetime.datetime.now(datetime.timezone.utc)
    stop_text = (f"after at least {args.min_games} games against an opponent, stop when Horizon's score is above "
                 f"{threshold:g}% or below {100 - threshold:g}% (games under way finish and count)"
                 if threshold is not None else "none")
    header = [
        f"Gauntlet of {started_at:%Y-%m-%d %H:%M} UTC on {os.uname().nodename} ({os.cpu_count()} CPUs)",
        "",
        f"- Horizon: `{horizon}` with {', '.join(f'{k}={v}' for k, v in horizon_options)}",
        f"- time control {match.format_tc(base, inc)} s per game, concurrency {args.concurrency}, "
        f"up to {args.games} games per opponent",
        f"- openings: `{openings}` ({args.opening_order}"
        + (f" from line {args.opening_start}" if args.opening_order == "sequential" else f", seed {args.seed}")
        + "), each played with both colours",
        f"- early stop: {stop_text}",
        f"- clock tolerance {args.tolerance_ms:g} ms, hang time-out {args.hang_timeout:g} s",
        "- opponents: " + "; ".join(
            f"{o.name} = {o.protocol}:`{o.command}`"
            + (f" [{', '.join(f'{k}={v}' for k, v in merge_options(o.options, overrides.get(o.name, [])))}]"
               if merge_options(o.options, overrides.get(o.name, [])) else "")
            for o in opponents),
        "- command: `" + " ".join(shlex.quote(a) for a in ["python3", "tests/python/gauntlet.py",
                                                            *(argv if argv is not None else sys.argv[1:])]) + "`",
    ]
    for line in header:
        print(line, flush=True)
    print(flush=True)

    results: List[OpponentResult] = []
    interrupted = False
    gauntlet_start = time.perf_counter()
    for index, opp in enumerate(opponents, 1):
        spec = opp.spec(overrides.get(opp.name, []))
        print(f"== {index}/{len(opponents)} {opp.name}: {spec.describe()}", flush=True)
        lock = threading.Lock()
        opp_start = time.perf_counter()
        counter = {"games": 0}

        def on_game(rec: match.GameRecord, wdl: Tuple[int, int, int], opp_name: str = opp.name,
                    counter: Dict[str, int] = counter, opp_start: float = opp_start) -> None:
            with lock:
                counter["games"] += 1
                n = counter["games"]
            if n % args.progress == 0 or n == args.games:
                w, d, l = wdl
                scored = w + d + l
                score = f"{100 * (w + d / 2) / scored:.1f}%" if scored else "-"
                elapsed = time.perf_counter() - opp_start
                print(f"  {opp_name}: {n}/{args.games} games, Horizon W/D/L {w}/{d}/{l} = {score}, "
                      f"{duration(elapsed)} ({elapsed / n:.1f} s/game, at concurrency {args.concurrency})", flush=True)

        cfg = match.MatchConfig(
            engine1=horizon_spec, engine2=spec, base=base, inc=inc, games=args.games,
            concurrency=args.concurrency, openings_path=openings, opening_order=args.opening_order,
            opening_start=args.opening_start, seed=args.seed, tolerance=args.tolerance_ms / 1000.0,
            hang_timeout=args.hang_timeout, pgn_path=args.pgn, pgn_append=True,
            log_dir=os.path.join(log_dir, opp.name), save_logs="errors",
            event=f"Horizon gauntlet {match.format_tc(base, inc)}", quiet=not args.verbose,
            stop_rule=(lambda w, d, l: early_stop_reason(w, d, l, args.min_games, threshold)),
            on_game=on_game)
        try:
            res = match.Match(cfg).run()
        except (OSError, ValueError, chess.engine.EngineError, asyncio.TimeoutError,
                concurrent.futures.TimeoutError) as err:
            print(f"  {opp.name}: cannot run the match: {type(err).__name__}: {err}", flush=True)
            results.append(OpponentResult(opp.name, failure=f"did not start: {type(err).__name__}: {err}"[:200]))
            continue
        row = result_from_match(opp.name, res)
        results.append(row)
        elo, interval = format_elo_cell(row.wins, row.draws, row.losses)
        print(f"  {opp.name} done: {row.games} games, W/D/L {row.wins}/{row.draws}/{row.losses}, Elo {elo} "
              f"[{interval}], errors Horizon {format_errors(row.horizon_errors)} opponent "
              f"{format_errors(row.opponent_errors)}, {duration(row.wall_seconds)}"
              + (f"; stopped early: {row.early_stop}" if row.early_stop else ""), flush=True)
        if res.failed and res.log_dir:
            print(f"  logs of the failed games: {res.log_dir}", flush=True)
        if res.interrupted:
            interrupted = True
            break

    total = time.perf_counter() - gauntlet_start
    table = markdown_table(results)
    footer = [f"Wall time {duration(total)}; {sum(r.games for r in results)} games"
              + ("; interrupted" if interrupted else "")]
    print()
    for line in table + [""] + footer:
        print(line, flush=True)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as handle:
            handle.write("\n".join(header + [""] + table + [""] + footer) + "\n")
    errors = sum(r.error_total for r in results) + sum(1 for r in results if r.failure)
    print(f"{sum(r.games for r in results)} games, {errors} error(s)")
    return 1 if errors or interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
