//! The EPD reader on the quirks of suites found in the wild.

use horizon_chess::epd::{EpdError, EpdRecord, SkipReason, parse_suite, parse_suite_bytes};
use horizon_chess::{MoveParseError, PositionParseError};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const BK01: &str = "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - -";

fn record(line: &str) -> EpdRecord {
    EpdRecord::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

fn san(record: &EpdRecord, moves: &[shakmaty::Move]) -> Vec<String> {
    let pos = record.position();
    moves.iter().map(|&m| pos.san(m)).collect()
}

#[test]
fn nul_bytes_and_crlf() {
    let bytes = format!("{BK01} ; bm Qd1 + ; id BK.01\0\r\n{BK01} bm Qd1+; id \"x\"\0\r\n");
    let suite = parse_suite_bytes(bytes.as_bytes());
    assert!(suite.skipped.is_empty(), "{:?}", suite.skipped);
    assert_eq!(suite.records.len(), 2);
    assert_eq!(suite.records[0].id.as_deref(), Some("BK.01"));
    assert_eq!(suite.records[0].line, 1);
    assert_eq!(suite.records[1].line, 2);
    assert_eq!(
        san(&suite.records[0], &suite.records[0].best_moves),
        ["Qd1+"]
    );
}

#[test]
fn semicolon_before_the_first_operation_and_empty_operations() {
    for line in [
        format!("{BK01} ; bm Qd1+; id \"BK.01\";"),
        format!("{BK01};bm Qd1+;;id \"BK.01\""),
        format!("{BK01} ;; bm Qd1+ ; ; id BK.01 ;"),
    ] {
        let r = record(&line);
        assert_eq!(r.id.as_deref(), Some("BK.01"), "{line}");
        assert_eq!(r.best_moves.len(), 1, "{line}");
        assert_eq!(r.operations.len(), 2, "{line}");
    }
}

#[test]
fn move_counters_present_absent_or_as_operations() {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - -";
    let absent = record(&format!("{fen} bm e4;"));
    assert_eq!((absent.halfmove_clock, absent.fullmove_number), (0, 1));
    assert_eq!(absent.fen, format!("{fen} 0 1"));
    let present = record(&format!("{fen} 7 42 bm e4;"));
    assert_eq!((present.halfmove_clock, present.fullmove_number), (7, 42));
    let halfmove_only = record(&format!("{fen} 3 ; bm e4;"));
    assert_eq!(
        (halfmove_only.halfmove_clock, halfmove_only.fullmove_number),
        (3, 1)
    );
    let ops = record(&format!("{fen} bm e4; hmvc 12; fmvn 30;"));
    assert_eq!((ops.halfmove_clock, ops.fullmove_number), (12, 30));
    assert_eq!(ops.position().halfmoves(), 12);
    // The operations win over the numbers.
    let both = record(&format!("{fen} 1 2 hmvc 5; fmvn 6;"));
    assert_eq!((both.halfmove_clock, both.fullmove_number), (5, 6));
    assert!(matches!(
        EpdRecord::parse(&format!("{fen} hmvc x;")),
        Err(EpdError::Number { .. })
    ));
}

#[test]
fn san_with_stray_spaces_annotations_castling_zeros_and_uci() {
    let r = record(&format!("{BK01} bm Qd1 + ;"));
    assert_eq!(san(&r, &r.best_moves), ["Qd1+"]);
    let r = record("2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - ; bm Qxg7 + ;");
    assert_eq!(san(&r, &r.best_moves), ["Qxg7+"]);
    let r = record("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - bm 0-0 O-O-O! e1d1?; am a1a8;");
    assert_eq!(san(&r, &r.best_moves), ["O-O", "O-O-O", "Kd1"]);
    assert_eq!(san(&r, &r.avoid_moves), ["Rxa8+"]);
    let r = record("4k3/8/8/3pP3/8/8/8/4K3 w - d6 bm exd6 e.p.;");
    assert_eq!(san(&r, &r.best_moves), ["exd6"]);
}

#[test]
fn several_moves_in_bm_am_and_dm() {
    let r = record("8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - am Rd6; bm Rb6 Rg5+; id \"WAC.274\";");
    assert_eq!(san(&r, &r.best_moves), ["Rb6", "Rg5+"]);
    assert_eq!(san(&r, &r.avoid_moves), ["Rd6"]);
    let r =
        record("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#; dm 1;");
    assert_eq!(r.direct_mate, Some(1));
    let r = record("8/8/8/8/2k5/8/8/K7 w - - bm Kb1, Ka2; bm Kb2;");
    assert_eq!(r.best_moves.len(), 3, "bm operations and comma lists merge");
    assert_eq!(r.expected(), "bm Kb1 Ka2 Kb2");
}

#[test]
fn id_quoted_or_not_and_running_into_a_comment() {
    assert_eq!(
        record(&format!("{BK01} id \"BK 01\";")).id.as_deref(),
        Some("BK 01")
    );
    assert_eq!(
        record(&format!("{BK01} id BK.01")).id.as_deref(),
        Some("BK.01")
    );
    assert_eq!(
        record(&format!("{BK01} id\t\"ECM.1016\";")).id.as_deref(),
        Some("ECM.1016")
    );
    let r = record(&format!(
        "{BK01} ; bm Qd1; id LCTII.POS.09 c0 Boissel - Del Gobbo, corr. 1994\0"
    ));
    assert_eq!(r.id.as_deref(), Some("LCTII.POS.09"));
    assert_eq!(r.comment(0), Some("Boissel - Del Gobbo, corr. 1994"));
    assert_eq!(r.warnings.len(), 1);
    // Only the first id counts; later ones stay operations.
    let r = record(&format!("{BK01} id \"a\"; id \"b\";"));
    assert_eq!(r.id.as_deref(), Some("a"));
    assert_eq!(r.operations.len(), 2);
}

#[test]
fn comments_c0_to_c9_and_quoted_semicolons() {
    let r = record(&format!(
        "{BK01} c0 \"one; two\"; c9 \"say \\\"hi\\\"\"; bm Qd1+; c3 plain words;"
    ));
    assert_eq!(r.comment(0), Some("one; two"));
    assert_eq!(r.comment(9), Some("say \"hi\""));
    assert_eq!(r.comment(3), Some("plain words"));
    assert_eq!(r.best_moves.len(), 1);
    // An unterminated quote takes the rest of the line, with a warning.
    let r = record(&format!("{BK01} bm Qd1+; c0 \"never closed; id x"));
    assert_eq!(r.comment(0), Some("never closed; id x"));
    assert_eq!(r.warnings.len(), 1);
}

#[test]
fn free_text_after_the_last_operation_is_an_unknown_operation() {
    let r = record(
        "8/8/8/1B6/6p1/8/4KPpp/3N2kr w - - bm Kd3 Ke3; id \"ZPTS.08\"; CCC post by Tim Foden, id \"MES.831\"",
    );
    assert_eq!(r.id.as_deref(), Some("ZPTS.08"));
    let ccc = r.operation("CCC").expect("kept");
    assert_eq!(ccc.operands.last().map(String::as_str), Some("MES.831"));
}

#[test]
fn perft_lines_are_operations_d1_d2() {
    let r =
        record("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902");
    assert_eq!(r.perft_counts(), [(1, 20), (2, 400), (3, 8902)]);
    assert!(!r.has_solution());
}

#[test]
fn bad_lines_are_reported_with_their_number_and_the_run_goes_on() {
    let text = format!(
        "{BK01} bm Qd1+;\n\
         # a comment\n\
         \n\
         {BK01} bm Ke8;\n\
         {BK01} bm Zz9;\n\
         8/8/8 w - - bm e4;\n\
         {BK01} dm x;\n\
         {BK01} dm 0;\n\
         {BK01} bm ;\n\
         {BK01} \"quoted\";\n\
         {BK01} bm Bc1;\n\
         {BK01} id \"last\";\n"
    );
    let suite = parse_suite(&text);
    let ids: Vec<usize> = suite.records.iter().map(|r| r.line).collect();
    assert_eq!(ids, [1, 12]);
    let reasons: Vec<(usize, &SkipReason)> =
        suite.skipped.iter().map(|s| (s.line, &s.reason)).collect();
    assert_eq!(reasons.len(), 10);
    assert_eq!(suite.skip_counts(), (1, 1, 8));
    assert!(matches!(reasons[0], (2, SkipReason::Comment)));
    assert!(matches!(reasons[1], (3, SkipReason::Blank)));
    assert!(matches!(
        reasons[2],
        (
            4,
            SkipReason::Error(EpdError::Move {
                error: MoveParseError::Illegal { .. },
                ..
            })
        )
    ));
    assert!(matches!(
        reasons[3],
        (
            5,
            SkipReason::Error(EpdError::Move {
                error: MoveParseError::Syntax { .. },
                ..
            })
        )
    ));
    assert!(matches!(
        reasons[4],
        (
            6,
            SkipReason::Error(EpdError::Position(PositionParseError::Syntax { .. }))
        )
    ));
    assert!(matches!(
        reasons[5],
        (7, SkipReason::Error(EpdError::Number { .. }))
    ));
    assert!(matches!(
        reasons[6],
        (8, SkipReason::Error(EpdError::Number { .. }))
    ));
    assert!(matches!(
        reasons[7],
        (9, SkipReason::Error(EpdError::MissingOperand { .. }))
    ));
    assert!(matches!(
        reasons[8],
        (10, SkipReason::Error(EpdError::Syntax { .. }))
    ));
    assert!(matches!(
        reasons[9],
        (
            11,
            SkipReason::Error(EpdError::Move {
                error: MoveParseError::Illegal { .. },
                ..
            })
        )
    ));
    // Messages name the operation and the move.
    let message = suite.errors().nth(1).map(|s| s.reason.to_string());
    assert_eq!(message.as_deref(), Some("bm: 'Zz9' is not a move"));
    assert!(matches!(
        EpdRecord::parse("8/8/8/8 w"),
        Err(EpdError::Position(PositionParseError::MissingFields {
            found: 2,
            ..
        }))
    ));
}

#[test]
fn latin1_comments_and_byte_order_mark() {
    let mut bytes = b"\xef\xbb\xbf".to_vec();
    bytes.extend_from_slice(BK01.as_bytes());
    bytes.extend_from_slice(b" bm Qd1+; c0 \"Schr\xf6der\";\n");
    let suite = parse_suite_bytes(&bytes);
    assert_eq!(suite.records.len(), 1, "{:?}", suite.skipped);
    assert_eq!(suite.records[0].comment(0), Some("Schröder"));
}

#[test]
fn solving_rules_bm_am_dm() {
    let r = record("8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - am Rd6; bm Rb6 Rg5+;");
    let pos = r.position();
    let mv = |s: &str| pos.parse_san(s).expect("legal");
    assert_eq!(r.is_solved_by(&mv("Rb6"), None), Some(true));
    assert_eq!(r.is_solved_by(&mv("Rd6"), None), Some(false));
    assert_eq!(r.is_solved_by(&mv("Rc6"), None), Some(false));
    let am_only = record("8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - am Rd6;");
    assert_eq!(am_only.is_solved_by(&mv("Rc6"), None), Some(true));
    assert_eq!(am_only.is_solved_by(&mv("Rd6"), None), Some(false));
    let dm =
        record("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#; dm 1;");
    let pos = dm.position();
    let qxf7 = pos.parse_san("Qxf7#").expect("legal");
    let other = pos.parse_san("Nc3").expect("legal");
    assert_eq!(dm.is_solved_by(&qxf7, Some(1)), Some(true));
    assert_eq!(
        dm.is_solved_by(&qxf7, None),
        Some(false),
        "dm needs the mate announced"
    );
    assert_eq!(dm.is_solved_by(&qxf7, Some(2)), Some(false), "too slow");
    assert_eq!(
        dm.is_solved_by(&other, Some(1)),
        Some(false),
        "bm must hold too"
    );
    let unjudged = record(&format!("{BK01} id x;"));
    assert_eq!(unjudged.is_solved_by(&other, None), None);
}

#[test]
fn mangled_lines_never_panic() {
    let seeds = [
        format!("{BK01} ; bm Qd1 + ; id BK.01\0"),
        "8/8/8/1B6/6p1/8/4KPpp/3N2kr w - - bm Kd3 Ke3; id \"ZPTS.08\"; CCC post, id \"M\"".into(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400".into(),
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - bm 0-0; c0 \"a;\\\"b\"; hmvc 3; dm 2;".into(),
    ];
    let alphabet = b" ;\"\\\0\r\n\t/0123456789KQRBNPkqrbnpwabcdefgh-+#x=!?.";
    let mut rng = StdRng::seed_from_u64(0x5eed);
    let mut read = 0;
    for _ in 0..20_000 {
        let mut bytes = seeds[rng.random_range(0..seeds.len())].as_bytes().to_vec();
        for _ in 0..rng.random_range(1..6) {
            let i = rng.random_range(0..=bytes.len());
            match rng.random_range(0..4) {
                0 if i < bytes.len() => {
                    bytes.remove(i);
                }
                1 => bytes.insert(i, alphabet[rng.random_range(0..alphabet.len())]),
                2 => bytes.insert(i, rng.random()),
                _ => bytes.truncate(i),
            }
        }
        let suite = parse_suite_bytes(&bytes);
        read += suite.records.len();
        for record in &suite.records {
            let _ = record.expected();
            let _ = record.position().fen();
        }
    }
    assert!(read > 0, "some mangled lines still read");
}
