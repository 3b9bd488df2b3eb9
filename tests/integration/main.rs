//! The integration tests, one module per subject, built as one test binary: with a binary
//! per file, each file linked (and, in release, optimised at link time) the whole library
//! once more. `common` is the harness the modules share.
//!
//! The tests run on the threads of one process, so none changes the environment or the
//! current directory, and each file a test writes has a name no other test uses.

mod common;

mod analysis;
mod bandwidth;
mod bandwidth_chess;
mod bandwidth_uci;
mod bench_signature;
mod book;
mod command_line;
mod epd;
mod fuzz;
mod levels;
mod lifecycle;
mod mates;
mod minimax;
mod multipv;
mod network;
mod options;
mod perft;
mod repository;
mod search;
mod syzygy;
mod threads;
// The tune build's own checks: the tunables as UCI options and as SPSA input.
#[cfg(feature = "tune")]
mod tunables;
mod uci_protocol;
