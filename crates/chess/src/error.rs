//! Typed errors for everything a user can type: FEN, EPD positions and moves.

use std::fmt;

/// Why a FEN or EPD position could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionParseError {
    /// The text is empty or has too few fields.
    MissingFields { expected: usize, found: usize },
    /// The text does not follow FEN syntax.
    Syntax { text: String, reason: String },
    /// The text is valid FEN, but the position is not a legal chess position.
    Illegal { text: String, reason: String },
}

impl fmt::Display for PositionParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MissingFields { expected, found } => {
                write!(f, "expected at least {expected} fields, found {found}")
            }
            Self::Syntax { text, reason } => write!(f, "invalid FEN '{text}': {reason}"),
            Self::Illegal { text, reason } => write!(f, "illegal position '{text}': {reason}"),
        }
    }
}

impl std::error::Error for PositionParseError {}

/// Why a move in UCI or SAN notation could not be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveParseError {
    /// The text is not a move in the expected notation.
    Syntax { text: String },
    /// The move is well formed but not legal in the position.
    Illegal { text: String, fen: String },
    /// The SAN names more than one legal move.
    Ambiguous { text: String, fen: String },
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax { text } => write!(f, "'{text}' is not a move"),
            Self::Illegal { text, fen } => write!(f, "illegal move '{text}' in {fen}"),
            Self::Ambiguous { text, fen } => write!(f, "ambiguous move '{text}' in {fen}"),
        }
    }
}

impl std::error::Error for MoveParseError {}
