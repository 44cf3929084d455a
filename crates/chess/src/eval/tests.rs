//! Tests of the evaluation: symmetry, the trace agreeing with the search's score, the pawn
//! hash agreeing with the uncached terms, and the endgame rules.

use shakmaty::{CastlingMode, EnPassantMode, FromSetup, Position as _, PositionError};

use super::*;
use crate::{Position, START_FEN};
use horizon_search::{EvalKnowledge, EvalKnowledgeCounts};

fn chess(fen: &str) -> Chess {
    Position::from_fen(fen)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .chess()
        .clone()
}

fn mirrored(pos: &Chess) -> Chess {
    let setup = pos.to_setup(EnPassantMode::Legal).into_mirrored();
    Chess::from_setup(setup, CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .expect("mirror is legal")
}

const FENS: &[&str] = &[
    START_FEN,
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 b - - 6 5",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/4k3/8/2p5/8/B2P2K1/8 b - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "4k3/8/8/8/8/8/8/4KQ2 b - - 0 1",
    "QQQQkQQQ/8/8/8/8/8/8/4K3 b - - 0 1",
    "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - b3 0 23",
    "8/PPP4k/8/8/8/8/4Kppp/8 w - - 0 1",
    "8/8/8/4k3/8/8/2NBK3/8 w - - 0 1",
    "8/5k2/8/2b5/8/3B4/2P2K2/8 w - - 0 1",
    "7k/8/6K1/P7/8/8/8/2B5 w - - 0 1",
];

/// Positions along random games from the FENS (for the cache and trace checks).
fn walk() -> Vec<Chess> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut out = Vec::new();
    for fen in FENS {
        let mut pos = chess(fen);
        for _ in 0..60 {
            out.push(pos.clone());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            pos.play_unchecked(m);
        }
    }
    out
}

#[test]
fn start_position_is_tempo_only() {
    let start = Chess::default();
    let b = breakdown(&start);
    assert_eq!(b.phase, MAX_PHASE);
    let (tm, _) = weights::WEIGHTS[layout::TEMPO];
    assert_eq!(evaluate(&start), i32::from(tm));
    for (term, [w, bl]) in &b.terms {
        if *term != layout::Term::Tempo {
            assert_eq!(w, bl, "{term:?}");
        }
    }
}

#[test]
fn colour_mirror_symmetry() {
    for pos in walk() {
        let mirror = mirrored(&pos);
        assert_eq!(evaluate(&pos), evaluate(&mirror), "{}", fen(&pos));
    }
}

fn fen(pos: &Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

#[test]
fn breakdown_and_pawn_hash_match_evaluate() {
    let mut table = PawnTable::default();
    let positions = walk();
    for pos in &positions {
        let plain = evaluate(pos);
        assert_eq!(breakdown(pos).score, plain, "{}", fen(pos));
        assert_eq!(evaluate_with(pos, &mut table), plain, "{}", fen(pos));
    }
    // Again, now mostly from the cache.
    for pos in &positions {
        assert_eq!(
            evaluate_with(pos, &mut table),
            evaluate(pos),
            "{}",
            fen(pos)
        );
    }
    let (hits, probes) = table.counters();
    assert!(hits > probes / 2, "{hits} of {probes}");
}

#[test]
fn features_reproduce_the_score() {
    let weights = trace::current_weights();
    let mut linear = 0;
    for pos in walk() {
        let score = evaluate(&pos);
        let white = if pos.turn() == Color::White {
            score
        } else {
            -score
        };
        match features(&pos) {
            Some(f) => {
                linear += 1;
                let model = f.white_eval(&weights);
                // Integer division in the search's taper rounds towards 0 twice.
                assert!(
                    (model - f64::from(white)).abs() <= 2.0,
                    "{}: {model} vs {white}",
                    fen(&pos)
                );
            }
            None => assert!(breakdown(&pos).direct.is_some()),
        }
    }
    assert!(linear > 500);
}

#[test]
fn rendered_source_round_trips() {
    let src = trace::render_weights_source(&trace::current_weights(), &["test".into()]);
    let file = include_str!("weights.rs");
    let values = |s: &str| -> Vec<i32> {
        s.split("WEIGHTS")
            .nth(1)
            .unwrap_or("")
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .flat_map(|l| l.split(|c: char| !(c.is_ascii_digit() || c == '-')))
            .filter_map(|t| t.parse().ok())
            .collect()
    };
    assert_eq!(values(&src), values(file));
}

#[test]
fn insufficient_material_is_zero() {
    for fen in [
        "4k3/8/8/8/8/8/8/3NK3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1",
    ] {
        assert_eq!(evaluate(&chess(fen)), 0, "{fen}");
    }
    assert_ne!(evaluate(&chess("4k3/4p3/8/8/8/8/8/3NK3 w - - 0 1")), 0);
}

#[test]
fn extra_material_dominates() {
    for (board, min) in [
        ("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", 700),
        ("rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", 350),
        ("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", 200),
    ] {
        let white = evaluate(&chess(&format!("{board} w KQ - 0 1")));
        let black = evaluate(&chess(&format!("{board} b KQ - 0 1")));
        assert!(white > min, "{board}: {white}");
        assert!(black < -min, "{board}: {black}");
    }
}

#[test]
fn passed_pawns_count_more_when_advanced() {
    let seventh = evaluate(&chess("8/3P4/8/8/8/8/8/k2K4 w - - 0 1"));
    let second = evaluate(&chess("8/8/8/8/8/8/3P4/k2K4 w - - 0 1"));
    assert!(seventh > second + 50, "{seventh} vs {second}");
    // A passed pawn beats a blocked one of the same rank.
    let passed = evaluate(&chess("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1"));
    let blocked = evaluate(&chess("4k3/3p4/8/3P4/8/8/8/4K3 w - - 0 1"));
    assert!(passed > blocked + 50, "{passed} vs {blocked}");
}

#[test]
fn kbn_drives_to_the_bishops_corner() {
    // Bishop on c1 (dark): the mating corners are a1 and h8.
    let near_right = evaluate(&chess("7k/8/5K2/8/8/8/8/2B3N1 w - - 0 1"));
    let near_wrong = evaluate(&chess("k7/8/2K5/8/8/8/8/2B3N1 w - - 0 1"));
    assert!(near_right > 800 && near_wrong > 800);
    assert!(
        near_right > near_wrong + 100,
        "{near_right} vs {near_wrong}"
    );
}

#[test]
fn drawish_endings_are_scaled() {
    // Opposite-coloured bishops with a pawn up: far below a pawn-up same-coloured ending.
    let ocb = breakdown(&chess("8/4kb2/8/3P4/2P5/4B3/5K2/8 w - - 0 1"));
    assert!(ocb.scale < SCALE_NORMAL);
    let same = breakdown(&chess("8/4k3/8/3P2b1/2P5/4B3/5K2/8 w - - 0 1"));
    assert_eq!(same.scale, SCALE_NORMAL);
    assert!(ocb.score < same.score, "{} vs {}", ocb.score, same.score);
    // Wrong bishop and rook pawn with the king in the corner: a draw.
    // (h8 is dark: the light-squared bishop on d1 is the wrong one.)
    let wrong = evaluate(&chess("7k/8/6K1/7P/8/8/8/3B4 w - - 0 1"));
    assert!(wrong.abs() < 30, "{wrong}");
    // The right bishop wins.
    let right = evaluate(&chess("7k/8/6K1/7P/8/8/8/2B5 w - - 0 1"));
    assert!(right > 200, "{right}");
    // Rook against bishop, no pawns: small.
    let rb = evaluate(&chess("8/8/3bk3/8/8/3RK3/8/8 w - - 0 1"));
    assert!(rb.abs() < 60, "{rb}");
    // A lone minor piece against pawns cannot win: the pawns side is not worse off.
    let minor = evaluate(&chess("8/8/4k3/8/8/2B1K3/8/8 w - - 0 1"));
    assert_eq!(minor, 0);
}

#[test]
fn mop_up_drives_the_defending_king_to_the_edge() {
    // Rook against bishop, White to move in both: the same material, the black king in
    // the centre or on the edge next to the white king.
    let centre = chess("8/8/3bk3/8/8/3RK3/8/8 w - - 0 1");
    let edge = chess("4k3/1b6/4K3/8/8/3R4/8/8 w - - 0 1");
    let mut table = PawnTable::default();
    let value = |pos: &Chess, table: &mut PawnTable, on: bool| {
        let knowledge = EvalKnowledge {
            mop_up: on,
            ..EvalKnowledge::default()
        };
        evaluate_with_psqt(
            pos,
            table,
            psqt::from_scratch(pos),
            (knowledge, &mut EvalKnowledgeCounts::default()),
        )
    };
    // Off, the evaluation is the tuned one.
    assert_eq!(value(&centre, &mut table, false), evaluate(&centre));
    let gradient =
        |pos: &Chess, table: &mut PawnTable| value(pos, table, true) - value(pos, table, false);
    // Black king on e6: one step from the centre squares, three from the white king.
    assert_eq!(gradient(&centre, &mut table), 10 + 4 * (7 - 3));
    // On e8: three steps from the centre, two from the white king.
    assert_eq!(gradient(&edge, &mut table), 10 * 3 + 4 * (7 - 2));
    // The gradient is the stronger side's, whoever moves; the colour mirror (the weak
    // side to move again) scores the same.
    let black_to_move = chess("4k3/1b6/4K3/8/8/3R4/8/8 b - - 0 1");
    assert_eq!(
        gradient(&black_to_move, &mut table),
        -(10 * 3 + 4 * (7 - 2))
    );
    assert_eq!(
        gradient(&mirrored(&black_to_move), &mut table),
        -(10 * 3 + 4 * (7 - 2))
    );
    // A position's cached evaluation follows the switch both ways.
    let mut position = Position::from_fen("4k3/1b6/4K3/8/8/3R4/8/8 w - - 0 1").expect("fen");
    assert_eq!(position.evaluate(), evaluate(&edge));
    let mop_up = EvalKnowledge {
        mop_up: true,
        ..EvalKnowledge::default()
    };
    position.set_eval_knowledge(mop_up);
    assert_eq!(position.evaluate(), value(&edge, &mut table, true));
    let mopped_once = EvalKnowledgeCounts {
        mop_up: 1,
        ..EvalKnowledgeCounts::default()
    };
    assert_eq!(position.eval_knowledge_counts(), mopped_once);
    position.set_eval_knowledge(EvalKnowledge::default());
    assert_eq!(position.evaluate(), evaluate(&edge));
    assert_eq!(position.eval_knowledge_counts(), mopped_once);
    // The breakdown shows it and agrees.
    let b = breakdown_with(&edge, mop_up);
    assert_eq!(b.mop_up, 10 * 3 + 4 * (7 - 2));
    assert_eq!(b.score, value(&edge, &mut table, true));
    // No gradient with a pawn on the board, with equal material or below a rook.
    for fen in [
        "4k3/1b6/4K3/8/8/3R4/7P/8 w - - 0 1",
        "4k3/1r6/4K3/8/8/3R4/8/8 w - - 0 1",
        "4k3/1n6/4K3/8/8/3B4/8/8 w - - 0 1",
        // Two knights cannot force mate: scaled to 0, and no gradient either.
        "4k3/8/4K3/8/8/3NN3/8/8 w - - 0 1",
    ] {
        assert_eq!(gradient(&chess(fen), &mut table), 0, "{fen}");
    }
}

#[test]
fn king_safety_prefers_the_shelter() {
    let castled = evaluate(&chess(
        "r1bq1rk1/pppp1ppp/2n5/2b5/2B5/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1",
    ));
    let exposed = evaluate(&chess(
        "r1bq1rk1/pppp1ppp/2n5/2b5/2B1K3/2N2N2/PPPP1PPP/R1BQ1R2 w - - 0 1",
    ));
    assert!(castled > exposed + 50, "{castled} vs {exposed}");
    let shelter = evaluate(&chess("6k1/5ppp/8/8/8/8/5PPP/q5K1 w - - 0 1"));
    let bare = evaluate(&chess("6k1/5ppp/8/8/8/5PPP/8/q5K1 w - - 0 1"));
    assert!(shelter != bare);
}

#[test]
fn hanging_piece_is_a_threat() {
    // Black's knight on e5 attacked by a pawn.
    let b = breakdown(&chess("4k3/8/8/4n3/3P4/8/8/4K3 b - - 0 1"));
    let threats = b
        .terms
        .iter()
        .find(|(t, _)| *t == layout::Term::Threats)
        .map(|x| x.1);
    assert!(threats.is_some_and(|[w, _]| w.0 > 0));
}

/// `cargo test -p horizon-chess --release eval::tests::bench -- --ignored --nocapture`
#[test]
#[ignore]
fn bench_evaluate() {
    use std::hint::black_box;
    use std::time::Instant;
    let positions = walk();
    let mut table = PawnTable::default();
    let n = 2_000_000usize;
    let mut acc = 0i64;
    let start = Instant::now();
    for i in 0..n {
        acc += i64::from(evaluate_with(
            black_box(&positions[i % positions.len()]),
            &mut table,
        ));
    }
    let elapsed = start.elapsed();
    black_box(acc);
    println!(
        "evaluate: {:.1} ns/call over {n} calls, pawn hash {:?}",
        elapsed.as_nanos() as f64 / n as f64,
        table
    );
    println!("{}", breakdown(&chess(FENS[3])));
}

#[test]
fn kpk_bitbase_scores_exactly_when_asked() {
    let kpk = EvalKnowledge {
        kpk_bitbase: true,
        ..EvalKnowledge::default()
    };
    let with = |fen: &str| {
        let mut position = Position::from_fen(fen).expect("fen");
        position.set_eval_knowledge(kpk);
        let score = position.evaluate();
        assert_eq!(
            position.eval_knowledge_counts(),
            EvalKnowledgeCounts {
                kpk: 1,
                ..EvalKnowledgeCounts::default()
            },
            "{fen}"
        );
        assert_eq!(breakdown_with(position.chess(), kpk).score, score, "{fen}");
        score
    };
    // Won: the king in front of its pawn on the sixth, either side to move; the score is
    // the pawn's side's and grows with the pawn's rank.
    let won = with("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1");
    assert_eq!(won, 500 + 20 * 4);
    assert_eq!(with("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1"), -won);
    // The colour mirror: Black's pawn, the same verdict for the side to move.
    assert_eq!(with("8/8/8/8/4p3/4k3/8/4K3 b - - 0 1"), won);
    // Drawn: the rook pawn with the defender in the corner; the classic evaluation calls
    // it a clear edge.
    let fen = "7k/8/7K/7P/8/8/8/8 w - - 0 1";
    assert_eq!(with(fen), 0);
    assert!(evaluate(&chess(fen)) > 100, "{}", evaluate(&chess(fen)));
    // Other material is not the bitbase's.
    let mut position = Position::from_fen("4k3/8/4K3/4P3/8/8/3P4/8 w - - 0 1").expect("fen");
    position.set_eval_knowledge(kpk);
    position.evaluate();
    assert_eq!(
        position.eval_knowledge_counts(),
        EvalKnowledgeCounts::default()
    );
}

#[test]
fn bare_king_mate_scores_the_mating_side_with_its_gradient() {
    let white = |fen: &str| endgame::bare_king_mate(&chess(fen));
    // King and rook, Black's king on d5 (no step from the centre), kings 4 apart:
    // 1,000 + 50 · 2 men + 20 · 0 + 10 · (7 − 4).
    assert_eq!(
        white("8/8/8/3k4/8/8/8/R3K3 w - - 0 1"),
        Some(1_000 + 100 + 30)
    );
    // On a8 (three steps from the centre on each axis), kings 2 apart.
    assert_eq!(
        white("k7/8/1K6/8/8/8/8/R7 b - - 0 1"),
        Some(1_000 + 100 + 120 + 50)
    );
    // Black mating: the colour flips the sign.
    assert_eq!(
        white("r7/8/8/8/8/1k6/8/K7 w - - 0 1"),
        Some(-(1_000 + 100 + 120 + 50))
    );
    // Bishop (dark, c1) and knight: a1 is a corner of the bishop's colour, a8 is not.
    let right = white("8/8/8/8/8/2K5/8/k1B3N1 b - - 0 1").expect("mating material");
    let wrong = white("k7/8/1K6/8/8/8/8/2B3N1 b - - 0 1").expect("mating material");
    assert!(right > wrong, "{right} against {wrong}");
    // Bishops on both colours (c1 dark, f1 light) force mate; on one colour (c1 and g1,
    // both dark) they do not, nor do two knights; a pawn on the board or a defender's
    // piece leaves the position to the evaluation.
    assert!(white("8/8/8/3k4/8/8/8/2B1KB2 w - - 0 1").is_some());
    for fen in [
        "8/8/8/3k4/8/8/8/2B1K1B1 w - - 0 1",
        "8/8/8/3k4/8/8/8/1N2K1N1 w - - 0 1",
        "8/8/8/3k4/8/8/4P3/R3K3 w - - 0 1",
        "8/8/8/3kn3/8/8/8/R3K3 w - - 0 1",
    ] {
        assert_eq!(white(fen), None, "{fen}");
    }
    // Both evaluations give it, from the side to move's view, and count it.
    let mut position = Position::from_fen("8/8/8/3k4/8/8/8/R3K3 b - - 0 1").expect("fen");
    let classic_off = position.evaluate();
    position.set_eval_knowledge(EvalKnowledge {
        bare_king_mate: true,
        ..EvalKnowledge::default()
    });
    assert_eq!(position.evaluate(), -(1_000 + 100 + 30));
    assert_ne!(classic_off, position.evaluate());
    assert_eq!(position.eval_knowledge_counts().bare_king, 2);
}
