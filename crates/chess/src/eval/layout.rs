//! Where each evaluation weight lives in the flat weight vector.
//!
//! Every weight is a (middlegame, endgame) pair. The evaluation is linear in the weights
//! (before tapering and endgame scaling), which is what lets `horizon tune` fit all of them
//! at once by Texel's method. `weights.rs` holds the values; this file only the layout.

/// A group of weights, shown as one row of the `eval` breakdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    Material,
    Pst,
    Mobility,
    Pawns,
    Passed,
    KingSafety,
    Pieces,
    Threats,
    Tempo,
}

impl Term {
    pub const ALL: [Term; 9] = [
        Term::Material,
        Term::Pst,
        Term::Mobility,
        Term::Pawns,
        Term::Passed,
        Term::KingSafety,
        Term::Pieces,
        Term::Threats,
        Term::Tempo,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Pst => "PST",
            Term::Mobility => "Mobility",
            Term::Pawns => "Pawns",
            Term::Passed => "Passed",
            Term::KingSafety => "King safety",
            Term::Pieces => "Pieces",
            Term::Threats => "Threats",
            Term::Tempo => "Tempo",
        }
    }
}

/// One block of consecutive weights: its first index, length, name and breakdown row.
#[derive(Clone, Copy, Debug)]
pub struct Block {
    pub start: usize,
    pub len: usize,
    pub name: &'static str,
    pub term: Term,
}

macro_rules! blocks {
    ($( $id:ident = $len:expr, $term:ident; )*) => {
        blocks!(@offsets 0usize; $( $id = $len, )*);
        /// Every block in index order.
        pub const BLOCKS: &[Block] = &[
            $( Block { start: $id, len: $len, name: stringify!($id), term: Term::$term }, )*
        ];
    };
    (@offsets $at:expr; $id:ident = $len:expr, $( $rest:ident = $rlen:expr, )*) => {
        pub const $id: usize = $at;
        blocks!(@offsets $at + $len; $( $rest = $rlen, )*);
    };
    (@offsets $at:expr;) => {
        /// Number of (middlegame, endgame) weight pairs.
        pub const NUM_WEIGHTS: usize = $at;
    };
}

blocks! {
    // Pawn, knight, bishop, rook, queen.
    MATERIAL = 5, Material;
    // Per role (pawn..king), 32 squares: rank * 4 + file folded to a..d (tables are
    // left-right symmetric), from the owner's side.
    PST = 6 * 32, Pst;
    // Safe squares reached: not own-occupied, not attacked by enemy pawns.
    MOBILITY_KNIGHT = 9, Mobility;
    MOBILITY_BISHOP = 14, Mobility;
    MOBILITY_ROOK = 15, Mobility;
    MOBILITY_QUEEN = 28, Mobility;
    // Per pawn.
    PAWN_DOUBLED = 1, Pawns;
    PAWN_ISOLATED = 1, Pawns;
    PAWN_BACKWARD = 1, Pawns;
    // By relative rank; a pawn defended by a pawn or beside one.
    PAWN_CONNECTED = 8, Pawns;
    // By relative rank.
    PASSED = 8, Passed;
    // Passed pawn whose stop square is empty, by relative rank.
    PASSED_FREE = 8, Passed;
    // Times the king distance to the stop square, by the pawn's relative rank.
    PASSED_OWN_KING = 8, Passed;
    PASSED_THEIR_KING = 8, Passed;
    // Own pawn shelter in front of the king: relative rank of the nearest pawn on the king's
    // file (0 = none), then on the neighbouring files.
    SHELTER_KING_FILE = 8, KingSafety;
    SHELTER_SIDE_FILE = 8, KingSafety;
    // Enemy pawn storm: relative rank (from the king's side) of the nearest enemy pawn on
    // the king's file or the neighbouring ones (0 = none).
    STORM = 8, KingSafety;
    // Squares of the enemy king zone attacked, per attacking knight, bishop, rook, queen.
    KING_ZONE_ATTACK = 4, KingSafety;
    // Number of pieces attacking the enemy king zone (capped at 7).
    KING_ATTACKERS = 8, KingSafety;
    // Files at or beside the enemy king without any pawn / without enemy pawns.
    KING_OPEN_FILE = 1, KingSafety;
    KING_SEMIOPEN_FILE = 1, KingSafety;
    // Squares from which a knight, bishop, rook or queen could check the enemy king and
    // that the enemy does not attack.
    SAFE_CHECK = 4, KingSafety;
    BISHOP_PAIR = 1, Pieces;
    ROOK_OPEN_FILE = 1, Pieces;
    ROOK_SEMIOPEN_FILE = 1, Pieces;
    // Rook on the 7th rank with enemy pawns there or the enemy king on the 8th.
    ROOK_SEVENTH = 1, Pieces;
    // Knight, bishop on a pawn-defended square of ranks 4-6 no enemy pawn can attack.
    OUTPOST = 2, Pieces;
    // Per own pawn on the bishop's square colour.
    BAD_BISHOP = 1, Pieces;
    // Enemy knight, bishop, rook, queen attacked by a pawn.
    THREAT_BY_PAWN = 4, Threats;
    // Enemy pawn..queen attacked by a minor piece (pawns and minors only when not pawn-defended).
    THREAT_BY_MINOR = 5, Threats;
    // Enemy pawn..queen attacked by a rook (only undefended ones, or the queen).
    THREAT_BY_ROOK = 5, Threats;
    // Enemy pieces (not pawns) attacked and not defended at all.
    HANGING = 1, Threats;
    TEMPO = 1, Tempo;
}

/// The block holding weight `index`.
pub fn block_of(index: usize) -> &'static Block {
    BLOCKS
        .iter()
        .find(|b| index >= b.start && index < b.start + b.len)
        .expect("index below NUM_WEIGHTS")
}

/// A readable name for weight `index`, e.g. `PASSED[6]`.
pub fn weight_name(index: usize) -> String {
    let block = block_of(index);
    if block.len == 1 {
        block.name.to_string()
    } else {
        format!("{}[{}]", block.name, index - block.start)
    }
}

/// PST index of a square seen from its owner's side (`relative` = square index with
/// Black's board already flipped).
#[inline(always)]
pub const fn pst_square(relative: usize) -> usize {
    let file = relative % 8;
    let folded = if file < 4 { file } else { 7 - file };
    (relative / 8) * 4 + folded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_tile_the_vector() {
        let mut next = 0;
        for b in BLOCKS {
            assert_eq!(b.start, next, "{}", b.name);
            next += b.len;
        }
        assert_eq!(next, NUM_WEIGHTS);
        assert_eq!(weight_name(PASSED + 6), "PASSED[6]");
        assert_eq!(weight_name(TEMPO), "TEMPO");
        assert_eq!(pst_square(7), 0);
        assert_eq!(pst_square(63), 28);
    }
}
