//! Horizon's chess layer on top of [`shakmaty`]: the position with incremental Zobrist keys
//! and a ply stack, repetition and draw rules, move encoding, SEE, notation, perft, and
//! Syzygy tablebases (`tablebase.rs`).

pub mod check;
pub mod encoding;
pub mod epd;
pub mod error;
pub mod eval;
pub mod game;
mod key;
pub mod legal;
mod movegen;
pub mod nnue;
pub mod packed;
pub mod perft;
pub mod position;
pub mod search;
pub mod see;
mod table_files;
pub mod tablebase;
pub mod wdl;

pub use encoding::PackedMove;
pub use error::{MoveParseError, PositionParseError};
pub use position::{Position, START_FEN};
pub use shakmaty::{self, CastlingMode, Color, Move, MoveList, Role, Square};
pub use tablebase::{RootFilter, TableReport, Tablebases};
