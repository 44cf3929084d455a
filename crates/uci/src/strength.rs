//! `UCI_LimitStrength` and `UCI_Elo`: a weaker Horizon for people who play against it.
//!
//! Two levers, both honest play rather than sabotage, driven by one internal level: a node
//! budget per move that doubles every 110 level points (a deeper search is a stronger
//! player; the budget is checked between iterations, so the first iteration always
//! completes), and, below level 2200, a choice among the four best lines of a MultiPV search
//! with probability falling exponentially with each line's deficit (a softmax whose
//! temperature grows as the level falls). A line more than [`StrengthLimit::max_loss`] below
//! the best by the engine's own search is never chosen, so the weakened engine misjudges but
//! never throws pieces away on purpose. Which level plays at which rating comes from
//! calibration games against an engine with a published rating scale ([`CALIBRATION`],
//! `docs/strength-limit.md`).

use horizon_search::Line;
use horizon_search::score::is_decisive;

/// The lowest rating offered.
pub const MIN_ELO: u32 = 1000;
/// The highest rating offered (above it, play at full strength: switch the limit off).
pub const MAX_ELO: u32 = 2100;
/// `UCI_Elo`'s default.
pub const DEFAULT_ELO: u32 = 1600;
/// Lines searched to choose from.
const LINES: usize = 4;
/// The node budget at level 1000 ...
const NODES_AT_LEVEL_1000: f64 = 64.0;
/// ... doubling every this many level points.
const LEVEL_PER_DOUBLING: f64 = 110.0;
/// From this level on the best line is always played.
const EXACT_FROM_LEVEL: f64 = 2200.0;
/// Temperature (centipawns) per level point below [`EXACT_FROM_LEVEL`].
const TEMPERATURE_PER_LEVEL: f64 = 0.12;

/// The calibration: `(rating, level)` pairs, the level (from which the node budget and the
/// temperature follow) that scored even against Stockfish 15.1's `UCI_Elo` at that rating
/// (`docs/strength-limit.md`); interpolated linearly in between.
const CALIBRATION: [(f64, f64); 6] = [
    (1000.0, 1000.0),
    (1400.0, 1500.0),
    (1650.0, 1770.0),
    (1800.0, 1920.0),
    (1900.0, 2050.0),
    (2100.0, 2200.0),
];

/// The level that plays at `elo` (within the calibrated range).
fn level_for(elo: u32) -> f64 {
    let elo = f64::from(elo);
    for pair in CALIBRATION.windows(2) {
        let ((e0, l0), (e1, l1)) = (pair[0], pair[1]);
        if elo <= e1 {
            return l0 + (elo - e0).max(0.0) * (l1 - l0) / (e1 - e0);
        }
    }
    CALIBRATION[CALIBRATION.len() - 1].1
}

/// A strength setting: `UCI_Elo` when `UCI_LimitStrength` is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrengthLimit {
    elo: u32,
}

impl StrengthLimit {
    /// The setting for a rating, clamped to [`MIN_ELO`]..=[`MAX_ELO`].
    pub fn new(elo: u32) -> StrengthLimit {
        StrengthLimit {
            elo: elo.clamp(MIN_ELO, MAX_ELO),
        }
    }

    pub fn elo(&self) -> u32 {
        self.elo
    }

    /// Nodes per move: no iteration starts after this many.
    pub fn nodes(&self) -> u64 {
        let doublings = (level_for(self.elo) - 1000.0) / LEVEL_PER_DOUBLING;
        (NODES_AT_LEVEL_1000 * doublings.exp2()).round() as u64
    }

    /// MultiPV lines the search needs (at least this many are searched).
    pub fn lines(&self) -> usize {
        if self.temperature() > 0.0 { LINES } else { 1 }
    }

    /// The softmax temperature of the choice among lines, in centipawns (0: the best).
    pub fn temperature(&self) -> f64 {
        (EXACT_FROM_LEVEL - level_for(self.elo)).max(0.0) * TEMPERATURE_PER_LEVEL
    }

    /// The largest deficit (centipawns, by the engine's own search) a chosen line may have.
    pub fn max_loss(&self) -> i32 {
        (2.0 * self.temperature()).min(250.0).round() as i32
    }

    /// The line to play, given a uniform random number `u` in `[0, 1)`: the best line, or
    /// one of the others close enough to it, with weight `exp(-deficit / temperature)`.
    /// Never a line whose score is a proven loss while the best is not.
    pub fn choose<'a, M>(&self, lines: &'a [Line<M>], u: f64) -> Option<&'a Line<M>> {
        let best = lines.first()?;
        let temperature = self.temperature();
        if temperature <= 0.0 || lines.len() == 1 || is_decisive(best.score) {
            return Some(best);
        }
        let eligible = |line: &Line<M>| {
            !line.moves.is_empty()
                && !is_decisive(line.score)
                && best.score - line.score <= self.max_loss()
        };
        let weight = |line: &Line<M>| (-f64::from(best.score - line.score) / temperature).exp();
        let total: f64 = lines.iter().filter(|l| eligible(l)).map(weight).sum();
        let mut target = u.clamp(0.0, 1.0) * total;
        for line in lines.iter().filter(|l| eligible(l)) {
            target -= weight(line);
            if target < 0.0 {
                return Some(line);
            }
        }
        Some(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use horizon_search::Bound;
    use horizon_search::score::{mate_in, mated_in};

    fn line(score: i32, first: u32) -> Line<u32> {
        Line {
            score,
            bound: Bound::Exact,
            moves: vec![first, 100 + first],
        }
    }

    #[test]
    fn nodes_grow_with_the_rating_and_the_top_plays_its_best_line() {
        let mut previous = 0;
        for elo in (MIN_ELO..=MAX_ELO).step_by(50) {
            let limit = StrengthLimit::new(elo);
            assert!(limit.nodes() > previous, "{elo}");
            previous = limit.nodes();
        }
        assert_eq!(StrengthLimit::new(MIN_ELO).nodes(), 64);
        assert_eq!(StrengthLimit::new(MAX_ELO).temperature(), 0.0);
        assert_eq!(StrengthLimit::new(MAX_ELO).lines(), 1);
        assert_eq!(StrengthLimit::new(MIN_ELO).lines(), 4);
        // The calibration points themselves.
        assert!((level_for(1400) - 1500.0).abs() < 1e-9);
        assert!((level_for(1800) - 1920.0).abs() < 1e-9);
        // Linear in between.
        assert!((level_for(1200) - 1250.0).abs() < 1e-9);
        assert_eq!(StrengthLimit::new(0).elo(), MIN_ELO);
        assert_eq!(StrengthLimit::new(9999).elo(), MAX_ELO);
    }

    #[test]
    fn the_choice_keeps_within_the_loss_limit_and_follows_the_weights() {
        let limit = StrengthLimit::new(MIN_ELO);
        let lines = [line(50, 1), line(30, 2), line(-150, 3), line(-900, 4)];
        let mut counts = [0usize; 5];
        for i in 0..10_000 {
            let u = (f64::from(i) + 0.5) / 10_000.0;
            let chosen = limit.choose(&lines, u).expect("a line");
            counts[chosen.moves[0] as usize] += 1;
        }
        // 900+ cp worse: never; the best is the most likely.
        assert_eq!(counts[4], 0);
        assert!(counts[1] > counts[2] && counts[2] > counts[3] && counts[3] > 0);
        let t = limit.temperature();
        let expected_second = (-20.0 / t).exp() / (1.0 + (-20.0 / t).exp() + (-200.0 / t).exp());
        let measured_second = counts[2] as f64 / 10_000.0;
        assert!((measured_second - expected_second).abs() < 0.01);
    }

    #[test]
    fn proven_results_and_full_strength_take_the_best_line() {
        let lines = [line(mate_in(5), 1), line(20, 2)];
        assert_eq!(
            StrengthLimit::new(MIN_ELO)
                .choose(&lines, 0.99)
                .map(|l| l.moves[0]),
            Some(1)
        );
        let lines = [line(40, 1), line(mated_in(4), 2)];
        assert_eq!(
            StrengthLimit::new(MIN_ELO)
                .choose(&lines, 0.99)
                .map(|l| l.moves[0]),
            Some(1)
        );
        let lines = [line(40, 1), line(39, 2)];
        assert_eq!(
            StrengthLimit::new(MAX_ELO)
                .choose(&lines, 0.99)
                .map(|l| l.moves[0]),
            Some(1)
        );
        assert!(
            StrengthLimit::new(MIN_ELO)
                .choose::<u32>(&[], 0.5)
                .is_none()
        );
    }
}
