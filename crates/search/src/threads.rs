//! Lazy SMP: several threads search the same root, sharing only the transposition table.
//! Each helper has its own ordering tables and starts one iteration deeper when its index
//! is odd (and with `smp_helper_skip` then steps two plies at a time), so the threads spread
//! over different depths; the main thread alone reports and obeys the limits. The line
//! played is the main thread's, or with `smp_best_thread` that of the thread with the
//! deepest completed iteration (as Ethereal and Stockfish choose). With `smp_helper_sync`
//! helpers keep above the main thread's completed depth (`SearchControl::main_depth`); with
//! `smp_helper_lmr` the odd helpers reduce late moves by another table.
//! With one thread there are no helpers and the search is deterministic.

use std::sync::Arc;

use crate::abdada::BusyMoves;
use crate::game::Game;
use crate::limits::Limits;
use crate::searcher::{Observer, SearchResult, Searcher, Silent, ThreadReport};

/// Stack size of search threads: recursion reaches `MAX_PLY` with move lists on the stack.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// Searches with `main` and every helper in `helpers` (which must share `main`'s table and
/// control). Returns the main thread's result (with `smp_best_thread`, the deepest
/// thread's), every thread's nodes and counters added, and a report per thread. The main
/// thread searches `game` itself (it comes back to the same position, its caches warmer);
/// each helper searches a copy.
pub fn search_smp<G: Game, O: Observer<G::Move>>(
    main: &mut Searcher<G>,
    helpers: &mut [Searcher<G>],
    game: &mut G,
    limits: &Limits,
    observer: &mut O,
) -> SearchResult<G::Move> {
    let control = main.control().clone();
    control.stop_helpers(false);
    control.set_main_depth(0);
    control.clear_helper_nodes();
    let helper_limits = Limits {
        depth: limits.depth,
        search_moves: limits.search_moves.clone(),
        ..Limits::default()
    };
    // A fresh table of busy moves per search: a stopped search leaves marks behind.
    let busy =
        (main.config.smp_defer && !helpers.is_empty()).then(|| Arc::new(BusyMoves::default()));
    main.busy.clone_from(&busy);
    let result = std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(helpers.len());
        for (index, helper) in helpers.iter_mut().enumerate() {
            helper.is_main = false;
            helper.config = main.config.clone();
            helper.busy.clone_from(&busy);
            let offset = (index as u32 + 1) % 2;
            if main.config.smp_helper_skip && offset == 1 {
                helper.config.depth_step = 2;
            }
            if offset == 1 && main.config.smp_helper_lmr != 0 {
                helper.config.lmr_base = (main.config.lmr_base + main.config.smp_helper_lmr).max(0);
            }
            // Counted only where the table really differs (the base cannot go below 0).
            let shifted_lmr = helper.config.lmr_base != main.config.lmr_base;
            let mut game = game.clone();
            let limits = &helper_limits;
            let handle = std::thread::Builder::new()
                .name(format!("horizon-helper-{}", index + 1))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut result = helper.run(&mut game, limits, &mut Silent, offset);
                    result.stats.smp_helper_lmr_searches += u64::from(shifted_lmr);
                    result
                });
            handles.push(handle);
        }
        let main_result = main.run(game, limits, observer, 0);
        control.stop_helpers(true);
        let helper_results: Vec<SearchResult<G::Move>> = handles
            .into_iter()
            .flatten()
            .filter_map(|handle| handle.join().ok())
            .collect();
        if helper_results.is_empty() {
            return main_result;
        }
        let choose = main.config.smp_best_thread && main.config.multipv == 1;
        combine(main_result, helper_results, choose)
    });
    main.busy = None;
    for helper in helpers.iter_mut() {
        helper.busy = None;
    }
    result
}

/// The main thread's result with every thread's nodes and counters added and a report per
/// thread; with `choose_deepest`, the line of the thread whose completed iteration is
/// deepest (equal depths: the higher score; full ties: the earlier thread, main first).
fn combine<M: Copy>(
    main: SearchResult<M>,
    helpers: Vec<SearchResult<M>>,
    choose_deepest: bool,
) -> SearchResult<M> {
    let at = |index: usize| {
        if index == 0 {
            &main
        } else {
            &helpers[index - 1]
        }
    };
    let mut chosen = 0;
    if choose_deepest {
        for index in 1..=helpers.len() {
            let (candidate, best) = (at(index), at(chosen));
            if candidate.best_move.is_some()
                && (candidate.depth, candidate.score) > (best.depth, best.score)
            {
                chosen = index;
            }
        }
    }
    let report = |result: &SearchResult<M>, index: usize| ThreadReport {
        depth: result.depth,
        score: result.score,
        nodes: result.stats.total_nodes(),
        elapsed: result.elapsed,
        chosen: index == chosen,
    };
    let mut threads = vec![report(&main, 0)];
    threads.extend(helpers.iter().enumerate().map(|(i, h)| report(h, i + 1)));
    let mut stats = main.stats.clone();
    for helper in &helpers {
        stats += &helper.stats;
    }
    let mut result = if chosen == 0 {
        main
    } else {
        stats.smp_helper_lines += 1;
        let mut helper = helpers.into_iter().nth(chosen - 1).expect("chosen helper");
        helper.elapsed = main.elapsed;
        helper
    };
    result.stats = stats;
    result.threads = threads;
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bound;
    use crate::searcher::Line;
    use crate::stats::SearchStats;
    use std::time::Duration;

    fn result(best: u8, depth: u32, score: i32, nodes: u64) -> SearchResult<u8> {
        SearchResult {
            best_move: (best != 0).then_some(best),
            ponder_move: None,
            score,
            depth,
            line_depth: depth,
            lines: vec![Line {
                score,
                bound: Bound::Exact,
                moves: if best != 0 { vec![best] } else { Vec::new() },
            }],
            stats: SearchStats {
                nodes,
                ..SearchStats::default()
            },
            elapsed: Duration::from_millis(u64::from(depth)),
            threads: Vec::new(),
        }
    }

    #[test]
    fn the_deepest_thread_is_chosen_only_when_asked() {
        let helpers = || vec![result(2, 9, 50, 10), result(3, 11, -20, 20)];
        let kept = combine(result(1, 10, 30, 5), helpers(), false);
        assert_eq!(kept.best_move, Some(1));
        assert_eq!(kept.stats.nodes, 35);
        assert_eq!(kept.stats.smp_helper_lines, 0);
        assert_eq!(kept.threads.len(), 3);
        assert!(kept.threads[0].chosen && !kept.threads[2].chosen);

        let deepest = combine(result(1, 10, 30, 5), helpers(), true);
        assert_eq!(deepest.best_move, Some(3));
        assert_eq!((deepest.depth, deepest.score), (11, -20));
        assert_eq!(deepest.lines[0].moves, vec![3]);
        assert_eq!(deepest.stats.nodes, 35);
        assert_eq!(deepest.stats.smp_helper_lines, 1);
        assert_eq!(
            deepest.elapsed,
            Duration::from_millis(10),
            "the main thread's time"
        );
        assert_eq!(
            deepest.threads.iter().map(|t| t.chosen).collect::<Vec<_>>(),
            [false, false, true]
        );
    }

    #[test]
    fn equal_depths_go_to_the_higher_score_then_to_the_main_thread() {
        let higher = combine(
            result(1, 10, 30, 1),
            vec![result(2, 10, 31, 1), result(3, 10, 31, 1)],
            true,
        );
        assert_eq!(higher.best_move, Some(2));
        let tie = combine(result(1, 10, 30, 1), vec![result(2, 10, 30, 1)], true);
        assert_eq!(tie.best_move, Some(1));
        // A helper stopped before its first iteration has no move to offer.
        let empty = combine(result(1, 10, 30, 1), vec![result(0, 12, 99, 1)], true);
        assert_eq!(empty.best_move, Some(1));
    }

    /// `SMPHelperLMR`: the odd helpers search with an LMR table shifted by the option, the
    /// even ones and the main thread with the configured table; each shifted search is
    /// counted.
    #[test]
    fn odd_helpers_search_with_a_shifted_lmr_table() {
        use crate::config::SearchConfig;
        use crate::random_tree::{RandomTree, TreeConfig};
        let config = SearchConfig {
            smp_helper_lmr: 100,
            ..SearchConfig::default()
        };
        let (base, divisor) = (config.lmr_base, config.lmr_divisor);
        let mut main = Searcher::<RandomTree>::standalone(config.clone(), 4);
        let mut helpers: Vec<Searcher<RandomTree>> = (0..3)
            .map(|_| Searcher::new(config.clone(), main.table().clone(), main.control().clone()))
            .collect();
        let mut game = RandomTree::new(TreeConfig {
            seed: 9,
            branching: 8,
            depth: 12,
            ..TreeConfig::default()
        });
        let limits = Limits::depth(7);
        let result = search_smp(&mut main, &mut helpers, &mut game, &limits, &mut Silent);
        assert!(result.best_move.is_some());
        assert_eq!(result.stats.smp_helper_lmr_searches, 2);
        assert!(main.lmr.built_for(base, divisor));
        let shifted: Vec<bool> = helpers
            .iter()
            .map(|h| h.lmr.built_for(base + 100, divisor))
            .collect();
        assert_eq!(shifted, [true, false, true]);
        assert!(helpers[1].lmr.built_for(base, divisor));

        // The base cannot go below 0: from 0, a negative shift leaves the table as it is,
        // and no helper search counts as shifted.
        let config = SearchConfig {
            lmr_base: 0,
            smp_helper_lmr: -200,
            ..SearchConfig::default()
        };
        let mut main = Searcher::<RandomTree>::standalone(config.clone(), 4);
        let mut helpers = vec![Searcher::new(
            config,
            main.table().clone(),
            main.control().clone(),
        )];
        let result = search_smp(&mut main, &mut helpers, &mut game, &limits, &mut Silent);
        assert_eq!(result.stats.smp_helper_lmr_searches, 0);
        assert!(helpers[0].lmr.built_for(0, divisor));
    }

    /// `SMPRootOrder` and `TTKeepDeeper`, exercised on one thread so that no scheduling can
    /// skip them: a helper (not the main thread) walks its root moves in reverse, counts each
    /// such root search and finds the same value; a searcher that meets a deeper entry of a
    /// later iteration in the shared table keeps it and counts that.
    #[test]
    fn helper_root_order_and_kept_deeper_entries_are_counted() {
        use crate::config::SearchConfig;
        use crate::random_tree::{RandomTree, TreeConfig};
        // Plain alpha-beta: its value does not depend on the move order.
        let config = SearchConfig {
            smp_root_order: true,
            tt_keep_deeper: true,
            ..SearchConfig::bare()
        };
        let tree = || {
            RandomTree::new(TreeConfig {
                seed: 11,
                branching: 6,
                depth: 10,
                ..TreeConfig::default()
            })
        };
        let limits = Limits::depth(5);
        let mut main = Searcher::<RandomTree>::standalone(config.clone(), 4);
        let alone = main.run(&mut tree(), &limits, &mut Silent, 0);
        assert_eq!(
            alone.stats.smp_root_reversed, 0,
            "the main thread keeps its order"
        );

        // A helper: every iteration with more than two root moves is walked in reverse, the
        // first move still first.
        let mut helper = Searcher::<RandomTree>::standalone(config.clone(), 4);
        helper.is_main = false;
        let reversed = helper.run(&mut tree(), &limits, &mut Silent, 0);
        assert!(
            reversed.stats.smp_root_reversed >= 4,
            "{}",
            reversed.stats.smp_root_reversed
        );
        assert_eq!(reversed.score, alone.score);

        // One searcher's deeper entry from a later iteration, met by another's shallower,
        // inexact result for the same position: kept, and counted by the one that met it.
        let game = tree();
        let store = |iteration, depth| crate::tt::Store {
            mv: 0,
            value: 10,
            eval: 0,
            depth,
            bound: Bound::Lower,
            iteration,
            flags: 0,
            path_signature: 0,
        };
        helper.store(&game, &store(6, 6));
        let mut behind = Searcher::new(config, helper.table().clone(), helper.control().clone());
        behind.store(&game, &store(3, 2));
        assert_eq!(behind.stats.tt_kept_deeper, 1);
        assert_eq!(behind.stats.tt_stores, 0);
    }

    /// `SMPHelperSync`: a helper starts above the main thread's completed depth, searches
    /// nothing once the main thread has reached the limit, and abandons an iteration that
    /// the main thread completes first.
    #[test]
    fn synced_helpers_keep_above_the_main_threads_depth() {
        use crate::config::SearchConfig;
        use crate::random_tree::{RandomTree, TreeConfig};
        let config = SearchConfig {
            smp_helper_sync: true,
            ..SearchConfig::default()
        };
        let helper = || {
            let mut helper = Searcher::<RandomTree>::standalone(config.clone(), 4);
            helper.is_main = false;
            helper
        };
        let tree = |branching, depth| {
            RandomTree::new(TreeConfig {
                seed: 5,
                branching,
                depth,
                ..TreeConfig::default()
            })
        };
        let depths = |result: &SearchResult<_>| -> Vec<u32> {
            result
                .stats
                .iteration_nodes
                .iter()
                .map(|&(d, _)| d)
                .collect()
        };

        // The main thread has completed depth 3 of 6: the helper begins at 4.
        let mut above = helper();
        above.control().set_main_depth(3);
        let result = above.run(&mut tree(6, 8), &Limits::depth(6), &mut Silent, 0);
        assert_eq!(depths(&result), [4, 5, 6]);
        assert_eq!(result.stats.smp_helper_jumps, 1);
        assert!(result.best_move.is_some());

        // The main thread reached the limit: nothing is left for the helper.
        let mut late = helper();
        late.control().set_main_depth(6);
        let result = late.run(&mut tree(6, 8), &Limits::depth(6), &mut Silent, 0);
        assert!(depths(&result).is_empty());

        // The main thread completes the depth the helper is in the middle of.
        let mut overtaken = helper();
        let control = overtaken.control().clone();
        let result = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                control.set_main_depth(30);
            });
            overtaken.run(&mut tree(30, 40), &Limits::depth(30), &mut Silent, 0)
        });
        assert_eq!(result.stats.smp_helper_abandoned, 1);
        assert!(
            result.depth < 30,
            "the helper stopped at the limit it was denied"
        );
    }
}
