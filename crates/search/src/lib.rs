//! Horizon's search core: alpha-beta with the enhancements of the literature, each
//! switchable at run time and counted. Game-agnostic: it searches any [`Game`].
//!
//! Where each technique lives:
//! - `search.rs`: the interior node (fail-soft alpha-beta, NegaScout/PVS, table probing)
//! - `driver.rs`: iterative deepening, the root, MultiPV; `aspiration.rs`: windows
//! - `tt.rs`: transposition table (in huge pages where possible: `large_pages.rs`); `ordering.rs`: staged move picker; `killers.rs`,
//!   `history.rs` (history with 2^d, d² or gravity updates, countermove),
//!   `continuation.rs` (continuation histories), `pv.rs` (PV and refutation table)
//! - `pruning.rs`: null move, late move reductions, reverse futility, razoring, futility,
//!   late move, SEE and history pruning; `probcut.rs`; `singular.rs` (singular extensions,
//!   multi-cut);
//!   `correction.rs` (correction history); `extensions.rs`; `quiescence.rs`
//! - `presearch.rs`: pre-searching; `etc.rs`: enhanced transposition cutoffs; `ghi.rs`:
//!   path-dependent values (graph history interaction: ignore, mark, exact);
//!   `tablebase.rs`: endgame-table results as bounds (`Game::table_outcome`)
//! - `threads.rs`: Lazy SMP, `abdada.rs` (its move deferral); `limits.rs`: limits and stopping; `config.rs`, `stats.rs`
//! - `random_tree.rs`: artificial game trees and reference negamax for tests

pub mod abdada;
mod aspiration;
pub mod config;
pub mod continuation;
pub mod correction;
pub mod driver;
mod etc;
mod extensions;
pub mod game;
mod ghi;
pub mod history;
pub mod killers;
mod large_pages;
pub mod limits;
pub mod ordering;
mod presearch;
mod probcut;
pub mod pruning;
pub mod pv;
mod quiescence;
pub mod random_tree;
pub mod score;
mod search;
pub mod searcher;
mod singular;
pub mod stats;
mod tablebase;
pub mod threads;
pub mod tt;

pub use config::{EvalKnowledge, EvalKnowledgeCounts, SearchConfig};
pub use game::{Draw, Game, NoMoves, TableOutcome};
pub use limits::{Limits, SearchControl};
pub use score::Bound;
pub use searcher::{Control, Iteration, Line, Observer, SearchResult, Searcher, Silent};
pub use stats::SearchStats;
pub use tt::TranspositionTable;
