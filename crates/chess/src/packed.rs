//! Training positions in bullet's 32-byte `ChessBoard` record (the `bulletformat` crate), so
//! that a network trainer written for that format, bullet itself included, reads Horizon's
//! self-play data directly.
//!
//! The record sees the board from the side to move: with Black to move the ranks are
//! mirrored (square `^ 56`) and the colours swapped, so "ours" is always the mover's.
//!
//! | bytes | field |
//! | --- | --- |
//! | 0-7 | occupancy, one bit per occupied square (little-endian `u64`, a1 = bit 0) |
//! | 8-23 | a 4-bit code per occupied square in increasing square order, two per byte, the lower square in the low nibble: `colour << 3 \| piece`, colour 0 ours and 1 theirs, piece 0 pawn .. 5 king |
//! | 24-25 | the score, side to move, centipawns (little-endian `i16`) |
//! | 26 | the game's result, side to move: 0 loss, 1 draw, 2 win |
//! | 27 | our king's square |
//! | 28 | their king's square, seen from their side (`^ 56`) |
//! | 29-31 | zero (padding of the C layout) |
//!
//! Castling rights, en passant and the move counters are not recorded: an evaluation network
//! does not read them.

use shakmaty::{Chess, Color, Position as _, Role, Square};

/// Bytes per record.
pub const RECORD_BYTES: usize = 32;

/// One record.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PackedBoard([u8; RECORD_BYTES]);

/// Why a record was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PackError {
    /// More than 32 pieces (cannot happen in a legal position).
    TooManyPieces,
    /// A side without its king.
    MissingKing,
}

impl std::fmt::Display for PackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PackError::TooManyPieces => "more than 32 pieces",
            PackError::MissingKing => "a side has no king",
        })
    }
}

impl std::error::Error for PackError {}

/// A game result from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

impl PackedBoard {
    /// Packs `chess` with the search score `score` (side to move, centipawns, saturated to
    /// `i16`) and the game's `outcome` for the side to move.
    pub fn new(chess: &Chess, score: i32, outcome: Outcome) -> Result<PackedBoard, PackError> {
        let board = chess.board();
        let mover = chess.turn();
        let relative = |sq: Square| -> u8 {
            let index = sq as u8;
            if mover == Color::White {
                index
            } else {
                index ^ 56
            }
        };
        // (square, code) for every piece, from the mover's view, in square order.
        let mut pieces = [(0u8, 0u8); 32];
        let mut count = 0;
        for sq in board.occupied() {
            let Some(piece) = board.piece_at(sq) else {
                continue;
            };
            if count == pieces.len() {
                return Err(PackError::TooManyPieces);
            }
            let theirs = u8::from(piece.color != mover);
            pieces[count] = (relative(sq), theirs << 3 | role_code(piece.role));
            count += 1;
        }
        let pieces = &mut pieces[..count];
        pieces.sort_unstable_by_key(|&(sq, _)| sq);

        let mut bytes = [0u8; RECORD_BYTES];
        let mut occupancy = 0u64;
        for (i, &(sq, code)) in pieces.iter().enumerate() {
            occupancy |= 1 << sq;
            bytes[8 + i / 2] |= code << (4 * (i & 1));
        }
        bytes[..8].copy_from_slice(&occupancy.to_le_bytes());
        let score = score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        bytes[24..26].copy_from_slice(&score.to_le_bytes());
        bytes[26] = outcome as u8;
        let ours = board.king_of(mover).ok_or(PackError::MissingKing)?;
        let theirs = board.king_of(!mover).ok_or(PackError::MissingKing)?;
        bytes[27] = relative(ours);
        bytes[28] = relative(theirs) ^ 56;
        Ok(PackedBoard(bytes))
    }

    /// The same record with another result.
    pub fn with_outcome(mut self, outcome: Outcome) -> PackedBoard {
        self.0[26] = outcome as u8;
        self
    }

    /// The record as written.
    pub fn to_bytes(self) -> [u8; RECORD_BYTES] {
        self.0
    }

    /// A record as read.
    pub fn from_bytes(bytes: [u8; RECORD_BYTES]) -> PackedBoard {
        PackedBoard(bytes)
    }

    /// Every piece as (square from the mover's view, theirs, role), in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (u8, bool, Role)> + '_ {
        let mut occupancy = u64::from_le_bytes(self.0[..8].try_into().expect("8 bytes"));
        let mut index = 0;
        std::iter::from_fn(move || {
            if occupancy == 0 {
                return None;
            }
            let sq = occupancy.trailing_zeros() as u8;
            occupancy &= occupancy - 1;
            let code = (self.0[8 + index / 2] >> (4 * (index & 1))) & 0xF;
            index += 1;
            Some((sq, code & 8 != 0, code_role(code & 7)))
        })
    }

    /// The score, side to move, centipawns.
    pub fn score(&self) -> i16 {
        i16::from_le_bytes([self.0[24], self.0[25]])
    }

    /// The result byte: 0 loss, 1 draw, 2 win for the side to move.
    pub fn result(&self) -> u8 {
        self.0[26]
    }

    /// (our king's square, their king's square from their side).
    pub fn king_squares(&self) -> (u8, u8) {
        (self.0[27], self.0[28])
    }
}

fn role_code(role: Role) -> u8 {
    match role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    }
}

/// The role of a 3-bit code; codes 6 and 7 never occur in a record this module writes and
/// read as kings.
fn code_role(code: u8) -> Role {
    match code {
        0 => Role::Pawn,
        1 => Role::Knight,
        2 => Role::Bishop,
        3 => Role::Rook,
        4 => Role::Queen,
        _ => Role::King,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    /// The start position, worked out by hand from the layout in the module documentation.
    #[test]
    fn start_position_bytes() {
        let record = PackedBoard::new(&Chess::default(), -25, Outcome::Draw)
            .expect("packs")
            .to_bytes();
        let mut expected = [0u8; 32];
        expected[..8].copy_from_slice(&0xFFFF_0000_0000_FFFFu64.to_le_bytes());
        // a1..h1: R N B Q K B N R = 3 1 2 4 5 2 1 3; a2..h2 pawns 0; a7..h7 their pawns 8;
        // a8..h8: 11 9 10 12 13 10 9 11.
        expected[8..24].copy_from_slice(&[
            0x13, 0x42, 0x25, 0x31, 0, 0, 0, 0, 0x88, 0x88, 0x88, 0x88, 0x9B, 0xCA, 0xAD, 0xB9,
        ]);
        expected[24..26].copy_from_slice(&(-25i16).to_le_bytes());
        expected[26] = 1;
        expected[27] = 4; // e1
        expected[28] = 4; // e8 seen from Black's side
        assert_eq!(record, expected);
    }

    /// Black to move: the same start position seen from Black is the same record.
    #[test]
    fn black_to_move_is_mirrored() {
        let white = PackedBoard::new(&Chess::default(), 10, Outcome::Win).expect("packs");
        let black = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        let black = PackedBoard::new(&black, 10, Outcome::Win).expect("packs");
        assert_eq!(white, black);
        // An asymmetric one: Black's king on g8, White's on e1, Black to move.
        let record = PackedBoard::new(&chess("6k1/8/8/8/8/8/8/4K3 b - - 0 1"), 7, Outcome::Loss)
            .expect("packs");
        assert_eq!(record.king_squares(), (6, 4)); // g8 ^ 56 = g1; e1 ^ 56 ^ 56 = e1
        let pieces: Vec<_> = record.pieces().collect();
        assert_eq!(pieces, [(6, false, Role::King), (4 ^ 56, true, Role::King)]);
        assert_eq!((record.score(), record.result()), (7, 0));
    }

    /// Random positions: unpacking gives back every piece, seen from the mover.
    #[test]
    fn round_trip_on_random_games() {
        let mut rng = StdRng::seed_from_u64(5);
        let mut records = 0;
        for _ in 0..100 {
            let mut position = Chess::default();
            for _ in 0..150 {
                let score = rng.random_range(-40_000..40_000);
                let outcome = [Outcome::Loss, Outcome::Draw, Outcome::Win][rng.random_range(0..3)];
                let record = PackedBoard::new(&position, score, outcome).expect("packs");
                let back = PackedBoard::from_bytes(record.to_bytes());
                assert_eq!(back, record);
                let mover = position.turn();
                let mut expected: Vec<(u8, bool, Role)> = position
                    .board()
                    .occupied()
                    .into_iter()
                    .map(|sq| {
                        let piece = position.board().piece_at(sq).expect("occupied");
                        let index = if mover == Color::White {
                            sq as u8
                        } else {
                            sq as u8 ^ 56
                        };
                        (index, piece.color != mover, piece.role)
                    })
                    .collect();
                expected.sort_unstable_by_key(|p| p.0);
                assert_eq!(back.pieces().collect::<Vec<_>>(), expected);
                assert_eq!(i32::from(back.score()), score.clamp(-32768, 32767));
                assert_eq!(back.result(), outcome as u8);
                let (ours, theirs) = back.king_squares();
                assert!(expected.contains(&(ours, false, Role::King)));
                assert!(expected.contains(&(theirs ^ 56, true, Role::King)));
                assert_eq!(&record.to_bytes()[29..], &[0, 0, 0]);
                records += 1;
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                position.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(records > 5_000, "{records}");
    }
}
