//! The search core on chess positions with known answers.

use horizon_chess::Position;
use horizon_search::score::mate_moves;
use horizon_search::{Limits, SearchConfig, SearchResult, Searcher, Silent};
use shakmaty::Move;

const SUITE: &str = include_str!("../../../epd/horizon.epd");

fn search(pos: &mut Position, config: SearchConfig, limits: &Limits) -> SearchResult<Move> {
    let mut searcher = Searcher::<Position>::standalone(config, 16);
    searcher.search(pos, limits, &mut Silent)
}

/// (FEN fields, bm moves, dm) of the suite line whose id contains `id`.
fn suite_entry(id: &str) -> (String, Vec<String>, Option<u32>) {
    let line = SUITE
        .lines()
        .find(|l| l.contains(id))
        .expect("id in the suite");
    let fen: Vec<&str> = line.split_whitespace().take(4).collect();
    let operations = line
        .split_whitespace()
        .skip(4)
        .collect::<Vec<_>>()
        .join(" ");
    let op = |name: &str| {
        operations
            .split(';')
            .map(str::trim)
            .find_map(|op| op.strip_prefix(name).map(|v| v.trim().to_owned()))
    };
    let bm = op("bm ")
        .map(|v| v.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    let dm = op("dm ").and_then(|v| v.parse().ok());
    (fen.join(" "), bm, dm)
}

#[test]
fn fine_70_needs_the_transposition_table() {
    let (fen, _, _) = suite_entry("Fine 70");
    let budget = Limits::nodes(4_000_000);
    let mut pos = Position::from_epd(&fen).expect("valid");
    let with_tt = search(&mut pos, SearchConfig::default(), &budget);
    let found = with_tt.best_move.map(|m| pos.uci(m));
    println!(
        "with TT: {found:?} depth {} score {}",
        with_tt.depth, with_tt.score
    );
    assert_eq!(found.as_deref(), Some("a1b1"), "Kb1 with the table");
    let without = search(
        &mut pos,
        SearchConfig {
            tt: false,
            ..SearchConfig::default()
        },
        &budget,
    );
    let played = without.best_move.map(|m| pos.uci(m));
    println!(
        "without TT: {played:?} depth {} score {}",
        without.depth, without.score
    );
    assert_ne!(
        played.as_deref(),
        Some("a1b1"),
        "not found without the table"
    );
}

#[test]
fn mates_report_their_exact_distance() {
    assert_mates_exact(&SearchConfig::default());
}

/// Every technique of the search-strength issue on at once.
/// (Razoring is not among them: it trades exact mates for speed. The quiescence search that
/// decides a razored node has stand pat and delta pruning, so with it on the search misses
/// WAC.001's mate in 2, 1.Qg6.)
fn selective() -> SearchConfig {
    SearchConfig {
        history_weight: horizon_search::config::HistoryWeight::Gravity,
        continuation_history: true,
        capture_history: true,
        improving: true,
        iir: true,
        see_pruning: true,
        history_pruning: true,
        probcut: true,
        singular: true,
        lmr_refined: true,
        lmr_research_depth: true,
        correction_history: true,
        correction_non_pawn: true,
        staged_generation: true,
        tt_pv: true,
        lmr_tt_capture: true,
        qs_move_limit: 2,
        ..SearchConfig::default()
    }
}

#[test]
fn mates_stay_exact_with_every_selectivity_technique() {
    assert_mates_exact(&selective());
}

/// The default with every technique of the search-strength issue off (2^d history).
fn without_selectivity() -> SearchConfig {
    SearchConfig {
        history_weight: horizon_search::config::HistoryWeight::PowerOfTwo,
        continuation_history: false,
        capture_history: false,
        improving: false,
        iir: false,
        see_pruning: false,
        history_pruning: false,
        probcut: false,
        singular: false,
        lmr_refined: false,
        correction_history: false,
        ..SearchConfig::default()
    }
}

/// Each new technique alone, on top of the default with all of them off, fires on a
/// middlegame search, changes the search (it is a real switch) and returns a legal move.
#[test]
fn each_selectivity_switch_fires() {
    type Counter = fn(&horizon_search::SearchStats) -> u64;
    let gravity = SearchConfig {
        history_weight: horizon_search::config::HistoryWeight::Gravity,
        ..without_selectivity()
    };
    let cases: [(&str, SearchConfig, Counter); 25] = [
        ("gravity", gravity.clone(), |s| s.history_maluses),
        (
            "continuation",
            SearchConfig {
                continuation_history: true,
                ..without_selectivity()
            },
            |s| s.continuation_updates,
        ),
        (
            "capture history",
            SearchConfig {
                capture_history: true,
                ..without_selectivity()
            },
            |s| s.capture_history_updates,
        ),
        (
            "butterfly history",
            SearchConfig {
                butterfly_history: true,
                ..without_selectivity()
            },
            |s| s.butterfly_updates,
        ),
        (
            "improving",
            SearchConfig {
                improving: true,
                ..without_selectivity()
            },
            |s| s.improving_nodes,
        ),
        (
            "iir",
            SearchConfig {
                iir: true,
                ..without_selectivity()
            },
            |s| s.iir_reductions,
        ),
        (
            "see pruning",
            SearchConfig {
                see_pruning: true,
                ..without_selectivity()
            },
            |s| s.see_prunes,
        ),
        (
            "history pruning",
            SearchConfig {
                history_pruning: true,
                history_pruning_margin: 64,
                ..gravity.clone()
            },
            |s| s.history_prunes,
        ),
        (
            "reduced depth pruning",
            SearchConfig {
                reduced_depth_pruning: true,
                ..without_selectivity()
            },
            |s| s.reduced_depth_prunes,
        ),
        (
            "probcut",
            SearchConfig {
                probcut: true,
                ..without_selectivity()
            },
            |s| s.probcut_tries,
        ),
        (
            "probcut table guard",
            SearchConfig {
                probcut: true,
                probcut_table_guard: true,
                ..without_selectivity()
            },
            |s| s.probcut_table_skips,
        ),
        (
            "singular",
            SearchConfig {
                singular: true,
                ..without_selectivity()
            },
            |s| s.singular_searches,
        ),
        (
            "lmr refined",
            SearchConfig {
                lmr_refined: true,
                ..without_selectivity()
            },
            |s| s.lmr_refined_changes,
        ),
        (
            "lmr research depth",
            SearchConfig {
                lmr_research_depth: true,
                ..without_selectivity()
            },
            |s| s.lmr_deeper.min(s.lmr_shallower + s.lmr_research_skipped),
        ),
        (
            "lmr captures",
            SearchConfig {
                lmr_captures: true,
                ..without_selectivity()
            },
            |s| s.lmr_captures_reduced,
        ),
        (
            "root lmr",
            SearchConfig {
                root_lmr: true,
                ..without_selectivity()
            },
            |s| s.root_lmr_reductions,
        ),
        (
            "check extension by exchange",
            SearchConfig {
                extend_check_see: true,
                ..without_selectivity()
            },
            |s| s.ext_check_losing,
        ),
        (
            "correction",
            SearchConfig {
                correction_history: true,
                ..without_selectivity()
            },
            |s| s.corrected_evals,
        ),
        (
            "non-pawn correction",
            SearchConfig {
                correction_history: true,
                correction_non_pawn: true,
                ..without_selectivity()
            },
            |s| s.non_pawn_corrections,
        ),
        (
            "table value as eval",
            SearchConfig {
                tt_value_eval: true,
                ..without_selectivity()
            },
            |s| s.tt_value_evals,
        ),
        (
            "staged generation",
            SearchConfig {
                staged_generation: true,
                ..without_selectivity()
            },
            |s| s.staged_quiet_skips,
        ),
        (
            // Marks that reached non-PV nodes went through the table.
            "tt pv",
            SearchConfig {
                tt_pv: true,
                ..without_selectivity()
            },
            |s| s.tt_pv_marked.min(s.tt_pv_reductions_lessened),
        ),
        (
            "table capture",
            SearchConfig {
                lmr_tt_capture: true,
                ..without_selectivity()
            },
            |s| s.tt_capture_reductions,
        ),
        (
            "quiescence move limit",
            SearchConfig {
                qs_move_limit: 2,
                ..without_selectivity()
            },
            |s| s.qs_move_limit_prunes,
        ),
        (
            "quadratic quiet SEE threshold",
            SearchConfig {
                see_pruning: true,
                see_quiet_quadratic: 25,
                ..without_selectivity()
            },
            |s| s.see_quadratic_prunes,
        ),
    ];
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 9";
    let limits = Limits::depth(10);
    let mut pos = Position::from_fen(fen).expect("valid");
    let base = search(&mut pos, without_selectivity(), &limits);
    for (name, config, counter) in cases {
        let result = search(&mut pos, config, &limits);
        let best = result.best_move.expect("a move");
        assert!(pos.moves().contains(&best), "{name}: illegal {best:?}");
        assert!(counter(&result.stats) > 0, "{name}: never fired");
        assert_ne!(
            result.stats.total_nodes(),
            base.stats.total_nodes(),
            "{name}: the search did not change"
        );
        assert_eq!(counter(&base.stats), 0, "{name}: fired while off");
    }
}

/// Razoring (issue 14, item 6; off by default) fires on a middlegame search only when on,
/// some of its quiescence searches end their node, and the search stays legal.
#[test]
fn razoring_fires_only_when_on() {
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 9";
    let limits = Limits::depth(10);
    let mut pos = Position::from_fen(fen).expect("valid");
    let off = search(&mut pos, SearchConfig::default(), &limits);
    assert_eq!(
        (off.stats.razoring_tries, off.stats.razoring_cutoffs),
        (0, 0)
    );
    let on = search(
        &mut pos,
        SearchConfig {
            razoring: true,
            ..SearchConfig::default()
        },
        &limits,
    );
    let best = on.best_move.expect("a move");
    assert!(pos.moves().contains(&best), "illegal {best:?}");
    assert!(on.stats.razoring_cutoffs > 0, "{}", on.stats.razoring_tries);
    assert!(on.stats.razoring_cutoffs <= on.stats.razoring_tries);
    assert_ne!(on.stats.total_nodes(), off.stats.total_nodes());
}

fn assert_mates_exact(config: &SearchConfig) {
    let ids = [
        "Fool's mate",
        "Scholar's mate",
        "Back-rank mate",
        "Arabian mate",
        "Legall's mate",
        "Opera game",
        "Boden's mate",
        "WAC.001",
        "WAC.004",
        "Anastasia's mate",
        "Reti-Tartakower",
        "BK.01",
        "Immortal game",
        "Evergreen game mate",
        "Ed. Lasker-Thomas",
        "Philidor's legacy",
    ];
    for id in ids {
        let (fen, bm, dm) = suite_entry(id);
        let dm = dm.expect("a mate distance");
        let mut pos = Position::from_epd(&fen).expect("valid");
        let limits = Limits {
            mate: Some(dm),
            depth: Some(2 * dm + 4),
            ..Limits::default()
        };
        let result = search(&mut pos, config.clone(), &limits);
        let best = result.best_move.expect("a move");
        assert_eq!(
            mate_moves(result.score),
            Some(dm as i32),
            "{id}: score {}",
            result.score
        );
        let san = pos.san(best);
        assert!(
            bm.iter().any(|b| b == &san),
            "{id}: played {san}, expected one of {bm:?}"
        );
    }
}

#[test]
fn stalemate_scores_zero_and_is_avoided() {
    let mut stalemate = Position::from_fen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1").expect("valid");
    let result = search(&mut stalemate, SearchConfig::default(), &Limits::depth(4));
    assert_eq!((result.best_move, result.score), (None, 0));
    // Qc7 would stalemate; Qc8 mates.
    let mut pos = Position::from_fen("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1").expect("valid");
    let result = search(&mut pos, SearchConfig::default(), &Limits::depth(4));
    assert_eq!(mate_moves(result.score), Some(1));
}

#[test]
fn a_threefold_repetition_scores_zero() {
    // Black, a queen down, repeats the start position a third time with Kh8.
    let mut pos = Position::from_fen("7k/8/8/8/8/8/8/KQ6 w - - 0 1").expect("valid");
    for m in "b1b2 h8g8 b2b1 g8h8 b1b2 h8g8 b2b1".split_whitespace() {
        pos.play_uci(m).expect("legal");
    }
    for config in [SearchConfig::default(), SearchConfig::bare()] {
        let result = search(&mut pos, config, &Limits::depth(6));
        assert_eq!(result.score, 0);
        assert_eq!(
            result.best_move.map(|m| pos.uci(m)).as_deref(),
            Some("g8h8")
        );
    }
}

#[test]
fn the_evaluation_caches_count_each_search_apart() {
    let (fen, _, _) = suite_entry("WAC.003");
    let mut pos = Position::from_epd(&fen).expect("valid");
    let first = search(&mut pos, SearchConfig::default(), &Limits::depth(8)).stats;
    // The position keeps its caches; a second, identical search evaluates as often, and
    // finds more evaluations cached.
    let second = search(&mut pos, SearchConfig::default(), &Limits::depth(8)).stats;
    assert!(
        first.eval_cache_probes > 1000,
        "{}",
        first.eval_cache_probes
    );
    assert!(
        first.eval_cache_hits < first.eval_cache_probes,
        "a cold cache misses"
    );
    assert_eq!(second.eval_cache_probes, first.eval_cache_probes);
    assert!(second.eval_cache_hits > first.eval_cache_hits);
    for stats in [&first, &second] {
        // The pawn hash is asked exactly when the evaluation cache misses.
        assert_eq!(
            stats.pawn_cache_probes,
            stats.eval_cache_probes - stats.eval_cache_hits
        );
        assert!(stats.pawn_cache_hits <= stats.pawn_cache_probes);
    }
    assert!(first.pawn_cache_hits > first.pawn_cache_probes / 2);
    let (hits, probes) = pos.eval_cache_counters();
    assert_eq!(probes, first.eval_cache_probes + second.eval_cache_probes);
    assert_eq!(hits, first.eval_cache_hits + second.eval_cache_hits);
    let (hits, probes) = pos.pawn_table_counters();
    assert_eq!(probes, first.pawn_cache_probes + second.pawn_cache_probes);
    assert_eq!(hits, first.pawn_cache_hits + second.pawn_cache_hits);
}

/// A search of `fen` to `depth` with `config`, whose best move must be legal.
fn search_fen(fen: &str, config: SearchConfig, depth: u32) -> SearchResult<Move> {
    search_position(Position::from_fen(fen).expect("valid"), config, depth)
}

/// A search of `pos` to `depth`, its best move checked legal.
fn search_position(mut pos: Position, config: SearchConfig, depth: u32) -> SearchResult<Move> {
    let result = search(&mut pos, config, &Limits::depth(depth));
    let best = result.best_move.expect("a move");
    assert!(pos.moves().contains(&best), "illegal {best:?}");
    result
}

/// The legal move `text` (UCI notation) of `fen`.
fn uci(fen: &str, text: &str) -> Move {
    let pos = Position::from_fen(fen).expect("valid");
    pos.parse_uci(text).expect("legal")
}

/// `SEECheckSpare` keeps a checking sacrifice that SEE pruning skips: WAC.208's Bf7+
/// (a bishop for a pawn, then the queen's attack on the king) is found at depth 10 with
/// the spare and counted; off, nothing is counted.
#[test]
fn the_check_spare_keeps_a_checking_sacrifice() {
    let fen = "3r1bk1/ppq3pp/2p5/2P2Q1B/8/1P4P1/P6P/5RK1 w - - 0 1";
    let run = |see_check_spare: bool| {
        let config = SearchConfig {
            see_check_spare,
            ..SearchConfig::default()
        };
        search_fen(fen, config, 10)
    };
    let off = run(false);
    let on = run(true);
    assert_eq!(off.stats.see_checks_spared, 0);
    assert!(on.stats.see_checks_spared > 0);
    assert_eq!(on.best_move, Some(uci(fen, "h5f7")));
    assert_ne!(off.stats.total_nodes(), on.stats.total_nodes());
}

/// `SEEQuietQuadratic` keeps a quiet sacrifice that the linear quiet threshold prunes:
/// WAC.108's Qe5 (the queen offered on a square the queen on b7 guards, to win the rook on
/// a1) is found at depth 9 with the quadratic threshold and counted; with the linear
/// one it is not found at that depth, and nothing is counted.
#[test]
fn the_quadratic_quiet_threshold_keeps_a_quiet_sacrifice() {
    let fen = "r5k1/1q4pp/2p5/p1Q5/2P5/5R2/4RKPP/r7 w - - 0 1";
    let run = |see_quiet_quadratic: i32| {
        let config = SearchConfig {
            see_quiet_quadratic,
            ..SearchConfig::default()
        };
        search_fen(fen, config, 9)
    };
    let off = run(0);
    let on = run(25);
    assert_eq!(off.stats.see_quadratic_prunes, 0);
    assert!(on.stats.see_quadratic_prunes > 0);
    assert_eq!(on.best_move, Some(uci(fen, "c5e5")));
    assert_ne!(off.best_move, Some(uci(fen, "c5e5")));
}

/// `MopUp` reaches the search: in a won pawnless ending its gradient changes evaluations
/// (counted) and the root score; off, nothing is counted and the search is the tuned one.
#[test]
fn mop_up_changes_the_evaluations_of_pawnless_endings() {
    let fen = "8/6k1/3R4/8/5K1n/8/8/8 w - - 0 1";
    let run = |mop_up: bool| {
        let config = SearchConfig {
            mop_up,
            ..SearchConfig::default()
        };
        search_fen(fen, config, 8)
    };
    let off = run(false);
    let on = run(true);
    assert_eq!(off.stats.mop_up_evals, 0);
    assert!(on.stats.mop_up_evals > 100, "{}", on.stats.mop_up_evals);
    assert!(
        on.stats.mop_up_evals <= on.stats.eval_cache_probes - on.stats.eval_cache_hits,
        "counted once per evaluation computed"
    );
    // Rook against knight is scaled to a small edge; the gradient adds to it.
    assert!(off.score.abs() < 100, "{}", off.score);
    assert!(on.score > off.score, "{} vs {}", on.score, off.score);
}

/// `KPKBitbase` reaches the search: a rook-pawn ending the classic evaluation calls a clear
/// edge is an exact draw with the bitbase (counted), and the search says so.
#[test]
fn the_kpk_bitbase_settles_a_drawn_rook_pawn_ending() {
    let fen = "7k/8/6K1/7P/8/8/8/8 w - - 0 1";
    let run = |kpk_bitbase: bool| {
        let config = SearchConfig {
            kpk_bitbase,
            ..SearchConfig::default()
        };
        search_fen(fen, config, 6)
    };
    let off = run(false);
    let on = run(true);
    assert_eq!(off.stats.kpk_evals, 0);
    assert!(on.stats.kpk_evals > 0);
    assert!(off.score > 100, "{}", off.score);
    assert_eq!(on.score, 0);
}

/// The null move's piece rules (`null_min_pieces`, `null_verification_endgame`) reach the
/// search and find zugzwangs that the classic rule misses at the same depth (ZPTS.22 and
/// ZPTS.24 of `zugzwang.epd`).
#[test]
fn null_move_piece_rules_find_zugzwangs() {
    // Queen against queen: each side has one piece, so with two required no null is tried.
    let queens = "8/p7/1p6/p7/kq1Q4/8/K7/8 w - - 0 1";
    let qd3 = uci(queens, "d4d3");
    let classic = search_fen(queens, SearchConfig::default(), 12);
    assert!(classic.stats.null_tries > 0);
    assert_eq!(classic.stats.null_piece_skips, 0);
    assert_ne!(classic.best_move, Some(qd3), "the classic rule misses it");
    let two = SearchConfig {
        null_min_pieces: 2,
        ..SearchConfig::default()
    };
    let spared = search_fen(queens, two.clone(), 12);
    assert_eq!(spared.stats.null_tries, 0);
    assert!(spared.stats.null_piece_skips > 0);
    assert_eq!(spared.best_move, Some(qd3));

    // Rook and knight against rook: Black to move must find Ne8.
    let knight = "1r4RK/2n5/7k/8/8/8/8/8 b - - 0 1";
    let ne8 = uci(knight, "c7e8");
    let classic = search_fen(knight, SearchConfig::default(), 8);
    assert_ne!(classic.best_move, Some(ne8), "the classic rule misses it");
    assert_eq!(classic.stats.null_endgame_verifications, 0);
    assert_eq!(search_fen(knight, two, 8).best_move, Some(ne8));
    let verified = search_fen(
        knight,
        SearchConfig {
            null_verification_endgame: true,
            ..SearchConfig::default()
        },
        8,
    );
    assert!(verified.stats.null_endgame_verifications > 0);
    assert_eq!(
        verified.stats.null_endgame_verifications,
        verified.stats.null_verifications
    );
}

/// Pieces that can move: in the start position only the knights; in ZPTS.05 of
/// `zugzwang.epd` none of Black's four (bishops and rooks walled in by their own pawns and
/// pieces), while White's queen can.
#[test]
fn mobile_pieces_leave_out_walled_in_ones() {
    use shakmaty::Color;
    let start = Position::startpos();
    assert_eq!(start.non_pawn_pieces(Color::White), 7);
    assert_eq!(start.mobile_non_pawn_pieces(Color::White), 2);
    assert_eq!(start.mobile_non_pawn_pieces(Color::Black), 2);
    let walled = Position::from_fen(ZPTS_05).expect("valid");
    assert_eq!(walled.non_pawn_pieces(Color::Black), 4);
    assert_eq!(walled.mobile_non_pawn_pieces(Color::Black), 0);
    assert_eq!(walled.mobile_non_pawn_pieces(Color::White), 1);
    // A rook hemmed in by its own pawn and knight does not count; one that can take does.
    let capture = Position::from_fen("k7/8/8/8/8/8/PP6/RN5K w - - 0 1").expect("valid");
    assert_eq!(
        capture.mobile_non_pawn_pieces(Color::White),
        1,
        "the knight"
    );
    let takes = Position::from_fen("k7/8/8/8/8/8/pP6/RN5K w - - 0 1").expect("valid");
    assert_eq!(
        takes.mobile_non_pawn_pieces(Color::White),
        2,
        "Rxa2 and the knight"
    );
    // Mobility counts the moves: Rxa2, Na3, Nc3, Nd2 (pawns and king left out).
    assert_eq!(takes.non_pawn_mobility(Color::White), 4);
    assert_eq!(
        start.non_pawn_mobility(Color::White),
        4,
        "two knights, two squares each"
    );
    assert_eq!(walled.non_pawn_mobility(Color::Black), 0);
    assert_eq!(
        walled.non_pawn_mobility(Color::White),
        20,
        "the queen on g8"
    );
    let mate_in_two = Position::from_fen(ZPTS_04_MATE_IN_2).expect("valid");
    assert_eq!(mate_in_two.non_pawn_mobility(Color::Black), 1, "only Qa1");
}

/// Near the end of ZPTS.04's solution (`zugzwang.epd`): Na5, and Black's one piece move,
/// Qa2–a1, gives up b3, so Nxb3 mates. With the built-in network (which sees Black far
/// ahead, so Black's null move is tried), Black's pass (the queen staying on a2) hides it
/// from the classic rule at every depth to 10; `null_min_mobility` 2 forbids that pass.
/// (The depth at which the limited rule first finds it moves with the network: 4 with
/// net 32, 9 with net 33.)
const ZPTS_04_MATE_IN_2: &str = "8/8/8/8/1pN5/brpp4/qpprp3/1nkbK3 w - - 0 1";

/// A search of `fen` to `depth` with the built-in network.
fn search_fen_network(fen: &str, config: SearchConfig, depth: u32) -> SearchResult<Move> {
    let mut pos = Position::from_fen(fen).expect("valid");
    let network = horizon_chess::nnue::Network::embedded().expect("the built-in network");
    pos.set_network(
        Some(std::sync::Arc::new(network)),
        horizon_chess::nnue::simd::Simd::detect(),
    );
    search_position(pos, config, depth)
}

#[test]
fn a_side_with_one_piece_move_may_not_pass() {
    let na5 = uci(ZPTS_04_MATE_IN_2, "c4a5");
    let run = |null_min_mobility: u32| {
        let config = SearchConfig {
            null_min_mobility,
            ..SearchConfig::default()
        };
        search_fen_network(ZPTS_04_MATE_IN_2, config, 10)
    };
    let classic = run(0);
    assert_ne!(classic.best_move, Some(na5), "the classic rule misses it");
    assert!(classic.stats.null_cutoffs > 0);
    assert_eq!(classic.stats.null_mobility_skips, 0);
    let limited = run(2);
    assert_eq!(limited.best_move, Some(na5));
    assert_eq!(limited.score, horizon_search::score::MATE - 3, "mate in 2");
    assert!(limited.stats.null_mobility_skips > 0);
}

/// ZPTS.05 of `zugzwang.epd`: mate in 4 by Qg7, after which Black's king must move because
/// every other black piece is walled in. Black's null move hides that; with
/// `null_mobile_pieces` Black counts no piece there and may not pass, and depth 14 finds
/// the mate that the classic rule misses.
const ZPTS_05: &str = "6Q1/8/8/7k/8/8/3p1pp1/3Kbrrb w - - 0 1";

#[test]
fn walled_in_pieces_do_not_license_the_null_move() {
    let qg7 = uci(ZPTS_05, "g8g7");
    let run = |null_mobile_pieces: bool| {
        let config = SearchConfig {
            null_mobile_pieces,
            ..SearchConfig::default()
        };
        search_fen(ZPTS_05, config, 14)
    };
    let classic = run(false);
    assert_ne!(classic.best_move, Some(qg7), "the classic rule misses it");
    assert_eq!(classic.stats.null_immobile_discounts, 0);
    let mobile = run(true);
    assert_eq!(mobile.best_move, Some(qg7));
    assert_eq!(mobile.score, horizon_search::score::MATE - 7, "mate in 4");
    assert!(mobile.stats.null_immobile_skips > 0);
    assert!(mobile.stats.null_immobile_discounts >= mobile.stats.null_immobile_skips);
}

/// Three moves earlier on ZPTS.04's road (mate in 5 by knight moves while Black's queen
/// shuffles between a1 and a2): with Black's null move barred, reverse futility still
/// trusts Black's huge material at shallow depth, so depth 14 sees only the repetition
/// draw. `reverse_futility_min_mobility` 4 bars that too, and the mate appears.
#[test]
fn reverse_futility_spares_a_side_with_few_piece_moves() {
    let fen = "8/8/8/2N5/1pp5/brpp4/1pprp3/qnkbK3 w - - 0 1";
    let run = |reverse_futility_min_mobility: u32| {
        let config = SearchConfig {
            null_min_mobility: 4,
            reverse_futility_min_mobility,
            ..SearchConfig::default()
        };
        search_fen_network(fen, config, 14)
    };
    let trusting = run(0);
    assert_eq!(trusting.score, 0, "the repetition");
    assert_eq!(trusting.stats.reverse_futility_mobility_skips, 0);
    let spared = run(4);
    assert_eq!(spared.score, horizon_search::score::MATE - 9, "mate in 5");
    assert!(spared.stats.reverse_futility_mobility_skips > 0);
}

/// The evaluation cache returns what the evaluation computes: the same value from a cold
/// and a warm cache, at every position of a search's tree and of random games.
#[test]
fn the_evaluation_cache_returns_the_evaluation() {
    use horizon_chess::shakmaty::Position as _;
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    for game in 0..40 {
        let mut pos = Position::startpos();
        for _ in 0..120 {
            let moves = pos.chess().legal_moves();
            if moves.is_empty() {
                break;
            }
            let fresh = pos.evaluate_classic();
            let cached_first = pos.evaluate();
            let cached_again = pos.evaluate();
            assert_eq!(cached_first, fresh, "game {game}: {}", pos.fen());
            assert_eq!(cached_again, fresh, "game {game}: {}", pos.fen());
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let m = moves[(rng % moves.len() as u64) as usize];
            pos.play(m);
        }
    }
}

#[test]
fn searches_are_deterministic_on_chess() {
    let (fen, _, _) = suite_entry("WAC.003");
    let run = || {
        let mut pos = Position::from_epd(&fen).expect("valid");
        let r = search(&mut pos, SearchConfig::default(), &Limits::depth(8));
        (r.best_move, r.score, r.stats.total_nodes())
    };
    assert_eq!(run(), run());
}

#[test]
fn presearch_and_etc_run_on_transposition_rich_endgames() {
    let (fen, _, _) = suite_entry("Fine 70");
    let config = SearchConfig {
        presearch: true,
        etc: true,
        ..SearchConfig::default()
    };
    let mut pos = Position::from_epd(&fen).expect("valid");
    let result = search(&mut pos, config, &Limits::depth(18));
    let s = &result.stats;
    println!("{s}");
    assert!(
        s.presearches > 0,
        "king walks transpose at different depths"
    );
    assert!(s.presearch_reused <= s.tt_cutoffs);
    assert!(s.etc_probes > 0 && s.etc_cutoffs <= s.etc_probes);
    assert!(result.best_move.is_some_and(|m| pos.moves().contains(&m)));
}

#[test]
fn lazy_smp_threads_share_the_table_and_return_a_legal_move() {
    use horizon_search::threads::search_smp;
    use horizon_search::{SearchControl, TranspositionTable};
    use std::sync::Arc;
    let tt = Arc::new(TranspositionTable::new(16));
    let control = Arc::new(SearchControl::default());
    let config = SearchConfig::default();
    let mut main = Searcher::<Position>::new(config.clone(), tt.clone(), control.clone());
    let mut helpers: Vec<_> = (0..2)
        .map(|_| Searcher::<Position>::new(config.clone(), tt.clone(), control.clone()))
        .collect();
    let (fen, _, _) = suite_entry("WAC.003");
    let mut pos = Position::from_epd(&fen).expect("valid");
    let result = search_smp(
        &mut main,
        &mut helpers,
        &mut pos,
        &Limits::depth(9),
        &mut Silent,
    );
    let best = result.best_move.expect("a move");
    assert!(pos.moves().contains(&best));
    assert_eq!(result.depth, 9);
    assert!(
        result.stats.total_nodes() > main.stats().total_nodes(),
        "helpers searched too"
    );
}

/// `SparePassedPushes` spares exactly the quiet pushes of passed pawns to the sixth and
/// seventh ranks, for either colour.
#[test]
fn passed_pawn_pushes_are_recognised() {
    use horizon_search::Game;
    let cases = [
        // White: a5-a6 and b6-b7 are passed pushes; g2-g3 is too far back.
        ("4k3/8/1P6/P7/8/8/6P1/4K3 w - - 0 1", "a5a6", true),
        ("4k3/8/1P6/P7/8/8/6P1/4K3 w - - 0 1", "b6b7", true),
        ("4k3/8/1P6/P7/8/8/6P1/4K3 w - - 0 1", "g2g3", false),
        // An enemy pawn ahead on an adjacent file: not passed.
        ("4k3/1p6/8/P7/8/8/8/4K3 w - - 0 1", "a5a6", false),
        // ... behind it does not count.
        ("4k3/8/8/P7/1p6/8/8/4K3 w - - 0 1", "a5a6", true),
        // A capture onto the sixth or a promotion is tactical, not a push.
        ("4k3/8/1p6/P7/8/8/8/4K3 w - - 0 1", "a5b6", false),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", false),
        // Black's sixth and seventh are the third and second ranks.
        ("4k3/8/8/8/7p/8/8/4K3 b - - 0 1", "h4h3", true),
        ("4k3/8/8/8/8/7p/8/4K3 b - - 0 1", "h3h2", true),
        ("4k3/8/8/8/7p/8/6P1/4K3 b - - 0 1", "h4h3", false),
        ("4k3/8/8/8/7p/8/8/4K3 w - - 0 1", "e1d1", false),
    ];
    for (fen, uci, expected) in cases {
        let position = Position::from_fen(fen).expect("fen");
        let m = position.parse_uci(uci).expect("legal move");
        assert_eq!(position.is_passed_pawn_push(m), expected, "{fen} {uci}");
    }
}

/// `SparePassedPushes` (off by default) fires only when on, in a pawn race against a rook,
/// changes the search and keeps it legal.
#[test]
fn spared_passed_pushes_fire_only_when_on() {
    // endgames-tb.epd: rook against two connected passed pawns, bm Rd2+.
    let fen = "8/8/8/3R4/2K5/6pp/k7/8 w - - 0 1";
    let limits = Limits::depth(12);
    let mut pos = Position::from_fen(fen).expect("valid");
    let off = search(&mut pos, SearchConfig::default(), &limits);
    assert_eq!(off.stats.passed_pushes_spared, 0);
    let on = search(
        &mut pos,
        SearchConfig {
            spare_passed_pushes: true,
            ..SearchConfig::default()
        },
        &limits,
    );
    assert!(on.stats.passed_pushes_spared > 0, "never fired");
    assert_ne!(on.stats.total_nodes(), off.stats.total_nodes());
    let best = on.best_move.expect("a move");
    assert!(pos.moves().contains(&best), "illegal {best:?}");
}

/// `ProbCutReduction` reaches the search: ProbCut is tried at every setting, the tree
/// depends on how shallow its verifying search is, and the move stays legal.
#[test]
fn probcut_reduction_sets_the_verifying_depth() {
    // WAC.055: a middlegame with captures to try against a raised beta.
    let fen = "r3r1k1/pp1q1pp1/4b1p1/3p2B1/3Q1R2/8/PPP3PP/4R1K1 w - - 0 1";
    let nodes: Vec<u64> = [2, 3, 4]
        .into_iter()
        .map(|reduction| {
            let result = search_fen(
                fen,
                SearchConfig {
                    probcut_reduction: reduction,
                    ..SearchConfig::default()
                },
                10,
            );
            assert!(result.stats.probcut_tries > 0, "reduction {reduction}");
            result.stats.total_nodes()
        })
        .collect();
    assert!(
        nodes[0] != nodes[1] && nodes[1] != nodes[2],
        "the reduction changed nothing: {nodes:?}"
    );
}

/// The speed switches (`TTEarlyPrefetch`, `EagerAccumulator`) change when work is done,
/// never what is searched: the same nodes, value and move, with each counted when on and
/// not when off, with the classic evaluation and with the built-in network.
#[test]
fn speed_switches_leave_the_tree_unchanged() {
    use horizon_chess::nnue::Network;
    use horizon_chess::nnue::simd::Simd;
    use std::sync::Arc;
    let network = Arc::new(Network::embedded().expect("the built-in network loads"));
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        for with_network in [false, true] {
            let run = |early: bool, eager: bool| {
                let mut pos = Position::from_fen(fen).expect("valid");
                if with_network {
                    pos.set_network(Some(Arc::clone(&network)), Simd::detect());
                }
                let config = SearchConfig {
                    tt_early_prefetch: early,
                    eager_accumulator: eager,
                    ..SearchConfig::default()
                };
                search(&mut pos, config, &Limits::depth(9))
            };
            let base = run(false, false);
            assert_eq!(
                (
                    base.stats.tt_early_prefetches,
                    base.stats.eager_preparations
                ),
                (0, 0)
            );
            for (early, eager) in [(true, false), (false, true), (true, true)] {
                let fast = run(early, eager);
                assert_eq!(
                    (fast.stats.total_nodes(), fast.score, fast.best_move),
                    (base.stats.total_nodes(), base.score, base.best_move),
                    "{fen} network {with_network} early {early} eager {eager}"
                );
                assert_eq!(fast.stats.tt_early_prefetches > 0, early);
                assert_eq!(fast.stats.eager_preparations > 0, eager);
            }
        }
    }
}

/// Plays `fen` out with both sides searching `nodes` a move on one table: the number of
/// plies to the mate, or `None` when the fifty-move rule (100 plies from a zeroed counter)
/// or any other draw came first.
fn plies_to_mate(fen: &str, config: &SearchConfig, nodes: u64) -> Option<usize> {
    use horizon_search::Game;
    let mut pos = Position::from_fen(fen).expect("valid");
    let mut searcher = Searcher::<Position>::standalone(config.clone(), 16);
    for ply in 0..100 {
        if pos.moves().is_empty() {
            return pos.in_check().then_some(ply);
        }
        if Game::draw(&pos, 0).is_some() {
            return None;
        }
        let result = searcher.search(&mut pos, &Limits::nodes(nodes), &mut Silent);
        let best = result.best_move.expect("a move");
        assert!(pos.moves().contains(&best), "illegal {best:?}");
        Game::play(&mut pos, best);
    }
    (pos.moves().is_empty() && pos.in_check()).then_some(100)
}

/// `BareKingMate` (on by default): king and rook, king and queen, and king, bishop and
/// knight (the strong side to move, the bare king in the centre) are mated within the
/// fifty-move rule at 20,000 nodes a move, both sides searching with the switch on and a
/// repeated position counted as a draw; without the switch the first two were drawn by
/// repetition (printed, not asserted). Bishop and knight need about twice the moves of
/// perfect play, so starts more than about 25 moves from mate are not always mated in fifty
/// (`docs/strength.md`).
#[test]
fn bare_kings_are_mated_within_fifty_moves() {
    let on = SearchConfig::default();
    assert!(on.bare_king_mate, "on by default");
    let off = SearchConfig {
        bare_king_mate: false,
        ..SearchConfig::default()
    };
    for fen in [
        "8/8/8/3k4/8/8/8/R3K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
        "4k3/8/8/8/3K4/8/8/7r b - - 0 1",
        // Dark-squared bishop: mate in a1 or h8; 25 moves from mate (Syzygy DTZ 50).
        "8/5B2/3k4/8/8/5N2/7K/8 w - - 0 1",
    ] {
        let with = plies_to_mate(fen, &on, 20_000);
        let off = plies_to_mate(fen, &off, 20_000);
        println!("{fen}: mate after {with:?} plies with the switch, {off:?} without");
        assert!(with.is_some(), "{fen}: not mated within fifty moves");
    }
}
