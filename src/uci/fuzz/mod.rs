//! The in-process fuzzer (`harrier fuzz`, and a test of `make test`): seeded lines
//! ([`lines`], [`mutate`]) go through the very path of the UCI loop, [`read_command`]
//! then [`Session::handle`], into an engine that writes into memory. After every command
//! it checks that nothing panicked, that every line printed is a UCI line, that every
//! `info` and `bestmove` names legal moves of the position searched, that a held search
//! (`go infinite`, `go ponder`) answers only after `stop` or `ponderhit`, and that a
//! command the engine refused (see [`checks::is_refusal`]) changed neither the game nor
//! any option; a `setoption` it took must give the settings the option table gives.
//! After every line the engine must answer `isready`. A few lines after each `go` the
//! driver sends `stop`, and the search must then answer within [`ANSWER_TIMEOUT`].

mod checks;
mod fixtures;
mod lines;
mod mutate;

use std::collections::VecDeque;
use std::fmt;
use std::io::Cursor;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};
use shakmaty::{CastlingMode, Chess, Move, Position};

use super::output::Writer;
use super::parse::{GoCommand, UciCommand};
use super::read_command;
use super::session::Session;
use crate::engine::memory;
use crate::engine::options::{self, OptionChange};
use crate::engine::search_thread::Event;
use crate::moves::parse_uci;
use crate::random::SplitMix;
use checks::Snapshot;
use fixtures::Fixtures;
use lines::LineGenerator;

/// How long a search may take to answer once the driver has sent `stop` (loose: the
/// machine may be loaded).
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);
/// A run that makes no progress for this long has hung: the watchdog ends the process.
const HANG_TIMEOUT: Duration = Duration::from_secs(120);
/// The most lines the driver lets through while a search runs before it sends `stop`.
const MAX_LINES_BEFORE_STOP: u64 = 3;
/// The lines a finding quotes, the last one the line that failed.
const RECENT_LINES: usize = 20;
/// The most characters of a line a finding quotes.
const QUOTED_CHARS: usize = 200;
/// Progress is reported every this many lines.
pub const PROGRESS_LINES: u64 = 100_000;
/// The process's peak memory is read every this many lines, so that a peak is placed
/// among the recent lines it quotes.
const MEMORY_CHECK_EVERY: u64 = 16;

/// What to run.
#[derive(Clone, Copy, Debug)]
pub struct FuzzSettings {
    /// Lines to generate.
    pub lines: u64,
    /// The generator's seed: the same seed gives the same lines.
    pub seed: u64,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct FuzzReport {
    /// Lines generated and fed.
    pub lines: u64,
    /// Commands read from them (a line with a newline inside gives two).
    pub commands: u64,
    /// Searches answered by a `bestmove`.
    pub searches: u64,
    /// `go perft` counts finished or stopped.
    pub perfts: u64,
    /// Commands the engine refused.
    pub refusals: u64,
    /// Engines started (`quit` ends one, and the next line goes to a fresh one).
    pub engines: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The most memory the process had held at once (`VmHWM`), where the system says.
    pub peak_resident: Option<MemoryPeak>,
}

/// When the process's peak memory was last raised.
#[derive(Clone, Debug, Default)]
pub struct MemoryPeak {
    /// The peak, in MB.
    pub mb: usize,
    /// The line by which it was reached.
    pub line: u64,
    /// The lines fed before it, oldest first: the peak came within the last
    /// [`MEMORY_CHECK_EVERY`] of them.
    pub recent: Vec<String>,
}

impl fmt::Display for FuzzReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let seconds = self.elapsed.as_secs_f64();
        write!(
            f,
            "{} lines ({} commands) in {seconds:.1} s, {:.0} lines/s: {} searches, {} perfts, {} refused, {} engines",
            self.lines,
            self.commands,
            self.lines as f64 / seconds.max(1e-9),
            self.searches,
            self.perfts,
            self.refusals,
            self.engines
        )?;
        match &self.peak_resident {
            Some(peak) => write!(f, ", peak resident {} MB by line {}", peak.mb, peak.line),
            None => Ok(()),
        }
    }
}

/// A check that failed.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The run's seed.
    pub seed: u64,
    /// The number of the line that failed, from 1.
    pub line: u64,
    /// What went wrong.
    pub problem: String,
    /// The lines before it, oldest first, and that line last.
    pub recent: Vec<String>,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(f, "seed {}, line {}: {}", self.seed, self.line, self.problem)?;
        writeln!(f, "the last lines fed:")?;
        for line in &self.recent {
            writeln!(f, "  {line}")?;
        }
        Ok(())
    }
}

/// Feeds `settings.lines` generated lines to an engine, checking it after each command;
/// `progress` sees the report every [`PROGRESS_LINES`] lines. The first failed check ends
/// the run.
pub fn run(settings: &FuzzSettings, progress: &mut dyn FnMut(&FuzzReport)) -> Result<FuzzReport, Box<Finding>> {
    let finding = |line, problem| Box::new(Finding { seed: settings.seed, line, problem, recent: Vec::new() });
    let fixtures = Fixtures::create(settings.seed).map_err(|problem| finding(0, problem))?;
    let mut generator = LineGenerator::new(settings.seed, fixtures);
    let mut driver = Driver::new(settings.seed);
    let watchdog = Watchdog::start();
    let start = Instant::now();
    for number in 1..=settings.lines {
        let (pos, mode) = driver.context();
        let line = generator.next_line(&pos, mode);
        driver.remember(&line);
        watchdog.beat(number, driver.recent.back().map_or("", String::as_str));
        if let Err(problem) = driver.feed(&line) {
            let recent = driver.recent.iter().cloned().collect();
            return Err(Box::new(Finding { recent, ..*finding(number, problem) }));
        }
        driver.report.lines = number;
        if number % MEMORY_CHECK_EVERY == 0 {
            driver.note_memory(number);
        }
        if number % PROGRESS_LINES == 0 {
            driver.report.elapsed = start.elapsed();
            progress(&driver.report);
        }
    }
    driver.finish().map_err(|problem| finding(settings.lines, problem))?;
    driver.note_memory(settings.lines);
    driver.report.elapsed = start.elapsed();
    Ok(driver.report)
}

/// A search the driver waits to see answered.
struct Watch {
    position: Chess,
    /// The legal moves of `searchmoves`: when there are any, the answer is one of them.
    allowed: Vec<Move>,
    /// `bestmove` must wait for `stop` (or, after `go ponder`, for `ponderhit`).
    held: bool,
    /// A `go ponder` not yet turned into a normal search by `ponderhit`.
    pondering: bool,
    infinite: bool,
}

impl Watch {
    fn new(position: Chess, go: &GoCommand) -> Watch {
        let allowed = go.searchmoves.iter().filter_map(|text| parse_uci(&position, text)).collect();
        let limits = &go.limits;
        Watch {
            position,
            allowed,
            held: limits.infinite || limits.ponder,
            pondering: limits.ponder,
            infinite: limits.infinite,
        }
    }
}

/// Where output is checked, which decides what besides UCI lines may come.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FuzzContext {
    /// The answer to `d` or `eval`: text for people.
    Display,
    /// Anything else.
    Protocol,
}

/// The engine under test and what the driver knows of it.
struct Driver {
    session: Option<Session>,
    sink: Arc<Mutex<Vec<u8>>>,
    events: Receiver<Event>,
    /// The search whose `bestmove` has not come yet.
    search: Option<Watch>,
    /// The position of the `go perft` count under way.
    perft: Option<Chess>,
    /// Lines left before the driver sends `stop` to a running search.
    stop_in: u64,
    random: SplitMix,
    recent: VecDeque<String>,
    report: FuzzReport,
}

impl Driver {
    fn new(seed: u64) -> Driver {
        let sink = Arc::new(Mutex::new(Vec::new()));
        let (session, events) = Driver::start_engine(&sink);
        let report = FuzzReport { engines: 1, ..FuzzReport::default() };
        Driver {
            session: Some(session),
            sink,
            events,
            search: None,
            perft: None,
            stop_in: 0,
            // Apart from the generator's, so that the lines do not depend on when stops go.
            random: SplitMix::new(!seed),
            recent: VecDeque::new(),
            report,
        }
    }

    fn start_engine(sink: &Arc<Mutex<Vec<u8>>>) -> (Session, Receiver<Event>) {
        let session = Session::new(Writer::new(sink.clone()));
        let events = session.events();
        (session, events)
    }

    fn session(&mut self) -> &mut Session {
        self.session.as_mut().expect("a session runs between commands")
    }

    /// The engine's position and the castling mode its moves are written in.
    fn context(&mut self) -> (Chess, CastlingMode) {
        let engine = self.session().engine();
        let mode = if engine.settings().chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        (engine.position().clone(), mode)
    }

    /// Keeps `line` among the recent lines, shortened.
    fn remember(&mut self, line: &[u8]) {
        let text = String::from_utf8_lossy(line);
        let shown: String = text.chars().take(QUOTED_CHARS).collect();
        let more = text.chars().count().saturating_sub(QUOTED_CHARS);
        let shown = if more > 0 { format!("{shown:?} and {more} characters more") } else { format!("{shown:?}") };
        if self.recent.len() == RECENT_LINES {
            self.recent.pop_front();
        }
        self.recent.push_back(shown);
    }

    /// Notes the process's peak memory if it has risen since the last look, with the
    /// lines that led there.
    fn note_memory(&mut self, line: u64) {
        let Some(mb) = memory::peak_resident_mb() else { return };
        if self.report.peak_resident.as_ref().is_none_or(|peak| mb > peak.mb) {
            let recent = self.recent.iter().cloned().collect();
            self.report.peak_resident = Some(MemoryPeak { mb, line, recent });
        }
    }

    /// Feeds one generated line, then `isready`, and sends `stop` to a search that has run
    /// for its lines.
    fn feed(&mut self, line: &[u8]) -> Result<(), String> {
        let mut input = Cursor::new([line, b"\n"].concat());
        let mut buffer = Vec::new();
        while let Some((arrived, command)) = read_command(&mut input, &mut buffer) {
            self.report.commands += 1;
            self.command(command, arrived)?;
        }
        let ready = self.command(UciCommand::IsReady, Instant::now())?;
        if ready != ["readyok"] {
            return Err(format!("isready was answered {ready:?}"));
        }
        if self.search.is_some() || self.perft.is_some() {
            if self.stop_in == 0 {
                self.command(UciCommand::Stop, Instant::now())?;
                self.await_answer()?;
            } else {
                self.stop_in -= 1;
            }
        }
        Ok(())
    }

    /// Carries out one command and checks what it did; returns the lines it printed.
    fn command(&mut self, command: UciCommand, arrived: Instant) -> Result<Vec<String>, String> {
        let engine = self.session().engine();
        let before = Snapshot::of(engine);
        let was_busy = engine.is_busy();
        let position = engine.position().clone();
        self.expect(&command, was_busy, position)?;
        let session = self.session.as_mut().expect("a session runs between commands");
        let handled = catch_unwind(AssertUnwindSafe(|| session.handle(command.clone(), arrived)))
            .map_err(|panic| format!("{command:?} panicked: {}", panic_text(panic.as_ref())))?;
        if !handled {
            return self.quit().map(|()| Vec::new());
        }
        let context = if matches!(command, UciCommand::Display | UciCommand::Eval) {
            FuzzContext::Display
        } else {
            FuzzContext::Protocol
        };
        let printed = self.check_output(context)?;
        if matches!(command, UciCommand::Go(_)) && !was_busy {
            let started = self.session().engine().is_busy();
            if !started && (self.search.is_some() || self.perft.is_some()) {
                return Err("go neither started a search nor answered".to_string());
            }
        }
        self.check_state(&command, &before, &printed)?;
        self.pump()?;
        Ok(printed)
    }

    /// Notes what `command` will start or end, before it runs.
    fn expect(&mut self, command: &UciCommand, was_busy: bool, position: Chess) -> Result<(), String> {
        match command {
            UciCommand::Go(go) if !was_busy => {
                if self.search.is_some() || self.perft.is_some() {
                    return Err("the last search or perft ended without its answer".to_string());
                }
                match go.perft {
                    Some(_) => self.perft = Some(position),
                    None => self.search = Some(Watch::new(position, go)),
                }
                self.stop_in = self.random.below(MAX_LINES_BEFORE_STOP + 1);
            }
            UciCommand::Stop => {
                if let Some(watch) = &mut self.search {
                    watch.held = false;
                }
            }
            UciCommand::PonderHit => {
                if let Some(watch) = self.search.as_mut().filter(|watch| watch.pondering) {
                    watch.pondering = false;
                    watch.held = watch.infinite;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Checks the engine's state after `command`, which printed `printed`: a refused
    /// command changed nothing, and neither did a command that changes nothing by nature;
    /// `setoption` gave the option table's settings, `position` the game it named.
    fn check_state(&mut self, command: &UciCommand, before: &Snapshot, printed: &[String]) -> Result<(), String> {
        let after = Snapshot::of(self.session().engine());
        let refused = printed.iter().any(|line| checks::is_refusal(line));
        if refused {
            self.report.refusals += 1;
        }
        let unchanged = || match after == *before {
            true => Ok(()),
            false => Err(format!("{command:?} ({printed:?}) changed the state: {}", before.changes(&after))),
        };
        match command {
            _ if refused => unchanged(),
            UciCommand::SetOption { name, value } => {
                let settings = match options::find(name).map(|option| option.apply(&before.settings, value)) {
                    None | Some(Err(_)) => return Err(format!("{command:?} was taken: {printed:?}")),
                    Some(Ok(OptionChange::Press(_))) => before.settings.clone(),
                    Some(Ok(OptionChange::Set(settings))) => *settings,
                };
                let mut expected = before.clone();
                expected.settings = settings;
                // The network is loaded from the options, not set by them; the level follows them.
                expected.settings.search.evaluation = after.settings.search.evaluation.clone();
                expected.settings.search.level = expected.settings.playing_level();
                match after == expected {
                    true => Ok(()),
                    false => Err(format!("{command:?} gave other settings: {}", expected.changes(&after))),
                }
            }
            UciCommand::Position { moves, .. } if after.game_length() != moves.len() => {
                Err(format!("{command:?} was taken with {} moves", after.game_length()))
            }
            UciCommand::Position { .. } | UciCommand::NewGame if after.settings == before.settings => Ok(()),
            UciCommand::Position { .. } | UciCommand::NewGame => Err(format!("{command:?} changed the settings")),
            _ => unchanged(),
        }
    }

    /// Hands the search thread's pending events to the engine and checks what they printed.
    fn pump(&mut self) -> Result<(), String> {
        while let Ok(event) = self.events.try_recv() {
            self.session().on_event(event);
        }
        self.check_output(FuzzContext::Protocol).map(drop)
    }

    /// Waits for the running search or perft to answer.
    fn await_answer(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        while self.search.is_some() || self.perft.is_some() {
            if !self.session().engine().is_busy() {
                return Err("the search ended without its answer".to_string());
            }
            match self.events.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(event) => self.session().on_event(event),
                Err(RecvTimeoutError::Timeout) => return Err(format!("no answer {ANSWER_TIMEOUT:?} after stop")),
                Err(RecvTimeoutError::Disconnected) => return Err("the search thread has ended".to_string()),
            }
            self.check_output(FuzzContext::Protocol)?;
        }
        Ok(())
    }

    /// `quit`: the engine ends (a running search still answers) and a fresh one starts.
    fn quit(&mut self) -> Result<(), String> {
        if let Some(watch) = &mut self.search {
            watch.held = false;
        }
        let session = self.session.take().expect("a session runs between commands");
        catch_unwind(AssertUnwindSafe(|| session.quit()))
            .map_err(|panic| format!("quit panicked: {}", panic_text(panic.as_ref())))?;
        self.check_output(FuzzContext::Protocol)?;
        if self.search.is_some() {
            return Err("quit during a search sent no bestmove".to_string());
        }
        if self.perft.take().is_some() {
            self.report.perfts += 1;
        }
        let (session, events) = Driver::start_engine(&self.sink);
        (self.session, self.events) = (Some(session), events);
        self.report.engines += 1;
        Ok(())
    }

    /// Ends the run: stops what still runs and quits the engine.
    fn finish(&mut self) -> Result<(), String> {
        if self.search.is_some() || self.perft.is_some() {
            self.command(UciCommand::Stop, Instant::now())?;
            self.await_answer()?;
        }
        let session = self.session.take().expect("a session runs between commands");
        session.quit();
        self.check_output(FuzzContext::Protocol).map(drop)
    }

    /// Takes the lines printed since the last look and checks them in `context`.
    fn check_output(&mut self, context: FuzzContext) -> Result<Vec<String>, String> {
        let bytes = std::mem::take(&mut *self.sink.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
        let text = String::from_utf8(bytes).map_err(|e| format!("the engine printed invalid UTF-8: {e}"))?;
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        for (index, line) in lines.iter().enumerate() {
            let previous = index.checked_sub(1).map(|i| lines[i].as_str());
            self.check_line(line, previous, context).map_err(|problem| format!("{problem}; printed: {line:?}"))?;
        }
        Ok(lines)
    }

    /// Checks one printed line, `previous` the line before it in the same output.
    fn check_line(&mut self, line: &str, previous: Option<&str>, context: FuzzContext) -> Result<(), String> {
        if context == FuzzContext::Display {
            return Ok(());
        }
        if let Some(position) = self.perft.clone().filter(|_| !checks::is_uci_line(line)) {
            if let Some(total) = line.strip_prefix("Nodes searched: ") {
                total.parse::<u64>().map_err(|_| "a perft total that is no number".to_string())?;
                self.perft = None;
                self.report.perfts += 1;
                return Ok(());
            }
            if line.is_empty() {
                return Ok(());
            }
            let (text, count) = line.split_once(": ").ok_or("neither a UCI line nor perft output")?;
            count.parse::<u64>().map_err(|_| "a perft count that is no number".to_string())?;
            return checks::printed_move(&position, text).map(drop);
        }
        if self.perft.is_some() && line == "info string perft stopped" {
            self.perft = None;
            self.report.perfts += 1;
        }
        if !checks::is_uci_line(line) {
            return Err("not a UCI line".to_string());
        }
        if checks::reports_engine_bug(line) {
            return Err("the engine reports a bug".to_string());
        }
        if line.starts_with("bestmove") {
            return self.check_bestmove(line, previous);
        }
        if line.starts_with("info depth") {
            let Some(watch) = &self.search else { return Err("a search report outside a search".to_string()) };
            checks::check_line(&watch.position, &checks::info_field(line, "pv"))?;
            checks::check_line(&watch.position, &checks::info_field(line, "currmove"))?;
        }
        Ok(())
    }

    /// Checks a `bestmove` line: a search was waiting for it and may answer now, the move
    /// and the ponder move are legal (and among the `searchmoves`), and the final report or
    /// the book's note comes just before it.
    fn check_bestmove(&mut self, line: &str, previous: Option<&str>) -> Result<(), String> {
        let Some(watch) = self.search.take() else { return Err("bestmove without a search".to_string()) };
        self.report.searches += 1;
        if watch.held {
            return Err("bestmove before stop or ponderhit".to_string());
        }
        let final_report = |p: &str| (p.starts_with("info depth") && p.contains(" score ")) || p.contains("book move");
        if !previous.is_some_and(final_report) {
            return Err(format!("no final report before bestmove: {previous:?}"));
        }
        let words: Vec<&str> = line.split(' ').collect();
        if words[1] == "(none)" {
            return match watch.position.legal_moves().is_empty() {
                true => Ok(()),
                false => Err("bestmove (none) with legal moves".to_string()),
            };
        }
        let best = checks::printed_move(&watch.position, words[1])?;
        if !watch.allowed.is_empty() && !watch.allowed.contains(&best) {
            return Err("a move outside searchmoves".to_string());
        }
        if let Some(ponder) = words.get(3) {
            let mut after = watch.position.clone();
            after.play_unchecked(best);
            checks::printed_move(&after, ponder)?;
        }
        Ok(())
    }
}

/// The text of a panic's payload.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
        (Some(text), _) => text.to_string(),
        (_, Some(text)) => text.clone(),
        _ => "(no message)".to_string(),
    }
}

/// A thread that ends the process when the run stops making progress: a hang in the
/// engine would otherwise hang the run without a word.
struct Watchdog {
    line: Arc<AtomicU64>,
    /// The line being fed, as a finding quotes it.
    text: Arc<Mutex<String>>,
    done: Arc<AtomicBool>,
}

impl Watchdog {
    fn start() -> Watchdog {
        let (line, done) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicBool::new(false)));
        let text = Arc::new(Mutex::new(String::new()));
        let (seen, finished, shown) = (line.clone(), done.clone(), text.clone());
        thread::spawn(move || {
            let (mut last, mut since) = (0, Instant::now());
            while !finished.load(Ordering::Relaxed) {
                thread::sleep(Duration::from_millis(100));
                let now = seen.load(Ordering::Relaxed);
                if now != last {
                    (last, since) = (now, Instant::now());
                } else if since.elapsed() > HANG_TIMEOUT {
                    let text = shown.lock().map(|text| text.clone()).unwrap_or_default();
                    eprintln!("harrier fuzz: no progress for {HANG_TIMEOUT:?} at line {now}, {text}; aborting");
                    std::process::abort();
                }
            }
        });
        Watchdog { line, text, done }
    }

    /// The run has reached line `number`, quoted as `text`.
    fn beat(&self, number: u64, text: &str) {
        self.line.store(number, Ordering::Relaxed);
        if let Ok(mut shown) = self.text.lock() {
            shown.replace_range(.., text);
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
    }
}
