//! The evaluation traced: per-term breakdown (the UCI `eval` command) and the per-weight
//! counts Texel tuning fits (`horizon tune`).

use std::fmt;

use horizon_search::EvalKnowledge;
use shakmaty::{Chess, Color, Position as _};

use super::layout::{BLOCKS, NUM_WEIGHTS, Term, block_of};
use super::weights::WEIGHTS;
use super::{Context, MAX_PHASE, SCALE_NORMAL, Sink, Special, compute, endgame, taper};

/// Records counts per weight (White minus Black) and per-term sums with the current weights.
pub(crate) struct Tracer {
    coeffs: Box<[i32; NUM_WEIGHTS]>,
    /// `[term][side]` (middlegame, endgame), each side from its own view.
    terms: [[(i32, i32); 2]; Term::ALL.len()],
}

impl Tracer {
    fn new() -> Tracer {
        Tracer {
            coeffs: Box::new([0; NUM_WEIGHTS]),
            terms: [[(0, 0); 2]; Term::ALL.len()],
        }
    }

    fn white_sums(&self) -> (i32, i32) {
        let mut mg = 0;
        let mut eg = 0;
        for (i, &c) in self.coeffs.iter().enumerate() {
            mg += c * i32::from(WEIGHTS[i].0);
            eg += c * i32::from(WEIGHTS[i].1);
        }
        (mg, eg)
    }
}

impl Sink for Tracer {
    const TRACE: bool = true;

    fn add(&mut self, s: usize, index: usize, count: i32) {
        self.coeffs[index] += if s == 0 { count } else { -count };
        let (mg, eg) = WEIGHTS[index];
        let term = &mut self.terms[block_of(index).term as usize][s];
        term.0 += i32::from(mg) * count;
        term.1 += i32::from(eg) * count;
    }

    fn add_packed_white(&mut self, _packed: i32) {
        unreachable!("the tracer computes the pawn terms itself");
    }
}

/// The evaluation split into its terms, per colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalBreakdown {
    pub turn: Color,
    /// Material phase, 0 ..= [`MAX_PHASE`].
    pub phase: i32,
    /// Endgame scale out of [`SCALE_NORMAL`] (drawish endings below).
    pub scale: i32,
    /// Per term (middlegame, endgame) for White and Black, each from its own view.
    pub terms: Vec<(Term, [(i32, i32); 2])>,
    /// Set when a rule scored the position directly (White's view), bypassing the terms.
    pub direct: Option<(&'static str, i32)>,
    /// The mop-up gradient (White's view; 0 unless asked for and the ending has one).
    pub mop_up: i32,
    /// The tapered, scaled sum from White's view, with the mop-up gradient.
    pub white: i32,
    /// The final score from the side to move's view: equal to [`super::evaluate`].
    pub score: i32,
}

/// The evaluation of `chess` with its terms.
pub fn breakdown(chess: &Chess) -> EvalBreakdown {
    breakdown_with(chess, EvalKnowledge::default())
}

/// [`breakdown`] with the switchable knowledge of `knowledge` (`MopUp`, `KPKBitbase`).
pub fn breakdown_with(chess: &Chess, knowledge: EvalKnowledge) -> EvalBreakdown {
    let mut tracer = Tracer::new();
    let mut ctx = Context::new(chess);
    let special = compute(chess, &mut ctx, &mut tracer, None, None);
    let terms = Term::ALL
        .iter()
        .map(|&t| (t, tracer.terms[t as usize]))
        .collect();
    let kpk = if knowledge.kpk_bitbase {
        endgame::kpk_score(chess)
    } else {
        None
    };
    let (phase, scale, white, direct, mop_up) = match special {
        _ if let Some(score) = kpk => (
            super::phase(&ctx.pieces),
            SCALE_NORMAL,
            score,
            Some(("KPK bitbase", score)),
            0,
        ),
        Special::Direct(score) => {
            let why = if score == 0 {
                "insufficient material"
            } else {
                "KBN against K"
            };
            (
                super::phase(&ctx.pieces),
                SCALE_NORMAL,
                score,
                Some((why, score)),
                0,
            )
        }
        Special::Linear { phase } => {
            let (mg, eg) = tracer.white_sums();
            let scale = endgame::scale(&ctx.pieces, ctx.king, eg);
            let mop_up = if knowledge.mop_up && scale != 0 {
                endgame::mop_up(&ctx)
            } else {
                0
            };
            let white = taper(mg, eg, phase, scale) + mop_up;
            (phase, scale, white, None, mop_up)
        }
    };
    let score = if chess.turn() == Color::White {
        white
    } else {
        -white
    };
    EvalBreakdown {
        turn: chess.turn(),
        phase,
        scale,
        terms,
        direct,
        mop_up,
        white,
        score,
    }
}

impl fmt::Display for EvalBreakdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rule = "------------+-------------+-------------+-------------";
        writeln!(
            f,
            "{:<11} | {:>5} {:>5} | {:>5} {:>5} | {:>5} {:>5}",
            "Term", "W mg", "W eg", "B mg", "B eg", "Net mg", "eg"
        )?;
        writeln!(f, "{rule}")?;
        let (mut net_mg, mut net_eg) = (0, 0);
        for (term, [w, b]) in &self.terms {
            net_mg += w.0 - b.0;
            net_eg += w.1 - b.1;
            writeln!(
                f,
                "{:<11} | {:>5} {:>5} | {:>5} {:>5} | {:>5} {:>5}",
                term.name(),
                w.0,
                w.1,
                b.0,
                b.1,
                w.0 - b.0,
                w.1 - b.1
            )?;
        }
        writeln!(f, "{rule}")?;
        writeln!(
            f,
            "{:<11} | {:>11} | {:>11} | {:>5} {:>5}",
            "Total", "", "", net_mg, net_eg
        )?;
        match self.direct {
            Some((why, score)) => writeln!(f, "Scored by rule ({why}): {score:+} (White view)")?,
            None => {
                if self.mop_up != 0 {
                    writeln!(f, "Mop-up (White view): {:+}", self.mop_up)?;
                }
                writeln!(
                    f,
                    "Phase {}/{}, endgame scale {}/{}; tapered (White view) {:+}",
                    self.phase, MAX_PHASE, self.scale, SCALE_NORMAL, self.white
                )?
            }
        }
        let side = if self.turn == Color::White {
            "white"
        } else {
            "black"
        };
        write!(f, "Final ({side} to move): {:+} cp", self.score)
    }
}

/// What Texel tuning needs of a position: the evaluation as a linear function of the weights.
///
/// White's score = (Σ c·w_mg · phase + Σ c·w_eg · scale/64 · (24 − phase)) / 24, with the
/// counts `c` (White minus Black) in `coeffs`; see [`Features::white_eval`].
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    pub phase: i32,
    pub scale: i32,
    /// (weight index, count) for the non-zero counts.
    pub coeffs: Vec<(u16, i16)>,
}

impl Features {
    /// White's score under `weights` (middlegame, endgame), as a real number.
    pub fn white_eval(&self, weights: &[(f64, f64)]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, c) in &self.coeffs {
            let (wm, we) = weights[usize::from(i)];
            mg += f64::from(c) * wm;
            eg += f64::from(c) * we;
        }
        let phase = f64::from(self.phase);
        let max = f64::from(MAX_PHASE);
        let eg_factor = f64::from(self.scale) / f64::from(SCALE_NORMAL) * (max - phase) / max;
        mg * phase / max + eg * eg_factor
    }

    /// Factors by which the middlegame and endgame weights enter `white_eval` (the gradient
    /// of the score with respect to a weight is its count times the factor).
    pub fn factors(&self) -> (f64, f64) {
        let phase = f64::from(self.phase);
        let max = f64::from(MAX_PHASE);
        (
            phase / max,
            f64::from(self.scale) / f64::from(SCALE_NORMAL) * (max - phase) / max,
        )
    }
}

/// The linear features of `chess`, or `None` when a rule scores it directly (insufficient
/// material, KBN against K): those positions say nothing about the weights.
pub fn features(chess: &Chess) -> Option<Features> {
    let mut tracer = Tracer::new();
    let mut ctx = Context::new(chess);
    let special = compute(chess, &mut ctx, &mut tracer, None, None);
    let Special::Linear { phase } = special else {
        return None;
    };
    let (_, eg) = tracer.white_sums();
    let coeffs = tracer
        .coeffs
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c != 0)
        .map(|(i, &c)| (i as u16, c.clamp(i16::MIN.into(), i16::MAX.into()) as i16))
        .collect();
    Some(Features {
        phase,
        scale: endgame::scale(&ctx.pieces, ctx.king, eg),
        coeffs,
    })
}

/// The current weights as real numbers (the tuner's starting point).
pub fn current_weights() -> Vec<(f64, f64)> {
    WEIGHTS
        .iter()
        .map(|&(m, e)| (f64::from(m), f64::from(e)))
        .collect()
}

/// Renders `weights` (rounded) as the source of `weights.rs`; `header` lines become the
/// module doc comment (say how they were produced).
pub fn render_weights_source(weights: &[(f64, f64)], header: &[String]) -> String {
    assert_eq!(weights.len(), NUM_WEIGHTS);
    let mut out = String::new();
    out.push_str("//! Evaluation weights (middlegame, endgame) in centipawns, indexed as in `layout.rs`.\n//!\n");
    for line in header {
        out.push_str(&format!("//! {line}\n"));
    }
    out.push_str("\nuse super::layout::NUM_WEIGHTS;\n\n#[rustfmt::skip]\n");
    out.push_str("pub const WEIGHTS: [(i16, i16); NUM_WEIGHTS] = [\n");
    for block in BLOCKS {
        out.push_str(&format!("    // {}\n", block.name));
        let per_line = if block.name == "PST" { 4 } else { 8 };
        let values = &weights[block.start..block.start + block.len];
        for chunk in values.chunks(per_line) {
            out.push_str("   ");
            for &(m, e) in chunk {
                let clamp = |x: f64| x.round().clamp(-30000.0, 30000.0) as i32;
                out.push_str(&format!(" ({}, {}),", clamp(m), clamp(e)));
            }
            out.push('\n');
        }
    }
    out.push_str("];\n");
    out
}
