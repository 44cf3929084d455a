//! A search stopped inside an iteration (time or node limit) plays a move of that iteration
//! only if the move's last search there raised alpha, and reports that move's own score.
//!
//! Root moves A, B and C (White to move at the root):
//!
//! ```text
//! A: a line of single moves worth +10 at every depth
//! B: the reply, then Black has no move and is mated (3 plies); -50 until depth 4 sees it
//! C: a line of single moves worth -20 at every depth
//! ```
//! At depth 4, A (best so far) is searched first, B fails high, the aspiration window
//! opens, and B is searched again first and found to mate. A and C are then searched with
//! the window at B's mate, and mate distance pruning makes them return exactly that bound.
//! A search stopped in C once played A with B's mate score: A had been best in the first
//! window of the same depth, and its fail-low bound tied with B's score.

mod common;

use common::{Edge, Graph, Shape};
use horizon_search::config::{Algorithm, SearchConfig};
use horizon_search::score::mate_in;
use horizon_search::{Bound, Limits, Searcher, Silent};

const ROOT: usize = 0;
const A: usize = 1;
const B: usize = 2;
const C: usize = 3;
/// The ply after which B's line leaves Black without a move.
const B_REPLY: usize = 8;
const B_MATED: usize = 9;

fn edges(node: usize) -> &'static [usize] {
    match node {
        ROOT => &[A, B, C],
        A => &[4],
        4 => &[5],
        5 => &[6],
        6 => &[7],
        B => &[B_REPLY],
        B_REPLY => &[B_MATED],
        C => &[10],
        10 => &[11],
        11 => &[12],
        12 => &[13],
        _ => &[],
    }
}

fn evaluate(node: usize) -> i32 {
    match node {
        A | 4..=7 => 10,
        B | B_REPLY | B_MATED => -50,
        _ => -20,
    }
}

static SHAPE: Shape = Shape {
    root: ROOT,
    edges,
    evaluate,
    leaf: |node| (node != B_MATED).then(|| evaluate(node)),
};

/// A root move's value at a depth: what a full-width search to that depth returns.
fn value(root_move: usize, depth: u32) -> i32 {
    match root_move {
        A => 10,
        B if depth >= 4 => mate_in(3),
        B => -50,
        C => -20,
        _ => unreachable!("not a root move"),
    }
}

fn config() -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::Pvs,
        fail_soft: true,
        aspiration: true,
        mate_distance_pruning: true,
        ..SearchConfig::exact_bare()
    }
}

#[test]
fn b_mates_at_depth_four() {
    let mut searcher = Searcher::<Graph>::standalone(config(), 1);
    let result = searcher.search(&mut Graph::new(&SHAPE), &Limits::depth(6), &mut Silent);
    assert_eq!(result.best_move, Some(Edge::to(B)));
    assert_eq!(result.score, mate_in(3));
}

#[test]
fn every_stop_plays_a_move_with_its_own_score() {
    let full = Searcher::<Graph>::standalone(config(), 1)
        .search(&mut Graph::new(&SHAPE), &Limits::depth(6), &mut Silent)
        .stats
        .total_nodes();
    let mut kept = 0;
    for nodes in 1..=full {
        let limits = Limits {
            depth: Some(6),
            ..Limits::nodes(nodes)
        };
        let mut searcher = Searcher::<Graph>::standalone(config(), 1);
        let result = searcher.search(&mut Graph::new(&SHAPE), &limits, &mut Silent);
        let line = &result.lines[0];
        let best = result.best_move.expect("a move");
        let root_move = usize::from(best.0) - 1;
        let depth = result.line_depth;
        let truth = value(root_move, depth);
        let context = format!(
            "{nodes} nodes: root move {root_move} at depth {depth} (completed {}), score {} ({:?}), value {truth}",
            result.depth, line.score, line.bound
        );
        assert_eq!(line.moves.first(), Some(&best), "{context}");
        match line.bound {
            Bound::Exact => assert_eq!(line.score, truth, "{context}"),
            Bound::Lower => assert!(truth >= line.score, "{context}"),
            Bound::Upper => panic!("a fail-low bound played: {context}"),
        }
        kept += usize::from(depth > result.depth);
    }
    assert!(kept > 0, "no stop kept a move of a cut-short iteration");
}
