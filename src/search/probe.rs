//! The narrow interface between a best-first searcher and the depth-first search that
//! values its tips: probe a position within a window, read what the probes' table knows,
//! ask how the probes order moves. Alpha-beta implements it; the bandwidth searcher uses
//! it and knows nothing else of alpha-beta.

use std::sync::Arc;

use shakmaty::{Chess, Color, Move};

use super::syzygy::Syzygy;
use super::time::TimeManager;
use super::tt::TtHit;
use super::{Reporter, SearchJob, SearchOutcome, Signals};
use crate::eval::Evaluation;

/// What ends a probe besides the stop flag.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProbeLimits<'a> {
    /// A clock whose hard limit ends the probe.
    pub clock: Option<&'a TimeManager>,
    /// Nodes the probe may search.
    pub nodes: Option<u64>,
}

/// Makes a prober with a table of the given megabytes whose probes end when the given
/// signals ask the search to stop: how a best-first searcher gets its probers without
/// naming the searcher behind them.
pub type ProberFactory = Arc<dyn Fn(usize, Arc<Signals>) -> Result<Box<dyn Prober>, String> + Send + Sync>;

/// A depth-first searcher that values positions for another searcher.
pub trait Prober: Send {
    /// Values `pos` for its side to move: a quiescence search when `depth` is 0, else
    /// searches from depth 1 (or from the draft the table holds for `pos`) up to `depth`,
    /// the shallow ones ordering the moves of the deep one. `history` holds the keys of the
    /// positions before `pos` (for repetitions); mate values are relative to `pos`. A value
    /// at or below `window.0`, or at or above `window.1`, is a bound (fail-soft); a null
    /// window gets a cheaper scout search. `None` when the stop flag was set or one of
    /// `limits` was reached.
    fn probe(
        &mut self,
        pos: &Chess,
        history: &[u64],
        depth: u32,
        window: (i32, i32),
        limits: ProbeLimits,
    ) -> Option<i32>;

    /// Nodes searched by the last probe or root search.
    fn nodes(&self) -> u64;

    /// What the probes' table holds for the position with zobrist key `key`: after a probe
    /// of it, its value, draft, bound and best move.
    fn table_entry(&self, key: u64) -> Option<TtHit>;

    /// How promising the quiet move `m` of `side` looks to the probes' move ordering (its
    /// history): higher is better.
    fn quiet_move_score(&self, side: Color, m: Move) -> i32;

    /// How many plies less than `depth` the probes' search gives a principal-variation
    /// node's quiet move tried `searched`-th (from 0): its late-move reduction.
    fn late_move_reduction(&self, depth: u32, searched: usize) -> u32;

    /// Searches `job`'s root by iterative deepening on the budgets of `time`, reporting
    /// its iterations, and returns the move to play: its table then holds what a tree
    /// grown below the root will ask.
    fn search_root(&mut self, job: &SearchJob, reporter: &mut dyn Reporter, time: TimeManager) -> SearchOutcome;

    /// Probes full width (the minimax preset) or with the engine's selectivity.
    fn set_full_width(&mut self, full_width: bool);

    /// Starts a new search: the table's entries from earlier searches become the first to
    /// be replaced.
    fn new_search(&mut self);

    /// Forgets everything learnt in the game.
    fn new_game(&mut self);

    /// Gives the probes' table `mb` megabytes; on failure it keeps what it has.
    fn resize(&mut self, mb: usize) -> Result<(), String>;

    /// Probes these tablebases from now on (`None`: none).
    fn set_tablebases(&mut self, tables: Option<Syzygy>);

    /// Evaluates with `evaluation` from now on.
    fn set_evaluation(&mut self, evaluation: &Evaluation);

    /// The static evaluation of `pos` for its side to move, as the probes' leaves see it.
    fn evaluate(&mut self, pos: &Chess) -> i32;
}
