//! Training data: bullet `ChessBoard` records (32 bytes, `horizon selfplay --format bullet`),
//! read whole into memory, checked, split once into training and validation positions, and
//! decoded one position at a time into the network's active features and the target.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use horizon_chess::nnue::{Inputs, king_flip, output_bucket};
use horizon_chess::packed::{PackedBoard, RECORD_BYTES};
use horizon_chess::{Role, Square};

use super::rng::Rng;

/// Every record of the data files, in file order.
pub struct Dataset {
    pub records: Vec<PackedBoard>,
    /// A hash of every byte, in order, so that `--resume` refuses other data.
    pub hash: u64,
}

/// Reads and checks the data files.
pub fn load(paths: &[PathBuf]) -> Result<Dataset> {
    let mut records = Vec::new();
    let mut hash = HASH_START;
    for path in paths {
        let bytes = std::fs::read(path)
            .with_context(|| format!("cannot read the data file {}", path.display()))?;
        read_records(path, &bytes, &mut records, &mut hash)?;
    }
    if records.is_empty() {
        bail!("no positions in {}", list(paths));
    }
    if records.len() >= MIRRORED as usize {
        bail!(
            "{} positions: at most {} are supported",
            records.len(),
            MIRRORED - 1
        );
    }
    Ok(Dataset { records, hash })
}

fn list(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    names.join(", ")
}

const HASH_START: u64 = 0xcbf2_9ce4_8422_2325;

/// Checks and appends the records of one file's `bytes`, folding them into `hash`.
fn read_records(
    path: &Path,
    bytes: &[u8],
    records: &mut Vec<PackedBoard>,
    hash: &mut u64,
) -> Result<()> {
    if bytes.is_empty() {
        bail!("{} is empty: no positions", path.display());
    }
    if !bytes.len().is_multiple_of(RECORD_BYTES) {
        bail!(
            "{} has {} bytes, not a multiple of {RECORD_BYTES}: not a file of bullet records \
             (write one with `horizon selfplay --format bullet`), or cut short",
            path.display(),
            bytes.len()
        );
    }
    records.reserve(bytes.len() / RECORD_BYTES);
    for (i, chunk) in bytes.chunks_exact(RECORD_BYTES).enumerate() {
        let mut record = [0u8; RECORD_BYTES];
        record.copy_from_slice(chunk);
        if let Err(why) = check_record(&record) {
            bail!(
                "{}: record {i} (byte {}) is not a position: {why}; is this a file of bullet \
                 records (`horizon selfplay --format bullet`)?",
                path.display(),
                i * RECORD_BYTES
            );
        }
        for word in record.chunks_exact(8) {
            let mut w = [0u8; 8];
            w.copy_from_slice(word);
            *hash = (*hash ^ u64::from_le_bytes(w)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        records.push(PackedBoard::from_bytes(record));
    }
    Ok(())
}

/// What a record must satisfy to be decoded: at most 32 pieces (more would read past the
/// piece codes), codes of real pieces, one king a side, a result byte of 0, 1 or 2.
fn check_record(record: &[u8; RECORD_BYTES]) -> Result<(), String> {
    let mut occupancy = [0u8; 8];
    occupancy.copy_from_slice(&record[..8]);
    let pieces = u64::from_le_bytes(occupancy).count_ones() as usize;
    if pieces > 32 {
        return Err(format!("{pieces} pieces"));
    }
    let mut kings = [0; 2];
    for i in 0..pieces {
        let code = (record[8 + i / 2] >> (4 * (i & 1))) & 0xF;
        match code & 7 {
            5 => kings[usize::from(code >> 3)] += 1,
            6 | 7 => return Err(format!("piece code {code}")),
            _ => {}
        }
    }
    if kings != [1, 1] {
        return Err(format!("{} and {} kings", kings[0], kings[1]));
    }
    if record[26] > 2 {
        return Err(format!("result byte {}", record[26]));
    }
    Ok(())
}

/// The positions of each part, as indices into [`Dataset::records`].
pub struct Split {
    pub train: Vec<u32>,
    pub validation: Vec<u32>,
}

/// Appends `held_out` to `dataset` as its validation positions, every earlier position
/// training; the hash covers both, in order.
pub fn append_held_out(dataset: &mut Dataset, held_out: Dataset) -> Result<Split> {
    let train = dataset.records.len();
    let total = train + held_out.records.len();
    if total >= MIRRORED as usize {
        bail!(
            "{total} positions with --val-data: at most {} are supported",
            MIRRORED - 1
        );
    }
    dataset.records.extend(held_out.records);
    dataset.hash =
        (dataset.hash ^ held_out.hash.rotate_left(17)).wrapping_mul(0x0000_0100_0000_01b3);
    Ok(Split {
        train: (0..train as u32).collect(),
        validation: (train as u32..total as u32).collect(),
    })
}

/// How many of `n` positions `fraction` holds out: rounded, and never all of them.
pub fn validation_count(n: usize, fraction: f64) -> usize {
    ((n as f64 * fraction).round() as usize).min(n.saturating_sub(1))
}

/// One shuffle by `seed` of all indices; the first [`validation_count`] are held out.
pub fn split(n: usize, fraction: f64, seed: u64) -> Split {
    let mut all: Vec<u32> = (0..n as u32).collect();
    Rng::new(seed, SPLIT_STREAM).shuffle(&mut all);
    let train = all.split_off(validation_count(n, fraction));
    Split {
        train,
        validation: all,
    }
}

/// The random streams of one seed: the split, the initial weights, and epoch `e`'s order
/// (stream `EPOCH_STREAM + e`).
pub const SPLIT_STREAM: u64 = 1;
pub const INIT_STREAM: u64 = 2;
pub const EPOCH_STREAM: u64 = 1000;

/// Writes the training order of epoch `epoch` (1-based) into `order`: the training indices
/// shuffled by a stream of their own, so that any epoch's order is known without the ones
/// before it (which `--resume` relies on).
pub fn epoch_order(train: &[u32], seed: u64, epoch: usize, order: &mut Vec<u32>) {
    order.clear();
    order.extend_from_slice(train);
    Rng::new(seed, EPOCH_STREAM + epoch as u64).shuffle(order);
}

/// An index of a training position with this bit set stands for its record mirrored left to
/// right (`horizon train --mirror`): the a-file becomes the h-file. Records keep no castling
/// rights, so the mirrored board is as legal and as good for each side as the original.
pub const MIRRORED: u32 = 1 << 31;

/// The index with its mirrored copy: every index, then every index with [`MIRRORED`] set.
pub fn with_mirrored(indices: &[u32]) -> Vec<u32> {
    indices
        .iter()
        .copied()
        .chain(indices.iter().map(|&i| i | MIRRORED))
        .collect()
}

/// The logistic function.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target: `λ · sigmoid(score / 400) + (1 − λ) · result / 2`, the search's
/// score in the network's units blended with the game's result.
#[inline]
pub fn target(score: i16, result: u8, lambda: f32) -> f32 {
    lambda * sigmoid(f32::from(score) / horizon_chess::nnue::SCALE as f32)
        + (1.0 - lambda) * f32::from(result) / 2.0
}

/// One position decoded for the network.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The side to move's active features (`count` of them).
    pub us: [usize; 32],
    /// The other side's.
    pub them: [usize; 32],
    pub count: usize,
    pub bucket: usize,
    pub target: f32,
}

impl Default for Sample {
    fn default() -> Sample {
        Sample {
            us: [0; 32],
            them: [0; 32],
            count: 0,
            bucket: 0,
            target: 0.0,
        }
    }
}

impl Sample {
    /// Decodes `record` as stored.
    #[cfg(test)]
    pub fn decode(&mut self, record: &PackedBoard, lambda: f32, buckets: usize, inputs: Inputs) {
        self.decode_mirrored(record, false, lambda, buckets, inputs);
    }

    /// Decodes the position of training index `index` (see [`MIRRORED`]).
    #[inline]
    pub fn decode_index(
        &mut self,
        records: &[PackedBoard],
        index: u32,
        lambda: f32,
        buckets: usize,
        inputs: Inputs,
    ) {
        let record = &records[(index & !MIRRORED) as usize];
        self.decode_mirrored(record, index & MIRRORED != 0, lambda, buckets, inputs);
    }

    /// Decodes `record` in place (no allocation), mirrored left to right when `mirrored`.
    /// The record sees the board from the side to move, so the mover's feature of a piece is
    /// its square as stored, and the other side's is the square mirrored (`^ 56`) with ours
    /// and theirs swapped: exactly `horizon_chess::nnue::feature` for each perspective
    /// (tested below), each perspective's squares flipped by its king's
    /// [`horizon_chess::nnue::king_flip`] (a vertical mirror leaves files alone).
    #[inline]
    pub fn decode_mirrored(
        &mut self,
        record: &PackedBoard,
        mirrored: bool,
        lambda: f32,
        buckets: usize,
        inputs: Inputs,
    ) {
        let flip = if mirrored { 7 } else { 0 };
        // The kings' flips: [the mover's, the other side's].
        let mut king_flips = [0usize; 2];
        if inputs == Inputs::KingMirrored {
            for (sq, theirs, role) in record.pieces() {
                if role == Role::King {
                    let king = Square::new(u32::from(sq ^ flip as u8));
                    king_flips[usize::from(theirs)] = king_flip(inputs, king);
                }
            }
        }
        let mut n = 0;
        for (sq, theirs, role) in record.pieces() {
            let role = role as usize - 1;
            let sq = usize::from(sq) ^ flip;
            self.us[n] = (usize::from(theirs) * 6 + role) * 64 + (sq ^ king_flips[0]);
            self.them[n] = (usize::from(!theirs) * 6 + role) * 64 + (sq ^ 56 ^ king_flips[1]);
            n += 1;
        }
        self.count = n;
        self.bucket = output_bucket(n as u32, buckets);
        self.target = target(record.score(), record.result(), lambda);
    }

    pub fn us(&self) -> &[usize] {
        &self.us[..self.count]
    }

    pub fn them(&self) -> &[usize] {
        &self.them[..self.count]
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use horizon_chess::nnue::{INPUTS, feature};
    use horizon_chess::packed::Outcome;
    use horizon_chess::shakmaty::fen::Fen;
    use horizon_chess::shakmaty::{CastlingMode, Chess, Position as _};

    pub fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    pub const FENS: [&str; 10] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 0 9",
        "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40",
        "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 b - - 0 40",
        "4k3/8/8/8/8/8/PPPPPPPP/4K3 b - - 0 1",
        "7k/8/8/8/8/8/8/1K1Q4 w - - 0 1",
        // Kings on files a-d: both, and Black's only (king-mirrored inputs).
        "2kr3r/ppp2ppp/2n5/8/8/2N5/PPP2PPP/2KR3R b - - 0 12",
        "1k6/pp6/8/8/8/8/5PPP/6K1 w - - 0 40",
    ];

    /// The features of the engine itself for `chess`: (mover's, other side's), sorted.
    fn engine_features(chess: &Chess, inputs: Inputs) -> (Vec<usize>, Vec<usize>) {
        let mover = chess.turn();
        let board = chess.board();
        let flip = |side| king_flip(inputs, board.king_of(side).expect("a king"));
        let mut us = Vec::new();
        let mut them = Vec::new();
        for sq in board.occupied() {
            let piece = board.piece_at(sq).expect("occupied");
            us.push(feature(mover, piece.color, piece.role, sq, flip(mover)));
            them.push(feature(!mover, piece.color, piece.role, sq, flip(!mover)));
        }
        us.sort_unstable();
        them.sort_unstable();
        (us, them)
    }

    /// The FEN with files mirrored (a <-> h), castling rights and en passant dropped.
    fn mirrored_files(fen: &str) -> String {
        let mut parts = fen.split(' ');
        let board = parts.next().expect("board");
        let turn = parts.next().expect("turn");
        let ranks: Vec<String> = board
            .split('/')
            .map(|rank| {
                let mut squares = String::new();
                for c in rank.chars() {
                    match c.to_digit(10) {
                        Some(n) => squares.extend(std::iter::repeat_n('1', n as usize)),
                        None => squares.push(c),
                    }
                }
                squares.chars().rev().collect()
            })
            .collect();
        format!("{} {turn} - - 0 1", ranks.join("/"))
    }

    #[test]
    fn mirrored_indices_decode_as_the_mirrored_position() {
        for fen in FENS {
            let record = PackedBoard::new(&chess(fen), 37, Outcome::Win).expect("packs");
            let mirrored =
                PackedBoard::new(&chess(&mirrored_files(fen)), 37, Outcome::Win).expect("packs");
            let records = [record, mirrored];
            let (mut a, mut b) = (Sample::default(), Sample::default());
            a.decode_index(&records, MIRRORED, 0.5, 8, Inputs::Plain);
            b.decode_index(&records, 1, 0.5, 8, Inputs::Plain);
            let sorted = |v: &[usize]| {
                let mut v = v.to_vec();
                v.sort_unstable();
                v
            };
            assert_eq!(sorted(a.us()), sorted(b.us()), "{fen}");
            assert_eq!(sorted(a.them()), sorted(b.them()), "{fen}");
            assert_eq!((a.bucket, a.target), (b.bucket, b.target), "{fen}");
            // Unmirrored, index 0 is the record itself, and differs from its mirror image
            // (no position here is symmetric).
            a.decode_index(&records, 0, 0.5, 8, Inputs::Plain);
            assert_ne!(sorted(a.us()), sorted(b.us()), "{fen}");
        }
        assert_eq!(
            with_mirrored(&[3, 1]),
            vec![3, 1, 3 | MIRRORED, 1 | MIRRORED]
        );
    }

    #[test]
    fn features_match_the_engine() {
        for (fen, inputs) in FENS
            .iter()
            .flat_map(|f| [(f, Inputs::Plain), (f, Inputs::KingMirrored)])
        {
            let chess = chess(fen);
            let record = PackedBoard::new(&chess, 37, Outcome::Win).expect("packs");
            let mut sample = Sample::default();
            sample.decode(&record, 0.5, 8, inputs);
            let mut us = sample.us().to_vec();
            let mut them = sample.them().to_vec();
            us.sort_unstable();
            them.sort_unstable();
            let (engine_us, engine_them) = engine_features(&chess, inputs);
            assert_eq!(us, engine_us, "{inputs:?} {fen}");
            assert_eq!(them, engine_them, "{inputs:?} {fen}");
            assert!(us.iter().chain(&them).all(|&f| f < INPUTS));
            let pieces = chess.board().occupied().count();
            assert_eq!(sample.bucket, output_bucket(pieces as u32, 8));
            let expected = 0.5 * sigmoid(37.0 / 400.0) + 0.5;
            assert!((sample.target - expected).abs() < 1e-6, "{fen}");
        }
    }

    #[test]
    fn target_blends_score_and_result() {
        assert_eq!(target(0, 1, 0.75), 0.5);
        assert_eq!(target(0, 2, 0.0), 1.0);
        assert_eq!(target(0, 0, 0.0), 0.0);
        assert!((target(400, 1, 1.0) - sigmoid(1.0)).abs() < 1e-7);
        assert!(target(i16::MAX, 2, 0.75) > 0.999);
    }

    fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("writable");
        path
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let dir = std::env::temp_dir().join(format!("horizon-train-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary directory");
        let record = PackedBoard::new(&chess(FENS[2]), 10, Outcome::Draw)
            .expect("packs")
            .to_bytes();
        let good = write(&dir, "good.bin", &[record, record].concat());
        let data = load(std::slice::from_ref(&good)).expect("loads");
        assert_eq!(data.records.len(), 2);

        let message = |paths: &[PathBuf]| match load(paths) {
            Ok(_) => panic!("{paths:?} loaded"),
            Err(e) => format!("{e:#}"),
        };
        let missing = message(&[dir.join("missing.bin")]);
        assert!(missing.contains("cannot read the data file"), "{missing}");
        let empty = write(&dir, "empty.bin", &[]);
        assert!(message(&[good.clone(), empty]).contains("is empty"));
        let short = write(
            &dir,
            "short.bin",
            &[record.as_slice(), &record[..31]].concat(),
        );
        let short = message(&[short]);
        assert!(short.contains("63 bytes, not a multiple of 32"), "{short}");
        let mut garbage = record;
        garbage[..8].copy_from_slice(&u64::MAX.to_le_bytes());
        let garbage = message(&[write(&dir, "garbage.bin", &[record, garbage].concat())]);
        assert!(garbage.contains("record 1 (byte 32)"), "{garbage}");
        assert!(garbage.contains("64 pieces"), "{garbage}");
        let mut result = record;
        result[26] = 3;
        let result = message(&[write(&dir, "result.bin", &result)]);
        assert!(result.contains("result byte 3"), "{result}");
        let text = message(&[write(&dir, "text.bin", &[b'x'; 64])]);
        assert!(text.contains("record 0"), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn split_is_seeded_disjoint_and_complete() {
        let a = split(1000, 0.02, 9);
        let b = split(1000, 0.02, 9);
        assert_eq!((a.train.len(), a.validation.len()), (980, 20));
        assert_eq!((&a.train, &a.validation), (&b.train, &b.validation));
        assert_ne!(split(1000, 0.02, 10).validation, a.validation);
        let mut all: Vec<u32> = a.train.iter().chain(&a.validation).copied().collect();
        all.sort_unstable();
        assert_eq!(all, (0..1000).collect::<Vec<_>>());
        assert_eq!(split(3, 0.9, 1).train.len(), 1);
        assert!(split(10, 0.0, 1).validation.is_empty());
        let (mut o1, mut o2) = (Vec::new(), Vec::new());
        epoch_order(&a.train, 9, 1, &mut o1);
        epoch_order(&a.train, 9, 2, &mut o2);
        assert_ne!(o1, o2);
        o2.sort_unstable();
        let mut t = a.train.clone();
        t.sort_unstable();
        assert_eq!(o2, t);
    }

    #[test]
    fn held_out_files_validate_and_every_data_position_trains() {
        let record = |fen: &str, score: i32| {
            PackedBoard::new(&chess(fen), score, Outcome::Draw).expect("packs")
        };
        let data = || Dataset {
            records: vec![record(FENS[0], 1), record(FENS[1], 2), record(FENS[2], 3)],
            hash: 11,
        };
        let held_out = || Dataset {
            records: vec![record(FENS[3], 4), record(FENS[4], 5)],
            hash: 22,
        };
        let mut joined = data();
        let split = append_held_out(&mut joined, held_out()).expect("joins");
        assert_eq!(split.train, [0, 1, 2]);
        assert_eq!(split.validation, [3, 4]);
        assert_eq!(joined.records[3], held_out().records[0]);
        assert_eq!(joined.records[4], held_out().records[1]);
        // Other validation data, or the roles swapped, is other data for --resume.
        let mut swapped = held_out();
        append_held_out(&mut swapped, data()).expect("joins");
        assert_ne!(joined.hash, swapped.hash);
        assert_ne!(joined.hash, 11);
    }
}
