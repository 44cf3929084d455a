"""sprt_join.py against the LLRs fastchess 1.8.2 printed for the same pair counts."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sprt_join  # noqa: E402


@pytest.mark.parametrize(
    "counts, printed",
    [
        # docs/strength.md, HistoryWeight=gravity, first run: after 520 and 1000 games.
        ([20, 48, 82, 67, 43], 1.26),
        ([39, 79, 175, 127, 80], 2.58),
    ],
)
def test_llr_matches_fastchess(counts, printed):
    assert sprt_join.pentanomial_llr(counts, 0, 5) == pytest.approx(printed, abs=0.006)


def test_llr_sign_and_symmetry():
    even = [10, 20, 40, 20, 10]
    assert sprt_join.pentanomial_llr(even, 0, 5) < 0, "a 50% score favours H0 = 0 over H1 = 5"
    assert sprt_join.pentanomial_llr([0, 0, 0, 0, 0], 0, 5) == 0.0
    winning = [5, 10, 40, 30, 15]
    assert sprt_join.pentanomial_llr(winning, 0, 5) > 0


def test_elo_interval_and_parsing():
    elo, lo, hi = sprt_join.elo_interval([39, 79, 175, 127, 80])
    assert elo == pytest.approx(45.4, abs=0.1)
    assert lo < elo < hi
    text = "Ptnml(0-2): [1, 2, 3, 4, 5], WL/DD Ratio: 1.0\nPtnml(0-2): [39, 79, 175, 127, 80], x"
    assert sprt_join.read_ptnml(text) == [39, 79, 175, 127, 80]
    with pytest.raises(ValueError):
        sprt_join.read_ptnml("no counts here")


def test_joining_files(tmp_path, capsys):
    first = tmp_path / "a.out"
    second = tmp_path / "b.out"
    first.write_text("Ptnml(0-2): [39, 79, 175, 127, 80], WL/DD Ratio: 1.87\n")
    second.write_text("Ptnml(0-2): [1, 5, 14, 9, 11], WL/DD Ratio: 1.80\n")
    assert sprt_join.main(["--elo0", "0", "--elo1", "5", str(first), str(second)]) == 0
    out = capsys.readouterr().out
    assert "1080 games" in out and "H1 accepted" in out


def test_a_file_without_counts_is_a_clear_error(tmp_path, capsys):
    started = tmp_path / "started.log"
    started.write_text("Started game 1 of 6000 (a vs b)\n")
    assert sprt_join.main([str(started)]) == 2
    assert sprt_join.main([str(tmp_path / "missing.log")]) == 2
    err = capsys.readouterr().err
    assert "no 'Ptnml(0-2)" in err and "missing.log" in err
