//! Harrier: a UCI chess engine.
//!
//! The binary's UCI loop and command-line tools sit on this library so that tests and
//! tools use exactly the code the engine plays with.

pub mod bench;
pub mod datagen;
pub mod engine;
pub mod epd;
pub mod eval;
pub mod moves;
pub mod perft;
pub mod random;
pub mod search;
pub mod uci;
pub mod value;
pub mod zobrist;
