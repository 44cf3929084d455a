//! The 16-bit move encoding, its legality check, SEE and MVV-LVA.

use horizon_chess::see::{mvv_lva, see};
use horizon_chess::{PackedMove, Position};

const POSITIONS: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
];

#[test]
fn every_legal_move_round_trips_through_16_bits() {
    let mut checked = 0;
    for fen in POSITIONS {
        let mut pos = Position::from_fen(fen).expect("valid");
        for m in pos.moves() {
            assert_eq!(
                PackedMove::new(m).to_legal_move(&pos),
                Some(m),
                "{m:?} in {fen}"
            );
            pos.play(m);
            for reply in pos.moves() {
                assert_eq!(PackedMove::new(reply).to_legal_move(&pos), Some(reply));
                checked += 1;
            }
            pos.undo();
        }
    }
    assert!(checked > 4000, "checked {checked}");
}

#[test]
fn no_16_bit_value_decodes_to_an_illegal_move() {
    for fen in POSITIONS {
        let pos = Position::from_fen(fen).expect("valid");
        let legal = pos.moves();
        let mut decoded = 0;
        for bits in 0..=u16::MAX {
            if let Some(m) = PackedMove(bits).to_legal_move(&pos) {
                assert!(
                    legal.contains(&m),
                    "{bits:#06x} decoded to illegal {m:?} in {fen}"
                );
                decoded += 1;
            }
        }
        assert_eq!(
            decoded,
            legal.len(),
            "each legal move has exactly one encoding"
        );
    }
}

fn see_of(fen: &str, uci: &str) -> i32 {
    let pos = Position::from_fen(fen).expect("valid");
    let m = pos.parse_uci(uci).expect("legal");
    see(&pos, m)
}

#[test]
fn see_values_of_classic_exchanges() {
    // Undefended pawn.
    assert_eq!(
        see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
        100
    );
    // Knight takes a pawn defended many times over: loses the knight for a pawn.
    assert_eq!(
        see_of(
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            "d3e5"
        ),
        100 - 320
    );
    // X-ray: the second rook behind the first wins the exchange back, so Rxd5 wins a pawn.
    assert_eq!(see_of("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);
    // Without the second rook the same capture loses the exchange.
    assert_eq!(
        see_of("3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5"),
        100 - 500
    );
    // Pawn takes a defended knight.
    assert_eq!(
        see_of("4k3/8/4p3/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"),
        320 - 100
    );
    // The king may not recapture on a defended square (Rd1 x-rays through d4)...
    assert_eq!(see_of("8/8/4k3/3r4/3Q4/8/8/3RK3 w - - 0 1", "d4d5"), 500);
    // ...but takes back on an undefended one.
    assert_eq!(
        see_of("8/8/4k3/3r4/3Q4/8/8/4K3 w - - 0 1", "d4d5"),
        500 - 950
    );
    // A quiet move to an attacked square loses the piece.
    assert_eq!(see_of("4k3/8/4p3/8/8/2N5/8/4K3 w - - 0 1", "c3d5"), -320);
}

#[test]
fn mvv_lva_prefers_big_victims_then_small_attackers() {
    let pos = Position::from_fen("4k3/8/2q1r3/1P1Q4/8/8/8/K7 w - - 0 1").expect("valid");
    let pxq = pos.parse_uci("b5c6").expect("legal");
    let qxq = pos.parse_uci("d5c6").expect("legal");
    let qxr = pos.parse_uci("d5e6").expect("legal");
    let quiet = pos.parse_uci("a1a2").expect("legal");
    assert!(mvv_lva(pxq) > mvv_lva(qxq));
    assert!(mvv_lva(qxq) > mvv_lva(qxr));
    assert!(mvv_lva(qxr) > mvv_lva(quiet));
    assert_eq!(mvv_lva(quiet), 0);
}

#[test]
fn see_ge_agrees_with_see() {
    for fen in POSITIONS {
        let mut pos = Position::from_fen(fen).expect("valid");
        for m in pos.moves() {
            for threshold in [-500, -100, 0, 1, 100, 300] {
                assert_eq!(
                    horizon_chess::see::see_ge(&pos, m, threshold),
                    see(&pos, m) >= threshold,
                    "{m:?} {threshold} in {fen}"
                );
            }
            pos.play(m);
            for reply in pos.moves() {
                assert_eq!(
                    horizon_chess::see::see_ge(&pos, reply, 0),
                    see(&pos, reply) >= 0
                );
            }
            pos.undo();
        }
    }
}

/// The SEE of the first version, which found each side's attackers afresh at every capture:
/// the incremental one must agree with it everywhere.
fn reference_see(pos: &Position, m: shakmaty::Move) -> i32 {
    use horizon_chess::see::see_value;
    use shakmaty::{Bitboard, Move, Position as _, Role, Square};
    let victim = |m: Move| match m {
        Move::Normal {
            capture: Some(role),
            to,
            ..
        } => Some((to, role)),
        Move::EnPassant { from, to } => {
            Some((Square::from_coords(to.file(), from.rank()), Role::Pawn))
        }
        _ => None,
    };
    let chess = pos.chess();
    let board = chess.board();
    let (from, to) = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        _ => return 0,
    };
    let mut occupied = board.occupied() ^ Bitboard::from_square(from);
    let mut gain = [0i32; 34];
    gain[0] = victim(m).map_or(0, |(_, role)| see_value(role));
    if let Some((sq, _)) = victim(m).filter(|_| m.is_en_passant()) {
        occupied ^= Bitboard::from_square(sq);
    }
    let mut on_square = see_value(m.role());
    if let Some(promoted) = m.promotion() {
        gain[0] += see_value(promoted) - see_value(Role::Pawn);
        on_square = see_value(promoted);
    }
    let mut side = !chess.turn();
    let mut depth = 0;
    loop {
        depth += 1;
        gain[depth] = on_square - gain[depth - 1];
        if depth + 1 >= gain.len() {
            break;
        }
        let attackers = board.attacks_to(to, side, occupied) & occupied;
        let Some((sq, role)) = Role::ALL
            .iter()
            .find_map(|&r| (attackers & board.by_role(r)).first().map(|sq| (sq, r)))
        else {
            break;
        };
        if role == Role::King && (board.attacks_to(to, !side, occupied) & occupied).any() {
            break;
        }
        occupied ^= Bitboard::from_square(sq);
        on_square = see_value(role);
        side = !side;
    }
    while depth > 1 {
        depth -= 1;
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
    }
    gain[0]
}

#[test]
fn incremental_see_agrees_with_the_reference_everywhere() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let mut rng = StdRng::seed_from_u64(7);
    let mut checked = 0u64;
    for fen in POSITIONS {
        for _game in 0..40 {
            let mut pos = Position::from_fen(fen).expect("valid");
            for _ply in 0..60 {
                let moves = pos.moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    assert_eq!(
                        see(&pos, m),
                        reference_see(&pos, m),
                        "{m:?} in {}",
                        pos.fen()
                    );
                    checked += 1;
                }
                let m = moves[rng.random_range(0..moves.len())];
                pos.play(m);
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

/// The early-exit `see_ge` against the full `see` on random games that favour captures,
/// at thresholds around every value the exchange can take (ties included).
#[test]
fn see_ge_agrees_with_see_on_random_games() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let mut rng = StdRng::seed_from_u64(23);
    let fixed = [
        -1000, -500, -330, -320, -100, -1, 0, 1, 99, 100, 101, 220, 230, 320, 330, 500, 950,
    ];
    let (mut checks, mut losing, mut winning) = (0u64, 0u64, 0u64);
    for _ in 0..150 {
        let mut pos = Position::startpos();
        for _ in 0..100 {
            let moves = pos.moves();
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                let value = see(&pos, m);
                losing += u64::from(value < 0);
                winning += u64::from(value > 0);
                for threshold in fixed.into_iter().chain([value - 1, value, value + 1]) {
                    assert_eq!(
                        horizon_chess::see::see_ge(&pos, m, threshold),
                        value >= threshold,
                        "{m:?} threshold {threshold} see {value} in {}",
                        pos.fen()
                    );
                    checks += 1;
                }
            }
            let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).copied().collect();
            let m = if !captures.is_empty() && rng.random_bool(0.6) {
                captures[rng.random_range(0..captures.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            pos.play(m);
        }
    }
    assert!(checks > 1_000_000, "{checks} comparisons");
    assert!(
        losing > 10_000 && winning > 5_000,
        "{losing} losing, {winning} winning"
    );
}

/// `legal::is_legal` (the table move's test) against shakmaty's `is_legal` on random games
/// from starts rich in pins, checks, promotions, castling and en passant: every plain move of
/// every piece of the side to move to every square, with the right role and capture and with
/// wrong ones, and every promotion piece.
#[test]
fn fast_legality_agrees_with_shakmaty_on_random_games() {
    use horizon_chess::legal::is_legal;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Move, Position as _, Role, Square};

    let starts = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            CastlingMode::Standard,
        ),
        (POSITIONS[0], CastlingMode::Standard),
        (POSITIONS[1], CastlingMode::Standard),
        (POSITIONS[2], CastlingMode::Standard),
        (
            "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
            CastlingMode::Chess960,
        ),
        ("8/PPP4k/8/8/8/8/4Kppp/8 w - - 0 1", CastlingMode::Standard),
    ];
    let roles = Role::ALL;
    // Every role as a promotion piece: the king and the pawn must be refused.
    let promotions: Vec<Option<Role>> = std::iter::once(None).chain(roles.map(Some)).collect();
    let mut rng = StdRng::seed_from_u64(23);
    let (mut asked, mut legal, mut in_check) = (0u64, 0u64, 0u64);
    for game in 0..80 {
        let (fen, mode) = starts[game % starts.len()];
        let mut chess: Chess = fen
            .parse::<Fen>()
            .expect("fen")
            .into_position(mode)
            .expect("legal");
        for _ in 0..80 {
            in_check += u64::from(chess.is_check());
            let board = chess.board();
            for from in chess.us() {
                let role = board.role_at(from).expect("our piece");
                for to in Square::ALL {
                    let right = board.role_at(to);
                    let wrong_role = roles[rng.random_range(0..roles.len())];
                    let wrong_capture = [None, Some(roles[rng.random_range(0..roles.len())])]
                        [rng.random_range(0..2)];
                    let mut candidates =
                        vec![(role, right), (wrong_role, right), (role, wrong_capture)];
                    candidates.dedup();
                    for (role, capture) in candidates {
                        for &promotion in &promotions {
                            if promotion.is_some()
                                && role != Role::Pawn
                                && rng.random_range(0..8) != 0
                            {
                                continue; // a few suffice for the pieces that never promote
                            }
                            let m = Move::Normal {
                                role,
                                from,
                                capture,
                                to,
                                promotion,
                            };
                            let expected = chess.is_legal(m);
                            assert_eq!(
                                is_legal(&chess, m),
                                expected,
                                "{m:?} in {}",
                                Fen::from_position(&chess, shakmaty::EnPassantMode::Legal)
                            );
                            asked += 1;
                            legal += u64::from(expected);
                        }
                    }
                }
            }
            let moves = chess.legal_moves();
            for &m in &moves {
                assert!(is_legal(&chess, m), "{m:?} is legal");
            }
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            chess.play_unchecked(m);
        }
    }
    assert!(
        asked > 10_000_000 && legal > 100_000 && in_check > 200,
        "asked {asked}, legal {legal}, in check {in_check}"
    );
}
