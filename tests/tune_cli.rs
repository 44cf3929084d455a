//! `horizon selfplay` and `horizon tune` end to end: the labelled positions self-play
//! writes, and a tuning run on a small synthetic set.

mod common;

use std::path::Path;

use common::{assert_success, run_horizon, scratch_dir, stdout};
use horizon_chess::eval::layout::NUM_WEIGHTS;
use horizon_chess::shakmaty::{Color, Position as _, Role};
use horizon_chess::{Position, START_FEN};

/// Every line of a self-play file: `<FEN> | <result>`, a legal position not in check, a
/// result of 0, 0.5 or 1. Returns the number of lines.
fn check_selfplay_file(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).expect("output written");
    let mut lines = 0;
    for line in text.lines() {
        let (fen, result) = line
            .split_once(" | ")
            .unwrap_or_else(|| panic!("not `<FEN> | <result>`: {line}"));
        assert!(
            ["1.0", "0.5", "0.0"].contains(&result),
            "result {result:?} in {line}"
        );
        let position = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(!position.in_check(), "in check: {fen}");
        assert!(!position.moves().is_empty(), "game over: {fen}");
        lines += 1;
    }
    lines
}

#[test]
fn selfplay_writes_labelled_quiet_positions() {
    let dir = scratch_dir("selfplay");
    let out = dir.join("games.txt");
    let output = run_horizon(&[
        "selfplay",
        "--games",
        "2",
        "--nodes",
        "400",
        "--threads",
        "2",
        "--seed",
        "3",
        "--out",
        out.to_str().expect("utf-8 path"),
    ]);
    assert_success(&output);
    let text = stdout(&output);
    assert!(text.contains("games 2:"), "{text}");
    let lines = check_selfplay_file(&out);
    assert!(lines > 0, "no positions written\n{text}");
    assert!(
        text.replace(',', "")
            .contains(&format!("{lines} positions written")),
        "{text}"
    );

    // From an openings file, on one thread: the same seed gives the same games whatever the
    // number of threads.
    let openings = dir.join("openings.epd");
    std::fs::write(
        &openings,
        format!(
            "{START_FEN}\n\
             # a comment\n\
             r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"x\";\n"
        ),
    )
    .expect("writable");
    let mut files = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.join(format!("openings-{threads}.txt"));
        let output = run_horizon(&[
            "selfplay",
            "--games",
            "2",
            "--nodes",
            "300",
            "--threads",
            threads,
            "--openings",
            openings.to_str().expect("utf-8 path"),
            "--out",
            out.to_str().expect("utf-8 path"),
        ]);
        assert_success(&output);
        check_selfplay_file(&out);
        files.push(std::fs::read_to_string(&out).expect("written"));
    }
    assert_eq!(files[0], files[1]);
}

/// `--syzygy`: a game that starts in the tables or captures its way into them ends there with
/// the tables' result (White's view), whoever is to move.
#[test]
fn selfplay_ends_games_that_enter_the_tables_with_their_result() {
    let Some(tables) = common::shared_syzygy_dir() else {
        return;
    };
    let dir = scratch_dir("selfplay-syzygy");
    let openings = dir.join("endings.epd");
    std::fs::write(
        &openings,
        // KQ v K, Black to move: White wins. KR v KR: a draw. KQR v KR with Black's rook
        // en prise to king and queen: White's capture enters the tables as KQR v K, a win.
        "4k3/8/8/8/8/8/8/3QK3 b - - 0 1\n\
         4k3/8/8/8/8/8/1r6/4K2R w - - 0 1\n\
         4k3/8/8/8/8/8/3r4/3QK2R w - - 0 1\n",
    )
    .expect("writable");
    let out = dir.join("games.txt");
    let output = run_horizon(&[
        "selfplay",
        "--games",
        "3",
        "--nodes",
        "2000",
        "--threads",
        "1",
        "--openings",
        openings.to_str().expect("utf-8 path"),
        "--syzygy",
        tables.to_str().expect("utf-8 path"),
        "--out",
        out.to_str().expect("utf-8 path"),
    ]);
    assert_success(&output);
    let text = stdout(&output);
    assert!(text.contains("endings: tables 3"), "{text}");
    assert!(text.contains("games 3: +2 =1 -0"), "{text}");
    // Every game ended within the plies that are played but not written.
    assert_eq!(check_selfplay_file(&out), 0, "{text}");

    let missing = run_horizon(&[
        "selfplay",
        "--games",
        "1",
        "--nodes",
        "100",
        "--syzygy",
        dir.join("no-such-dir").to_str().expect("utf-8 path"),
        "--out",
        out.to_str().expect("utf-8 path"),
    ]);
    assert!(!missing.status.success());
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("no usable Syzygy tables"),
        "{}",
        String::from_utf8_lossy(&missing.stderr)
    );
}

/// `--play-in-tables`: games that enter the tables play on inside them, searched without
/// them, and every position written there carries the tables' own result for it (each probed
/// here again), in text and in bullet records (with a score of +-1000 cp or 0 to match).
#[test]
fn selfplay_plays_on_inside_the_tables_and_labels_each_position_by_them() {
    use horizon_chess::Tablebases;
    use horizon_chess::packed::{PackedBoard, RECORD_BYTES};
    use horizon_search::TableOutcome;
    let Some(tables) = common::shared_syzygy_dir() else {
        return;
    };
    let dir = scratch_dir("selfplay-in-tables");
    let openings = dir.join("endings.epd");
    std::fs::write(
        &openings,
        // KQ v K (a win), KR v KR (a draw), KR v KP with the pawn on the seventh and White's
        // king far away (a draw), K+P v K with Black's king in front (a draw).
        "4k3/8/8/8/8/8/8/3QK3 b - - 0 1\n\
         4k3/8/8/8/8/8/1r6/4K2R w - - 0 1\n\
         8/8/8/8/8/K7/5pk1/4R3 w - - 0 1\n\
         8/8/8/8/4k3/8/4P3/4K3 w - - 0 1\n",
    )
    .expect("writable");
    let tables_arg = tables.to_str().expect("utf-8 path");
    let mut outputs = Vec::new();
    for format in ["text", "bullet"] {
        let out = dir.join(format!("games.{format}"));
        let output = run_horizon(&[
            "selfplay",
            "--games",
            "4",
            "--nodes",
            "1500",
            "--threads",
            "2",
            "--openings",
            openings.to_str().expect("utf-8 path"),
            "--syzygy",
            tables_arg,
            "--play-in-tables",
            "24",
            "--format",
            format,
            "--out",
            out.to_str().expect("utf-8 path"),
        ]);
        assert_success(&output);
        let text = stdout(&output);
        assert!(text.contains("endings: tables 4"), "{text}");
        outputs.push(std::fs::read(&out).expect("written"));
    }
    let (probe, _) = Tablebases::open(tables_arg);
    let probe = probe.expect("the shared tables open");
    let text = String::from_utf8(outputs[0].clone()).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    // Up to 24 plies of each of 4 games, in check and tactical positions left out.
    assert!(
        lines.len() >= 20 && lines.len() <= 4 * 24,
        "{} lines",
        lines.len()
    );
    let bytes = &outputs[1];
    assert_eq!(bytes.len(), lines.len() * RECORD_BYTES);
    let mut results = [0usize; 3];
    for (line, chunk) in lines.iter().zip(bytes.chunks_exact(RECORD_BYTES)) {
        let (fen, result) = line.split_once(" | ").expect("`<FEN> | <result>`");
        let position = Position::from_fen(fen).expect("valid");
        let mover = position.chess().turn();
        let truth = probe
            .probe_after_zeroing(position.chess())
            .unwrap_or_else(|| panic!("not in the tables: {fen}"));
        let (mover_result, score) = match truth {
            TableOutcome::Win => (2, 1000),
            TableOutcome::Draw => (1, 0),
            TableOutcome::Loss => (0, -1000),
        };
        let white_result = if mover == Color::White {
            mover_result
        } else {
            2 - mover_result
        };
        assert_eq!(result, ["0.0", "0.5", "1.0"][white_result], "{fen}");
        results[white_result] += 1;
        let record = PackedBoard::from_bytes(chunk.try_into().expect("32 bytes"));
        assert_eq!(i32::from(record.score()), score, "{fen}");
        assert_eq!(usize::from(record.result()), mover_result, "{fen}");
        let expected =
            PackedBoard::new(position.chess(), score, record_outcome(&record)).expect("packs");
        assert_eq!(record, expected, "{fen}");
    }
    // Wins for White and draws both among the labels.
    assert!(results[2] > 0 && results[1] > 0, "{results:?}");

    let without_tables = run_horizon(&[
        "selfplay",
        "--games",
        "1",
        "--nodes",
        "100",
        "--play-in-tables",
        "10",
        "--out",
        dir.join("x.bin").to_str().expect("utf-8 path"),
    ]);
    assert!(!without_tables.status.success());
    assert!(
        String::from_utf8_lossy(&without_tables.stderr).contains("--play-in-tables needs --syzygy"),
        "{}",
        String::from_utf8_lossy(&without_tables.stderr)
    );
}

/// `--format bullet` writes the positions of `--format text` (same seed, same games) as
/// 32-byte records: the same pieces from the mover's view, the result from the mover's view.
#[test]
fn selfplay_writes_bullet_records_of_the_same_positions() {
    use horizon_chess::packed::{PackedBoard, RECORD_BYTES};
    let dir = scratch_dir("selfplay-bullet");
    let mut outputs = Vec::new();
    for format in ["text", "bullet"] {
        let out = dir.join(format!("games.{format}"));
        let output = run_horizon(&[
            "selfplay",
            "--games",
            "3",
            "--nodes",
            "400",
            "--threads",
            "2",
            "--seed",
            "5",
            "--format",
            format,
            "--out",
            out.to_str().expect("utf-8 path"),
        ]);
        assert_success(&output);
        outputs.push(std::fs::read(&out).expect("written"));
    }
    let text = String::from_utf8(outputs[0].clone()).expect("utf-8");
    let bytes = &outputs[1];
    let lines: Vec<&str> = text.lines().collect();
    assert!(!lines.is_empty());
    assert_eq!(bytes.len(), lines.len() * RECORD_BYTES);
    let mut scores_with_the_result = 0;
    for (line, chunk) in lines.iter().zip(bytes.chunks_exact(RECORD_BYTES)) {
        let (fen, result) = line.split_once(" | ").expect("`<FEN> | <result>`");
        let record = PackedBoard::from_bytes(chunk.try_into().expect("32 bytes"));
        let position = Position::from_fen(fen).expect("valid");
        let chess = position.chess();
        let mover = chess.turn();
        let expected = PackedBoard::new(chess, i32::from(record.score()), record_outcome(&record))
            .expect("packs");
        assert_eq!(record, expected, "{fen}");
        let white_result = match result {
            "1.0" => 2,
            "0.5" => 1,
            _ => 0,
        };
        let mover_result = if mover == Color::White {
            white_result
        } else {
            2 - white_result
        };
        assert_eq!(record.result(), mover_result, "{fen}");
        let (ours, _) = record.king_squares();
        let king = chess.board().king_of(mover).expect("king");
        let king = if mover == Color::White {
            king as u8
        } else {
            king as u8 ^ 56
        };
        assert_eq!(ours, king, "{fen}");
        // Decided games: the searches mostly saw the winner ahead.
        if record.result() != 1 && (record.score() > 0) == (record.result() == 2) {
            scores_with_the_result += 1;
        }
    }
    let decided = bytes
        .chunks_exact(RECORD_BYTES)
        .filter(|chunk| chunk[26] != 1)
        .count();
    if decided > 0 {
        assert!(
            scores_with_the_result > 0,
            "{decided} positions of decided games"
        );
    }
}

fn record_outcome(record: &horizon_chess::packed::PackedBoard) -> horizon_chess::packed::Outcome {
    use horizon_chess::packed::Outcome;
    match record.result() {
        0 => Outcome::Loss,
        1 => Outcome::Draw,
        _ => Outcome::Win,
    }
}

#[test]
fn selfplay_help_documents_the_format() {
    let output = run_horizon(&["selfplay", "--help"]);
    assert_success(&output);
    let text = stdout(&output);
    assert!(text.contains("<FEN> | <result>"), "{text}");
    assert!(text.contains("White's view"), "{text}");
}

/// Material balance in pawns (1, 3, 3, 5, 9), White minus Black.
fn material(position: &Position) -> i32 {
    let board = position.chess().board();
    let values = [
        (Role::Pawn, 1),
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ];
    values
        .iter()
        .map(|&(role, v)| {
            let count = |c: Color| (board.by_role(role) & board.by_color(c)).count() as i32;
            v * (count(Color::White) - count(Color::Black))
        })
        .sum()
}

/// Positions from random games, labelled by their material balance: a synthetic data set
/// the current weights do not fit exactly.
fn synthetic_data(count: usize) -> String {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut text = String::new();
    let mut written = 0;
    while written < count {
        let mut position = Position::startpos();
        let plies = 8 + next(60);
        for _ in 0..plies {
            let moves = position.moves();
            if moves.is_empty() {
                break;
            }
            position.play(moves[next(moves.len())]);
        }
        if position.moves().is_empty() || position.in_check() {
            continue;
        }
        let result = match material(&position) {
            d if d > 0 => "1.0",
            d if d < 0 => "0.0",
            _ => "0.5",
        };
        text.push_str(&format!("{} | {result}\n", position.fen()));
        written += 1;
    }
    text
}

/// The `(mg, eg)` pairs of the `WEIGHTS` array in a rendered `weights.rs`.
fn weight_pairs(source: &str) -> Vec<(i32, i32)> {
    let body = source
        .split_once("pub const WEIGHTS")
        .and_then(|(_, rest)| rest.split_once("= ["))
        .and_then(|(_, rest)| rest.split_once("];"))
        .map(|(body, _)| body)
        .expect("a WEIGHTS array");
    let mut pairs = Vec::new();
    for line in body.lines().map(str::trim) {
        if line.starts_with("//") {
            continue;
        }
        for item in line.split("),").filter(|s| !s.trim().is_empty()) {
            let item = item.trim().trim_start_matches('(').trim_end_matches(')');
            let (mg, eg) = item.split_once(',').expect("a pair");
            pairs.push((
                mg.trim().parse().expect("integer"),
                eg.trim().parse().expect("integer"),
            ));
        }
    }
    pairs
}

/// "training error 0.123 -> 0.100" from the tune output.
fn training_errors(text: &str) -> (f64, f64) {
    let line = text
        .lines()
        .find(|l| l.starts_with("training error"))
        .unwrap_or_else(|| panic!("no error line in\n{text}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    (
        words[2].parse().expect("error before"),
        words[4].trim_end_matches(',').parse().expect("error after"),
    )
}

#[test]
fn tune_lowers_the_training_error_and_writes_weights_source() {
    let dir = scratch_dir("tune");
    let data = dir.join("synthetic.txt");
    std::fs::write(&data, synthetic_data(3000)).expect("writable");
    let weights = dir.join("weights.rs");
    let output = run_horizon(&[
        "tune",
        "--data",
        data.to_str().expect("utf-8 path"),
        "--max-positions",
        "2500",
        "--epochs",
        "60",
        "--learning-rate",
        "2",
        "--threads",
        "2",
        "--write",
        weights.to_str().expect("utf-8 path"),
    ]);
    assert_success(&output);
    let text = stdout(&output);
    assert!(text.contains("read 2,500 positions"), "{text}");
    assert!(text.contains("K = "), "{text}");
    let (before, after) = training_errors(&text);
    assert!(after < before, "training error {before} -> {after}\n{text}");

    let source = std::fs::read_to_string(&weights).expect("weights written");
    assert!(source.contains("pub const WEIGHTS"), "{source}");
    assert!(source.contains("Tuned by Texel's method"), "{source}");
    assert_eq!(weight_pairs(&source).len(), NUM_WEIGHTS);
    // The current weights parse the same way (the test reads what it should).
    let current = include_str!("../crates/chess/src/eval/weights.rs");
    assert_eq!(weight_pairs(current).len(), NUM_WEIGHTS);

    // A missing data file is an error.
    let output = run_horizon(&["tune", "--data", "/nonexistent/horizon-data.txt"]);
    assert!(!output.status.success());
}
