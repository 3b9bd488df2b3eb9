//! The engine controller: owns the game, the options and the search worker, and decides
//! when `bestmove` goes out. Its methods never wait for a search, so `isready`, `stop` and
//! `ponderhit` are answered at once; the front end calls them and feeds back the worker's
//! events. It writes through [`Output`] and knows nothing of the text protocol.

pub mod book;
pub mod game;
pub mod options;
pub mod searchers;
pub mod worker;

use std::sync::Arc;
use std::time::Instant;

use crossbeam_channel::Receiver;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use crate::eval::wdl;
use crate::moves::{parse_uci, uci_text};
use crate::search::options::Setting;
use crate::search::syzygy::Syzygy;
use crate::search::{Limits, Progress, Report, SearchJob, SearchOutcome, Signals};
use book::{Book, BookMove};
use game::Game;
use options::{DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, OptionChange, parse_change};
use searchers::SearchMode;
use worker::{Change, Event, Job, Worker};

/// The engine's name as `uci` reports it.
pub const NAME: &str = concat!("Harrier ", env!("CARGO_PKG_VERSION"));
/// The authors as `uci` reports them.
pub const AUTHOR: &str = "the Harrier developers";

/// Where the engine's messages go; the UCI writer implements it.
pub trait Output {
    /// A message for the user (`info string`).
    fn info_string(&self, text: &str);
    /// A search report (`info depth ... pv ...`).
    fn report(&self, report: &Report, mode: CastlingMode);
    /// The root move being searched.
    fn current_move(&self, depth: u32, mv: Move, number: u32, mode: CastlingMode);
    /// The move to play and the reply expected; `None` when there is no legal move.
    fn best_move(&self, best: Option<Move>, ponder: Option<Move>, mode: CastlingMode);
    /// Perft's count below one root move.
    fn perft_move(&self, mv: Move, count: u64, mode: CastlingMode);
    /// Perft's total.
    fn perft_total(&self, total: u64);
}

/// The Syzygy options as set.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SyzygySettings {
    path: String,
    probe_depth: i32,
    probe_limit: usize,
    rule50: bool,
}

impl Default for SyzygySettings {
    fn default() -> SyzygySettings {
        SyzygySettings {
            path: String::new(),
            probe_depth: options::DEFAULT_SYZYGY_PROBE_DEPTH as i32,
            probe_limit: options::MAX_SYZYGY_PIECES as usize,
            rule50: true,
        }
    }
}

/// What the worker is doing for the engine.
enum Task {
    /// Nothing, or idle thinking that has already been asked to end.
    None,
    /// A search whose `bestmove` has not gone out yet.
    Search(RunningSearch),
    /// A `go perft` count, printed in this castling mode.
    Perft(CastlingMode),
    /// Idle thinking after a search, until the next command.
    Thinking,
}

/// A search that has been started and whose `bestmove` has not gone out yet.
struct RunningSearch {
    /// `go infinite` or `go ponder` before `ponderhit`: `bestmove` waits for the GUI.
    hold: bool,
    /// The result, when the search ended while `hold` was set.
    finished: Option<SearchOutcome>,
    infinite: bool,
    mode: CastlingMode,
    /// Material at the root, in pawns, for the win-rate model; `None` unless `UCI_ShowWDL`.
    wdl_material: Option<u32>,
}

/// The controller.
pub struct Engine {
    out: Box<dyn Output>,
    signals: Arc<Signals>,
    worker: Worker,
    task: Task,
    game: Game,
    search_mode: SearchMode,
    hash_mb: usize,
    move_overhead: u64,
    chess960: bool,
    /// Reports carry `wdl W D L` (`UCI_ShowWDL`).
    show_wdl: bool,
    /// The GUI analyses (`UCI_AnalyseMode`): tablebases choose no root moves.
    analyse_mode: bool,
    /// The GUI may send `go ponder` (the `Ponder` option): thinking on the opponent's time
    /// is welcome.
    ponder: bool,
    /// The Syzygy options as set, and the tables they gave.
    syzygy: SyzygySettings,
    tablebases: Option<Syzygy>,
    /// Play from the opening book (`OwnBook`).
    own_book: bool,
    /// The opening book `BookFile` names, loaded.
    book: Option<Book>,
    /// Every searcher option set so far, the latest value of each; a new searcher gets them.
    searcher_settings: Vec<Setting>,
    debug: bool,
}

impl Engine {
    /// An engine writing to `out`, with its worker thread started.
    pub fn new(out: Box<dyn Output>) -> Engine {
        let signals = Arc::new(Signals::default());
        let hash_mb = DEFAULT_HASH_MB as usize;
        let search_mode = SearchMode::DEFAULT;
        let searcher = searchers::build(search_mode, hash_mb, &[], signals.clone())
            .expect("the default hash table fits in memory");
        Engine {
            out,
            worker: Worker::spawn(searcher, signals.clone()),
            signals,
            task: Task::None,
            game: Game::default(),
            search_mode,
            hash_mb,
            move_overhead: DEFAULT_MOVE_OVERHEAD_MS as u64,
            chess960: false,
            ponder: false,
            analyse_mode: false,
            show_wdl: false,
            syzygy: SyzygySettings::default(),
            tablebases: None,
            own_book: false,
            book: None,
            searcher_settings: Vec::new(),
            debug: false,
        }
    }

    /// The worker's events; each goes to [`Engine::on_event`].
    pub fn events(&self) -> Receiver<Event> {
        self.worker.events().clone()
    }

    /// True while a search or a perft runs (until its last line is out).
    pub fn is_busy(&self) -> bool {
        matches!(self.task, Task::Search(_) | Task::Perft(_))
    }

    /// Ends idle thinking: every command but `isready` interrupts it.
    pub fn end_idle_thinking(&mut self) {
        if matches!(self.task, Task::Thinking) {
            self.signals.request_rest();
            self.task = Task::None;
        }
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        self.game.position()
    }

    /// `debug on|off`.
    pub fn set_debug(&mut self, on: bool) {
        self.debug = on;
    }

    fn castling_mode(&self) -> CastlingMode {
        if self.chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard }
    }

    /// Runs a configuration job on the worker when no search runs; otherwise says why
    /// `what` is ignored. `Err` holds the worker's reason for refusing.
    fn configure(&mut self, what: &str, change: Change) -> Option<Result<(), String>> {
        if self.is_busy() {
            self.out.info_string(&format!("{what} ignored: a search is running (send stop first)"));
            return None;
        }
        Some(self.worker.configure(change))
    }

    /// `ucinewgame`.
    pub fn new_game(&mut self) {
        if let Some(result) = self.configure("ucinewgame", Change::NewGame) {
            self.report_failure(result);
            self.game = Game::default();
        }
    }

    fn report_failure(&self, result: Result<(), String>) {
        if let Err(reason) = result {
            self.out.info_string(&reason);
        }
    }

    /// `setoption name <name> value <value>`.
    pub fn set_option(&mut self, name: &str, value: &str) {
        let change = match parse_change(name, value) {
            Ok(change) => change,
            Err(reason) => {
                self.out.info_string(&format!("{reason}; ignored"));
                return;
            }
        };
        match change {
            OptionChange::Hash(mb) => {
                if let Some(result) = self.configure("setoption Hash", Change::Resize(mb)) {
                    match result {
                        Ok(()) => self.hash_mb = mb,
                        Err(reason) => self.out.info_string(&format!("{reason}; keeping {} MB", self.hash_mb)),
                    }
                }
            }
            OptionChange::ClearHash => {
                if let Some(result) = self.configure("Clear Hash", Change::Clear) {
                    self.report_failure(result);
                }
            }
            OptionChange::Threads(count) => {
                if let Some(result) = self.configure("setoption Threads", Change::SetThreads(count)) {
                    self.report_failure(result);
                }
            }
            OptionChange::Ponder(on) => self.ponder = on,
            OptionChange::AnalyseMode(on) => self.analyse_mode = on,
            OptionChange::Opponent => {}
            OptionChange::ShowWdl(on) => self.show_wdl = on,
            OptionChange::MoveOverhead(ms) => self.move_overhead = ms,
            OptionChange::SearchMode(mode) => self.set_search_mode(mode),
            OptionChange::Chess960(on) => self.chess960 = on,
            OptionChange::SyzygyPath(path) => self.set_tablebases(SyzygySettings { path, ..self.syzygy.clone() }),
            OptionChange::SyzygyProbeDepth(probe_depth) => {
                self.set_tablebases(SyzygySettings { probe_depth, ..self.syzygy.clone() })
            }
            OptionChange::Syzygy50MoveRule(rule50) => {
                self.set_tablebases(SyzygySettings { rule50, ..self.syzygy.clone() })
            }
            OptionChange::SyzygyProbeLimit(probe_limit) => {
                self.set_tablebases(SyzygySettings { probe_limit, ..self.syzygy.clone() })
            }
            OptionChange::OwnBook(on) => self.own_book = on,
            OptionChange::BookFile(path) => self.set_book(&path),
            OptionChange::Searcher(setting) => self.set_searcher_option(setting),
        }
        if self.debug {
            self.out.info_string(&format!("option {name} set to {value}"));
        }
    }

    /// Records a searcher option and applies it when the active searcher declares it.
    fn set_searcher_option(&mut self, setting: Setting) {
        if self.is_busy() {
            self.out.info_string(&format!("setoption {} ignored: a search is running (send stop first)", setting.0));
            return;
        }
        if self.search_mode.declares(setting.0) {
            let result = self.worker.configure(Change::SetOption(setting.clone()));
            if let Err(reason) = result {
                self.out.info_string(&format!("{reason}; ignored"));
                return;
            }
        }
        self.searcher_settings.retain(|(name, _)| *name != setting.0);
        self.searcher_settings.push(setting);
    }

    /// Loads the tables of `settings` (again only when the path changed) and hands them to
    /// the searcher.
    fn set_tablebases(&mut self, settings: SyzygySettings) {
        if self.is_busy() {
            self.out.info_string("setoption Syzygy ignored: a search is running (send stop first)");
            return;
        }
        let SyzygySettings { ref path, probe_depth, probe_limit, rule50 } = settings;
        let tablebases = match (&self.tablebases, *path == self.syzygy.path) {
            (Some(loaded), true) => Some(loaded.with_settings(probe_depth, probe_limit, rule50)),
            (None, true) if !path.is_empty() => return self.syzygy = settings,
            _ => match Syzygy::load(path, probe_depth, probe_limit, rule50) {
                Ok(Some(tables)) => {
                    self.out.info_string(&format!("Syzygy tablebases up to {} pieces", tables.max_pieces()));
                    Some(tables)
                }
                Ok(None) if path.is_empty() => {
                    self.out.info_string("no Syzygy tablebases");
                    None
                }
                Ok(None) => {
                    self.out.info_string(&format!("no Syzygy tables found in {path}"));
                    None
                }
                Err(reason) => {
                    self.out.info_string(&format!("{reason}; keeping the previous tablebases"));
                    return;
                }
            },
        };
        if let Err(reason) = self.worker.configure(Change::SetTablebases(tablebases.clone())) {
            self.out.info_string(&reason);
            return;
        }
        self.tablebases = tablebases;
        self.syzygy = settings;
    }

    /// Loads the book at `path` (none for the empty path); a book that cannot be used
    /// leaves the previous one in place. Searches never read the book, so this may happen
    /// while one runs.
    fn set_book(&mut self, path: &str) {
        if path.is_empty() {
            self.book = None;
            self.out.info_string("no opening book");
            return;
        }
        match Book::load(path) {
            Ok(book) => {
                self.out.info_string(&format!("opening book {path}: {} entries", book.entry_count()));
                self.book = Some(book);
            }
            Err(reason) => {
                let kept = if self.book.is_some() { "keeping the previous opening book" } else { "no opening book" };
                self.out.info_string(&format!("{reason}; {kept}"));
            }
        }
    }

    /// The book's move for the current position, if `go` is to play one: with `OwnBook`
    /// on, for a move of a game (on the clock or a movetime), not for analysis, pondering,
    /// a mate search, fixed depth or nodes, or `searchmoves`.
    fn book_move(&mut self, limits: &Limits, searchmoves: &[String]) -> Option<BookMove> {
        let position = self.game.position();
        let clock = match position.turn() {
            Color::White => limits.wtime,
            Color::Black => limits.btime,
        };
        let game_move = (limits.movetime.is_some() || clock.is_some())
            && !(limits.infinite || limits.ponder || self.analyse_mode)
            && limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.mate.is_none()
            && searchmoves.is_empty();
        if !(self.own_book && game_move) {
            return None;
        }
        self.book.as_mut()?.choose(position)
    }

    /// Replaces the searcher with one of `mode`.
    fn set_search_mode(&mut self, mode: SearchMode) {
        if self.is_busy() {
            self.out.info_string("setoption SearchMode ignored: a search is running (send stop first)");
            return;
        }
        if mode == self.search_mode {
            return;
        }
        let change = Change::Replace {
            mode,
            previous: self.search_mode,
            hash_mb: self.hash_mb,
            settings: self.searcher_settings.clone(),
        };
        match self.worker.configure(change) {
            Ok(()) => self.search_mode = mode,
            Err(reason) => self.out.info_string(&reason),
        }
    }

    /// `position startpos|fen <fen> [moves ...]`: applied whole or not at all.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
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

    /// `go` with these limits and `searchmoves` as sent; the clock runs from `arrived`.
    pub fn go(&mut self, mut limits: Limits, searchmoves: &[String], arrived: Instant) {
        if self.is_busy() {
            self.out.info_string("go ignored: a search is already running");
            return;
        }
        if let Some(BookMove { mv, weight, total }) = self.book_move(&limits, searchmoves) {
            let mode = self.game.position().castles().mode();
            self.out.info_string(&format!("book move {} (weight {weight} of {total})", uci_text(mv, mode)));
            self.out.best_move(Some(mv), None, mode);
            return;
        }
        let position = self.game.position().clone();
        for text in searchmoves {
            match parse_uci(&position, text) {
                Some(m) => limits.searchmoves.push(m),
                None => self.out.info_string(&format!("searchmoves: {text} is not legal here; ignored")),
            }
        }
        // In a tablebase ending the tables choose the moves worth searching, so that a won
        // ending is converted; analysis (`go infinite`, `UCI_AnalyseMode`) sees every move.
        if limits.searchmoves.is_empty()
            && !limits.infinite
            && !self.analyse_mode
            && let Some(moves) = self.tablebases.as_ref().and_then(|tables| tables.root_moves(&position))
        {
            limits.searchmoves = moves;
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
        self.worker.send(Job::Search(Box::new(job)));
        let wdl_material = self.show_wdl.then(|| wdl::material(self.game.position()));
        self.task = Task::Search(RunningSearch { hold, finished: None, infinite, mode, wdl_material });
    }

    /// `go perft N`: move counts per root move, then the total.
    pub fn perft(&mut self, depth: u32) {
        if self.is_busy() {
            self.out.info_string("go ignored: a search is already running");
            return;
        }
        let position = self.game.position().clone();
        let mode = position.castles().mode();
        self.signals.arm(false);
        self.worker.send(Job::Perft { position, depth });
        self.task = Task::Perft(mode);
    }

    /// `stop`.
    pub fn stop(&mut self) {
        match &mut self.task {
            Task::Perft(_) => {
                // The count looks at the flag every few hundred thousand leaves: a short
                // wait, after which a `go` is welcome at once.
                self.signals.request_stop();
                self.wait_while(|task| matches!(task, Task::Perft(_)));
            }
            Task::Search(running) => {
                self.signals.request_stop();
                running.hold = false;
                if let Some(outcome) = running.finished.take() {
                    self.finish(outcome);
                }
            }
            Task::None | Task::Thinking => {}
        }
    }

    /// `ponderhit`.
    pub fn ponderhit(&mut self) {
        let Task::Search(running) = &mut self.task else { return };
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

    /// Handles one event from the worker.
    pub fn on_event(&mut self, event: Event) {
        match (&mut self.task, event) {
            (Task::Search(running), Event::Progress(progress)) => match progress {
                Progress::Iteration(report) => self.out.report(&with_wdl(report, running.wdl_material), running.mode),
                Progress::CurrentMove { depth, mv, number } => self.out.current_move(depth, mv, number, running.mode),
                Progress::Note(text) => self.out.info_string(&text),
            },
            (Task::Search(running), Event::Done(outcome)) => {
                if running.hold {
                    running.finished = Some(outcome);
                } else {
                    self.finish(outcome);
                }
            }
            (Task::Perft(mode), Event::PerftMove(m, count)) => self.out.perft_move(m, count, *mode),
            (Task::Perft(_), Event::PerftDone(total)) => {
                self.task = Task::None;
                match total {
                    Some(total) => self.out.perft_total(total),
                    None => self.out.info_string("perft stopped"),
                }
            }
            _ => {}
        }
    }

    /// Sends the final `info` and `bestmove`, then lets the searcher think idle.
    fn finish(&mut self, outcome: SearchOutcome) {
        let Task::Search(running) = std::mem::replace(&mut self.task, Task::None) else { return };
        self.out.report(&with_wdl(outcome.report, running.wdl_material), running.mode);
        self.out.best_move(outcome.best, outcome.ponder, running.mode);
        self.signals.arm(false);
        self.worker.send(Job::ThinkIdle(outcome.best, self.ponder));
        self.task = Task::Thinking;
    }

    /// Handles events until `running` no longer holds for the task.
    fn wait_while(&mut self, running: impl Fn(&Task) -> bool) {
        let events = self.events();
        while running(&self.task) {
            match events.recv() {
                Ok(event) => self.on_event(event),
                Err(_) => break,
            }
        }
    }

    /// `quit`, or the end of input: stops the work under way and, as Stockfish does, still
    /// sends a running search's `bestmove`. The worker thread ends with the engine.
    pub fn quit(mut self) {
        self.end_idle_thinking();
        match &mut self.task {
            Task::Search(running) => {
                self.signals.request_stop();
                running.hold = false;
                match running.finished.take() {
                    Some(outcome) => self.finish(outcome),
                    None => self.wait_while(|task| matches!(task, Task::Search(_))),
                }
            }
            Task::Perft(_) => self.stop(),
            Task::None | Task::Thinking => {}
        }
        // Finishing the search started idle thinking: end it at once.
        self.end_idle_thinking();
    }

    /// The GUI has gone (its end of the output is closed): ends the work under way
    /// without a word.
    pub fn abandon(self) {
        self.signals.request_stop();
        self.signals.request_rest();
    }
}

/// `report` with the win-rate model's chances, when the root's material is given.
fn with_wdl(report: Report, material: Option<u32>) -> Report {
    Report { wdl: material.map(|material| report.score.wdl(material)), ..report }
}
