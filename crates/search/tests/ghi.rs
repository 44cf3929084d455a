//! The graph-history-interaction problem on a small game graph with a cycle: a naive
//! transposition table gives the wrong root value, Horizon's rule (values resting on a
//! repetition are marked path-dependent and never cut off) gives the right one.
//!
//! Graph (White moves at T, R, X, Z; Black at U, P, S, Y; leaf values from White's view):
//!
//! ```text
//! T -> U           U -> R
//! R -> P, S        P -> X, leaf -50      S -> X
//! X -> Y, leaf -5  Y -> Z, leaf +10      Z -> P, leaf -20
//! ```
//! Via R-P-X, the line X-Y-Z-P repeats P (a draw, 0), so X is worth 0 there. Via R-S-X it
//! does not: P then answers with leaf -50, and X is worth -5. Searched in the order P, S,
//! a naive table reuses X = 0 from the first path and returns R = 0; the truth is -5.
//! (T and U put R below the root, where moves come in generation order: the root itself
//! re-orders its moves by the previous iteration.)
//!
//! `GHI=exact` (Kishimoto & Müller's solution) gets it right too: X's value rests on P, one
//! of the two plies above X, and those differ on the two paths. Unlike `mark` it keeps
//! values whose repetitions lie below their own node (R's) as ordinary entries.

mod common;

use common::{Edges, Graph, Shape};
use horizon_search::config::{GhiMode, SearchConfig};
use horizon_search::game::{Game, NoMoves};
use horizon_search::{Limits, Searcher, Silent};

const R: usize = 0;
const P: usize = 1;
const S: usize = 2;
const X: usize = 3;
const Y: usize = 4;
const Z: usize = 5;
const LEAF_P: usize = 6;
const LEAF_X: usize = 7;
const LEAF_Y: usize = 8;
const LEAF_Z: usize = 9;
const T: usize = 10;
const U: usize = 11;

fn edges(node: usize) -> &'static [usize] {
    match node {
        T => &[U],
        U => &[R],
        R => &[P, S],
        P => &[X, LEAF_P],
        S => &[X],
        X => &[Y, LEAF_X],
        Y => &[Z, LEAF_Y],
        Z => &[P, LEAF_Z],
        _ => &[],
    }
}

fn leaf_value(node: usize) -> i32 {
    match node {
        LEAF_P => -50,
        LEAF_X => -5,
        LEAF_Y => 10,
        LEAF_Z => -20,
        _ => 0,
    }
}

static SHAPE: Shape = Shape {
    root: T,
    edges,
    evaluate: |_| 0,
    leaf: |node| Some(leaf_value(node)),
};

fn graph() -> Graph {
    Graph::new(&SHAPE)
}

/// Exhaustive minimax with the repetition rule, no table: the true value.
fn path_aware_value(game: &mut Graph) -> i32 {
    if game.ply() > 0 && game.draw(0).is_some() {
        return 0;
    }
    let mut moves = Edges::default();
    game.generate(&mut moves);
    if moves.as_ref().is_empty() {
        let NoMoves::Value(v) = game.no_moves() else {
            unreachable!()
        };
        return v;
    }
    let mut best = i32::MIN;
    for &m in moves.as_ref() {
        game.play(m);
        best = best.max(-path_aware_value(game));
        game.undo();
    }
    best
}

fn table_searcher(ghi: GhiMode) -> Searcher<Graph> {
    let config = SearchConfig {
        tt: true,
        ghi,
        ..SearchConfig::exact_bare()
    };
    Searcher::<Graph>::standalone(config, 1)
}

fn root_value(ghi: GhiMode) -> i32 {
    let result = table_searcher(ghi).search(&mut graph(), &Limits::depth(10), &mut Silent);
    result.score
}

#[test]
fn the_true_value_is_minus_five_by_s() {
    assert_eq!(path_aware_value(&mut graph()), -5);
}

#[test]
fn a_naive_table_gets_the_graph_history_interaction_wrong() {
    let value = root_value(GhiMode::Ignore);
    assert_eq!(
        value, 0,
        "the naive table reuses X = 0 from the path through P"
    );
}

#[test]
fn marked_path_dependent_entries_give_the_true_value() {
    assert_eq!(root_value(GhiMode::Mark), -5);
}

#[test]
fn without_a_table_the_search_is_right_too() {
    let mut searcher = Searcher::<Graph>::standalone(SearchConfig::exact_bare(), 1);
    let result = searcher.search(&mut graph(), &Limits::depth(10), &mut Silent);
    assert_eq!(result.score, -5);
}

#[test]
fn exact_path_signatures_give_the_true_value() {
    assert_eq!(root_value(GhiMode::Exact), -5);
}

/// Searching the same position twice. R's value rests on repeating P, a position below R
/// (R-P-X-Y-Z-P), so it holds on every path to R: `exact` stores it as an ordinary entry,
/// while `mark` flags it and refuses it in the second search, which then searches again.
#[test]
fn exact_keeps_the_path_dependent_values_mark_throws_away() {
    let second_search = |ghi: GhiMode| {
        let mut searcher = table_searcher(ghi);
        let first = searcher.search(&mut graph(), &Limits::depth(10), &mut Silent);
        assert_eq!(first.score, -5, "{ghi:?}, first search");
        let second = searcher.search(&mut graph(), &Limits::depth(10), &mut Silent);
        assert_eq!(second.score, -5, "{ghi:?}, second search");
        second.stats
    };
    let mark = second_search(GhiMode::Mark);
    let exact = second_search(GhiMode::Exact);
    assert!(mark.tt_path_refusals > 0, "mark refuses: {mark:?}");
    assert_eq!(
        exact.tt_path_refusals, 0,
        "exact refuses nothing: {exact:?}"
    );
    assert!(
        exact.total_nodes() < mark.total_nodes(),
        "exact {} nodes, mark {}",
        exact.total_nodes(),
        mark.total_nodes()
    );
}
