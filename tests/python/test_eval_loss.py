"""eval_loss.py: the record reader, the engine's blend rounding and the losses on known data."""

import io
import math
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import eval_loss  # noqa: E402

RECORDS = """\
8/4r3/7P/8/6P1/8/k4K2/8 w - - 0 1 | 0.5 | -94

3R4/8/8/8/3K4/p6p/4k3/8 w - - 0 1 | 1.0 | 412
"""


def test_reads_records_and_counts_men():
    records = eval_loss.read_records(io.StringIO(RECORDS))
    assert records == [
        ("8/4r3/7P/8/6P1/8/k4K2/8 w - - 0 1", 0.5, -94),
        ("3R4/8/8/8/3K4/p6p/4k3/8 w - - 0 1", 1.0, 412),
    ]
    assert [eval_loss.men(fen) for fen, _, _ in records] == [5, 5]
    assert eval_loss.men("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") == 32


def test_a_record_without_its_score_is_an_error():
    with pytest.raises(ValueError, match="line 1"):
        eval_loss.read_records(io.StringIO("8/8/8/8/8/8/k7/K7 w - - 0 1 | 0.5\n"))
    with pytest.raises(ValueError, match="line 2"):
        eval_loss.read_records(io.StringIO("8/8/8/8/8/8/k7/K7 w - - 0 1 | 0.5 | 0\nx | y | z\n"))


def test_blend_rounds_toward_zero_as_the_engine_does():
    assert eval_loss.blend(100, 200, 0) == 100
    assert eval_loss.blend(100, 200, 100) == 200
    assert eval_loss.blend(100, 201, 50) == 150  # 150.5
    assert eval_loss.blend(-100, -201, 50) == -150  # -150.5
    assert eval_loss.blend(-7, 0, 75) == -1  # -1.75
    assert eval_loss.blend(7, 0, 75) == 1


def test_losses_on_known_values():
    # sigmoid(0) = 0.5: a loss of 0.25 against a win or a loss, 0 against a draw.
    assert eval_loss.result_loss([0, 0, 0], [1.0, 0.0, 0.5]) == pytest.approx(0.5 / 3)
    # 400 cp: sigmoid(1) against a win.
    expected = (1 / (1 + math.exp(-1)) - 1) ** 2
    assert eval_loss.result_loss([400], [1.0]) == pytest.approx(expected)
    assert eval_loss.result_loss([200], [1.0], scale=2.0) == pytest.approx(expected)
    with pytest.raises(ValueError):
        eval_loss.result_loss([], [])


def test_the_best_scale_undoes_a_spread():
    # Values twice as spread as the ones that fit best are best at scale 0.5.
    fitted = [-300, -120, 0, 80, 250, 400]
    results = [1 / (1 + math.exp(-v / 400)) for v in fitted]
    loss, scale = eval_loss.best_scale([2 * v for v in fitted], results)
    assert scale == pytest.approx(0.5)
    assert loss == pytest.approx(0.0, abs=1e-12)


def test_rows_score_every_evaluation_and_blend():
    records = eval_loss.read_records(io.StringIO(RECORDS))
    pairs = [(-40, -80), (300, 500)]  # (classic, network) per record
    table = eval_loss.rows(records, pairs, [50])
    names = ["network", "classic", "blend 50", "the games' search scores"]
    assert [name for name, *_ in table] == names
    means = {name: mean for name, mean, *_ in table}
    assert means == dict(zip(names, [290, 170, 230, 253]))
    by_name = {name: loss for name, _, loss, _, _ in table}
    results = [0.5, 1.0]
    assert by_name["blend 50"] == pytest.approx(eval_loss.result_loss([-60, 400], results))


def test_bad_arguments_are_reported_not_raised(tmp_path, capsys):
    data = tmp_path / "val.txt"
    data.write_text(RECORDS)
    assert eval_loss.main(["--data", str(data), "--sample", "0"]) == 1
    assert "--sample" in capsys.readouterr().err
    assert eval_loss.main(["--data", str(data), "--blends", "120"]) == 1
    assert eval_loss.main(["--data", str(data), "--min-men", "7", "--max-men", "8"]) == 1
    assert "no positions of 7 to 8 men" in capsys.readouterr().err
    assert eval_loss.main(["--data", str(tmp_path / "missing.txt")]) == 1
