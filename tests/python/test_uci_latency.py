"""uci_latency.py's summary (the timing itself needs an engine; it reads positions with
uci_epd.read_fens, tested in test_uci_epd.py)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import uci_latency  # noqa: E402


def test_summary_counts_and_percentiles():
    times = [float(t) for t in range(1, 101)]  # 1..100 ms
    s = uci_latency.summary(times, 120)
    assert s["moves"] == 100
    assert s["mean"] == pytest.approx(50.5)
    assert s["p50"] == 51.0
    assert s["p99"] == 100.0
    assert s["max"] == 100.0
    assert s["over_half_clock"] == 40  # 61..100
    assert s["over_clock"] == 0
    assert uci_latency.summary([130.0, 10.0], 120)["over_clock"] == 1
    with pytest.raises(ValueError):
        uci_latency.summary([], 100)

