//! Horizon's search core: alpha-beta with the enhancements of the literature, each
//! switchable at run time and counted. Game-agnostic: it searches any [`Game`].

pub mod game;
pub mod random_tree;
pub mod score;
pub mod tt;

pub use game::{Draw, Game, NoMoves};
pub use score::Bound;
