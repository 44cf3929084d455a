//! Texel's method: the mean squared error between the game result and
//! `sigmoid(K · eval / 400)`, the scaling `K` fitted first, then every weight by full-batch
//! Adam on the exact gradient (the evaluation is linear in the weights).

use super::data::Dataset;

/// `1 / (1 + 10^(-K·eval/400))`: the expected score of White at a White-view evaluation.
#[inline]
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval * std::f64::consts::LN_10 / 400.0).exp())
}

/// Mean squared error of `sigmoid(K·eval/400)` against the results.
pub fn mean_error(k: f64, evals: &[f64], results: &[f32]) -> f64 {
    if evals.is_empty() {
        return 0.0;
    }
    let sum: f64 = evals
        .iter()
        .zip(results)
        .map(|(&e, &r)| {
            let d = f64::from(r) - sigmoid(k, e);
            d * d
        })
        .sum();
    sum / evals.len() as f64
}

/// The `K` in `[lo, hi]` of least error (golden-section search: the error is unimodal in
/// `K` for any sensible data).
pub fn fit_k(evals: &[f64], results: &[f32], lo: f64, hi: f64) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (lo, hi);
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let mut fc = mean_error(c, evals, results);
    let mut fd = mean_error(d, evals, results);
    while b - a > 1e-6 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = mean_error(c, evals, results);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = mean_error(d, evals, results);
        }
    }
    (a + b) / 2.0
}

/// Weights as a flat vector: `2 * i` middlegame, `2 * i + 1` endgame of weight `i`.
pub type Flat = Vec<f64>;

/// Splits `0..n` into `parts` contiguous ranges.
fn ranges(n: usize, parts: usize) -> Vec<std::ops::Range<usize>> {
    let parts = parts.clamp(1, n.max(1));
    (0..parts)
        .map(|p| p * n / parts..(p + 1) * n / parts)
        .collect()
}

/// White-view evaluations of every position under `weights`, on `threads` threads.
pub fn evaluations(data: &Dataset, weights: &[f64], threads: usize) -> Vec<f64> {
    let mut out = vec![0.0; data.len()];
    let parts = ranges(data.len(), threads);
    std::thread::scope(|scope| {
        let mut rest: &mut [f64] = &mut out;
        for range in parts {
            let (mine, tail) = rest.split_at_mut(range.len());
            rest = tail;
            scope.spawn(move || {
                for (slot, i) in mine.iter_mut().zip(range) {
                    *slot = data.eval(i, weights);
                }
            });
        }
    });
    out
}

/// Mean squared error of `data` under `weights`.
pub fn error(data: &Dataset, weights: &[f64], k: f64, threads: usize) -> f64 {
    mean_error(k, &evaluations(data, weights, threads), &data.results)
}

/// The mean squared error and its gradient with respect to every flat weight.
pub fn gradient(data: &Dataset, weights: &[f64], k: f64, threads: usize) -> (f64, Flat) {
    let n = data.len();
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let partials: Vec<(f64, Flat)> = std::thread::scope(|scope| {
        let handles: Vec<_> = ranges(n, threads)
            .into_iter()
            .map(|range| {
                scope.spawn(move || {
                    let mut grad = vec![0.0; weights.len()];
                    let mut err = 0.0;
                    for i in range {
                        let (mg, eg) = data.sums(i, weights);
                        let [fm, fe] = data.factors[i];
                        let s = sigmoid(k, mg * fm + eg * fe);
                        let r = f64::from(data.results[i]);
                        err += (s - r) * (s - r);
                        // d/d(eval) of (s - r)^2, the 2/n applied at the end.
                        let g = (s - r) * s * (1.0 - s) * scale;
                        let (gm, ge) = (g * fm, g * fe);
                        for (index, count) in data.coefficients(i) {
                            let c = f64::from(count);
                            grad[2 * index] += gm * c;
                            grad[2 * index + 1] += ge * c;
                        }
                    }
                    (err, grad)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("gradient thread"))
            .collect()
    });
    let mut grad = vec![0.0; weights.len()];
    let mut err = 0.0;
    for (e, g) in partials {
        err += e;
        for (total, part) in grad.iter_mut().zip(g) {
            *total += part;
        }
    }
    let norm = 1.0 / n.max(1) as f64;
    grad.iter_mut().for_each(|g| *g *= 2.0 * norm);
    (err * norm, grad)
}

/// Adam over the full batch; weights with `frozen[i]` keep their value.
pub struct Adam {
    m: Flat,
    v: Flat,
    t: i32,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-12;

    pub fn new(len: usize) -> Adam {
        Adam {
            m: vec![0.0; len],
            v: vec![0.0; len],
            t: 0,
        }
    }

    /// One step of at most about `rate` per weight.
    pub fn step(&mut self, weights: &mut [f64], grad: &[f64], frozen: &[bool], rate: f64) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        for i in 0..weights.len() {
            if frozen[i] {
                continue;
            }
            self.m[i] = Self::BETA1 * self.m[i] + (1.0 - Self::BETA1) * grad[i];
            self.v[i] = Self::BETA2 * self.v[i] + (1.0 - Self::BETA2) * grad[i] * grad[i];
            let m = self.m[i] / c1;
            let v = self.v[i] / c2;
            weights[i] -= rate * m / (v.sqrt() + Self::EPSILON);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::selfplay::SplitMix64;

    #[test]
    fn sigmoid_is_the_logistic_in_base_ten() {
        assert!((sigmoid(1.0, 0.0) - 0.5).abs() < 1e-12);
        // 400 centipawns at K = 1: odds of 10 to 1.
        assert!((sigmoid(1.0, 400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((sigmoid(1.0, -400.0) - 1.0 / 11.0).abs() < 1e-12);
        assert!((sigmoid(2.0, 200.0) - sigmoid(1.0, 400.0)).abs() < 1e-12);
    }

    #[test]
    fn fitted_k_recovers_the_k_that_made_the_results() {
        let mut rng = SplitMix64::new(11);
        let evals: Vec<f64> = (0..4000).map(|_| (rng.unit() - 0.5) * 1200.0).collect();
        for true_k in [0.4, 1.13, 2.7] {
            // Expected scores as labels: the error is zero at the true K.
            let exact: Vec<f32> = evals.iter().map(|&e| sigmoid(true_k, e) as f32).collect();
            let k = fit_k(&evals, &exact, 0.1, 5.0);
            assert!((k - true_k).abs() < 1e-3, "{k} vs {true_k}");
        }
        // Game-like labels drawn with those probabilities: the least squares K
        // is still the true one, up to sampling noise.
        let true_k = 1.3;
        let evals: Vec<f64> = (0..200_000).map(|_| (rng.unit() - 0.5) * 1200.0).collect();
        let results: Vec<f32> = evals
            .iter()
            .map(|&e| {
                // A win with probability sigmoid(K·e/400), a loss otherwise.
                if rng.unit() < sigmoid(true_k, e) {
                    1.0
                } else {
                    0.0
                }
            })
            .collect();
        let k = fit_k(&evals, &results, 0.1, 5.0);
        assert!((k - true_k).abs() < 0.05, "{k} vs {true_k}");
    }

    #[test]
    fn adam_minimises_a_quadratic_and_respects_frozen_weights() {
        let target = [3.0, -2.0, 5.0];
        let mut w = vec![0.0, 0.0, 7.0];
        let frozen = [false, false, true];
        let mut adam = Adam::new(3);
        for _ in 0..2000 {
            let grad: Vec<f64> = w.iter().zip(target).map(|(x, t)| 2.0 * (x - t)).collect();
            adam.step(&mut w, &grad, &frozen, 0.05);
        }
        assert!(
            (w[0] - 3.0).abs() < 0.1 && (w[1] + 2.0).abs() < 0.1,
            "{w:?}"
        );
        assert_eq!(w[2], 7.0);
    }
}
