"""Unit tests of elo_ablation.py: names, the sign of the rows, the table, CSV round trip and
resume, the chart, bad arguments, and a run with fake engines."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elo_ablation  # noqa: E402
import match  # noqa: E402
from test_match import fake  # noqa: E402,F401  (the fake UCI engine fixture)


def result(engine1_results):
    records = [match.GameRecord(i, i, 1, result=r) for i, r in enumerate(engine1_results)]
    return match.MatchResult(records, ("a", "b"), None, None, 0.0, 90.0, None, {})


def test_parse_names():
    assert elo_ablation.parse_names(None) == list(elo_ablation.ENHANCEMENTS)
    assert elo_ablation.parse_names("table, lmr") == ["table", "lmr"]
    with pytest.raises(ValueError, match="nosuch"):
        elo_ablation.parse_names("table,nosuch")
    with pytest.raises(ValueError):
        elo_ablation.parse_names(" , ")


def test_every_change_is_a_set_of_assignments():
    for name, (_, change) in elo_ablation.ENHANCEMENTS.items():
        assignments = [match.parse_option(part) for part in change.split()]
        assert assignments, name
    assert elo_ablation.TURNED_ON <= set(elo_ablation.ENHANCEMENTS)


def test_rows_count_from_the_default_side():
    # Engine 1 (without the enhancement) scores 20 wins, 20 draws, 60 losses: the default
    # wins 60, and the enhancement is worth +147.2 Elo (the mirror of test_match's lopsided case).
    res = result(["1-0"] * 20 + ["1/2-1/2"] * 20 + ["0-1"] * 60)
    row = elo_ablation.row_from_match("lmr", "LMR=false", res)
    assert (row.wins, row.draws, row.losses, row.games) == (60, 20, 20, 100)
    assert round(row.estimate().elo, 1) == 147.2
    text = elo_ablation.markdown([row], ["head"])
    assert text.splitlines()[0] == "head"
    assert "| lmr | `LMR=false` | 100 | 60/20/20 | +147.2 (+86.2 .. +218.3) | 0 |" in text


def test_csv_round_trip_and_chart(tmp_path):
    rows = [elo_ablation.Row("table", "TranspositionTable=false", 150, 40, 10, 0, 30.0),
            elo_ablation.Row("etc", "ETC=true", 48, 100, 52, 1, 31.5),
            elo_ablation.Row("killers", "Killers=false", 100, 0, 0, 0, 10.0)]  # an infinite Elo
    path = tmp_path / "a.csv"
    elo_ablation.write_csv(str(path), rows)
    assert elo_ablation.read_csv(str(path)) == rows
    assert elo_ablation.read_csv(str(tmp_path / "none.csv")) == []
    svg = elo_ablation.svg_chart(rows, "t")
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count("<rect ") == 1 + 3  # the background and one bar each
    # Every coordinate is finite (an infinite Elo is drawn to the edge); the label says it.
    assert "nan" not in svg and '="inf' not in svg and '="-inf' not in svg
    assert "+inf (100 games)" in svg


def test_ticks():
    assert elo_ablation.ticks(-20, 100) == [-20, 0, 20, 40, 60, 80, 100]
    assert elo_ablation.ticks(0, 3) == [0, 0.5, 1, 1.5, 2, 2.5, 3]


def test_bad_arguments(tmp_path, capsys):
    out = str(tmp_path / "x")
    assert elo_ablation.main(["--engine", "x", "--out", out, "--enhancements", "nosuch"]) == 2
    assert elo_ablation.main(["--engine", "x", "--out", out, "--sprt", "5,0"]) == 2
    assert elo_ablation.main(["--engine", "x", "--out", out, "--openings", str(tmp_path / "none.epd")]) == 2
    assert "not found" in capsys.readouterr().err


def test_end_to_end_with_fake_engines_and_resume(tmp_path, fake, monkeypatch):
    # The fake engine has one option, Hash: two "enhancements" that change it.
    monkeypatch.setattr(elo_ablation, "ENHANCEMENTS", {"big": ("Hash 32", "Hash=32"), "small": ("Hash 8", "Hash=8")})
    openings = tmp_path / "openings.epd"
    openings.write_text("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n")
    out = str(tmp_path / "ablation")
    argv = ["--engine", fake("ok"), "--enhancements", "big", "--games", "2", "--tc", "2+0.05",
            "--openings", str(openings), "--out", out]
    assert elo_ablation.main(argv) == 0
    rows = elo_ablation.read_csv(out + ".csv")
    assert [(r.enhancement, r.games, r.errors) for r in rows] == [("big", 2, 0)]
    assert "| big | `Hash=32` | 2 |" in open(out + ".md").read()
    assert open(out + ".svg").read().startswith("<svg")
    # Resumed with one more: the kept row is not replayed.
    first = elo_ablation.read_csv(out + ".csv")[0]
    assert elo_ablation.main(argv[:3] + ["big,small"] + argv[4:] + ["--resume"]) == 0
    rows = elo_ablation.read_csv(out + ".csv")
    assert [r.enhancement for r in rows] == ["big", "small"]
    assert rows[0] == first
