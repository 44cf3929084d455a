//! The network's vector kernels: row updates of the accumulator and the output layer's
//! activated dot product.
//!
//! Each kernel is written once as plain loops over fixed-size arrays, which the compiler
//! vectorises, and compiled twice: for the build's baseline (SSE2 on x86-64, whatever the
//! target has elsewhere) and, on x86-64, with AVX2 enabled, chosen at run time by
//! [`Simd::detect`]. Integer arithmetic wraps the same way in both, so they give identical
//! results (tested in `tests/nnue.rs`). The exception is the SCReLU dot product, written
//! with AVX2 intrinsics: the plain loop's exact 64-bit sums compile to slow widening code,
//! while `madd` keeps it in 32-bit lanes, still exact (the doc comments bound every sum;
//! tested against the plain loop at the extremes). Speed figures are in `docs/speed.md`.

use super::{HIDDEN, QA};

/// One row of first-layer weights or one perspective's accumulator, aligned for vector loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row(pub [i16; HIDDEN]);

impl Row {
    pub const ZERO: Row = Row([0; HIDDEN]);
}

/// An output-weight row split for the vector dot products: `w = 256·high + low`, with
/// `low` in `-128..=127` and `high` in `-128..=128`, so that `v·high` and `v·low` fit in
/// `i16` for every activation `v` in `0..=QA` (at most 255 · 128 = 32,640). Made once
/// when the network is read; the portable kernel reads the unsplit row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitRow {
    pub high: Row,
    pub low: Row,
}

impl SplitRow {
    pub fn new(w: &Row) -> SplitRow {
        let mut split = SplitRow {
            high: Row::ZERO,
            low: Row::ZERO,
        };
        for (i, &w) in w.0.iter().enumerate() {
            let w = i32::from(w);
            let low = ((w + 128) & 255) - 128;
            split.low.0[i] = low as i16;
            split.high.0[i] = ((w - low) >> 8) as i16;
        }
        split
    }
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

    /// `dst = src + add − sub1 − sub2`, lane by lane (a capture: one pass, not two).
    #[inline]
    pub fn add_sub_sub(self, dst: &mut Row, src: &Row, add: &Row, sub1: &Row, sub2: &Row) {
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add_sub`.
            Simd::Avx2 => unsafe { avx2::add_sub_sub(dst, src, add, sub1, sub2) },
            _ => add_sub_sub(dst, src, add, sub1, sub2),
        }
    }

    /// `dst += add − sub` (castling's rook, after its king).
    #[inline]
    pub fn add_sub_in_place(self, dst: &mut Row, add: &Row, sub: &Row) {
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add_sub`.
            Simd::Avx2 => unsafe { avx2::add_sub_in_place(dst, add, sub) },
            _ => add_sub_in_place(dst, add, sub),
        }
    }

    /// `dst += add` (a sum from scratch or a rebuild, one active feature at a time).
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

    /// The output layer's sum for SCReLU: `Σ clamp(us, 0, QA)² · w[0] + Σ clamp(them, 0,
    /// QA)² · w[1]`, exact in `i64`; the vector kernel reads the same weights as `split`.
    #[inline]
    pub fn screlu_pair(self, us: &Row, them: &Row, w: &[Row; 2], split: &[SplitRow; 2]) -> i64 {
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `add_sub`.
            Simd::Avx2 => unsafe { avx2::screlu_pair(us, them, split) },
            _ => screlu_dot(us, &w[0]) + screlu_dot(them, &w[1]),
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
fn add_sub_sub(dst: &mut Row, src: &Row, add: &Row, sub1: &Row, sub2: &Row) {
    for i in 0..HIDDEN {
        dst.0[i] = src.0[i]
            .wrapping_add(add.0[i])
            .wrapping_sub(sub1.0[i])
            .wrapping_sub(sub2.0[i]);
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
    use super::{HIDDEN, QA, Row, SplitRow};
    use std::arch::x86_64::{__m256i, _mm256_load_si256, _mm256_storeu_si256};

    /// Values per 256-bit vector.
    const LANES: usize = 16;
    const _: () = assert!(HIDDEN.is_multiple_of(LANES));

    /// The `chunk`-th 16 values of `row`.
    #[inline(always)]
    fn load(row: &Row, chunk: usize) -> __m256i {
        // SAFETY: `Row` is 64-byte aligned and holds `HIDDEN` values, a multiple of 16, so
        // every chunk of 16 is in bounds and 32-byte aligned; the callers enable AVX2.
        unsafe { _mm256_load_si256(row.0.as_ptr().add(chunk * LANES).cast()) }
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn add_sub(dst: &mut Row, src: &Row, add: &Row, sub: &Row) {
        super::add_sub(dst, src, add, sub)
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn add_sub_sub(dst: &mut Row, src: &Row, add: &Row, sub1: &Row, sub2: &Row) {
        super::add_sub_sub(dst, src, add, sub1, sub2)
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

    /// `256 · Σ high + Σ low` over the 8 lanes of each, summed in `i64`.
    #[target_feature(enable = "avx2")]
    fn weighted_sum(high: __m256i, low: __m256i) -> i64 {
        let mut lanes = [[0i32; 8]; 2];
        // SAFETY: each destination is 8 `i32`s, 32 bytes; unaligned stores.
        unsafe {
            _mm256_storeu_si256(lanes[0].as_mut_ptr().cast(), high);
            _mm256_storeu_si256(lanes[1].as_mut_ptr().cast(), low);
        }
        let sum = |lanes: &[i32; 8]| lanes.iter().map(|&s| i64::from(s)).sum::<i64>();
        256 * sum(&lanes[0]) + sum(&lanes[1])
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn crelu_dot(x: &Row, w: &Row) -> i64 {
        super::crelu_dot(x, w)
    }

    /// The output layer's SCReLU sum over both perspectives with split weights
    /// ([`SplitRow`]): `v²·w = 256·v·(v·high) + v·(v·low)`, each inner product exact in
    /// 16 bits, each outer one summed pairwise into 32-bit lanes by `madd`. Bounds: every
    /// product is at most 255 · 32,640 in size, and each of the 8 lanes sums `HIDDEN / 4`
    /// of them per accumulator (`HIDDEN / 16` chunks of both perspectives, two products a
    /// chunk), below 2³¹ for `HIDDEN` up to 1,024.
    #[target_feature(enable = "avx2")]
    pub(super) fn screlu_pair(us: &Row, them: &Row, split: &[SplitRow; 2]) -> i64 {
        use std::arch::x86_64::*;
        const _: () = assert!((HIDDEN / 4) as i64 * 255 * 32_640 < 1 << 31);
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut high = zero;
        let mut low = zero;
        for (x, w) in [(us, &split[0]), (them, &split[1])] {
            for chunk in 0..HIDDEN / LANES {
                let (x, h, l) = (load(x, chunk), load(&w.high, chunk), load(&w.low, chunk));
                let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
                high = _mm256_add_epi32(high, _mm256_madd_epi16(v, _mm256_mullo_epi16(v, h)));
                low = _mm256_add_epi32(low, _mm256_madd_epi16(v, _mm256_mullo_epi16(v, l)));
            }
        }
        weighted_sum(high, low)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The vector kernel, where this processor runs it.
    fn vector_kernel() -> Option<Simd> {
        let avx2 = Some(Simd::Avx2).filter(|&simd| simd.checked() == simd);
        if avx2.is_none() {
            eprintln!("skipped: this processor has no AVX2, only the portable kernels run");
        }
        avx2
    }

    /// The split weights add up to the row they were made from, within the bounds the
    /// vector kernels are argued for, over every `i16`.
    #[test]
    fn split_rows_recompose_every_weight() {
        let mut w = Row::ZERO;
        for chunk in (i16::MIN..=i16::MAX).collect::<Vec<_>>().chunks(HIDDEN) {
            w.0[..chunk.len()].copy_from_slice(chunk);
            let split = SplitRow::new(&w);
            for i in 0..chunk.len() {
                let (h, l) = (i32::from(split.high.0[i]), i32::from(split.low.0[i]));
                assert_eq!(256 * h + l, i32::from(w.0[i]));
                assert!(
                    (-128..=127).contains(&l) && (-128..=128).contains(&h),
                    "{h} {l}"
                );
            }
        }
    }

    /// The vector dot products equal the portable ones exactly, on rows at the extremes
    /// that the 32-bit lanes' bounds are argued for: every weight from `i16::MIN` to
    /// `i16::MAX`, accumulators below zero, inside `0..=QA` and above it.
    #[test]
    fn vector_dot_products_are_exact_at_the_extremes() {
        let mut rng = StdRng::seed_from_u64(17);
        let full = |rng: &mut StdRng| Row(std::array::from_fn(|_| rng.random::<i16>()));
        let mut cases = vec![
            (Row([QA as i16; HIDDEN]), Row([i16::MAX; HIDDEN])),
            (Row([QA as i16; HIDDEN]), Row([i16::MIN; HIDDEN])),
            (Row([i16::MAX; HIDDEN]), Row([i16::MIN; HIDDEN])),
            (Row([i16::MIN; HIDDEN]), Row([i16::MAX; HIDDEN])),
            (Row([1; HIDDEN]), Row([-1; HIDDEN])),
        ];
        for _ in 0..2_000 {
            let x = Row(std::array::from_fn(|_| rng.random_range(-300..=300)));
            cases.push((x, full(&mut rng)));
            cases.push((full(&mut rng), full(&mut rng)));
            let edge = [i16::MIN, i16::MIN + 1, -1, 0, 1, i16::MAX - 1, i16::MAX];
            let w = Row(std::array::from_fn(|_| {
                edge[rng.random_range(0..edge.len())]
            }));
            cases.push((x, w));
        }
        for simd in vector_kernel() {
            for (x, w) in &cases {
                assert_eq!(simd.crelu_dot(x, w), Simd::Portable.crelu_dot(x, w));
            }
            // Both perspectives at once, each case's row against the next case's.
            for pair in cases.windows(2) {
                let [(us, w_us), (them, w_them)] = pair else {
                    unreachable!()
                };
                let w = [*w_us, *w_them];
                let split = [SplitRow::new(w_us), SplitRow::new(w_them)];
                assert_eq!(
                    simd.screlu_pair(us, them, &w, &split),
                    Simd::Portable.screlu_pair(us, them, &w, &split),
                    "{simd:?} {us:?} {them:?} {w:?}"
                );
            }
            let top = HIDDEN as i64 * i64::from(QA * QA) * i64::from(i16::MAX);
            let (x, w) = &cases[0];
            let split = [SplitRow::new(w), SplitRow::new(w)];
            assert_eq!(simd.screlu_pair(x, x, &[*w, *w], &split), 2 * top);
            let (x, w) = &cases[1];
            let split = [SplitRow::new(w), SplitRow::new(w)];
            assert_eq!(
                simd.screlu_pair(x, x, &[*w, *w], &split),
                -2 * top - 2 * HIDDEN as i64 * i64::from(QA * QA)
            );
        }
    }

    /// The update kernels equal the portable ones, wrapping included.
    #[test]
    fn vector_updates_equal_the_portable_ones() {
        let mut rng = StdRng::seed_from_u64(23);
        let row = |rng: &mut StdRng| Row(std::array::from_fn(|_| rng.random::<i16>()));
        for simd in vector_kernel() {
            for _ in 0..200 {
                let [src, a, s1, s2] = std::array::from_fn(|_| row(&mut rng));
                let (mut fast, mut portable) = (row(&mut rng), Row::ZERO);
                simd.add_sub(&mut fast, &src, &a, &s1);
                Simd::Portable.add_sub(&mut portable, &src, &a, &s1);
                assert_eq!(fast, portable, "{simd:?} add_sub");
                simd.add_sub_sub(&mut fast, &src, &a, &s1, &s2);
                Simd::Portable.add_sub_sub(&mut portable, &src, &a, &s1, &s2);
                assert_eq!(fast, portable, "{simd:?} add_sub_sub");
                simd.add_sub_in_place(&mut fast, &a, &s2);
                Simd::Portable.add_sub_in_place(&mut portable, &a, &s2);
                assert_eq!(fast, portable, "{simd:?} add_sub_in_place");
                simd.add(&mut fast, &s1);
                Simd::Portable.add(&mut portable, &s1);
                assert_eq!(fast, portable, "{simd:?} add");
                simd.sub(&mut fast, &a);
                Simd::Portable.sub(&mut portable, &a);
                assert_eq!(fast, portable, "{simd:?} sub");
            }
        }
    }
}
