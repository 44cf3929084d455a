//! Time management: how long to think, from the clock.
//!
//! `go movetime T` is a fixed time: the search runs for T minus the move overhead and stops
//! earlier only for a single legal move or a settled mate, as the UCI spec asks ("search
//! exactly x mseconds").
//!
//! With a clock (`wtime`/`btime`), the dynamic scheme of the course project: estimate the
//! moves still to play from the game phase (more in the opening, fewer in the endgame, or
//! `movestogo` when given), give each the time left divided by that number plus most of the
//! increment, and cap it. A soft limit stops the search between iterations (an iteration is
//! not started that probably cannot finish); a hard limit aborts it. During the search the
//! soft limit grows when the best move changes or the score drops, and shrinks when the best
//! move is stable.

use std::time::Duration;

use horizon_search::score::mate_is_settled;

use crate::protocol::GoParams;

/// The time budget of one move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimePlan {
    /// Target: no new iteration once it is (nearly) used up.
    pub soft: Duration,
    /// Never think longer than this.
    pub hard: Duration,
    /// `movetime`: search until `hard`, with no clock-based scaling.
    pub fixed: bool,
}

/// How many move overheads a low clock keeps out of reach of the hard limit: below nine
/// overheads on the clock (90 ms at the default 10 ms) the move may only use what lies above
/// five. A process stalled past its limit (10-15 ms at 2+0.02 on a loaded 2-core machine)
/// costs the clock more than the plan sees; with an increment the clock settles where each
/// move's thinking time equals the increment minus that loss, whatever the caps, so the
/// reserve costs no thinking time there and only raises the level the clock settles at (from
/// about 20 to 55 ms at 2+0.02 with 15 ms lost a move): a buffer against one longer stall.
const LOW_CLOCK_RESERVE: u32 = 5;

/// The plan for `go`, or `None` when the search is not timed (depth, nodes, mate,
/// infinite). `phase` is 24 for a full middlegame down to 0 for bare kings; `white` is the
/// side to move.
pub fn plan(go: &GoParams, white: bool, phase: u32, overhead: Duration) -> Option<TimePlan> {
    if let Some(movetime) = go.movetime {
        let movetime = Duration::from_millis(movetime.max(1) as u64);
        // Keep the overhead clear, but never drop below half the time given.
        let budget = movetime
            .saturating_sub(overhead)
            .max(movetime / 2)
            .max(Duration::from_millis(1));
        return Some(TimePlan {
            soft: budget,
            hard: budget,
            fixed: true,
        });
    }
    let (time, increment) = if white {
        (go.wtime, go.winc)
    } else {
        (go.btime, go.binc)
    };
    let time = Duration::from_millis(time?.max(0) as u64);
    let increment = Duration::from_millis(increment.unwrap_or(0).max(0) as u64);
    let left = time.saturating_sub(overhead).max(Duration::from_millis(1));
    let moves_left = match go.movestogo {
        Some(n) if n > 0 => n.min(60),
        _ => 16 + 24 * phase.min(24) / 24, // 40 in the opening, 16 in a bare endgame
    };
    // Every move costs the overhead (GUI and pipe latency, a stalled process), not only
    // this one: plan with the time of all expected moves minus their overheads, as
    // Stockfish does. Without it a low clock with an increment kept shrinking, since each
    // move cost its share plus the latency the engine never saw.
    let horizon = time + increment * (moves_left - 1);
    let share = horizon
        .saturating_sub(overhead * (moves_left + 2))
        .max(Duration::from_millis(1))
        / moves_left;
    // Caps: one move never takes more than a fifth of the clock as a target, nor more than
    // half of it in the worst case (a loaded machine can stall a process for tens of ms),
    // and never the last `LOW_CLOCK_RESERVE` overheads of a low clock (see there).
    let hard_cap = (left / 2)
        .min(time.saturating_sub(overhead * LOW_CLOCK_RESERVE))
        .max(Duration::from_millis(1));
    let soft = share.min(left / 5).min(hard_cap);
    let hard = (share * 3).min(hard_cap); // never below `soft`: share ≤ 3·share, same cap
    Some(TimePlan {
        soft,
        hard,
        fixed: false,
    })
}

/// What time management reads from a finished iteration.
#[derive(Copy, Clone, Debug)]
pub struct Finished<'a> {
    pub depth: u32,
    /// The best move, in UCI notation.
    pub best: &'a str,
    pub score: i32,
    /// Nodes the iteration spent under its best move and under all root moves (0: unknown).
    pub best_move_nodes: u64,
    pub root_nodes: u64,
}

/// The depth from which the best move's share of the nodes is trusted: shallower
/// iterations are too small to say anything.
const NODE_SHARE_MIN_DEPTH: u32 = 6;

/// How much the target grows or shrinks with the share of the iteration's nodes spent
/// under the best move (`TimeNodeShare`): a move that needed most of the effort had no
/// serious rival, so the position is decided sooner; a small share means other moves took
/// long to refute and the choice is close. A share of 0.6, typical at the depths a fast game
/// reaches (measured on 40 UHO opening positions at 150 ms a move: medians 0.43-0.72 at
/// depths 8-12), leaves the target as it is. The idea is that of Stockfish's and Ethereal's
/// node-based time management; the line and its bounds are Horizon's own.
fn node_share_factor(best_move_nodes: u64, root_nodes: u64) -> f64 {
    if root_nodes == 0 {
        return 1.0;
    }
    let share = best_move_nodes as f64 / root_nodes as f64;
    (0.5 + 1.25 * (1.0 - share)).clamp(0.6, 1.5)
}

/// Decides after each iteration whether to stop (the hard limit is the search's deadline).
pub struct TimeManager {
    plan: TimePlan,
    /// Root moves the search chooses from (1: nothing to think about).
    root_moves: usize,
    /// Scale the target by the best move's share of the nodes (`TimeNodeShare`).
    node_share: bool,
    last_best: Option<String>,
    last_score: Option<i32>,
    stable_iterations: u32,
    scale: f64,
}

impl TimeManager {
    pub fn new(plan: TimePlan, root_moves: usize, node_share: bool) -> TimeManager {
        TimeManager {
            plan,
            root_moves,
            node_share,
            last_best: None,
            last_score: None,
            stable_iterations: 0,
            scale: 1.0,
        }
    }

    /// After an iteration: whether to stop now, given the time used so far.
    pub fn stop_after_iteration(&mut self, elapsed: Duration, done: &Finished<'_>) -> bool {
        let Finished {
            depth, best, score, ..
        } = *done;
        if self.root_moves <= 1 || mate_is_settled(score, depth) {
            return true;
        }
        if self.plan.fixed {
            return false;
        }
        let changed = self.last_best.as_deref().is_some_and(|b| b != best);
        let dropped = self.last_score.is_some_and(|s| score < s - 30);
        self.stable_iterations = if changed {
            0
        } else {
            self.stable_iterations + 1
        };
        self.scale = if changed {
            (self.scale * 1.5).min(2.5)
        } else if dropped {
            (self.scale * 1.3).min(2.5)
        } else if self.stable_iterations >= 4 {
            (self.scale * 0.9).max(0.6)
        } else {
            self.scale
        };
        self.last_best = Some(best.to_owned());
        self.last_score = Some(score);
        let effort = if self.node_share && depth >= NODE_SHARE_MIN_DEPTH {
            node_share_factor(done.best_move_nodes, done.root_nodes)
        } else {
            1.0
        };
        let target = self
            .plan
            .soft
            .mul_f64(self.scale * effort)
            .min(self.plan.hard);
        // The next iteration takes about as long as all before it: start it only if it can
        // finish near the target.
        elapsed >= target.mul_f64(0.55)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(wtime: i64, winc: i64, movestogo: Option<u32>) -> GoParams {
        GoParams {
            wtime: Some(wtime),
            btime: Some(wtime),
            winc: Some(winc),
            binc: Some(winc),
            movestogo,
            ..GoParams::default()
        }
    }

    /// A game in which every move costs its soft limit plus the full overhead (the latency
    /// the engine cannot see): the clock must never run out, from any start.
    #[test]
    fn low_clock_with_increment_survives_latency() {
        let overhead = Duration::from_millis(30);
        for (start_ms, inc_ms) in [(120, 40), (500, 40), (4000, 40), (10_000, 100), (300, 100)] {
            let mut clock = start_ms as i64;
            for _ in 0..300 {
                let plan = plan(&go(clock, inc_ms, None), true, 8, overhead).expect("timed");
                clock -= plan.soft.as_millis() as i64 + overhead.as_millis() as i64;
                assert!(clock > 0, "start {start_ms}+{inc_ms}: flagged");
                clock += inc_ms;
            }
        }
    }

    /// 2+0.02 with the default 10 ms overhead, every move overshooting its hard limit by
    /// 15 ms (a stalled process on a loaded machine): once the clock is low it settles near
    /// `LOW_CLOCK_RESERVE` overheads instead of near 20 ms, and never runs out.
    #[test]
    fn low_clock_keeps_its_reserve_when_moves_overshoot() {
        let overhead = Duration::from_millis(10);
        let stall = 15;
        let mut clock: i64 = 2000;
        let mut lowest = clock;
        for moves in 0..400 {
            let plan = plan(&go(clock, 20, None), true, 8, overhead).expect("timed");
            clock -= plan.hard.as_millis() as i64 + stall;
            assert!(clock > 0, "flagged after {moves} moves");
            clock += 20;
            if moves >= 100 {
                lowest = lowest.min(clock);
            }
        }
        assert!(lowest >= 50, "settled at {lowest} ms");
        assert!(
            lowest <= 100,
            "settled at {lowest} ms: the clock never got low"
        );
    }

    #[test]
    fn never_more_than_the_clock_allows() {
        let overhead = Duration::from_millis(30);
        for (ms, inc, mtg) in [
            (60_000, 0, None),
            (1_000, 20, None),
            (100, 0, None),
            (50, 0, Some(1)),
            (-20, 0, None),
            (10, 1000, None),
        ] {
            let plan = plan(&go(ms, inc, mtg), true, 24, overhead).expect("timed");
            let available = Duration::from_millis(ms.max(0) as u64)
                .saturating_sub(overhead)
                .max(Duration::from_millis(1));
            assert!(plan.soft <= plan.hard, "{ms}");
            assert!(
                plan.hard <= available.max(Duration::from_millis(1)),
                "{ms}+{inc}: {plan:?} > {available:?}"
            );
        }
    }

    #[test]
    fn more_time_in_the_opening_share_than_the_endgame_moves() {
        let overhead = Duration::ZERO;
        let opening = plan(&go(60_000, 0, None), true, 24, overhead).expect("timed");
        let endgame = plan(&go(60_000, 0, None), true, 0, overhead).expect("timed");
        assert_eq!(opening.soft, Duration::from_millis(1_500));
        assert_eq!(endgame.soft, Duration::from_millis(3_750));
        let with_mtg = plan(&go(60_000, 0, Some(10)), true, 24, overhead).expect("timed");
        assert_eq!(with_mtg.soft, Duration::from_millis(6_000));
    }

    /// `go movetime 1000` with the default 30 ms overhead.
    fn movetime_1000_plan() -> TimePlan {
        plan(
            &GoParams {
                movetime: Some(1000),
                ..GoParams::default()
            },
            true,
            24,
            Duration::from_millis(30),
        )
        .expect("timed")
    }

    #[test]
    fn movetime_and_untimed() {
        let p = movetime_1000_plan();
        assert_eq!(p.hard, Duration::from_millis(970));
        assert!(p.fixed);
        assert!(
            plan(
                &GoParams {
                    depth: Some(5),
                    ..GoParams::default()
                },
                true,
                24,
                Duration::ZERO
            )
            .is_none()
        );
        assert!(
            plan(
                &GoParams {
                    wtime: Some(5),
                    ..GoParams::default()
                },
                false,
                24,
                Duration::ZERO
            )
            .is_none()
        );
    }

    fn finished(depth: u32, best: &str, score: i32) -> Finished<'_> {
        Finished {
            depth,
            best,
            score,
            best_move_nodes: 0,
            root_nodes: 0,
        }
    }

    #[test]
    fn unstable_best_moves_earn_more_time() {
        let p = TimePlan {
            soft: Duration::from_millis(1000),
            hard: Duration::from_millis(4000),
            fixed: false,
        };
        let mut stable = TimeManager::new(p, 20, false);
        let mut unstable = TimeManager::new(p, 20, false);
        let t = Duration::from_millis(700);
        let moves = ["e2e4", "d2d4", "c2c4", "g1f3"];
        let mut stable_stop = false;
        let mut unstable_stop = false;
        for (i, m) in moves.iter().enumerate() {
            stable_stop = stable.stop_after_iteration(t, &finished(i as u32 + 1, "e2e4", 20));
            unstable_stop =
                unstable.stop_after_iteration(t, &finished(i as u32 + 1, m, 20 - i as i32 * 40));
        }
        assert!(stable_stop && !unstable_stop);
    }

    /// `movetime`: a stable best move late in the time does not end the search; a single
    /// legal move and a settled mate do.
    #[test]
    fn movetime_is_not_scaled() {
        let p = movetime_1000_plan();
        let mut fixed = TimeManager::new(p, 20, true);
        for depth in 1..30 {
            let late = Duration::from_millis(900);
            assert!(
                !fixed.stop_after_iteration(late, &finished(depth, "e2e4", 20)),
                "{depth}"
            );
        }
        let mate_in_2 = horizon_search::score::mate_in(3);
        assert!(!fixed.stop_after_iteration(Duration::ZERO, &finished(10, "e2e4", mate_in_2)));
        assert!(fixed.stop_after_iteration(Duration::ZERO, &finished(11, "e2e4", mate_in_2)));
        let mut forced = TimeManager::new(p, 1, true);
        assert!(forced.stop_after_iteration(Duration::ZERO, &finished(1, "e2e4", 0)));
    }
    /// `TimeNodeShare`: at the same elapsed time, an iteration whose best move took nearly
    /// all the nodes stops, one whose best move took a fifth goes on; off (or too shallow
    /// to trust), the shares change nothing.
    #[test]
    fn node_share_scales_the_target() {
        let p = TimePlan {
            soft: Duration::from_millis(1000),
            hard: Duration::from_millis(4000),
            fixed: false,
        };
        // 0.55 of the target: 550 ms unscaled, 330 ms at share 0.95 (factor 0.6), 825 ms
        // at share 0.2 (factor 1.5).
        let elapsed = Duration::from_millis(450);
        let done = |depth, best_move_nodes| Finished {
            depth,
            best: "e2e4",
            score: 20,
            best_move_nodes,
            root_nodes: 1000,
        };
        let stops = |node_share: bool, depth: u32, best_move_nodes: u64| {
            TimeManager::new(p, 20, node_share)
                .stop_after_iteration(elapsed, &done(depth, best_move_nodes))
        };
        assert!(stops(true, 10, 950), "settled: stop");
        assert!(!stops(true, 10, 200), "contested: go on");
        assert!(!stops(false, 10, 950), "off");
        assert!(!stops(true, NODE_SHARE_MIN_DEPTH - 1, 950), "too shallow");
        assert_eq!(node_share_factor(600, 1000), 1.0);
        assert_eq!(node_share_factor(5, 0), 1.0, "unknown");
        assert!(node_share_factor(1000, 1000) >= 0.6 && node_share_factor(0, 1000) <= 1.5);
    }
}
