//! `check::gives_check` against playing the move and asking `is_check`.

use horizon_chess::check::{CheckInfo, gives_check};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

fn position(fen: &str, mode: CastlingMode) -> Chess {
    fen.parse::<Fen>()
        .expect("fen")
        .into_position(mode)
        .expect("legal")
}

fn played_checks(chess: &Chess, m: Move) -> bool {
    let mut after = chess.clone();
    after.play_unchecked(m);
    after.is_check()
}

fn uci(chess: &Chess, text: &str) -> Move {
    text.parse::<UciMove>()
        .expect("uci")
        .to_move(chess)
        .expect("legal move")
}

#[test]
fn special_moves_that_check() {
    let cases = [
        // Castling puts the rook on the king's file: short and long.
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", true),
        ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", true),
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", false),
        // En passant empties two squares of the fifth rank: a discovered check.
        ("8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1", "e5d6", true),
        ("8/8/8/R2pP3/7k/8/8/4K3 w - d6 0 1", "e5d6", false),
        // Promotions: a queen checks along the rank, a knight from its own square.
        ("8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e7e8q", false),
        ("7k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", true),
        ("8/4P3/3k4/8/8/8/8/4K3 w - - 0 1", "e7e8n", true),
        ("8/4P3/3k4/8/8/8/8/4K3 w - - 0 1", "e7e8q", false),
        // A capture by the piece that blocked a bishop's diagonal: discovered check.
        ("7k/8/2p5/8/3N4/8/1B6/4K3 w - - 0 1", "d4c6", true),
        // A king move that uncovers its own rook's line to the other king.
        ("4k3/8/8/8/8/8/4K3/4R3 w - - 0 1", "e2d3", true),
    ];
    for (fen, text, expected) in cases {
        let chess = position(fen, CastlingMode::Standard);
        let m = uci(&chess, text);
        assert_eq!(
            played_checks(&chess, m),
            expected,
            "{fen} {text}: the test's premise"
        );
        assert_eq!(gives_check(&chess, m), expected, "{fen} {text}");
        assert_eq!(
            CheckInfo::new(&chess).gives_check(&chess, m),
            expected,
            "CheckInfo: {fen} {text}"
        );
    }
}

#[test]
fn agrees_with_playing_the_move_on_random_games() {
    let starts = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            CastlingMode::Standard,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            CastlingMode::Standard,
        ),
        (
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            CastlingMode::Standard,
        ),
        (
            "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
            CastlingMode::Chess960,
        ),
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            CastlingMode::Chess960,
        ),
        ("8/PPP4k/8/8/8/8/4Kppp/8 w - - 0 1", CastlingMode::Standard),
    ];
    let mut rng = StdRng::seed_from_u64(7);
    let (mut moves_checked, mut checks) = (0u64, 0u64);
    let (mut castles, mut en_passant, mut promotions) = (0u64, 0u64, 0u64);
    for game in 0..600 {
        let (fen, mode) = starts[game % starts.len()];
        let mut chess = position(fen, mode);
        for _ in 0..120 {
            let moves = chess.legal_moves();
            if moves.is_empty() {
                break;
            }
            let info = CheckInfo::new(&chess);
            for &m in &moves {
                let expected = played_checks(&chess, m);
                assert_eq!(
                    gives_check(&chess, m),
                    expected,
                    "{m:?} in {}",
                    Fen::from_position(&chess, shakmaty::EnPassantMode::Legal)
                );
                assert_eq!(
                    info.gives_check(&chess, m),
                    expected,
                    "CheckInfo: {m:?} in {}",
                    Fen::from_position(&chess, shakmaty::EnPassantMode::Legal)
                );
                moves_checked += 1;
                checks += u64::from(expected);
                castles += u64::from(m.is_castle());
                en_passant += u64::from(m.is_en_passant());
                promotions += u64::from(m.is_promotion());
            }
            // Favour checks and special moves so that they come often.
            let special: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    m.is_castle()
                        || m.is_en_passant()
                        || m.is_promotion()
                        || played_checks(&chess, m)
                })
                .collect();
            let m = if !special.is_empty() && rng.random_bool(0.3) {
                special[rng.random_range(0..special.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            chess.play_unchecked(m);
        }
    }
    println!(
        "{moves_checked} moves, {checks} checks, {castles} castles, {en_passant} en passant, {promotions} promotions"
    );
    assert!(moves_checked > 1_000_000, "{moves_checked} moves");
    assert!(checks > 20_000, "{checks} checks");
    assert!(
        castles > 1_000 && en_passant > 150 && promotions > 10_000,
        "castles {castles}, en passant {en_passant}, promotions {promotions}"
    );
}

/// `Position::gives_check` keeps the check squares of the last position it was asked
/// about: the answers stay right as moves, null moves and take-backs change the position.
#[test]
fn position_answers_stay_right_across_moves_null_moves_and_undo() {
    let mut rng = StdRng::seed_from_u64(11);
    let mut asked = 0u64;
    for game in 0..100 {
        let mut pos = horizon_chess::Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .expect("kiwipete");
        for ply in 0..100 {
            let moves = pos.chess().legal_moves();
            if moves.is_empty() {
                break;
            }
            // Ask about a few moves, step back and forth, then ask again.
            for &m in moves.iter().take(8) {
                assert_eq!(pos.gives_check(m), played_checks(pos.chess(), m), "{m:?}");
                asked += 1;
            }
            let m = moves[rng.random_range(0..moves.len())];
            pos.play(m);
            if (game + ply) % 7 == 0 {
                pos.undo();
                for &m in &moves {
                    assert_eq!(pos.gives_check(m), played_checks(pos.chess(), m), "{m:?}");
                    asked += 1;
                }
                pos.play(m);
            }
            if !pos.in_check() && rng.random_bool(0.1) {
                pos.play_null();
            }
        }
    }
    assert!(asked > 50_000, "{asked} moves asked about");
}
