//! The search thread: one thread that owns the searcher for the life of the engine and
//! takes jobs from a channel, as Stockfish's threads wait in their idle loop. The searcher
//! never changes hands; results and progress come back as events. (With `Threads` above 1
//! the alpha-beta searcher runs its own Lazy SMP helper threads, `search::alphabeta::smp`.)

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

use crossbeam_channel::{Receiver, Sender, unbounded};
use shakmaty::{Chess, Move, Position};

use super::searchers::{SearchMode, build};
use crate::perft::divide_until;
use crate::search::alphabeta::SEARCH_STACK_BYTES;
use crate::search::syzygy::Syzygy;
use crate::search::tt::MIN_HASH_MB;
use crate::search::{Progress, Report, Reporter, SearchJob, SearchOutcome, SearchSettings, Searcher, Signals};

/// Work for the search thread, done in the order sent.
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
    /// Forget everything learnt (`ucinewgame`, `Clear Hash`).
    NewGame,
    /// Resize the searcher's memory to this many MB.
    Resize(usize),
    /// Apply the searchers' settings.
    Search(SearchSettings),
    /// Search with this many threads from now on.
    Threads(usize),
    /// Probe these tablebases from now on.
    Tablebases(Option<Syzygy>),
    /// Replace the searcher with one of `mode` (the old one's memory is freed first), set
    /// up as given; if it does not fit, one of `previous` comes back.
    Replace {
        /// The new mode.
        mode: SearchMode,
        /// The mode to fall back to.
        previous: SearchMode,
        /// Memory in MB.
        hash_mb: usize,
        /// The searchers' settings.
        search: SearchSettings,
        /// Search threads.
        threads: usize,
        /// Tablebases to probe.
        tablebases: Option<Syzygy>,
    },
}

/// What the search thread sends back.
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
    /// A configuration job has been carried out, with notes on settings the searcher
    /// cannot honour; or why it was not.
    Configured(Result<Vec<String>, String>),
}

/// The handle the engine keeps on its search thread.
pub struct SearchThread {
    jobs: Sender<Job>,
    events: Receiver<Event>,
    thread: Option<JoinHandle<()>>,
}

impl SearchThread {
    /// Starts the search thread with `searcher`, whose stop flag is in `signals`.
    pub fn spawn(searcher: Box<dyn Searcher>, signals: Arc<Signals>) -> SearchThread {
        let (jobs, inbox) = unbounded();
        let (outbox, events) = unbounded();
        let thread = thread::Builder::new()
            .name("search".to_string())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || serve(searcher, signals, &inbox, &outbox))
            .expect("the search thread starts");
        SearchThread { jobs, events, thread: Some(thread) }
    }

    /// The events the search thread sends.
    pub fn events(&self) -> &Receiver<Event> {
        &self.events
    }

    /// Queues a job.
    pub fn send(&self, job: Job) {
        let _ = self.jobs.send(job);
    }

    /// Makes a change and waits for its answer. Only called while no search or perft
    /// runs, so no other event can be pending.
    pub fn configure(&self, change: Change) -> Result<Vec<String>, String> {
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

impl Drop for SearchThread {
    /// Ends the thread once the jobs before `Quit` are done.
    fn drop(&mut self) {
        self.send(Job::Quit);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The search thread's loop: one job at a time until `Quit` or until the engine hangs up.
fn serve(searcher: Box<dyn Searcher>, signals: Arc<Signals>, inbox: &Receiver<Job>, outbox: &Sender<Event>) {
    let send = |event| {
        let _ = outbox.send(event);
    };
    let mut host = Host { searcher, signals };
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

/// The searcher, on the search thread.
struct Host {
    searcher: Box<dyn Searcher>,
    signals: Arc<Signals>,
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

    /// Makes a change: notes on what the searcher cannot honour, or why it failed.
    fn configure(&mut self, change: Change) -> Result<Vec<String>, String> {
        let searcher = &mut self.searcher;
        match change {
            Change::NewGame => searcher.new_game(),
            Change::Resize(mb) => searcher.resize(mb)?,
            Change::Search(settings) => return Ok(searcher.configure(&settings)),
            Change::Threads(count) => return searcher.set_threads(count).map(|note| note.into_iter().collect()),
            Change::Tablebases(tablebases) => searcher.set_tablebases(tablebases),
            Change::Replace { mode, previous, hash_mb, search, threads, tablebases } => {
                return self.replace((mode, previous), hash_mb, &search, threads, tablebases);
            }
        }
        Ok(Vec::new())
    }

    /// Replaces the searcher with one of `mode` (else `previous`) set up as given, freeing
    /// the old one's memory first.
    fn replace(
        &mut self,
        (mode, previous): (SearchMode, SearchMode),
        hash_mb: usize,
        search: &SearchSettings,
        threads: usize,
        tablebases: Option<Syzygy>,
    ) -> Result<Vec<String>, String> {
        // A searcher that takes almost no memory holds the place while the new one is built.
        self.searcher = build(SearchMode::DEFAULT, MIN_HASH_MB, self.signals.clone())
            .expect("the smallest searcher fits in memory");
        let (searcher, failure) = match build(mode, hash_mb, self.signals.clone()) {
            Ok(searcher) => (searcher, None),
            Err(reason) => {
                let searcher = build(previous, hash_mb, self.signals.clone())
                    .expect("the previous searcher fitted in memory a moment ago");
                (searcher, Some(format!("{reason}; staying in the previous search mode")))
            }
        };
        self.searcher = searcher;
        self.searcher.set_tablebases(tablebases);
        let mut notes = self.searcher.configure(search);
        match self.searcher.set_threads(threads) {
            Ok(note) => notes.extend(note),
            Err(reason) => notes.push(format!("{reason}; searching on one thread")),
        }
        match failure {
            Some(reason) => Err(reason),
            None => Ok(notes),
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
