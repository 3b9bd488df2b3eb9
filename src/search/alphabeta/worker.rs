//! One search thread's own state: its move-ordering memory, the line it is on, its counts
//! and what stops it. The main thread's worker answers the search; helpers' workers
//! search the same root on their own threads and meet it only in the shared table.

use std::sync::Arc;
use std::time::Duration;

use shakmaty::{Chess, Move, Position};

use super::history::Histories;
use super::params::CHECK_INTERVAL;
use super::shared::SharedState;
use super::stack::SearchLine;
use crate::eval::LineEvaluator;
use crate::moves::decode;
use crate::search::syzygy::Syzygy;
use crate::search::time::TimeManager;
use crate::search::{Bound, Report, Signals, drawn_by_rule};
use crate::zobrist::key_after;

/// A search thread's state.
pub(super) struct Worker {
    /// What every thread of the searcher shares.
    pub(super) shared: Arc<SharedState>,
    /// 0 for the main thread, which answers the search; helpers count from 1.
    pub(super) index: usize,
    /// Stop and ponder flags of the search this thread runs.
    pub(super) signals: Arc<Signals>,
    /// Syzygy tablebases probed in the search.
    pub(super) syzygy: Option<Syzygy>,
    /// What earlier cutoffs taught about move order, and the evaluation's corrections.
    pub(super) histories: Histories,
    /// The static evaluation, with the network's accumulators along the line.
    pub(super) evaluator: LineEvaluator,
    /// The line from the root, with the game's positions before it.
    pub(super) line: SearchLine,
    /// The lines of the last finished iteration, best first.
    pub(super) lines: Vec<Report>,
    /// Nodes searched in this search.
    pub(super) nodes: u64,
    /// Deepest ply reached in this search.
    pub(super) seldepth: usize,
    /// Tablebase probes that gave a value in this search.
    pub(super) tbhits: u64,
    /// This thread's share of the search's node limit: the limit less the other threads'
    /// nodes at the last look.
    pub(super) node_limit: u64,
    /// The clock, for the main thread; helpers search until stopped.
    pub(super) time: Option<TimeManager>,
    /// Set when the search must unwind.
    pub(super) stopped: bool,
    /// True once there is a move to play: the clock and the node limit stop the search
    /// only then.
    pub(super) has_result: bool,
}

impl Worker {
    /// Thread number `index`'s worker over `shared`, stopped by `signals`.
    pub(super) fn new(shared: Arc<SharedState>, index: usize, signals: Arc<Signals>) -> Worker {
        Worker {
            shared,
            index,
            signals,
            syzygy: None,
            histories: Histories::default(),
            evaluator: LineEvaluator::default(),
            line: SearchLine::default(),
            lines: Vec::new(),
            nodes: 0,
            seldepth: 0,
            tbhits: 0,
            node_limit: u64::MAX,
            time: None,
            stopped: false,
            has_result: false,
        }
    }

    /// Resets the counts and stop state for a new search (or probe) with at most
    /// `node_limit` nodes, on `time`.
    pub(super) fn start(&mut self, node_limit: u64, time: Option<TimeManager>, has_result: bool) {
        self.nodes = 0;
        self.seldepth = 0;
        self.tbhits = 0;
        self.stopped = false;
        self.has_result = has_result;
        self.node_limit = node_limit.max(1);
        self.time = time;
    }

    /// Counts a node and, every [`CHECK_INTERVAL`] nodes, looks at the stop flag, the node
    /// limit and the clock. Returns true when the search must unwind; a node entered while
    /// it unwinds is not counted, so that a node limit is kept exactly.
    #[inline]
    pub(super) fn visit(&mut self, ply: usize) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes.is_multiple_of(CHECK_INTERVAL) || self.nodes >= self.node_limit {
            self.poll_limits();
        }
        self.stopped
    }

    /// Publishes this thread's counts and stops the search when the stop flag is set, the
    /// node limit is reached or the hard time limit has passed (the last two only once
    /// depth 1 has given a move).
    fn poll_limits(&mut self) {
        let shared = &self.shared;
        if shared.thread_count() > 1 {
            shared.publish_counts(self.index, self.nodes, self.tbhits);
            if self.node_limit != u64::MAX {
                self.node_limit = self.node_limit.saturating_sub(shared.nodes_of_others(self.index));
            }
        }
        if self.signals.stop_requested() || (self.index == 0 && shared.goal_reached()) {
            self.stopped = true;
        } else if self.has_result {
            let out_of_time = self.time.as_ref().is_some_and(|t| t.hard_expired(&self.signals));
            if out_of_time || self.nodes >= self.node_limit {
                self.stopped = true;
            }
        }
    }

    /// True when the game is drawn at this node (whose key is on top of the line's keys).
    pub(super) fn is_draw(&self, pos: &Chess) -> bool {
        let (key, earlier) = self.line.keys.split_last().expect("the node's key is on the stack");
        drawn_by_rule(pos, *key, earlier, self.line.root_index)
    }

    /// Nodes of this search, the other threads' included.
    pub(super) fn all_nodes(&self) -> u64 {
        self.nodes + self.shared.nodes_of_others(self.index)
    }

    /// The principal variation as moves, replayed from the root.
    pub(super) fn principal_line(&self, root: &Chess) -> Vec<Move> {
        let mut pos = root.clone();
        let mut moves = Vec::with_capacity(self.line.pv_len[0]);
        for &code in self.line.principal_codes() {
            let Some(m) = decode(&pos, code) else { break };
            pos.play_unchecked(m);
            moves.push(m);
        }
        moves
    }

    /// When the PV ends after our move, the table may still know the expected reply.
    pub(super) fn ponder_from_table(&self, root: &Chess, root_key: u64, best: Move) -> Option<Move> {
        let mut child = root.clone();
        child.play_unchecked(best);
        let key = key_after(root, root_key, best, &child);
        let hit = self.shared.tt.probe(key, 1)?;
        decode(&child, hit.mv)
    }

    /// A report of this search so far: `value` at `depth` with the line `pv`.
    pub(super) fn report(&self, depth: u32, value: i32, bound: Bound, pv: Vec<Move>, elapsed: Duration) -> Report {
        Report {
            seldepth: (self.seldepth as u32).max(depth),
            bound,
            nodes: self.all_nodes(),
            elapsed,
            hashfull: self.shared.tt.hashfull(),
            tbhits: self.tbhits + self.shared.tbhits_of_others(self.index),
            ..Report::new(value, depth, pv)
        }
    }
}
