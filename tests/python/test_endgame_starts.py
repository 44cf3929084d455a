"""endgame_starts.py: which boards it keeps, and that a seed fixes the draw."""

import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import endgame_starts  # noqa: E402

# Men: 32, 7 (twice, clocks and results differing), a blank line, 7 with Black to move, 10, 4
# and 9.
DUMP = """\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 0.5
8/5pk1/6p1/8/8/6P1/5PK1/3r4 w - - 3 40 | 0
8/5pk1/6p1/8/8/6P1/5PK1/3r4 w - - 7 44 | 1

8/5pk1/6p1/8/8/6P1/5PK1/3r4 b - - 3 40 | 0.5
r7/5pk1/6p1/8/8/2N3P1/4PPK1/3r4 b - - 0 30 | 0
8/8/4k3/8/8/3K4/4P3/4r3 w - - 0 60 | 0
8/5pk1/6p1/8/8/6P1/4PPK1/3rR3 w - - 1 35 | 1
"""


def test_keeps_distinct_boards_of_the_asked_men_in_first_seen_order():
    boards = endgame_starts.distinct_boards(DUMP.splitlines(), 7, 10)
    assert boards == [
        "8/5pk1/6p1/8/8/6P1/5PK1/3r4 w - -",
        "8/5pk1/6p1/8/8/6P1/5PK1/3r4 b - -",
        "r7/5pk1/6p1/8/8/2N3P1/4PPK1/3r4 b - -",
        "8/5pk1/6p1/8/8/6P1/4PPK1/3rR3 w - -",
    ]
    assert [endgame_starts.men(b) for b in boards] == [7, 7, 10, 9]
    assert endgame_starts.distinct_boards(DUMP.splitlines(), 4, 4) == [
        "8/8/4k3/8/8/3K4/4P3/4r3 w - -"
    ]
    assert endgame_starts.distinct_boards(DUMP.splitlines(), 11, 31) == []


def test_the_seed_fixes_the_draw_and_the_clocks_are_reset():
    # Eight boards: the black king on each square of the eighth rank.
    rank = ["k7", "1k6", "2k5", "3k4", "4k3", "5k2", "6k1", "7k"]
    boards = [f"{r}/8/8/8/8/8/8/K7 w - -" for r in rank]
    first = endgame_starts.pick(boards, 3, seed=22)
    assert first == endgame_starts.pick(boards, 3, seed=22)
    expected = list(boards)
    random.Random(22).shuffle(expected)
    assert first == [b + " 0 1" for b in expected[:3]]
    assert len(endgame_starts.pick(boards, 100, seed=1)) == len(boards)
    assert endgame_starts.pick(boards, len(boards), seed=22) != endgame_starts.pick(
        boards, len(boards), seed=23
    )


def test_command_line_writes_the_file_and_rejects_bad_input(tmp_path, capsys):
    dump = tmp_path / "dump.txt"
    dump.write_text(DUMP)
    out = tmp_path / "starts.epd"
    assert endgame_starts.main([str(dump), str(out), "--men", "7-10", "--count", "2", "--seed", "5"]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 2 and all(line.endswith(" 0 1") for line in lines)
    assert "4 distinct boards of 7-10 men, 2 written" in capsys.readouterr().out

    bad = tmp_path / "bad.txt"
    bad.write_text(DUMP + "not a fen | 0\n")
    assert endgame_starts.main([str(bad), str(out), "--seed", "5"]) == 1
    assert "line 9: not a FEN" in capsys.readouterr().err
    assert endgame_starts.main([str(dump), str(out), "--men", "20-30", "--seed", "5"]) == 1
    assert endgame_starts.main([str(tmp_path / "missing.txt"), str(out), "--seed", "5"]) == 1
    for args in (["--men", "9-3"], ["--men", "x"], ["--count", "0"]):
        with pytest.raises(SystemExit) as exit_info:
            endgame_starts.main([str(dump), str(out), "--seed", "5", *args])
        assert exit_info.value.code == 2


def test_max_score_keeps_only_balanced_boards_and_needs_scores(tmp_path, capsys):
    scored = """\
8/5pk1/6p1/8/8/6P1/5PK1/3r4 w - - 0 1 | 0.0 | -412
8/5pk1/6p1/8/8/6P1/5PK1/3r4 w - - 0 1 | 0.5 | 12
r7/5pk1/6p1/8/8/2N3P1/4PPK1/3r4 w - - 0 1 | 0.5 | -40
8/5pk1/6p1/8/8/6P1/4PPK1/3rR3 w - - 0 1 | 1.0 | 41
"""
    # The first board's first line is too far from zero; its second line keeps it.
    assert endgame_starts.distinct_boards(scored.splitlines(), 7, 10, max_score=40) == [
        "8/5pk1/6p1/8/8/6P1/5PK1/3r4 w - -",
        "r7/5pk1/6p1/8/8/2N3P1/4PPK1/3r4 w - -",
    ]
    assert endgame_starts.distinct_boards(scored.splitlines(), 7, 10, max_score=0) == []
    with pytest.raises(ValueError, match="line 1: no score field"):
        endgame_starts.distinct_boards(DUMP.splitlines(), 7, 10, max_score=40)
    dump = tmp_path / "dump.txt"
    dump.write_text(DUMP)
    out = tmp_path / "starts.epd"
    assert endgame_starts.main([str(dump), str(out), "--seed", "5", "--max-score", "40"]) == 1
    assert "no score field" in capsys.readouterr().err
    assert not out.exists()
