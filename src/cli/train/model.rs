//! The float network the trainer fits: the engine's `768 → HIDDEN ×2 → 1` perspective
//! network (see `horizon_chess::nnue`), in `f32`, with its forward and backward passes.
//!
//! For a position with the side to move's active features `U` and the other side's `T`:
//!
//! ```text
//! acc_us   = b1 + Σ_{f ∈ U} W1[f]          acc_them = b1 + Σ_{f ∈ T} W1[f]
//! y = Σ_j σ(acc_us[j]) · W2[k][j] + Σ_j σ(acc_them[j]) · W2[k][H + j] + b2[k]
//! p = sigmoid(y),  loss = (p − target)²
//! ```
//!
//! with `σ(x) = clamp(x, 0, 1)²` (SCReLU) or `clamp(x, 0, 1)` (CReLU), `k` the output bucket of
//! the piece count, and `y` in units of `SCALE` = 400 centipawns (the engine's score is
//! `400 · y`).
//!
//! Every parameter lives in one flat vector (so the optimiser, the gradient reduction and
//! the checkpoint treat them alike), in the order of the engine's file: `W1` input by input
//! (768 rows of `HIDDEN`), `b1`, `W2` bucket by bucket (the mover's half, then the other's),
//! `b2`.
//!
//! The passes run per position on fixed-size arrays, with no allocation, and the same code
//! is compiled twice, for the build's baseline and for AVX2 (chosen at run time, as the
//! engine's kernels are). Float operations are never reordered by the compiler, and the
//! output dot product sums 16 fixed lanes in both versions, so both give identical results.

use std::ops::Range;

use horizon_chess::nnue::{Activation, HIDDEN, INPUTS, Inputs, Network, QA, QB};
use horizon_chess::packed::PackedBoard;

use super::data::{Sample, sigmoid};
use super::rng::Rng;

/// Bound of the first layer's weights and biases. Quantised (`× QA` = 255, rounded) they
/// stay within ±[`W1_CLIP_Q`], and the engine's accumulator, the bias plus at most 32 rows,
/// within ±33 · 505 = ±16,665: inside `i16` (checked at compile time below), so the
/// accumulator's wrapping `i16` arithmetic never wraps.
pub const W1_CLIP: f32 = 1.98;
/// `round(W1_CLIP · QA)`.
pub const W1_CLIP_Q: i32 = 505;
const _: () = assert!(33 * W1_CLIP_Q <= i16::MAX as i32 && QA == 255);

/// Bound of the output weights, kept from the first networks (`127 / 64`, when the output
/// scale was 64). Quantised at [`QB`] they stay within ±[`W2_CLIP_Q`], inside `i16`; the
/// engine sums the output in `i64`, exactly, whatever the weights.
pub const W2_CLIP: f32 = 127.0 / 64.0;
/// `round(W2_CLIP · QB)`.
pub const W2_CLIP_Q: i32 = 2032;
const _: () = assert!(W2_CLIP_Q <= i16::MAX as i32 && QB == 1024);

/// Lanes of the output dot product (fixed, so that the sum's order does not depend on the
/// instruction set).
const LANES: usize = 16;
const _: () = assert!(HIDDEN.is_multiple_of(LANES));

/// Where each kind of parameter lies in the flat vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub buckets: usize,
}

/// A run of parameters with the same treatment by the optimiser.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    pub range: Range<usize>,
    /// Weight decay applies (weights, not biases).
    pub decay: bool,
    /// The clipping bound (`±clip`), or none.
    pub clip: Option<f32>,
}

impl Layout {
    pub const W1: usize = 0;
    pub const B1: usize = INPUTS * HIDDEN;
    pub const W2: usize = Self::B1 + HIDDEN;

    pub fn b2(&self) -> usize {
        Self::W2 + self.buckets * 2 * HIDDEN
    }

    pub fn len(&self) -> usize {
        self.b2() + self.buckets
    }

    /// The four kinds of parameters, in order, with their decay and clipping.
    pub fn segments(&self) -> [Segment; 4] {
        [
            Segment {
                range: Self::W1..Self::B1,
                decay: true,
                clip: Some(W1_CLIP),
            },
            Segment {
                range: Self::B1..Self::W2,
                decay: false,
                clip: Some(W1_CLIP),
            },
            Segment {
                range: Self::W2..self.b2(),
                decay: true,
                clip: Some(W2_CLIP),
            },
            Segment {
                range: self.b2()..self.len(),
                decay: false,
                clip: None,
            },
        ]
    }
}

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub layout: Layout,
    pub activation: Activation,
    /// How positions are decoded into features (the parameters' shape is the same).
    pub inputs: Inputs,
    pub params: Vec<f32>,
}

/// A read-only view of the parameters by kind.
pub struct Net<'a> {
    w1: &'a [[f32; HIDDEN]],
    b1: &'a [f32; HIDDEN],
    /// Row `2k` the mover's half of bucket `k`, row `2k + 1` the other side's.
    w2: &'a [[f32; HIDDEN]],
    b2: &'a [f32],
}

/// A writable view of a gradient by kind.
pub struct Grad<'a> {
    w1: &'a mut [[f32; HIDDEN]],
    b1: &'a mut [f32; HIDDEN],
    w2: &'a mut [[f32; HIDDEN]],
    b2: &'a mut [f32],
}

impl<'a> Net<'a> {
    pub fn new(params: &'a [f32], layout: Layout) -> Net<'a> {
        assert_eq!(params.len(), layout.len(), "parameter count");
        let (w1, rest) = params.split_at(Layout::B1);
        let (b1, rest) = rest.split_at(HIDDEN);
        let (w2, b2) = rest.split_at(layout.buckets * 2 * HIDDEN);
        Net {
            w1: w1.as_chunks().0,
            b1: b1.try_into().expect("HIDDEN values"),
            w2: w2.as_chunks().0,
            b2,
        }
    }
}

impl<'a> Grad<'a> {
    pub fn new(grad: &'a mut [f32], layout: Layout) -> Grad<'a> {
        assert_eq!(grad.len(), layout.len(), "gradient size");
        let (w1, rest) = grad.split_at_mut(Layout::B1);
        let (b1, rest) = rest.split_at_mut(HIDDEN);
        let (w2, b2) = rest.split_at_mut(layout.buckets * 2 * HIDDEN);
        Grad {
            w1: w1.as_chunks_mut().0,
            b1: b1.try_into().expect("HIDDEN values"),
            w2: w2.as_chunks_mut().0,
            b2,
        }
    }
}

impl Model {
    /// Fresh weights, seeded: `W1` uniform in ±1/√32 (a position has up to 32 active
    /// features, so an accumulator starts with a spread of about ±0.6, across the
    /// activation's bend), `W2` uniform in ±1/√(2·HIDDEN), biases zero.
    pub fn new(buckets: usize, activation: Activation, seed: u64) -> Model {
        let layout = Layout { buckets };
        let mut params = vec![0.0; layout.len()];
        let mut rng = Rng::new(seed, super::data::INIT_STREAM);
        let a1 = 1.0 / 32f32.sqrt();
        for w in &mut params[Layout::W1..Layout::B1] {
            *w = rng.symmetric(a1);
        }
        let a2 = 1.0 / ((2 * HIDDEN) as f32).sqrt();
        let b2 = layout.b2();
        for w in &mut params[Layout::W2..b2] {
            *w = rng.symmetric(a2);
        }
        Model {
            layout,
            activation,
            inputs: Inputs::Plain,
            params,
        }
    }

    /// Multiplies the output layer, the weights and the bias of every bucket, by `factor`:
    /// every evaluation is multiplied by it. Returns the factor as applied (`f32`); refused
    /// for a factor that is not positive or would take an output weight past ±`W2_CLIP`.
    pub fn scale_output(&mut self, factor: f64) -> anyhow::Result<f32> {
        let factor = factor as f32;
        anyhow::ensure!(
            factor.is_finite() && factor > 0.0,
            "cannot scale the output layer by {factor}"
        );
        let output = Layout::W2..self.layout.len();
        let largest = self.params[Layout::W2..self.layout.b2()]
            .iter()
            .fold(0.0f32, |m, w| m.max(w.abs()));
        anyhow::ensure!(
            largest * factor <= W2_CLIP,
            "scaling the output layer by {factor} takes a weight of {largest} past the \
             clipping bound {W2_CLIP}"
        );
        for w in &mut self.params[output] {
            *w *= factor;
        }
        Ok(factor)
    }

    /// The float weights of a quantised network (`horizon train --init`): each integer
    /// divided by its scale, so that quantising the model gives the network back exactly
    /// (`q / s · s` rounds to `q` in `f32` for every `i16` weight; an output bias, an `i32`
    /// at scale `QA · qb`, for any below about 40 in float units, far above a trained one).
    pub fn from_network(network: &Network) -> Model {
        let weights = network.weights();
        let layout = Layout {
            buckets: network.buckets(),
        };
        let qa = QA as f32;
        let qb = network.qb() as f32;
        let qab = f64::from(QA) * f64::from(network.qb());
        let params: Vec<f32> = weights
            .ft_weights
            .iter()
            .chain(&weights.ft_bias)
            .map(|&q| f32::from(q) / qa)
            .chain(weights.out_weights.iter().map(|&q| f32::from(q) / qb))
            .chain(
                weights
                    .out_bias
                    .iter()
                    .map(|&q| (f64::from(q) / qab) as f32),
            )
            .collect();
        debug_assert_eq!(params.len(), layout.len());
        Model {
            layout,
            activation: network.activation(),
            inputs: network.inputs(),
            params,
        }
    }

    pub fn net(&self) -> Net<'_> {
        Net::new(&self.params, self.layout)
    }

    /// The output `y` (units of 400 cp) for a decoded position.
    pub fn output(&self, sample: &Sample) -> f32 {
        let mut scratch = Scratch::default();
        let net = self.net();
        match self.activation {
            Activation::SCReLU => forward::<SqrClipped>(&net, sample, &mut scratch),
            Activation::CReLU => forward::<Clipped>(&net, sample, &mut scratch),
        }
    }

    /// `Σ (p − target)²` over `records[indices]` and its gradient, added to `grad` (a
    /// flat vector of the parameters' layout). The caller divides by the count.
    pub fn accumulate(
        &self,
        records: &[PackedBoard],
        indices: &[u32],
        lambda: f32,
        grad: &mut [f32],
    ) -> f64 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2 (checked just above).
            return unsafe { accumulate_avx2(self, records, indices, lambda, grad) };
        }
        accumulate_any(self, records, indices, lambda, grad)
    }

    /// `Σ (p − target)²` over `records[indices]`, without the gradient.
    pub fn loss(&self, records: &[PackedBoard], indices: &[u32], lambda: f32) -> f64 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2 (checked just above).
            return unsafe { loss_avx2(self, records, indices, lambda) };
        }
        loss_any(self, records, indices, lambda)
    }
}

/// The activation and its derivative.
pub trait Act {
    fn f(x: f32) -> f32;
    fn df(x: f32) -> f32;
}

/// SCReLU, `clamp(x, 0, 1)²`.
pub struct SqrClipped;
/// CReLU, `clamp(x, 0, 1)`.
pub struct Clipped;

impl Act for SqrClipped {
    #[inline(always)]
    fn f(x: f32) -> f32 {
        let c = x.clamp(0.0, 1.0);
        c * c
    }
    #[inline(always)]
    fn df(x: f32) -> f32 {
        if x > 0.0 && x < 1.0 { 2.0 * x } else { 0.0 }
    }
}

impl Act for Clipped {
    #[inline(always)]
    fn f(x: f32) -> f32 {
        x.clamp(0.0, 1.0)
    }
    #[inline(always)]
    fn df(x: f32) -> f32 {
        if x > 0.0 && x < 1.0 { 1.0 } else { 0.0 }
    }
}

/// One thread's working memory for a position (kept across positions).
#[derive(Clone)]
pub struct Scratch {
    acc_us: [f32; HIDDEN],
    acc_them: [f32; HIDDEN],
    d_us: [f32; HIDDEN],
    d_them: [f32; HIDDEN],
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            acc_us: [0.0; HIDDEN],
            acc_them: [0.0; HIDDEN],
            d_us: [0.0; HIDDEN],
            d_them: [0.0; HIDDEN],
        }
    }
}

#[inline(always)]
fn add(dst: &mut [f32; HIDDEN], row: &[f32; HIDDEN]) {
    for (d, r) in dst.iter_mut().zip(row) {
        *d += r;
    }
}

/// `Σ σ(x) · w` in [`LANES`] partial sums, added up in order.
#[inline(always)]
fn dot<A: Act>(x: &[f32; HIDDEN], w: &[f32; HIDDEN]) -> f32 {
    let mut lanes = [0.0f32; LANES];
    for (xs, ws) in x
        .as_chunks::<LANES>()
        .0
        .iter()
        .zip(w.as_chunks::<LANES>().0)
    {
        for k in 0..LANES {
            lanes[k] += A::f(xs[k]) * ws[k];
        }
    }
    lanes.iter().sum()
}

/// The output `y`, leaving the accumulators in `scratch` for [`backward`].
#[inline(always)]
pub fn forward<A: Act>(net: &Net, sample: &Sample, scratch: &mut Scratch) -> f32 {
    scratch.acc_us = *net.b1;
    scratch.acc_them = *net.b1;
    for &f in sample.us() {
        add(&mut scratch.acc_us, &net.w1[f]);
    }
    for &f in sample.them() {
        add(&mut scratch.acc_them, &net.w1[f]);
    }
    let k = sample.bucket;
    dot::<A>(&scratch.acc_us, &net.w2[2 * k])
        + dot::<A>(&scratch.acc_them, &net.w2[2 * k + 1])
        + net.b2[k]
}

/// Adds `g · ∂y/∂θ` to `grad`, after [`forward`] on the same sample; only the rows of the
/// active features of `W1` are touched.
#[inline(always)]
pub fn backward<A: Act>(
    net: &Net,
    sample: &Sample,
    scratch: &mut Scratch,
    g: f32,
    grad: &mut Grad,
) {
    let k = sample.bucket;
    let (w_us, w_them) = (&net.w2[2 * k], &net.w2[2 * k + 1]);
    let Scratch {
        acc_us,
        acc_them,
        d_us,
        d_them,
    } = scratch;
    let (gw_us, gw_them) = grad.w2[2 * k..2 * k + 2]
        .split_first_mut()
        .map(|(a, b)| (a, &mut b[0]))
        .expect("two rows");
    for j in 0..HIDDEN {
        gw_us[j] += g * A::f(acc_us[j]);
        gw_them[j] += g * A::f(acc_them[j]);
        d_us[j] = g * w_us[j] * A::df(acc_us[j]);
        d_them[j] = g * w_them[j] * A::df(acc_them[j]);
        grad.b1[j] += d_us[j] + d_them[j];
    }
    grad.b2[k] += g;
    for &f in sample.us() {
        add(&mut grad.w1[f], d_us);
    }
    for &f in sample.them() {
        add(&mut grad.w1[f], d_them);
    }
}

/// The loss of one position and its derivative by `y`.
#[inline(always)]
fn loss_and_slope(y: f32, target: f32) -> (f32, f32) {
    let p = sigmoid(y);
    let e = p - target;
    (e * e, 2.0 * e * p * (1.0 - p))
}

#[inline(always)]
fn accumulate_with<A: Act>(
    model: &Model,
    records: &[PackedBoard],
    indices: &[u32],
    lambda: f32,
    grad: &mut [f32],
) -> f64 {
    let net = model.net();
    let mut grad = Grad::new(grad, model.layout);
    let mut scratch = Scratch::default();
    let mut sample = Sample::default();
    let (buckets, inputs) = (model.layout.buckets, model.inputs);
    let mut total = 0.0f64;
    for &i in indices {
        sample.decode_index(records, i, lambda, buckets, inputs);
        let y = forward::<A>(&net, &sample, &mut scratch);
        let (loss, g) = loss_and_slope(y, sample.target);
        total += f64::from(loss);
        backward::<A>(&net, &sample, &mut scratch, g, &mut grad);
    }
    total
}

#[inline(always)]
fn accumulate_any(
    model: &Model,
    records: &[PackedBoard],
    indices: &[u32],
    lambda: f32,
    grad: &mut [f32],
) -> f64 {
    match model.activation {
        Activation::SCReLU => accumulate_with::<SqrClipped>(model, records, indices, lambda, grad),
        Activation::CReLU => accumulate_with::<Clipped>(model, records, indices, lambda, grad),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn accumulate_avx2(
    model: &Model,
    records: &[PackedBoard],
    indices: &[u32],
    lambda: f32,
    grad: &mut [f32],
) -> f64 {
    accumulate_any(model, records, indices, lambda, grad)
}

#[inline(always)]
fn loss_with<A: Act>(model: &Model, records: &[PackedBoard], indices: &[u32], lambda: f32) -> f64 {
    let net = model.net();
    let mut scratch = Scratch::default();
    let mut sample = Sample::default();
    let mut total = 0.0f64;
    for &i in indices {
        sample.decode_index(records, i, lambda, model.layout.buckets, model.inputs);
        let y = forward::<A>(&net, &sample, &mut scratch);
        total += f64::from(loss_and_slope(y, sample.target).0);
    }
    total
}

#[inline(always)]
fn loss_any(model: &Model, records: &[PackedBoard], indices: &[u32], lambda: f32) -> f64 {
    match model.activation {
        Activation::SCReLU => loss_with::<SqrClipped>(model, records, indices, lambda),
        Activation::CReLU => loss_with::<Clipped>(model, records, indices, lambda),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn loss_avx2(model: &Model, records: &[PackedBoard], indices: &[u32], lambda: f32) -> f64 {
    loss_any(model, records, indices, lambda)
}

#[cfg(test)]
mod tests {
    use super::super::data::tests::{FENS, chess};
    use super::*;
    use horizon_chess::packed::Outcome;

    fn records() -> Vec<PackedBoard> {
        FENS.iter()
            .enumerate()
            .map(|(i, fen)| {
                let outcome = [Outcome::Loss, Outcome::Draw, Outcome::Win][i % 3];
                PackedBoard::new(&chess(fen), 150 * i as i32 - 400, outcome).expect("packs")
            })
            .collect()
    }

    /// The loss of `model` over `records`, in f64 from the f32 output.
    fn total_loss(model: &Model, records: &[PackedBoard], lambda: f32) -> f64 {
        let mut sample = Sample::default();
        records
            .iter()
            .map(|r| {
                sample.decode(r, lambda, model.layout.buckets, model.inputs);
                let p = 1.0 / (1.0 + (-f64::from(model.output(&sample))).exp());
                (p - f64::from(sample.target)).powi(2)
            })
            .sum()
    }

    /// The analytic gradient against central differences, for both activations and with
    /// output buckets. Where a parameter sits on a bend of the activation (the one-sided
    /// differences disagree) it is skipped; most must be checked.
    #[test]
    fn gradient_matches_finite_differences() {
        let records = records();
        let lambda = 0.6;
        for (activation, buckets) in [(Activation::SCReLU, 1), (Activation::CReLU, 8)] {
            let mut model = Model::new(buckets, activation, 11);
            // Larger output weights and a bias, so that every part has a sizeable gradient.
            let mut rng = Rng::new(3, 0);
            let (w2, b1) = (Layout::W2..model.layout.b2(), Layout::B1..Layout::W2);
            for w in &mut model.params[w2] {
                *w = rng.symmetric(1.0);
            }
            for w in &mut model.params[b1] {
                *w = rng.symmetric(0.3);
            }
            let mut grad = vec![0.0; model.layout.len()];
            let all: Vec<u32> = (0..records.len() as u32).collect();
            let loss = model.accumulate(&records, &all, lambda, &mut grad);
            assert!((loss - total_loss(&model, &records, lambda)).abs() < 1e-5);
            assert!(
                (loss - model.loss(&records, &all, lambda)).abs() < 1e-9,
                "loss without gradient"
            );

            // The parameters to check: some of every kind, the active W1 rows' included.
            let mut sample = Sample::default();
            sample.decode(&records[2], lambda, buckets, model.inputs);
            let mut checked_params: Vec<usize> = Vec::new();
            for &f in sample.us().iter().chain(sample.them()).step_by(5) {
                checked_params.extend((0..HIDDEN).step_by(37).map(|j| f * HIDDEN + j));
            }
            checked_params.extend((Layout::B1..Layout::W2).step_by(17));
            checked_params.extend((Layout::W2..model.layout.b2()).step_by(29));
            checked_params.extend(model.layout.b2()..model.layout.len());
            // A row no position uses has no gradient.
            let unused = 0; // our pawn on a1: never on the board
            assert!(
                grad[unused * HIDDEN..(unused + 1) * HIDDEN]
                    .iter()
                    .all(|&g| g == 0.0)
            );

            let h = 1e-3f32;
            let (mut checked, mut skipped) = (0, 0);
            for &i in &checked_params {
                let at = |delta: f32| {
                    let mut m = model.clone();
                    m.params[i] += delta;
                    total_loss(&m, &records, lambda)
                };
                let (up, mid, down) = (at(h), at(0.0), at(-h));
                let (right, left) = ((up - mid) / f64::from(h), (mid - down) / f64::from(h));
                if (right - left).abs() > 0.05 * right.abs().max(left.abs()) + 1e-4 {
                    skipped += 1;
                    continue;
                }
                let numeric = (up - down) / (2.0 * f64::from(h));
                let analytic = f64::from(grad[i]);
                assert!(
                    (numeric - analytic).abs() <= 2e-3 * numeric.abs().max(analytic.abs()) + 2e-5,
                    "{activation:?} parameter {i}: numeric {numeric}, analytic {analytic}"
                );
                checked += 1;
            }
            assert!(
                checked >= 9 * (checked + skipped) / 10 && checked > 100,
                "{checked} checked, {skipped} skipped"
            );
        }
    }

    /// The AVX2 build of the passes gives the baseline build's results to the bit.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx2_and_baseline_passes_agree_exactly() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            eprintln!("skipping: no AVX2 on this processor");
            return;
        }
        let records = records();
        let all: Vec<u32> = (0..records.len() as u32).collect();
        for activation in [Activation::SCReLU, Activation::CReLU] {
            let model = Model::new(8, activation, 5);
            let mut portable = vec![0.0; model.layout.len()];
            let mut avx2 = portable.clone();
            let a = accumulate_any(&model, &records, &all, 0.7, &mut portable);
            // SAFETY: the processor has AVX2 (checked above).
            let b = unsafe { accumulate_avx2(&model, &records, &all, 0.7, &mut avx2) };
            assert_eq!(a.to_bits(), b.to_bits());
            assert!(
                portable
                    .iter()
                    .zip(&avx2)
                    .all(|(x, y)| x.to_bits() == y.to_bits())
            );
            // SAFETY: as above.
            let c = unsafe { loss_avx2(&model, &records, &all, 0.7) };
            assert_eq!(loss_any(&model, &records, &all, 0.7).to_bits(), c.to_bits());
        }
    }

    #[test]
    fn segments_cover_the_parameters_in_order() {
        for buckets in [1, 8] {
            let layout = Layout { buckets };
            let segments = layout.segments();
            assert_eq!(segments[0].range.start, 0);
            for pair in segments.windows(2) {
                assert_eq!(pair[0].range.end, pair[1].range.start);
            }
            assert_eq!(segments[3].range.end, layout.len());
            assert_eq!(
                layout.len(),
                INPUTS * HIDDEN + HIDDEN + buckets * (2 * HIDDEN + 1)
            );
        }
        assert_eq!((W1_CLIP * QA as f32).round() as i32, W1_CLIP_Q);
        assert_eq!((W2_CLIP * QB as f32).round() as i32, W2_CLIP_Q);
    }
}
