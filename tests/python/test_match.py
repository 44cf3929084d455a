"""Unit tests of match.py: the statistics and parsing by hand-computed values, and the error
detection end to end with a tiny fake UCI engine (written to a temporary directory) that plays
random legal moves and misbehaves on request. Run: python3 -m pytest tests/python -q"""

import math
import os
import random
import sys
import textwrap

import chess
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match  # noqa: E402

Z975 = 1.959963984540054  # the 97.5 % quantile of the standard normal distribution


# ------------------------------------------------------------------------------------- Elo


def test_score_elo_round_trip():
    assert match.score_to_elo(0.5) == 0.0
    # 3 points of 4: -400 * log10(1 / 0.75 - 1) = 400 * log10(3) = 190.8485
    assert match.score_to_elo(0.75) == pytest.approx(190.848502, abs=1e-5)
    assert match.elo_to_score(190.848502) == pytest.approx(0.75, abs=1e-8)
    assert match.score_to_elo(1.0) == math.inf
    assert match.score_to_elo(0.0) == -math.inf


def test_elo_even_match_interval():
    # W/D/L 30/40/30: s = 0.5, per-game variance (30*0.25 + 40*0 + 30*0.25)/100 = 0.15,
    # sd of the mean sqrt(0.15/100) = 0.0387298; s + 1.96*sd = 0.5759090 -> +53.158 Elo.
    est = match.elo_estimate(30, 40, 30)
    assert est.games == 100
    assert est.score == 0.5
    assert est.elo == 0.0
    assert est.upper == pytest.approx(53.157980, abs=1e-4)
    assert est.lower == pytest.approx(-53.157980, abs=1e-4)
    assert est.margin == pytest.approx(53.157980, abs=1e-4)
    assert est.los == 0.5


def test_elo_lopsided_interval():
    # W/D/L 60/20/20: s = 0.7 -> 400*log10(7/3) = 147.1907 Elo; variance
    # 0.6*0.3^2 + 0.2*0.2^2 + 0.2*0.7^2 = 0.16, sd = 0.04, s +- 1.96*0.04 = 0.7784 / 0.6216
    # -> +218.2518 / +86.2250 Elo; margin = (218.2518 - 86.2250)/2 = 66.0134 (asymmetric interval).
    est = match.elo_estimate(60, 20, 20)
    assert est.elo == pytest.approx(147.190714, abs=1e-4)
    assert est.upper == pytest.approx(218.251778, abs=1e-3)
    assert est.lower == pytest.approx(86.225015, abs=1e-3)
    assert est.margin == pytest.approx((218.251778 - 86.225015) / 2, abs=1e-3)
    # LOS = Phi((W - L) / sqrt(W + L)) = Phi(40 / sqrt(80)) = Phi(4.4721) ~ 0.999996
    assert est.los == pytest.approx(0.5 * (1 + math.erf(40 / math.sqrt(160))), abs=1e-12)
    assert est.los > 0.99999


def test_elo_is_antisymmetric():
    a = match.elo_estimate(7, 11, 3)
    b = match.elo_estimate(3, 11, 7)
    assert a.elo == pytest.approx(-b.elo)
    assert a.upper == pytest.approx(-b.lower)
    assert a.los == pytest.approx(1 - b.los)


def test_elo_degenerate_records():
    est = match.elo_estimate(5, 0, 0)
    assert est.elo == math.inf and est.score == 1.0
    empty = match.elo_estimate(0, 0, 0)
    assert empty.games == 0 and math.isnan(empty.margin)
    draws = match.elo_estimate(0, 10, 0)
    assert draws.elo == 0.0 and draws.margin == 0.0
    assert match.los(0, 0) == 0.5
    # LOS with 10 wins and no loss: Phi(10 / sqrt(10)) = 0.5 * (1 + erf(sqrt(5))) = 0.999217
    assert match.los(10, 0) == pytest.approx(0.9992173, abs=1e-6)


# ------------------------------------------------------------------------------------ SPRT


def test_sprt_bounds():
    lower, upper = match.sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95))  # -2.944439
    assert upper == pytest.approx(math.log(0.95 / 0.05))  # +2.944439
    assert upper == pytest.approx(2.944439, abs=1e-6)


def test_sprt_llr_hand_computed_strong_result():
    # W/D/L 60/20/20, H0 elo 0, H1 elo 10: s0 = 0.5, s1 = 1/(1+10^(-10/400)) = 0.5143872,
    # s = 0.7, var = 0.16, LLR = 100 * 0.0143872 * (1.4 - 1.0143872) / (2*0.16) = 1.733713.
    assert match.sprt_llr(60, 20, 20, 0, 10) == pytest.approx(1.733713, abs=1e-5)
    assert match.sprt_decision(1.733713) is None


def test_sprt_llr_hand_computed_even_result():
    # W/D/L 100/200/100, H0 0, H1 5: s = 0.5, var = 0.25*0.25*2 = 0.125, s1 = 0.5071951,
    # LLR = 400 * 0.0071951 * (1 - 1.0071951) / 0.25 = -0.082831.
    assert match.sprt_llr(100, 200, 100, 0, 5) == pytest.approx(-0.082831, abs=1e-5)


def test_sprt_llr_large_sample():
    # W/D/L 4307/8620/4063, [0, 3]: s = 0.5071807, var = 0.1231091, s1 = 0.5043172,
    # LLR = 16990 * 0.0043172 * (2*0.5071807 - 1.0043172) / (2*0.1231091) = 2.992213.
    # (The BayesElo trinomial model gives 2.47 for these counts: a different Elo scale.)
    llr = match.sprt_llr(4307, 8620, 4063, 0, 3)
    assert llr == pytest.approx(2.992213, abs=1e-4)
    assert match.sprt_decision(llr) == "H1"


def test_sprt_regularises_empty_cells():
    # 10 wins only: the zero cells count 0.5 (l, d, w = 0.5, 0.5, 10 of n = 11, s = 21/22,
    # var = 0.0413..): LLR = 0.6497 for [0, 5], far from a decision.
    assert match.sprt_llr(10, 0, 0, 0, 5) == pytest.approx(0.649651, abs=1e-5)
    # One win must not decide anything (it did with Fishtest's 1e-3: LLR +5.7).
    assert match.sprt_decision(match.sprt_llr(1, 0, 0, 0, 10)) is None
    assert math.isfinite(match.sprt_llr(0, 10, 0, 0, 5))
    assert match.sprt_llr(0, 10, 0, 0, 5) < 0  # all draws: evidence for "no gain" against +5
    assert match.sprt_llr(0, 0, 0, 0, 5) == 0.0


def test_sprt_decisions():
    assert match.sprt_decision(2.95) == "H1"
    assert match.sprt_decision(-2.95) == "H0"
    assert match.sprt_decision(0.0) is None
    assert match.sprt_decision(2.9444) is None  # just below log(19) = 2.9444390
    # losing streak against H1 = +5: H0 accepted
    assert match.sprt_decision(match.sprt_llr(0, 20, 60, 0, 5)) == "H0"
    # symmetry: swapping wins and losses and negating the hypotheses negates the LLR
    assert match.sprt_llr(30, 50, 20, 0, 10) == pytest.approx(-match.sprt_llr(20, 50, 30, -10, 0))


# --------------------------------------------------------------------------------- parsing


def test_parse_tc():
    assert match.parse_tc("2+0.05") == (2.0, 0.05)
    assert match.parse_tc("10") == (10.0, 0.0)
    assert match.parse_tc("1:30+1") == (90.0, 1.0)
    for bad in ("", "abc", "0+1", "2+-1", "+1"):
        with pytest.raises(ValueError):
            match.parse_tc(bad)
    assert match.format_tc(2.0, 0.05) == "2+0.05"
    assert match.format_tc(10.0, 0.0) == "10"
    assert match.format_tc(1.0, 0.02) == "1+0.02"


def test_parse_option():
    assert match.parse_option("Hash=16") == ("Hash", "16")
    assert match.parse_option("Skill Level=5") == ("Skill Level", "5")
    assert match.parse_option("SyzygyPath=/a=b") == ("SyzygyPath", "/a=b")
    with pytest.raises(ValueError):
        match.parse_option("Hash")


def test_parse_opening_lines():
    fen = "rnbqkb1r/p2ppppp/1pp2n2/8/8/3P3P/PPPBPPP1/RN1QKBNR w KQkq - 0 4"
    assert match.parse_opening_line(fen).fen() == fen
    epd = match.parse_opening_line("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";")
    assert epd.turn == chess.BLACK and epd.piece_at(chess.E4) == chess.Piece(chess.PAWN, chess.WHITE)
    ops = match.parse_opening_line("8/8/8/8/8/5k2/8/4K2R w K - hmvc 7; fmvn 40;")
    assert ops.halfmove_clock == 7 and ops.fullmove_number == 40
    assert match.parse_opening_line("") is None
    assert match.parse_opening_line("# comment") is None
    with pytest.raises(ValueError):
        match.parse_opening_line("8/8/8/8/8/8/8/8 w - -")  # no kings
    with pytest.raises(ValueError):
        match.parse_opening_line("7k/5QQ1/8/8/8/8/8/K7 b - -")  # mated already


def test_shared_opening_files_parse():
    here = os.path.dirname(os.path.abspath(__file__))
    folder = os.path.normpath(os.path.join(here, "..", "..", "..", "shared", "openings"))
    if not os.path.isdir(folder):
        if os.environ.get("CI"):
            pytest.fail(f"{folder} is missing")
        pytest.skip(f"{folder} is missing")
    for name in ("noob-3moves-sample.epd", "uho-4060-v3-sample.epd"):
        boards = match.load_openings(os.path.join(folder, name))
        assert len(boards) >= 1000


def test_opening_schedule(tmp_path):
    path = tmp_path / "o.epd"
    path.write_text("\n".join([
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -",
        "",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -",
        "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq -",
    ]) + "\n")
    boards = match.load_openings(str(path))
    seq = match.OpeningSchedule(boards, "sequential", start=2)
    assert [seq.next()[0] for _ in range(4)] == [2, 3, 1, 2]
    rnd = match.OpeningSchedule(boards, "random", seed=7)
    first_pass = [rnd.next()[0] for _ in range(3)]
    assert sorted(first_pass) == [1, 2, 3]
    again = match.OpeningSchedule(boards, "random", seed=7)
    assert [again.next()[0] for _ in range(3)] == first_pass
    rand = match.OpeningSchedule(None, random_plies=6, seed=3)
    index, board = rand.next()
    assert index == 1 and len(board.move_stack) == 6


def test_random_opening_is_seeded():
    a = match.random_opening(random.Random(5), 8)
    b = match.random_opening(random.Random(5), 8)
    assert a.move_stack == b.move_stack and len(a.move_stack) == 8


def test_game_record_points():
    r = match.GameRecord(1, 1, white_engine=2, result="0-1")
    assert r.engine1_points() == 1.0
    r.result = "1-0"
    assert r.engine1_points() == 0.0
    r.result = "1/2-1/2"
    assert r.engine1_points() == 0.5
    r.result = "*"
    assert r.engine1_points() is None


# ------------------------------------------------------------- end to end, with a fake engine

FAKE_ENGINE = textwrap.dedent('''
    import random, sys, time
    import chess
    mode, at, marker = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    import os
    board, moves_made, rng = chess.Board(), 0, random.Random(1)
    last_root, last_moves = None, []
    def out(line):
        sys.stdout.write(line + "\\n"); sys.stdout.flush()
    for line in sys.stdin:
        tokens = line.split()
        if not tokens:
            continue
        if tokens[0] == "uci":
            out("id name Fake-" + mode); out("option name Hash type spin default 16 min 1 max 1024"); out("uciok")
        elif tokens[0] == "isready":
            out("readyok")
        elif tokens[0] == "position":
            root = "startpos" if tokens[1] == "startpos" else " ".join(tokens[2:8])
            moves = tokens[tokens.index("moves") + 1:] if "moves" in tokens else []
            if root != last_root or moves[:len(last_moves)] != last_moves:
                board = chess.Board() if root == "startpos" else chess.Board(root)
                last_root, last_moves = root, []
            for mv in moves[len(last_moves):]:  # incremental: replaying 400 plies costs 20 ms
                board.push(chess.Move.from_uci(mv))
            last_moves = moves
        elif tokens[0] == "go":
            if "depth" in tokens:  # the runner's warm-up search
                out("bestmove " + next(iter(board.legal_moves)).uci()); continue
            moves_made += 1
            if (moves_made == at and not os.path.exists(marker)) or (at == 0 and mode != "ok"):
                open(marker, "w").close()  # misbehave once per test (a restarted process behaves)
                if mode == "illegal":
                    out("info depth 1 score cp 0"); out("bestmove a1a8"); continue
                if mode == "null":
                    out("bestmove 0000"); continue
                if mode == "none":
                    out("bestmove (none)"); continue
                if mode == "crash":
                    sys.exit(3)
                if mode == "slow":
                    clock = int(tokens[tokens.index("wtime" if board.turn else "btime") + 1])
                    time.sleep(clock / 1000 + 0.05)
                if mode == "hang":
                    time.sleep(60)
            out("info depth 1 score cp %d nodes 1 pv x" % rng.randint(-20, 20))
            out("bestmove " + rng.choice(list(board.legal_moves)).uci())
        elif tokens[0] == "quit":
            break
''')


@pytest.fixture()
def fake(tmp_path):
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)

    def command(mode, at=0):
        return f"{sys.executable} {script} {mode} {at} {tmp_path / ('marker-' + mode)}"

    return command


def run_match(tmp_path, engine1, engine2, games=2, extra=()):
    out = tmp_path / "out.txt"
    argv = ["--engine1", engine1, "--engine2", engine2, "--tc", "2+0.05", "--games", str(games),
            "--random-plies", "4", "--hang-timeout", "1", "--log-dir", str(tmp_path / "logs"),
            "--pgn", str(tmp_path / "games.pgn"), *extra]
    with open(out, "w") as handle:
        old = sys.stdout
        sys.stdout = handle
        try:
            status = match.main(argv)
        finally:
            sys.stdout = old
    return status, out.read_text()


def test_clean_match_passes(tmp_path, fake):
    status, text = run_match(tmp_path, fake("ok"), fake("ok"), games=2,
                             extra=["--option1", "Hash=8", "--draw-moves", "2", "--draw-score", "50",
                                    "--draw-movenumber", "3"])
    assert status == 0, text
    assert text.splitlines()[-1] == "2 passed, 0 failed"
    assert "Errors         : illegal moves 0, time forfeits 0, crashes/hangs 0" in text
    pgn = (tmp_path / "games.pgn").read_text()
    assert pgn.count("[Round ") == 2 and "draw: |score| <= 50 cp" in pgn


@pytest.mark.parametrize("mode,kind,label", [
    ("illegal", "illegal", "illegal moves 1"),
    ("null", "illegal", "illegal moves 1"),
    ("none", "illegal", "illegal moves 1"),
    ("crash", "crash", "crashes/hangs 1 (crashes 1, hangs 0)"),
    ("slow", "forfeit", "time forfeits 1"),
    ("hang", "hang", "crashes/hangs 1 (crashes 0, hangs 1)"),
])
def test_errors_are_detected_and_lose(tmp_path, fake, mode, kind, label):
    # engine 1 misbehaves on its 3rd move of the run, i.e. in game 1, where it plays White
    status, text = run_match(tmp_path, fake(mode, 3), fake("ok"), games=2)
    assert status == 1, text
    assert label in text
    assert text.splitlines()[-1] == "1 passed, 1 failed", text
    game1 = (tmp_path / "logs" / "game-0001.pgn").read_text()
    assert '[Result "0-1"]' in game1  # engine 1 had White in game 1 and loses it
    log = (tmp_path / "logs" / "game-0001.log").read_text()
    assert f"# {kind} (Fake-{mode})" in log and "<< go wtime" in log
    if kind in ("crash", "hang"):  # restarted for game 2, which is played normally
        assert "restarts 1" in text
    assert not (tmp_path / "logs" / "game-0002.pgn").exists()


def test_judge_one_reports_but_does_not_fail_on_the_opponents_faults(tmp_path, fake):
    # engine 2 overruns its clock on its 3rd move (game 1); only engine 1 is judged
    status, text = run_match(tmp_path, fake("ok"), fake("slow", 3), games=2, extra=["--judge", "1"])
    assert status == 0 and text.splitlines()[-1] == "2 passed, 0 failed", text
    assert "time forfeits 1" in text and "Failed games" not in text
    assert "Not judged     : the opponent's own faults (only Fake-ok is judged)" in text
    assert "  game 1: forfeit (Fake-slow)" in text
    assert (tmp_path / "logs" / "game-0001.pgn").exists()  # its log is kept all the same


def test_judge_one_still_fails_on_its_own_faults(tmp_path, fake):
    status, text = run_match(tmp_path, fake("slow", 3), fake("ok"), games=2, extra=["--judge", "1"])
    assert status == 1 and text.splitlines()[-1] == "1 passed, 1 failed", text
    assert "Not judged" not in text


def test_no_fail_on_errors_and_tolerance(tmp_path, fake):
    status, text = run_match(tmp_path, fake("slow", 3), fake("ok"), games=1,
                             extra=["--no-fail-on-errors", "--tolerance-ms", "500"])
    assert status == 0 and text.splitlines()[-1] == "1 passed, 0 failed", text


def test_sprt_stops_early(tmp_path, fake):
    # engine 2 plays a1a8 on its first move of every game: engine 1 wins every game; H1 of
    # [0, 200] is accepted long before 40 games (and every game is a failed one, by design).
    status, text = run_match(tmp_path, fake("ok"), fake("illegal", 0), games=40,
                             extra=["--sprt", "0,200", "--save-logs", "none"])
    assert "H1 accepted after" in text, text
    played = int(text.split("Games          : ")[1].split()[0])
    assert played < 40


def test_bad_engine_command(tmp_path):
    status, text = run_match(tmp_path, "/nonexistent/engine", "/nonexistent/engine")
    assert status == 2 and text.splitlines()[-1] == "0 passed, 1 failed"


def test_concurrency_and_openings_file(tmp_path, fake):
    openings = tmp_path / "openings.epd"
    openings.write_text("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
                        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n")
    status, text = run_match(tmp_path, fake("ok"), fake("ok"), games=4,
                             extra=["--concurrency", "2", "--openings", str(openings)])
    assert status == 0 and text.splitlines()[-1] == "4 passed, 0 failed", text
    pgn = (tmp_path / "games.pgn").read_text()
    assert pgn.count('[Opening "#1"]') == 2 and pgn.count('[Opening "#2"]') == 2
    assert pgn.count('[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]') == 2


# ------------------------------------------------------------------------ protocols, XBoard


def test_split_protocol():
    assert match.split_protocol("target/release/horizon") == ("uci", "target/release/horizon")
    assert match.split_protocol("xboard:/usr/games/phalanx -b- -l-") == ("xboard", "/usr/games/phalanx -b- -l-")
    assert match.split_protocol("UCI: /usr/games/stockfish") == ("uci", "/usr/games/stockfish")
    assert match.split_protocol("/usr/games/fairymax 22", "xboard") == ("xboard", "/usr/games/fairymax 22")
    assert match.split_protocol("xboard:fairymax", "xboard") == ("xboard", "fairymax")
    # a colon elsewhere is part of the command, not a protocol
    assert match.split_protocol("/opt/a:b/engine") == ("uci", "/opt/a:b/engine")
    for bad, proto in (("xboard:fairymax", "uci"), ("xboard:", None), ("  ", None), ("engine", "cecp")):
        with pytest.raises(ValueError):
            match.split_protocol(bad, proto)


def apply_edit(lines):
    """An independent model of CECP edit mode on an engine that has had new + force: returns
    the board the engine ends up with (castling rights as edit mode implies them)."""
    board = chess.Board()
    editing, color = None, chess.WHITE
    for line in lines:
        if editing is None:
            if line == "edit":
                editing, color = board.copy(stack=False), chess.WHITE
            else:
                board.push_uci(line)  # a move in force mode
            continue
        if line == "#":
            editing.clear_board()
        elif line == "c":
            color = not color
        elif line == ".":
            editing.castling_rights = chess.BB_CORNERS
            editing.castling_rights = editing.clean_castling_rights()
            editing.ep_square = None
            board, editing = editing, None
        else:
            symbol = line[0] if color == chess.WHITE else line[0].lower()
            editing.set_piece_at(chess.parse_square(line[1:3]), chess.Piece.from_symbol(symbol))
    assert editing is None, "edit mode was not left"
    return board


@pytest.mark.parametrize("fen", [
    "rnbqkb1r/p2ppppp/1pp2n2/8/8/3P3P/PPPBPPP1/RN1QKBNR w KQkq - 0 4",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20",
    "8/5k2/8/3Q4/8/8/1K6/8 w - - 0 60",
])
def test_xboard_edit_commands_set_up_the_position(fen):
    lines, lost = match.xboard_edit_commands(fen)
    board = chess.Board(fen)
    got = apply_edit(lines)
    assert got.board_fen() == board.board_fen()
    assert got.turn == board.turn
    assert got.castling_rights == board.clean_castling_rights()
    assert lost == []
    assert lines[-1] == "." and ("a2a3" in lines) == (board.turn == chess.BLACK)
    assert lines.count("c") == 1


def test_xboard_edit_commands_exact_lines():
    lines, lost = match.xboard_edit_commands("4k3/8/8/8/8/8/8/4K2R b K - 0 1")
    assert lines == ["a2a3", "edit", "#", "Ke1", "Rh1", "c", "Ke8", "."]
    assert lost == []


def test_xboard_edit_commands_report_what_is_lost():
    # king and rook at home but the right is gone: edit mode would restore it
    _, lost = match.xboard_edit_commands("4k3/8/8/8/8/8/8/4K2R w - - 0 1")
    assert len(lost) == 1 and "castling rights -" in lost[0] and "implies K" in lost[0]
    # a legal en-passant capture cannot be conveyed ...
    _, lost = match.xboard_edit_commands("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2")
    assert lost == ["en passant on e6"]
    # ... an en-passant square without a capturing pawn loses nothing
    _, lost = match.xboard_edit_commands("4k3/8/8/4p3/8/8/8/4K3 w - e6 0 2")
    assert lost == []


FAKE_XBOARD = textwrap.dedent('''
    import os, random, sys, time
    import chess
    mode, at, marker, setboard = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    board, rng, moves_made, time_cs = chess.Board(), random.Random(2), 0, None
    editing, color = None, chess.WHITE
    def out(line):
        sys.stdout.write(line + "\\n"); sys.stdout.flush()
    for line in sys.stdin:
        tokens = line.split()
        if not tokens:
            continue
        cmd = tokens[0]
        if editing is not None:  # CECP edit mode
            if cmd == "#":
                editing.clear_board()
            elif cmd == "c":
                color = not color
            elif cmd == ".":
                editing.castling_rights = chess.BB_CORNERS
                editing.castling_rights = editing.clean_castling_rights()
                board, editing = editing, None
            else:
                symbol = cmd[0] if color == chess.WHITE else cmd[0].lower()
                editing.set_piece_at(chess.parse_square(cmd[1:3]), chess.Piece.from_symbol(symbol))
            continue
        if cmd == "protover":
            out('feature myname="FakeX-%s" ping=1 setboard=%s memory=1 done=0' % (mode, setboard))
            out("feature done=1")
        elif cmd == "ping":
            out("pong " + tokens[1])
        elif cmd == "new":
            board = chess.Board()
        elif cmd == "setboard":
            if setboard == "0":
                sys.exit(11)  # as Fairy-Max 5.0b does
            board = chess.Board(" ".join(tokens[1:]))
        elif cmd == "edit":
            editing, color = board.copy(stack=False), chess.WHITE
        elif cmd == "time":
            time_cs = int(tokens[1])
        elif cmd == "go":
            moves_made += 1
            if (moves_made == at and not os.path.exists(marker)) or (at == 0 and mode != "ok"):
                open(marker, "w").close()
                if mode == "illegal":
                    out("move a1a8"); continue
                if mode == "slow":
                    time.sleep(time_cs / 100 + 0.05)
                if mode == "resign":
                    out("resign"); continue
            move = rng.choice(list(board.legal_moves))
            out("1 %d 0 1 %s" % (rng.randint(-20, 20), move.uci()))
            out("move " + move.uci())
            board.push(move)
        elif cmd == "quit":
            break
        elif cmd in ("xboard", "accepted", "rejected", "force", "level", "otim", "post", "nopost", "easy",
                     "hard", "memory", "random", "computer", "sd", "st"):
            pass
        else:  # a move in force mode
            try:
                board.push_uci(cmd)
            except ValueError:
                out("Illegal move: " + cmd)
''')


@pytest.fixture()
def fake_xboard(tmp_path):
    script = tmp_path / "fake_xboard.py"
    script.write_text(FAKE_XBOARD)

    def command(mode, at=0, setboard=1):
        return f"xboard:{sys.executable} {script} {mode} {at} {tmp_path / ('xmarker-' + mode)} {setboard}"

    return command


def test_xboard_engines_play_from_openings(tmp_path, fake, fake_xboard):
    # One FEN opening with White and one with Black to move; the XBoard engine without setboard
    # gets both in edit mode (it exits if it is sent setboard); every move of every game is
    # checked by the runner, so a wrongly set-up position shows as an illegal move.
    openings = tmp_path / "openings.epd"
    openings.write_text("rnbqkb1r/p2ppppp/1pp2n2/8/8/3P3P/PPPBPPP1/RN1QKBNR w KQkq - 0 4\n"
                        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n"
                        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n")
    status, text = run_match(tmp_path, fake_xboard("ok", setboard=0), fake_xboard("ok"), games=6,
                             extra=["--openings", str(openings), "--option1", "memory=64", "--save-logs", "all"])
    assert status == 0 and text.splitlines()[-1] == "6 passed, 0 failed", text
    assert "FakeX-ok #1" in text and "protocol warnings 0" in text
    logs = "".join(p.read_text() for p in sorted((tmp_path / "logs").glob("*.log")))
    assert "<< setboard" in logs  # the engine with setboard=1 got setboard ...
    assert logs.count("<< edit") == 6  # ... the other edit mode, once per game
    assert logs.count("<< memory 64") == 1  # configured once, not again before every move
    assert logs.count("<< new") == 12  # a new game for each engine in each game
    assert "<< go" in logs and ">> move " in logs
    pgn = (tmp_path / "games.pgn").read_text()
    assert pgn.count("[Round ") == 6


@pytest.mark.parametrize("mode,label,pgn_text", [
    ("illegal", "illegal moves 1", "White makes an illegal move"),
    ("slow", "time forfeits 1", "White loses on time"),
])
def test_xboard_errors_are_detected(tmp_path, fake, fake_xboard, mode, label, pgn_text):
    # as test_errors_are_detected_and_lose, with engine 1 speaking XBoard
    status, text = run_match(tmp_path, fake_xboard(mode, 3), fake("ok"), games=2)
    assert status == 1, text
    assert label in text and text.splitlines()[-1] == "1 passed, 1 failed", text
    game1 = (tmp_path / "logs" / "game-0001.pgn").read_text()
    assert '[Result "0-1"]' in game1 and pgn_text in game1


def test_xboard_resignation_is_a_loss_not_an_error(tmp_path, fake, fake_xboard):
    status, text = run_match(tmp_path, fake_xboard("resign", 2), fake("ok"), games=2)
    assert status == 0 and text.splitlines()[-1] == "2 passed, 0 failed", text
    pgn = (tmp_path / "games.pgn").read_text()
    assert "White resigns" in pgn and '[Result "0-1"]' in pgn


def test_stop_rule_and_on_game_hooks(tmp_path, fake):
    seen = []
    pgn = tmp_path / "all.pgn"
    pgn.write_text("[Event \"earlier\"]\n\n*\n\n")
    cfg = match.MatchConfig(
        engine1=match.EngineSpec(fake("ok"), []), engine2=match.EngineSpec(fake("ok"), []),
        base=2.0, inc=0.05, games=20, random_plies=4, save_logs="none", quiet=True,
        pgn_path=str(pgn), pgn_append=True,
        stop_rule=lambda w, d, l: "four games" if w + d + l >= 4 else None,
        on_game=lambda rec, wdl: seen.append((rec.number, wdl)))
    import io
    out = io.StringIO()
    res = match.Match(cfg, out=out).run()
    # the worker may already have taken game 5 when game 4's result stops the match: it counts
    played = len(res.records)
    assert played in (4, 5) and res.early_stop == "four games" and res.early_stop_at == 4
    assert [n for n, _ in seen] == list(range(1, played + 1)) and sum(seen[3][1]) == 4
    assert out.getvalue() == ""  # quiet: no header, no game lines
    text = pgn.read_text()
    assert text.startswith("[Event \"earlier\"]") and text.count("[Round ") == played
    assert "Early stop     : four games (after 4 games)" in "\n".join(match.summary_lines(cfg, res))


# --------------------------------------------------------------------------- pgn_positions


def test_pgn_positions_labels_quiet_positions():
    import io

    import pgn_positions

    pgn = io.StringIO(
        '[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n'
        '[Result "*"]\n\n1. e4 *\n\n'
        '[Result "1/2-1/2"]\n\n1. e4 d5 2. exd5 Qxd5 1/2-1/2\n'
    )
    lines = list(pgn_positions.positions(pgn, skip=1))
    # Game 1: plies 1..3 kept (f3 skipped; Qh4# is a quiet move from a position not in check).
    # Game 2 has no result. Game 3: ply 1 (d5 to play) kept, exd5 and Qxd5 are captures.
    assert lines == [
        "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1 | 0.0",
        "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2 | 0.0",
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2 | 0.0",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 0.5",
    ]


def test_parse_vary_and_game_options_are_seeded_per_game():
    assert match.parse_vary("Threads=1,2") == ("Threads", ["1", "2"])
    assert match.parse_vary("Skill Level= 3 , 5") == ("Skill Level", ["3", "5"])
    with pytest.raises(ValueError):
        match.parse_vary("Threads=")
    spec = match.EngineSpec("x", [], vary=[("Threads", ["1", "2"]), ("Hash", ["8", "16", "32"])],
                            skip_newgame=0.5)
    drawn = [match.game_options(spec, n, "engine1", 7) for n in range(1, 201)]
    # The same game draws the same settings again; the draws cover every value.
    assert drawn[10] == match.game_options(spec, 11, "engine1", 7)
    assert {dict(o)["Threads"] for o, _ in drawn} == {"1", "2"}
    assert {dict(o)["Hash"] for o, _ in drawn} == {"8", "16", "32"}
    skipped = sum(skip for _, skip in drawn)
    assert 60 < skipped < 140
    assert match.game_options(match.EngineSpec("x", []), 3, "engine1", 7) == ([], False)


def test_time_use_text_reports_quantiles_of_time_and_clock_share():
    times = [(0.010 * i, 1.0) for i in range(1, 101)]
    text = match.time_use_text(times)
    assert "over 100 moves" in text
    assert "median 510" in text and "max 1000" in text
    assert "max 100.0%" in text
