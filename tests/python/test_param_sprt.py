"""Unit tests of param_sprt.py's pure parts: candidates, the table row, bad arguments."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match  # noqa: E402
import param_sprt  # noqa: E402
from test_match import fake  # noqa: E402,F401  (the fake UCI engine fixture)


def test_parse_candidate():
    assert param_sprt.parse_candidate("NullMoveR=3") == [("NullMoveR", "3")]
    assert param_sprt.parse_candidate(" LMRFullDepthMoves=2   LMRMinDepth=2 ") == [
        ("LMRFullDepthMoves", "2"), ("LMRMinDepth", "2")]
    with pytest.raises(ValueError):
        param_sprt.parse_candidate("   ")
    with pytest.raises(ValueError):
        param_sprt.parse_candidate("NullMoveR")


def test_table_row():
    records = [match.GameRecord(i, i, 1, result=r) for i, r in enumerate(["1-0"] * 60 + ["1/2-1/2"] * 20 + ["0-1"] * 20)]
    records[0].errors.append(match.GameError("forfeit", 2, "x"))
    res = match.MatchResult(records, ("a", "b"), "H1", 100, 2.97, 600.0, None, {})
    row = param_sprt.table_row("NullMoveR=3", res)
    # W/D/L 60/20/20: +147.2 Elo, interval +86.2 .. +218.3 (test_match.test_elo_lopsided_interval)
    assert row == "| NullMoveR=3 | 100 | 60/20/20 | +147.2 (+86.2 .. +218.3) | +2.97 | H1 after 100 | 1 | 10.0 min |"
    empty = match.MatchResult([], ("a", "b"), None, None, 0.0, 0.0, None, {}, interrupted=True)
    assert param_sprt.table_row("X=1", empty) == "| X=1 | 0 | 0/0/0 | - | +0.00 | interrupted | 0 | 0.0 min |"


def test_bad_arguments(capsys, tmp_path):
    assert param_sprt.main(["--engine", "x", "--candidate", "NullMoveR"]) == 2
    assert param_sprt.main(["--engine", "x", "--candidate", "A=1", "--sprt", "5,0"]) == 2
    assert param_sprt.main(["--engine", "x", "--candidate", "A=1", "--openings", str(tmp_path / "none.epd")]) == 2
    assert "not found" in capsys.readouterr().err


def test_end_to_end_with_fake_engines(tmp_path, capsys, fake):
    md = tmp_path / "sprt.md"
    # Its own openings: the test needs no ../shared (a user's clone has none).
    openings = tmp_path / "openings.epd"
    openings.write_text("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n")
    argv = ["--engine", fake("ok"), "--candidate", "Hash=32", "--candidate", "NoSuchOption=1", "--games", "2",
            "--tc", "2+0.05", "--concurrency", "2", "--markdown", str(md), "--openings", str(openings)]
    # the first candidate plays its two games; the second cannot start (no such option): exit 2
    assert param_sprt.main(argv) == 2
    captured = capsys.readouterr()
    assert "NoSuchOption=1: cannot run the match" in captured.err
    rows = [line for line in md.read_text().splitlines() if line.startswith("| Hash=32 |")]
    assert len(rows) == 1 and rows[0].startswith("| Hash=32 | 2 | ")
    w, d, l = (int(x) for x in rows[0].split("|")[3].split("/"))
    assert w + d + l == 2
