//! The search over chess positions, compiled once.
//!
//! The search is generic (`Searcher<G: Game>`), and Rust compiles a generic function anew in
//! every crate that calls it with concrete types: the UCI crate and the binary (the tools)
//! each held a copy of `Searcher<Position>` and everything it calls, so a profile-guided build
//! profiled through `horizon bench` left the copy that games run without a profile
//! (`docs/speed.md`). Every caller goes through these two functions instead, so the copy is
//! this crate's, the same code in games, `bench`, EPD runs and self-play. The observer is
//! called once per iteration and root move, so its dynamic dispatch costs nothing per node.

use std::time::Duration;

use horizon_search::threads::search_smp;
use horizon_search::{Control, Iteration, Limits, Observer, SearchResult, Searcher};
use shakmaty::Move;

use crate::Position;

/// Passes a search's reports on to an observer behind a reference.
struct Forward<'a>(&'a mut dyn Observer<Move>);

impl Observer<Move> for Forward<'_> {
    fn iteration(&mut self, report: &Iteration<'_, Move>) -> Control {
        self.0.iteration(report)
    }

    fn root_move(&mut self, depth: u32, m: Move, number: usize, elapsed: Duration) {
        self.0.root_move(depth, m, number, elapsed);
    }
}

/// Lazy SMP search of `position` by `main` and `helpers`
/// ([`horizon_search::threads::search_smp`]). (`inline(never)` only states the intent:
/// a non-generic function is compiled here, whoever calls it.)
#[inline(never)]
pub fn search_threads(
    main: &mut Searcher<Position>,
    helpers: &mut [Searcher<Position>],
    position: &mut Position,
    limits: &Limits,
    observer: &mut dyn Observer<Move>,
) -> SearchResult<Move> {
    search_smp(main, helpers, position, limits, &mut Forward(observer))
}

/// One thread's search of `position` ([`Searcher::search`]).
#[inline(never)]
pub fn search_one(
    searcher: &mut Searcher<Position>,
    position: &mut Position,
    limits: &Limits,
    observer: &mut dyn Observer<Move>,
) -> SearchResult<Move> {
    searcher.search(position, limits, &mut Forward(observer))
}
