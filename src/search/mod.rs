//! What every searcher shares: limits from `go`, scores, progress reports, the stop
//! signals, the time manager and the transposition table.

pub mod alphabeta;
pub mod bandwidth;
pub mod level;
pub mod probe;
pub mod syzygy;
pub mod time;
pub mod tt;
pub mod tunables;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use crate::eval::Evaluation;

pub use crate::value::{INFINITY, MATE, MATE_BOUND, MAX_PLY, mate_in, mated_in};

/// The deepest iteration a search runs (`go depth` is clamped to it).
pub const MAX_DEPTH: u32 = (MAX_PLY - 8) as u32;

/// True when the game is drawn at `pos` by rule: the fifty-move rule (unless `pos` is
/// mate), insufficient material, or repetition. `earlier` holds the keys of the positions
/// before `pos`, oldest first, and `root_index` the root's place among them: a repetition
/// of a position after the root (inside the search) counts at once, a position from before
/// it must have occurred twice (threefold).
pub fn drawn_by_rule(pos: &Chess, key: u64, earlier: &[u64], root_index: usize) -> bool {
    if pos.halfmoves() >= 100 {
        return !pos.is_checkmate();
    }
    if pos.is_insufficient_material() {
        return true;
    }
    let n = earlier.len();
    let reach = (pos.halfmoves() as usize).min(n);
    let mut repeats = 0;
    // The same side to move, and at least two moves each: four plies back at the least.
    let mut back = 4;
    while back <= reach {
        let index = n - back;
        if earlier[index] == key {
            if index > root_index {
                return true;
            }
            repeats += 1;
            if repeats >= 2 {
                return true;
            }
        }
        back += 2;
    }
    false
}

/// A search value as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the engine's point of view.
    Centipawns(i32),
    /// Mate in this many moves; negative when the engine is being mated.
    Mate(i32),
}

impl Score {
    /// Converts an internal search value into a reported score.
    pub fn from_value(value: i32) -> Score {
        if value >= MATE_BOUND {
            Score::Mate((MATE - value + 1) / 2)
        } else if value <= -MATE_BOUND {
            Score::Mate(-((MATE + value) / 2))
        } else {
            Score::Centipawns(value)
        }
    }

    /// `wdl W D L` in per mille for this score with `material` pawns on the board (a mate
    /// is certain).
    pub fn wdl(self, material: u32) -> [u32; 3] {
        match self {
            Score::Mate(moves) if moves > 0 => [1000, 0, 0],
            Score::Mate(_) => [0, 0, 1000],
            Score::Centipawns(cp) => crate::eval::wdl::wdl(cp, material),
        }
    }

    /// True for a mate in at most `moves` moves for the side to move.
    pub fn mates_within(self, moves: u32) -> bool {
        matches!(self, Score::Mate(n) if n > 0 && n as u32 <= moves)
    }

    /// The search value this score stands for (a mate at its shortest).
    pub fn value(self) -> i32 {
        match self {
            Score::Centipawns(cp) => cp,
            Score::Mate(moves) if moves > 0 => mate_in(2 * moves as usize - 1),
            Score::Mate(moves) => mated_in(2 * moves.unsigned_abs() as usize),
        }
    }
}

/// Whether a reported score is exact or only a bound (after an aspiration-window failure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

/// The limits of one search, from the `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// White's clock in ms (may be zero or negative: move at once).
    pub wtime: Option<i64>,
    /// Black's clock in ms.
    pub btime: Option<i64>,
    /// White's increment in ms.
    pub winc: Option<i64>,
    /// Black's increment in ms.
    pub binc: Option<i64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Nodes after which no new iteration starts (self-play data generation; `go` never
    /// sets it).
    pub soft_nodes: Option<u64>,
    /// Nodes after which no new iteration starts while the best move is a capture or
    /// promotion (self-play data generation, which never trains on such a position; `go`
    /// never sets it).
    pub tactical_soft_nodes: Option<u64>,
    /// Stop when a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Exact time for this move in ms.
    pub movetime: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder: search without a clock until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all legal moves).
    pub searchmoves: Vec<Move>,
}

/// `go mate N` alone searches to 2N plies and this many more.
pub const MATE_SEARCH_EXTRA_PLIES: u32 = 4;

impl Limits {
    /// The depth a search stops at: `go depth`'s; else, for a `go mate N` with no other
    /// limit, deep enough to see a mate in N moves for either side, so the mated side also
    /// gets an answer.
    pub fn depth_goal(&self) -> Option<u32> {
        let alone = !self.infinite
            && self.movetime.is_none()
            && self.nodes.is_none()
            && self.wtime.is_none()
            && self.btime.is_none();
        let mate_depth = self.mate.filter(|_| alone).map(|moves| 2 * moves + MATE_SEARCH_EXTRA_PLIES);
        self.depth.or(mate_depth)
    }

    /// True when `value` (for the side to move at the root) is a mate as short as `go mate`
    /// asks for: the search is done.
    pub fn mate_reached(&self, value: i32) -> bool {
        self.mate.is_some_and(|moves| Score::from_value(value).mates_within(moves))
    }
}

/// Flags shared between the thread that reads commands and a running search.
#[derive(Debug, Default)]
pub struct Signals {
    stop: AtomicBool,
    /// Ends idle thinking. Apart from `stop` so that arming the next search cannot clear it
    /// while idle thinking still runs; the worker clears it when it starts other work.
    rest: AtomicBool,
    pondering: AtomicBool,
    /// When `ponderhit` came, for the time manager: kept here, where every copy of a
    /// search's clock (the bandwidth searcher's probes have their own) sees the same one.
    ponderhit_at: Mutex<Option<Instant>>,
    /// Signals whose stop requests count here too (see [`Signals::under`]).
    parent: Option<Arc<Signals>>,
}

impl Signals {
    /// Signals of their own that also see `parent`'s stop requests: Lazy SMP helpers stop
    /// with the search they help, and by their own flag after it, which re-arming `parent`
    /// for the next search does not clear.
    pub fn under(parent: Arc<Signals>) -> Signals {
        Signals { parent: Some(parent), ..Signals::default() }
    }

    /// Asks the running search to stop as soon as possible.
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    /// True once `stop` (or `quit`) has been requested, here or in the parent, or idle
    /// thinking should end.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Acquire)
            || self.rest.load(Ordering::Acquire)
            || self.parent.as_ref().is_some_and(|parent| parent.stop_requested())
    }

    /// Ends idle thinking as soon as possible.
    pub fn request_rest(&self) {
        self.rest.store(true, Ordering::Release);
    }

    /// Withdraws a request to end idle thinking, before work that is not idle thinking.
    pub fn clear_rest(&self) {
        self.rest.store(false, Ordering::Release);
    }

    /// True while the search ponders (no clock runs until `ponderhit`).
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// Turns a ponder search into a normal timed one; its clock has run since `go ponder`.
    pub fn ponderhit(&self) {
        *self.hit_time() = Some(Instant::now());
        self.pondering.store(false, Ordering::Release);
    }

    /// When `ponderhit` turned the running search into a timed one, if it did.
    pub fn ponderhit_at(&self) -> Option<Instant> {
        *self.hit_time()
    }

    /// Resets the flags for a new search.
    pub fn arm(&self, pondering: bool) {
        *self.hit_time() = None;
        self.stop.store(false, Ordering::Release);
        self.pondering.store(pondering, Ordering::Release);
    }

    fn hit_time(&self) -> MutexGuard<'_, Option<Instant>> {
        // Nothing can panic while holding the lock, but a poisoned one holds a valid time.
        self.ponderhit_at.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// One search's input: the root, the positions before it (for repetitions) and the limits.
#[derive(Clone, Debug)]
pub struct SearchJob {
    /// The position to search.
    pub root: Chess,
    /// Zobrist keys of the game's earlier positions, oldest first, the root's excluded.
    pub history: Vec<u64>,
    /// Limits from `go`.
    pub limits: Limits,
    /// Milliseconds to keep in reserve for communication delays.
    pub move_overhead: u64,
    /// When `go` arrived: the search's clock runs from here, as the GUI's does.
    pub started: Instant,
}

/// The progress of a search after one iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Nominal depth in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score for the side to move at the root.
    pub score: Score,
    /// Whether `score` is exact or a bound.
    pub bound: Bound,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since `go` arrived, as the budget counts it.
    pub elapsed: Duration,
    /// Table occupancy in per mille.
    pub hashfull: u32,
    /// Principal variation from the root.
    pub pv: Vec<Move>,
    /// Which line this is when several are searched (`MultiPV`), from 1 for the best.
    pub multipv: u32,
    /// Tablebase probes that gave a value.
    pub tbhits: u64,
    /// Chances of a win, draw and loss in per mille (`UCI_ShowWDL`); searchers leave it out.
    pub wdl: Option<[u32; 3]>,
}

impl Report {
    /// The report of an exact `value` at `depth` with the line `pv`: the first line, no
    /// deeper selective depth, nothing counted yet (set the rest with struct update).
    pub fn new(value: i32, depth: u32, pv: Vec<Move>) -> Report {
        Report {
            depth,
            seldepth: depth,
            score: Score::from_value(value),
            bound: Bound::Exact,
            nodes: 0,
            elapsed: Duration::ZERO,
            hashfull: 0,
            pv,
            multipv: 1,
            tbhits: 0,
            wdl: None,
        }
    }

    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        nodes_per_second(self.nodes, self.elapsed)
    }
}

/// `nodes` searched in `elapsed`, per second (a zero duration counts as a microsecond).
pub fn nodes_per_second(nodes: u64, elapsed: Duration) -> u64 {
    (u128::from(nodes) * 1_000_000 / elapsed.as_micros().max(1)) as u64
}

/// What a searcher tells the outside world while it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A finished iteration, or an aspiration bound.
    Iteration(Report),
    /// Something the searcher tells the user besides its reports (an `info string`).
    Note(String),
    /// The root move being searched, once the search has run a while.
    CurrentMove {
        /// Current depth.
        depth: u32,
        /// The move (UCI `currmove`).
        mv: Move,
        /// Its 1-based number in the root move order.
        number: u32,
    },
}

/// Receives a searcher's progress; the UCI layer turns it into `info` lines.
pub trait Reporter {
    /// Called from the search thread.
    fn report(&mut self, progress: Progress);
}

/// A search algorithm the engine can drive. It owns its memory (tables, trees) between
/// searches; the engine's worker thread owns it for the life of the engine.
pub trait Searcher: Send {
    /// Runs one search to its limits, reporting progress, and returns the move to play.
    fn search(&mut self, job: &SearchJob, reporter: &mut dyn Reporter) -> SearchOutcome;

    /// Forgets everything learnt: the game and the searcher's memory (`ucinewgame`, and
    /// `Clear Hash`, which Stockfish also answers by clearing both).
    fn new_game(&mut self);

    /// Gives the searcher `mb` megabytes of memory; on failure it keeps what it has.
    fn resize(&mut self, mb: usize) -> Result<(), String>;

    /// Takes the settings the options give; returns a note for each it cannot honour
    /// (the setting stays for the searchers that can).
    fn configure(&mut self, settings: &SearchSettings) -> Vec<String>;

    /// Gives the searcher Syzygy tablebases to probe (`None`: none).
    fn set_tablebases(&mut self, tablebases: Option<syzygy::Syzygy>);

    /// Searches on `threads` threads from now on. `Ok(Some(note))`: this searcher searches
    /// on one, as the note says, and the setting stays for the searchers that can; `Err`:
    /// the threads could not be started, and it searches on as many as before.
    fn set_threads(&mut self, threads: usize) -> Result<Option<String>, String>;

    /// Thinks between commands after the search played `played`, silently, until `stop`
    /// returns true or nothing is left to think about; `ponder` says whether the GUI lets
    /// the engine think on the opponent's time (the `Ponder` option). Searchers that keep
    /// nothing between moves do nothing.
    fn think_idle(&mut self, played: Option<Move>, ponder: bool, stop: &dyn Fn() -> bool) {
        let _ = (played, ponder, stop);
    }
}

/// What the options set for the searchers; each reads what applies to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchSettings {
    /// Principal variations a search finds and reports (`MultiPV`).
    pub multi_pv: usize,
    /// The bandwidth searcher's settings.
    pub bandwidth: bandwidth::params::BandwidthSettings,
    /// The static evaluation the searchers use.
    pub evaluation: Evaluation,
    /// A playing level below full strength (`None`: full strength).
    pub level: Option<level::Level>,
}

impl Default for SearchSettings {
    fn default() -> SearchSettings {
        SearchSettings {
            multi_pv: 1,
            bandwidth: bandwidth::params::BandwidthSettings::default(),
            evaluation: Evaluation::HandCrafted,
            level: None,
        }
    }
}

/// A reporter that drops everything (bench, EPD runs, tests).
pub struct Silent;

impl Reporter for Silent {
    fn report(&mut self, _: Progress) {}
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The move to play; `None` when the root has no legal move.
    pub best: Option<Move>,
    /// The expected reply, for `bestmove ... ponder ...`.
    pub ponder: Option<Move>,
    /// The final report (score, pv, nodes) sent before `bestmove`.
    pub report: Report,
}
