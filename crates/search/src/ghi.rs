//! The graph history interaction (GHI): values that rest on draws by rule depend on the path
//! that reached a position. Three modes (`SearchConfig::ghi`):
//! - `ignore`: the naive table, for comparison;
//! - `mark`: such values are flagged in the table and never cut off;
//! - `exact`: Kishimoto & Müller's general solution ("A General Solution to the Graph
//!   History Interaction Problem", AAAI 2004) carried over from proof-number search to
//!   alpha-beta values. A value records how far up the path its draws reached (the
//!   [`Dependence`]); a value whose draws all lie at or below its own node rests on nothing
//!   above it and is stored as an ordinary entry. Otherwise the entry keeps that distance
//!   and a signature of the positions along it (`Game::history_signature`), and cuts off
//!   only on a path whose last positions over the same distance have the same signature:
//!   reused exactly along compatible paths, refused elsewhere.
//!
//! Like `mark` and like the tables of practical engines, `exact` guards one side of the
//! problem, the draws a value rests on. K&M's proof-number search also re-checks the other
//! side (a line that would repeat the new path, though it did not repeat the old one) by
//! simulating the stored proof; alpha-beta trees are too large to simulate per probe.

use crate::config::GhiMode;
use crate::game::{Draw, Game};
use crate::searcher::Searcher;
use crate::tt::{EntryFlags, Hit, PATH_SIGNATURE_BITS, Store};

/// Bits of an entry's path information that hold the distance; the rest hold the signature.
const DISTANCE_BITS: u32 = 8;
/// A distance this large or more means the whole history, move-rule count included.
const WHOLE_HISTORY_DISTANCE: usize = (1 << DISTANCE_BITS) - 1;
const SIGNATURE_MASK: u64 = (1 << (PATH_SIGNATURE_BITS - DISTANCE_BITS)) - 1;

/// The shallowest position of the game (its ply since the game object was set up) that a
/// value rests on: where a repetition found its earlier occurrence, or the start for a
/// move-rule draw (which rests on the whole history). [`Dependence::NONE`]: no draw by rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Dependence(usize);

impl Dependence {
    pub(crate) const NONE: Self = Dependence(usize::MAX);
    pub(crate) const WHOLE_HISTORY: Self = Dependence(0);

    /// What a draw by rule found at game ply `node_ply` rests on.
    #[inline]
    pub(crate) fn of_draw(draw: Draw, node_ply: usize) -> Self {
        match draw {
            Draw::Repetition { plies_back } => Dependence(node_ply.saturating_sub(plies_back)),
            Draw::MoveRule => Self::WHOLE_HISTORY,
            Draw::Material => Self::NONE,
        }
    }

    /// Whether the value rests on any draw by rule.
    #[inline]
    pub(crate) fn is_some(self) -> bool {
        self != Self::NONE
    }

    /// What a value resting on both rests on.
    #[inline]
    pub(crate) fn merge(self, other: Self) -> Self {
        Dependence(self.0.min(other.0))
    }

    /// How many plies above the node at game ply `node_ply` it reaches; 0 when it rests on
    /// nothing above the node (so its value holds on every path to the node).
    #[inline]
    pub(crate) fn distance_above(self, node_ply: usize) -> usize {
        if self.is_some() {
            node_ply.saturating_sub(self.0)
        } else {
            0
        }
    }

    /// The dependence of a value taken from an entry stored `distance` plies deep in it.
    #[inline]
    pub(crate) fn from_distance(node_ply: usize, distance: usize) -> Self {
        if distance >= WHOLE_HISTORY_DISTANCE {
            Self::WHOLE_HISTORY
        } else {
            Dependence(node_ply.saturating_sub(distance))
        }
    }
}

/// An entry's path information: the distance (capped) and the signature of the positions
/// along it, packed into the table's path-signature bits; never 0, so 0 means none.
#[inline]
pub(crate) fn pack_path(distance: usize, signature: u64) -> u64 {
    let distance = distance.min(WHOLE_HISTORY_DISTANCE) as u64;
    // Bit 0 of the signature part is forced on so that the packed value is never 0.
    (((signature & SIGNATURE_MASK) | 1) << DISTANCE_BITS) | distance
}

/// The distance an entry's path information covers, as `Game::history_signature` takes it
/// (`usize::MAX`: the whole history).
#[inline]
pub(crate) fn packed_distance(packed: u64) -> usize {
    let distance = (packed & WHOLE_HISTORY_DISTANCE as u64) as usize;
    if distance == WHOLE_HISTORY_DISTANCE {
        usize::MAX
    } else {
        distance
    }
}

impl<G: Game> Searcher<G> {
    /// Under `exact`, the entry a path-dependent value is stored as: without the flag when
    /// its draws all lie at or below the node, else with the distance they reach and the
    /// signature of the positions along it. `None`: store `entry` as it is.
    #[inline]
    pub(crate) fn with_path_information(&self, game: &G, entry: &Store) -> Option<Store> {
        if self.config.ghi != GhiMode::Exact || entry.flags & EntryFlags::PATH_DEPENDENT == 0 {
            return None;
        }
        let distance = self.dependence.distance_above(game.ply());
        if distance == 0 {
            return Some(Store {
                flags: entry.flags & !EntryFlags::PATH_DEPENDENT,
                ..*entry
            });
        }
        let path_signature = self.path_signature(game, distance).unwrap_or(0);
        Some(Store {
            path_signature,
            ..*entry
        })
    }

    /// This path's packed signature over `distance` plies, as an entry stores it.
    #[inline]
    fn path_signature(&self, game: &G, distance: usize) -> Option<u64> {
        let plies = packed_distance(pack_path(distance, 0));
        game.history_signature(self.root_ply, plies)
            .map(|signature| pack_path(distance, signature))
    }

    /// Whether a path-dependent entry's value holds on this path: always under `ignore`
    /// (the naive table), never under `mark`, under `exact` when the positions over the
    /// distance its draws reached have the signature it was stored with.
    #[inline]
    pub(crate) fn path_compatible(&self, game: &G, hit: &Hit) -> bool {
        match self.config.ghi {
            GhiMode::Ignore => true,
            GhiMode::Mark => false,
            GhiMode::Exact => {
                hit.path_signature != 0
                    && self.path_signature(game, packed_distance(hit.path_signature))
                        == Some(hit.path_signature)
            }
        }
    }

    /// What a value taken from `hit` rests on, at this node.
    #[inline]
    pub(crate) fn entry_dependence(&self, game: &G, hit: &Hit) -> Dependence {
        if hit.flags & EntryFlags::PATH_DEPENDENT == 0 {
            Dependence::NONE
        } else if hit.path_signature != 0 {
            Dependence::from_distance(game.ply(), packed_distance(hit.path_signature))
        } else {
            Dependence::WHOLE_HISTORY
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependences_merge_to_the_shallowest() {
        let a = Dependence(7);
        assert_eq!(a.merge(Dependence::NONE), a);
        assert_eq!(Dependence::NONE.merge(a), a);
        assert_eq!(a.merge(Dependence(3)), Dependence(3));
        assert_eq!(
            a.merge(Dependence::WHOLE_HISTORY),
            Dependence::WHOLE_HISTORY
        );
        assert!(!Dependence::NONE.is_some());
    }

    #[test]
    fn distances_count_plies_above_the_node() {
        assert_eq!(Dependence(7).distance_above(10), 3);
        // At or below the node: nothing above it.
        assert_eq!(Dependence(10).distance_above(10), 0);
        assert_eq!(Dependence(12).distance_above(10), 0);
        assert_eq!(Dependence::NONE.distance_above(10), 0);
        assert_eq!(Dependence::WHOLE_HISTORY.distance_above(10), 10);
        assert_eq!(Dependence::from_distance(10, 3), Dependence(7));
        assert_eq!(
            Dependence::from_distance(10, WHOLE_HISTORY_DISTANCE),
            Dependence::WHOLE_HISTORY
        );
    }

    #[test]
    fn packed_paths_keep_their_distance_and_are_never_zero() {
        for distance in [1, 2, 17, 254] {
            for signature in [0, 1, u64::MAX, 0x1234_5678_9ABC_DEF0] {
                let packed = pack_path(distance, signature);
                assert_ne!(packed, 0);
                assert!(packed < 1 << PATH_SIGNATURE_BITS);
                assert_eq!(packed_distance(packed), distance);
            }
        }
        assert_eq!(packed_distance(pack_path(255, 9)), usize::MAX);
        assert_eq!(packed_distance(pack_path(1000, 9)), usize::MAX);
        assert_ne!(pack_path(3, 0x10), pack_path(3, 0x20));
        assert_ne!(pack_path(3, 0x10), pack_path(4, 0x10));
    }
}
