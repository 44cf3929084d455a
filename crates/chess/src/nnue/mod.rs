//! The neural evaluation: an efficiently updatable network (NNUE, Yu Nasu 2018) of the
//! simplest kind that plays well, a perspective network `768 → HIDDEN ×2 → 1`.
//!
//! - Inputs: for each side's perspective, one feature per piece, `(ours/theirs, role,
//!   square)` with the board mirrored vertically for Black, so the side's own pieces always
//!   "move up" ([`feature`]); with [`Inputs::KingMirrored`] also mirrored left to right
//!   while the perspective's own king stands on files a-d ([`king_flip`]).
//! - The first layer is an accumulator per perspective, the sum of the weight rows of the
//!   active features plus a bias, kept incrementally in the ply stack
//!   ([`accumulator`]): a move adds and removes two to four rows instead of summing thirty.
//! - The output: the mover's accumulator, then the other one, through CReLU or SCReLU
//!   (squared clipped ReLU), dotted with the output weights of the material bucket.
//!
//! Weights are quantised to `i16` (first layer scale [`QA`], output scale [`QB`] or the
//! file's own); the output is summed exactly in `i64`; the file
//! format is in [`network`]; the vector kernels in [`simd`] run on AVX2 when the processor
//! has it and otherwise on portable code (tested to give identical results).

pub mod accumulator;
pub mod network;
pub mod simd;

pub use accumulator::{Accumulator, Dirty, NnueStack};
pub use network::{Activation, Inputs, Network, NetworkError, QuantisedWeights};

use shakmaty::{Color, Role, Square};

/// Inputs per perspective: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;

/// Neurons per perspective in the first layer (fixed at build time; a file must match):
/// 256, or 512 with the `wide` feature.
pub const HIDDEN: usize = if cfg!(feature = "wide") { 512 } else { 256 };

/// Quantisation scale of the first layer (activations clip at `QA`, which stands for 1.0).
pub const QA: i32 = 255;

/// Quantisation scale of the output weights that this build writes. A file records its own
/// scale and any power of two reads (the first networks used 64; at 1,024 the rounding of
/// the output weights costs well under a centipawn).
pub const QB: i32 = 1024;
const _: () = assert!(QB > 0 && QB <= i16::MAX as i32 && (QB as u32).is_power_of_two());

/// Centipawns per unit of the network's float output (the trainer's sigmoid scale).
pub const SCALE: i32 = 400;

/// The input index of a `color` `role` on `square`, seen from `perspective`, whose squares
/// are XORed with `flip` ([`king_flip`]: 0, or 7 to mirror them left to right).
#[inline(always)]
pub fn feature(perspective: Color, color: Color, role: Role, square: Square, flip: usize) -> usize {
    let theirs = usize::from(color != perspective);
    let square = match perspective {
        Color::White => square as usize ^ flip,
        Color::Black => square as usize ^ 56 ^ flip,
    };
    (theirs * 6 + (role as usize - 1)) * 64 + square
}

/// The square flip of a perspective whose king stands on `king`: 7 (files a-d mirrored
/// onto h-e) where the inputs are [`Inputs::KingMirrored`] and the king is on files a-d,
/// else 0. Horizontal king mirroring: the network sees its own king on files e-h only, so
/// what it learns of a king-side position also serves the queen-side one (as in
/// Stockfish's `HalfKAv2_hm` inputs, here without king buckets).
#[inline(always)]
pub fn king_flip(inputs: Inputs, king: Square) -> usize {
    match inputs {
        Inputs::Plain => 0,
        Inputs::KingMirrored => usize::from((king as usize & 7) < 4) * 7,
    }
}

/// The output bucket of a position with `pieces` pieces on the board (kings included),
/// among `buckets` buckets of equal width over 2..=32 pieces.
#[inline(always)]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let width = 32usize.div_ceil(buckets);
    ((pieces.saturating_sub(2) as usize) / width).min(buckets - 1)
}
