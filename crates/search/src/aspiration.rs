//! Aspiration windows: search the next iteration with a window of ±t1 around the previous
//! score. Staged widening (the default): on a fail, widen that side to ±t2 around the same
//! centre, then open it. Gradual widening (`aspiration_growth` > 0, the scheme of today's
//! engines such as Stockfish and Ethereal): each fail moves the failing bound past the value
//! just returned by the current half-width, which then grows by `growth` percent; a fail low
//! also draws beta halfway down, since the true score is probably lower than hoped.

use crate::score::{self, INFINITY};

/// The window of one aspiration attempt and how to widen it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    pub alpha: i32,
    pub beta: i32,
    center: i32,
    low_stage: u8,
    high_stage: u8,
    t1: i32,
    t2: i32,
    /// Gradual widening: the half-width of the next re-search, and its growth in percent
    /// (0: staged widening).
    delta: i32,
    growth: i32,
}

impl Window {
    /// The first window: open when aspiration is off or the previous score is unknown or a
    /// mate (windows around mate scores only cause re-searches).
    /// `growth`: 0 for staged widening, else gradual widening by that percent a fail.
    pub fn new(enabled: bool, previous: Option<i32>, t1: i32, t2: i32, growth: i32) -> Window {
        let delta = t1.max(1);
        match previous {
            Some(center) if enabled && !score::is_decisive(center) => Window {
                alpha: (center - t1).max(-INFINITY),
                beta: (center + t1).min(INFINITY),
                center,
                low_stage: 1,
                high_stage: 1,
                t1,
                t2,
                delta,
                growth: growth.max(0),
            },
            _ => Window {
                alpha: -INFINITY,
                beta: INFINITY,
                center: 0,
                low_stage: 3,
                high_stage: 3,
                t1,
                t2,
                delta,
                growth: growth.max(0),
            },
        }
    }

    /// Whether this window widens gradually (and so re-centres on each fail).
    pub fn gradual(&self) -> bool {
        self.growth > 0
    }

    /// Gradual widening: the next half-width, at least one more than this one.
    fn grow(&mut self) {
        let step = (i64::from(self.delta) * i64::from(self.growth) / 100).max(1);
        self.delta = (i64::from(self.delta) + step).min(i64::from(INFINITY)) as i32;
    }

    fn bound(&self, stage: u8, sign: i32) -> i32 {
        match stage {
            1 => self.center + sign * self.t1,
            2 => self.center + sign * self.t2,
            _ => sign * INFINITY,
        }
    }

    /// After a fail low at `value`: widen downwards. Returns false if the window was
    /// already open.
    pub fn widen_low(&mut self, value: i32) -> bool {
        if self.low_stage >= 3 {
            return false;
        }
        if self.gradual() {
            self.beta = (self.alpha + self.beta) / 2;
            // Drawn down from an open side, beta must be able to widen again.
            self.high_stage = 1;
            self.alpha = value.saturating_sub(self.delta).max(-INFINITY);
            if self.alpha == -INFINITY {
                self.low_stage = 3;
            }
            self.grow();
            return true;
        }
        self.low_stage += 1;
        self.alpha = self.bound(self.low_stage, -1).max(-INFINITY);
        true
    }

    /// After a fail high at `value`: widen upwards. Returns false if the window was
    /// already open.
    pub fn widen_high(&mut self, value: i32) -> bool {
        if self.high_stage >= 3 {
            return false;
        }
        if self.gradual() {
            self.beta = value.saturating_add(self.delta).min(INFINITY);
            if self.beta == INFINITY {
                self.high_stage = 3;
            }
            self.grow();
            return true;
        }
        self.high_stage += 1;
        self.beta = self.bound(self.high_stage, 1).min(INFINITY);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staged_widening_t1_t2_open() {
        let mut w = Window::new(true, Some(40), 25, 150, 0);
        assert_eq!((w.alpha, w.beta), (15, 65));
        assert!(w.widen_low(0));
        assert_eq!((w.alpha, w.beta), (-110, 65));
        assert!(w.widen_low(0));
        assert_eq!(w.alpha, -INFINITY);
        assert!(!w.widen_low(0));
        assert!(w.widen_high(100));
        assert_eq!(w.beta, 190);
    }

    /// Gradual widening re-centres each fail on the value returned, by a half-width that
    /// grows by the percent given, draws beta halfway down on a fail low, and ends open.
    #[test]
    fn gradual_widening_follows_the_value_and_grows() {
        let mut w = Window::new(true, Some(40), 20, 150, 50);
        assert_eq!((w.alpha, w.beta), (20, 60));
        // Fail low at 10: beta to the middle (40), alpha 10 − 20; next half-width 30.
        assert!(w.widen_low(10));
        assert_eq!((w.alpha, w.beta), (-10, 40));
        // Fail high at 55: beta 55 + 30; next half-width 45.
        assert!(w.widen_high(55));
        assert_eq!((w.alpha, w.beta), (-10, 85));
        // Fail low again at −30: beta (−10 + 85) / 2 = 37, alpha −30 − 45.
        assert!(w.widen_low(-30));
        assert_eq!((w.alpha, w.beta), (-75, 37));
        // A fail past what the half-width can reach opens that side, and it stays open.
        assert!(w.widen_high(INFINITY - 10));
        assert_eq!(w.beta, INFINITY);
        assert!(!w.widen_high(INFINITY));
        // A fail low then draws the open beta down, and it can widen again.
        assert!(w.widen_low(-100));
        assert!(w.beta < INFINITY);
        assert!(w.widen_high(w.beta));
        let mut w = Window::new(true, Some(0), 20, 150, 100);
        let mut fails = 0;
        while w.widen_low(w.alpha) {
            fails += 1;
            assert!(fails < 64, "the window never opened");
        }
        assert_eq!(w.alpha, -INFINITY);
    }

    #[test]
    fn open_without_a_previous_score_or_near_mate() {
        let w = Window::new(true, None, 25, 150, 0);
        assert_eq!((w.alpha, w.beta), (-INFINITY, INFINITY));
        let w = Window::new(true, Some(score::mate_in(5)), 25, 150, 0);
        assert_eq!((w.alpha, w.beta), (-INFINITY, INFINITY));
        let w = Window::new(false, Some(10), 25, 150, 50);
        assert_eq!((w.alpha, w.beta), (-INFINITY, INFINITY));
    }
}
