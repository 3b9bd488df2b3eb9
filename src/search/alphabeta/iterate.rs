//! Iterative deepening on one thread: deeper and deeper iterations over the root moves
//! until a limit or the clock ends them. The main thread reports and decides when to stop;
//! a helper searches silently until it is stopped, and publishes each finished iteration.

use shakmaty::{Move, Position};

use super::params::{MATE_PROOF_EXTRA_PLIES, SMP_SKIP_PHASE, SMP_SKIP_SIZE};
use super::presets::Preset;
use super::shared::Finished;
use super::timing::Stability;
use super::worker::Worker;
use crate::moves::is_tactical;
use crate::search::time::TimeManager;
use crate::search::{
    Bound, MATE, MATE_BOUND, MAX_DEPTH, Progress, Report, Reporter, SearchJob, SearchOutcome, mated_in,
};
use crate::zobrist::key_of;

impl Worker {
    /// Searches `job` by iterative deepening with `lines` principal variations, on the
    /// budgets of `time` (none: until stopped or the depth goal), reporting each iteration
    /// to `reporter`. Returns this thread's move to play.
    pub(super) fn iterate<P: Preset>(
        &mut self,
        job: &SearchJob,
        reporter: &mut dyn Reporter,
        time: Option<TimeManager>,
        lines: usize,
    ) -> SearchOutcome {
        let start = job.started;
        let root = &job.root;
        let limits = &job.limits;
        self.start(limits.nodes.unwrap_or(u64::MAX), time, false);
        self.histories.killers.clear();
        self.lines.clear();
        let root_key = key_of(root);
        self.line.set_root(&job.history, root_key);
        self.evaluator.start_at(root);

        let mut root_moves = self.initial_root_moves(root, root_key, &limits.searchmoves);
        if root_moves.is_empty() {
            let value = if root.is_check() { mated_in(0) } else { 0 };
            let report = self.report(0, value, Bound::Exact, Vec::new(), start.elapsed());
            return SearchOutcome { best: None, ponder: None, report };
        }

        let max_depth = limits.depth_goal().unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let lines = lines.clamp(1, root_moves.len());
        // Each line's value in the last finished iteration: the centre of its next window.
        let mut line_values = vec![0; lines];
        let mut best_line: Vec<Move> = vec![root_moves[0].mv];
        let mut best_value: i32 = 0;
        let mut final_report = None;
        let mut stability = Stability::default();
        for depth in 1..=max_depth {
            if depth < max_depth && self.skips(depth) {
                continue;
            }
            let mut reports = Vec::with_capacity(lines);
            for line in 0..lines {
                // Line k is the best of the root moves that the lines before it left out.
                let previous = line_values[line];
                let moves = &mut root_moves[line..];
                let value =
                    self.search_line::<P>(root, root_key, depth, previous, moves, line as u32 + 1, reporter, start);
                if self.stopped {
                    break;
                }
                let report = self.report(depth, value, Bound::Exact, self.principal_line(root), start.elapsed());
                reports.push((value, report));
            }
            if self.stopped {
                break;
            }
            // A later line can come out better than an earlier one (the earlier search saw
            // its move only through a null window): the lines go out best first.
            reports.sort_by_key(|(value, _)| std::cmp::Reverse(*value));
            let previous_values = line_values.clone();
            for (number, (value, report)) in reports.iter_mut().enumerate() {
                line_values[number] = *value;
                report.multipv = number as u32 + 1;
                reporter.report(Progress::Iteration(report.clone()));
            }
            self.lines = reports.into_iter().map(|(_, report)| report).collect();
            let value = line_values[0];
            best_value = value;
            best_line = self.lines[0].pv.clone();
            self.has_result = true;
            let seldepth = self.lines[0].seldepth;
            let finished = Finished { depth, seldepth, value, line: best_line.clone() };
            self.shared.publish_iteration(self.index, finished, depth == max_depth);
            final_report = self.lines.first().cloned();

            if limits.mate_reached(value) || mates_settled(depth, &previous_values, &line_values) {
                break;
            }
            if let Some(time) = self.time.as_mut() {
                let root_nodes = root_moves.iter().map(|rm| rm.nodes).sum();
                let best_nodes = root_moves.iter().find(|rm| rm.mv == best_line[0]).map_or(0, |rm| rm.nodes);
                time.scale_soft(stability.soft_scale(depth, best_line[0], value, best_nodes, root_nodes));
                if time.stop_after_iteration(&self.signals) {
                    break;
                }
                if time.is_timed() && root_moves.len() == 1 && !self.signals.is_pondering() {
                    break;
                }
            }
            if self.nodes >= self.node_limit
                || limits.soft_nodes.is_some_and(|soft| self.nodes >= soft)
                || limits.tactical_soft_nodes.is_some_and(|soft| self.nodes >= soft && is_tactical(best_line[0]))
            {
                break;
            }
        }

        let report = match final_report {
            Some(report) => Report {
                nodes: self.all_nodes(),
                elapsed: start.elapsed(),
                hashfull: self.shared.tt.hashfull(),
                tbhits: self.tbhits + self.shared.tbhits_of_others(self.index),
                ..report
            },
            None => self.report(1, best_value, Bound::Exact, best_line.clone(), start.elapsed()),
        };
        let best = best_line[0];
        let ponder = best_line.get(1).copied().or_else(|| self.ponder_from_table(root, root_key, best));
        SearchOutcome { best: Some(best), ponder, report }
    }

    /// The main thread's answer once the helpers have been told to stop: its own
    /// `outcome`, or a helper's deeper result (see [`SharedState::better_helper_result`]),
    /// reported with the whole search's counts.
    ///
    /// [`SharedState::better_helper_result`]: super::shared::SharedState::better_helper_result
    pub(super) fn answer_from_best_thread(&self, job: &SearchJob, outcome: SearchOutcome) -> SearchOutcome {
        let goal = job.limits.depth_goal().unwrap_or(MAX_DEPTH);
        let Some(better) = self.shared.better_helper_result(goal) else { return outcome };
        let best = better.line[0];
        let ponder = better.line.get(1).copied().or_else(|| self.ponder_from_table(&job.root, key_of(&job.root), best));
        let report = Report {
            seldepth: better.seldepth,
            nodes: outcome.report.nodes,
            elapsed: outcome.report.elapsed,
            hashfull: outcome.report.hashfull,
            tbhits: outcome.report.tbhits,
            ..Report::new(better.value, better.depth, better.line)
        };
        SearchOutcome { best: Some(best), ponder, report }
    }

    /// True when this Lazy SMP helper leaves iteration `depth` to the other threads, so
    /// that the threads search different depths at the same moment. The main thread and
    /// the first iteration skip nothing, so every thread has a move; the search's last
    /// iteration is skipped by no one either (see the caller).
    fn skips(&self, depth: u32) -> bool {
        if self.index == 0 || depth == 1 {
            return false;
        }
        let j = (self.index - 1) % SMP_SKIP_SIZE.len();
        ((depth + SMP_SKIP_PHASE[j]) / SMP_SKIP_SIZE[j]) % 2 == 1
    }
}

/// True when every line's value is a mate that deepening would only repeat: the last two
/// iterations found the same mate, and this one, to `depth`, searched at least twice the
/// mate's distance in plies and [`MATE_PROOF_EXTRA_PLIES`] more. Without this the search
/// of a forced mate deepens to its last iteration, cheaply (mate distance pruning cuts
/// every line at the mate's distance) but uselessly, and GUIs print that depth beside the
/// mate (`+M1/120`).
///
/// A mate score is backed up from mates on the board alone, and pruning never drops a
/// move at a node until a move there has escaped mate, so the defence the line found is
/// really forced. What deepening can still find is a shorter mate, or a longer defence,
/// hidden by a reduction: at twice the distance every move of the line's length has been
/// searched far past it whatever its reduction, and two iterations agreeing rule out a
/// value that one search with a fresh table got wrong.
fn mates_settled(depth: u32, previous: &[i32], values: &[i32]) -> bool {
    previous == values
        && values.iter().all(|&value| {
            let plies = (MATE - value.abs()) as u32;
            value.abs() >= MATE_BOUND && depth >= 2 * plies + MATE_PROOF_EXTRA_PLIES
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{mate_in, mated_in};

    #[test]
    fn a_mate_is_settled_when_two_iterations_agree_past_twice_its_distance() {
        let mate_in_two = mate_in(3);
        assert!(mates_settled(8, &[mate_in_two], &[mate_in_two]));
        assert!(!mates_settled(7, &[mate_in_two], &[mate_in_two]), "not deep enough");
        assert!(!mates_settled(8, &[mate_in(5)], &[mate_in_two]), "the mate changed");
        assert!(!mates_settled(20, &[35], &[35]), "no mate");
        assert!(mates_settled(10, &[mated_in(4)], &[mated_in(4)]), "being mated settles too");
        assert!(!mates_settled(20, &[mate_in_two, 10], &[mate_in_two, 10]), "every line must be a mate");
    }
}
