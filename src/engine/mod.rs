//! The engine controller: owns the game, the options and the searcher, starts searches on
//! their own thread, prints their progress and decides when `bestmove` goes out.
//!
//! It runs on its own thread and never blocks while a search runs, so `isready`, `stop`
//! and `ponderhit` are answered at once.

pub mod game;
pub mod options;
pub mod searchers;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender, select, unbounded};
use shakmaty::{CastlingMode, Position};

use crate::moves::{parse_uci, uci_text};
use crate::perft::divide_until;
use crate::search::bandwidth::params::BandwidthParams;
use crate::search::{Limits, Progress, Reporter, SearchJob, SearchOutcome, Signals};
use crate::uci::output::Writer;
use game::Game;
use options::{DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, OptionChange, SearchMode, parse_change};
use searchers::ActiveSearcher;

/// The engine's name as `uci` reports it.
pub const NAME: &str = concat!("Harrier ", env!("CARGO_PKG_VERSION"));
/// The authors as `uci` reports them.
pub const AUTHOR: &str = "the Harrier developers";

/// Stack for the search thread: positions are copied per ply (copy-make).
const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// A command from the GUI, already checked for form (not yet against the game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`.
    IsReady,
    /// `setoption name <name> value <value>` (value empty when absent).
    SetOption {
        /// Option name as sent.
        name: String,
        /// Value as sent.
        value: String,
    },
    /// `register ...`.
    Register,
    /// `ucinewgame`.
    NewGame,
    /// `position startpos|fen <fen> [moves ...]`.
    Position {
        /// The FEN, `None` for the start position.
        fen: Option<String>,
        /// Move texts, lower-cased.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(GoCommand),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`, or the end of input.
    Quit,
    /// An empty line.
    Empty,
    /// A line that is not a valid command, with the reason.
    Invalid(String),
}

/// The parts of a `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// Limits (searchmoves still empty: they are resolved against the game).
    pub limits: Limits,
    /// `searchmoves` as sent.
    pub searchmoves: Vec<String>,
    /// `go perft N`.
    pub perft: Option<u32>,
    /// Problems found while parsing, reported as `info string`.
    pub warnings: Vec<String>,
}

/// What the search and idle-thinking threads send back.
enum SearchEvent {
    Progress(Progress),
    Done(ActiveSearcher, SearchOutcome),
    /// Idle thinking has ended; the searcher comes home.
    Rested(ActiveSearcher),
}

/// Forwards a searcher's progress to the controller.
struct ChannelReporter(Sender<SearchEvent>);

impl Reporter for ChannelReporter {
    fn report(&mut self, progress: Progress) {
        let _ = self.0.send(SearchEvent::Progress(progress));
    }
}

/// A search that has been started and whose `bestmove` has not gone out yet.
struct RunningSearch {
    thread: JoinHandle<()>,
    /// `go infinite` or `go ponder` before `ponderhit`: `bestmove` waits for the GUI.
    hold: bool,
    /// The result, when the search ended while `hold` was set.
    finished: Option<SearchOutcome>,
    infinite: bool,
    mode: CastlingMode,
}

/// The controller.
pub struct Engine {
    out: Writer,
    signals: Arc<Signals>,
    game: Game,
    /// The active searcher; `None` while a search or idle thinking has it.
    searcher: Option<ActiveSearcher>,
    running: Option<RunningSearch>,
    /// Bandwidth mode's silent expansion between commands (`AlwaysThink`).
    idle: Option<JoinHandle<()>>,
    /// A `go perft` counting on its own thread.
    perft: Option<JoinHandle<()>>,
    /// Set by the perft thread once its count is complete, just before it prints the
    /// total: a GUI that has read the total may send `go` before the thread has exited.
    perft_counted: Arc<AtomicBool>,
    events_tx: Sender<SearchEvent>,
    events_rx: Receiver<SearchEvent>,
    hash_mb: usize,
    move_overhead: u64,
    chess960: bool,
    bandwidth: BandwidthParams,
    always_think: bool,
    debug: bool,
}

impl Engine {
    /// An engine writing to `out`.
    pub fn new(out: Writer) -> Engine {
        let signals = Arc::new(Signals::default());
        let hash_mb = DEFAULT_HASH_MB as usize;
        let bandwidth = BandwidthParams::default();
        let searcher = ActiveSearcher::new(SearchMode::AlphaBeta, hash_mb, bandwidth, signals.clone())
            .expect("the default hash table fits in memory");
        let (events_tx, events_rx) = unbounded();
        Engine {
            out,
            signals,
            game: Game::default(),
            searcher: Some(searcher),
            running: None,
            idle: None,
            perft: None,
            perft_counted: Arc::new(AtomicBool::new(false)),
            events_tx,
            events_rx,
            hash_mb,
            move_overhead: DEFAULT_MOVE_OVERHEAD_MS as u64,
            chess960: false,
            bandwidth,
            always_think: true,
            debug: false,
        }
    }

    /// Serves commands until `quit` or until the sender hangs up.
    pub fn run(mut self, commands: Receiver<Command>) {
        loop {
            select! {
                recv(commands) -> command => {
                    // Stamped before idle thinking is woken: a search's clock runs from
                    // the moment its `go` arrived.
                    let arrived = Instant::now();
                    let command = command.unwrap_or(Command::Quit);
                    if command == Command::Quit {
                        break;
                    }
                    // Idle thinking yields to every command but `isready`.
                    if command != Command::IsReady {
                        self.wake();
                    }
                    self.handle(command, arrived);
                }
                recv(self.events_rx) -> event => {
                    if let Ok(event) = event {
                        self.on_search_event(event);
                    }
                }
            }
        }
        self.shut_down();
    }

    fn castling_mode(&self) -> CastlingMode {
        if self.chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard }
    }

    fn handle(&mut self, command: Command, arrived: Instant) {
        match command {
            Command::Uci => self.out.identify(NAME, AUTHOR, &options::declared()),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.out.ready(),
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::Register => self.out.info_string("registration is not needed"),
            Command::NewGame => {
                if let Some(searcher) = self.idle_searcher("ucinewgame") {
                    searcher.new_game();
                    self.game = Game::default();
                }
            }
            Command::Position { fen, moves } => self.set_position(fen.as_deref(), &moves),
            Command::Go(go) => self.go(go, arrived),
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit(),
            Command::Empty => {}
            Command::Invalid(reason) => self.out.info_string(&format!("{reason}; ignored")),
            Command::Quit => unreachable!("quit ends the loop"),
        }
    }

    /// The searcher, when no search is running; otherwise says why `what` is ignored.
    fn idle_searcher(&mut self, what: &str) -> Option<&mut ActiveSearcher> {
        if self.busy() {
            self.out.info_string(&format!("{what} ignored: a search is running (send stop first)"));
            return None;
        }
        self.searcher.as_mut()
    }

    /// Ends idle thinking and takes the searcher back (within a tip's expansion).
    fn wake(&mut self) {
        let Some(thread) = self.idle.take() else { return };
        self.signals.request_stop();
        while self.searcher.is_none() {
            match self.events_rx.recv() {
                Ok(SearchEvent::Rested(searcher)) => self.searcher = Some(searcher),
                Ok(_) => {}
                Err(_) => break,
            }
        }
        let _ = thread.join();
    }

    /// After a bandwidth search: walk the tree down our move and keep expanding it, without
    /// a word, until the next command.
    fn start_idle_thinking(&mut self, best: Option<shakmaty::Move>) {
        if !self.always_think || !matches!(self.searcher, Some(ActiveSearcher::Bandwidth(_))) {
            return;
        }
        let Some(ActiveSearcher::Bandwidth(mut bandwidth)) = self.searcher.take() else {
            unreachable!("checked just above");
        };
        if let Some(best) = best {
            bandwidth.advance(&[best]);
        }
        self.signals.arm(false);
        let signals = self.signals.clone();
        let events = self.events_tx.clone();
        let thread = thread::Builder::new()
            .name("idle".to_string())
            .spawn(move || {
                bandwidth.think_until(|| signals.stop_requested());
                let _ = events.send(SearchEvent::Rested(ActiveSearcher::Bandwidth(bandwidth)));
            })
            .expect("the idle thread starts");
        self.idle = Some(thread);
    }

    /// Applies a change of the bandwidth settings to the searcher when it is that mode's.
    fn update_bandwidth(&mut self, change: impl FnOnce(&mut BandwidthParams)) {
        change(&mut self.bandwidth);
        let params = self.bandwidth;
        if let Some(ActiveSearcher::Bandwidth(bandwidth)) = self.idle_searcher("a bandwidth option")
            && let Err(reason) = bandwidth.set_params(params)
        {
            self.out.info_string(&reason);
        }
    }

    fn set_option(&mut self, name: &str, value: &str) {
        let change = match parse_change(name, value) {
            Ok(change) => change,
            Err(reason) => {
                self.out.info_string(&format!("{reason}; ignored"));
                return;
            }
        };
        match change {
            OptionChange::Hash(mb) => {
                let Some(searcher) = self.idle_searcher("setoption Hash") else { return };
                match searcher.resize(mb) {
                    Ok(()) => self.hash_mb = mb,
                    Err(reason) => {
                        let kept = self.hash_mb;
                        self.out.info_string(&format!("{reason}; keeping {kept} MB"));
                    }
                }
            }
            OptionChange::ClearHash => {
                if let Some(searcher) = self.idle_searcher("Clear Hash") {
                    searcher.clear_hash();
                }
            }
            OptionChange::Threads | OptionChange::Ponder(_) => {}
            OptionChange::MoveOverhead(ms) => self.move_overhead = ms,
            OptionChange::SearchMode(mode) => self.set_search_mode(mode),
            OptionChange::Chess960(on) => self.chess960 = on,
            OptionChange::Band(band) => self.update_bandwidth(|p| p.band = band),
            OptionChange::DepthPenalty(penalty) => self.update_bandwidth(|p| p.depth_penalty = penalty),
            OptionChange::TipProbeDepth(depth) => self.update_bandwidth(|p| p.tip_probe_depth = depth),
            OptionChange::StrictHarris(on) => self.update_bandwidth(|p| p.strict_harris = on),
            OptionChange::AlwaysThink(on) => self.always_think = on,
        }
        if self.debug {
            self.out.info_string(&format!("option {name} set to {value}"));
        }
    }

    /// Replaces the searcher with one of `mode` (the old one's memory is freed first).
    fn set_search_mode(&mut self, mode: SearchMode) {
        let hash_mb = self.hash_mb;
        let (params, signals) = (self.bandwidth, self.signals.clone());
        let Some(searcher) = self.idle_searcher("setoption SearchMode") else { return };
        if searcher.mode() == mode {
            return;
        }
        let previous = searcher.mode();
        self.searcher = None;
        let replacement = ActiveSearcher::new(mode, hash_mb, params, signals.clone()).or_else(|reason| {
            self.out.info_string(&format!("{reason}; staying in the previous search mode"));
            ActiveSearcher::new(previous, hash_mb, params, signals)
        });
        match replacement {
            Ok(searcher) => self.searcher = Some(searcher),
            Err(reason) => panic!("the searcher fitted in memory a moment ago: {reason}"),
        }
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
        let mut notes = Vec::new();
        match Game::from_command(fen, moves, self.castling_mode(), &mut notes) {
            Ok(game) => {
                for note in notes {
                    self.out.info_string(&note);
                }
                self.game = game;
            }
            Err(reason) => self.out.info_string(&format!("position rejected: {reason}; keeping the previous position")),
        }
    }

    /// True while a search or a perft runs.
    fn busy(&mut self) -> bool {
        let counted = self.perft_counted.load(Ordering::Acquire);
        if self.perft.as_ref().is_some_and(|t| counted || t.is_finished()) {
            // A counted perft has only its last two lines to print: wait for them.
            let _ = self.perft.take().map(JoinHandle::join);
        }
        self.running.is_some() || self.perft.is_some()
    }

    fn go(&mut self, go: GoCommand, arrived: Instant) {
        if self.busy() {
            self.out.info_string("go ignored: a search is already running");
            return;
        }
        for warning in &go.warnings {
            self.out.info_string(warning);
        }
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        let position = self.game.position().clone();
        let mut limits = go.limits;
        for text in &go.searchmoves {
            match parse_uci(&position, text) {
                Some(m) => limits.searchmoves.push(m),
                None => self.out.info_string(&format!("searchmoves: {text} is not legal here; ignored")),
            }
        }
        let hold = limits.ponder || limits.infinite;
        let infinite = limits.infinite;
        let mode = position.castles().mode();
        self.signals.arm(limits.ponder);
        let job = SearchJob {
            root: position,
            history: self.game.earlier_keys().to_vec(),
            limits,
            move_overhead: self.move_overhead,
            started: arrived,
        };
        let mut searcher = self.searcher.take().expect("no search is running, so the searcher is home");
        if let ActiveSearcher::Bandwidth(bandwidth) = &mut searcher {
            let kept = bandwidth.prepare(&job);
            // The nodes below the root: a bare root carries nothing.
            let reused = if kept { bandwidth.nodes_in_tree().saturating_sub(1) } else { 0 };
            self.out.info_string(&format!("reused {reused} nodes"));
        }
        let events = self.events_tx.clone();
        let thread = thread::Builder::new()
            .name("search".to_string())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let mut reporter = ChannelReporter(events.clone());
                let outcome =
                    catch_unwind(AssertUnwindSafe(|| searcher.search(&job, &mut reporter))).unwrap_or_else(|_| {
                        // A bug in the search must not cost the game: play any legal move.
                        searcher.new_game();
                        fallback_outcome(&job)
                    });
                let _ = events.send(SearchEvent::Done(searcher, outcome));
            })
            .expect("the search thread starts");
        self.running = Some(RunningSearch { thread, hold, finished: None, infinite, mode });
    }

    fn stop(&mut self) {
        if let Some(perft) = self.perft.take() {
            // The count looks at the flag every few hundred thousand leaves: a short wait.
            self.signals.request_stop();
            let _ = perft.join();
        }
        let Some(running) = self.running.as_mut() else { return };
        self.signals.request_stop();
        running.hold = false;
        if let Some(outcome) = running.finished.take() {
            self.finish(outcome);
        }
    }

    fn ponderhit(&mut self) {
        let Some(running) = self.running.as_mut() else { return };
        if !self.signals.is_pondering() {
            return;
        }
        self.signals.ponderhit();
        running.hold = running.infinite;
        if !running.hold
            && let Some(outcome) = running.finished.take()
        {
            self.finish(outcome);
        }
    }

    fn on_search_event(&mut self, event: SearchEvent) {
        // Idle thinking that ran out of work (a proven or exhausted root, a frozen full tree)
        // rests on its own while no search runs: take the searcher home, or `wake` would
        // wait for it forever.
        if let SearchEvent::Rested(searcher) = event {
            self.searcher = Some(searcher);
            return;
        }
        let Some(running) = self.running.as_mut() else { return };
        match event {
            SearchEvent::Progress(Progress::Iteration(report)) => self.out.report(&report, running.mode),
            SearchEvent::Progress(Progress::CurrentMove { depth, mv, number }) => {
                self.out.current_move(depth, mv, number, running.mode)
            }
            SearchEvent::Rested(_) => unreachable!("handled above"),
            SearchEvent::Done(searcher, outcome) => {
                self.searcher = Some(searcher);
                if running.hold {
                    running.finished = Some(outcome);
                } else {
                    self.finish(outcome);
                }
            }
        }
    }

    /// Sends the final `info` and `bestmove`, and forgets the search.
    fn finish(&mut self, outcome: SearchOutcome) {
        let Some(running) = self.running.take() else { return };
        let _ = running.thread.join();
        if let Some(ActiveSearcher::Bandwidth(bandwidth)) = &self.searcher {
            let s = bandwidth.last_summary();
            self.out.info_string(&format!(
                "bandwidth: {} expansions, {} tips revalued, {} probe nodes, tip look-ahead {}, tree {} nodes",
                s.expansions,
                s.refreshed,
                s.probe_nodes,
                s.look_ahead,
                bandwidth.nodes_in_tree()
            ));
        }
        self.out.report(&outcome.report, running.mode);
        self.out.best_move(outcome.best, outcome.ponder, running.mode);
        self.start_idle_thinking(outcome.best);
    }

    /// `go perft N`: move counts per root move, then the total, counted on a thread of
    /// its own so that `isready` and `stop` are still answered.
    fn perft(&mut self, depth: u32) {
        let position = self.game.position().clone();
        let out = self.out.clone();
        let signals = self.signals.clone();
        signals.arm(false);
        let counted = Arc::new(AtomicBool::new(false));
        self.perft_counted = counted.clone();
        let thread = thread::Builder::new()
            .name("perft".to_string())
            .spawn(move || {
                let mode = position.castles().mode();
                let stop = || signals.stop_requested();
                let print = |m, count| out.line(&format!("{}: {count}", uci_text(m, mode)));
                let Some(total) = divide_until(&position, depth, &stop, print) else {
                    out.info_string("perft stopped");
                    return;
                };
                counted.store(true, Ordering::Release);
                out.line("");
                out.line(&format!("Nodes searched: {total}"));
            })
            .expect("the perft thread starts");
        self.perft = Some(thread);
    }

    /// `quit`: stops a running search and, as Stockfish does, still sends its `bestmove`.
    fn shut_down(&mut self) {
        self.wake();
        if let Some(perft) = self.perft.take() {
            self.signals.request_stop();
            let _ = perft.join();
        }
        if let Some(running) = self.running.as_mut() {
            self.signals.request_stop();
            running.hold = false;
            match running.finished.take() {
                Some(outcome) => self.finish(outcome),
                None => {
                    while self.running.is_some() {
                        match self.events_rx.recv() {
                            Ok(event) => self.on_search_event(event),
                            Err(_) => break,
                        }
                    }
                }
            }
        }
        // Finishing the search may have started idle thinking: end it too.
        self.wake();
    }
}

/// Any legal move, for a search that failed.
fn fallback_outcome(job: &SearchJob) -> SearchOutcome {
    let best = job.root.legal_moves().first().copied();
    SearchOutcome {
        best,
        ponder: None,
        report: crate::search::Report {
            depth: 0,
            seldepth: 0,
            score: crate::search::Score::Centipawns(0),
            bound: crate::search::Bound::Exact,
            nodes: 0,
            elapsed: std::time::Duration::ZERO,
            hashfull: 0,
            pv: best.into_iter().collect(),
        },
    }
}
