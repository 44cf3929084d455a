//! Horizon's UCI front-end: options, protocol loop, engine controller.

pub mod options;
