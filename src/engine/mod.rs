//! The engine controller: owns the game, the options and the searcher, starts searches on
//! their own thread, prints their progress and decides when `bestmove` goes out.
//!
//! It runs on its own thread and never blocks while a search runs, so `isready`, `stop`
//! and `ponderhit` are answered at once.

pub mod game;
pub mod options;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

use crossbeam_channel::{Receiver, Sender, select, unbounded};
use shakmaty::{CastlingMode, Position};

use crate::moves::{parse_uci, uci_text};
use crate::perft::perft_until;
use crate::search::alphabeta::AlphaBeta;
use crate::search::{Limits, Progress, Reporter, SearchJob, SearchOutcome, Signals};
use crate::uci::output::Writer;
use game::Game;
use options::{DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, OptionChange, parse_change};

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

/// What the search thread sends back.
enum SearchEvent {
    Progress(Progress),
    Done(Box<AlphaBeta>, SearchOutcome),
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
    searcher: Option<Box<AlphaBeta>>,
    running: Option<RunningSearch>,
    /// A `go perft` counting on its own thread.
    perft: Option<JoinHandle<()>>,
    events_tx: Sender<SearchEvent>,
    events_rx: Receiver<SearchEvent>,
    hash_mb: usize,
    move_overhead: u64,
    chess960: bool,
    debug: bool,
}

impl Engine {
    /// An engine writing to `out`.
    pub fn new(out: Writer) -> Engine {
        let signals = Arc::new(Signals::default());
        let hash_mb = DEFAULT_HASH_MB as usize;
        let searcher = AlphaBeta::new(hash_mb, signals.clone()).expect("the default hash table fits in memory");
        let (events_tx, events_rx) = unbounded();
        Engine {
            out,
            signals,
            game: Game::default(),
            searcher: Some(Box::new(searcher)),
            running: None,
            perft: None,
            events_tx,
            events_rx,
            hash_mb,
            move_overhead: DEFAULT_MOVE_OVERHEAD_MS as u64,
            chess960: false,
            debug: false,
        }
    }

    /// Serves commands until `quit` or until the sender hangs up.
    pub fn run(mut self, commands: Receiver<Command>) {
        loop {
            select! {
                recv(commands) -> command => {
                    let command = command.unwrap_or(Command::Quit);
                    if command == Command::Quit {
                        break;
                    }
                    self.handle(command);
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

    fn handle(&mut self, command: Command) {
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
            Command::Go(go) => self.go(go),
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit(),
            Command::Empty => {}
            Command::Invalid(reason) => self.out.info_string(&format!("{reason}; ignored")),
            Command::Quit => unreachable!("quit ends the loop"),
        }
    }

    /// The searcher, when no search is running; otherwise says why `what` is ignored.
    fn idle_searcher(&mut self, what: &str) -> Option<&mut AlphaBeta> {
        if self.busy() {
            self.out.info_string(&format!("{what} ignored: a search is running (send stop first)"));
            return None;
        }
        self.searcher.as_deref_mut()
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
                match searcher.resize_hash(mb) {
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
            OptionChange::SearchMode(_) => {}
            OptionChange::Chess960(on) => self.chess960 = on,
        }
        if self.debug {
            self.out.info_string(&format!("option {name} set to {value}"));
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
        if self.perft.as_ref().is_some_and(|t| t.is_finished()) {
            let _ = self.perft.take().map(JoinHandle::join);
        }
        self.running.is_some() || self.perft.is_some()
    }

    fn go(&mut self, go: GoCommand) {
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
            castling_mode: mode,
        };
        let mut searcher = self.searcher.take().expect("no search is running, so the searcher is home");
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
        let Some(running) = self.running.as_mut() else { return };
        match event {
            SearchEvent::Progress(Progress::Iteration(report)) => self.out.report(&report, running.mode),
            SearchEvent::Progress(Progress::CurrentMove { depth, mv, number }) => {
                self.out.current_move(depth, mv, number, running.mode)
            }
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
        self.out.report(&outcome.report, running.mode);
        self.out.best_move(outcome.best, outcome.ponder, running.mode);
    }

    /// `go perft N`: move counts per root move, then the total, counted on a thread of
    /// its own so that `isready` and `stop` are still answered.
    fn perft(&mut self, depth: u32) {
        let position = self.game.position().clone();
        let out = self.out.clone();
        let signals = self.signals.clone();
        signals.arm(false);
        let thread = thread::Builder::new()
            .name("perft".to_string())
            .spawn(move || {
                let mode = position.castles().mode();
                let stop = || signals.stop_requested();
                let mut total = 0;
                for m in position.legal_moves() {
                    let mut child = position.clone();
                    child.play_unchecked(m);
                    let Some(count) = perft_until(&child, depth - 1, &stop) else {
                        out.info_string("perft stopped");
                        return;
                    };
                    total += count;
                    out.line(&format!("{}: {count}", uci_text(m, mode)));
                }
                out.line("");
                out.line(&format!("Nodes searched: {total}"));
            })
            .expect("the perft thread starts");
        self.perft = Some(thread);
    }

    /// `quit`: stops a running search and, as Stockfish does, still sends its `bestmove`.
    fn shut_down(&mut self) {
        if let Some(perft) = self.perft.take() {
            self.signals.request_stop();
            let _ = perft.join();
        }
        if self.running.is_none() {
            return;
        }
        self.signals.request_stop();
        if let Some(running) = self.running.as_mut() {
            running.hold = false;
            if let Some(outcome) = running.finished.take() {
                self.finish(outcome);
                return;
            }
        }
        while self.running.is_some() {
            match self.events_rx.recv() {
                Ok(event) => self.on_search_event(event),
                Err(_) => break,
            }
        }
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
