//! The search worker: one thread that owns the searcher for the life of the engine and
//! takes jobs from a channel, as Stockfish's threads wait in their idle loop. The searcher
//! never changes hands; results and progress come back as events.
//!
//! With `Threads` above 1 the worker keeps Lazy SMP helpers: threads of their own, each
//! with a searcher that shares the worker's memory (its transposition table). They search
//! every job with the worker, silently, and stop with its search; the worker's own search
//! decides and answers at once. When it ends by itself, the helpers are stopped by a flag
//! of their own (the next `go` re-arms the engine's), and the worker waits for them before
//! its next job, so that no helper runs into it.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

use crossbeam_channel::{Receiver, Sender, unbounded};
use shakmaty::{Chess, Move, Position};

use super::searchers::{SearchMode, build};
use crate::perft::divide_until;
use crate::search::options::Setting;
use crate::search::syzygy::Syzygy;
use crate::search::tt::MIN_HASH_MB;
use crate::search::{Progress, Report, Reporter, SearchJob, SearchOutcome, Searcher, Signals};

/// Stack for the worker thread: positions are copied per ply (copy-make).
const WORKER_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Work for the worker, done in the order sent.
pub enum Job {
    /// Search to the job's limits; answered by progress events and `Done`.
    Search(Box<SearchJob>),
    /// Think silently after the search played this move (if the GUI allows pondering, as
    /// the flag says, or the searcher always thinks), until the signals end it.
    ThinkIdle(Option<Move>, bool),
    /// Count the leaves `depth` plies below `position`, per root move.
    Perft {
        /// The position counted from.
        position: Chess,
        /// Plies to count.
        depth: u32,
    },
    /// Change the searcher or its memory; answered by `Configured`.
    Configure(Change),
    /// End the thread.
    Quit,
}

/// A change to the searcher, made while no search runs.
pub enum Change {
    /// Forget the game (`ucinewgame`).
    NewGame,
    /// Empty the searcher's memory.
    Clear,
    /// Resize the searcher's memory to this many MB.
    Resize(usize),
    /// Apply one of the searcher's options.
    SetOption(Setting),
    /// Search with this many threads from now on.
    SetThreads(usize),
    /// Probe these tablebases from now on.
    SetTablebases(Option<Syzygy>),
    /// Replace the searcher with one of `mode` (the old one's memory is freed first); if it
    /// does not fit, one of `previous` comes back.
    Replace {
        /// The new mode.
        mode: SearchMode,
        /// The mode to fall back to.
        previous: SearchMode,
        /// Memory in MB.
        hash_mb: usize,
        /// Every searcher option set so far.
        settings: Vec<Setting>,
    },
}

/// What the worker sends back.
#[derive(Debug)]
pub enum Event {
    /// A searcher's progress.
    Progress(Progress),
    /// A search has ended.
    Done(SearchOutcome),
    /// Perft's count below one root move.
    PerftMove(Move, u64),
    /// Perft has ended: the total, or `None` when it was stopped.
    PerftDone(Option<u64>),
    /// A configuration job has been carried out, or why it was not.
    Configured(Result<(), String>),
}

/// The handle the engine keeps on its worker thread.
pub struct Worker {
    jobs: Sender<Job>,
    events: Receiver<Event>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the worker thread with `searcher`, whose stop flag is in `signals`.
    pub fn spawn(searcher: Box<dyn Searcher>, signals: Arc<Signals>) -> Worker {
        let (jobs, inbox) = unbounded();
        let (outbox, events) = unbounded();
        let thread = thread::Builder::new()
            .name("search".to_string())
            .stack_size(WORKER_STACK_BYTES)
            .spawn(move || serve(searcher, signals, &inbox, &outbox))
            .expect("the search thread starts");
        Worker { jobs, events, thread: Some(thread) }
    }

    /// The events the worker sends.
    pub fn events(&self) -> &Receiver<Event> {
        &self.events
    }

    /// Queues a job.
    pub fn send(&self, job: Job) {
        let _ = self.jobs.send(job);
    }

    /// Makes a change and waits for its answer. Only called while no search or perft
    /// runs, so no other event can be pending.
    pub fn configure(&self, change: Change) -> Result<(), String> {
        self.send(Job::Configure(change));
        loop {
            match self.events.recv() {
                Ok(Event::Configured(result)) => return result,
                Ok(_) => {}
                Err(_) => return Err("the search thread has ended".to_string()),
            }
        }
    }
}

impl Drop for Worker {
    /// Ends the thread once the jobs before `Quit` are done.
    fn drop(&mut self) {
        self.send(Job::Quit);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The worker's loop: one job at a time until `Quit` or until the engine hangs up.
fn serve(searcher: Box<dyn Searcher>, signals: Arc<Signals>, inbox: &Receiver<Job>, outbox: &Sender<Event>) {
    let send = |event| {
        let _ = outbox.send(event);
    };
    let mut host = Host { searcher, signals, threads: 1, tablebases: None };
    for job in inbox {
        if !matches!(job, Job::ThinkIdle(..)) {
            host.signals.clear_rest();
        }
        match job {
            Job::Search(job) => send(Event::Done(host.search(&job, &mut ChannelReporter(outbox.clone())))),
            Job::ThinkIdle(played, ponder) => {
                let signals = host.signals.clone();
                host.searcher.think_idle(played, ponder, &|| signals.stop_requested());
            }
            Job::Perft { position, depth } => {
                let stop = || host.signals.stop_requested();
                let total = divide_until(&position, depth, &stop, |m, count| send(Event::PerftMove(m, count)));
                send(Event::PerftDone(total));
            }
            Job::Configure(change) => send(Event::Configured(host.configure(change))),
            Job::Quit => break,
        }
    }
}

/// The searcher and what it was given, so that a replacement gets the same.
struct Host {
    searcher: Box<dyn Searcher>,
    signals: Arc<Signals>,
    threads: usize,
    tablebases: Option<Syzygy>,
}

impl Host {
    /// Runs one search; a panic in the searcher costs its memory, never the game.
    fn search(&mut self, job: &SearchJob, reporter: &mut dyn Reporter) -> SearchOutcome {
        let searcher = &mut self.searcher;
        catch_unwind(AssertUnwindSafe(|| searcher.search(job, reporter))).unwrap_or_else(|_| {
            searcher.new_game();
            reporter.report(Progress::Note("the search failed (an engine bug); playing a legal move".to_string()));
            fallback_outcome(job)
        })
    }

    /// Makes a change.
    fn configure(&mut self, change: Change) -> Result<(), String> {
        match change {
            Change::NewGame => {
                self.searcher.new_game();
                Ok(())
            }
            Change::Clear => {
                self.searcher.clear();
                Ok(())
            }
            Change::Resize(mb) => self.searcher.resize(mb),
            Change::SetOption((name, value)) => self.searcher.set_option(name, value),
            Change::SetThreads(count) => {
                self.searcher.set_threads(count)?;
                self.threads = count;
                Ok(())
            }
            Change::SetTablebases(tablebases) => {
                self.searcher.set_tablebases(tablebases.clone());
                self.tablebases = tablebases;
                Ok(())
            }
            Change::Replace { mode, previous, hash_mb, settings } => self.replace(mode, previous, hash_mb, &settings),
        }
    }

    /// Replaces the searcher with one of `mode`, freeing the old one's memory first.
    fn replace(
        &mut self,
        mode: SearchMode,
        previous: SearchMode,
        hash_mb: usize,
        settings: &[Setting],
    ) -> Result<(), String> {
        // A searcher that takes almost no memory holds the place while the new one is built.
        self.searcher = build(SearchMode::DEFAULT, MIN_HASH_MB, &[], self.signals.clone())
            .expect("the smallest searcher fits in memory");
        match build(mode, hash_mb, settings, self.signals.clone()) {
            Ok(replacement) => {
                self.searcher = replacement;
                self.searcher.set_tablebases(self.tablebases.clone());
                // A mode that searches on one thread keeps the setting for the others.
                let _ = self.searcher.set_threads(self.threads);
                Ok(())
            }
            Err(reason) => {
                self.searcher = build(previous, hash_mb, settings, self.signals.clone())
                    .expect("the previous searcher fitted in memory a moment ago");
                self.searcher.set_tablebases(self.tablebases.clone());
                let _ = self.searcher.set_threads(self.threads);
                Err(format!("{reason}; staying in the previous search mode"))
            }
        }
    }
}

/// Forwards a searcher's progress to the engine.
struct ChannelReporter(Sender<Event>);

impl Reporter for ChannelReporter {
    fn report(&mut self, progress: Progress) {
        let _ = self.0.send(Event::Progress(progress));
    }
}

/// Any legal move, for a search that failed.
fn fallback_outcome(job: &SearchJob) -> SearchOutcome {
    let best = job.root.legal_moves().first().copied();
    SearchOutcome { best, ponder: None, report: Report::new(0, 0, best.into_iter().collect()) }
}
