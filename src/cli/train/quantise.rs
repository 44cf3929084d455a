//! From the float network to the engine's: rounding to integers at the engine's scales, and
//! a check that the engine's integer evaluation agrees with the float one.
//!
//! `W1` and `b1` are stored `× QA` (255), `W2` `× QB` (1,024) and `b2` `× QA · QB`, rounded.
//! The engine computes, for SCReLU, `(Σ clamp(acc, 0, QA)² · w / QA + b) · SCALE / (QA · QB)`
//! (`acc ≈ 255 · acc_float`, `w ≈ 1,024 · w_float`, `b ≈ 261,120 · b_float`), in `i64`:
//! `400 · y` up to rounding; for CReLU `(Σ clamp(acc, 0, QA) · w + b) · SCALE / (QA · QB)`,
//! the same; the engine's result is then truncated to whole centipawns.
//!
//! With the output scale of the first networks, 64, the engine differed from the float
//! network by 9 to 15 cp on average, nearly all of it the rounding of `W2` to steps of 1/64:
//! with some 360 of the 512 neurons active, each neuron's share `a · w` moved by up to
//! `a / 128` and those errors added up. At 1,024 that part is 16 times smaller, and what is
//! left is mostly the rounding of `W1` and `b1` (about 3 cp on random networks).

use anyhow::{Context, Result, ensure};
use horizon_chess::nnue::simd::Simd;
use horizon_chess::nnue::{Inputs, Network, QA, QB, SCALE};
use horizon_chess::packed::PackedBoard;
use rayon::prelude::*;

use super::data::Sample;
use super::model::{Layout, Model};

/// The default of `--quant-tolerance`: the mean absolute difference (centipawns) between
/// the engine's evaluation with the written network and the float network's `400 · y`
/// beyond which the trainer refuses to write it. Measured: 2.9 cp on net 6 (30 epochs on
/// 4.2 M positions; 10.6 cp with the earlier output scale of 64) and 3.7 to 4.6 cp on
/// random networks (the tests below), from rounding, which moves the loss little (the
/// summary prints both); a wrong scale or layout is off by the size of the evaluation
/// itself, hundreds of centipawns.
pub const TOLERANCE_CP: f64 = 8.0;

fn round_i16(x: f32, scale: i32, what: &str) -> Result<i16> {
    let q = (x * scale as f32).round();
    ensure!(
        q.is_finite() && q >= f32::from(i16::MIN) && q <= f32::from(i16::MAX),
        "{what} weight {x} does not fit i16 at scale {scale} (has training diverged?)"
    );
    Ok(q as i16)
}

/// The engine's network of `model`.
pub fn quantise(model: &Model) -> Result<Network> {
    let p = &model.params;
    let layout = model.layout;
    let b2 = layout.b2();
    let ft_weights = p[Layout::W1..Layout::B1]
        .iter()
        .map(|&w| round_i16(w, QA, "first-layer"))
        .collect::<Result<Vec<_>>>()?;
    let ft_bias = p[Layout::B1..Layout::W2]
        .iter()
        .map(|&w| round_i16(w, QA, "first-layer bias"))
        .collect::<Result<Vec<_>>>()?;
    let out_weights = p[Layout::W2..b2]
        .iter()
        .map(|&w| round_i16(w, QB, "output"))
        .collect::<Result<Vec<_>>>()?;
    let out_bias = p[b2..layout.len()]
        .iter()
        .map(|&b| {
            let q = (f64::from(b) * f64::from(QA * QB)).round();
            ensure!(
                q.is_finite() && q.abs() <= f64::from(i32::MAX),
                "output bias {b} does not fit i32 (has training diverged?)"
            );
            Ok(q as i32)
        })
        .collect::<Result<Vec<_>>>()?;
    let activation = model.activation;
    Network::from_weights(&ft_weights, &ft_bias, &out_weights, &out_bias, activation)
        .map(|network| network.with_inputs(model.inputs))
        .context("the quantised weights do not make a network")
}

/// How the quantised network's evaluations differ from the float one's.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Agreement {
    pub positions: usize,
    /// Mean and largest absolute difference, centipawns.
    pub mean: f64,
    pub max: f64,
    /// The mean loss against the targets of the float network and of the engine's
    /// evaluations (as `sigmoid(cp / 400)`).
    pub float_loss: f64,
    pub engine_loss: f64,
}

/// Compares `network` (the engine's evaluation, [`Network::evaluate_features`]) with
/// `model`'s `400 · y` on `records[indices]`, targets with `lambda`.
pub fn compare(
    model: &Model,
    network: &Network,
    records: &[PackedBoard],
    indices: &[u32],
    lambda: f32,
) -> Agreement {
    let simd = Simd::detect();
    let scale = f64::from(SCALE);
    let parts: Vec<[f64; 4]> = indices
        .par_chunks(1024)
        .map(|chunk| {
            let mut sample = Sample::default();
            let mut part = [0.0f64; 4]; // Σ |diff|, max |diff|, float loss, engine loss
            for &i in chunk {
                sample.decode_index(records, i, lambda, model.layout.buckets, model.inputs);
                let float = f64::from(model.output(&sample)) * scale;
                let engine = f64::from(network.evaluate_features(simd, sample.us(), sample.them()));
                let diff = (float - engine).abs();
                part[0] += diff;
                part[1] = part[1].max(diff);
                part[2] += score_loss(float, sample.target);
                part[3] += score_loss(engine, sample.target);
            }
            part
        })
        .collect();
    let n = indices.len().max(1) as f64;
    let sum = |k: usize| parts.iter().map(|p| p[k]).sum::<f64>() / n;
    Agreement {
        positions: indices.len(),
        mean: sum(0),
        max: parts.iter().map(|p| p[1]).fold(0.0, f64::max),
        float_loss: sum(2),
        engine_loss: sum(3),
    }
}

/// The squared error of an evaluation (centipawns, as `sigmoid(cp / SCALE)`) against a target.
fn score_loss(cp: f64, target: f32) -> f64 {
    (1.0 / (1.0 + (-cp / f64::from(SCALE)).exp()) - f64::from(target)).powi(2)
}

/// The mean absolute evaluation (centipawns) of the engine with `network` over
/// `records[indices]`.
pub fn mean_abs_eval(network: &Network, records: &[PackedBoard], indices: &[u32]) -> f64 {
    let simd = Simd::detect();
    mean_over_positions(
        records,
        indices,
        network.buckets(),
        network.inputs(),
        |sample| f64::from(network.evaluate_features(simd, sample.us(), sample.them())).abs(),
    )
}

/// The float model's mean absolute evaluation `SCALE · |y|` (centipawns) over
/// `records[indices]`.
pub fn model_mean_abs_eval(model: &Model, records: &[PackedBoard], indices: &[u32]) -> f64 {
    let scale = f64::from(SCALE);
    mean_over_positions(
        records,
        indices,
        model.layout.buckets,
        model.inputs,
        |sample| f64::from(model.output(sample)).abs() * scale,
    )
}

/// The mean of `value` over the positions `records[indices]`, each decoded for a network with
/// `buckets` and `inputs`, in parallel; 0 when `indices` is empty.
fn mean_over_positions(
    records: &[PackedBoard],
    indices: &[u32],
    buckets: usize,
    inputs: Inputs,
    value: impl Fn(&Sample) -> f64 + Sync + Send,
) -> f64 {
    let sum: f64 = indices
        .par_chunks(1024)
        .map(|chunk| {
            let mut sample = Sample::default();
            let mut sum = 0.0;
            for &i in chunk {
                sample.decode_index(records, i, 0.0, buckets, inputs);
                sum += value(&sample);
            }
            sum
        })
        .sum();
    sum / indices.len().max(1) as f64
}

/// How the engine's evaluation with `network` fits the records: its loss against their
/// targets, and its scale against their search scores.
#[derive(Copy, Clone, Debug)]
pub struct EngineFit {
    /// The mean loss (as `sigmoid(cp / 400)`) against the targets with `lambda`: what
    /// `horizon train` reports as the engine's validation loss.
    pub loss: f64,
    /// Mean absolute evaluation and mean absolute search score, centipawns.
    pub mean_abs_eval: f64,
    pub mean_abs_score: f64,
    /// The least-squares factor `k` of `eval ≈ k · score`: below 1 the network scores
    /// positions less extremely than the searches did.
    pub slope: f64,
    /// The factor `f` (1/1024 to 1024) for which `sigmoid(f · cp / 400)` has the lowest loss, and
    /// that loss. The plain loss mixes how well a network ranks positions with its scale;
    /// this one compares networks of different scales by the first alone. The search's
    /// margins (futility, reverse futility, ProbCut) are tuned to one scale, so a network's
    /// scale is a separate choice (`horizon train --scale-to`).
    pub fitted_factor: f64,
    pub fitted_loss: f64,
}

/// [`EngineFit`] of `network` on `records`, for any network on any positions (`horizon
/// data --loss-of`): networks trained on other data compare on the same held-out games.
pub fn engine_fit(network: &Network, records: &[PackedBoard], lambda: f32) -> EngineFit {
    let simd = Simd::detect();
    // (evaluation, search score, target) of each record.
    let points: Vec<(f64, f64, f32)> = records
        .par_iter()
        .map_init(Sample::default, |sample, record| {
            sample.decode_mirrored(record, false, lambda, network.buckets(), network.inputs());
            let cp = f64::from(network.evaluate_features(simd, sample.us(), sample.them()));
            (cp, f64::from(record.score()), sample.target)
        })
        .collect();
    let loss_at = |factor: f64| mean(&points, |&(cp, _, target)| score_loss(factor * cp, target));
    // Wide: a barely trained network's best factor can lie far below 1 (0.03 in a test).
    let (fitted_factor, fitted_loss) = minimise_log(loss_at, 1.0 / 1024.0, 1024.0);
    let square_scores = mean(&points, |&(_, score, _)| score * score);
    EngineFit {
        loss: loss_at(1.0),
        mean_abs_eval: mean(&points, |&(cp, _, _)| cp.abs()),
        mean_abs_score: mean(&points, |&(_, score, _)| score.abs()),
        slope: if square_scores > 0.0 {
            mean(&points, |&(cp, score, _)| cp * score) / square_scores
        } else {
            0.0
        },
        fitted_factor,
        fitted_loss,
    }
}

/// The mean of `f` over `points` (0 for none), in parallel.
fn mean<T: Sync>(points: &[T], f: impl Fn(&T) -> f64 + Sync + Send) -> f64 {
    points.par_iter().map(f).sum::<f64>() / points.len().max(1) as f64
}

/// The minimum of `f` over `[low, high]` (both positive) by golden-section search on the
/// logarithm of the argument, to a relative precision of about 1e-8: `(argument, value)`.
/// `f` is taken to have a single minimum there, as the loss of a scaled evaluation has.
fn minimise_log(f: impl Fn(f64) -> f64, low: f64, high: f64) -> (f64, f64) {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (low.ln(), high.ln());
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (f(c.exp()), f(d.exp()));
    while b - a > 1e-8 {
        if fc < fd {
            (b, d, fd) = (d, c, fc);
            c = b - ratio * (b - a);
            fc = f(c.exp());
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + ratio * (b - a);
            fd = f(d.exp());
        }
    }
    let x = ((a + b) / 2.0).exp();
    (x, f(x))
}

#[cfg(test)]
mod tests {
    use super::super::model::{W1_CLIP, W2_CLIP};
    use super::super::rng::Rng;
    use super::*;
    use horizon_chess::nnue::{Activation, Inputs};
    use horizon_chess::packed::Outcome;
    use horizon_chess::shakmaty::{Chess, Position as _};

    /// Positions of random games.
    fn random_chess(n: usize) -> Vec<Chess> {
        let mut rng = Rng::new(21, 0);
        let mut out = Vec::new();
        while out.len() < n {
            let mut chess = Chess::default();
            for _ in 0..120 {
                out.push(chess.clone());
                let moves = chess.legal_moves();
                if moves.is_empty() {
                    break;
                }
                chess.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        out.truncate(n);
        out
    }

    /// The records of `random_chess`, scored 0, drawn.
    fn random_positions(n: usize) -> Vec<PackedBoard> {
        random_chess(n)
            .iter()
            .map(|chess| PackedBoard::new(chess, 0, Outcome::Draw).expect("packs"))
            .collect()
    }

    /// A random network with weights up to the clipping bounds: biases and output weights
    /// uniform in ±`b`, first-layer weights as initialised (±1/√32), one weight at each bound.
    fn random_model(activation: Activation, buckets: usize, seed: u64, b: f32) -> Model {
        let mut model = Model::new(buckets, activation, seed);
        let mut rng = Rng::new(seed, 7);
        let layout = model.layout;
        for w in &mut model.params[Layout::B1..Layout::W2] {
            *w = rng.symmetric(b);
        }
        for w in &mut model.params[Layout::W2..layout.b2()] {
            *w = rng.symmetric(b.min(W2_CLIP));
        }
        for w in &mut model.params[layout.b2()..] {
            *w = rng.symmetric(b);
        }
        model.params[0] = W1_CLIP;
        model.params[Layout::W2] = -W2_CLIP;
        model
    }

    /// Mean |400 · y| of the float network: evaluations are not all near zero, so that an
    /// agreement means something.
    fn spread(model: &Model, records: &[PackedBoard]) -> f64 {
        let mut sample = Sample::default();
        records
            .iter()
            .map(|r| {
                sample.decode(r, 0.0, model.layout.buckets, model.inputs);
                f64::from(model.output(&sample)).abs() * 400.0
            })
            .sum::<f64>()
            / records.len() as f64
    }

    const CASES: [(Activation, usize, u64, Inputs); 4] = [
        (Activation::SCReLU, 1, 1, Inputs::Plain),
        (Activation::CReLU, 8, 2, Inputs::Plain),
        (Activation::SCReLU, 8, 3, Inputs::Plain),
        (Activation::SCReLU, 8, 4, Inputs::KingMirrored),
    ];

    /// Weights already on the integer grid: the engine computes the float network's output
    /// exactly but for its integer divisions (and f32 rounding), well under 0.1 cp. This
    /// checks the scales, the layout of the file, the buckets and the activations.
    #[test]
    fn weights_on_the_grid_quantise_exactly() {
        let records = random_positions(2000);
        let indices: Vec<u32> = (0..records.len() as u32).collect();
        for (activation, buckets, seed, inputs) in CASES {
            let mut model = random_model(activation, buckets, seed, 1.0);
            model.inputs = inputs;
            let layout = model.layout;
            let snap = |w: &mut f32, scale: i32| *w = (*w * scale as f32).round() / scale as f32;
            for w in &mut model.params[..Layout::W2] {
                snap(w, QA);
            }
            for w in &mut model.params[Layout::W2..layout.b2()] {
                snap(w, QB);
            }
            for w in &mut model.params[layout.b2()..] {
                snap(w, QA * QB);
            }
            let network = quantise(&model).expect("quantises");
            assert_eq!(network.buckets(), buckets);
            assert_eq!(network.activation(), activation);
            assert_eq!(network.inputs(), inputs);
            // The file round trip keeps every weight.
            let back = Network::from_bytes(&network.to_bytes()).expect("reads back");
            assert_eq!(back, network);
            let agreement = compare(&model, &network, &records, &indices, 0.0);
            assert!(spread(&model, &records) > 100.0);
            // The engine's centipawns are whole, truncated toward zero: up to 1 cp, 0.5 on
            // average; its division by QA adds at most 400 / 261,120 cp.
            assert!(
                agreement.max < 1.03 && agreement.mean < 0.6,
                "{activation:?} {buckets}: {agreement:?}"
            );
        }
    }

    /// `engine_fit`'s loss on a network alone is the engine loss that `compare` reports
    /// beside the float model, for every output bucket count and input mapping.
    #[test]
    fn engine_fit_of_a_network_is_the_trainers_engine_loss() {
        let records = random_positions(1500);
        let indices: Vec<u32> = (0..records.len() as u32).collect();
        for (activation, buckets, seed, inputs) in CASES {
            let mut model = random_model(activation, buckets, seed, 0.25);
            model.inputs = inputs;
            let network = quantise(&model).expect("quantises");
            let agreement = compare(&model, &network, &records, &indices, 0.3);
            let loss = engine_fit(&network, &records, 0.3).loss;
            assert!(agreement.engine_loss > 1e-3, "{agreement:?}");
            assert!(
                (loss - agreement.engine_loss).abs() < 1e-12,
                "{loss} against {}",
                agreement.engine_loss
            );
        }
    }

    /// Records whose search scores are twice the network's own evaluations: the fit finds
    /// the slope one half, mean absolute values in the same ratio, and the factor 2 that
    /// fits the targets exactly.
    #[test]
    fn engine_fit_measures_the_evaluations_scale_against_the_scores() {
        let network = quantise(&random_model(Activation::SCReLU, 8, 5, 0.25)).expect("quantises");
        let simd = Simd::detect();
        let mut sample = Sample::default();
        let records: Vec<PackedBoard> = random_chess(1000)
            .iter()
            .map(|chess| {
                let plain = PackedBoard::new(chess, 0, Outcome::Draw).expect("packs");
                sample.decode_mirrored(&plain, false, 0.5, network.buckets(), network.inputs());
                let eval = network.evaluate_features(simd, sample.us(), sample.them());
                let record = PackedBoard::new(chess, 2 * eval, Outcome::Draw).expect("packs");
                assert_eq!(i32::from(record.score()), 2 * eval, "no clamping");
                record
            })
            .collect();
        // With lambda 1 the target is sigmoid(2 · eval / 400): the fit finds the factor 2.
        let fit = engine_fit(&network, &records, 1.0);
        assert!(fit.mean_abs_eval > 10.0, "{fit:?}");
        assert!((fit.fitted_factor - 2.0).abs() < 1e-6, "{fit:?}");
        assert!(fit.fitted_loss < 1e-10 && fit.loss > 1e-4, "{fit:?}");
        assert!((fit.slope - 0.5).abs() < 1e-12, "{fit:?}");
        assert!(
            (fit.mean_abs_score - 2.0 * fit.mean_abs_eval).abs() < 1e-9,
            "{fit:?}"
        );
    }

    /// Random small weights off the grid: the rounding costs 3.7 to 4.6 cp on average here
    /// (it was 8.4 to 9.6 with the output scale 64): what is left is mostly the first
    /// layer's step of 1/255, summed over about half the neurons, active with a random first
    /// layer. The exact arithmetic is checked above; this bounds the rounding.
    #[test]
    fn quantised_network_agrees_with_the_float_one() {
        let records = random_positions(2000);
        let indices: Vec<u32> = (0..records.len() as u32).collect();
        for (activation, buckets, seed, inputs) in CASES {
            let mut model = random_model(activation, buckets, seed, 0.25);
            model.inputs = inputs;
            let network = quantise(&model).expect("quantises");
            let agreement = compare(&model, &network, &records, &indices, 0.0);
            let spread = spread(&model, &records);
            assert!(spread > 200.0, "{activation:?}: mean |eval| {spread}");
            assert!(
                agreement.mean < 6.0 && agreement.max < 30.0,
                "{activation:?} {buckets}: {agreement:?}"
            );
        }
    }

    /// `--init`: the float model of a network quantises back to the same network, for
    /// random networks of every case above and for the built-in one, and evaluates as the
    /// engine does (same centipawns but for the engine's truncation).
    #[test]
    fn a_networks_float_model_quantises_back_to_it() {
        let records = random_positions(500);
        let indices: Vec<u32> = (0..records.len() as u32).collect();
        let mut networks: Vec<Network> = CASES
            .iter()
            .map(|&(activation, buckets, seed, inputs)| {
                let mut model = random_model(activation, buckets, seed, 1.0);
                model.inputs = inputs;
                quantise(&model).expect("quantises")
            })
            .collect();
        networks.push(Network::embedded().expect("the built-in network"));
        for network in networks {
            let model = Model::from_network(&network);
            assert_eq!(model.activation, network.activation());
            assert_eq!(model.inputs, network.inputs());
            assert_eq!(model.layout.buckets, network.buckets());
            let back = quantise(&model).expect("quantises");
            assert_eq!(back.hash(), network.hash());
            assert_eq!(back, network);
            let agreement = compare(&model, &network, &records, &indices, 0.0);
            assert!(
                agreement.max < 1.03 && agreement.mean < 0.6,
                "{network:?}: {agreement:?}"
            );
        }
    }

    #[test]
    fn out_of_range_weights_are_refused() {
        let mut model = Model::new(1, Activation::SCReLU, 1);
        model.params[3] = 200.0;
        let message = format!("{:#}", quantise(&model).expect_err("200 · 255 > i16"));
        assert!(message.contains("does not fit i16"), "{message}");
        model.params[3] = f32::NAN;
        assert!(quantise(&model).is_err());
    }
}
