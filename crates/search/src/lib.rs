//! Horizon search core (game-agnostic).
