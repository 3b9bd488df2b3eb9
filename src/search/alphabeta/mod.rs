//! The default searcher: iterative deepening over a negamax alpha-beta search with
//! principal variation search, a transposition table, quiescence search, killer, counter
//! move and history move ordering, and the usual selective pruning.

mod correction;
pub mod history;
pub mod movepick;
mod negamax;
pub mod options;
pub mod params;
mod quiescence;
mod root;
pub mod see;
mod stack;
mod timing;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use shakmaty::{Chess, Move, Position};

use crate::moves::{MoveCode, NO_MOVE, decode, encode};
use crate::search::options::OptionValue;
use crate::search::syzygy::Syzygy;
use crate::search::time::TimeManager;
use crate::search::tt::TranspositionTable;
use crate::search::{
    Bound, INFINITY, Limits, MATE, MATE_BOUND, MAX_DEPTH, MAX_PLY, Progress, Report, Reporter, Score, SearchJob,
    SearchOutcome, Searcher, Signals, mated_in,
};
use correction::CorrectionHistory;
use history::{CaptureHistory, ContinuationHistory, CounterMoves, History, Killers};
use negamax::{key_after, key_of};
use params::{SMP_SKIP_PHASE, SMP_SKIP_SIZE};
use quiescence::settles;
use stack::PlyState;

/// How many plies less than `depth` a principal-variation node searches the quiet move it
/// tries `searched`-th (from 0) with a null window: alpha-beta's late-move reduction, for
/// the bandwidth searcher's scouts of the same moves.
pub fn pv_late_move_reduction(depth: u32, searched: usize) -> u32 {
    if depth < params::LMR_MIN_DEPTH as u32 || searched < params::LMR_FULL_DEPTH_MOVES {
        return 0;
    }
    let reduction = negamax::late_move_reduction(depth as i32, searched) - 1;
    reduction.clamp(0, depth as i32 - 2) as u32
}

/// The depth a search stops at: `go depth`'s; else, for a `go mate N` with no other limit,
/// deep enough to see a mate in N moves for either side, so the mated side also gets an
/// answer.
pub fn depth_goal(limits: &Limits) -> Option<u32> {
    let alone = !limits.infinite
        && limits.movetime.is_none()
        && limits.nodes.is_none()
        && limits.wtime.is_none()
        && limits.btime.is_none();
    let mate_depth = limits.mate.filter(|_| alone).map(|moves| 2 * moves + params::MATE_SEARCH_EXTRA_PLIES);
    limits.depth.or(mate_depth)
}

/// A search running this long starts printing `currmove` lines and aspiration bounds.
pub(super) const VERBOSE_AFTER_MS: u128 = 1000;

/// Parts of the search that can be switched off, for tests, measurements and the
/// full-width [`MINIMAX`](Features::MINIMAX) mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Probe and store the transposition table.
    pub transposition_table: bool,
    /// Run quiescence search at the horizon (otherwise: static evaluation).
    pub quiescence: bool,
    /// Quiescence leaves out the captures that lose material by static exchange evaluation.
    pub quiescence_see: bool,
    /// Quiescence delta pruning: it leaves out the captures that cannot lift the score to
    /// within a margin of alpha.
    pub delta_pruning: bool,
    /// Order quiet moves by the two killers of the ply.
    pub killers: bool,
    /// Order moves by what earlier cutoffs taught: butterfly, continuation and capture
    /// history, counter moves.
    pub history: bool,
    /// Order the captures that lose material by static exchange evaluation after the quiet
    /// moves.
    pub see_ordering: bool,
    /// The main search's selectivity: null move, reverse futility and futility pruning,
    /// late move pruning and reductions, SEE pruning, internal iterative reductions,
    /// singular extensions and multi-cut.
    pub pruning: bool,
    /// Mate distance pruning. Exact: it cuts only what cannot beat a mate already found.
    pub mate_distance: bool,
    /// The correction history learned from earlier searches, added to the static
    /// evaluation (of quiescence's stand pat too).
    pub correction: bool,
    /// Search checking moves one ply deeper.
    pub check_extension: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
}

impl Features {
    /// Everything on: how the engine plays.
    pub const FULL: Features = Features {
        transposition_table: true,
        quiescence: true,
        quiescence_see: true,
        delta_pruning: true,
        killers: true,
        history: true,
        see_ordering: true,
        pruning: true,
        mate_distance: true,
        correction: true,
        check_extension: true,
        aspiration: true,
    };

    /// Full-width alpha-beta, the reference Harris's bandwidth search is measured against
    /// (he played fixed-depth, full-width alpha-beta programs against their conversions to
    /// his search, with the same evaluation): the engine's evaluation, quiescence,
    /// transposition table and move ordering, iterated to the clock, without the main
    /// search's selectivity, check extension and aspiration windows. Quiescence keeps its
    /// static exchange filter, which decides which captures it looks at whatever the
    /// window, and drops delta pruning, a futility pruning that depends on the window.
    /// The correction history is off: it is learnt from earlier searches, so with it the
    /// value would not be a minimax of the evaluation. Mate distance pruning stays: it
    /// changes no value. At a fixed depth and without the table, the root value is the
    /// minimax value of that depth with this quiescence at the leaves.
    pub const MINIMAX: Features = Features {
        transposition_table: true,
        quiescence: true,
        quiescence_see: true,
        delta_pruning: false,
        killers: true,
        history: true,
        see_ordering: true,
        pruning: false,
        mate_distance: true,
        correction: false,
        check_extension: false,
        aspiration: false,
    };

    /// Plain fixed-depth alpha-beta with static evaluation at the leaves.
    pub const PLAIN: Features = Features {
        transposition_table: false,
        quiescence: false,
        quiescence_see: false,
        delta_pruning: false,
        killers: false,
        history: false,
        see_ordering: false,
        pruning: false,
        mate_distance: false,
        correction: false,
        check_extension: false,
        aspiration: false,
    };
}

impl Default for Features {
    fn default() -> Features {
        Features::FULL
    }
}

/// What ends a [probe](AlphaBeta::probe) besides the stop flag.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProbeLimits<'a> {
    /// A clock whose hard limit ends the probe.
    pub clock: Option<&'a TimeManager>,
    /// Nodes the probe may search.
    pub nodes: Option<u64>,
}

/// The alpha-beta searcher and its memory between searches.
pub struct AlphaBeta {
    /// Which parts of the search run.
    pub features: Features,
    tt: Arc<TranspositionTable>,
    /// 0 for the searcher the engine drives; Lazy SMP helpers count from 1.
    helper_index: usize,
    /// How many principal variations a search finds and reports (`MultiPV`).
    multi_pv: usize,
    /// Syzygy tablebases probed in the search.
    syzygy: Option<Syzygy>,
    /// Tablebase probes that gave a value in the current search.
    tbhits: u64,
    /// Nodes searched by the Lazy SMP helpers, added as they go, for the reports.
    helper_nodes: Arc<AtomicU64>,
    /// The helpers' count when this search started (main searcher), or the nodes this
    /// helper has added to it so far in this search.
    helper_nodes_mark: u64,
    killers: Killers,
    history: History,
    /// Continuation history one and two plies back.
    continuation: [ContinuationHistory; 2],
    counters: CounterMoves,
    capture_history: CaptureHistory,
    correction: CorrectionHistory,
    signals: Arc<Signals>,
    // State of the running search.
    nodes: u64,
    node_limit: u64,
    seldepth: usize,
    stopped: bool,
    /// Set once depth 1 has finished: from then on the clock and node limit may stop us.
    has_result: bool,
    time: Option<TimeManager>,
    keys: Vec<u64>,
    root_index: usize,
    /// The current line, one entry per ply (one spare for the deepest node's child).
    stack: Vec<PlyState>,
    pv: Box<[[MoveCode; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
}

impl AlphaBeta {
    /// A searcher with a `hash_mb` table, listening to `signals`.
    pub fn new(hash_mb: usize, signals: Arc<Signals>) -> Result<AlphaBeta, String> {
        Ok(AlphaBeta::with_table(Arc::new(TranspositionTable::new(hash_mb)?), 0, signals))
    }

    /// A searcher over `tt`, Lazy SMP helper number `helper_index` (0: not a helper).
    fn with_table(tt: Arc<TranspositionTable>, helper_index: usize, signals: Arc<Signals>) -> AlphaBeta {
        AlphaBeta {
            features: Features::FULL,
            tt,
            helper_index,
            multi_pv: options::DEFAULT_MULTI_PV,
            syzygy: None,
            tbhits: 0,
            helper_nodes: Arc::new(AtomicU64::new(0)),
            helper_nodes_mark: 0,
            killers: Killers::default(),
            history: History::default(),
            continuation: Default::default(),
            counters: CounterMoves::default(),
            capture_history: CaptureHistory::default(),
            correction: CorrectionHistory::default(),
            signals,
            nodes: 0,
            node_limit: u64::MAX,
            seldepth: 0,
            stopped: false,
            has_result: false,
            time: None,
            keys: Vec::with_capacity(1024),
            root_index: 0,
            stack: vec![PlyState::default(); MAX_PLY + 2],
            pv: Box::new([[NO_MOVE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 2],
        }
    }

    /// Starts a new generation of the transposition table without searching: entries of
    /// earlier generations become the first to be replaced. For a caller that runs many
    /// [`probe`](AlphaBeta::probe)s per search of its own.
    pub fn age_table(&mut self) {
        self.tt.new_search();
    }

    /// Nodes searched by the last (or running) search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Values `pos` for its side to move outside a search, for another searcher's tips: a
    /// quiescence search when `depth` is 0, else alpha-beta searches from depth 1 (or from
    /// the draft the table holds for `pos`) up to `depth`, the shallow ones ordering the
    /// moves of the deep one. `history` holds the keys
    /// of the positions before `pos` (for repetitions); mate values are relative to `pos`.
    /// A value at or below `alpha`, or at or above `beta`, is a bound (fail-soft); a null
    /// window gets a non-PV search. `None` when the stop flag was set or one of `limits`
    /// was reached during the probe.
    pub fn probe(
        &mut self,
        pos: &Chess,
        history: &[u64],
        depth: u32,
        (alpha, beta): (i32, i32),
        limits: ProbeLimits,
    ) -> Option<i32> {
        let (alpha, beta) = (alpha.max(-INFINITY), beta.min(INFINITY));
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.has_result = true;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        self.time = limits.clock.cloned();
        if depth == 0 {
            let value = self.quiescence(pos, key_of(pos), 0, alpha, beta);
            return (!self.stopped).then_some(value);
        }
        self.keys.clear();
        self.keys.extend_from_slice(history);
        self.root_index = self.keys.len();
        let key = key_of(pos);
        self.keys.push(key);
        // A null window asks only on which side of it the value lies: the cheaper non-PV
        // search answers that, as it does for PVS's scouts.
        let scout = beta - alpha == 1;
        // Iterations the table already holds a search of this position for would only
        // repeat it: a probe deepens from there, as the next move's search would.
        let depth = depth.min(MAX_DEPTH);
        let first = self.tt.probe(key, 0).map_or(1, |hit| (hit.depth.max(1) as u32).min(depth));
        let mut value = 0;
        for d in first..=depth {
            value = if scout {
                self.negamax::<false>(pos, key, d as i32, 0, alpha, beta, true)
            } else {
                self.negamax::<true>(pos, key, d as i32, 0, alpha, beta, true)
            };
            if self.stopped {
                return None;
            }
        }
        Some(value)
    }

    /// The value the table holds for the position with zobrist key `key` from a search at
    /// least `depth` (from 1) deep, if it settles the window: exact, or a bound at or
    /// beyond an edge (fail-soft). For another searcher's tips, whose probe of the position
    /// would search it again as a PV node, which takes no value from the table.
    pub fn table_value(&self, key: u64, depth: u32, alpha: i32, beta: i32) -> Option<i32> {
        let hit = self.tt.probe(key, 0)?;
        (depth > 0 && hit.depth >= depth as i32 && settles(&hit, alpha, beta)).then_some(hit.value)
    }

    /// The move the transposition table holds for `pos` (whose zobrist key is `key`), if
    /// any: after a probe of `pos`, its best move.
    pub fn table_move(&self, pos: &Chess, key: u64) -> Option<Move> {
        let hit = self.tt.probe(key, 0)?;
        decode(pos, hit.mv)
    }

    /// The history score of the quiet move `m` for `side`: how often it has cut off.
    pub fn history_score(&self, side: shakmaty::Color, m: Move) -> i32 {
        self.history.score(side, encode(m))
    }

    /// Stops the search when the stop flag is set, the node limit is reached or the hard
    /// time limit has passed (the last two only once depth 1 has given a move).
    fn poll_limits(&mut self) {
        if self.helper_index > 0 {
            self.helper_nodes.fetch_add(self.nodes - self.helper_nodes_mark, Ordering::Relaxed);
            self.helper_nodes_mark = self.nodes;
        }
        if self.signals.stop_requested() {
            self.stopped = true;
        } else if self.has_result {
            let out_of_time = self.time.as_ref().is_some_and(|t| t.hard_expired(&self.signals));
            if out_of_time || self.nodes >= self.node_limit {
                self.stopped = true;
            }
        }
    }

    /// Nodes of this search, the Lazy SMP helpers' included.
    fn all_nodes(&self) -> u64 {
        let helpers = if self.helper_index == 0 {
            self.helper_nodes.load(Ordering::Relaxed).saturating_sub(self.helper_nodes_mark)
        } else {
            0
        };
        self.nodes + helpers
    }

    /// True when this Lazy SMP helper leaves iteration `depth` to the other threads. The
    /// main searcher and the first iteration skip nothing, so every thread has a move.
    fn skips(&self, depth: u32) -> bool {
        if self.helper_index == 0 || depth == 1 {
            return false;
        }
        let j = (self.helper_index - 1) % SMP_SKIP_SIZE.len();
        ((depth + SMP_SKIP_PHASE[j]) / SMP_SKIP_SIZE[j]) % 2 == 1
    }

    /// The principal variation as moves, replayed from the root.
    fn principal_line(&self, root: &Chess) -> Vec<Move> {
        let mut pos = root.clone();
        let mut line = Vec::with_capacity(self.pv_len[0]);
        for &code in &self.pv[0][..self.pv_len[0]] {
            let Some(m) = decode(&pos, code) else { break };
            pos.play_unchecked(m);
            line.push(m);
        }
        line
    }

    /// When the PV ends after our move, the table may still know the expected reply.
    fn ponder_from_table(&self, root: &Chess, root_key: u64, best: Move) -> Option<Move> {
        let mut child = root.clone();
        child.play_unchecked(best);
        let key = key_after(root, root_key, best, &child);
        let hit = self.tt.probe(key, 1)?;
        decode(&child, hit.mv)
    }

    fn report(&self, depth: u32, value: i32, bound: Bound, pv: Vec<Move>, start: Instant) -> Report {
        Report {
            depth,
            seldepth: (self.seldepth as u32).max(depth),
            score: Score::from_value(value),
            bound,
            nodes: self.all_nodes(),
            elapsed: start.elapsed(),
            hashfull: self.tt.hashfull(),
            pv,
            multipv: 1,
            tbhits: self.tbhits,
            wdl: None,
        }
    }

    /// Runs an iterative-deepening search of `job` to its limits, but on the budgets of
    /// `time` instead of those `job`'s clock gives: for another searcher that spends a
    /// share of its own budget on it. Returns the move to play.
    pub fn search_within(&mut self, job: &SearchJob, reporter: &mut dyn Reporter, time: TimeManager) -> SearchOutcome {
        let start = job.started;
        let root = &job.root;
        let limits = &job.limits;
        self.nodes = 0;
        self.tbhits = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.has_result = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        self.time = Some(time);
        self.killers.clear();
        if self.helper_index == 0 {
            self.tt.new_search();
            self.helper_nodes_mark = self.helper_nodes.load(Ordering::Relaxed);
        } else {
            self.helper_nodes_mark = 0;
        }
        self.keys.clear();
        self.keys.extend_from_slice(&job.history);
        self.root_index = self.keys.len();
        let root_key = key_of(root);
        self.keys.push(root_key);

        let mut root_moves = self.initial_root_moves(root, root_key, &limits.searchmoves);
        if root_moves.is_empty() {
            let value = if root.is_check() { mated_in(0) } else { 0 };
            return SearchOutcome {
                best: None,
                ponder: None,
                report: self.report(0, value, Bound::Exact, Vec::new(), start),
            };
        }

        let max_depth = depth_goal(limits).unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let lines = self.multi_pv.clamp(1, root_moves.len());
        // Each line's value in the last finished iteration: the centre of its next window.
        let mut line_values = vec![0; lines];
        let mut best_line: Vec<Move> = vec![root_moves[0].mv];
        let mut best_value: i32 = 0;
        let mut final_report = None;
        let mut stability = timing::Stability::default();
        for depth in 1..=max_depth {
            if self.skips(depth) {
                continue;
            }
            let mut reports = Vec::with_capacity(lines);
            for line in 0..lines {
                // Line k is the best of the root moves that the lines before it left out.
                let previous = line_values[line];
                let moves = &mut root_moves[line..];
                let value = self.search_line(root, root_key, depth, previous, moves, line as u32 + 1, reporter, start);
                if self.stopped {
                    break;
                }
                reports.push((value, self.report(depth, value, Bound::Exact, self.principal_line(root), start)));
            }
            if self.stopped {
                break;
            }
            // A later line can come out better than an earlier one (the earlier search saw
            // its move only through a null window): the lines go out best first.
            reports.sort_by_key(|(value, _)| std::cmp::Reverse(*value));
            for (number, (value, report)) in reports.iter_mut().enumerate() {
                line_values[number] = *value;
                report.multipv = number as u32 + 1;
                reporter.report(Progress::Iteration(report.clone()));
            }
            let value = line_values[0];
            best_value = value;
            best_line = reports[0].1.pv.clone();
            self.has_result = true;
            final_report = reports.into_iter().next().map(|(_, report)| report);

            if let Some(mate) = limits.mate
                && value >= MATE_BOUND
                && (MATE - value + 1) / 2 <= mate as i32
            {
                break;
            }
            let root_nodes = root_moves.iter().map(|rm| rm.nodes).sum();
            let best_nodes = root_moves.iter().find(|rm| rm.mv == best_line[0]).map_or(0, |rm| rm.nodes);
            let scale = stability.soft_scale(depth, best_line[0], value, best_nodes, root_nodes);
            let time = self.time.as_mut().expect("set at the start of the search");
            time.scale_soft(scale);
            if time.stop_after_iteration(&self.signals) {
                break;
            }
            if time.is_timed() && root_moves.len() == 1 && !self.signals.is_pondering() {
                break;
            }
            if self.nodes >= self.node_limit || limits.soft_nodes.is_some_and(|soft| self.nodes >= soft) {
                break;
            }
        }

        let report = match final_report {
            Some(mut report) => {
                report.nodes = self.all_nodes();
                report.elapsed = start.elapsed();
                report.hashfull = self.tt.hashfull();
                report
            }
            None => self.report(1, best_value, Bound::Exact, best_line.clone(), start),
        };
        let best = best_line[0];
        let ponder = best_line.get(1).copied().or_else(|| self.ponder_from_table(root, root_key, best));
        SearchOutcome { best: Some(best), ponder, report }
    }
}

impl Searcher for AlphaBeta {
    /// Runs a search to its limits and returns the move to play.
    fn search(&mut self, job: &SearchJob, reporter: &mut dyn Reporter) -> SearchOutcome {
        let time = TimeManager::new(&job.limits, job.root.turn(), job.move_overhead, job.started);
        self.search_within(job, reporter, time)
    }

    /// Forgets everything learned: table, killers, histories, counter moves.
    fn new_game(&mut self) {
        self.tt.clear();
        self.killers.clear();
        self.history.clear();
        self.continuation.iter_mut().for_each(ContinuationHistory::clear);
        self.counters.clear();
        self.capture_history.clear();
        self.correction.clear();
    }

    fn clear(&mut self) {
        self.tt.clear();
    }

    fn resize(&mut self, mb: usize) -> Result<(), String> {
        self.tt = Arc::new(TranspositionTable::new(mb)?);
        Ok(())
    }

    fn set_option(&mut self, name: &str, value: OptionValue) -> Result<(), String> {
        match (name, value) {
            (options::MULTI_PV, OptionValue::Spin(lines)) => self.multi_pv = lines as usize,
            _ => return Err(format!("option {name} does not apply to alpha-beta mode")),
        }
        Ok(())
    }

    fn set_tablebases(&mut self, tablebases: Option<Syzygy>) {
        self.syzygy = tablebases;
    }

    /// A searcher over the same transposition table, with its own move ordering and
    /// iteration schedule.
    fn helper(&self, index: usize, signals: Arc<Signals>) -> Option<Box<dyn Searcher>> {
        let mut helper = AlphaBeta::with_table(self.tt.clone(), index, signals);
        helper.features = self.features;
        helper.multi_pv = self.multi_pv;
        helper.syzygy = self.syzygy.clone();
        helper.helper_nodes = self.helper_nodes.clone();
        Some(Box::new(helper))
    }
}
