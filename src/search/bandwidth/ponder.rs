//! Harris's thinking on the opponent's time, for the Harris style's `go ponder`: the tree
//! stays rooted before the expected reply and grows under every reply, as between
//! commands, until `ponderhit` or `stop`. A miss then finds the real reply's subtree in
//! the tree as a hit does; alpha-beta's way (and the hybrid's) spends the opponent's time
//! on the expected reply alone and starts afresh on a miss. Info lines show the expected
//! reply's subtree, the position a GUI names as pondered.

use std::thread;
use std::time::{Duration, Instant};

use shakmaty::Position;

use super::Bandwidth;
use super::chess::ChessPos;
use super::params::{BandwidthStyle, IDLE_POLL_MS, REPORT_INTERVAL_MS, REPORT_MIN_GAP_MS};
use crate::moves::{MoveCode, decode, encode};
use crate::search::time::TimeManager;
use crate::search::{Progress, Report, Reporter, SearchJob, SearchOutcome};

/// How a whole-tree ponder ended.
pub(super) enum PonderEnd {
    /// `stop` came: the move to send for the pondered position, the tree left as it was.
    Stopped(SearchOutcome),
    /// `ponderhit` came: the tree is rooted at the pondered position, and the job to
    /// search there has its clock from the `ponderhit`. Its reuse is already reported.
    Hit(Box<SearchJob>),
}

impl Bandwidth {
    /// For the Harris style's `go ponder` on a position the game reached from the tree's
    /// root (normally our move and the expected reply): grows the whole tree rooted before
    /// the reply until `ponderhit` or `stop`. `None` when this is not such a job;
    /// the search then ponders as alpha-beta does.
    pub(super) fn ponder_whole_tree(&mut self, job: &SearchJob, reporter: &mut dyn Reporter) -> Option<PonderEnd> {
        if !job.limits.ponder || self.params().style != BandwidthStyle::Harris || !job.limits.searchmoves.is_empty() {
            return None;
        }
        let line = self.line_to(&ChessPos::new(job.root.clone()), &job.history)?;
        let (&reply, before) = line.split_last()?;
        let reply_code = encode(reply);
        // A subtree that is not kept leaves a fresh tree at the position before the reply:
        // still the one to grow.
        let kept = before.is_empty() || self.advance(before);
        self.note_reuse(kept, reporter);
        reporter.report(Progress::Note("pondering on every reply".to_string()));
        let signals = self.signals.clone();
        let waiting = || signals.is_pondering() && !signals.stop_requested();
        let work_before = self.work();
        let mut last_report = Instant::now();
        let mut reported = None;
        // A probe under way at `ponderhit` stops there: a frozen tree's probes look ever
        // further, and one could run on for seconds into the move's own time.
        self.searcher.game_mut().set_clock(Some(TimeManager::until_ponder_ends()));
        while waiting() {
            // Thinks in short slices, so that a change of the pondered line is shown soon.
            let slice_end = Instant::now() + Duration::from_millis(REPORT_MIN_GAP_MS);
            if self.think_until(|| !waiting() || Instant::now() >= slice_end) == 0 {
                thread::sleep(Duration::from_millis(IDLE_POLL_MS));
            }
            let report = self.pondered_report(job, reply_code, work_before);
            let line = Some((report.pv.len(), report.pv.first().cloned()));
            if line != reported || last_report.elapsed() >= Duration::from_millis(REPORT_INTERVAL_MS) {
                reporter.report(Progress::Iteration(report));
                last_report = Instant::now();
                reported = line;
            }
        }
        self.searcher.game_mut().set_clock(None);
        if signals.stop_requested() {
            return Some(PonderEnd::Stopped(self.answer_in_tree(job, reply_code, work_before)));
        }
        self.set_position(&job.root, &job.history);
        let mut timed = job.clone();
        timed.limits.ponder = false;
        // A fixed move time runs from `go`, as for any ponder; a clock's budget runs from
        // the `ponderhit`, when the opponent's time, spread over every reply, ended.
        if timed.limits.movetime.is_none() {
            timed.started = signals.ponderhit_at().unwrap_or_else(Instant::now);
        }
        Some(PonderEnd::Hit(Box::new(timed)))
    }

    /// The answer the tree holds for the position after the root's son by `reply`: the
    /// pondered line's first move, else the probes' table's move or the best-looking move.
    fn answer_in_tree(&mut self, job: &SearchJob, reply: MoveCode, work_before: u64) -> SearchOutcome {
        let mut report = self.pondered_report(job, reply, work_before);
        if report.pv.is_empty() {
            report.pv.extend(self.move_without_tree(job));
        }
        SearchOutcome { best: report.pv.first().cloned(), ponder: report.pv.get(1).cloned(), report }
    }

    /// The report on the pondered position, the root's son by `reply`: its line of best
    /// sons, its value, and the work since `work_before`.
    fn pondered_report(&self, job: &SearchJob, reply: MoveCode, work_before: u64) -> Report {
        let tree = self.tree();
        let son = tree.child_by_move(tree.root(), reply);
        let mut pv = Vec::new();
        let mut pos = job.root.clone();
        let mut id = son;
        while let Some(node) = id.filter(|&n| !tree.node(n).is_tip()) {
            let best = tree.best_son(node);
            let Some(m) = decode(&pos, tree.node(best).mv()) else { break };
            pos.play_unchecked(m);
            pv.push(m);
            id = Some(best);
        }
        let depth = pv.len().max(1) as u32;
        Report {
            nodes: self.work() - work_before,
            elapsed: job.started.elapsed(),
            hashfull: tree.hashfull(),
            ..Report::new(son.map_or(0, |id| tree.node(id).value()), depth, pv)
        }
    }
}
