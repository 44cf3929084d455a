//! Position rules: repetition, fifty moves, material, null move, parsing and notation.

use horizon_chess::shakmaty::{CastlingMode, Color, Position as _};
use horizon_chess::{MoveParseError, Position, PositionParseError};

fn play_all(pos: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        pos.play_uci(m).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn repetition_inside_the_search_path_is_a_draw_at_once() {
    let mut pos = Position::startpos();
    let root = pos.ply();
    play_all(&mut pos, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(pos.repetitions(), 1);
    assert!(pos.is_repetition(root), "twofold inside the search counts");
    assert!(
        !pos.is_repetition(pos.ply()),
        "before the root it takes a threefold"
    );
    let game_root = pos.ply();
    play_all(&mut pos, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(pos.repetitions(), 2);
    assert!(
        pos.is_repetition(game_root + 100),
        "threefold in the game history"
    );
}

#[test]
fn an_irreversible_move_ends_the_repetition_window() {
    let mut pos = Position::startpos();
    play_all(
        &mut pos,
        "g1f3 g8f6 f3g1 f6g8 e2e4 e7e5 g1f3 g8f6 f3g1 f6g8",
    );
    assert_eq!(
        pos.repetitions(),
        1,
        "only the position after e4 e5 repeats"
    );
}

#[test]
fn a_null_move_ends_the_repetition_window() {
    let mut pos = Position::startpos();
    play_all(&mut pos, "g1f3 g8f6 f3g1");
    pos.play_null();
    pos.play_null();
    play_all(&mut pos, "f6g8");
    assert_eq!(pos.repetitions(), 0);
}

#[test]
fn fifty_moves_and_insufficient_material() {
    let pos = Position::from_fen("8/8/4k3/8/8/3K4/3R4/8 w - - 100 80").expect("valid");
    assert!(pos.is_fifty_move_draw());
    let pos = Position::from_fen("8/8/4k3/8/8/3K4/3R4/8 w - - 99 80").expect("valid");
    assert!(!pos.is_fifty_move_draw());
    assert!(!pos.is_insufficient_material());
    let pos = Position::from_fen("8/8/4k3/8/8/3K4/3N4/8 w - - 0 1").expect("valid");
    assert!(pos.is_insufficient_material());
}

#[test]
fn null_move_flips_the_side_and_clears_en_passant() {
    let mut pos =
        Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3")
            .expect("valid");
    let key = pos.key();
    assert_eq!(
        pos.chess().legal_ep_square().map(|s| s.to_string()),
        Some("e3".into())
    );
    pos.play_null();
    assert_eq!(pos.turn(), Color::White);
    assert_eq!(
        pos.chess()
            .ep_square(horizon_chess::shakmaty::EnPassantMode::Always),
        None
    );
    assert_eq!(pos.key(), pos.key_from_scratch().0);
    pos.undo();
    assert_eq!(pos.key(), key);
    assert!(!pos.has_non_pawn_material(Color::White) || pos.turn() == Color::Black);
}

#[test]
fn typed_errors_for_bad_positions() {
    assert!(matches!(
        Position::from_fen(""),
        Err(PositionParseError::MissingFields { .. })
    ));
    assert!(matches!(
        Position::from_fen("not a fen at all"),
        Err(PositionParseError::Syntax { .. })
    ));
    assert!(matches!(
        Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1"),
        Err(PositionParseError::Illegal { .. })
    ));
    assert!(matches!(
        Position::from_epd("8/8/8/8 w"),
        Err(PositionParseError::MissingFields {
            expected: 4,
            found: 2
        })
    ));
    let pos = Position::from_epd("8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - bm Kb1; id \"fine70\";")
        .expect("EPD position fields parse");
    assert_eq!(pos.fen(), "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1");
}

#[test]
fn typed_errors_for_bad_moves() {
    let mut pos = Position::startpos();
    assert!(matches!(
        pos.parse_uci("e2e5"),
        Err(MoveParseError::Illegal { .. })
    ));
    assert!(matches!(
        pos.parse_uci("zz"),
        Err(MoveParseError::Syntax { .. })
    ));
    assert!(matches!(
        pos.parse_uci("0000"),
        Err(MoveParseError::Illegal { .. })
    ));
    assert!(matches!(
        pos.parse_san("Ke2"),
        Err(MoveParseError::Illegal { .. })
    ));
    play_all(&mut pos, "d2d4 a7a6 b1d2 a6a5");
    assert!(matches!(
        pos.parse_san("Nf3"),
        Err(MoveParseError::Ambiguous { .. })
    ));
    let fen = pos.fen();
    assert!(pos.play_uci("e1e3").is_err());
    assert_eq!(
        pos.fen(),
        fen,
        "a rejected move leaves the position as it was"
    );
}

#[test]
fn san_and_uci_round_trip() {
    let mut pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .expect("valid");
    for m in pos.moves() {
        assert_eq!(pos.parse_uci(&pos.uci(m)).expect("own UCI parses"), m);
        assert_eq!(pos.parse_san(&pos.san(m)).expect("own SAN parses"), m);
    }
    let castle = pos.parse_san("O-O").expect("castling legal");
    assert_eq!(pos.uci(castle), "e1g1");
    assert_eq!(
        pos.parse_uci("e1h1").expect("king takes rook accepted"),
        castle
    );
    pos.play(castle);
    assert_eq!(
        pos.fen(),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1"
    );
    // Stray check suffix is accepted.
    let pos = Position::startpos();
    assert!(pos.parse_san("Nf3+").is_ok());
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    // Shredder-FEN castling rights, as Cute Chess sends them.
    let fen = "rkr5/pppppppp/8/8/8/8/PPPPPPPP/RKR5 w CAca - 0 1";
    let pos = Position::from_fen_in(fen, CastlingMode::Chess960).expect("valid 960 FEN");
    let castle = pos.parse_uci("b1c1").expect("O-O is legal");
    assert!(castle.is_castle());
    assert_eq!(pos.uci(castle), "b1c1");
    assert_eq!(pos.san(castle), "O-O");
    // Detection picks Chess960 by itself when the rights need it.
    let detected = Position::from_fen(fen).expect("valid");
    assert_eq!(detected.castling_mode(), CastlingMode::Chess960);
    assert!(pos.chess().castles().has(
        Color::White,
        horizon_chess::shakmaty::CastlingSide::KingSide
    ));
}

#[test]
fn upcoming_repetition_is_seen_one_move_ahead() {
    let mut pos = Position::startpos();
    play_all(&mut pos, "g1f3 g8f6 f3g1");
    // Black's Ng8 would bring back the start position.
    assert!(pos.has_upcoming_repetition(0));
    assert!(
        !pos.has_upcoming_repetition(1),
        "only positions since the search root count"
    );
    play_all(&mut pos, "b8c6");
    assert!(
        !pos.has_upcoming_repetition(0),
        "no single move repeats a position now"
    );
    play_all(&mut pos, "g1f3");
    // ...Nb8 would bring back the position after 1.Nf3 Nf6.
    assert!(
        pos.has_upcoming_repetition(0),
        "Nb8 repeats the position after 1.Nf3 Nf6"
    );
}

/// A Chess960 position written in standard notation (a GUI's `UCI_Chess960` off) keeps its
/// castling rights through a null move: the side to move flips with the key, so the key
/// still names the position (the evaluation cache and the table rely on it).
#[test]
fn a_null_move_flips_a_chess960_position_in_standard_notation() {
    let mut pos =
        Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
            .expect("valid Chess960 FEN");
    pos.set_castling_mode(CastlingMode::Standard);
    let key = pos.key();
    pos.play_null();
    assert_eq!(pos.turn(), Color::Black);
    assert_eq!(pos.key(), pos.key_from_scratch().0);
    assert!(pos.chess().castles().has(
        Color::White,
        horizon_chess::shakmaty::CastlingSide::KingSide
    ));
    pos.undo();
    assert_eq!(pos.key(), key);
}

/// Walks `depth` plies and checks every move's predicted key (`Position::predicted_key`,
/// known before the move is made) against the key after it: equal unless the move castles,
/// takes en passant, changes castling rights or creates a legal en passant capture.
fn walk_predictions(pos: &mut Position, depth: u32, counts: &mut [u64; 2]) {
    if depth == 0 {
        return;
    }
    for m in pos.moves() {
        let predicted = pos.predicted_key(m);
        let rights = pos.chess().castles().castling_rights();
        pos.play(m);
        let exact = !m.is_castle()
            && !m.is_en_passant()
            && pos.chess().castles().castling_rights() == rights
            && pos.chess().legal_ep_square().is_none();
        assert_eq!(
            predicted == pos.key(),
            exact,
            "{m:?} predicted {predicted:#x}, key {:#x} in {}",
            pos.key(),
            pos.fen()
        );
        counts[usize::from(exact)] += 1;
        walk_predictions(pos, depth - 1, counts);
        pos.undo();
    }
}

#[test]
fn predicted_keys_are_exact_unless_castling_or_en_passant_change() {
    let mut counts = [0; 2];
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "r3k2r/8/8/8/3pPp2/8/8/R3K1R1 b Qkq e3 0 1",
        "8/PPP4k/8/8/8/8/4Kppp/8 w - - 0 1",
    ] {
        let mut pos = Position::from_fen(fen).expect("valid FEN");
        walk_predictions(&mut pos, 3, &mut counts);
    }
    let [inexact, exact] = counts;
    // Both kinds occur; even in these positions, rich in castling rights and en passant,
    // the prediction is right for over four moves in five.
    assert!(inexact > 100, "{counts:?}");
    assert!(exact > 4 * inexact, "{counts:?}");
}

/// The butterfly slots (`ButterflyHistory`) tell every non-promotion move of a side apart by
/// its from- and to-square, keep the two sides in different halves, and stay below
/// `BUTTERFLY_SIZE`; castling is the king's move onto its rook.
#[test]
fn butterfly_slots_are_side_from_and_to() {
    use horizon_search::Game;
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R";
    let mut halves = Vec::new();
    for (side, king) in [("w", 4), ("b", 60)] {
        let pos = Position::from_fen(&format!("{kiwipete} {side} KQkq - 0 1")).expect("valid");
        let mut seen = std::collections::HashSet::new();
        let mut half = std::collections::HashSet::new();
        for m in pos.moves().iter().filter(|m| !m.is_promotion()) {
            let slot = pos.butterfly_index(*m);
            assert!(slot < Position::BUTTERFLY_SIZE, "{m:?}: {slot}");
            half.insert(slot / 4096);
            let from = m.from().expect("no drops") as usize;
            assert_eq!(slot % 4096, from * 64 + m.to() as usize, "{m:?}");
            assert!(seen.insert(slot), "{m:?}: slot {slot} shared");
        }
        assert!(
            seen.len() > 40,
            "kiwipete has over 40 moves: {}",
            seen.len()
        );
        assert_eq!(half.len(), 1, "{side}: one half for the side to move");
        halves.extend(half);
        let castle = pos
            .moves()
            .into_iter()
            .find(|m| m.is_castle())
            .expect("castling is legal");
        assert_eq!(pos.butterfly_index(castle) % 4096 / 64, king);
    }
    assert_ne!(halves[0], halves[1], "the sides share slots");
}

#[test]
fn non_pawn_correction_keys_follow_each_sides_pieces_only() {
    use horizon_search::Game;
    let keys = |fen: &str| {
        Position::from_fen(fen)
            .expect("valid")
            .correction_keys_non_pawn()
    };
    let base = keys("4k3/pp1n4/8/8/8/8/PP2B3/4K3 w - - 0 1");
    // Pawns move or go: neither side's key changes.
    assert_eq!(base, keys("4k3/p2n4/1p6/8/8/P7/1P2B3/4K3 w - - 0 1"));
    // The side to move's piece moves: only the first key changes.
    let moved = keys("4k3/pp1n4/8/8/8/3B4/PP6/4K3 w - - 0 1");
    assert_ne!(moved[0], base[0]);
    assert_eq!(moved[1], base[1]);
    // The other side's king moves: only the second key changes.
    let king = keys("3k4/pp1n4/8/8/8/8/PP2B3/4K3 w - - 0 1");
    assert_eq!(king[0], base[0]);
    assert_ne!(king[1], base[1]);
    // A piece of another role on the same square is another key.
    assert_ne!(keys("4k3/pp1n4/8/8/8/8/PP2N3/4K3 w - - 0 1")[0], base[0]);
    // The keys are from the side to move's view: with Black to move they swap.
    let black = keys("4k3/pp1n4/8/8/8/8/PP2B3/4K3 b - - 0 1");
    assert_eq!(black, [base[1], base[0]]);
}
