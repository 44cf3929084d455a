#!/usr/bin/env python3
"""EPD suites through the UCI protocol, as a GUI's EPD mode runs them, for any UCI engine.

Every position is sent as ``position fen`` and searched with ``go movetime T`` (or, with
``--stop``, ``go infinite`` followed by ``stop`` after T ms). For each engine, suite and time the
report gives:

- solved: the ``bestmove`` is one of the ``bm`` moves (and none of the ``am`` moves);
- time use: wall time from ``go`` to ``bestmove`` divided by T (mean and lowest);
- PV mismatches: the first move of the last ``info ... pv`` line (no ``multipv`` or
  ``multipv 1``) differs from ``bestmove``, or no PV was printed at all;
- illegal: PV lines with an illegal move and ``ponder`` moves that are illegal after the best move;
- faults: no ``bestmove`` within T + 5 s, or the engine died.

Engines run one after the other on each position (not suite after suite), so that a change in the
machine's load touches every engine alike. ``--cpu 1`` pins each engine to one core.

Example (docs/uci-fidelity.md has the runs and their results)::

    python3 tests/python/uci_epd.py --cpu 1 \\
        --engine horizon=target/release/horizon \\
        --engine glaurung=/usr/games/glaurung --option glaurung:Threads=1 \\
        --option glaurung:OwnBook=false --option '*:Hash=64' \\
        --suite ../shared/epd/ecm-gcp.epd:1000 --limit 20

The EPD reader is lenient with the quirks of suites found in the wild (NUL bytes, ``bm Qd1 +``,
comments after the last semicolon); its pure parts are tested in test_uci_epd.py.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import dataclasses
import queue
import shlex
import subprocess
import sys
import threading
import time
from typing import Dict, List, Optional, Sequence, Tuple

import chess

# --------------------------------------------------------------------------------------------
# EPD reading
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass
class EpdPosition:
    fen: str
    best: List[str]  # UCI moves
    avoid: List[str]
    ident: str


def _moves(board: chess.Board, operands: str) -> List[str]:
    """The moves an operand list names, skipping tokens that are not moves (``+``, notes)."""
    tokens = operands.replace(",", " ").split()
    moves = []
    for token in tokens:
        token = token.strip("!?")
        try:
            moves.append(board.parse_san(token).uci())
        except ValueError:
            continue
    return moves


def _board_and_operations(line: str) -> Optional[Tuple[chess.Board, str]]:
    """The position of one EPD or FEN line and the text after its four FEN fields, or None for
    a blank line, a comment or a malformed FEN."""
    line = line.replace("\x00", "").strip()
    if not line or line.startswith("#"):
        return None
    fields = line.split(None, 4)
    if len(fields) < 4:
        return None
    try:
        board = chess.Board(" ".join(fields[:4]) + " 0 1")
    except ValueError:
        return None
    return board, (fields[4] if len(fields) > 4 else "")


def parse_epd_line(line: str) -> Optional[EpdPosition]:
    """One EPD record, or None for a blank line, a comment or a record without bm/am."""
    parsed = _board_and_operations(line)
    if parsed is None:
        return None
    board, rest = parsed
    best: List[str] = []
    avoid: List[str] = []
    ident = ""
    for op in rest.split(";"):
        parts = op.strip().split(None, 1)
        if not parts:
            continue
        code, operands = parts[0], (parts[1] if len(parts) > 1 else "")
        if code == "bm":
            best += _moves(board, operands)
        elif code == "am":
            avoid += _moves(board, operands)
        elif code == "id":
            ident = operands.strip().strip('"')
    if not best and not avoid:
        return None
    return EpdPosition(board.fen(), best, avoid, ident)


def read_epd(path: str) -> List[EpdPosition]:
    with open(path, encoding="utf-8", errors="replace") as f:
        return [p for p in (parse_epd_line(line) for line in f) if p is not None]


def read_fens(path: str) -> List[str]:
    """Every position of an EPD or FEN file, with or without bm/am (an opening file too)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        parsed = (_board_and_operations(line) for line in f)
        return [p[0].fen() for p in parsed if p is not None]


def solved(position: EpdPosition, move: str) -> bool:
    if position.best and move not in position.best:
        return False
    return move not in position.avoid


# --------------------------------------------------------------------------------------------
# Checking one search's output
# --------------------------------------------------------------------------------------------


def _field(tokens: Sequence[str], name: str) -> Optional[str]:
    try:
        return tokens[tokens.index(name) + 1]
    except (ValueError, IndexError):
        return None


def main_pv(info: str) -> Optional[List[str]]:
    """The PV of an ``info`` line if it is the main line (no multipv, or multipv 1)."""
    tokens = info.split()
    if not tokens or tokens[0] != "info" or "pv" not in tokens or "string" in tokens[:2]:
        return None
    multipv = _field(tokens, "multipv")
    if multipv is not None and multipv != "1":
        return None
    return tokens[tokens.index("pv") + 1 :]


def pv_is_legal(fen: str, pv: Sequence[str]) -> bool:
    board = chess.Board(fen)
    for uci in pv:
        try:
            move = chess.Move.from_uci(uci)
        except ValueError:
            return False
        if move not in board.legal_moves:
            return False
        board.push(move)
    return True


@dataclasses.dataclass
class SearchCheck:
    bestmove: str
    mismatch: bool  # the last main PV does not start with bestmove (or there was none)
    illegal_pvs: int  # info lines whose PV (any multipv) has an illegal move
    illegal_ponder: bool


def check_search(fen: str, lines: Sequence[str]) -> SearchCheck:
    """Checks the lines one search printed, the ``bestmove`` line last."""
    tokens = lines[-1].split()
    best = tokens[1] if len(tokens) > 1 else ""
    ponder = _field(tokens, "ponder")
    last_pv: Optional[List[str]] = None
    illegal = 0
    for line in lines[:-1]:
        tokens = line.split()
        if tokens[:1] != ["info"] or "pv" not in tokens or "string" in tokens[:2]:
            continue
        if not pv_is_legal(fen, tokens[tokens.index("pv") + 1 :]):
            illegal += 1
        pv = main_pv(line)
        if pv is not None:
            last_pv = pv
    mismatch = best != "(none)" and (not last_pv or last_pv[0] != best)
    illegal_ponder = ponder is not None and not pv_is_legal(fen, [best, ponder])
    return SearchCheck(best, mismatch, illegal, illegal_ponder)


# --------------------------------------------------------------------------------------------
# Driving an engine
# --------------------------------------------------------------------------------------------


class EngineError(Exception):
    pass


class Engine:
    def __init__(self, name: str, command: str, options: Sequence[Tuple[str, str]], cpu: Optional[str]):
        argv = shlex.split(command)
        if cpu is not None:
            argv = ["taskset", "-c", cpu] + argv
        self.name = name
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.wait_for("uciok", 10.0)
        for key, value in options:
            self.send(f"setoption name {key} value {value}")
        self.ready()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, command: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError as e:
            raise EngineError(f"{self.name} died") from e

    def wait_for(self, prefix: str, timeout: float) -> List[str]:
        """Lines up to and including the first that starts with `prefix`."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(f"{self.name}: no '{prefix}' within {timeout} s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise EngineError(f"{self.name} died")
            seen.append(line)
            if line.split()[:1] == [prefix]:
                return seen

    def ready(self) -> None:
        self.send("isready")
        self.wait_for("readyok", 10.0)

    def search(self, fen: str, ms: int, stop: bool) -> Tuple[List[str], float]:
        """The lines of one search and the seconds from `go` to `bestmove`."""
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.ready()
        start = time.monotonic()
        if stop:
            self.send("go infinite")
            time.sleep(ms / 1000)
            self.send("stop")
        else:
            self.send(f"go movetime {ms}")
        lines = self.wait_for("bestmove", ms / 1000 + 5.0)
        return lines, time.monotonic() - start

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (EngineError, subprocess.TimeoutExpired):
            self.proc.kill()


# --------------------------------------------------------------------------------------------
# Runs and the report
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass
class Tally:
    searches: int = 0
    solved: int = 0
    uses: List[float] = dataclasses.field(default_factory=list)
    mismatches: int = 0
    illegal: int = 0
    faults: int = 0

    def add(self, position: EpdPosition, check: SearchCheck, use: float) -> None:
        self.searches += 1
        self.solved += solved(position, check.bestmove)
        self.uses.append(use)
        self.mismatches += check.mismatch
        self.illegal += check.illegal_pvs + check.illegal_ponder


CSV_HEADER = ["engine", "suite", "ms", "index", "id", "fen", "best", "avoid", "bestmove", "solved", "use"]


def csv_row(engine: str, suite: str, ms: int, index: int, position: EpdPosition, check: SearchCheck, use: float) -> List[str]:
    """One position's result for ``--csv``: which positions each engine solves, to compare engines
    position by position (``index`` counts from 1 the records ``read_epd`` keeps: blank lines,
    comments and records without bm/am are skipped)."""
    return [
        engine,
        suite,
        str(ms),
        str(index),
        position.ident,
        position.fen,
        " ".join(position.best),
        " ".join(position.avoid),
        check.bestmove,
        "1" if solved(position, check.bestmove) else "0",
        f"{use:.3f}",
    ]


def report(rows: Dict[Tuple[str, str, int], Tally], mode: str) -> str:
    out = [
        f"| engine | suite | {mode} ms | positions | solved | mean use | lowest use | PV mismatches | illegal | faults |",
        "| --- | --- | --: | --: | --: | --: | --: | --: | --: | --: |",
    ]
    for (engine, suite, ms), t in rows.items():
        mean = sum(t.uses) / len(t.uses) if t.uses else 0.0
        low = min(t.uses) if t.uses else 0.0
        out.append(
            f"| {engine} | {suite} | {ms} | {t.searches} | {t.solved} | {mean:.3f} | {low:.3f} "
            f"| {t.mismatches} | {t.illegal} | {t.faults} |"
        )
    return "\n".join(out)


def parse_suite(spec: str) -> Tuple[str, List[int]]:
    path, _, times = spec.rpartition(":")
    if not path or not times:
        raise argparse.ArgumentTypeError(f"suite '{spec}' is not FILE:MS[,MS...]")
    try:
        ms = [int(t) for t in times.split(",")]
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"suite '{spec}': times must be integers") from e
    if any(t <= 0 for t in ms):
        raise argparse.ArgumentTypeError(f"suite '{spec}': times must be positive")
    return path, ms


def parse_engine(spec: str) -> Tuple[str, str]:
    name, sep, command = spec.partition("=")
    if not sep or not name or not command:
        raise argparse.ArgumentTypeError(f"engine '{spec}' is not NAME=COMMAND")
    return name, command


def parse_option(spec: str) -> Tuple[str, str, str]:
    target, sep, setting = spec.partition(":")
    key, sep2, value = setting.partition("=")
    if not sep or not sep2 or not key:
        raise argparse.ArgumentTypeError(f"option '{spec}' is not ENGINE:NAME=VALUE (ENGINE may be *)")
    return target, key, value


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", type=parse_engine, action="append", required=True, help="NAME=COMMAND")
    ap.add_argument("--option", type=parse_option, action="append", default=[], help="ENGINE:NAME=VALUE (ENGINE * for all)")
    ap.add_argument("--suite", type=parse_suite, action="append", required=True, help="FILE:MS[,MS...]")
    ap.add_argument("--limit", type=int, default=0, help="first N positions of each suite (0: all)")
    ap.add_argument("--stop", action="store_true", help="go infinite, then stop after MS")
    ap.add_argument("--cpu", help="pin each engine to this core (taskset -c)")
    ap.add_argument("--verbose", action="store_true", help="print every mismatch and fault")
    ap.add_argument("--output", help="also write the markdown table here")
    ap.add_argument("--csv", help="also write every position's result here (one row per engine, time and position)")
    args = ap.parse_args(argv)

    engines = []
    for name, command in args.engine:
        options = [(k, v) for target, k, v in args.option if target in ("*", name)]
        engines.append((name, command, options))
    rows: Dict[Tuple[str, str, int], Tally] = {}
    began = time.monotonic()
    with contextlib.ExitStack() as files:
        csv_out = None
        if args.csv:
            csv_out = csv.writer(files.enter_context(open(args.csv, "w", encoding="utf-8", newline="")))
            csv_out.writerow(CSV_HEADER)
        for path, times in args.suite:
            positions = read_epd(path)
            if args.limit:
                positions = positions[: args.limit]
            suite = path.rsplit("/", 1)[-1]
            running = {name: Engine(name, command, options, args.cpu) for name, command, options in engines}
            try:
                for ms in times:
                    for index, position in enumerate(positions, 1):
                        for name in running:
                            tally = rows.setdefault((name, suite, ms), Tally())
                            engine = running[name]
                            try:
                                lines, seconds = engine.search(position.fen, ms, args.stop)
                            except EngineError as e:
                                tally.faults += 1
                                print(f"fault: {e} on {position.ident or position.fen}", file=sys.stderr)
                                engine.close()
                                command, options = next((c, o) for n, c, o in engines if n == name)
                                running[name] = Engine(name, command, options, args.cpu)
                                continue
                            check = check_search(position.fen, lines)
                            use = seconds * 1000 / ms
                            tally.add(position, check, use)
                            if csv_out:
                                csv_out.writerow(csv_row(name, suite, ms, index, position, check, use))
                            if args.verbose and (check.mismatch or check.illegal_pvs or check.illegal_ponder):
                                print(f"{name} {ms} ms {position.ident}: {lines[-2:]}", file=sys.stderr)
            finally:
                for engine in running.values():
                    engine.close()
    table = report(rows, "stop" if args.stop else "movetime")
    print(table)
    print(f"\n{time.monotonic() - began:.0f} s")
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
