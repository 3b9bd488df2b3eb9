//! The search worker: one thread that owns the searcher for the life of the engine and
//! takes jobs from a channel, as Stockfish's threads wait in their idle loop. The searcher
//! never changes hands; results and progress come back as events.
//!
//! Lazy SMP extends this: more workers, each with a searcher of its own over a shared
//! transposition table, take the same `Search` job, and the first worker's `Done` decides.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, unbounded};
use shakmaty::{Chess, Move, Position};

use super::searchers::{SearchMode, build};
use crate::perft::divide_until;
use crate::search::options::Setting;
use crate::search::{Bound, Progress, Report, Reporter, Score, SearchJob, SearchOutcome, Searcher, Signals};

/// Stack for the worker thread: positions are copied per ply (copy-make).
const WORKER_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Work for the worker, done in the order sent.
pub enum Job {
    /// Search to the job's limits; answered by progress events and `Done`.
    Search(SearchJob),
    /// Think silently after the search played this move, until the signals end it.
    ThinkIdle(Option<Move>),
    /// Count the leaves `depth` plies below `position`, per root move.
    Perft {
        /// The position counted from.
        position: Chess,
        /// Plies to count.
        depth: u32,
    },
    /// Forget the game (`ucinewgame`); answered by `Configured`.
    NewGame,
    /// Empty the searcher's memory; answered by `Configured`.
    Clear,
    /// Resize the searcher's memory to this many MB; answered by `Configured`.
    Resize(usize),
    /// Apply one of the searcher's options; answered by `Configured`.
    SetOption(Setting),
    /// Replace the searcher with one of `mode` (the old one's memory is freed first); if it
    /// does not fit, one of `previous` comes back. Answered by `Configured`.
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
    /// End the thread.
    Quit,
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

    /// Runs a configuration job and waits for its answer. Only called while no search or
    /// perft runs, so no other event can be pending.
    pub fn configure(&self, job: Job) -> Result<(), String> {
        self.send(job);
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
fn serve(mut searcher: Box<dyn Searcher>, signals: Arc<Signals>, inbox: &Receiver<Job>, outbox: &Sender<Event>) {
    let send = |event| {
        let _ = outbox.send(event);
    };
    for job in inbox {
        if !matches!(job, Job::ThinkIdle(_)) {
            signals.clear_rest();
        }
        match job {
            Job::Search(job) => send(Event::Done(search(&mut searcher, &job, outbox))),
            Job::ThinkIdle(played) => searcher.think_idle(played, &|| signals.stop_requested()),
            Job::Perft { position, depth } => {
                let stop = || signals.stop_requested();
                let total = divide_until(&position, depth, &stop, |m, count| send(Event::PerftMove(m, count)));
                send(Event::PerftDone(total));
            }
            Job::NewGame => {
                searcher.new_game();
                send(Event::Configured(Ok(())));
            }
            Job::Clear => {
                searcher.clear();
                send(Event::Configured(Ok(())));
            }
            Job::Resize(mb) => send(Event::Configured(searcher.resize(mb))),
            Job::SetOption((name, value)) => send(Event::Configured(searcher.set_option(name, value))),
            Job::Replace { mode, previous, hash_mb, settings } => {
                // The old searcher's memory goes before the new one's is taken.
                drop(searcher);
                let (replacement, result) = match build(mode, hash_mb, &settings, signals.clone()) {
                    Ok(replacement) => (replacement, Ok(())),
                    Err(reason) => (
                        build(previous, hash_mb, &settings, signals.clone())
                            .expect("the previous searcher fitted in memory a moment ago"),
                        Err(format!("{reason}; staying in the previous search mode")),
                    ),
                };
                searcher = replacement;
                send(Event::Configured(result));
            }
            Job::Quit => break,
        }
    }
}

/// Runs one search; a panic in the searcher costs its memory, never the game.
fn search(searcher: &mut Box<dyn Searcher>, job: &SearchJob, outbox: &Sender<Event>) -> SearchOutcome {
    let mut reporter = ChannelReporter(outbox.clone());
    catch_unwind(AssertUnwindSafe(|| searcher.search(job, &mut reporter))).unwrap_or_else(|_| {
        searcher.new_game();
        fallback_outcome(job)
    })
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
    SearchOutcome {
        best,
        ponder: None,
        report: Report {
            depth: 0,
            seldepth: 0,
            score: Score::Centipawns(0),
            bound: Bound::Exact,
            nodes: 0,
            elapsed: Duration::ZERO,
            hashfull: 0,
            pv: best.into_iter().collect(),
        },
    }
}
