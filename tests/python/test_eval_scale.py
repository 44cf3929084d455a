"""eval_scale.py: the parser on Horizon's `eval` lines, and the statistics on known data."""

import io
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import eval_scale  # noqa: E402

EVAL_ANSWERS = """\
info string Phase 24/24, endgame scale 64/64; tapered (White view) +49
info string Final (black to move): -49 cp
info string network bf0eb93f37dcbae3 (built-in): -25 cp for the side to move (the search's evaluation)
info string Phase 0/24, endgame scale 64/64; tapered (White view) +114
info string Final (white to move): +114 cp
info string network bf0eb93f37dcbae3 (/nets/x.nnue): 143 cp for the side to move (the search's evaluation)
"""


def test_parses_both_values_in_order():
    assert eval_scale.parse_eval_output(EVAL_ANSWERS) == [(-49, -25), (114, 143)]


def test_unpaired_lines_are_an_error():
    without_network = "\n".join(l for l in EVAL_ANSWERS.splitlines() if "network" not in l)
    with pytest.raises(ValueError):
        eval_scale.parse_eval_output(without_network)


def test_exact_linear_scale():
    pairs = [(c, 3 * c // 2 + 10) for c in range(-600, 601, 20)]
    scale = eval_scale.summarize(pairs)
    assert scale.positions == len(pairs)
    assert scale.slope == pytest.approx(1.5)
    assert scale.intercept == pytest.approx(10.0)
    assert scale.correlation == pytest.approx(1.0)
    assert scale.sd_network == pytest.approx(1.5 * scale.sd_classic)


def test_cap_drops_won_positions_and_bands_count_the_rest():
    pairs = [(20, 30), (-100, -150), (300, 360), (2000, 2500), (500, 1600)]
    assert eval_scale.summarize(pairs).positions == 3
    bands = eval_scale.band_rows(pairs)
    assert [(label, n) for label, n, _, _ in bands] == [("0–49", 1), ("50–149", 1), ("150–399", 1)]
    assert bands[1][2:] == (100.0, 150.0)


def test_positions_skip_checks():
    pgn = '[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n'
    fens = list(eval_scale.game_positions(io.StringIO(pgn), 5))
    assert len(fens) == 3, "after f3, e5 and g4; the mate is a check"
    assert fens[-1].startswith("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2")


def test_positions_can_be_limited_by_men():
    pgn = '[Result "*"]\n\n1. e4 d5 2. exd5 Qxd5 *\n'
    fens = list(eval_scale.game_positions(io.StringIO(pgn), 1, (30, 31)))
    assert len(fens) == 2, "after exd5 (31 men) and Qxd5 (30); e4 and d5 leave 32"
    assert fens[0].startswith("rnbqkbnr/ppp1pppp/8/3P4")


def test_men_range_parses_and_rejects():
    assert eval_scale.men_range("3-6") == (3, 6)
    assert eval_scale.men_range("5") == (5, 5)
    for bad in ["6-3", "1-6", "3-33", "a-b"]:
        try:
            eval_scale.men_range(bad)
        except eval_scale.argparse.ArgumentTypeError:
            continue
        raise AssertionError(f"{bad!r} accepted")
