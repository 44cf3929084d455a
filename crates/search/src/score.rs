//! Score conventions: centipawn-like integers, mate scores carrying the distance in plies.

/// Deepest ply the search reaches (arrays indexed by ply are this long).
pub const MAX_PLY: usize = 128;
/// Larger than any score.
pub const INFINITY: i32 = 32_000;
/// A mate at the root (mate in 0 plies). Mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores at least this large (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// A win an endgame table proves, at the root. A table win found `n` plies from the root
/// scores `TB_WIN - n`: below every mate (a mate found by the search is a surer and usually
/// shorter win) and above every evaluation.
pub const TB_WIN: i32 = MATE_BOUND - 1 - MAX_PLY as i32;
/// Scores at least this large (in absolute value) are table results or mates.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// A draw.
pub const DRAW: i32 = 0;

/// The score of being mated at `ply`.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// The score of mating at `ply`.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The score of a table win at `ply` (shorter paths to the table win score higher).
#[inline]
pub const fn tb_win_in(ply: usize) -> i32 {
    TB_WIN - ply as i32
}

/// The score of a table loss at `ply`.
#[inline]
pub const fn tb_loss_in(ply: usize) -> i32 {
    -TB_WIN + ply as i32
}

#[inline]
pub const fn is_mate(score: i32) -> bool {
    score >= MATE_BOUND || score <= -MATE_BOUND
}

/// Whether the score is a proven result (a mate or a table win or loss), not an estimate:
/// pruning margins and aspiration windows make no sense around it.
#[inline]
pub const fn is_decisive(score: i32) -> bool {
    score >= TB_WIN_BOUND || score <= -TB_WIN_BOUND
}

/// Mate and table scores are stored relative to the node (distance from it), not the root.
#[inline]
pub const fn to_table(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Inverse of [`to_table`].
#[inline]
pub const fn from_table(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Mate in moves as UCI prints it (`score mate N`): positive when the side to move mates.
#[inline]
pub const fn mate_moves(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-((MATE + score) / 2))
    } else {
        None
    }
}

/// Whether a mate score found by an iteration of nominal `depth` is settled: the iteration
/// reached well beyond the mate (two plies per move plus four), so a deeper search would not
/// find a shorter one. Timed searches stop on it instead of using the rest of their time.
#[inline]
pub const fn mate_is_settled(score: i32, depth: u32) -> bool {
    is_mate(score) && depth as i32 > 2 * (MATE - score.abs()) + 4
}

/// Keeps evaluations clear of the table-win and mate range.
#[inline]
pub const fn clamp_eval(value: i32) -> i32 {
    if value > TB_WIN_BOUND - 1 {
        TB_WIN_BOUND - 1
    } else if value < -TB_WIN_BOUND + 1 {
        -TB_WIN_BOUND + 1
    } else {
        value
    }
}

/// What a value says about the true score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score (a PV node).
    Exact,
    /// The true score is at least this (a fail high / cut node).
    Lower,
    /// The true score is at most this (a fail low / all node).
    Upper,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip_through_the_table() {
        for ply in 0..MAX_PLY {
            for score in [mate_in(ply + 3), mated_in(ply + 2), 123, -45, DRAW] {
                assert_eq!(from_table(to_table(score, ply), ply), score);
            }
        }
        // A mate found 3 plies below a node at ply 5 is mate in 3 from that node.
        assert_eq!(to_table(mate_in(8), 5), mate_in(3));
    }

    #[test]
    fn table_scores_sit_between_evaluations_and_mates() {
        assert!(tb_win_in(MAX_PLY) > clamp_eval(i32::MAX));
        assert!(tb_win_in(0) < mate_in(MAX_PLY));
        assert!(is_decisive(tb_win_in(MAX_PLY)) && is_decisive(tb_loss_in(MAX_PLY)));
        assert!(!is_mate(tb_win_in(0)) && !is_mate(tb_loss_in(0)));
        assert!(!is_decisive(clamp_eval(i32::MIN)));
        assert_eq!(mate_moves(tb_win_in(3)), None);
        // Stored relative to the node, like mates.
        assert_eq!(to_table(tb_win_in(9), 4), tb_win_in(5));
        for ply in 0..MAX_PLY {
            for score in [tb_win_in(ply + 2), tb_loss_in(ply + 1)] {
                assert_eq!(from_table(to_table(score, ply), ply), score);
            }
        }
    }

    #[test]
    fn uci_mate_distance() {
        assert_eq!(mate_moves(mate_in(1)), Some(1));
        assert_eq!(mate_moves(mate_in(3)), Some(2));
        assert_eq!(mate_moves(mated_in(2)), Some(-1));
        assert_eq!(mate_moves(mated_in(0)), Some(0));
        assert_eq!(mate_moves(55), None);
    }

    #[test]
    fn a_mate_is_settled_only_well_inside_the_depth() {
        // Mate in 2 moves is 3 plies: settled from depth 11 on.
        assert!(!mate_is_settled(mate_in(3), 10));
        assert!(mate_is_settled(mate_in(3), 11));
        assert!(mate_is_settled(mated_in(4), 13));
        assert!(!mate_is_settled(mated_in(4), 12));
        assert!(!mate_is_settled(250, 60));
    }
}
