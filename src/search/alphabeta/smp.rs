//! Lazy SMP helpers: threads that live as long as the searcher, each with a worker of its
//! own, which search every job beside the main thread and share only the transposition
//! table with it. The main thread never waits for them to answer: it tells them to stop
//! and reads what they finished; they are waited for only before the next job.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

use crossbeam_channel::{Receiver, Sender, unbounded};

use super::presets::{Full, Minimax, Selectivity};
use super::shared::SharedState;
use super::worker::Worker;
use crate::eval::Evaluation;
use crate::search::syzygy::Syzygy;
use crate::search::{SearchJob, Signals, Silent};

/// Stack for a search thread: positions are copied per ply (copy-make).
pub const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// What a helper thread is asked to do.
enum HelperCommand {
    /// Search this job with this selectivity until stopped.
    Search(Box<SearchJob>, Selectivity),
    /// Forget what the searches taught (`ucinewgame`).
    NewGame,
    /// Probe these tablebases from now on.
    SetTablebases(Option<Syzygy>),
    /// Evaluate with this from now on.
    SetEvaluation(Evaluation),
}

/// One helper thread and the channels to it.
struct Helper {
    /// `None` once the helper is told to end.
    commands: Option<Sender<HelperCommand>>,
    done: Receiver<()>,
    thread: Option<JoinHandle<()>>,
}

impl Helper {
    /// Starts helper number `index` with a worker over `shared`, stopped by `signals`; the
    /// error says why the system would not start its thread.
    fn spawn(
        index: usize,
        shared: Arc<SharedState>,
        signals: Arc<Signals>,
        syzygy: Option<Syzygy>,
    ) -> Result<Helper, String> {
        let (commands, inbox) = unbounded::<HelperCommand>();
        let (finished, done) = unbounded();
        // Made here, so that memory runs short at the thread's start, not in it, where an
        // allocation that fails ends the process.
        let mut worker = Box::new(Worker::new(shared, index, signals));
        worker.syzygy = syzygy;
        let thread = thread::Builder::new()
            .name(format!("helper {index}"))
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                for command in inbox {
                    match command {
                        HelperCommand::Search(job, selectivity) => help(&mut worker, &job, selectivity),
                        HelperCommand::NewGame => worker.histories.clear(),
                        HelperCommand::SetTablebases(tables) => worker.syzygy = tables,
                        HelperCommand::SetEvaluation(evaluation) => worker.evaluator.set(&evaluation),
                    }
                    let _ = finished.send(());
                }
            })
            .map_err(|e| format!("cannot start search thread {} ({e})", index + 1))?;
        Ok(Helper { commands: Some(commands), done, thread: Some(thread) })
    }

    /// Sends `command`; its answer is waited for with [`Helper::wait`].
    fn send(&self, command: HelperCommand) {
        if let Some(commands) = &self.commands {
            let _ = commands.send(command);
        }
    }

    /// Waits until the helper has carried out its last command.
    fn wait(&self) {
        let _ = self.done.recv();
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        // Closing the channel ends the thread's loop.
        self.commands = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Searches one job on a helper; a panic costs the helper what it learnt, never the game
/// (the main thread's answer does not depend on it).
fn help(worker: &mut Worker, job: &SearchJob, selectivity: Selectivity) {
    let searched = catch_unwind(AssertUnwindSafe(|| match selectivity {
        Selectivity::Full => worker.iterate::<Full>(job, &mut Silent, None, 1),
        Selectivity::Minimax => worker.iterate::<Minimax>(job, &mut Silent, None, 1),
    }));
    if searched.is_err() {
        worker.histories.clear();
    }
}

/// The helpers of one searcher.
pub(super) struct HelperPool {
    helpers: Vec<Helper>,
    /// The helpers' own signals, under the engine's: they stop with the search they help,
    /// and by their own flag after it, which re-arming the engine's cannot clear.
    signals: Arc<Signals>,
    /// True while the helpers may still be finishing the last search.
    busy: bool,
}

impl HelperPool {
    /// `count` helpers (numbered from 1) over `shared`, stopping with `search_signals`; when
    /// the system will not start them all, the error says so and those started end.
    pub(super) fn new(
        count: usize,
        shared: &Arc<SharedState>,
        search_signals: &Arc<Signals>,
        syzygy: &Option<Syzygy>,
    ) -> Result<HelperPool, String> {
        let signals = Arc::new(Signals::under(search_signals.clone()));
        let helpers = (1..=count)
            .map(|index| Helper::spawn(index, shared.clone(), signals.clone(), syzygy.clone()))
            .collect::<Result<_, _>>()?;
        Ok(HelperPool { helpers, signals, busy: false })
    }

    /// The number of helpers.
    pub(super) fn len(&self) -> usize {
        self.helpers.len()
    }

    /// Starts every helper on `job`.
    pub(super) fn start(&mut self, job: &SearchJob, selectivity: Selectivity) {
        self.settle();
        if self.helpers.is_empty() {
            return;
        }
        self.signals.arm(false);
        for helper in &self.helpers {
            helper.send(HelperCommand::Search(Box::new(job.clone()), selectivity));
        }
        self.busy = true;
    }

    /// Tells the helpers to stop, without waiting for them.
    pub(super) fn stop(&self) {
        self.signals.request_stop();
    }

    /// Waits until the helpers have finished the last search.
    pub(super) fn settle(&mut self) {
        if self.busy {
            self.helpers.iter().for_each(Helper::wait);
            self.busy = false;
        }
    }

    /// Makes every helper forget what its searches taught.
    pub(super) fn new_game(&mut self) {
        self.broadcast(|| HelperCommand::NewGame);
    }

    /// Gives every helper these tablebases.
    pub(super) fn set_tablebases(&mut self, tables: &Option<Syzygy>) {
        self.broadcast(|| HelperCommand::SetTablebases(tables.clone()));
    }

    /// Makes every helper evaluate with `evaluation`.
    pub(super) fn set_evaluation(&mut self, evaluation: &Evaluation) {
        self.broadcast(|| HelperCommand::SetEvaluation(evaluation.clone()));
    }

    fn broadcast(&mut self, command: impl Fn() -> HelperCommand) {
        self.settle();
        self.helpers.iter().for_each(|helper| helper.send(command()));
        self.helpers.iter().for_each(Helper::wait);
    }
}
