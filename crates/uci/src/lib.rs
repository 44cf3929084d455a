//! Horizon UCI.
