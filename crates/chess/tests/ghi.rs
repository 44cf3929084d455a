//! The graph-history-interaction modes on chess: the history signature `GHI=exact` keys
//! path-dependent values with, and a repetition trap (a perpetual check) where `mark`
//! throws path-dependent values away and `exact` keeps the ones whose history matches.

use horizon_chess::Position;
use horizon_search::config::GhiMode;
use horizon_search::{Limits, SearchConfig, SearchResult, Searcher, Silent};
use shakmaty::Move;

fn after(fen: &str, moves: &str) -> Position {
    let mut pos = Position::from_fen(fen).expect("valid FEN");
    for m in moves.split_whitespace() {
        pos.play_uci(m).expect("legal move");
    }
    pos
}

const KNIGHTS: &str = "4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1";
/// Every position of the window, and the clock.
const ALL: usize = usize::MAX;

#[test]
fn the_same_history_gives_the_same_signature() {
    let a = after(KNIGHTS, "b1c3 e8d8 g1f3");
    let b = after(KNIGHTS, "b1c3 e8d8 g1f3");
    assert_eq!(a.history_signature(0, ALL), b.history_signature(0, ALL));
}

#[test]
fn a_transposition_through_other_positions_has_another_signature() {
    // Same position, same clock, but the first path passed c3 with the g1 knight at home,
    // the second f3 with the b1 knight at home: different positions could repeat later.
    let a = after(KNIGHTS, "b1c3 e8d8 g1f3");
    let b = after(KNIGHTS, "g1f3 e8d8 b1c3");
    assert_eq!(a.key(), b.key());
    assert_ne!(a.history_signature(0, ALL), b.history_signature(0, ALL));
}

#[test]
fn a_short_signature_covers_only_the_last_positions() {
    // Two plies back one knight is out, a different one on each path...
    let a = after(KNIGHTS, "b1c3 e8d8 g1f3 d8e8");
    let b = after(KNIGHTS, "g1f3 e8d8 b1c3 d8e8");
    assert_eq!(a.key(), b.key());
    assert_ne!(a.history_signature(0, 2), b.history_signature(0, 2));
    // ...one ply back both are out, with Black's king on d8, on both paths.
    assert_eq!(a.history_signature(0, 1), b.history_signature(0, 1));
    assert_ne!(a.history_signature(0, 1), a.history_signature(0, 2));
}

#[test]
fn an_irreversible_move_forgets_the_history_before_it() {
    // Both paths end with the same pawn move: nothing before it can repeat any more.
    let pawns = "4k3/4p3/8/8/8/8/4P3/1N2K1N1 w - - 0 1";
    let a = after(pawns, "b1c3 e8d8 g1f3 d8e8 e2e4");
    let b = after(pawns, "g1f3 e8d8 b1c3 d8e8 e2e4");
    assert_eq!(a.key(), b.key());
    assert_eq!(a.history_signature(0, ALL), b.history_signature(0, ALL));
}

#[test]
fn the_search_root_and_the_clock_are_part_of_the_history() {
    let a = after(KNIGHTS, "b1c3 e8d8 g1f3");
    // Positions before the root repeat only twice over: the same path, another root.
    assert_ne!(a.history_signature(0, ALL), a.history_signature(2, ALL));
    // The fifty-move count.
    let later = "4k3/8/8/8/8/8/8/1N2K1N1 w - - 40 21";
    let b = after(later, "b1c3 e8d8 g1f3");
    assert_eq!(a.key(), b.key());
    assert_ne!(a.history_signature(0, ALL), b.history_signature(0, ALL));
}

/// White, a queen and a rook down, draws by perpetual check: Qe8+ Kh7 Qh5+ Kg8 Qe8+ ...
const PERPETUAL: &str = "6k1/6p1/8/8/7K/8/1r2Q3/q7 w - - 0 1";

fn search(ghi: GhiMode, depth: u32) -> (SearchResult<Move>, Position) {
    let config = SearchConfig {
        ghi,
        ..SearchConfig::default()
    };
    let mut pos = Position::from_fen(PERPETUAL).expect("valid FEN");
    let mut searcher = Searcher::<Position>::standalone(config, 16);
    let result = searcher.search(&mut pos, &Limits::depth(depth), &mut Silent);
    (result, pos)
}

#[test]
fn exact_reuses_what_mark_refuses_in_a_perpetual_check() {
    let (mark, pos) = search(GhiMode::Mark, 10);
    let (exact, _) = search(GhiMode::Exact, 10);
    println!("mark:  {}\n{}", mark.stats.total_nodes(), mark.stats);
    println!("exact: {}\n{}", exact.stats.total_nodes(), exact.stats);
    for (name, result) in [("mark", &mark), ("exact", &exact)] {
        assert_eq!(result.score, 0, "{name}: the perpetual is a draw");
        let best = result.best_move.expect("a move");
        let mut after = pos.clone();
        after.play(best);
        assert!(
            after.in_check(),
            "{name}: {} must give check",
            pos.uci(best)
        );
    }
    assert!(
        mark.stats.tt_path_refusals > 0,
        "mark refuses repetition-based values"
    );
    assert_eq!(mark.stats.ghi_exact_reuses, 0);
    assert!(
        exact.stats.ghi_exact_reuses > 0,
        "exact reuses those of the same history"
    );
}
