//! EPD records as they are found in the wild.
//!
//! An EPD line is four position fields (board, side to move, castling, en passant) followed
//! by operations `opcode operand ...;`. Real suites bend the format in many ways, and this
//! reader accepts all of the following without complaint:
//!
//! - NUL bytes and other control characters (some suites end every line with NUL), CRLF line
//!   ends, a byte-order mark, Latin-1 bytes in comments;
//! - a `;` before the first operation (`w - - ; bm e4;`), empty operations (`;;`), a missing
//!   `;` after the last one, tabs between opcode and operand;
//! - half-move and full-move numbers after the position fields (FEN style) or not at all, and
//!   the `hmvc` / `fmvn` operations (which win over the numbers);
//! - SAN with stray spaces (`bm Qd1 +;`), annotations (`Nf3!`), `0-0` for `O-O`, UCI moves
//!   (`e2e4`), several moves per `bm` / `am`, commas between them;
//! - `id` quoted or not, and an unquoted `id` that runs into a comment without a `;`
//!   (`id LCTII.POS.09 c0 Boissel - Del Gobbo`);
//! - quoted operands containing `;` or escaped quotes (`c0 "a; b \"c\""`);
//! - free text after the last `;` (`; CCC post by Tim Foden`): kept as an operation of
//!   unknown opcode `CCC`, like any other opcode this reader does not interpret;
//! - perft suites (`... 0 1 ;D1 20 ;D2 400`): operations `D1`, `D2` ..., see
//!   [`EpdRecord::perft_counts`].
//!
//! A line that cannot be read gives an [`EpdError`]; [`parse_suite`] collects those with their
//! line numbers and goes on. Nothing here panics on any input.

use std::fmt;
use std::str::FromStr;

use shakmaty::{CastlingMode, Chess, Move};

use crate::error::{MoveParseError, PositionParseError};
use crate::position::Position;

/// One operation: its opcode and its operands, quotes removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    pub opcode: String,
    pub operands: Vec<String>,
}

impl Operation {
    /// The operands joined with single spaces (a comment, an unquoted id).
    pub fn text(&self) -> String {
        self.operands.join(" ")
    }
}

/// One EPD record: the position and its operations, with the common ones interpreted.
#[derive(Clone, Debug)]
pub struct EpdRecord {
    /// 1-based line in its file (0 when parsed on its own).
    pub line: usize,
    /// The position as a full FEN, counters included.
    pub fen: String,
    chess: Chess,
    castling_mode: CastlingMode,
    /// Every operation in the order written.
    pub operations: Vec<Operation>,
    /// The first `id`.
    pub id: Option<String>,
    /// `bm`: the record is solved by any of these (all `bm` operations merged).
    pub best_moves: Vec<Move>,
    /// `am`: the record is solved by none of these.
    pub avoid_moves: Vec<Move>,
    /// `dm`: the side to move mates in this many moves.
    pub direct_mate: Option<u32>,
    /// `c0` ... `c9`, by number.
    pub comments: Vec<(u8, String)>,
    pub halfmove_clock: u32,
    pub fullmove_number: u32,
    /// What was repaired while reading (an unterminated quote, an id split from a comment).
    pub warnings: Vec<String>,
}

/// Why an EPD line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EpdError {
    /// The four position fields are missing or do not form a legal position.
    Position(PositionParseError),
    /// A move of a `bm` or `am` operation is not a legal move.
    Move {
        opcode: String,
        error: MoveParseError,
    },
    /// An operation that needs operands has none (`bm ;`).
    MissingOperand { opcode: String },
    /// An operand that must be a number is not (`dm x`).
    Number {
        opcode: String,
        text: String,
        expected: &'static str,
    },
    /// An operation begins with something that cannot be an opcode (a quoted string).
    Syntax { reason: String },
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpdError::Position(e) => write!(f, "position: {e}"),
            EpdError::Move { opcode, error } => write!(f, "{opcode}: {error}"),
            EpdError::MissingOperand { opcode } => write!(f, "{opcode}: no operand"),
            EpdError::Number {
                opcode,
                text,
                expected,
            } => write!(f, "{opcode}: '{text}' is not {expected}"),
            EpdError::Syntax { reason } => write!(f, "{reason}"),
        }
    }
}

impl std::error::Error for EpdError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EpdError::Position(e) => Some(e),
            EpdError::Move { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl From<PositionParseError> for EpdError {
    fn from(e: PositionParseError) -> Self {
        EpdError::Position(e)
    }
}

/// Why a line of a suite produced no record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// Empty or only whitespace and control characters.
    Blank,
    /// A comment line (`#` or `%` first).
    Comment,
    /// A record that could not be read.
    Error(EpdError),
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::Blank => write!(f, "blank line"),
            SkipReason::Comment => write!(f, "comment line"),
            SkipReason::Error(e) => write!(f, "{e}"),
        }
    }
}

/// A line that produced no record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedLine {
    /// 1-based.
    pub line: usize,
    /// The line as read (control characters removed).
    pub text: String,
    pub reason: SkipReason,
}

/// A whole EPD file: the records read and the lines skipped.
#[derive(Clone, Debug, Default)]
pub struct EpdSuite {
    pub records: Vec<EpdRecord>,
    pub skipped: Vec<SkippedLine>,
}

impl EpdSuite {
    /// Lines skipped because they could not be read (not blank or comment lines).
    pub fn errors(&self) -> impl Iterator<Item = &SkippedLine> {
        self.skipped
            .iter()
            .filter(|s| matches!(s.reason, SkipReason::Error(_)))
    }

    /// Skipped lines counted by kind: (blank, comment, error).
    pub fn skip_counts(&self) -> (usize, usize, usize) {
        self.skipped
            .iter()
            .fold((0, 0, 0), |(b, c, e), s| match s.reason {
                SkipReason::Blank => (b + 1, c, e),
                SkipReason::Comment => (b, c + 1, e),
                SkipReason::Error(_) => (b, c, e + 1),
            })
    }
}

/// Reads a suite from text; every line becomes a record or a [`SkippedLine`].
pub fn parse_suite(text: &str) -> EpdSuite {
    parse_suite_bytes(text.as_bytes())
}

/// Reads a suite from bytes: each line is UTF-8 if it is valid UTF-8, else Latin-1 (old
/// suites carry Latin-1 names in their comments).
pub fn parse_suite_bytes(bytes: &[u8]) -> EpdSuite {
    let mut suite = EpdSuite::default();
    if bytes.is_empty() {
        return suite;
    }
    // A final newline ends the last line; it does not open another. A UTF-8 byte-order mark
    // goes before the line is decoded (it would not survive a Latin-1 reading).
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let body = body.strip_prefix(b"\xef\xbb\xbf").unwrap_or(body);
    for (i, raw) in body.split(|&b| b == b'\n').enumerate() {
        let line = match std::str::from_utf8(raw) {
            Ok(text) => std::borrow::Cow::Borrowed(text),
            Err(_) => std::borrow::Cow::Owned(raw.iter().map(|&b| char::from(b)).collect()),
        };
        add_line(&mut suite, i + 1, &line);
    }
    suite
}

fn add_line(suite: &mut EpdSuite, number: usize, raw: &str) {
    let text = clean(raw);
    let trimmed = text.trim();
    let reason = if trimmed.is_empty() {
        SkipReason::Blank
    } else if trimmed.starts_with('#') || trimmed.starts_with('%') {
        SkipReason::Comment
    } else {
        match EpdRecord::parse(trimmed) {
            Ok(mut record) => {
                record.line = number;
                suite.records.push(record);
                return;
            }
            Err(e) => SkipReason::Error(e),
        }
    };
    suite.skipped.push(SkippedLine {
        line: number,
        text: trimmed.to_owned(),
        reason,
    });
}

/// Drops NUL, a byte-order mark and control characters; tabs and CR become spaces.
fn clean(raw: &str) -> String {
    raw.chars()
        .filter_map(|c| match c {
            '\t' | '\r' => Some(' '),
            '\u{feff}' => None,
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

impl FromStr for EpdRecord {
    type Err = EpdError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EpdRecord::parse(s)
    }
}

impl EpdRecord {
    /// Parses one EPD line (see the module documentation for what is accepted).
    pub fn parse(line: &str) -> Result<EpdRecord, EpdError> {
        let text = clean(line);
        let mut cursor = Cursor::new(&text);
        let mut fields = Vec::with_capacity(4);
        while fields.len() < 4 {
            cursor.skip_spaces();
            match cursor.word() {
                Some(word) => fields.push(word),
                None if cursor.eat(';') => {}
                None => break,
            }
        }
        if fields.len() < 4 {
            return Err(PositionParseError::MissingFields {
                expected: 4,
                found: fields.len(),
            }
            .into());
        }
        let mut counters = Vec::with_capacity(2);
        while counters.len() < 2 {
            cursor.skip_spaces();
            match cursor.peek_word() {
                Some(word) if word.bytes().all(|b| b.is_ascii_digit()) => {
                    counters.push(word.parse::<u32>().map_err(|_| EpdError::Number {
                        opcode: "move counter".to_owned(),
                        text: word.to_owned(),
                        expected: "a move number",
                    })?);
                    cursor.word();
                }
                _ => break,
            }
        }
        let mut warnings = Vec::new();
        let operations = read_operations(&mut cursor, &mut warnings)?;

        let mut record = EpdRecord {
            line: 0,
            fen: String::new(),
            chess: Chess::default(),
            castling_mode: CastlingMode::Standard,
            operations: Vec::new(),
            id: None,
            best_moves: Vec::new(),
            avoid_moves: Vec::new(),
            direct_mate: None,
            comments: Vec::new(),
            halfmove_clock: counters.first().copied().unwrap_or(0),
            fullmove_number: counters.get(1).copied().unwrap_or(1).max(1),
            warnings,
        };
        for op in &operations {
            match op.opcode.as_str() {
                "hmvc" => record.halfmove_clock = number(op, "a half-move count")?,
                "fmvn" => record.fullmove_number = number(op, "a move number")?.max(1),
                _ => {}
            }
        }
        record.fen = format!(
            "{} {} {} {} {} {}",
            fields[0],
            fields[1],
            fields[2],
            fields[3],
            record.halfmove_clock,
            record.fullmove_number
        );
        let position = Position::from_fen(&record.fen)?;
        record.chess = position.chess().clone();
        record.castling_mode = position.castling_mode();

        let mut extra = Vec::new();
        for op in &operations {
            match op.opcode.as_str() {
                "bm" => record.best_moves.extend(moves(&position, op)?),
                "am" => record.avoid_moves.extend(moves(&position, op)?),
                "dm" => {
                    let n = number(op, "a positive number of moves")?;
                    if n == 0 {
                        return Err(EpdError::Number {
                            opcode: op.opcode.clone(),
                            text: "0".to_owned(),
                            expected: "a positive number of moves",
                        });
                    }
                    record.direct_mate = Some(n);
                }
                "id" if record.id.is_none() => {
                    let (id, comment) = split_id(op);
                    if let Some(comment) = comment {
                        record.warnings.push(format!(
                            "unquoted id ran into '{}' without ';': read as a comment",
                            comment.opcode
                        ));
                        extra.push(comment);
                    }
                    record.id = id;
                }
                opcode => {
                    if let Some(n) = comment_number(opcode) {
                        record.comments.push((n, op.text()));
                    }
                }
            }
        }
        for op in &extra {
            if let Some(n) = comment_number(&op.opcode) {
                record.comments.push((n, op.text()));
            }
        }
        record.operations = operations;
        record.operations.extend(extra);
        Ok(record)
    }

    /// The position, ready to search.
    pub fn position(&self) -> Position {
        Position::from_chess(self.chess.clone(), self.castling_mode)
    }

    /// The underlying shakmaty position.
    pub fn chess(&self) -> &Chess {
        &self.chess
    }

    /// The first operation with this opcode.
    pub fn operation(&self, opcode: &str) -> Option<&Operation> {
        self.operations.iter().find(|op| op.opcode == opcode)
    }

    /// Comment `cN`, if present.
    pub fn comment(&self, n: u8) -> Option<&str> {
        self.comments
            .iter()
            .find(|(k, _)| *k == n)
            .map(|(_, text)| text.as_str())
    }

    /// The perft counts of a perft suite line (`;D1 20 ;D2 400`), by depth.
    pub fn perft_counts(&self) -> Vec<(u32, u64)> {
        self.operations
            .iter()
            .filter_map(|op| {
                let depth = op.opcode.strip_prefix('D')?.parse().ok()?;
                let nodes = op.operands.first()?.parse().ok()?;
                Some((depth, nodes))
            })
            .collect()
    }

    /// Whether the record says what a correct answer is (`bm`, `am` or `dm`).
    pub fn has_solution(&self) -> bool {
        !self.best_moves.is_empty() || !self.avoid_moves.is_empty() || self.direct_mate.is_some()
    }

    /// Whether a search that chose `best` and announced `mate` (moves, positive when the side
    /// to move mates) solves the record: every condition given must hold, that is `best` is
    /// one of `bm` (if any), none of `am` (if any), and, if `dm N` is given, the search
    /// announced a mate in at most N. `None` when the record has nothing to judge by.
    pub fn is_solved_by(&self, best: &Move, mate: Option<i32>) -> Option<bool> {
        if !self.has_solution() {
            return None;
        }
        let bm = self.best_moves.is_empty() || self.best_moves.contains(best);
        let am = !self.avoid_moves.contains(best);
        let dm = self
            .direct_mate
            .is_none_or(|n| mate.is_some_and(|m| m >= 1 && m as u32 <= n));
        Some(bm && am && dm)
    }

    /// The expected answer as EPD operations, moves in SAN (`bm Qg6; dm 2`).
    pub fn expected(&self) -> String {
        let mut parts = Vec::new();
        let san = |moves: &[Move]| {
            let pos = self.position();
            moves
                .iter()
                .map(|&m| pos.san(m))
                .collect::<Vec<_>>()
                .join(" ")
        };
        if !self.best_moves.is_empty() {
            parts.push(format!("bm {}", san(&self.best_moves)));
        }
        if !self.avoid_moves.is_empty() {
            parts.push(format!("am {}", san(&self.avoid_moves)));
        }
        if let Some(n) = self.direct_mate {
            parts.push(format!("dm {n}"));
        }
        parts.join("; ")
    }
}

/// `c0` ... `c9` → the digit.
fn comment_number(opcode: &str) -> Option<u8> {
    let rest = opcode.strip_prefix('c')?;
    (rest.len() == 1).then(|| rest.parse().ok()).flatten()
}

/// The id, and a comment operation if an unquoted id ran into one (`id X c0 text`).
fn split_id(op: &Operation) -> (Option<String>, Option<Operation>) {
    let split = op
        .operands
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, w)| comment_number(w).is_some())
        .map(|(i, _)| i);
    match split {
        Some(i) => {
            let id = op.operands[..i].join(" ");
            let comment = Operation {
                opcode: op.operands[i].clone(),
                operands: op.operands[i + 1..].to_vec(),
            };
            ((!id.is_empty()).then_some(id), Some(comment))
        }
        None => {
            let id = op.text();
            ((!id.is_empty()).then_some(id), None)
        }
    }
}

fn number(op: &Operation, expected: &'static str) -> Result<u32, EpdError> {
    let text = op
        .operands
        .first()
        .ok_or_else(|| EpdError::MissingOperand {
            opcode: op.opcode.clone(),
        })?;
    text.trim_start_matches('+')
        .parse()
        .map_err(|_| EpdError::Number {
            opcode: op.opcode.clone(),
            text: text.clone(),
            expected,
        })
}

/// The moves of a `bm` / `am` operation. Check and annotation marks separated by a space
/// (`Qd1 +`) belong to the move before; commas separate moves too.
fn moves(position: &Position, op: &Operation) -> Result<Vec<Move>, EpdError> {
    let words = op
        .operands
        .iter()
        .flat_map(|operand| operand.split([' ', ',']))
        .filter(|w| !w.is_empty());
    let mut texts: Vec<String> = Vec::new();
    for word in words {
        let is_mark = word.chars().all(|c| matches!(c, '+' | '#' | '!' | '?'));
        let is_ep = matches!(word, "e.p." | "ep");
        match texts.last_mut() {
            Some(last) if is_mark => last.push_str(word),
            Some(_) if is_ep => {}
            _ => texts.push(word.to_owned()),
        }
    }
    if texts.is_empty() {
        return Err(EpdError::MissingOperand {
            opcode: op.opcode.clone(),
        });
    }
    texts
        .iter()
        .map(|text| {
            parse_move(position, text).map_err(|error| EpdError::Move {
                opcode: op.opcode.clone(),
                error,
            })
        })
        .collect()
}

/// SAN as written in suites: annotations and `e.p.` dropped, `0-0` read as `O-O`; a UCI
/// move (`e2e4`) is accepted when the text is not SAN.
fn parse_move(position: &Position, text: &str) -> Result<Move, MoveParseError> {
    let core = text
        .trim_end_matches(['!', '?'])
        .trim_end_matches("e.p.")
        .trim_end_matches(['!', '?']);
    let core = if core.starts_with("0-0") {
        core.replace('0', "O")
    } else {
        core.to_owned()
    };
    match position.parse_san(&core) {
        Ok(m) => Ok(m),
        Err(san_error) => position.parse_uci(&core).map_err(|_| match san_error {
            MoveParseError::Syntax { .. } => MoveParseError::Syntax {
                text: text.to_owned(),
            },
            other => other,
        }),
    }
}

/// Reads operations until the end of the line.
fn read_operations(
    cursor: &mut Cursor<'_>,
    warnings: &mut Vec<String>,
) -> Result<Vec<Operation>, EpdError> {
    let mut operations = Vec::new();
    loop {
        cursor.skip_spaces();
        if cursor.eat(';') {
            continue;
        }
        if cursor.at_end() {
            return Ok(operations);
        }
        if cursor.peek() == Some('"') {
            return Err(EpdError::Syntax {
                reason: format!(
                    "a quoted string where an opcode should be, at column {}",
                    cursor.column()
                ),
            });
        }
        let Some(opcode) = cursor.word() else {
            return Ok(operations);
        };
        let mut operands = Vec::new();
        loop {
            cursor.skip_spaces();
            if cursor.at_end() || cursor.eat(';') {
                break;
            }
            if cursor.eat('"') {
                let (text, closed) = cursor.quoted();
                if !closed {
                    warnings.push(format!("{opcode}: unterminated quoted string"));
                }
                operands.push(text);
            } else if let Some(word) = cursor.word() {
                operands.push(word);
            }
        }
        operations.push(Operation { opcode, operands });
    }
}

/// A position in a line, by characters.
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Cursor { text, pos: 0 }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    /// 1-based column, for messages.
    fn column(&self) -> usize {
        self.text[..self.pos].chars().count() + 1
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn skip_spaces(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// The next word without consuming it: up to whitespace or `;`.
    fn peek_word(&self) -> Option<&'a str> {
        let rest = self.rest();
        let end = rest
            .find(|c: char| c.is_whitespace() || c == ';')
            .unwrap_or(rest.len());
        (end > 0).then(|| &rest[..end])
    }

    fn word(&mut self) -> Option<String> {
        let word = self.peek_word()?;
        self.pos += word.len();
        Some(word.to_owned())
    }

    /// The rest of a quoted string after its opening quote, with `\"` and `\\` unescaped;
    /// `false` if the line ends before the closing quote.
    fn quoted(&mut self) -> (String, bool) {
        let mut out = String::new();
        let mut chars = self.rest().char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return (out, true);
                }
                '\\' => match chars.clone().next() {
                    Some((_, next @ ('"' | '\\'))) => {
                        out.push(next);
                        chars.next();
                    }
                    _ => out.push(c),
                },
                _ => out.push(c),
            }
        }
        self.pos = self.text.len();
        (out, false)
    }
}
