//! The network's vector kernels: row updates of the accumulator and the output layer's
//! activated dot product.
//!
//! Each kernel is written once as plain loops over fixed-size arrays, which the compiler
//! vectorises, and compiled twice: for the build's baseline (SSE2 on x86-64, whatever the
//! target has elsewhere) and, on x86-64, with AVX2 enabled, chosen at run time by
//! [`Simd::detect`]. Integer arithmetic wraps the same way in both, so they give identical
//! results (tested in `tests/nnue.rs`); `horizon bench --set`-style speed comparisons are in
//! `docs/nnue.md`.

use super::{HIDDEN, QA};

/// One row of first-layer weights or one perspective's accumulator, aligned for vector loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row(pub [i16; HIDDEN]);

impl Row {
    pub const ZERO: Row = Row([0; HIDDEN]);
}

/// Which compiled version of the kernels runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simd {
    /// The build's baseline instructions.
    Portable,
    /// x86-64 AVX2 (only chosen when the processor has it).
    Avx2,
}

impl Simd {
    /// The fastest version this processor runs.
    pub fn detect() -> Simd {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Simd::Avx2;
        }
        Simd::Portable
    }

    /// `Avx2` only where the processor has it; `Portable` otherwise.
    pub fn checked(self) -> Simd {
        match self {
            Simd::Avx2 if Simd::detect() == Simd::Avx2 => Simd::Avx2,
            _ => Simd::Portable,
        }
    }

    /// `dst = src + add − sub`, lane by lane.
    #[inline]
    pub fn add_sub(self, dst: &mut Row, src: &Row, add: &Row, sub: &Row) {
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Avx2` is only constructed after `is_x86_feature_detected!("avx2")`
            // (`detect`, `checked`), so the processor runs the instructions.
            Simd::Avx2 => unsafe { avx2::add_sub(dst, src, add, sub) },
            _ => add_sub(dst, src, add, sub),
        }
    }

    /// `dst += add − sub` (the extra rows of a capture or castling).
    #[inline]
    pub fn add_sub_in_place(self, dst: &mut Row, add: &Row, sub: &Row) {
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add_sub`.
            Simd::Avx2 => unsafe { avx2::add_sub_in_place(dst, add, sub) },
            _ => add_sub_in_place(dst, add, sub),
        }
    }

    /// `dst += add` (a refresh from scratch, one active feature at a time).
    #[inline]
    pub fn add(self, dst: &mut Row, row: &Row) {
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add_sub`.
            Simd::Avx2 => unsafe { avx2::add(dst, row) },
            _ => add(dst, row),
        }
    }

    /// `dst −= sub`.
    #[inline]
    pub fn sub(self, dst: &mut Row, row: &Row) {
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add_sub`.
            Simd::Avx2 => unsafe { avx2::sub(dst, row) },
            _ => sub(dst, row),
        }
    }

    /// `Σ clamp(x, 0, QA)² · w`, exact in `i64`.
    #[inline]
    pub fn screlu_dot(self, x: &Row, w: &Row) -> i64 {
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add_sub`.
            Simd::Avx2 => unsafe { avx2::screlu_dot(x, w) },
            _ => screlu_dot(x, w),
        }
    }

    /// `Σ clamp(x, 0, QA) · w`, exact in `i64`.
    #[inline]
    pub fn crelu_dot(self, x: &Row, w: &Row) -> i64 {
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add_sub`.
            Simd::Avx2 => unsafe { avx2::crelu_dot(x, w) },
            _ => crelu_dot(x, w),
        }
    }
}

#[inline(always)]
fn add_sub(dst: &mut Row, src: &Row, add: &Row, sub: &Row) {
    for i in 0..HIDDEN {
        dst.0[i] = src.0[i].wrapping_add(add.0[i]).wrapping_sub(sub.0[i]);
    }
}

#[inline(always)]
fn add_sub_in_place(dst: &mut Row, add: &Row, sub: &Row) {
    for i in 0..HIDDEN {
        dst.0[i] = dst.0[i].wrapping_add(add.0[i]).wrapping_sub(sub.0[i]);
    }
}

#[inline(always)]
fn add(dst: &mut Row, add: &Row) {
    for i in 0..HIDDEN {
        dst.0[i] = dst.0[i].wrapping_add(add.0[i]);
    }
}

#[inline(always)]
fn sub(dst: &mut Row, sub: &Row) {
    for i in 0..HIDDEN {
        dst.0[i] = dst.0[i].wrapping_sub(sub.0[i]);
    }
}

#[inline(always)]
fn screlu_dot(x: &Row, w: &Row) -> i64 {
    let mut sum = 0i64;
    for i in 0..HIDDEN {
        let v = i32::from(x.0[i].clamp(0, QA as i16));
        // v·w·v fits in i32 for every i16 weight (255 · 32767 · 255 < 2^31); the sum of
        // HIDDEN of them may not, so it is kept in i64: exact for any network.
        sum += i64::from(v * i32::from(w.0[i]) * v);
    }
    sum
}

#[inline(always)]
fn crelu_dot(x: &Row, w: &Row) -> i64 {
    let mut sum = 0i64;
    for i in 0..HIDDEN {
        let v = i32::from(x.0[i].clamp(0, QA as i16));
        sum += i64::from(v * i32::from(w.0[i]));
    }
    sum
}

/// The same kernels compiled with AVX2.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::Row;

    #[target_feature(enable = "avx2")]
    pub(super) fn add_sub(dst: &mut Row, src: &Row, add: &Row, sub: &Row) {
        super::add_sub(dst, src, add, sub)
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn add_sub_in_place(dst: &mut Row, add: &Row, sub: &Row) {
        super::add_sub_in_place(dst, add, sub)
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn add(dst: &mut Row, add: &Row) {
        super::add(dst, add)
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn sub(dst: &mut Row, sub: &Row) {
        super::sub(dst, sub)
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn screlu_dot(x: &Row, w: &Row) -> i64 {
        super::screlu_dot(x, w)
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn crelu_dot(x: &Row, w: &Row) -> i64 {
        super::crelu_dot(x, w)
    }
}
