//! AdamW (Loshchilov and Hutter 2019: Adam with decoupled weight decay), the learning-rate
//! schedule, and the clipping that keeps the weights quantisable.
//!
//! One step, for each parameter `w` with gradient `g` (the batch mean):
//!
//! ```text
//! m ← β1·m + (1 − β1)·g      v ← β2·v + (1 − β2)·g²
//! w ← w − lr · (m / (1 − β1^t)) / (√(v / (1 − β2^t)) + ε) − lr · wd · w   (wd on weights only)
//! w ← clamp(w, −clip, clip)
//! ```
//!
//! The gradients arrive as one dense buffer per thread; the step sums them (in thread
//! order, so a run is reproducible for a given `--threads`), clears them for the next batch,
//! and updates the parameters, in parallel over slices of the parameters.

use rayon::prelude::*;

use super::model::Layout;

pub const BETA1: f32 = 0.9;
pub const BETA2: f32 = 0.999;
pub const EPSILON: f32 = 1e-8;

/// Parameters per parallel job of a step.
const SLICE: usize = 8192;

/// The optimiser's state.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    /// First and second moment estimates, one per parameter.
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    /// Steps taken.
    pub step: u64,
}

/// The learning rate of epoch `epoch` (1-based), step decay: `lr` for epochs 1 to `drop`,
/// `lr · γ` for the next `drop` epochs, `lr · γ²` after them, and so on; constant without
/// `drop`.
pub fn learning_rate(lr: f64, drop: Option<usize>, gamma: f64, epoch: usize) -> f64 {
    match drop {
        Some(every) if every > 0 => lr * gamma.powi(((epoch - 1) / every) as i32),
        _ => lr,
    }
}

/// The learning rate of batch `step` (0-based) of a run of `steps` batches, cosine annealing
/// (Loshchilov and Hutter 2017, SGDR without restarts): `lr` at the first batch, falling
/// smoothly to `end` after the last, with no step in between.
pub fn cosine_rate(lr: f64, end: f64, step: u64, steps: u64) -> f64 {
    let progress = step.min(steps) as f64 / steps.max(1) as f64;
    end + (lr - end) * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos())
}

impl AdamW {
    pub fn new(len: usize) -> AdamW {
        AdamW {
            m: vec![0.0; len],
            v: vec![0.0; len],
            step: 0,
        }
    }

    /// One step on `params` with the gradient `Σ grads · scale` (the buffers are cleared).
    /// Parameters below index `frozen_below` are held as they are (`--freeze-input-layer`:
    /// `Layout::W2`; 0 trains all); their gradients are discarded.
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &mut self,
        params: &mut [f32],
        layout: Layout,
        grads: &mut [Vec<f32>],
        scale: f32,
        lr: f64,
        weight_decay: f64,
        frozen_below: usize,
    ) {
        self.step += 1;
        let t = self.step as i32;
        let correct1 = 1.0 - f64::from(BETA1).powi(t);
        let correct2 = 1.0 - f64::from(BETA2).powi(t);
        // lr · m̂ / (√v̂ + ε) = (lr / c1) · m / (√(v / c2) + ε).
        let rate = (lr / correct1) as f32;
        let inv_c2 = (1.0 / correct2) as f32;
        let decay = (lr * weight_decay) as f32;

        // The parameters in slices, each with its slice of every thread's gradient.
        let mut grad_slices: Vec<_> = grads.iter_mut().map(|g| g.chunks_mut(SLICE)).collect();
        let mut jobs = Vec::with_capacity(params.len().div_ceil(SLICE));
        let parts = params
            .chunks_mut(SLICE)
            .zip(self.m.chunks_mut(SLICE))
            .zip(self.v.chunks_mut(SLICE));
        for (index, ((p, m), v)) in parts.enumerate() {
            let g: Vec<&mut [f32]> = grad_slices
                .iter_mut()
                .map(|it| it.next().expect("gradients as long as the parameters"))
                .collect();
            jobs.push((index * SLICE, p, m, v, g));
        }
        let segments = layout.segments();
        jobs.into_par_iter().for_each(|(start, p, m, v, mut g)| {
            for segment in &segments {
                // The part of this slice in the segment.
                let from = segment.range.start.max(start);
                let to = segment.range.end.min(start + p.len());
                if from >= to {
                    continue;
                }
                let local = from - start..to - start;
                let decay = if segment.decay { decay } else { 0.0 };
                let clip = segment.clip.unwrap_or(f32::INFINITY);
                for i in local {
                    let mut sum = 0.0f32;
                    for thread in g.iter_mut() {
                        sum += thread[i];
                        thread[i] = 0.0;
                    }
                    if start + i < frozen_below {
                        continue;
                    }
                    let grad = sum * scale;
                    m[i] = BETA1 * m[i] + (1.0 - BETA1) * grad;
                    v[i] = BETA2 * v[i] + (1.0 - BETA2) * grad * grad;
                    let w = p[i] - rate * m[i] / ((v[i] * inv_c2).sqrt() + EPSILON) - decay * p[i];
                    p[i] = w.clamp(-clip, clip);
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_decay_schedule() {
        assert_eq!(learning_rate(0.001, None, 0.3, 7), 0.001);
        let lrs: Vec<f64> = (1..=7)
            .map(|e| learning_rate(1.0, Some(3), 0.5, e))
            .collect();
        assert_eq!(lrs, [1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.25]);
    }

    #[test]
    fn cosine_schedule_falls_from_the_rate_to_the_end() {
        assert_eq!(cosine_rate(1.0, 0.1, 0, 100), 1.0);
        assert!((cosine_rate(1.0, 0.1, 50, 100) - 0.55).abs() < 1e-12);
        assert!((cosine_rate(1.0, 0.1, 100, 100) - 0.1).abs() < 1e-12);
        let rates: Vec<f64> = (0..=100).map(|s| cosine_rate(1.0, 0.1, s, 100)).collect();
        assert!(rates.windows(2).all(|w| w[1] < w[0]), "strictly falling");
        // A resumed run past its planned steps stays at the end.
        assert!((cosine_rate(1.0, 0.1, 120, 100) - 0.1).abs() < 1e-12);
    }

    /// Adam's first step moves each parameter by the learning rate against the sign of its
    /// gradient; decay shrinks weights but not biases; clipping holds; the gradient buffers
    /// of every thread are summed and cleared.
    #[test]
    fn first_step_moves_by_the_rate_and_decays_weights_only() {
        let layout = Layout { buckets: 1 };
        let n = layout.len();
        let mut params = vec![0.5f32; n];
        let b2 = layout.b2();
        params[0] = 1.975; // near the first layer's clip
        let mut grads = vec![vec![0.0f32; n]; 3];
        for (t, g) in grads.iter_mut().enumerate() {
            g[0] = -1.0; // pushes w up past the clip
            g[1] = 0.25 * t as f32; // sum 0.75
            g[Layout::B1] = -1.0;
            g[b2] = 2.0;
        }
        let mut adam = AdamW::new(n);
        adam.step(&mut params, layout, &mut grads, 0.5, 0.01, 0.1, 0);
        assert!(grads.iter().all(|g| g.iter().all(|&x| x == 0.0)));
        let decayed = 0.5 - 0.01 * 0.1 * 0.5;
        assert_eq!(params[0], super::super::model::W1_CLIP);
        assert!((params[1] - (decayed - 0.01)).abs() < 1e-6, "{}", params[1]);
        assert!((params[Layout::B1] - 0.51).abs() < 1e-6, "bias not decayed");
        assert!((params[b2] - 0.49).abs() < 1e-6, "{}", params[b2]);
        // A weight with no gradient only decays.
        assert!((params[2] - decayed).abs() < 1e-7);
        assert!((params[Layout::W2] - decayed).abs() < 1e-7);
        assert!((params[Layout::B1 + 1] - 0.5).abs() < 1e-7);
        assert_eq!(adam.step, 1);
    }

    /// With the first layer frozen, its weights and biases stay exactly (no step, no decay)
    /// while the output layer moves, and every gradient buffer is still cleared.
    #[test]
    fn a_frozen_first_layer_stays_as_it_was() {
        let layout = Layout { buckets: 2 };
        let n = layout.len();
        let before: Vec<f32> = (0..n).map(|i| (i % 7) as f32 * 0.1 - 0.3).collect();
        let mut params = before.clone();
        let mut grads = vec![vec![0.5f32; n]; 2];
        let mut adam = AdamW::new(n);
        for _ in 0..3 {
            for g in grads.iter_mut() {
                g.fill(0.5);
            }
            adam.step(&mut params, layout, &mut grads, 1.0, 0.01, 0.1, Layout::W2);
            assert!(grads.iter().all(|g| g.iter().all(|&x| x == 0.0)));
        }
        assert_eq!(params[..Layout::W2], before[..Layout::W2]);
        assert!(
            (Layout::W2..n).all(|i| params[i] < before[i]),
            "the output layer steps against its gradient"
        );
    }

    /// On a quadratic, AdamW with no decay finds the minimum.
    #[test]
    fn minimises_a_quadratic() {
        let layout = Layout { buckets: 1 };
        let n = layout.len();
        let mut params = vec![0.0f32; n];
        let mut adam = AdamW::new(n);
        let mut grads = vec![vec![0.0f32; n]];
        let targets = [(5usize, 0.7f32), (Layout::B1 + 3, -1.2), (layout.b2(), 3.5)];
        for _ in 0..3000 {
            for &(i, t) in &targets {
                grads[0][i] = 2.0 * (params[i] - t);
            }
            adam.step(&mut params, layout, &mut grads, 1.0, 0.01, 0.0, 0);
        }
        for &(i, t) in &targets {
            assert!((params[i] - t).abs() < 0.01, "{i}: {} vs {t}", params[i]);
        }
    }
}
