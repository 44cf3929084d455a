//! Aspiration windows with staged widening: search the next iteration with a window of
//! ±t1 around the previous score; on a fail, widen that side to ±t2, then open it.

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
}

impl Window {
    /// The first window: open when aspiration is off or the previous score is unknown or a
    /// mate (windows around mate scores only cause re-searches).
    pub fn new(enabled: bool, previous: Option<i32>, t1: i32, t2: i32) -> Window {
        match previous {
            Some(center) if enabled && !score::is_decisive(center) => Window {
                alpha: (center - t1).max(-INFINITY),
                beta: (center + t1).min(INFINITY),
                center,
                low_stage: 1,
                high_stage: 1,
                t1,
                t2,
            },
            _ => Window {
                alpha: -INFINITY,
                beta: INFINITY,
                center: 0,
                low_stage: 3,
                high_stage: 3,
                t1,
                t2,
            },
        }
    }

    fn bound(&self, stage: u8, sign: i32) -> i32 {
        match stage {
            1 => self.center + sign * self.t1,
            2 => self.center + sign * self.t2,
            _ => sign * INFINITY,
        }
    }

    /// After a fail low: widen downwards. Returns false if the window was already open.
    pub fn widen_low(&mut self) -> bool {
        if self.low_stage >= 3 {
            return false;
        }
        self.low_stage += 1;
        self.alpha = self.bound(self.low_stage, -1).max(-INFINITY);
        true
    }

    /// After a fail high: widen upwards.
    pub fn widen_high(&mut self) -> bool {
        if self.high_stage >= 3 {
            return false;
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
        let mut w = Window::new(true, Some(40), 25, 150);
        assert_eq!((w.alpha, w.beta), (15, 65));
        assert!(w.widen_low());
        assert_eq!((w.alpha, w.beta), (-110, 65));
        assert!(w.widen_low());
        assert_eq!(w.alpha, -INFINITY);
        assert!(!w.widen_low());
        assert!(w.widen_high());
        assert_eq!(w.beta, 190);
    }

    #[test]
    fn open_without_a_previous_score_or_near_mate() {
        let w = Window::new(true, None, 25, 150);
        assert_eq!((w.alpha, w.beta), (-INFINITY, INFINITY));
        let w = Window::new(true, Some(score::mate_in(5)), 25, 150);
        assert_eq!((w.alpha, w.beta), (-INFINITY, INFINITY));
        let w = Window::new(false, Some(10), 25, 150);
        assert_eq!((w.alpha, w.beta), (-INFINITY, INFINITY));
    }
}
