#!/usr/bin/env python3
"""Horizon's match runner: plays paired games between two engines with python-chess.

Library and command line. The pure parts (Elo with its 95 % interval, LOS, the SPRT
log-likelihood ratio and its decision, time-control, protocol and opening parsing, the XBoard
edit-mode translation) have no side effects and are unit-tested in test_match.py; the rest
drives engines through python-chess (``chess.engine.SimpleEngine.popen_uci`` for UCI engines,
an XBoardProtocol subclass for XBoard/CECP engines) and keeps the clocks itself.

Run ``python3 tests/python/match.py --help`` for the options; tests/python/README.md has
examples. The last line printed is always ``N passed, M failed`` (games without / with an
illegal move, time forfeit, crash, hang or missing result by a judged engine: both unless
--judge 1 or 2), and the exit status is 1 when any such error happened (unless
--no-fail-on-errors), 2 on a usage or start-up error.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import dataclasses
import datetime
import logging
import math
import os
import queue
import random
import re
import shlex
import statistics
import sys
import tempfile
import threading
import time
import traceback
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import chess
import chess.engine
import chess.pgn

# --------------------------------------------------------------------------------------------
# Statistics (pure)
# --------------------------------------------------------------------------------------------


def elo_to_score(elo: float) -> float:
    """Expected score of a player `elo` points stronger (logistic model)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score: float) -> float:
    """Inverse of elo_to_score; +-inf at a score of 1 or 0."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclasses.dataclass(frozen=True)
class EloEstimate:
    """Elo difference of a W/D/L record, with a two-sided confidence interval."""

    wins: int
    draws: int
    losses: int
    score: float  # mean score per game, 0..1
    elo: float
    lower: float  # bounds of the interval in Elo
    upper: float
    margin: float  # half the width of the interval, the "+/-" figure (as cutechess-cli prints)
    los: float  # likelihood of superiority, 0..1

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority from wins and losses (draws carry no information)."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def elo_estimate(wins: int, draws: int, losses: int, confidence: float = 0.95) -> EloEstimate:
    """Elo from W/D/L with the normal-approximation interval on the mean score.

    The per-game score variance is estimated from the trinomial frequencies; the interval
    [s - z*sd, s + z*sd] on the mean score s (sd = sqrt(var / n)) is mapped through the logistic
    Elo formula, as cutechess-cli and fastchess do. With no games everything is 0 / nan.
    """
    n = wins + draws + losses
    if n == 0:
        return EloEstimate(wins, draws, losses, math.nan, 0.0, math.nan, math.nan, math.nan, 0.5)
    s = (wins + 0.5 * draws) / n
    var = (wins * (1.0 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * (0.0 - s) ** 2) / n
    sd = math.sqrt(var / n)
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2.0)
    lower = score_to_elo(s - z * sd)
    upper = score_to_elo(s + z * sd)
    margin = math.inf if math.isinf(lower) or math.isinf(upper) else (upper - lower) / 2.0
    return EloEstimate(wins, draws, losses, s, score_to_elo(s), lower, upper, margin, los(wins, losses))


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> Tuple[float, float]:
    """Wald's stopping bounds (lower, upper) on the LLR: accept H0 at or below the lower one,
    H1 at or above the upper one. alpha = beta = 0.05 gives (-2.944, +2.944)."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (elo = elo1) against H0 (elo = elo0), trinomial model.

    The GSPRT normal approximation of Fishtest's LLRcalc.LLR_alt2 / OpenBench's "logistic"
    SPRT, without the BayesElo draw model: with s the mean score, var the per-game variance of
    the score and s0, s1 the expected scores of elo0, elo1 in logistic Elo,

        LLR = n * (s1 - s0) * (2 s - s0 - s1) / (2 var)

    Empty cells count as half a game. (Fishtest's 1e-3 makes the variance vanish on a
    one-sided start: a single win then gave an LLR of +5.7 and "H1 accepted after 1 game".)
    No games: 0.
    """
    counts = [float(losses), float(draws), float(wins)]
    if sum(counts) == 0:
        return 0.0
    counts = [c if c > 0 else 0.5 for c in counts]
    n = sum(counts)
    l, d, w = (c / n for c in counts)
    s = w + 0.5 * d
    var = w * (1.0 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    return n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)


def sprt_decision(llr: float, alpha: float = 0.05, beta: float = 0.05) -> Optional[str]:
    """"H1" when the LLR reached the upper bound, "H0" at the lower one, None to go on."""
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return None


# --------------------------------------------------------------------------------------------
# Parsing (pure)
# --------------------------------------------------------------------------------------------


def parse_tc(text: str) -> Tuple[float, float]:
    """'2+0.05' -> (2.0, 0.05) seconds of base time and increment; '10' -> (10.0, 0.0).
    'M:S+I' (e.g. '1:30+1') is accepted too."""
    text = text.strip()
    base_text, _, inc_text = text.partition("+")
    try:
        if ":" in base_text:
            minutes, _, seconds = base_text.partition(":")
            base = 60.0 * float(minutes) + float(seconds)
        else:
            base = float(base_text)
        inc = float(inc_text) if inc_text else 0.0
    except ValueError:
        raise ValueError(f"bad time control {text!r}: expected SECONDS[+INCREMENT], e.g. 2+0.05") from None
    if not (base > 0 and inc >= 0 and math.isfinite(base) and math.isfinite(inc)):
        raise ValueError(f"bad time control {text!r}: base must be > 0 and increment >= 0")
    return base, inc


def format_tc(base: float, inc: float) -> str:
    """PGN TimeControl tag form: '2+0.05', '60', '1+0.02'."""

    def num(x: float) -> str:
        return f"{x:.3f}".rstrip("0").rstrip(".")

    return num(base) if inc == 0 else f"{num(base)}+{num(inc)}"


def parse_option(text: str) -> Tuple[str, str]:
    """'Hash=16' -> ('Hash', '16'); the name may contain spaces ('Skill Level=5')."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise ValueError(f"bad engine option {text!r}: expected NAME=VALUE")
    return name.strip(), value.strip()


PROTOCOLS = ("uci", "xboard")

# UCI options python-chess sets itself (and refuses in configure).
MANAGED_UCI_OPTIONS = ("multipv",)


def parse_vary(text: str) -> Tuple[str, List[str]]:
    """'Threads=1,2' -> ('Threads', ['1', '2']): an option and the values a game draws from."""
    name, values = parse_option(text)
    choices = [v.strip() for v in values.split(",") if v.strip()]
    if not choices:
        raise ValueError(f"bad --vary {text!r}: expected NAME=V1,V2,...")
    return name, choices


def game_options(spec: EngineSpec, game_number: int, label: str, seed: int) -> Tuple[List[Tuple[str, str]], bool]:
    """The varied options an engine plays game `game_number` with, and whether its
    `ucinewgame` is left out: drawn from a generator seeded by (seed, label, game), so a run
    can be repeated."""
    rng = random.Random(f"{seed}/{label}/{game_number}")
    chosen = [(name, rng.choice(values)) for name, values in spec.vary]
    skip = spec.skip_newgame > 0 and rng.random() < spec.skip_newgame
    return chosen, skip


def split_protocol(command: str, protocol: Optional[str] = None) -> Tuple[str, str]:
    """(protocol, command) of an engine argument: 'xboard:/usr/games/phalanx -b-' ->
    ('xboard', '/usr/games/phalanx -b-'), 'uci:stockfish' -> ('uci', 'stockfish'); without a
    prefix the explicit `protocol` (--proto1/--proto2) or 'uci'. The prefix is case-insensitive.
    A prefix that contradicts an explicit protocol, an unknown protocol or an empty command
    raise ValueError."""
    if protocol is not None and protocol.lower() not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}: expected one of {', '.join(PROTOCOLS)}")
    chosen = protocol.lower() if protocol else None
    text = command.strip()
    head, sep, rest = text.partition(":")
    if sep and head.lower() in PROTOCOLS:
        if chosen is not None and chosen != head.lower():
            raise ValueError(f"engine {command!r} has the prefix {head}: but the protocol {protocol} was given")
        chosen, text = head.lower(), rest.strip()
    if not text:
        raise ValueError(f"empty engine command in {command!r}")
    return chosen or "uci", text


def parse_opening_line(line: str) -> Optional[chess.Board]:
    """A board from one line of an opening file, or None for a blank line or a comment.

    Accepts a full FEN (6 fields, optionally followed by ';'-separated EPD operations) and an
    EPD line (4 fields, optionally followed by operations such as 'hmvc 0; fmvn 1;' or 'id ...').
    Raises ValueError on a malformed or illegal position.
    """
    line = line.strip()
    if not line or line.startswith("#"):
        return None
    fields = line.split()
    if len(fields) >= 6 and fields[4].isdigit() and fields[5].rstrip(";").isdigit():
        board = chess.Board(" ".join(fields[:4] + [fields[4], fields[5].rstrip(";")]))
    else:
        board, _ = chess.Board.from_epd(line)
    status = board.status()
    if status != chess.STATUS_VALID:
        raise ValueError(f"invalid position {board.fen()!r} ({status!r})")
    if board.is_game_over():
        raise ValueError(f"the game is already over in {board.fen()!r}")
    return board


def load_openings(path: str) -> List[chess.Board]:
    """Every position of an EPD/FEN file, in order; raises ValueError naming the bad line."""
    boards = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            try:
                board = parse_opening_line(line)
            except ValueError as err:
                raise ValueError(f"{path}:{number}: {err}") from None
            if board is not None:
                boards.append(board)
    if not boards:
        raise ValueError(f"{path}: no positions")
    return boards


def random_opening(rng: random.Random, plies: int, start: Optional[chess.Board] = None) -> chess.Board:
    """`plies` uniformly random legal moves from `start` (the initial position by default),
    retried until the game is not over. The moves stay in the board's move stack, so the
    engines see them (and their repetition history) in `position ... moves`."""
    for _ in range(1000):
        board = (start or chess.Board()).copy()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over(claim_draw=True):
            return board
    raise ValueError("could not make a random opening that is not already over")


class OpeningSchedule:
    """Hands out openings for game pairs: sequentially from a start index or in a seeded random
    order (a shuffled pass over the file, then another), or random-ply openings."""

    def __init__(self, boards: Optional[Sequence[chess.Board]], order: str = "sequential", start: int = 1,
                 seed: int = 0, random_plies: int = 8):
        self.boards = list(boards) if boards else None
        self.order = order
        self.rng = random.Random(seed)
        self.random_plies = random_plies
        self.next_index = (start - 1) if self.boards else 0
        self.permutation: List[int] = []

    def next(self) -> Tuple[int, chess.Board]:
        """(1-based index in the file or the pair number for random openings, board)."""
        if self.boards is None:
            self.next_index += 1
            return self.next_index, random_opening(self.rng, self.random_plies)
        if self.order == "random":
            if not self.permutation:
                self.permutation = list(range(len(self.boards)))
                self.rng.shuffle(self.permutation)
            index = self.permutation.pop()
        else:
            index = self.next_index % len(self.boards)
            self.next_index += 1
        return index + 1, self.boards[index].copy()


# --------------------------------------------------------------------------------------------
# Engines
# --------------------------------------------------------------------------------------------

PID_RE = re.compile(r"\(pid=(\d+)\)")


class UciLogRouter(logging.Handler):
    """Receives python-chess's 'chess.engine' log records (the UCI traffic at DEBUG, stderr and
    protocol complaints at WARNING/ERROR) and files each under the engine it came from, found
    by the pid in the message or in the name of the engine's event-loop thread."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.players: Dict[int, "Player"] = {}
        self.players_lock = threading.Lock()

    def register(self, pid: int, player: "Player") -> None:
        with self.players_lock:
            self.players[pid] = player

    def unregister(self, pid: int) -> None:
        with self.players_lock:
            self.players.pop(pid, None)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
            if record.exc_info and record.levelno >= logging.WARNING:
                message += " | " + "".join(traceback.format_exception_only(*record.exc_info[:2])).strip()
            match = PID_RE.search(message) or PID_RE.search(record.threadName or "")
            if not match:
                return
            with self.players_lock:
                player = self.players.get(int(match.group(1)))
            if player is not None:
                player.log_record(record.levelno, message)
        except Exception:  # a logging handler must never raise
            self.handleError(record)


LOG_ROUTER = UciLogRouter()


def install_log_router(debug_log: Optional[str] = None) -> None:
    logger = logging.getLogger("chess.engine")
    if LOG_ROUTER not in logger.handlers:
        logger.addHandler(LOG_ROUTER)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    if debug_log:
        handler = logging.FileHandler(debug_log, mode="w", encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(threadName)s %(levelname)s %(message)s"))
        logger.addHandler(handler)


@dataclasses.dataclass
class EngineSpec:
    command: str
    options: List[Tuple[str, str]]
    name: Optional[str] = None
    protocol: str = "uci"  # "uci" or "xboard"
    # Soak testing: options set anew before each game to one of their values (seeded per game),
    # pondering (UCI `go ponder` / `ponderhit` / `stop`), and the share of games whose
    # `ucinewgame` is left out.
    vary: List[Tuple[str, List[str]]] = dataclasses.field(default_factory=list)
    ponder: bool = False
    skip_newgame: float = 0.0

    def argv(self) -> List[str]:
        return shlex.split(self.command)

    def describe(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in self.options)
        prefix = "xboard:" if self.protocol == "xboard" else ""
        return prefix + self.command + (f" [{opts}]" if opts else "")


def xboard_edit_commands(fen: str) -> Tuple[List[str], List[str]]:
    """The CECP edit-mode commands that set up `fen` in an XBoard engine that cannot `setboard`,
    and what they cannot convey.

    They assume the engine has just had `new` and `force` (the initial position, White to move,
    as python-chess sends them before `setboard`). Edit mode keeps the side to move, so for Black
    to move a White move (a2a3) comes first, as XBoard itself does; then `edit`, `#` (clear),
    the white pieces, `c` (colour change), the black pieces, `.` (leave). Edit mode has no way
    to give castling rights (the engine assumes them from kings and rooks on their initial
    squares), the en-passant square or the move counters: the second list names the castling
    rights and en-passant capture that are lost that way (empty when every legal move of the
    position is conveyed; the halfmove clock is always lost and not listed)."""
    board = chess.Board(fen)
    lines: List[str] = ["a2a3"] if board.turn == chess.BLACK else []
    lines += ["edit", "#"]
    for color in (chess.WHITE, chess.BLACK):
        if color == chess.BLACK:
            lines.append("c")
        for square in chess.SQUARES:
            piece = board.piece_at(square)
            if piece is not None and piece.color == color:
                lines.append(piece.symbol().upper() + chess.square_name(square))
    lines.append(".")

    lost: List[str] = []
    assumed = chess.Board(None)  # the castling rights edit mode implies: K and R at home
    assumed.set_piece_map(board.piece_map())
    implied = 0
    for king, rooks in ((chess.E1, (chess.A1, chess.H1)), (chess.E8, (chess.A8, chess.H8))):
        piece = board.piece_at(king)
        if piece is None or piece.piece_type != chess.KING or piece.color != (king == chess.E1):
            continue
        for rook in rooks:
            r = board.piece_at(rook)
            if r is not None and r.piece_type == chess.ROOK and r.color == piece.color:
                implied |= chess.BB_SQUARES[rook]
    if implied != board.clean_castling_rights():
        assumed.castling_rights = implied
        lost.append(f"castling rights {board.castling_xfen()} (edit mode implies "
                    f"{assumed.castling_xfen()})")
    if board.ep_square is not None and board.has_legal_en_passant():
        lost.append(f"en passant on {chess.square_name(board.ep_square)}")
    return lines, lost


class EditXBoardProtocol(chess.engine.XBoardProtocol):
    """python-chess's XBoard protocol for engines that declare `feature setboard=0` (Fairy-Max
    5.0b does, and crashes on `setboard`): python-chess refuses such engines, so the feature is
    read as setboard=1 and every `setboard FEN` it would send goes out as the edit-mode commands
    of xboard_edit_commands. What edit mode cannot convey is logged as a warning (counted as a
    protocol warning). Engines that can `setboard` are driven exactly as by XBoardProtocol."""

    def __init__(self) -> None:
        super().__init__()
        self.setboard_by_edit = False

    def _line_received(self, line: str) -> None:
        if not self.initialized and line.startswith("feature") and re.search(r"\bsetboard=0\b", line):
            self.setboard_by_edit = True
            chess.engine.LOGGER.debug("%s: >> %s (setboard=0: positions are set up in edit mode)", self, line)
            line = re.sub(r"\bsetboard=0\b", "setboard=1", line)
        super()._line_received(line)

    def send_line(self, line: str) -> None:
        if self.setboard_by_edit and line.startswith("setboard "):
            lines, lost = xboard_edit_commands(line[len("setboard "):])
            if lost:
                chess.engine.LOGGER.warning("%s: edit mode cannot set %s", self, "; ".join(lost))
            for edit_line in lines:
                super().send_line(edit_line)
            return
        super().send_line(line)


class MoveError(Exception):
    """An engine failed to produce a legal move in time. kind: 'illegal', 'crash', 'hang'."""

    def __init__(self, kind: str, detail: str, elapsed: float = 0.0):
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.elapsed = elapsed


@dataclasses.dataclass
class MoveReply:
    move: Optional[chess.Move]  # None only when resigned
    elapsed: float  # seconds of wall time from sending the command to receiving bestmove
    info: dict
    resigned: bool = False  # an XBoard engine resigned instead of moving (a loss, not an error)


class Player:
    """One engine process (UCI or XBoard), restarted after a crash or hang, with its protocol log
    of the current game."""

    def __init__(self, spec: EngineSpec, label: str, init_timeout: float = 30.0):
        self.spec = spec
        self.label = label  # "engine1" / "engine2"
        self.init_timeout = init_timeout
        self.engine: Optional[chess.engine.SimpleEngine] = None
        self.pid: Optional[int] = None
        self.session = object()  # the `game` key python-chess gets: constant, ucinewgame is ours
        self.id_name = "?"
        self.log_lock = threading.Lock()
        self.game_log: List[Tuple[float, str]] = []
        self.warnings = 0
        self.stderr_lines = 0
        self.warning_samples: List[str] = []
        self.restarts = 0
        self.go_sent: Optional[float] = None
        self.bestmove_received: Optional[float] = None

    # -- process ------------------------------------------------------------------------------

    @property
    def xboard(self) -> bool:
        return self.spec.protocol == "xboard"

    def start(self) -> None:
        if self.xboard:
            engine = chess.engine.SimpleEngine.popen(EditXBoardProtocol, self.spec.argv(), timeout=self.init_timeout)
        else:
            engine = chess.engine.SimpleEngine.popen_uci(self.spec.argv(), timeout=self.init_timeout)
        self.engine = engine
        self.pid = engine.transport.get_pid()
        LOG_ROUTER.register(self.pid, self)
        self.id_name = engine.id.get("name", os.path.basename(self.spec.argv()[0]))
        if self.spec.options:
            engine.configure(self._typed_options(engine))
        if self.xboard:
            # No warm-up search: an `sd 1` could stay in force in engines that do not reset it
            # on `new`. Each game gets its own `new` (new_game), a ping shows the engine is up.
            engine.ping()
        else:
            # A first search so that python-chess's own ucinewgame/isready on the first `play` of
            # the process happens here, not on a clock: later games get our ucinewgame (new_game).
            engine.play(chess.Board(), chess.engine.Limit(depth=1), game=self.session)

    def _typed_options(self, engine: chess.engine.SimpleEngine,
                       options: Optional[Sequence[Tuple[str, str]]] = None) -> Dict[str, object]:
        typed: Dict[str, object] = {}
        for name, value in (self.spec.options if options is None else options):
            option = engine.options.get(name)
            if option is None:
                known = ", ".join(sorted(engine.options)) or "none"
                raise chess.engine.EngineError(f"{self.spec.command}: no {self.spec.protocol.upper()} option named "
                                               f"{name!r} (it has: {known})")
            if option.type == "check":
                typed[option.name] = value.lower() in ("true", "1", "yes", "on")
            elif self.xboard:
                # python-chess's XBoard side compares the configured value with its last one
                # without parsing it (a str "64" never equals the int 64) and would send
                # `memory 64` again before every move: hand it the parsed value.
                typed[option.name] = option.parse(value)
            else:
                typed[option.name] = value
        return typed

    def alive(self) -> bool:
        return self.engine is not None and not self.engine.returncode.done()

    def kill(self) -> None:
        engine, self.engine = self.engine, None
        if engine is None:
            return
        def kill_process() -> None:
            try:
                if engine.transport.get_returncode() is None:
                    engine.transport.kill()
            except (ProcessLookupError, OSError):
                pass  # already gone

        try:
            engine.protocol.loop.call_soon_threadsafe(kill_process)
        except RuntimeError:
            pass  # the event loop is already closed: the process is gone
        engine.close()
        try:
            engine.returncode.result(timeout=10)
        except Exception:
            pass
        if self.pid is not None:
            LOG_ROUTER.unregister(self.pid)

    def restart(self) -> None:
        self.kill()
        self.restarts += 1
        self.start()

    def quit(self) -> None:
        engine = self.engine
        if engine is None:
            return
        try:
            if self.alive():
                engine.quit()
        except Exception:
            pass
        self.kill()

    # -- log ----------------------------------------------------------------------------------

    def log_record(self, level: int, message: str) -> None:
        now = time.perf_counter()
        with self.log_lock:
            self.game_log.append((now, message))
            # The clock runs from writing 'go' to reading 'bestmove' (UCI) or 'move' (XBoard), as
            # cutechess-cli and fastchess count it; both lines are logged in the engine's
            # event-loop thread.
            if (message.endswith(": << go") if self.xboard else ": << go" in message):
                self.go_sent, self.bestmove_received = now, None
            elif not self.xboard and message.endswith(": << ponderhit"):
                # The ponder search now plays for real: its clock starts here.
                self.go_sent = now
            elif (": >> move " in message if self.xboard else ": >> bestmove" in message) \
                    and self.bestmove_received is None:
                self.bestmove_received = now
            if level >= logging.WARNING:
                if "stderr >>" in message:
                    self.stderr_lines += 1
                else:
                    self.warnings += 1
                    if len(self.warning_samples) < 5:
                        self.warning_samples.append(message)

    def take_log(self) -> List[Tuple[float, str]]:
        with self.log_lock:
            log, self.game_log = self.game_log, []
        return log

    # -- protocol -----------------------------------------------------------------------------

    def new_game(self, options: Sequence[Tuple[str, str]] = (), skip_newgame: bool = False) -> None:
        """UCI: ucinewgame (unless `skip_newgame`) then isready/readyok, outside any clock, after
        setting `options` (the soak's per-game variation). XBoard: a new game key, so that
        python-chess sends `new` (and `level`) with the first move of the game, then ping/pong.
        Raises MoveError on failure."""
        if not self.alive():
            raise MoveError("crash", f"process exited before the game (code {self._returncode()})")
        try:
            if self.xboard:
                self.session = object()
            else:
                # A ping first ends a ponder search still running from the last game.
                self.engine.ping()
                # python-chess refuses to configure the options it manages itself (MultiPV
                # is one): those go to the engine as raw setoption lines.
                managed = [(n, v) for n, v in options if n.lower() in MANAGED_UCI_OPTIONS]
                plain = [(n, v) for n, v in options if n.lower() not in MANAGED_UCI_OPTIONS]
                if plain:
                    self.engine.configure(self._typed_options(self.engine, plain))
                for name, value in managed:
                    self.engine.protocol.loop.call_soon_threadsafe(
                        self.engine.protocol.send_line, f"setoption name {name} value {value}")
                if not skip_newgame:
                    self.engine.protocol.loop.call_soon_threadsafe(self.engine.protocol.send_line, "ucinewgame")
            self.engine.ping()
        except (asyncio.TimeoutError, concurrent.futures.TimeoutError):
            raise MoveError("hang", "no pong within the time-out after ping" if self.xboard
                            else "no readyok within the time-out after ucinewgame/isready") from None
        except (chess.engine.EngineError, RuntimeError) as err:
            raise MoveError("crash", f"died at ucinewgame/isready: {err} (code {self._returncode()})") from None

    def _returncode(self) -> str:
        try:
            return str(self.engine.returncode.result(timeout=1)) if self.engine else "?"
        except Exception:
            return "?"

    def play(self, board: chess.Board, limit: chess.engine.Limit, timeout: float) -> MoveReply:
        """Asks for a move and measures the wall time it took: from writing 'go' to reading
        'bestmove' (timestamps taken in the engine's I/O thread), or the whole call if the log
        router is not installed. The python side's own overhead (1-4 ms a move) is not charged.

        Raises MoveError('hang') when no bestmove came within `timeout` seconds, ('crash') when
        the process died, ('illegal') for an unparsable, illegal, null or missing move."""
        if not self.alive():
            raise MoveError("crash", f"process had exited (code {self._returncode()})")
        engine = self.engine
        if self.xboard:
            # `level` once per game (python-chess sends it when the clock id changes); the clocks
            # go with every move as `time` and `otim`.
            limit = dataclasses.replace(limit, clock_id=self.session)
        coro = asyncio.wait_for(
            engine.protocol.play(board, limit, game=self.session, info=chess.engine.INFO_BASIC | chess.engine.INFO_SCORE,
                                 ponder=self.spec.ponder and not self.xboard),
            timeout)
        start = time.perf_counter()
        try:
            future = asyncio.run_coroutine_threadsafe(coro, engine.protocol.loop)
        except RuntimeError as err:  # event loop closed: the engine is gone
            coro.close()
            raise MoveError("crash", f"process had exited ({err})") from None
        try:
            result = future.result(timeout + 5.0)  # backstop should the loop itself stall
        except (asyncio.TimeoutError, concurrent.futures.TimeoutError):
            future.cancel()
            raise MoveError("hang", f"no bestmove within {timeout:.3f} s", time.perf_counter() - start) from None
        except chess.engine.EngineTerminatedError as err:
            raise MoveError("crash", f"process died during the search: {err}", time.perf_counter() - start) from None
        except chess.engine.EngineError as err:
            raise MoveError("illegal", f"bad bestmove: {err}", time.perf_counter() - start) from None
        except RuntimeError as err:
            raise MoveError("crash", f"event loop failure: {err}", time.perf_counter() - start) from None
        end = time.perf_counter()
        elapsed = end - start
        with self.log_lock:
            go_sent, bestmove_received = self.go_sent, self.bestmove_received
        if go_sent is not None and bestmove_received is not None and start <= go_sent <= bestmove_received <= end:
            elapsed = bestmove_received - go_sent  # else (no log router): the wall time of the call
        move = result.move
        if move is None and result.resigned:
            return MoveReply(None, elapsed, dict(result.info), resigned=True)
        if move is None:
            if self.xboard:
                raise MoveError("illegal", "no move (a result claim or draw offer without a move)", elapsed)
            raise MoveError("illegal", "bestmove (none) in a position with legal moves", elapsed)
        if move not in board.legal_moves:  # e.g. the null move 0000
            raise MoveError("illegal", f"bestmove {move.uci()} is not legal", elapsed)
        return MoveReply(move, elapsed, dict(result.info))


# --------------------------------------------------------------------------------------------
# Games
# --------------------------------------------------------------------------------------------

ERROR_KINDS = ("illegal", "forfeit", "crash", "hang", "missing")


@dataclasses.dataclass
class GameError:
    kind: str  # one of ERROR_KINDS
    engine: Optional[int]  # 1, 2 or None (missing result: the runner's fault or unknown)
    detail: str

    def describe(self, names: Sequence[str]) -> str:
        who = names[self.engine - 1] if self.engine else "runner"
        return f"{self.kind} ({who}): {self.detail}"


@dataclasses.dataclass
class GameRecord:
    number: int  # 1-based round
    opening_index: int
    white_engine: int  # 1 or 2
    result: str = "*"  # "1-0", "0-1", "1/2-1/2", "*"
    termination: str = ""  # human text: "checkmate", "threefold repetition", "Black loses on time" ...
    pgn_termination: str = "unterminated"  # PGN Termination tag value
    errors: List[GameError] = dataclasses.field(default_factory=list)
    plies: int = 0
    seconds: float = 0.0
    min_clock_left: Dict[int, float] = dataclasses.field(default_factory=dict)  # engine -> s
    # engine -> (seconds a move took, the clock it had before it), every move played
    move_times: Dict[int, List[Tuple[float, float]]] = dataclasses.field(default_factory=dict)
    # engine -> the varied options it played this game with (soak), and whether its
    # ucinewgame was left out
    settings: Dict[int, str] = dataclasses.field(default_factory=dict)
    pgn: str = ""
    log: List[str] = dataclasses.field(default_factory=list)

    def engine1_points(self) -> Optional[float]:
        if self.result == "1/2-1/2":
            return 0.5
        if self.result in ("1-0", "0-1"):
            white_won = self.result == "1-0"
            return 1.0 if white_won == (self.white_engine == 1) else 0.0
        return None

    @property
    def failed(self) -> bool:
        return bool(self.errors)


@dataclasses.dataclass
class Adjudication:
    resign_moves: int = 0  # 0 = off
    resign_score: int = 1000  # centipawns
    draw_moves: int = 0  # 0 = off
    draw_score: int = 10
    draw_movenumber: int = 40


def format_score(info: dict, color: chess.Color) -> str:
    score = info.get("score")
    depth = info.get("depth")
    if score is None:
        text = "?"
    else:
        pov = score.pov(color)
        mate = pov.mate()
        text = (f"+M{mate}" if mate > 0 else f"-M{-mate}") if mate is not None else f"{pov.score() / 100:+.2f}"
    return f"{text}/{depth if depth is not None else '?'}"


def play_game(number: int, opening_index: int, opening: chess.Board, white: Player, black: Player,
              white_engine: int, base: float, inc: float, tolerance: float, hang_timeout: float,
              adjudication: Adjudication, event: str, names: Sequence[str], seed: int = 1) -> GameRecord:
    """Plays one game; never raises. Errors are recorded and the faulty side loses."""
    record = GameRecord(number, opening_index, white_engine)
    players = {chess.WHITE: white, chess.BLACK: black}
    engine_of = {chess.WHITE: white_engine, chess.BLACK: 3 - white_engine}
    clocks = {chess.WHITE: base, chess.BLACK: base}
    record.min_clock_left = {1: base, 2: base}
    board = opening.copy()
    comments: List[str] = []
    scores: Dict[chess.Color, List[Optional[int]]] = {chess.WHITE: [], chess.BLACK: []}
    started = time.perf_counter()
    game_over_comment = ""

    def finish(result: str, termination: str, pgn_termination: str, comment: str = "") -> None:
        nonlocal game_over_comment
        record.result, record.termination, record.pgn_termination = result, termination, pgn_termination
        game_over_comment = comment or termination

    def lose(color: chess.Color, why: str, pgn_termination: str, comment: str) -> None:
        finish("0-1" if color == chess.WHITE else "1-0", why, pgn_termination, comment)

    try:
        for color in (chess.WHITE, chess.BLACK):
            player = players[color]
            options, skip_newgame = game_options(player.spec, number, player.label, seed)
            if options or skip_newgame:
                record.settings[engine_of[color]] = " ".join(f"{n}={v}" for n, v in options) + \
                    (" (no ucinewgame)" if skip_newgame else "")
            try:
                player.new_game(options, skip_newgame)
            except MoveError as err:
                side = "White" if color == chess.WHITE else "Black"
                record.errors.append(GameError(err.kind, engine_of[color], f"before the first move: {err.detail}"))
                verb = "crashes" if err.kind == "crash" else "hangs"
                lose(color, f"{side} {verb}", "abandoned", f"{side} {verb} before the game: {err.detail}")
                try:
                    player.restart()
                except Exception as restart_err:
                    record.errors.append(GameError("missing", None, f"restart failed: {restart_err}"))
                break

        while not record.termination:
            outcome = board.outcome()
            if outcome is not None:
                term = outcome.termination.name.lower().replace("_", " ")
                names_map = {"seventyfive moves": "75-move rule", "fivefold repetition": "fivefold repetition"}
                term = names_map.get(term, term)
                finish(outcome.result(), term, "normal")
                break
            if board.is_repetition(3):
                finish("1/2-1/2", "threefold repetition", "normal")
                break
            if board.halfmove_clock >= 100:
                finish("1/2-1/2", "fifty-move rule", "normal")
                break

            color = board.turn
            player = players[color]
            engine = engine_of[color]
            side = "White" if color == chess.WHITE else "Black"
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                       white_inc=inc, black_inc=inc)
            timeout = max(clocks[color], 0.0) + tolerance + hang_timeout
            try:
                reply = player.play(board, limit, timeout)
            except MoveError as err:
                if err.kind == "illegal":
                    record.errors.append(GameError("illegal", engine, f"move {board.fullmove_number}{'.' if color else '...'}: {err.detail}; FEN {board.fen()}"))
                    lose(color, f"{side} makes an illegal move", "rules infraction", f"{side} makes an illegal move: {err.detail}")
                    if player.xboard:
                        # python-chess leaves an XBoard command that got an unparsable move
                        # unfinished (no ping follows): start the engine afresh.
                        try:
                            player.restart()
                        except Exception as restart_err:
                            record.errors.append(GameError("missing", None, f"restart of {names[engine - 1]} failed: {restart_err}"))
                else:
                    clock_ms = clocks[color] * 1000
                    record.errors.append(GameError(err.kind, engine, f"move {board.fullmove_number}{'.' if color else '...'} with {clock_ms:.0f} ms on the clock: {err.detail}; FEN {board.fen()}"))
                    verb = "crashes" if err.kind == "crash" else "hangs"
                    lose(color, f"{side} {verb}", "abandoned" if err.kind == "crash" else "time forfeit",
                         f"{side} {verb}: {err.detail}")
                    try:
                        player.restart()
                    except Exception as restart_err:
                        record.errors.append(GameError("missing", None, f"restart of {names[engine - 1]} failed: {restart_err}"))
                break

            if reply.resigned:
                lose(color, f"{side} resigns", "normal", f"{side} resigns")
                break
            assert reply.move is not None
            record.move_times.setdefault(engine, []).append((reply.elapsed, clocks[color]))
            clocks[color] -= reply.elapsed
            record.min_clock_left[engine] = min(record.min_clock_left[engine], clocks[color])
            if clocks[color] < -tolerance:
                overrun_ms = -clocks[color] * 1000
                record.errors.append(GameError("forfeit", engine, f"move {board.fullmove_number}{'.' if color else '...'}: "
                                               f"overran its clock by {overrun_ms:.1f} ms (took {reply.elapsed * 1000:.1f} ms, "
                                               f"had {(clocks[color] + reply.elapsed) * 1000:.1f} ms; late move {reply.move.uci()}); FEN {board.fen()}"))
                if board.has_insufficient_material(not color):
                    finish("1/2-1/2", f"{side} loses on time, but the opponent cannot mate", "time forfeit",
                           f"{side} flags by {overrun_ms:.1f} ms; drawn: insufficient mating material")
                else:
                    lose(color, f"{side} loses on time", "time forfeit", f"{side} loses on time (overrun {overrun_ms:.1f} ms)")
                break
            clocks[color] += inc

            cp: Optional[int] = None
            if reply.info.get("score") is not None:
                cp = reply.info["score"].pov(color).score(mate_score=100000)
            scores[color].append(cp)
            comments.append(f"{format_score(reply.info, color)} {reply.elapsed:.3f}s")
            board.push(reply.move)

            # Optional adjudication (off by default), as cutechess-cli's -resign and -draw.
            if adjudication.resign_moves > 0:
                last = scores[color][-adjudication.resign_moves:]
                if len(last) == adjudication.resign_moves and all(s is not None and s <= -adjudication.resign_score for s in last):
                    lose(color, f"{side} resigns (adjudication)", "adjudication",
                         f"{side} resigns: score <= -{adjudication.resign_score} cp for {adjudication.resign_moves} moves")
                    break
            if adjudication.draw_moves > 0 and board.fullmove_number > adjudication.draw_movenumber:
                n = adjudication.draw_moves
                last_w, last_b = scores[chess.WHITE][-n:], scores[chess.BLACK][-n:]
                if len(last_w) == n and len(last_b) == n and all(
                        s is not None and abs(s) <= adjudication.draw_score for s in last_w + last_b):
                    finish("1/2-1/2", "draw by adjudication", "adjudication",
                           f"draw: |score| <= {adjudication.draw_score} cp for {n} moves each")
                    break
    except Exception as err:  # the runner's own failure: the game has no result
        record.result = "*"
        record.termination = f"missing result: {type(err).__name__}: {err}"
        record.pgn_termination = "unterminated"
        game_over_comment = record.termination
        if not any(e.kind == "missing" for e in record.errors):
            record.errors.append(GameError("missing", None, f"{type(err).__name__}: {err}\n{traceback.format_exc()}"))

    record.seconds = time.perf_counter() - started
    record.plies = len(board.move_stack) - len(opening.move_stack)

    # An engine that died after the last move (or while the other side thought) is a crash too.
    if record.result != "*":
        for color in (chess.WHITE, chess.BLACK):
            player = players[color]
            if player.engine is not None and not player.alive() and not any(
                    e.engine == engine_of[color] and e.kind in ("crash", "hang") for e in record.errors):
                record.errors.append(GameError("crash", engine_of[color], f"process exited during the game "
                                               f"(code {player._returncode()}), found after the last move"))
                try:
                    player.restart()
                except Exception as restart_err:
                    record.errors.append(GameError("missing", None, f"restart failed: {restart_err}"))

    # PGN
    game = chess.pgn.Game()
    game.setup(opening.root())
    node = game
    all_moves = board.move_stack
    first_played = len(opening.move_stack)
    for ply, move in enumerate(all_moves):
        node = node.add_variation(move)
        if ply >= first_played:
            node.comment = comments[ply - first_played] if ply - first_played < len(comments) else ""
    if game_over_comment:
        if node is game:
            game.comment = game_over_comment
        else:
            node.comment = (node.comment + "; " if node.comment else "") + game_over_comment
    headers = game.headers
    headers["Event"] = event
    headers["Site"] = os.uname().nodename if hasattr(os, "uname") else "?"
    headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
    headers["Round"] = str(number)
    headers["White"] = names[white_engine - 1]
    headers["Black"] = names[2 - white_engine]
    headers["Result"] = record.result
    headers["TimeControl"] = format_tc(base, inc)
    headers["Termination"] = record.pgn_termination
    headers["PlyCount"] = str(len(all_moves))
    headers["Opening"] = f"#{opening_index}" + (f", {first_played} random plies" if first_played else "")
    for engine, text in sorted(record.settings.items()):
        headers[f"Engine{engine}Settings"] = text
    if record.errors:
        headers["Annotator"] = "; ".join(e.describe(names).splitlines()[0] for e in record.errors)[:500]
    record.pgn = str(game)

    # UCI logs of both engines, merged in time order (kept only when needed by the caller)
    merged = [(t, f"[{names[white_engine - 1]} as White] {m}") for t, m in white.take_log()] + \
             [(t, f"[{names[2 - white_engine]} as Black] {m}") for t, m in black.take_log()]
    merged.sort(key=lambda x: x[0])
    base_t = merged[0][0] if merged else 0.0
    record.log = [f"{t - base_t:10.4f} {m}" for t, m in merged]
    return record


# --------------------------------------------------------------------------------------------
# Match
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass
class MatchConfig:
    engine1: EngineSpec
    engine2: EngineSpec
    base: float
    inc: float
    games: int
    concurrency: int = 1
    openings_path: Optional[str] = None
    opening_order: str = "sequential"
    opening_start: int = 1
    random_plies: int = 8
    seed: int = 1
    tolerance: float = 0.0  # seconds a clock may go below zero before it is a forfeit
    hang_timeout: float = 5.0  # seconds past the clock before a silent engine counts as hung
    sprt: Optional[Tuple[float, float]] = None
    alpha: float = 0.05
    beta: float = 0.05
    pgn_path: Optional[str] = None
    log_dir: Optional[str] = None
    save_logs: str = "errors"  # errors | all | none
    adjudication: Adjudication = dataclasses.field(default_factory=Adjudication)
    event: str = "Horizon match"
    # The engines whose errors fail a game (a missing result always does). A reference
    # opponent's own faults, e.g. a time loss on a loaded machine, are reported but not judged.
    judged: Tuple[int, ...] = (1, 2)
    quiet: bool = False  # no header and no per-game lines (errors are still printed)
    pgn_append: bool = False  # append to pgn_path instead of truncating it
    # Early stop besides the SPRT: called with engine 1's (W, D, L) after every finished game;
    # a non-empty string is the reason to stop (games already under way still finish and count).
    stop_rule: Optional[Callable[[int, int, int], Optional[str]]] = None
    # Called with every finished game and engine 1's (W, D, L) so far, e.g. for progress lines.
    on_game: Optional[Callable[["GameRecord", Tuple[int, int, int]], None]] = None


@dataclasses.dataclass
class MatchResult:
    records: List[GameRecord]
    names: Tuple[str, str]
    sprt_decision: Optional[str]
    sprt_decided_at: Optional[int]
    llr: float
    wall_seconds: float
    log_dir: Optional[str]
    players_stats: Dict[int, Dict[str, object]]
    interrupted: bool = False
    early_stop: Optional[str] = None  # the stop_rule's reason, if it stopped the match
    early_stop_at: Optional[int] = None  # games finished when it did
    judged: Tuple[int, ...] = (1, 2)  # MatchConfig.judged

    def wdl(self) -> Tuple[int, int, int]:
        w = d = l = 0
        for r in self.records:
            p = r.engine1_points()
            if p == 1.0:
                w += 1
            elif p == 0.5:
                d += 1
            elif p == 0.0:
                l += 1
        return w, d, l

    def error_counts(self) -> Dict[str, int]:
        counts = {k: 0 for k in ERROR_KINDS}
        for r in self.records:
            for e in r.errors:
                counts[e.kind] += 1
        return counts

    def is_judged(self, error: GameError) -> bool:
        return error.engine is None or error.engine in self.judged

    def judged_errors(self, record: GameRecord) -> List[GameError]:
        return [e for e in record.errors if self.is_judged(e)]

    @property
    def passed(self) -> int:
        return sum(1 for r in self.records if not self.judged_errors(r))

    @property
    def failed(self) -> int:
        return sum(1 for r in self.records if self.judged_errors(r))


class Match:
    def __init__(self, config: MatchConfig, out=sys.stdout):
        self.config = config
        self.out = out
        self.print_lock = threading.Lock()

    def say(self, text: str) -> None:
        with self.print_lock:
            print(text, file=self.out, flush=True)

    def run(self) -> MatchResult:
        cfg = self.config
        install_log_router()
        boards = load_openings(cfg.openings_path) if cfg.openings_path else None
        schedule = OpeningSchedule(boards, cfg.opening_order, cfg.opening_start, cfg.seed, cfg.random_plies)
        # Start every engine pair first, so a broken command fails before any game.
        pairs: List[Tuple[Player, Player]] = []
        try:
            for _ in range(max(1, cfg.concurrency)):
                p1 = Player(cfg.engine1, "engine1")
                p2 = Player(cfg.engine2, "engine2")
                pairs.append((p1, p2))
                p1.start()
                p2.start()
        except BaseException:
            for p1, p2 in pairs:
                p1.kill()
                p2.kill()
            raise
        # The log folder once the engines run (a command that fails leaves none behind).
        log_dir = cfg.log_dir
        temporary_log_dir = cfg.save_logs != "none" and not log_dir
        if temporary_log_dir:
            log_dir = tempfile.mkdtemp(prefix="horizon-match-")
        if log_dir:
            os.makedirs(log_dir, exist_ok=True)
        n1 = cfg.engine1.name or pairs[0][0].id_name
        n2 = cfg.engine2.name or pairs[0][1].id_name
        if n1 == n2:
            n1, n2 = f"{n1} #1", f"{n2} #2"
        names = (n1, n2)

        say_header = (lambda text: None) if cfg.quiet else self.say
        say_header(f"Match: {n1} ({cfg.engine1.describe()}) vs {n2} ({cfg.engine2.describe()})")
        openings_text = (f"{cfg.openings_path} ({cfg.opening_order}"
                         + (f" from #{cfg.opening_start}" if cfg.opening_order == "sequential" else f", seed {cfg.seed}") + ")"
                         if cfg.openings_path else f"{cfg.random_plies} random plies (seed {cfg.seed})")
        say_header(f"Time control {format_tc(cfg.base, cfg.inc)} s, {cfg.games} games, concurrency {cfg.concurrency}, "
                 f"openings {openings_text}, each opening played with both colours")
        if cfg.sprt:
            lo, hi = sprt_bounds(cfg.alpha, cfg.beta)
            say_header(f"SPRT: H0 elo={cfg.sprt[0]:g} H1 elo={cfg.sprt[1]:g} alpha={cfg.alpha:g} beta={cfg.beta:g}, "
                     f"bounds ({lo:.3f}, {hi:.3f})")

        # Game schedule: pair k is games 2k-1 (engine1 White) and 2k (engine1 Black).
        jobs: "queue.Queue[Tuple[int, int, chess.Board, int]]" = queue.Queue()
        for number in range(1, cfg.games + 1):
            if number % 2 == 1:
                opening_index, opening = schedule.next()
            jobs.put((number, opening_index, opening, 1 if number % 2 == 1 else 2))
        results: "queue.Queue[object]" = queue.Queue()
        stop = threading.Event()

        def worker(pair: Tuple[Player, Player]) -> None:
            p1, p2 = pair
            # Set by the main thread once it has counted this worker's last game (and decided
            # whether to stop): a worker takes no new game before that, so an early stop or an
            # SPRT decision leaves only the games other workers have under way, however the
            # threads are scheduled.
            counted = threading.Event()
            try:
                while not stop.is_set():
                    try:
                        number, opening_index, opening, white_engine = jobs.get_nowait()
                    except queue.Empty:
                        return
                    white, black = (p1, p2) if white_engine == 1 else (p2, p1)
                    rec = play_game(number, opening_index, opening, white, black, white_engine, cfg.base, cfg.inc,
                                    cfg.tolerance, cfg.hang_timeout, cfg.adjudication, cfg.event, names, cfg.seed)
                    counted.clear()
                    results.put((rec, counted))
                    while not counted.wait(0.05) and not stop.is_set():
                        pass
            except BaseException as err:  # pragma: no cover - defensive
                results.put(err)
            finally:
                results.put(None)

        started = time.perf_counter()
        threads = [threading.Thread(target=worker, args=(pair,), name=f"match-worker-{i + 1}", daemon=True)
                   for i, pair in enumerate(pairs)]
        for t in threads:
            t.start()

        records: List[GameRecord] = []
        decision: Optional[str] = None
        decided_at: Optional[int] = None
        llr = 0.0
        running = len(threads)
        early_stop: Optional[str] = None
        early_stop_at: Optional[int] = None
        pgn_handle = open(cfg.pgn_path, "a" if cfg.pgn_append else "w", encoding="utf-8") if cfg.pgn_path else None
        interrupted = False
        try:
            while running:
                item = results.get()
                if item is None:
                    running -= 1
                    continue
                if isinstance(item, BaseException):
                    raise item
                rec, counted = item  # the game and its worker's "counted" event
                records.append(rec)
                if pgn_handle:
                    pgn_handle.write(rec.pgn + "\n\n")
                    pgn_handle.flush()
                if log_dir and (cfg.save_logs == "all" or (cfg.save_logs == "errors" and rec.failed)):
                    stem = os.path.join(log_dir, f"game-{rec.number:04d}")
                    with open(stem + ".pgn", "w", encoding="utf-8") as f:
                        f.write(rec.pgn + "\n")
                    with open(stem + ".log", "w", encoding="utf-8") as f:
                        for e in rec.errors:
                            f.write(f"# {e.describe(names)}\n")
                        f.write("\n".join(rec.log) + "\n")
                w, d, l = self._wdl(records)
                line = (f"[{len(records):>{len(str(cfg.games))}}/{cfg.games}] game {rec.number}: "
                        f"{names[rec.white_engine - 1]} - {names[2 - rec.white_engine]} {rec.result} "
                        f"({rec.termination}, {rec.plies} plies, opening #{rec.opening_index}) | "
                        f"{n1} W/D/L {w}/{d}/{l}")
                if cfg.sprt:
                    llr = sprt_llr(w, d, l, *cfg.sprt)
                    line += f" LLR {llr:+.3f}"
                    if decision is None:
                        decision = sprt_decision(llr, cfg.alpha, cfg.beta)
                        if decision is not None:
                            decided_at = len(records)
                            stop.set()
                if cfg.stop_rule is not None and early_stop is None:
                    reason = cfg.stop_rule(w, d, l)
                    if reason:
                        early_stop, early_stop_at = reason, len(records)
                        stop.set()
                        line += f" | stop: {early_stop}"
                if cfg.on_game is not None:
                    cfg.on_game(rec, (w, d, l))
                if not cfg.quiet:
                    self.say(line)
                for e in rec.errors:
                    prefix = f"    game {rec.number} error" if cfg.quiet else "    error"
                    self.say(f"{prefix}: {e.describe(names)}".splitlines()[0])
                counted.set()
        except KeyboardInterrupt:
            interrupted = True
            stop.set()
            self.say("interrupted: stopping the engines")
        finally:
            if pgn_handle:
                pgn_handle.close()
            stop.set()
            if not interrupted:
                for t in threads:
                    t.join()
            stats: Dict[int, Dict[str, object]] = {1: {}, 2: {}}
            for p1, p2 in pairs:
                for idx, p in ((1, p1), (2, p2)):
                    s = stats[idx]
                    s["warnings"] = int(s.get("warnings", 0)) + p.warnings
                    s["stderr_lines"] = int(s.get("stderr_lines", 0)) + p.stderr_lines
                    s["restarts"] = int(s.get("restarts", 0)) + p.restarts
                    s.setdefault("warning_samples", []).extend(p.warning_samples)
                    p.quit()
        if cfg.sprt:
            w, d, l = self._wdl(records)
            llr = sprt_llr(w, d, l, *cfg.sprt)
        if temporary_log_dir and not os.listdir(log_dir):
            # No game saved a log: leave no empty folder behind.
            os.rmdir(log_dir)
            log_dir = None
        return MatchResult(records, names, decision, decided_at, llr, time.perf_counter() - started,
                           log_dir, stats, interrupted, early_stop or None, early_stop_at, cfg.judged)

    @staticmethod
    def _wdl(records: Sequence[GameRecord]) -> Tuple[int, int, int]:
        return MatchResult(list(records), ("", ""), None, None, 0.0, 0.0, None, {}).wdl()


def format_elo(x: float) -> str:
    x += 0.0  # no "-0.0"
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.1f}"


def time_use_text(times: Sequence[Tuple[float, float]]) -> str:
    """How an engine used its clock: the distribution of the time per move and of the share of
    the clock left that one move took."""
    def quantile(values: List[float], q: float) -> float:
        return values[min(len(values) - 1, int(q * len(values)))]
    spent = sorted(t for t, _ in times)
    shares = sorted(t / left for t, left in times if left > 0)
    ms = lambda x: f"{x * 1000:.0f}"  # noqa: E731
    text = (f"time per move over {len(spent)} moves (ms): median {ms(quantile(spent, 0.5))}, "
            f"90% {ms(quantile(spent, 0.9))}, 99% {ms(quantile(spent, 0.99))}, max {ms(spent[-1])}")
    if shares:
        text += (f"; share of the clock left: median {100 * quantile(shares, 0.5):.1f}%, "
                 f"99% {100 * quantile(shares, 0.99):.1f}%, max {100 * shares[-1]:.1f}%")
    return text


def summary_lines(cfg: MatchConfig, res: MatchResult) -> List[str]:
    n1, n2 = res.names
    w, d, l = res.wdl()
    est = elo_estimate(w, d, l)
    counts = res.error_counts()
    missing = sum(1 for r in res.records if r.result == "*")
    scored = w + d + l
    lines = ["", "== Match summary =="]
    lines.append(f"Engine 1       : {n1} ({cfg.engine1.describe()})")
    lines.append(f"Engine 2       : {n2} ({cfg.engine2.describe()})")
    lines.append(f"Time control   : {format_tc(cfg.base, cfg.inc)} s, clock tolerance {cfg.tolerance * 1000:.0f} ms, "
                 f"hang time-out {cfg.hang_timeout:g} s past the clock")
    lines.append(f"Games          : {len(res.records)} played of {cfg.games}, {scored} scored, {missing} without result"
                 + (" (interrupted)" if res.interrupted else ""))
    if scored:
        lines.append(f"Result         : {n1} W/D/L {w}/{d}/{l}, {w + d / 2:g}/{scored} = {100 * est.score:.1f}%, "
                     f"draw ratio {100 * d / scored:.1f}%")
        lines.append(f"Elo            : {format_elo(est.elo)} +/- {est.margin:.1f} (95% CI {format_elo(est.lower)} .. "
                     f"{format_elo(est.upper)}), LOS {100 * est.los:.1f}%  [{n1} vs {n2}]")
    else:
        lines.append("Result         : no scored games")
    if cfg.sprt:
        lo, hi = sprt_bounds(cfg.alpha, cfg.beta)
        verdict = (f"{res.sprt_decision} accepted after {res.sprt_decided_at} games" if res.sprt_decision
                   else "no decision (continue)")
        lines.append(f"SPRT           : elo0={cfg.sprt[0]:g} elo1={cfg.sprt[1]:g} LLR {res.llr:+.3f} "
                     f"bounds ({lo:.3f}, {hi:.3f}): {verdict}")
    if res.early_stop:
        lines.append(f"Early stop     : {res.early_stop} (after {res.early_stop_at} games)")
    lines.append(f"Errors         : illegal moves {counts['illegal']}, time forfeits {counts['forfeit']}, "
                 f"crashes/hangs {counts['crash'] + counts['hang']} (crashes {counts['crash']}, hangs {counts['hang']}), "
                 f"missing results {counts['missing']}")
    for idx, name in ((1, n1), (2, n2)):
        per = {k: 0 for k in ERROR_KINDS}
        for r in res.records:
            for e in r.errors:
                if e.engine == idx:
                    per[e.kind] += 1
        lefts = [r.min_clock_left[idx] for r in res.records if idx in r.min_clock_left]
        min_left = f"{min(lefts) * 1000:.0f} ms" if lefts else "-"
        st = res.players_stats.get(idx, {})
        lines.append(f"  {name:<13}: illegal {per['illegal']}, forfeits {per['forfeit']}, crashes {per['crash']}, "
                     f"hangs {per['hang']}, restarts {st.get('restarts', 0)}, least clock left {min_left}, "
                     f"protocol warnings {st.get('warnings', 0)}, stderr lines {st.get('stderr_lines', 0)}")
        for sample in list(st.get("warning_samples", []))[:3]:
            lines.append(f"      warning: {sample[:200]}")
        times = [t for r in res.records for t in r.move_times.get(idx, [])]
        if times:
            lines.append("      " + time_use_text(times))
    terms: Dict[str, int] = {}
    for r in res.records:
        key = r.termination.split(":")[0]
        terms[key] = terms.get(key, 0) + 1
    lines.append("Terminations   : " + (", ".join(f"{k} {v}" for k, v in sorted(terms.items(), key=lambda kv: -kv[1])) or "-"))
    if res.records:
        plies = [r.plies for r in res.records]
        lines.append(f"Game length    : mean {statistics.mean(plies):.0f} plies, max {max(plies)}")
    errors = [(r.number, e) for r in sorted(res.records, key=lambda r: r.number) for e in r.errors]
    for judged, title in ((True, "Failed games   :"),
                          (False, f"Not judged     : the opponent's own faults (only {res.names[res.judged[0] - 1]} is judged)")):
        listed = [(n, e) for n, e in errors if res.is_judged(e) == judged]
        if listed:
            lines.append(title)
            lines.extend(f"  game {n}: {e.describe(res.names).splitlines()[0]}" for n, e in listed)
    if errors and res.log_dir and cfg.save_logs != "none":
        lines.append(f"  PGN and UCI logs of these games: {res.log_dir}/game-NNNN.pgn|.log")
    if cfg.pgn_path:
        lines.append(f"PGN            : {cfg.pgn_path}")
    minutes, seconds = divmod(res.wall_seconds, 60)
    lines.append(f"Wall time      : {int(minutes)}m{seconds:04.1f}s")
    lines.append(f"{res.passed} passed, {res.failed} failed")
    return lines


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description="Play paired games between two engines (UCI or XBoard, through python-chess) and report "
                    "W/D/L, Elo, SPRT and every illegal move, time forfeit, crash, hang or missing result.",
        epilog="Example: match.py --engine1 target/release/horizon --engine2 /usr/games/stockfish "
               "--option2 Threads=1 --option2 Hash=16 --tc 2+0.05 --games 20 "
               "--openings ../shared/openings/noob-3moves-sample.epd")
    p.add_argument("--engine1", required=True, help="command of engine 1 (the one the W/D/L and Elo are for); "
                   "a prefix xboard: or uci: sets the protocol")
    p.add_argument("--engine2", required=True, help="command of engine 2")
    p.add_argument("--proto1", choices=PROTOCOLS, help="protocol of engine 1 (default uci, or the command's prefix)")
    p.add_argument("--proto2", choices=PROTOCOLS, help="protocol of engine 2")
    p.add_argument("--option1", action="append", default=[], metavar="NAME=VALUE",
                   help="option of engine 1 (repeatable): a UCI option, or for XBoard engines memory=MB, "
                        "cores=N or an option the engine declares with 'feature option='")
    p.add_argument("--option2", action="append", default=[], metavar="NAME=VALUE", help="option of engine 2 (repeatable)")
    p.add_argument("--vary1", action="append", default=[], metavar="NAME=V1,V2,...",
                   help="soak: before each game set this option of engine 1 to one of the values (seeded per game; "
                        "repeatable)")
    p.add_argument("--vary2", action="append", default=[], metavar="NAME=V1,V2,...", help="the same for engine 2")
    p.add_argument("--ponder1", action="store_true", help="engine 1 ponders (go ponder, ponderhit, stop); UCI only")
    p.add_argument("--ponder2", action="store_true", help="engine 2 ponders")
    p.add_argument("--skip-newgame1", type=float, default=0.0, metavar="P",
                   help="soak: leave out engine 1's ucinewgame in this share of games (0..1)")
    p.add_argument("--skip-newgame2", type=float, default=0.0, metavar="P", help="the same for engine 2")
    p.add_argument("--name1", help="name of engine 1 in output and PGN (default: its 'id name')")
    p.add_argument("--name2", help="name of engine 2")
    p.add_argument("--tc", default="2+0.05", help="time control SECONDS[+INCREMENT] per game, default 2+0.05")
    p.add_argument("--games", type=int, default=20, help="number of games (max with --sprt); default 20")
    p.add_argument("--concurrency", type=int, default=1, help="games played at once, default 1")
    p.add_argument("--openings", help="EPD/FEN file, one position a line (default: random-ply openings)")
    p.add_argument("--opening-order", choices=("sequential", "random"), default="sequential")
    p.add_argument("--opening-start", type=int, default=1, help="1-based line to start from (sequential)")
    p.add_argument("--random-plies", type=int, default=8, help="plies of random openings without --openings, default 8")
    p.add_argument("--seed", type=int, default=1, help="seed for random opening order / random openings, default 1")
    p.add_argument("--tolerance-ms", type=float, default=0.0,
                   help="how far a clock may go below zero before it is a time forfeit; default 0 (strict)")
    p.add_argument("--hang-timeout", type=float, default=5.0,
                   help="seconds past the end of its clock after which a silent engine counts as hung, "
                        "is killed and restarted; default 5")
    p.add_argument("--sprt", metavar="ELO0,ELO1", help="stop when the SPRT accepts H0 (elo=ELO0) or H1 (elo=ELO1)")
    p.add_argument("--alpha", type=float, default=0.05, help="SPRT alpha, default 0.05")
    p.add_argument("--beta", type=float, default=0.05, help="SPRT beta, default 0.05")
    p.add_argument("--resign-moves", type=int, default=0, help="adjudicate a loss after this many consecutive moves "
                   "with the mover's score <= -RESIGN_SCORE; 0 (default) = off")
    p.add_argument("--resign-score", type=int, default=1000, help="centipawns, default 1000")
    p.add_argument("--draw-moves", type=int, default=0, help="adjudicate a draw when both sides' last N scores are "
                   "within +-DRAW_SCORE after move DRAW_MOVENUMBER; 0 (default) = off")
    p.add_argument("--draw-score", type=int, default=10, help="centipawns, default 10")
    p.add_argument("--draw-movenumber", type=int, default=40, help="default 40")
    p.add_argument("--pgn", help="write every game to this PGN file")
    p.add_argument("--log-dir", help="directory for PGN + UCI log of failed games (default: a new temporary directory)")
    p.add_argument("--save-logs", choices=("errors", "all", "none"), default="errors",
                   help="which games get a PGN + UCI log in --log-dir; default errors")
    p.add_argument("--debug-log", help="also write python-chess's whole UCI log (all engines) to this file")
    p.add_argument("--event", default="Horizon match", help="PGN Event tag")
    p.add_argument("--fail-on-errors", action=argparse.BooleanOptionalAction, default=True,
                   help="exit 1 if any illegal move, time forfeit, crash, hang or missing result happened (default on)")
    p.add_argument("--judge", choices=("both", "1", "2"), default="both",
                   help="whose errors fail a game: both engines (default) or only engine 1 or 2; the other's "
                        "faults (e.g. a reference engine's time loss on a loaded machine) are reported, not judged")
    return p


def config_from_args(args: argparse.Namespace) -> MatchConfig:
    base, inc = parse_tc(args.tc)
    if args.games < 1:
        raise ValueError("--games must be at least 1")
    if args.concurrency < 1:
        raise ValueError("--concurrency must be at least 1")
    sprt = None
    if args.sprt:
        try:
            e0, e1 = (float(x) for x in args.sprt.split(","))
        except ValueError:
            raise ValueError(f"bad --sprt {args.sprt!r}: expected ELO0,ELO1, e.g. 0,5") from None
        if not e0 < e1:
            raise ValueError("--sprt needs ELO0 < ELO1")
        sprt = (e0, e1)
    proto1, command1 = split_protocol(args.engine1, args.proto1)
    proto2, command2 = split_protocol(args.engine2, args.proto2)
    for share in (args.skip_newgame1, args.skip_newgame2):
        if not 0.0 <= share <= 1.0:
            raise ValueError("--skip-newgame1/2 takes a share from 0 to 1")
    return MatchConfig(
        engine1=EngineSpec(command1, [parse_option(o) for o in args.option1], args.name1, proto1,
                           [parse_vary(v) for v in args.vary1], args.ponder1, args.skip_newgame1),
        engine2=EngineSpec(command2, [parse_option(o) for o in args.option2], args.name2, proto2,
                           [parse_vary(v) for v in args.vary2], args.ponder2, args.skip_newgame2),
        base=base, inc=inc, games=args.games, concurrency=args.concurrency,
        openings_path=args.openings, opening_order=args.opening_order, opening_start=args.opening_start,
        random_plies=args.random_plies, seed=args.seed, tolerance=args.tolerance_ms / 1000.0,
        hang_timeout=args.hang_timeout, sprt=sprt, alpha=args.alpha, beta=args.beta, pgn_path=args.pgn,
        log_dir=args.log_dir, save_logs=args.save_logs,
        adjudication=Adjudication(args.resign_moves, args.resign_score, args.draw_moves, args.draw_score,
                                  args.draw_movenumber),
        event=args.event, judged=(1, 2) if args.judge == "both" else (int(args.judge),))


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        cfg = config_from_args(args)
    except ValueError as err:
        print(f"match.py: {err}", file=sys.stderr)
        return 2
    install_log_router(args.debug_log)
    try:
        result = Match(cfg).run()
    except (OSError, ValueError, chess.engine.EngineError, asyncio.TimeoutError, concurrent.futures.TimeoutError) as err:
        print(f"match.py: cannot run the match: {type(err).__name__}: {err}", file=sys.stderr)
        print("0 passed, 1 failed")
        return 2
    for line in summary_lines(cfg, result):
        print(line, flush=True)
    if args.fail_on_errors and (result.failed or result.interrupted):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
