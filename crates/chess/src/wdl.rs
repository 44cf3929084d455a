//! Win/draw/loss estimates from a score and the material on the board (`UCI_ShowWDL`).
//!
//! Two logistic curves, one for winning and one for losing: with `s` the score from the
//! side to move, `W = σ((s − a)/b)`, `L = σ((−s − a)/b)` and `D = 1 − W − L`. `a` is the
//! score at which a win becomes as likely as not, `b` how quickly it becomes likely; both
//! are linear in the material on the board, because the same advantage converts more
//! surely with fewer pieces left. The idea of a logistic win rate per score is the one
//! behind Texel tuning and the WDL displays of modern engines; the parameters here are
//! fitted by maximum likelihood on Horizon's own self-play games (`horizon wdl-fit`,
//! `docs/wdl.md`), nobody else's.

use horizon_search::score::{is_decisive, is_mate};
use shakmaty::{Chess, Position as _};

/// The most material counted (pawns 1, knights and bishops 3, rooks 5, queens 9).
pub const MAX_MATERIAL: u32 = 78;

/// Material on the board, both sides, in pawns (1, 3, 3, 5, 9), at most [`MAX_MATERIAL`].
pub fn material(chess: &Chess) -> u32 {
    let board = chess.board();
    let count = board.pawns().count()
        + 3 * (board.knights() | board.bishops()).count()
        + 5 * board.rooks().count()
        + 9 * board.queens().count();
    (count as u32).min(MAX_MATERIAL)
}

/// A game's result from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// One labelled position: the search's score (centipawns, side to move), the material on
/// the board, and how the game ended for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub score: f64,
    pub material: u32,
    pub outcome: Outcome,
}

/// The model's parameters: `a = a[0] + a[1]·m` and `b = b[0] + b[1]·m`, with `m` the
/// material as a fraction of [`MAX_MATERIAL`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    pub a: [f64; 2],
    pub b: [f64; 2],
}

/// Smallest `a` and `b` the model uses: `a > 0` keeps the draw probability positive.
const MIN_PARAMETER: f64 = 1.0;

/// The model's `m`: material as a fraction of [`MAX_MATERIAL`].
fn material_fraction(material: u32) -> f64 {
    f64::from(material.min(MAX_MATERIAL)) / f64::from(MAX_MATERIAL)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl WdlModel {
    /// Fitted by `horizon wdl-fit --data out/wdl/scores.csv` on 800 self-play games at
    /// 20,000 nodes per move (the commands and the fit: `docs/wdl.md`).
    pub const FITTED: WdlModel = WdlModel {
        a: [272.7, -218.2],
        b: [97.4, -0.6],
    };

    /// `(a, b)` for this much material.
    fn curve(&self, material: u32) -> (f64, f64) {
        let m = material_fraction(material);
        (
            (self.a[0] + self.a[1] * m).max(MIN_PARAMETER),
            (self.b[0] + self.b[1] * m).max(MIN_PARAMETER),
        )
    }

    /// `[win, draw, loss]` probabilities for a score (centipawns, side to move).
    pub fn probabilities(&self, score: f64, material: u32) -> [f64; 3] {
        let (a, b) = self.curve(material);
        let win = sigmoid((score - a) / b);
        let loss = sigmoid((-score - a) / b);
        [win, (1.0 - win - loss).max(0.0), loss]
    }

    /// `[win, draw, loss]` per mille, summing to 1000, for a search score: mates and table
    /// results are certain.
    pub fn per_mille(&self, score: i32, material: u32) -> [u32; 3] {
        if is_mate(score) || is_decisive(score) {
            return if score > 0 {
                [1000, 0, 0]
            } else {
                [0, 0, 1000]
            };
        }
        let [win, _, loss] = self.probabilities(f64::from(score), material);
        let win = (win * 1000.0).round() as u32;
        let loss = ((loss * 1000.0).round() as u32).min(1000 - win);
        [win, 1000 - win - loss, loss]
    }

    /// The probability the model gives to what happened.
    fn likelihood(&self, sample: &Sample) -> f64 {
        let [win, draw, loss] = self.probabilities(sample.score, sample.material);
        match sample.outcome {
            Outcome::Win => win,
            Outcome::Draw => draw,
            Outcome::Loss => loss,
        }
    }

    /// Mean negative log-likelihood (natural log) of the samples: what the fit minimises.
    pub fn log_loss(&self, samples: &[Sample]) -> f64 {
        let total: f64 = samples
            .iter()
            .map(|s| -self.likelihood(s).max(PROBABILITY_FLOOR).ln())
            .sum();
        total / samples.len().max(1) as f64
    }

    fn from_parameters(p: [f64; 4]) -> WdlModel {
        WdlModel {
            a: [p[0], p[1]],
            b: [p[2], p[3]],
        }
    }

    /// The gradient of [`WdlModel::log_loss`] in `(a0, a1, b0, b1)`.
    fn gradient(&self, samples: &[Sample]) -> [f64; 4] {
        let mut grad = [0.0; 4];
        for sample in samples {
            let m = material_fraction(sample.material);
            let (a, b) = self.curve(sample.material);
            let s = sample.score;
            let (u, v) = ((s - a) / b, (-s - a) / b);
            let (win, loss) = (sigmoid(u), sigmoid(v));
            // d(-ln p)/du and d(-ln p)/dv for the outcome.
            let (d_u, d_v) = match sample.outcome {
                Outcome::Win => (-(1.0 - win), 0.0),
                Outcome::Loss => (0.0, -(1.0 - loss)),
                Outcome::Draw => {
                    let draw = (1.0 - win - loss).max(PROBABILITY_FLOOR);
                    (win * (1.0 - win) / draw, loss * (1.0 - loss) / draw)
                }
            };
            // du/da = dv/da = -1/b; du/db = -u/b, dv/db = -v/b.
            let d_a = -(d_u + d_v) / b;
            let d_b = -(d_u * u + d_v * v) / b;
            grad[0] += d_a;
            grad[1] += d_a * m;
            grad[2] += d_b;
            grad[3] += d_b * m;
        }
        let n = samples.len().max(1) as f64;
        grad.map(|g| g / n)
    }

    /// Maximum-likelihood fit by damped Newton steps (the Hessian from differences of the
    /// analytic gradient). With `use_material` false, `a` and `b` stay constant (the
    /// material terms are held at zero): the baseline that ignores material.
    pub fn fit(samples: &[Sample], use_material: bool) -> WdlModel {
        let free: [bool; 4] = [true, use_material, true, use_material];
        let mut p = [150.0, 0.0, 100.0, 0.0];
        let mut loss = WdlModel::from_parameters(p).log_loss(samples);
        let mut damping = 1e-9;
        for _ in 0..200 {
            let model = WdlModel::from_parameters(p);
            let grad = masked(model.gradient(samples), free);
            let hessian = numeric_hessian(p, free, samples);
            let mut improved = false;
            for _ in 0..20 {
                let mut system = hessian;
                for (i, row) in system.iter_mut().enumerate() {
                    row[i] += damping * (1.0 + row[i].abs());
                }
                let Some(step) = solve(system, grad.map(|g| -g)) else {
                    damping = (damping * 10.0).max(1e-6);
                    continue;
                };
                let trial: [f64; 4] = std::array::from_fn(|i| p[i] + step[i]);
                let trial_loss = WdlModel::from_parameters(trial).log_loss(samples);
                if trial_loss.is_finite() && trial_loss <= loss {
                    let gain = loss - trial_loss;
                    p = trial;
                    loss = trial_loss;
                    damping = (damping / 10.0).max(1e-12);
                    improved = gain > 1e-13;
                    break;
                }
                damping = (damping * 10.0).max(1e-6);
            }
            if !improved {
                break;
            }
        }
        WdlModel::from_parameters(p)
    }
}

/// Probabilities below this count as this (a sample the model calls impossible would
/// otherwise make the log-loss infinite).
const PROBABILITY_FLOOR: f64 = 1e-12;

fn masked(mut v: [f64; 4], free: [bool; 4]) -> [f64; 4] {
    for (x, &f) in v.iter_mut().zip(&free) {
        if !f {
            *x = 0.0;
        }
    }
    v
}

/// Central differences of the analytic gradient; held parameters get an identity row.
fn numeric_hessian(p: [f64; 4], free: [bool; 4], samples: &[Sample]) -> [[f64; 4]; 4] {
    let mut h = [[0.0; 4]; 4];
    for j in 0..4 {
        if !free[j] {
            h[j][j] = 1.0;
            continue;
        }
        let step = 1e-4 * (1.0 + p[j].abs());
        let (mut up, mut down) = (p, p);
        up[j] += step;
        down[j] -= step;
        let g_up = masked(WdlModel::from_parameters(up).gradient(samples), free);
        let g_down = masked(WdlModel::from_parameters(down).gradient(samples), free);
        for i in 0..4 {
            h[i][j] = (g_up[i] - g_down[i]) / (2.0 * step);
        }
    }
    // Symmetrise what the differences left slightly asymmetric.
    std::array::from_fn(|i| std::array::from_fn(|j| 0.5 * (h[i][j] + h[j][i])))
}

/// Gaussian elimination with partial pivoting; `None` when singular.
fn solve(mut m: [[f64; 4]; 4], mut rhs: [f64; 4]) -> Option<[f64; 4]> {
    for col in 0..4 {
        let pivot = (col..4).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        rhs.swap(col, pivot);
        for row in col + 1..4 {
            let factor = m[row][col] / m[col][col];
            let pivot_row = m[col];
            for (value, pivot) in m[row].iter_mut().zip(pivot_row).skip(col) {
                *value -= factor * pivot;
            }
            rhs[row] -= factor * rhs[col];
        }
    }
    let mut x = [0.0; 4];
    for row in (0..4).rev() {
        let tail: f64 = (row + 1..4).map(|k| m[row][k] * x[k]).sum();
        x[row] = (rhs[row] - tail) / m[row][row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use horizon_search::score::{mate_in, mated_in, tb_win_in};

    #[test]
    fn per_mille_sums_to_1000_and_is_monotone_in_score() {
        let model = WdlModel::FITTED;
        for material in [0, 10, 40, MAX_MATERIAL] {
            let mut previous = [0u32, 0, 1000];
            for score in -3000..=3000 {
                let wdl = model.per_mille(score, material);
                assert_eq!(wdl.iter().sum::<u32>(), 1000, "{score} {material}");
                assert!(wdl[0] >= previous[0], "win falls at {score} ({material})");
                assert!(wdl[2] <= previous[2], "loss rises at {score} ({material})");
                previous = wdl;
            }
            let even = model.per_mille(0, material);
            assert_eq!(even[0], even[2], "a level score is symmetric");
        }
    }

    #[test]
    fn mates_and_table_results_are_certain() {
        let model = WdlModel::FITTED;
        assert_eq!(model.per_mille(mate_in(1), 30), [1000, 0, 0]);
        assert_eq!(model.per_mille(mated_in(2), 30), [0, 0, 1000]);
        assert_eq!(model.per_mille(tb_win_in(3), 5), [1000, 0, 0]);
        assert_eq!(model.per_mille(-tb_win_in(3), 5), [0, 0, 1000]);
    }

    #[test]
    fn material_counts_pieces_at_their_pawn_values() {
        assert_eq!(material(&Chess::default()), MAX_MATERIAL);
        let kqk: Chess = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("legal");
        assert_eq!(material(&kqk), 9);
    }

    /// Outcomes drawn from a known model (a small deterministic generator).
    fn synthetic(truth: WdlModel, n: usize) -> Vec<Sample> {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        (0..n)
            .map(|_| {
                let score = (next() - 0.5) * 1200.0;
                let material = (next() * f64::from(MAX_MATERIAL + 1)) as u32;
                let [win, draw, _] = truth.probabilities(score, material);
                let r = next();
                let outcome = if r < win {
                    Outcome::Win
                } else if r < win + draw {
                    Outcome::Draw
                } else {
                    Outcome::Loss
                };
                Sample {
                    score,
                    material,
                    outcome,
                }
            })
            .collect()
    }

    #[test]
    fn the_fit_recovers_a_known_model_and_material_helps_when_it_matters() {
        let truth = WdlModel {
            a: [90.0, 180.0],
            b: [60.0, 40.0],
        };
        let samples = synthetic(truth, 60_000);
        let fitted = WdlModel::fit(&samples, true);
        assert!((fitted.a[0] - 90.0).abs() < 15.0, "{fitted:?}");
        assert!((fitted.a[1] - 180.0).abs() < 30.0, "{fitted:?}");
        assert!((fitted.b[0] - 60.0).abs() < 12.0, "{fitted:?}");
        assert!((fitted.b[1] - 40.0).abs() < 20.0, "{fitted:?}");
        let flat = WdlModel::fit(&samples, false);
        assert_eq!((flat.a[1], flat.b[1]), (0.0, 0.0));
        assert!(fitted.log_loss(&samples) < flat.log_loss(&samples) - 0.01);
        assert!(fitted.log_loss(&samples) <= truth.log_loss(&samples) + 1e-9);
    }
}
