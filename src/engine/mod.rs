//! The engine controller: owns the game, the options and the search thread, and decides
//! when `bestmove` goes out. Its methods never wait for a search, so `isready`, `stop` and
//! `ponderhit` are answered at once; the front end calls them and feeds back the search thread's
//! events. It writes through [`Output`] and knows nothing of the text protocol.

pub mod book;
mod configure;
pub mod game;
pub mod memory;
pub mod options;
pub mod search_thread;
pub mod searchers;
pub mod settings;

use std::sync::Arc;
use std::time::Instant;

use crossbeam_channel::Receiver;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use crate::eval::wdl;
use crate::moves::{parse_uci, uci_text};
use crate::search::syzygy::Syzygy;
use crate::search::{Limits, Progress, Report, Score, SearchJob, SearchOutcome, Signals};
use book::{Book, BookMove};
use game::Game;
use search_thread::{Change, Event, Job, SearchThread};
use settings::Settings;

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

/// What the search thread is doing for the engine.
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
    /// The tablebase value of the root and the probes it took, when the tables chose the
    /// root moves: the reports show that value (unless they see a mate).
    tablebase: Option<(i32, u64)>,
}

/// The engine controller: the game, the options, the search thread and the task under way.
/// The front end calls its methods for each command and each search thread event.
pub struct Engine {
    out: Box<dyn Output>,
    signals: Arc<Signals>,
    search_thread: SearchThread,
    task: Task,
    game: Game,
    /// The value of every option.
    settings: Settings,
    /// The tables `settings.syzygy` gave: they choose the root moves of a tablebase ending.
    tablebases: Option<Syzygy>,
    /// The opening book `BookFile` names, loaded.
    book: Option<Book>,
    debug: bool,
}

impl Engine {
    /// An engine writing to `out`, with its search thread started.
    pub fn new(out: Box<dyn Output>) -> Engine {
        let signals = Arc::new(Signals::default());
        let mut settings = Settings::default();
        settings.search.evaluation = configure::evaluation_of(&settings).expect("the built-in network loads");
        settings.search.level = settings.playing_level();
        let mut searcher = searchers::build(settings.search_mode, settings.hash_mb, signals.clone())
            .expect("the default hash table fits in memory");
        searcher.configure(&settings.search);
        // The tunables are the process's: a new engine starts from its own, the defaults,
        // whatever an engine before it set.
        #[cfg(feature = "tune")]
        crate::search::tunables::publish(&settings.tunables);
        Engine {
            out,
            search_thread: SearchThread::spawn(searcher, signals.clone()),
            signals,
            task: Task::None,
            game: Game::default(),
            settings,
            tablebases: None,
            book: None,
            debug: false,
        }
    }

    /// The search thread's events; each goes to [`Engine::on_event`].
    pub fn events(&self) -> Receiver<Event> {
        self.search_thread.events().clone()
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

    /// The game as the last accepted `position` command set it.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The value of every option.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// `debug on|off`.
    pub fn set_debug(&mut self, on: bool) {
        self.debug = on;
    }

    fn castling_mode(&self) -> CastlingMode {
        if self.settings.chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard }
    }

    /// `ucinewgame`.
    pub fn new_game(&mut self) {
        if self.is_busy() {
            self.out.info_string("ucinewgame ignored: a search is running (send stop first)");
            return;
        }
        self.run_change(Change::NewGame);
        self.game = Game::default();
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
            && !(limits.infinite || limits.ponder || self.settings.analyse_mode)
            && limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.mate.is_none()
            && searchmoves.is_empty();
        if !(self.settings.own_book && game_move) {
            return None;
        }
        self.book.as_mut()?.choose(position)
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
        let mut tablebase = None;
        if limits.searchmoves.is_empty()
            && !limits.infinite
            && !self.settings.analyse_mode
            && let Some(root) = self.tablebases.as_ref().and_then(|tables| tables.root_moves(&position))
        {
            limits.searchmoves = root.moves;
            tablebase = Some((root.value, root.probes));
        }
        let hold = limits.ponder || limits.infinite;
        let infinite = limits.infinite;
        let mode = position.castles().mode();
        self.signals.arm(limits.ponder);
        let job = SearchJob {
            root: position,
            history: self.game.earlier_keys().to_vec(),
            limits,
            move_overhead: self.settings.move_overhead_ms,
            started: arrived,
        };
        self.search_thread.send(Job::Search(Box::new(job)));
        let wdl_material = self.settings.show_wdl.then(|| wdl::material(self.game.position()));
        self.task = Task::Search(RunningSearch { hold, finished: None, infinite, mode, wdl_material, tablebase });
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
        self.search_thread.send(Job::Perft { position, depth });
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

    /// Handles one event from the search thread.
    pub fn on_event(&mut self, event: Event) {
        match (&mut self.task, event) {
            (Task::Search(running), Event::Progress(progress)) => match progress {
                Progress::Iteration(report) => self.out.report(&running.shown(report), running.mode),
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
        self.out.report(&running.shown(outcome.report), running.mode);
        self.out.best_move(outcome.best, outcome.ponder, running.mode);
        self.signals.arm(false);
        self.search_thread.send(Job::ThinkIdle(outcome.best, self.settings.ponder));
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
    /// sends a running search's `bestmove`. The search thread ends with the engine.
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

impl RunningSearch {
    /// `report` as the GUI sees it: a root in the tables scores their result (unless the
    /// search sees a mate) and counts their probes; win chances when asked for.
    fn shown(&self, report: Report) -> Report {
        let report = match self.tablebase {
            Some((value, probes)) if !matches!(report.score, Score::Mate(_)) => {
                Report { score: Score::from_value(value), tbhits: report.tbhits + probes, ..report }
            }
            _ => report,
        };
        with_wdl(report, self.wdl_material)
    }
}

/// `report` with the win-rate model's chances, when the root's material is given.
fn with_wdl(report: Report, material: Option<u32>) -> Report {
    Report { wdl: material.map(|material| report.score.wdl(material)), ..report }
}
