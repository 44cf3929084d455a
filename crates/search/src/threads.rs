//! Lazy SMP: several threads search the same root, sharing only the transposition table.
//! Each helper has its own ordering tables and starts one iteration deeper when its index
//! is odd, so the threads spread over different depths; the main thread alone reports and
//! decides the best move. With one thread there are no helpers and the search is
//! deterministic.

use crate::game::Game;
use crate::limits::Limits;
use crate::searcher::{Observer, SearchResult, Searcher, Silent};

/// Stack size of search threads: recursion reaches `MAX_PLY` with move lists on the stack.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// Searches with `main` and every helper in `helpers` (which must share `main`'s table and
/// control). Returns the main thread's result with every thread's nodes counted.
pub fn search_smp<G: Game, O: Observer<G::Move>>(
    main: &mut Searcher<G>,
    helpers: &mut [Searcher<G>],
    game: &G,
    limits: &Limits,
    observer: &mut O,
) -> SearchResult<G::Move> {
    let control = main.control().clone();
    control.stop_helpers(false);
    let helper_limits = Limits {
        depth: limits.depth,
        search_moves: limits.search_moves.clone(),
        ..Limits::default()
    };
    std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(helpers.len());
        for (index, helper) in helpers.iter_mut().enumerate() {
            helper.is_main = false;
            helper.config = main.config.clone();
            let mut game = game.clone();
            let limits = &helper_limits;
            let offset = (index as u32 + 1) % 2;
            let handle = std::thread::Builder::new()
                .name(format!("horizon-helper-{}", index + 1))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    helper.run(&mut game, limits, &mut Silent, offset)
                });
            handles.push(handle);
        }
        let mut game = game.clone();
        let mut result = main.run(&mut game, limits, observer, 0);
        control.stop_helpers(true);
        for handle in handles.into_iter().flatten() {
            if let Ok(helper_result) = handle.join() {
                result.stats += &helper_result.stats;
            }
        }
        result
    })
}
