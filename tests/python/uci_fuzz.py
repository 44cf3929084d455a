#!/usr/bin/env python3
"""UCI fuzzer: rounds of random and mutated input to a UCI engine, each followed by checks.

Each round writes a burst of commands: the UCI vocabulary in random order and arity, mutated
FENs (missing or extra kings, pawns on the back rank, the side to move giving check, bad
castling and en-passant fields, absurd counters), illegal or malformed moves after `moves`,
huge, negative and non-numeric values in every `go` and `setoption` field, bytes that are not
UTF-8, very long lines, and `go`/`stop`/`ponderhit`/`ucinewgame`/`setoption`/`isready` races
with a running search. After every line it sends `d` to learn the position the engine holds.
After the burst it sends `stop` and `isready`, then checks:

- `readyok` arrives within a second (the engine is alive and responsive);
- every `bestmove` is legal in one of the positions the round's `go` commands searched;
- at the end, `quit` makes the process exit cleanly (status 0) within a few seconds.

A failing round's input is written to FAILURES_DIR (one file per round, the exact bytes), and
`--replay FILE` plays such a file again: the regression tests (`tests/uci_fuzz.rs`) replay
every file in `tests/fuzz-regressions/`.

    python3 tests/python/uci_fuzz.py HORIZON [--seconds S | --minutes M] [--seed N]
    python3 tests/python/uci_fuzz.py HORIZON --replay FILE

Exit status 0 when no round failed. Needs python-chess.
"""

import argparse
import os
import queue
import random
import subprocess
import sys
import threading
import time

import chess

BASE_FENS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/8/8/4k3/8/8/8/KQ6 w - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate
    "6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1",  # checkmate
    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2",
]

GO_FIELDS = ["wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime"]
WORDS = ["uci", "isready", "ucinewgame", "stop", "ponderhit", "d", "eval", "debug", "register",
         "position", "go", "setoption", "name", "value", "fen", "startpos", "moves", "infinite",
         "ponder", "searchmoves", "perft", "later", "on", "off", "xyzzy", "", "0000"]


def absurd_number(rng):
    return rng.choice([
        "0", "1", "-1", "-0", "007", "3.5", "1e9", "NaN", "", "+5", "99999999999999999999",
        "-99999999999999999999", "18446744073709551615", "18446744073709551616",
        "9223372036854775807", "-9223372036854775808", "2147483648", "4294967296",
        str(rng.randint(0, 50)), str(rng.randint(0, 5000)), str(-rng.randint(1, 10**6)), "abc",
    ])


def mutate_fen(fen, rng):
    fields = fen.split()
    kind = rng.randrange(14)
    board = fields[0]
    if kind == 0:  # remove a king
        board = board.replace(rng.choice("Kk"), "1", 1)
    elif kind == 1:  # add a king on a random rank
        ranks = board.split("/")
        i = rng.randrange(8)
        ranks[i] = "K" + ranks[i][1:] if ranks[i] else "K7"
        board = "/".join(ranks)
    elif kind == 2:  # pawn on a back rank
        ranks = board.split("/")
        ranks[rng.choice([0, 7])] = "P7"
        board = "/".join(ranks)
    elif kind == 3:  # the other side to move
        fields[1] = "b" if fields[1] == "w" else "w"
    elif kind == 4:
        fields[2] = rng.choice(["KQkqX", "KQkqKQkq", "-K", "Qk-", "AHah", "ZZ", "KQkq"])
    elif kind == 5:
        fields[3] = rng.choice(["e9", "a3", "h6", "e4", "z1", "-", "e3e6", "ee"])
    elif kind == 6:
        fields[4] = absurd_number(rng)
    elif kind == 7:
        fields[5] = absurd_number(rng)
    elif kind == 8:  # truncate
        fields = fields[: rng.randrange(1, len(fields))]
    elif kind == 9:  # extra fields
        fields += ["extra", absurd_number(rng)]
    elif kind == 10:  # nine squares in a rank
        ranks = board.split("/")
        ranks[rng.randrange(8)] += "1"
        board = "/".join(ranks)
    elif kind == 11:  # a random character replaced
        i = rng.randrange(len(board))
        board = board[:i] + rng.choice("xX9/0pPkK?") + board[i + 1:]
    elif kind == 12:  # too few or too many ranks
        board = "/".join(board.split("/")[: rng.randrange(1, 9)] * rng.choice([1, 2]))
    # kind 13: unchanged
    fields[0] = board
    return " ".join(fields)


def random_moves(fen, rng):
    """Moves after `moves`: a legal playout with garbage mixed in."""
    try:
        board = chess.Board(fen)
        valid = board.is_valid()
    except ValueError:
        valid = False
    moves = []
    for _ in range(rng.randrange(0, 12)):
        if valid and rng.random() < 0.8:
            legal = list(board.legal_moves)
            if not legal:
                break
            m = rng.choice(legal)
            moves.append(m.uci())
            board.push(m)
        else:
            moves.append(rng.choice(["e2e5", "zz", "0000", "e7e8q", "a1a1", "e1g1", "e2e4e4",
                                     "h7h8k", "", "E2E4", "e2-e4", "Nf3"]))
    return moves


def position_command(rng):
    if rng.random() < 0.2:
        base = "startpos"
        fen = chess.STARTING_FEN
    else:
        fen = rng.choice(BASE_FENS)
        if rng.random() < 0.5:
            fen = mutate_fen(fen, rng)
        base = "fen " + fen
    words = ["position", base]
    if rng.random() < 0.7:
        words += ["moves"] + random_moves(fen, rng)
    return " ".join(words)


def go_command(rng):
    words = ["go"]
    for _ in range(rng.randrange(0, 4)):
        field = rng.choice(GO_FIELDS + ["infinite", "ponder", "searchmoves", "perft"])
        words.append(field)
        if field in GO_FIELDS or field == "perft":
            value = absurd_number(rng)
            # Keep searches short: a huge depth, node or time budget is stopped anyway, but
            # perft runs to its end on the protocol thread.
            if field == "perft":
                value = str(rng.randint(-2, 3))
            words.append(value)
        elif field == "searchmoves":
            words += rng.sample(["e2e4", "d2d4", "g1f3", "a7a5", "zz", "0000", "e1g1"], 2)
    return " ".join(words)


def setoption_command(rng, options):
    name = rng.choice(options + ["NoSuchOption", "", "hash", "HASH", "Threads Threads"])
    value = absurd_number(rng) if rng.random() < 0.6 else rng.choice(
        ["true", "false", "TRUE", "<empty>", "", "pvs", "bucket", "dynamic", "gravity", "x" * 300])
    # Memory and threads within what a 2-core test machine can take (their limits are
    # tested by the resource-bound tests, not here).
    if name.lower() == "hash" and value.lstrip("-").isdigit() and 256 < int(value) <= 65536:
        value = "256"
    if name.lower() == "threads" and value.lstrip("-").isdigit() and 8 < int(value) <= 256:
        value = "8"
    if name.lower() == "syzygypath":
        value = rng.choice(["/nonexistent", "", "<empty>", "/tmp", "../shared/syzygy"])
    words = ["setoption"]
    if rng.random() < 0.9:
        words.append("name")
    words.append(name)
    if rng.random() < 0.8:
        words += ["value", value]
    return " ".join(words)


def junk_line(rng):
    kind = rng.randrange(5)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
    if kind == 1:
        return ("go " * rng.randrange(1, 20000)).encode()
    if kind == 2:
        return b"position fen " + b"8/" * rng.randrange(1, 50000)
    if kind == 3:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 12))).encode()
    return "\u00e9\u00fc\u2603 go depth 2 \udcff".encode("utf-8", "surrogateescape")


def round_commands(rng, options):
    """One burst of command lines (bytes)."""
    commands = []
    for _ in range(rng.randrange(5, 30)):
        r = rng.random()
        if r < 0.25:
            commands.append(position_command(rng).encode())
        elif r < 0.45:
            commands.append(go_command(rng).encode())
        elif r < 0.6:
            commands.append(setoption_command(rng, options).encode())
        elif r < 0.75:
            commands.append(rng.choice([b"stop", b"ponderhit", b"ucinewgame", b"isready",
                                        b"isready\nisready\nisready", b"uci", b"eval"]))
        elif r < 0.85:
            commands.append(junk_line(rng))
        else:
            commands.append(" ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 8))).encode())
    return commands


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.lines = queue.Queue()
        # The positions the previous round searched.
        self.last_fens = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def send(self, data):
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix, timeout, seen):
        """Collects lines into `seen` until one starts with `prefix`; False on timeout."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return False
            if line is None:
                return False
            seen.append(line)
            if line.startswith(prefix):
                return True


def legal_in_any(move, fens):
    """Whether `move` (UCI, either castling notation) is legal in one of `fens`."""
    for fen in fens:
        for chess960 in (False, True):
            try:
                board = chess.Board(fen, chess960=chess960)
            except ValueError:
                continue
            if move == "(none)":
                if not any(board.legal_moves):
                    return True
                continue
            try:
                board.parse_uci(move)
                return True
            except ValueError:
                continue
    return False


def check_round(engine, commands):
    """Sends one burst and checks the engine; returns None or what went wrong."""
    seen = []
    try:
        # `d` after every line records each position the engine held: junk can hide a `go`
        # (the spec has unknown leading tokens skipped, so `xyzzy go` searches).
        for data in commands:
            engine.send(data)
            engine.send(b"d")
        engine.send(b"stop")
        sent = time.monotonic()
        engine.send(b"isready")
    except (BrokenPipeError, OSError) as e:
        return f"the engine stopped reading: {e}"
    # Wait for readyok: the stream before it holds every Fen line and most bestmoves.
    # A `go perft 3` may still be running on the protocol thread, so allow for it.
    if not engine.wait_for("readyok", 20.0, seen):
        return "no readyok (hang or crash)"
    if time.monotonic() - sent > 1.0 and not any(c.startswith(b"go") and b"perft" in c for c in commands):
        return f"readyok took {time.monotonic() - sent:.2f} s"
    # The bestmove of the stopped search may follow readyok: read until the engine is quiet.
    quiet_since = time.monotonic()
    while time.monotonic() - quiet_since < 0.2:
        try:
            line = engine.lines.get(timeout=0.05)
        except queue.Empty:
            continue
        if line is None:
            return "the engine exited"
        seen.append(line)
        quiet_since = time.monotonic()
    fens = [line[5:] for line in seen if line.startswith("Fen: ")]
    # A search of the previous round may end in this one.
    fens, engine.last_fens = engine.last_fens + fens, fens
    for line in seen:
        if line.startswith("bestmove"):
            words = line.split()
            if len(words) < 2:
                return f"malformed: {line}"
            if not legal_in_any(words[1], fens):
                return f"illegal {line} (positions searched: {fens})"
    if engine.proc.poll() is not None:
        return f"the engine exited with status {engine.proc.returncode}"
    return None


def uci_options(engine):
    seen = []
    engine.send(b"uci")
    engine.wait_for("uciok", 5, seen)
    options = []
    for line in seen:
        if line.startswith("option name "):
            options.append(line[len("option name "):].split(" type ")[0])
    return options


def save_failure(directory, seed, number, commands, reason):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"round-{seed}-{number}.txt")
    with open(path, "wb") as f:
        for data in commands:
            f.write(data + b"\n")
    print(f"round {number}: FAIL: {reason}; input saved to {path}", flush=True)


def quit_cleanly(engine):
    try:
        engine.send(b"quit")
        engine.proc.stdin.close()
    except (BrokenPipeError, OSError):
        pass
    try:
        status = engine.proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        engine.proc.kill()
        return "quit did not end the process within 5 s"
    return None if status == 0 else f"exit status {status} after quit"


def replay(path, binary):
    with open(path, "rb") as f:
        commands = f.read().split(b"\n")
    if commands and commands[-1] == b"":
        commands.pop()
    engine = Engine(binary)
    reason = check_round(engine, commands) or quit_cleanly(engine)
    print(f"{path}: {'ok' if reason is None else 'FAIL: ' + reason}")
    return 0 if reason is None else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--minutes", type=float)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--failures", default="uci-fuzz-failures")
    parser.add_argument("--replay")
    args = parser.parse_args()
    if args.replay:
        return replay(args.replay, args.engine)
    budget = args.minutes * 60 if args.minutes else args.seconds
    rng = random.Random(args.seed)
    engine = Engine(args.engine)
    options = uci_options(engine)
    started = time.monotonic()
    rounds = failures = restarts = 0
    while time.monotonic() - started < budget:
        rounds += 1
        commands = round_commands(rng, options)
        reason = check_round(engine, commands)
        if reason is not None:
            failures += 1
            save_failure(args.failures, args.seed, rounds, commands, reason)
            engine.proc.kill()
            engine = Engine(args.engine)
            restarts += 1
    reason = quit_cleanly(engine)
    if reason is not None:
        failures += 1
        print(f"quit: FAIL: {reason}")
    print(f"seed {args.seed}: {rounds} rounds in {time.monotonic() - started:.0f} s, "
          f"{failures} failures")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
