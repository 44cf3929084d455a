//! Syzygy probing against the tables' truth. The expected WDL and DTZ values were read with
//! python-chess's own Syzygy reader (an independent implementation) from the same files:
//! `chess.syzygy.open_tablebase(dir).probe_wdl(board)` and `.probe_dtz(board)`.

use std::path::PathBuf;

use horizon_chess::tablebase::MAX_TABLE_PIECES;
use horizon_chess::{Position, Tablebases};
use horizon_search::TableOutcome;
use shakmaty_syzygy::AmbiguousWdl;

/// `../shared/syzygy` beside the repository. In CI (`CI` set) it must exist; elsewhere a test
/// that needs it prints why it skips and returns `None`.
fn shared_syzygy_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/syzygy");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set but {} is missing",
        dir.display()
    );
    eprintln!(
        "skipping: {} not found (it sits beside the repository in CI)",
        dir.display()
    );
    None
}

fn open_tables() -> Option<Tablebases> {
    let dir = shared_syzygy_dir()?;
    let (tables, report) = Tablebases::open(&dir.to_string_lossy());
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!((report.wdl, report.dtz, report.max_pieces), (35, 35, 4));
    Some(tables.expect("the shared tables open"))
}

fn position(fen: &str) -> Position {
    Position::from_fen(fen).expect("test FEN is legal")
}

fn wdl_number(wdl: AmbiguousWdl) -> i32 {
    match wdl {
        AmbiguousWdl::Win => 2,
        AmbiguousWdl::MaybeWin | AmbiguousWdl::CursedWin => 1,
        AmbiguousWdl::Draw => 0,
        AmbiguousWdl::MaybeLoss | AmbiguousWdl::BlessedLoss => -1,
        AmbiguousWdl::Loss => -2,
    }
}

/// (FEN, WDL, DTZ) for the side to move, halfmove clock 0.
const TRUTH: [(&str, i32, i32); 14] = [
    ("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", 2, 17),
    ("8/8/8/4k3/8/8/8/KQ6 b - - 0 1", -2, -18),
    ("8/8/8/8/8/3k4/8/KR6 w - - 0 1", 2, 29),
    ("8/8/8/8/8/3k4/8/KR6 b - - 0 1", -2, -30),
    ("8/8/8/8/4k3/8/4P3/4K3 w - - 0 1", 0, 0),
    ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", 2, 3),
    ("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1", -2, -4),
    ("8/8/8/8/8/8/k7/5BNK w - - 0 1", 2, 56),
    ("8/8/8/8/8/8/k7/5BNK b - - 0 1", -2, -59),
    ("8/8/8/3k4/8/8/2b5/R3K3 w - - 0 1", 0, 0),
    ("8/5p2/8/8/8/8/1P6/K6k w - - 0 1", 0, 0),
    ("8/5p2/8/8/8/8/1P6/K6k b - - 0 1", 2, 1),
    ("3k4/8/8/8/8/8/3r4/KQ6 w - - 0 1", 2, 49),
    ("3k4/8/8/8/8/8/3r4/KQ6 b - - 0 1", -2, -52),
];

#[test]
fn wdl_and_dtz_match_the_tables_truth() {
    let Some(tables) = open_tables() else { return };
    for (fen, wdl, dtz) in TRUTH {
        let pos = position(fen);
        let probed = tables.probe_wdl(pos.chess()).expect("covered");
        assert_eq!(wdl_number(probed), wdl, "WDL of {fen}");
        assert_eq!(
            tables.probe_dtz(pos.chess()).expect("covered"),
            dtz,
            "DTZ of {fen}"
        );
        let expected = match wdl {
            2 => TableOutcome::Win,
            -2 => TableOutcome::Loss,
            _ => TableOutcome::Draw,
        };
        assert_eq!(
            tables.probe_after_zeroing(pos.chess()),
            Some(expected),
            "{fen}"
        );
    }
}

#[test]
fn the_fifty_move_rule_turns_a_slow_win_into_a_draw_unless_switched_off() {
    let Some(tables) = open_tables() else { return };
    // KBN v K needs 56 plies to the next zeroing move; 60 plies are already gone.
    let pos = position("8/8/8/8/8/8/k7/5BNK w - - 60 40");
    assert_eq!(
        tables.probe_wdl(pos.chess()).ok(),
        Some(AmbiguousWdl::CursedWin)
    );
    let filter = tables.root_filter(pos.chess()).expect("covered");
    assert_eq!(filter.outcome, TableOutcome::Draw);
    tables.set_rule50(false);
    let filter = tables.root_filter(pos.chess()).expect("covered");
    assert_eq!(filter.outcome, TableOutcome::Win);
}

#[test]
fn positions_with_castling_rights_or_too_many_pieces_are_not_probed() {
    let Some(tables) = open_tables() else { return };
    let castling = position("r3k3/8/8/8/8/8/8/4K3 b q - 0 1");
    assert!(!tables.covers(castling.chess()));
    assert_eq!(tables.probe_after_zeroing(castling.chess()), None);
    assert!(tables.probe_wdl(castling.chess()).is_err());
    assert!(tables.root_filter(castling.chess()).is_none());
    let five = position("8/8/8/4k3/8/8/3PP3/KQ6 w - - 0 1");
    assert_eq!(tables.probe_after_zeroing(five.chess()), None);
    // SyzygyProbeLimit below the piece count turns probing off.
    let kqk = position("8/8/8/4k3/8/8/8/KQ6 w - - 0 1");
    tables.set_probe_limit(2);
    assert_eq!(tables.probe_after_zeroing(kqk.chess()), None);
    tables.set_probe_limit(MAX_TABLE_PIECES);
    assert_eq!(
        tables.probe_after_zeroing(kqk.chess()),
        Some(TableOutcome::Win)
    );
}

/// Root moves that keep the result: drawn positions with exactly one losing move, won
/// positions with exactly one winning move (found and checked with python-chess).
#[test]
fn the_root_filter_keeps_exactly_the_moves_that_keep_the_result() {
    let Some(tables) = open_tables() else { return };
    let drawn = [
        ("8/5r2/8/5k2/8/1R6/8/5K2 w - - 0 1", "b3b7", 19),
        ("4k3/K7/8/3p4/8/8/2P5/8 w - - 0 1", "c2c4", 7),
        ("8/k7/8/8/2R5/3r4/1K6/8 w - - 0 1", "c4d4", 19),
    ];
    for (fen, losing, legal) in drawn {
        let pos = position(fen);
        let filter = tables.root_filter(pos.chess()).expect("covered");
        assert_eq!(filter.outcome, TableOutcome::Draw, "{fen}");
        let kept: Vec<String> = filter.keep.iter().map(|&m| pos.uci(m)).collect();
        assert_eq!(kept.len(), legal - 1, "{fen}: {kept:?}");
        assert!(!kept.iter().any(|m| m == losing), "{fen}: {kept:?}");
    }
    let won = [
        ("8/1k6/8/8/1K1P4/8/8/8 w - - 0 1", "b4b5"),
        ("8/6R1/3K4/8/2p5/1k6/8/8 w - - 0 1", "g7b7"),
        ("8/8/7K/1k6/6R1/8/3p4/8 w - - 0 1", "g4d4"),
        ("3K4/6Pp/5k2/8/8/8/8/8 w - - 0 1", "g7g8q"),
    ];
    for (fen, winning) in won {
        let pos = position(fen);
        let filter = tables.root_filter(pos.chess()).expect("covered");
        assert_eq!(filter.outcome, TableOutcome::Win, "{fen}");
        let kept: Vec<String> = filter.keep.iter().map(|&m| pos.uci(m)).collect();
        assert_eq!(kept, vec![winning.to_owned()], "{fen}");
    }
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("horizon-syzygy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn bad_table_directories_and_files_are_reported_and_skipped() {
    let Some(shared) = shared_syzygy_dir() else {
        return;
    };
    let (none, report) = Tablebases::open("/nonexistent/horizon/tables");
    assert!(none.is_none());
    assert!(
        report.problems[0].contains("cannot read directory"),
        "{report:?}"
    );

    let empty = scratch_dir("empty");
    let (none, report) = Tablebases::open(&empty.to_string_lossy());
    assert!(none.is_none() && report.problems.is_empty() && report.wdl + report.dtz == 0);

    // KQvK and KRvK intact; KBNvK truncated; a KQvK table renamed to KPvK.
    let dir = scratch_dir("bad");
    for name in ["KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz"] {
        std::fs::copy(shared.join(name), dir.join(name)).expect("copy table");
    }
    let bytes = std::fs::read(shared.join("KBNvK.rtbw")).expect("read table");
    std::fs::write(dir.join("KBNvK.rtbw"), &bytes[..1000]).expect("truncate");
    std::fs::copy(shared.join("KQvK.rtbw"), dir.join("KPvK.rtbw")).expect("rename");
    let paths = format!("{}:/nonexistent/horizon", dir.display());
    let (tables, report) = Tablebases::open(&paths);
    let tables = tables.expect("the intact tables open");
    assert_eq!((report.wdl, report.dtz, report.max_pieces), (2, 2, 3));
    assert_eq!(report.problems.len(), 3, "{:?}", report.problems);
    assert!(report.problems.iter().any(|p| p.contains("KBNvK")));
    assert!(report.problems.iter().any(|p| p.contains("KPvK")));
    let kqk = position("8/8/8/4k3/8/8/8/KQ6 w - - 0 1");
    assert_eq!(
        tables.probe_after_zeroing(kqk.chess()),
        Some(TableOutcome::Win)
    );
    let kpk = position("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1");
    assert_eq!(tables.probe_after_zeroing(kpk.chess()), None);
    assert!(tables.root_filter(kpk.chess()).is_none());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&empty);
}

/// The KPK bitbase (`KPKBitbase`) agrees with the Syzygy KPvK table on every legal position
/// of king and pawn against king, either colour's pawn, either side to move: the evaluation
/// is positive exactly where the side to move wins, negative where it loses, 0 where drawn.
#[test]
fn the_kpk_bitbase_agrees_with_the_tables_everywhere() {
    use horizon_chess::shakmaty::{Board, Chess, Color, FromSetup, Piece, Setup, Square};
    use horizon_chess::{CastlingMode, eval};
    use horizon_search::EvalKnowledge;
    let Some(tables) = open_tables() else { return };
    let kpk = EvalKnowledge {
        kpk_bitbase: true,
        ..EvalKnowledge::default()
    };
    let (mut checked, mut wins) = (0u32, 0u32);
    for strong in [Color::White, Color::Black] {
        for pawn in 8..56u32 {
            for strong_king in 0..64u32 {
                for weak_king in 0..64u32 {
                    for turn in [Color::White, Color::Black] {
                        if [pawn, strong_king].contains(&weak_king) || pawn == strong_king {
                            continue;
                        }
                        let mut board = Board::empty();
                        board.set_piece_at(
                            Square::new(pawn),
                            Piece::from_char(if strong == Color::White { 'P' } else { 'p' })
                                .expect("pawn"),
                        );
                        board.set_piece_at(Square::new(strong_king), strong.king());
                        board.set_piece_at(Square::new(weak_king), (!strong).king());
                        let mut setup = Setup::empty();
                        setup.board = board;
                        setup.turn = turn;
                        let Ok(chess) = Chess::from_setup(setup, CastlingMode::Standard) else {
                            continue;
                        };
                        let wdl = wdl_number(tables.probe_wdl(&chess).expect("KPvK"));
                        let score = eval::breakdown_with(&chess, kpk).score;
                        assert_eq!(
                            score.signum(),
                            wdl.signum(),
                            "{}: WDL {wdl}, score {score}",
                            horizon_chess::shakmaty::fen::Fen::from_position(
                                &chess,
                                horizon_chess::shakmaty::EnPassantMode::Legal
                            )
                        );
                        checked += 1;
                        wins += u32::from(wdl != 0);
                    }
                }
            }
        }
    }
    println!("{checked} positions, {wins} decided");
    assert!(checked > 600_000, "{checked}");
    assert!(wins > checked / 2, "{wins} of {checked}");
}
