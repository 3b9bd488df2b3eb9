//! The bandwidth searcher: L. R. Harris's bandwidth heuristic search (IJCAI-73) in negamax
//! centipawns, with alpha-beta probes at the tips. `docs/bandwidth.md` describes the
//! algorithm and where it departs from the paper.
//!
//! [`best_first::BestFirst`] is the search on any [`game_tree::GameTree`]; [`Bandwidth`] wraps it
//! for chess with the engine's `SearchJob`, clock and reports, runs alpha-beta's iterative
//! deepening at the root before the tree where the probes deepen (`hybrid`), re-roots the
//! kept tree on each search and expands it silently between commands when allowed.

pub mod best_first;
pub mod chess;
mod choice;
mod expand;
pub mod game_tree;
mod hybrid;
mod memory;
pub mod params;
mod path;
mod ponder;
mod refresh;
mod rooting;
mod runner_up;
mod schedule;
mod select;
pub mod synthetic;
mod tip_cache;
pub mod tree;
mod window;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use crate::eval::Evaluation;
use crate::moves::{MoveCode, decode};
use crate::search::probe::ProberFactory;
use crate::search::syzygy::Syzygy;
use crate::search::time::TimeManager;
use crate::search::tt::MIN_HASH_MB;
use crate::search::{
    MATE, MATE_BOUND, Progress, Report, Reporter, SearchJob, SearchOutcome, SearchSettings, Signals, mated_in,
};
use best_first::{BestFirst, Stats, Step};
use chess::{ChessPos, ChessTree};
use hybrid::Lead;
use params::*;
use ponder::PonderEnd;
use tree::Tree;

/// What the last search did besides its report, for an `info string`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchSummary {
    /// Expansions made by the search.
    pub expansions: u64,
    /// Stale tips the search valued again (a deeper look-ahead, or a bound made exact).
    pub refreshed: u64,
    /// The look-ahead of tip estimates when the search ended.
    pub look_ahead: u32,
    /// Nodes searched by tip probes (quiescence) during the search.
    pub probe_nodes: u64,
    /// Nodes the tree kept from before the search (0 for a fresh tree).
    pub reused_nodes: usize,
    /// Positions idle thinking created since the previous search.
    pub idle_nodes: u64,
    /// The depth of the last iteration the hybrid's iterative deepening finished at the
    /// root before the tree grew (0: none ran).
    pub id_depth: u32,
}

/// The bandwidth searcher for chess and its tree, kept between searches.
pub struct Bandwidth {
    signals: Arc<Signals>,
    /// Makes the tip probers when the memory is laid out anew.
    probers: ProberFactory,
    /// The Syzygy tables tips and probes use.
    tablebases: Option<Syzygy>,
    /// The static evaluation tips and probes use.
    evaluation: Evaluation,
    searcher: BestFirst<ChessTree>,
    memory_mb: usize,
    /// Keep expanding the tree between commands (`AlwaysThink`).
    always_think: bool,
    idle_nodes: u64,
    summary: SearchSummary,
}

impl Bandwidth {
    /// A searcher whose tree, tip cache and probes' table share `memory_mb` megabytes (see
    /// [`params::tree_bytes`]), with tips valued by probers from `probers`, listening to
    /// `signals`, rooted at the start position.
    pub fn new(
        memory_mb: usize,
        params: BandwidthParams,
        probers: ProberFactory,
        signals: Arc<Signals>,
    ) -> Result<Bandwidth, String> {
        let settings = BandwidthSettings { params, ..BandwidthSettings::default() };
        Bandwidth::with_settings(memory_mb, settings, probers, signals)
    }

    /// A searcher with all the settings the options give.
    pub fn with_settings(
        memory_mb: usize,
        settings: BandwidthSettings,
        probers: ProberFactory,
        signals: Arc<Signals>,
    ) -> Result<Bandwidth, String> {
        let root = ChessPos::new(Chess::default());
        let searcher = build_searcher(memory_mb, settings.params, (root, &[]), &probers, signals.clone())?;
        Ok(Bandwidth {
            signals,
            probers,
            tablebases: None,
            evaluation: Evaluation::HandCrafted,
            searcher,
            memory_mb,
            always_think: settings.always_think,
            idle_nodes: 0,
            summary: SearchSummary::default(),
        })
    }

    /// The style, band, depth penalty and tip probe depth the search runs with.
    pub fn params(&self) -> &BandwidthParams {
        self.searcher.params()
    }

    /// Changes the settings: a fresh tree at the same root (its values were backed up under
    /// the old ones).
    pub fn set_params(&mut self, params: BandwidthParams) {
        if params == *self.params() {
            return;
        }
        self.searcher.set_params(params);
        self.searcher.game_mut().set_selective(params.selective());
        let root = self.searcher.root_pos().clone();
        self.searcher.reset(root);
    }

    /// Lays out `memory_mb` megabytes anew at the same root. The old memory is freed first,
    /// so that a resize never holds both sizes at once (the `Hash` check counts on it); if
    /// the new size cannot be had, the old one is laid out again.
    fn rebuild(&mut self, memory_mb: usize, params: BandwidthParams) -> Result<(), String> {
        let root = self.searcher.root_pos().clone();
        let history = self.searcher.game().history().to_vec();
        let build = |mb| build_searcher(mb, params, (root.clone(), &history), &self.probers, self.signals.clone());
        self.searcher = build(MIN_HASH_MB)?;
        let (searcher, result) = match build(memory_mb) {
            Ok(searcher) => (searcher, Ok(())),
            Err(reason) => (build(self.memory_mb)?, Err(reason)),
        };
        if result.is_ok() {
            self.memory_mb = memory_mb;
        }
        self.searcher = searcher;
        self.searcher.game_mut().set_tablebases(self.tablebases.clone());
        self.searcher.game_mut().set_evaluation(&self.evaluation);
        result
    }

    /// The node arena of the tree kept between searches.
    pub fn tree(&self) -> &Tree {
        self.searcher.tree()
    }

    /// The generic searcher inside, for inspection.
    pub fn searcher(&self) -> &BestFirst<ChessTree> {
        &self.searcher
    }

    /// The position at the root of the tree.
    pub fn root(&self) -> &Chess {
        &self.searcher.root_pos().pos
    }

    /// Nodes in the tree.
    pub fn nodes_in_tree(&self) -> usize {
        self.searcher.nodes_in_tree()
    }

    /// What the last search did besides its report.
    pub fn last_summary(&self) -> SearchSummary {
        self.summary
    }

    /// Expands the tree silently until `stop` returns true (polled between tips, so it
    /// answers within one tip probe), or nothing is left to expand or the tree is full
    /// (then the caller should wait for input rather than call again). Returns the
    /// positions created; they are also reported by the next search's summary.
    pub fn think_until(&mut self, stop: impl Fn() -> bool) -> u64 {
        let created = self.searcher.stats().created;
        while !stop() {
            if !matches!(self.searcher.step(&mut || stop()), Step::Expanded | Step::Refreshed | Step::Deepened) {
                break;
            }
        }
        let added = self.searcher.stats().created - created;
        self.idle_nodes += added;
        added
    }

    /// Every position the searcher has visited: the tree's new nodes and the probes' nodes.
    /// Info lines report it as `nodes`, and `go nodes` limits it.
    fn work(&self) -> u64 {
        self.searcher.stats().created + self.searcher.game().probe_nodes()
    }

    /// The move code of the root's best son (by key), if any.
    fn best_code(&self) -> Option<MoveCode> {
        let tree = self.searcher.tree();
        let root = tree.node(tree.root());
        (!root.is_tip()).then(|| tree.node(tree.best_son(tree.root())).mv())
    }

    /// The move for `job` when the tree holds none: the probes' table's, or else the
    /// best-looking one, of the moves `go searchmoves` allows.
    fn move_without_tree(&mut self, job: &SearchJob) -> Option<Move> {
        let allowed = &job.limits.searchmoves;
        let game = self.searcher.game_mut();
        (game.table_move(&job.root))
            .filter(|m| allowed.is_empty() || allowed.contains(m))
            .or_else(|| fallback_move(&job.root, allowed, |pos| game.static_evaluation(pos)))
    }

    /// True when `go depth` or `go mate` is satisfied. The depth is the longer of two
    /// principal lines: the one keys rank, which selection follows and grows, and the one
    /// values rank, which is reported. Under a large depth penalty the first is the
    /// shortest of the root's moves and reaches the depth only once nearly every move
    /// does; the second may end in a son that selection does not expand (out of the band
    /// by key, or dropped). A frozen tree looks further by deeper estimates instead of a
    /// longer line, so its look-ahead counts too (a tree frozen at its root would otherwise
    /// never reach the depth).
    fn reached_goal(&self, job: &SearchJob) -> bool {
        let root = self.searcher.root();
        let searcher = &self.searcher;
        // The reported line is ranked (and allocated) only when there is a depth to reach.
        let reach = || {
            let line = (root.pvlen() as u32).max(searcher.principal_line().len() as u32);
            if searcher.is_frozen() { searcher.probe_depth().max(line) } else { line }
        };
        // `go depth` and a lone `go mate` end where alpha-beta's do (the hybrid's iterations
        // are alpha-beta's): a tree whose line reaches that far has not found the mate.
        let depth_done = job.limits.depth_goal().is_some_and(|d| reach() >= d);
        let value = root.value();
        let mate_done = job.limits.mate_reached(value);
        depth_done || mate_done
    }

    /// True when the runner-up at the root is within the uncertainty zone of the best son.
    fn uncertain(&self) -> bool {
        let band = self.params().band;
        !self.searcher.is_finished() && self.searcher.root_lead().is_some_and(|(_, lead)| is_uncertain(lead, band))
    }

    /// True when the principal line reaches below the expected reply (or the outcome is
    /// decided): the tree then keeps a subtree for the position after the reply, to ponder
    /// on and to reuse. A search that ends at the soft budget waits for this until the hard
    /// limit.
    fn line_to_keep(&self) -> bool {
        self.searcher.root().pvlen() >= KEPT_LINE_PLIES || self.searcher.is_proven() || self.searcher.is_finished()
    }

    /// True when a timed search may stop at once: the outcome is proven and cannot get
    /// better, there is one legal move, or a best son is clearly better than the runner-up
    /// over a large subtree (checked every few steps).
    fn decided(&self, steps: u64) -> bool {
        let root = self.searcher.root();
        // A proven win may still hide a faster mate: stop early only on a mate in one (or
        // once nothing is left to search); a proven draw or loss cannot improve.
        let value = self.searcher.root_value();
        let shortest = !(MATE_BOUND..MATE - 1).contains(&value) || self.searcher.is_finished();
        if (self.searcher.is_proven() && shortest) || root.n_children() == 1 {
            return true;
        }
        if !steps.is_multiple_of(CLEAR_LEAD_CHECK_INTERVAL) {
            return false;
        }
        let band = self.params().band;
        self.searcher.best_son_trusted()
            && self
                .searcher
                .root_lead()
                .is_some_and(|(best, lead)| is_clear_lead(lead, band, self.searcher.tree().subtree_size(best)))
    }

    /// True if the search should stop before its next step: never before the root has sons
    /// (there is no move to stop with) unless the tree is frozen at its root (the probes'
    /// table then gives the move), then on a stop or the node limit (`work` done so
    /// far), at the goal of a `go mate` or `go depth`, on the hard limit, on the soft one
    /// once the tree is settled, and when a timed search has clearly decided.
    fn should_stop(&self, job: &SearchJob, time: &TimeManager, steps: u64, work: u64) -> bool {
        if self.searcher.root().is_tip() && !self.searcher.is_frozen() {
            return false;
        }
        let signals = &*self.signals;
        if signals.stop_requested() || work >= job.limits.nodes.unwrap_or(u64::MAX) || self.reached_goal(job) {
            return true;
        }
        let settled = !self.uncertain() && self.line_to_keep() && self.searcher.best_son_trusted();
        if time.hard_expired(signals) || (settled && time.soft_expired(signals)) {
            return true;
        }
        time.is_timed() && !signals.is_pondering() && self.decided(steps)
    }

    /// Ends a search that started with the searcher's counters at `stats` and
    /// `probe_nodes`, and its work at `work_before`: the summary, the final report and the
    /// move to play. That is the hybrid's iterative deepening's (`lead`) when the tree did
    /// not go on after it (`stop`, or the goal of `go depth` or `go mate`: a tree kept from
    /// earlier searches would answer with another depth) or when the tree's choice does not
    /// [stand](Bandwidth::tree_choice_stands) against it; else the tree's, or, when the tree
    /// has none, a move from the probes' table or the best-looking move the root allows.
    fn conclude(
        &mut self,
        job: &SearchJob,
        reporter: &mut dyn Reporter,
        stats: Stats,
        (probe_nodes, work_before): (u64, u64),
        lead: Option<Lead>,
    ) -> SearchOutcome {
        let start = job.started;
        self.summary.expansions = self.searcher.stats().expansions - stats.expansions;
        self.summary.refreshed = self.searcher.stats().refreshed - stats.refreshed;
        self.summary.look_ahead = self.searcher.probe_depth();
        self.summary.probe_nodes = self.searcher.game().probe_nodes() - probe_nodes;
        let mut report = match lead {
            Some(lead) if !lead.tree_goes_on || !self.tree_choice_stands(&lead.outcome) => {
                Report { nodes: self.work() - work_before, elapsed: start.elapsed(), ..lead.outcome.report }
            }
            _ => self.report(job, work_before, start),
        };
        if report.pv.is_empty()
            && let Some(m) = self.move_without_tree(job)
        {
            report.pv.push(m);
        }
        let s = self.summary;
        let first = if s.id_depth > 0 { format!("depth {} by alpha-beta, then ", s.id_depth) } else { String::new() };
        reporter.report(Progress::Note(format!(
            "bandwidth: {first}{} expansions, {} tips revalued, {} probe nodes, tip look-ahead {}, tree {} nodes",
            s.expansions,
            s.refreshed,
            s.probe_nodes,
            s.look_ahead,
            self.nodes_in_tree()
        )));
        let best = report.pv.first().copied();
        // A line that ends after our move (a search stopped just after the best move
        // changed) may still have the expected reply in the prober's table.
        let ponder =
            report.pv.get(1).copied().or_else(|| best.and_then(|m| self.searcher.game().expected_reply(&job.root, m)));
        SearchOutcome { best, ponder, report }
    }

    /// The report of the search so far.
    fn report(&self, job: &SearchJob, work_before: u64, start: Instant) -> Report {
        let mut pos = job.root.clone();
        let mut pv = Vec::new();
        for code in self.searcher.principal_line() {
            let Some(m) = decode(&pos, code) else { break };
            pos.play_unchecked(m);
            pv.push(m);
        }
        let value = if self.searcher.root().is_tip() && job.root.legal_moves().is_empty() {
            if job.root.is_check() { mated_in(0) } else { 0 }
        } else {
            // The value of the move reported, which may not be the root's best son by key
            // (see `BestFirst::flatters_root`).
            self.searcher.root_choices().first().map_or_else(|| self.searcher.root_value(), |&(_, value)| value)
        };
        // The length of the line reported (the root's own line can differ where brothers tie:
        // the reported line breaks ties by subtree size, the root's by order), and never
        // less than the depth the hybrid's iterative deepening finished.
        let depth = (pv.len() as u32).max(self.summary.id_depth);
        Report {
            seldepth: (self.searcher.deepest() as u32).max(depth),
            nodes: self.work() - work_before,
            elapsed: start.elapsed(),
            hashfull: self.searcher.tree().hashfull(),
            ..Report::new(value, depth, pv)
        }
    }

    /// Reports `info string reused <N> nodes`: the nodes below the root when the tree was
    /// `kept` (a bare root carries nothing).
    fn note_reuse(&self, kept: bool, reporter: &mut dyn Reporter) {
        let carried = if kept { self.nodes_in_tree().saturating_sub(1) } else { 0 };
        reporter.report(Progress::Note(format!("reused {carried} nodes")));
    }

    /// Grows the tree until the search should stop, reporting its progress.
    fn grow(&mut self, job: &SearchJob, reporter: &mut dyn Reporter, time: &TimeManager, work_before: u64) {
        let start = job.started;
        let signals = self.signals.clone();
        let mut last_report = start;
        let mut reported = (self.searcher.root().pvlen(), self.best_code());
        let mut steps = 0u64;
        self.searcher.game_mut().set_clock(time.is_timed().then(|| time.clone()));
        // The probes and the tree may spend what `go nodes` leaves after the work so far.
        let done = self.work() - work_before;
        let game = self.searcher.game_mut();
        game.set_node_budget(job.limits.nodes.map(|nodes| nodes.saturating_sub(done)));
        let budget_spent = game.budget_spent();

        loop {
            if self.should_stop(job, time, steps, self.work() - work_before) {
                break;
            }
            // Even the first expansion of a fresh root may be aborted: with tip probes it can
            // outlast a short clock. Without a move then, the probes' table or
            // `fallback_move` gives one.
            let mut abort =
                || signals.stop_requested() || time.hard_expired(&signals) || budget_spent.load(Ordering::Relaxed);
            match self.searcher.step(&mut abort) {
                Step::Expanded | Step::Refreshed | Step::Deepened => steps += 1,
                Step::Aborted | Step::Done | Step::Frozen => break,
            }
            let now = Instant::now();
            let current = (self.searcher.root().pvlen(), self.best_code());
            let since = now.duration_since(last_report);
            if since >= Duration::from_millis(REPORT_INTERVAL_MS)
                || (current != reported && since >= Duration::from_millis(REPORT_MIN_GAP_MS))
            {
                reporter.report(Progress::Iteration(self.report(job, work_before, start)));
                last_report = now;
                reported = current;
            }
        }

        self.searcher.game_mut().set_clock(None);
        self.searcher.game_mut().set_node_budget(None);
    }
}

impl crate::search::Searcher for Bandwidth {
    /// Runs a search to its limits and returns the move to play.
    fn search(&mut self, job: &SearchJob, reporter: &mut dyn Reporter) -> SearchOutcome {
        let hit;
        let (job, reuse_reported) = match self.ponder_whole_tree(job, reporter) {
            Some(PonderEnd::Stopped(outcome)) => return outcome,
            Some(PonderEnd::Hit(timed)) => {
                hit = *timed;
                (&hit, true)
            }
            None => (job, false),
        };
        let limits = &job.limits;
        let mut time = TimeManager::new(limits, job.root.turn(), job.move_overhead, job.started);
        time.stretch_soft(SOFT_BUDGET_STRETCH_PERCENT);
        let reused = self.prepare(job);
        if !reuse_reported {
            self.note_reuse(reused, reporter);
        }
        let stats = *self.searcher.stats();
        let probe_nodes = self.searcher.game().probe_nodes();
        let work_before = self.work();
        self.summary = SearchSummary {
            reused_nodes: if reused { self.nodes_in_tree() } else { 0 },
            idle_nodes: std::mem::take(&mut self.idle_nodes),
            ..SearchSummary::default()
        };
        self.searcher.clear_deepest();
        let lead = if self.searcher.is_hybrid() {
            Some(self.lead(job, reporter, &time))
        } else {
            self.searcher.game_mut().new_search();
            None
        };
        if lead.as_ref().is_none_or(|lead| lead.tree_goes_on) {
            self.grow(job, reporter, &time, work_before);
        }
        self.searcher.game_mut().clear_seeds();
        self.conclude(job, reporter, stats, (probe_nodes, work_before), lead)
    }

    /// Forgets the tree and the cached estimates and goes back to the start position.
    fn new_game(&mut self) {
        let game = self.searcher.game_mut();
        game.clear();
        game.set_history(&[]);
        self.searcher.reset(ChessPos::new(Chess::default()));
        self.idle_nodes = 0;
    }

    /// Gives tree, tip cache and probes' table `memory_mb` megabytes; the tree starts
    /// afresh. On failure the old size is laid out again.
    fn resize(&mut self, memory_mb: usize) -> Result<(), String> {
        self.rebuild(memory_mb, *self.params())
    }

    /// Tips in the tables' range take their value from them, and the probes search with
    /// them. The tree starts afresh: its values were backed up without them.
    fn set_tablebases(&mut self, tablebases: Option<Syzygy>) {
        self.searcher.game_mut().set_tablebases(tablebases.clone());
        self.tablebases = tablebases;
        let root = self.searcher.root_pos().clone();
        self.searcher.reset(root);
    }

    /// The bandwidth settings and the evaluation; `MultiPV` above 1 is alpha-beta's only.
    /// A new evaluation starts a fresh tree: its values were backed up under the old one.
    fn configure(&mut self, settings: &SearchSettings) -> Vec<String> {
        self.set_params(settings.bandwidth.params);
        if !settings.evaluation.is_same(&self.evaluation) {
            self.evaluation = settings.evaluation.clone();
            self.searcher.game_mut().set_evaluation(&self.evaluation);
            let root = self.searcher.root_pos().clone();
            self.searcher.reset(root);
        }
        self.always_think = settings.bandwidth.always_think;
        let lines = settings.multi_pv;
        let single = format!("bandwidth mode reports one line, not {lines}; the other modes report them");
        let full = "bandwidth mode plays at full strength; the playing level applies in the other modes";
        let mut notes: Vec<String> = (lines > 1).then_some(single).into_iter().collect();
        notes.extend(settings.level.is_some().then(|| full.to_string()));
        notes
    }

    /// Bandwidth mode grows one tree on one thread.
    fn set_threads(&mut self, threads: usize) -> Result<Option<String>, String> {
        match threads {
            1 => Ok(None),
            _ => Ok(Some(format!("bandwidth mode searches on one thread, not {threads}; the other modes use them"))),
        }
    }

    /// When the GUI allows pondering, or with `AlwaysThink`: walks the tree down the move
    /// played and expands it silently.
    fn think_idle(&mut self, played: Option<Move>, ponder: bool, stop: &dyn Fn() -> bool) {
        if !(ponder || self.always_think) {
            return;
        }
        if let Some(played) = played {
            self.advance(&[played]);
        }
        self.think_until(stop);
    }
}

/// The move with the best static evaluation after it, of the `searchmoves` (all legal moves
/// when there are none), for a search stopped before the root's first expansion finished
/// (a clock too short for even one expansion) when the probes' table holds no move for the
/// root either.
fn fallback_move(root: &Chess, searchmoves: &[Move], mut evaluate: impl FnMut(&Chess) -> i32) -> Option<Move> {
    let moves = if searchmoves.is_empty() { root.legal_moves().to_vec() } else { searchmoves.to_vec() };
    moves.into_iter().max_by_key(|&m| {
        let mut child = root.clone();
        child.play_unchecked(m);
        -evaluate(&child)
    })
}

/// True when a best root son that leads the runner-up by `lead` centipawns under a band of
/// `band`, over a subtree of `subtree_nodes` nodes, is clearly better (B*'s rule): the
/// search may stop before its time is up.
fn is_clear_lead(lead: i32, band: i32, subtree_nodes: usize) -> bool {
    let lead_needed = (CLEAR_LEAD_BANDS * band.min(MAX_BAND)).max(CLEAR_LEAD_MIN_CP);
    lead > lead_needed && subtree_nodes >= CLEAR_LEAD_MIN_NODES
}

/// True when a best root son that leads the runner-up by `lead` centipawns under a band of
/// `band` is within Harris's uncertainty zone: a search past its soft budget goes on
/// towards the hard limit. A band of 0 has no zone.
fn is_uncertain(lead: i32, band: i32) -> bool {
    lead < band.min(MAX_BAND) * UNCERTAINTY_BAND_PERCENT / 100
}

/// A chess searcher with `memory_mb` megabytes, rooted at `root` after `history`.
fn build_searcher(
    memory_mb: usize,
    params: BandwidthParams,
    (root, history): (ChessPos, &[u64]),
    probers: &ProberFactory,
    signals: Arc<Signals>,
) -> Result<BestFirst<ChessTree>, String> {
    let mut game = ChessTree::new(tip_cache_bytes(memory_mb), probe_table_mb(memory_mb), probers, signals)?;
    game.set_history(history);
    game.set_selective(params.selective());
    BestFirst::new(game, root, params, tree_node_cap(memory_mb))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uncertainty_zone_is_a_share_of_the_band_and_absent_at_band_0() {
        assert!(!is_uncertain(0, 0));
        let band = 200;
        let zone = band * UNCERTAINTY_BAND_PERCENT / 100;
        assert!(zone > 0 && is_uncertain(zone - 1, band) && !is_uncertain(zone, band));
    }

    #[test]
    fn a_clear_lead_is_wider_than_two_bands_and_never_a_scouts_centipawn() {
        let big = CLEAR_LEAD_MIN_NODES;
        // With the default band every other root son holds a bound one centipawn below the
        // best: that is no lead.
        assert!(!is_clear_lead(1, 0, big));
        assert!(!is_clear_lead(CLEAR_LEAD_MIN_CP, 0, big));
        assert!(is_clear_lead(CLEAR_LEAD_MIN_CP + 1, 0, big));
        assert!(!is_clear_lead(CLEAR_LEAD_MIN_CP + 1, 0, big - 1));
        let wide = CLEAR_LEAD_MIN_CP;
        assert!(!is_clear_lead(2 * wide, wide, big));
        assert!(is_clear_lead(2 * wide + 1, wide, big));
    }
}
