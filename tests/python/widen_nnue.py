#!/usr/bin/env python3
"""Widen a Horizon network file (`HZNN`, crates/chess/src/nnue/network.rs) to more hidden
neurons without changing a single evaluation, so that a wider build can be fine-tuned from
a trained network instead of from scratch (Net2WiderNet, Chen, Goodfellow and Shlens 2015,
in its simplest form).

The old neurons keep their weights. Each new neuron gets a zero bias, small random
first-layer weights (uniform in +-`--spread`, quantised units: the trainer's fresh `W1` is
+-1/sqrt(32), about 45) and zero output weights: it contributes nothing until training gives
its output weights a value, and its random inputs give it a gradient from the first step.

    python3 tests/python/widen_nnue.py net.nnue --hidden 512 --out wide.nnue [--seed 1]
"""

import argparse
import random
import struct
import sys

HEADER = 32
INPUTS = 768
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK = (1 << 64) - 1


def fnv1a(data, h=FNV_OFFSET):
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & MASK
    return h


def content_hash(payload, king_mirrored):
    h = fnv1a(payload)
    return fnv1a(b"hm", h) if king_mirrored else h


class NetworkFile:
    """The header fields and the weights of a network file, as plain lists."""

    def __init__(self, data):
        if len(data) < HEADER or data[:4] != b"HZNN":
            raise ValueError("not a Horizon network file (magic HZNN)")
        version, inputs, hidden, buckets = struct.unpack_from("<4H", data, 4)
        if version != 1 or inputs != INPUTS:
            raise ValueError(f"format version {version}, {inputs} inputs: not readable here")
        self.header = bytearray(data[:HEADER])
        self.king_mirrored = data[13] == 1
        expected = HEADER + 2 * (INPUTS * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
        if len(data) != expected:
            raise ValueError(f"{len(data)} bytes, the header announces {expected}")
        payload = data[HEADER:]
        (stored,) = struct.unpack_from("<Q", data, 24)
        if stored != content_hash(payload, self.king_mirrored):
            raise ValueError("hash mismatch: the file is damaged")
        n_i16 = INPUTS * hidden + hidden + buckets * 2 * hidden
        values = list(struct.unpack_from(f"<{n_i16}h", payload))
        self.ft_weights = [values[i * hidden : (i + 1) * hidden] for i in range(INPUTS)]
        at = INPUTS * hidden
        self.ft_bias = values[at : at + hidden]
        at += hidden
        # Per bucket: the mover's half, then the other's.
        self.out_weights = [
            [values[at + (2 * b + h) * hidden : at + (2 * b + h + 1) * hidden] for h in range(2)]
            for b in range(buckets)
        ]
        self.out_bias = list(struct.unpack_from(f"<{buckets}i", payload, 2 * n_i16))

    @property
    def hidden(self):
        return len(self.ft_bias)

    def to_bytes(self):
        hidden = self.hidden
        values = [w for row in self.ft_weights for w in row] + self.ft_bias
        values += [w for bucket in self.out_weights for half in bucket for w in half]
        payload = struct.pack(f"<{len(values)}h", *values)
        payload += struct.pack(f"<{len(self.out_bias)}i", *self.out_bias)
        header = bytearray(self.header)
        struct.pack_into("<H", header, 8, hidden)
        struct.pack_into("<Q", header, 24, content_hash(payload, self.king_mirrored))
        return bytes(header) + payload


def widen(net, hidden, spread, seed):
    """`net` with `hidden` neurons per perspective: the new ones as the module says."""
    if hidden <= net.hidden:
        raise ValueError(f"the file has {net.hidden} neurons; {hidden} is not wider")
    if not 0 <= spread <= 505:
        raise ValueError("the spread must lie in 0..=505 (the trainer's first-layer clip)")
    extra = hidden - net.hidden
    rng = random.Random(seed)
    net.ft_weights = [row + [rng.randint(-spread, spread) for _ in range(extra)] for row in net.ft_weights]
    net.ft_bias = net.ft_bias + [0] * extra
    net.out_weights = [[half + [0] * extra for half in bucket] for bucket in net.out_weights]
    return net


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("network")
    parser.add_argument("--hidden", type=int, required=True, help="neurons per perspective after")
    parser.add_argument("--spread", type=int, default=45, help="new first-layer weights in +-spread")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    try:
        with open(args.network, "rb") as f:
            net = NetworkFile(f.read())
        wide = widen(net, args.hidden, args.spread, args.seed)
    except (OSError, ValueError) as e:
        print(f"widen_nnue: {e}", file=sys.stderr)
        return 1
    with open(args.out, "wb") as f:
        f.write(wide.to_bytes())
    print(f"{args.network}: {args.hidden} neurons -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
