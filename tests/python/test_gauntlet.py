"""Unit tests of gauntlet.py: the early-stop rule, opponent parsing and selection, the result
table, and one small gauntlet end to end with fake engines (test_match.py's fake UCI engine and
fake XBoard engine). Run: python3 -m pytest tests/python -q"""

import os
import stat
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gauntlet  # noqa: E402
import match  # noqa: E402
import test_match  # noqa: E402


# ------------------------------------------------------------------------------ early stop


def test_early_stop_needs_min_games():
    assert gauntlet.early_stop_reason(29, 0, 0, 30, 95) is None  # 100 % but only 29 games
    assert gauntlet.early_stop_reason(0, 0, 29, 30, 95) is None
    reason = gauntlet.early_stop_reason(30, 0, 0, 30, 95)
    assert reason == "score 100.0% > 95% after 30 games"


def test_early_stop_is_strict_and_exact():
    # 19/20 = 95 % exactly is not above 95 %; 19.5/20 = 97.5 % is
    assert gauntlet.early_stop_reason(19, 0, 1, 20, 95) is None
    assert gauntlet.early_stop_reason(19, 1, 0, 20, 95) == "score 97.5% > 95% after 20 games"
    # 1/20 = 5 % is not below 5 %; 0.5/20 = 2.5 % is
    assert gauntlet.early_stop_reason(1, 0, 19, 20, 95) is None
    assert gauntlet.early_stop_reason(0, 1, 19, 20, 95) == "score 2.5% < 5% after 20 games"
    # 57/60 = 95 %: not stopped; 28.5/30 = 95 %: not stopped either
    assert gauntlet.early_stop_reason(57, 0, 3, 30, 95) is None
    assert gauntlet.early_stop_reason(28, 1, 1, 30, 95) is None
    # a middling score never stops
    assert gauntlet.early_stop_reason(100, 50, 50, 30, 95) is None


def test_early_stop_other_thresholds_and_off():
    assert gauntlet.early_stop_reason(9, 0, 1, 10, 85) == "score 90.0% > 85% after 10 games"
    assert gauntlet.early_stop_reason(1, 0, 9, 10, 85) == "score 10.0% < 15% after 10 games"
    assert gauntlet.early_stop_reason(30, 0, 0, 30, None) is None
    assert gauntlet.early_stop_reason(30, 0, 0, 30, 50) is None  # 50 or less: off
    assert gauntlet.early_stop_reason(0, 0, 0, 0, 95) is None


# ------------------------------------------------------------------------------- opponents


def test_merge_options():
    base = [("Hash", "64"), ("Threads", "1")]
    assert gauntlet.merge_options(base, [("hash", "128"), ("OwnBook", "false")]) == \
        [("Hash", "128"), ("Threads", "1"), ("OwnBook", "false")]
    assert gauntlet.merge_options(base, []) == base
    assert base == [("Hash", "64"), ("Threads", "1")]  # not modified


def test_parse_opponent_and_option():
    o = gauntlet.parse_opponent("mine=xboard:/opt/mine -x")
    assert (o.name, o.protocol, o.command, o.options) == ("mine", "xboard", "/opt/mine -x", ())
    assert gauntlet.parse_opponent("sf=/usr/games/stockfish").protocol == "uci"
    for bad in ("=/usr/games/stockfish", "sf", "a:b=/x", "sf=", "sf=xboard:"):
        with pytest.raises(ValueError):
            gauntlet.parse_opponent(bad)
    assert gauntlet.parse_opponent_option("toga2:Hash=128") == ("toga2", "Hash", "128")
    assert gauntlet.parse_opponent_option("toga2:Number of Threads=1") == ("toga2", "Number of Threads", "1")
    for bad in ("Hash=128", ":Hash=1", "toga2:Hash"):
        with pytest.raises(ValueError):
            gauntlet.parse_opponent_option(bad)


def test_select_opponents():
    names = [o.name for o in gauntlet.select_opponents(None, [])]
    assert names == ["fairymax", "phalanx", "glaurung", "toga2", "ethereal", "stockfish"]
    mine = gauntlet.parse_opponent("mine=/opt/mine")
    assert [o.name for o in gauntlet.select_opponents(None, [mine])][-1] == "mine"
    assert [o.name for o in gauntlet.select_opponents("stockfish, mine,phalanx", [mine])] == \
        ["stockfish", "mine", "phalanx"]
    for bad in ("crafty", "stockfish,stockfish", ","):
        with pytest.raises(ValueError):
            gauntlet.select_opponents(bad, [])


def test_default_opponents_settings():
    by_name = {o.name: o for o in gauntlet.DEFAULT_OPPONENTS}
    for o in by_name.values():
        opts = dict(o.options)
        if o.protocol == "uci":
            assert opts["Hash"] == "64"
            assert opts.get("Threads", opts.get("Number of Threads")) == "1"
        assert o.command.startswith("/usr/games/")
    assert by_name["phalanx"].protocol == by_name["fairymax"].protocol == "xboard"
    assert dict(by_name["phalanx"].options) == {"memory": "64"}
    assert "-b-" in by_name["phalanx"].command.split()  # no book
    for name in ("glaurung", "toga2"):  # their own books are on by default
        assert dict(by_name[name].options)["OwnBook"] == "false"
    assert by_name["fairymax"].command.split()[1] == "22"  # 2^22 entries of 12 bytes = 48 MiB
    assert gauntlet.HORIZON_OPTIONS == (("Hash", "64"), ("Threads", "1"))


# ----------------------------------------------------------------------------------- table


def test_format_errors_and_elo_cells():
    assert gauntlet.format_errors({"illegal": 1, "forfeit": 2, "crash": 3, "hang": 4}) == "1/2/7"
    assert gauntlet.format_errors({}) == "0/0/0"
    assert gauntlet.format_elo_cell(0, 0, 0) == ("-", "-")
    assert gauntlet.format_elo_cell(5, 0, 0) == ("+inf", "n/a (every game won)")
    assert gauntlet.format_elo_cell(0, 0, 5) == ("-inf", "n/a (every game lost)")
    # W/D/L 60/20/20: +147.2 Elo, interval +86.2 .. +218.3 (test_match.test_elo_lopsided_interval)
    assert gauntlet.format_elo_cell(60, 20, 20) == ("+147.2", "+86.2 .. +218.3 (±66)")


def test_result_from_match_attributes_errors():
    records = [
        match.GameRecord(1, 1, 1, result="1-0"),
        match.GameRecord(2, 1, 2, result="1-0", errors=[match.GameError("forfeit", 1, "x")]),
        match.GameRecord(3, 2, 1, result="1/2-1/2"),
        match.GameRecord(4, 2, 2, result="0-1", errors=[match.GameError("hang", 2, "y")]),
        match.GameRecord(5, 3, 1, result="*", errors=[match.GameError("missing", None, "z")]),
    ]
    for r in records:
        r.seconds = 10.0
    res = match.MatchResult(records, ("Horizon", "Toga II 3.0"), None, None, 0.0, 30.0, None, {},
                            early_stop="score 100.0% > 95% after 30 games", early_stop_at=30)
    row = gauntlet.result_from_match("toga2", res)
    assert (row.wins, row.draws, row.losses, row.games, row.missing) == (2, 1, 1, 5, 1)
    assert row.horizon_errors["forfeit"] == 1 and sum(row.horizon_errors.values()) == 1
    assert row.opponent_errors["hang"] == 1 and sum(row.opponent_errors.values()) == 1
    assert row.error_total == 3 and row.engine_name == "Toga II 3.0" and row.seconds_per_game == 10.0
    lines = gauntlet.markdown_table([row])
    assert len(lines) == 3  # no total row for one opponent
    cells = [c.strip() for c in lines[2].split("|")[1:-1]]
    assert cells[:4] == ["toga2 (Toga II 3.0)", "5", "2/1/1", "62.5%"]
    assert cells[6:9] == ["0/1/0", "0/0/1", "10.0"]
    assert "stopped early: score 100.0% > 95% after 30 games" in cells[9] and "1 game(s) without result" in cells[9]


def test_markdown_table_total_row():
    a = gauntlet.OpponentResult("a", "", 3, 1, 0, 4, {"illegal": 1}, {})
    b = gauntlet.OpponentResult("b", "", 0, 1, 3, 4, {}, {"crash": 2})
    c = gauntlet.OpponentResult("c", failure="did not start: OSError")
    lines = gauntlet.markdown_table([a, b, c])
    assert len(lines) == 6
    assert "| c | 0 | 0/0/0 | - | - | - |" in lines[4] and "did not start" in lines[4]
    total = [x.strip() for x in lines[5].split("|")[1:-1]]
    assert total[:4] == ["**total**", "8", "3/2/3", "50.0%"] and total[6:8] == ["1/0/0", "0/0/2"]


def pgn_game(white, black, result, termination="normal"):
    return (f'[Event "g"]\n[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n'
            f'[Termination "{termination}"]\n\n1. e4 e5 {result}\n\n')


def test_results_from_pgn_joins_files_and_attributes_errors(tmp_path, capsys):
    first = tmp_path / "first.pgn"
    second = tmp_path / "second.pgn"
    first.write_text(pgn_game("Horizon", "Toga II", "1-0") + pgn_game("Toga II", "Horizon", "1-0")
                     + pgn_game("Horizon", "Phalanx", "1/2-1/2"))
    second.write_text(pgn_game("Phalanx", "Horizon", "1-0", "time forfeit")
                      + pgn_game("Horizon", "Toga II", "1-0", "abandoned")
                      + pgn_game("Toga II", "Horizon", "*", "unterminated"))
    rows = gauntlet.results_from_pgn([str(first), str(second)])
    assert [r.opponent for r in rows] == ["Toga II", "Phalanx"]
    toga, phalanx = rows
    assert (toga.wins, toga.draws, toga.losses, toga.games, toga.missing) == (2, 0, 1, 4, 1)
    assert toga.opponent_errors["crash"] == 1 and sum(toga.horizon_errors.values()) == 0
    assert (phalanx.wins, phalanx.draws, phalanx.losses) == (0, 1, 1)
    assert phalanx.horizon_errors["forfeit"] == 1 and sum(phalanx.opponent_errors.values()) == 0
    out_md = tmp_path / "table.md"
    assert gauntlet.main(["--from-pgn", str(first), "--from-pgn", str(second), "--markdown", str(out_md)]) == 0
    out = capsys.readouterr().out
    assert "| Toga II | 4 | 2/0/1 | 66.7% |" in out and "| **total** | 6 | 2/1/2 | 50.0% |" in out
    assert "| Toga II | 4 | 2/0/1 | 66.7% |" in out_md.read_text()
    stranger = tmp_path / "stranger.pgn"
    stranger.write_text(pgn_game("Toga II", "Phalanx", "1-0"))
    assert gauntlet.main(["--from-pgn", str(stranger)]) == 2
    assert "has no (single) Horizon" in capsys.readouterr().err


# ---------------------------------------------------------------------------- command line


def test_list_and_bad_arguments(capsys):
    assert gauntlet.main(["--list", "--opponents", "toga2,phalanx", "--opponent-option", "toga2:Hash=32"]) == 0
    out = capsys.readouterr().out
    assert "| toga2 | toga2 | uci | `/usr/games/toga2` | Hash=32, Number of Threads=1, OwnBook=false |" in out
    assert "| phalanx |" in out and "stockfish" not in out
    assert gauntlet.main(["--opponents", "crafty"]) == 2
    assert gauntlet.main(["--opponents", "toga2", "--opponent-option", "phalanx:memory=1"]) == 2
    assert gauntlet.main(["--tc", "0"]) == 2
    assert gauntlet.main(["--horizon", "/nonexistent/horizon", "--opponents", "toga2"]) == 2
    assert "Horizon binary /nonexistent/horizon not found" in capsys.readouterr().err


def test_small_gauntlet_end_to_end(tmp_path, capsys):
    # A fake "Horizon" (test_match's fake UCI engine, with a Threads option) against an opponent
    # that plays an illegal move at once in every game (Horizon wins all: early stop after
    # --min-games) and a random-moving fake XBoard engine.
    uci = tmp_path / "fake_uci.py"
    uci.write_text(test_match.FAKE_ENGINE.replace(
        'out("option name Hash type spin default 16 min 1 max 1024");',
        'out("option name Hash type spin default 16 min 1 max 1024"); '
        'out("option name Threads type spin default 1 min 1 max 8");'))
    xb = tmp_path / "fake_xboard.py"
    xb.write_text(test_match.FAKE_XBOARD)
    horizon = tmp_path / "horizon"
    horizon.write_text(f"#!/bin/sh\nexec {sys.executable} {uci} ok 0 {tmp_path / 'm1'}\n")
    horizon.chmod(horizon.stat().st_mode | stat.S_IEXEC)
    openings = tmp_path / "o.epd"
    openings.write_text("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
                        "rnbqkb1r/p2ppppp/1pp2n2/8/8/3P3P/PPPBPPP1/RN1QKBNR w KQkq - 0 4\n")
    md, pgn = tmp_path / "g.md", tmp_path / "g.pgn"
    status = gauntlet.main([
        "--horizon", str(horizon), "--openings", str(openings), "--tc", "2+0.05", "--games", "8",
        "--concurrency", "1", "--min-games", "3",
        "--add-opponent", f"cheat={sys.executable} {uci} illegal 0 {tmp_path / 'm2'}",
        "--add-opponent", f"rand=xboard:{sys.executable} {xb} ok 0 {tmp_path / 'm3'} 0",
        "--opponents", "cheat,rand", "--opponent-option", "rand:memory=16",
        "--markdown", str(md), "--pgn", str(pgn), "--log-dir", str(tmp_path / "logs")])
    out = capsys.readouterr().out
    assert status == 1, out  # the cheat's illegal moves are errors
    text = md.read_text()
    rows = {line.split("|")[1].strip().split()[0]: [c.strip() for c in line.split("|")[1:-1]]
            for line in text.splitlines() if line.startswith("| ") and not line.startswith("| opponent")}
    cheat = rows["cheat"]
    games = int(cheat[1])
    assert games in (3, 4)  # stopped after 3 games (a 4th may already be under way)
    assert cheat[2] == f"{games}/0/0" and cheat[3] == "100.0%"
    assert cheat[6] == "0/0/0" and cheat[7] == f"{games}/0/0"
    assert "stopped early: score 100.0% > 95% after 3 games" in cheat[9]
    rand = rows["rand"]
    assert int(rand[1]) >= 3 and rand[6] == "0/0/0" and rand[7] == "0/0/0", text
    assert "time control 2+0.05 s" in text and "early stop: after at least 3 games" in text
    assert pgn.read_text().count("[Round ") == games + int(rand[1])
    assert out.splitlines()[-1].endswith(f"{games} error(s)")
