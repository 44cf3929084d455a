"""widen_nnue.py: a widened network keeps every old weight, adds silent neurons, and
writes a file whose header and hash the engine's reader accepts."""

import os
import struct
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import widen_nnue  # noqa: E402

BUILT_IN = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "crates", "chess", "nets", "default.nnue"
)


def small_network(hidden=16, buckets=2, king_mirrored=True):
    """A valid file with distinct weights, so that any misplaced value shows."""
    header = bytearray(32)
    header[:4] = b"HZNN"
    struct.pack_into("<4H", header, 4, 1, 768, hidden, buckets)
    header[12], header[13] = 1, int(king_mirrored)
    struct.pack_into("<3h", header, 16, 255, 1024, 400)
    n = 768 * hidden + hidden + buckets * 2 * hidden
    payload = struct.pack(f"<{n}h", *[(i * 7919) % 2001 - 1000 for i in range(n)])
    payload += struct.pack(f"<{buckets}i", *[123456 * (b + 1) for b in range(buckets)])
    struct.pack_into("<Q", header, 24, widen_nnue.content_hash(payload, king_mirrored))
    return bytes(header) + payload


def test_reading_and_writing_gives_the_same_bytes():
    data = small_network()
    assert widen_nnue.NetworkFile(data).to_bytes() == data


def test_the_built_in_network_round_trips():
    with open(BUILT_IN, "rb") as f:
        data = f.read()
    assert widen_nnue.NetworkFile(data).to_bytes() == data


def test_widening_keeps_old_neurons_and_silences_new_ones():
    old = widen_nnue.NetworkFile(small_network(hidden=16))
    wide = widen_nnue.NetworkFile(
        widen_nnue.widen(widen_nnue.NetworkFile(small_network(hidden=16)), 24, 45, 3).to_bytes()
    )
    assert wide.hidden == 24 and len(wide.ft_bias) == 24
    for before, after in zip(old.ft_weights, wide.ft_weights):
        assert after[:16] == before and len(after) == 24
        assert all(-45 <= w <= 45 for w in after[16:])
    assert any(w != 0 for row in wide.ft_weights for w in row[16:])
    assert wide.ft_bias == old.ft_bias + [0] * 8
    for b in range(2):
        for h in range(2):
            assert wide.out_weights[b][h] == old.out_weights[b][h] + [0] * 8
    assert wide.out_bias == old.out_bias


def test_damage_and_narrowing_are_refused():
    data = bytearray(small_network())
    data[100] ^= 1
    with pytest.raises(ValueError, match="hash"):
        widen_nnue.NetworkFile(bytes(data))
    with pytest.raises(ValueError, match="not wider"):
        widen_nnue.widen(widen_nnue.NetworkFile(small_network(hidden=16)), 16, 45, 1)
    with pytest.raises(ValueError, match="announces"):
        widen_nnue.NetworkFile(small_network()[:-1])


def test_the_command_reports_a_missing_file(tmp_path, capsys):
    assert widen_nnue.main([str(tmp_path / "none.nnue"), "--hidden", "512", "--out", str(tmp_path / "w")]) == 1
    assert "widen_nnue" in capsys.readouterr().err
