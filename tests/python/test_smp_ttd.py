"""smp_ttd.py's parsing of `horizon bench` output and its ratios."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import smp_ttd  # noqa: E402

BENCH = """\
bench.01 opening            -24       21702 nodes       17 ms   1276588 nps  bestmove d2d3
bench.02 opening             97       33512 nodes       30 ms   1117066 nps  bestmove f1c4
thread 0: mean depth 8.00 nodes 545910 nps 621577 line played 48/48
2220290 nodes 622248 nps
"""


def test_parse_bench_reads_every_position_time():
    assert smp_ttd.parse_bench(BENCH) == {"bench.01 opening": 17, "bench.02 opening": 30}


def test_ratios_total_and_geometric_mean():
    single = [{"a": 400, "b": 100}, {"a": 400, "b": 100}]
    double = [{"a": 200, "b": 100}, {"a": 200, "b": 100}]
    total, geometric = smp_ttd.ratios(single, double)
    assert total == pytest.approx(500 / 300)
    assert geometric == pytest.approx(2 ** 0.5)


def test_ratios_need_common_positions():
    with pytest.raises(ValueError):
        smp_ttd.ratios([{"a": 1}], [{"b": 1}])
