//! The default searcher: iterative deepening over a negamax alpha-beta search with
//! principal variation search, a transposition table, quiescence search, killer, counter
//! move and history move ordering, and the usual selective pruning; Lazy SMP over more
//! threads.
//!
//! [`AlphaBeta`] is what the engine drives: its settings, the state its threads share
//! ([`shared`]), the main thread's [`worker`] and the helpers ([`smp`]). The search itself
//! is written once, for a [`Preset`] of selectivity chosen at compile time.

mod check;
mod correction;
pub mod history;
mod iterate;
mod level_play;
pub mod movepick;
mod negamax;
pub mod params;
pub mod presets;
mod quiescence;
mod root;
pub mod see;
mod shared;
mod smp;
mod stack;
mod timing;
mod tip_prober;
mod worker;

use std::sync::Arc;

use crate::random::SplitMix;
use crate::search::level::Level;
use crate::search::syzygy::Syzygy;
use crate::search::time::TimeManager;
use crate::search::tt::MIN_HASH_MB;
use crate::search::{Reporter, SearchJob, SearchOutcome, SearchSettings, Searcher, Signals};
use presets::{Full, Minimax, Preset, Selectivity};
use shared::SharedState;
use smp::HelperPool;
pub use smp::SEARCH_STACK_BYTES;
pub use tip_prober::alpha_beta_probers;
use worker::Worker;

/// A search running this long starts printing `currmove` lines and aspiration bounds.
pub(super) const VERBOSE_AFTER_MS: u128 = 1000;

/// The alpha-beta searcher: its settings, the tables its threads share, and the threads.
pub struct AlphaBeta {
    /// Which compiled search runs.
    selectivity: Selectivity,
    /// How many principal variations a search finds and reports (`MultiPV`).
    multi_pv: usize,
    /// The transposition table's size in MB.
    hash_mb: usize,
    /// The engine's stop and ponder flags.
    signals: Arc<Signals>,
    /// What the threads share.
    shared: Arc<SharedState>,
    /// The main thread's worker: it runs on the thread that calls [`Searcher::search`].
    main: Box<Worker>,
    /// The Lazy SMP helpers (none with one thread).
    helpers: HelperPool,
    /// A playing level below full strength, if any.
    level: Option<Level>,
    /// Draws a level's move choices.
    rng: SplitMix,
}

impl AlphaBeta {
    /// A one-thread searcher with a table of `hash_mb` megabytes and `selectivity`,
    /// listening to `signals`.
    pub fn new(hash_mb: usize, selectivity: Selectivity, signals: Arc<Signals>) -> Result<AlphaBeta, String> {
        let shared = Arc::new(SharedState::new(hash_mb, 1)?);
        let main = Box::new(Worker::new(shared.clone(), 0, signals.clone()));
        let helpers = HelperPool::new(0, &shared, &signals, &None)?;
        // Games at a level should differ: the clock seeds the choices.
        let seed =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |t| t.as_nanos() as u64);
        let rng = SplitMix::new(seed);
        Ok(AlphaBeta { selectivity, multi_pv: 1, hash_mb, signals, shared, main, helpers, level: None, rng })
    }

    /// Nodes searched by the main thread in the last (or running) search or probe.
    pub fn nodes(&self) -> u64 {
        self.main.nodes
    }

    /// Runs a search of `job` with the preset `P` (helpers, if any, search with the
    /// searcher's own selectivity) and returns the move to play.
    pub fn search_with<P: Preset>(&mut self, job: &SearchJob, reporter: &mut dyn Reporter) -> SearchOutcome {
        if let Some(level) = self.level {
            return self.search_at_level::<P>(job, reporter, level);
        }
        let time = TimeManager::new(&job.limits, shakmaty::Position::turn(&job.root), job.move_overhead, job.started);
        self.search_on::<P>(job, reporter, time, self.multi_pv)
    }

    /// Runs a search of `job` for `lines` principal variations on the budgets of `time`:
    /// the helpers start beside the main thread and are stopped, not waited for, when it
    /// ends; a helper's deeper result may be the answer (see
    /// [`SharedState::better_helper_result`]).
    fn search_on<P: Preset>(
        &mut self,
        job: &SearchJob,
        reporter: &mut dyn Reporter,
        time: TimeManager,
        lines: usize,
    ) -> SearchOutcome {
        self.helpers.settle();
        self.shared.tt.new_search();
        self.shared.reset_progress();
        self.helpers.start(job, self.selectivity);
        let outcome = self.main.iterate::<P>(job, reporter, Some(time), lines);
        self.helpers.stop();
        if self.helpers.len() == 0 || lines > 1 {
            return outcome;
        }
        self.main.answer_from_best_thread(job, outcome)
    }

    /// Replaces the shared state with one of `hash_mb` megabytes for `threads` threads,
    /// freeing the old table first; the helpers are started anew over it. On failure the
    /// searcher is rebuilt as it was (its table emptied).
    fn rebuild(&mut self, hash_mb: usize, threads: usize) -> Result<(), String> {
        let before = self.shared.thread_count();
        self.helpers = HelperPool::new(0, &self.shared, &self.signals, &None)?;
        let placeholder = Arc::new(SharedState::new(MIN_HASH_MB, 1)?);
        self.shared = placeholder.clone();
        self.main.shared = placeholder;
        let rebuilt = SharedState::new(hash_mb, threads).or_else(|reason| {
            // The old size fitted a moment ago.
            SharedState::new(self.hash_mb, threads).map_err(|_| reason.clone())?;
            Err(reason)
        });
        let shared = match rebuilt {
            Ok(shared) => {
                self.hash_mb = hash_mb;
                Arc::new(shared)
            }
            Err(reason) => {
                self.restore(threads);
                return Err(reason);
            }
        };
        if let Err(reason) = self.install(shared, threads) {
            self.restore(before);
            return Err(reason);
        }
        Ok(())
    }

    /// Rebuilds the shared state at the current size for `threads` threads after a failed
    /// change; for one thread if even those will not start.
    fn restore(&mut self, threads: usize) {
        for count in [threads, 1] {
            if let Ok(shared) = SharedState::new(self.hash_mb, count)
                && self.install(Arc::new(shared), count).is_ok()
            {
                return;
            }
        }
    }

    /// Searches over `shared` with `threads` threads: the main one and new helpers.
    fn install(&mut self, shared: Arc<SharedState>, threads: usize) -> Result<(), String> {
        self.shared = shared.clone();
        self.main.shared = shared;
        self.helpers = HelperPool::new(threads - 1, &self.shared, &self.signals, &self.main.syzygy)?;
        self.helpers.set_evaluation(&self.main.evaluator.evaluation());
        Ok(())
    }
}

impl Searcher for AlphaBeta {
    fn search(&mut self, job: &SearchJob, reporter: &mut dyn Reporter) -> SearchOutcome {
        match self.selectivity {
            Selectivity::Full => self.search_with::<Full>(job, reporter),
            Selectivity::Minimax => self.search_with::<Minimax>(job, reporter),
        }
    }

    /// Forgets everything learned: table, killers, histories, counter moves, corrections.
    fn new_game(&mut self) {
        self.helpers.new_game();
        self.shared.tt.clear();
        self.main.histories.clear();
    }

    fn resize(&mut self, mb: usize) -> Result<(), String> {
        self.helpers.settle();
        self.rebuild(mb, self.shared.thread_count())
    }

    /// `MultiPV` and the evaluation; the bandwidth settings are not alpha-beta's.
    fn configure(&mut self, settings: &SearchSettings) -> Vec<String> {
        self.multi_pv = settings.multi_pv;
        self.level = settings.level;
        self.helpers.set_evaluation(&settings.evaluation);
        self.main.evaluator.set(&settings.evaluation);
        Vec::new()
    }

    fn set_tablebases(&mut self, tablebases: Option<Syzygy>) {
        self.helpers.set_tablebases(&tablebases);
        self.main.syzygy = tablebases;
    }

    /// Lazy SMP: `threads - 1` helpers beside the main thread, over a new table.
    fn set_threads(&mut self, threads: usize) -> Result<Option<String>, String> {
        self.helpers.settle();
        if threads.max(1) == self.shared.thread_count() {
            return Ok(None);
        }
        self.rebuild(self.hash_mb, threads.max(1)).map(|()| None)
    }
}
