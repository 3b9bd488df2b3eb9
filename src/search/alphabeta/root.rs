//! The root of an iteration: the root moves, one search over them, and the aspiration
//! windows around it.

use std::time::Instant;

use shakmaty::{Chess, Move, Position};

use super::history::piece_to;
use super::movepick::{MovePicker, MoveScores, OrderingHints, Unused};
use super::presets::Preset;
use super::worker::Worker;
use super::{VERBOSE_AFTER_MS, see};
use crate::moves::{NO_MOVE, encode};
use crate::search::tunables;
use crate::search::{Bound, INFINITY, MATE_BOUND, Progress, Report, Reporter};
use crate::zobrist::key_after;

/// One root move and what the last iterations learned about it.
#[derive(Clone, Copy, Debug)]
pub(super) struct RootMove {
    pub(super) mv: Move,
    /// Value from the last iteration where it was searched with an open window.
    pub(super) value: i32,
    /// Nodes spent below it in the current iteration (orders the non-best moves).
    pub(super) nodes: u64,
}

impl Worker {
    /// Legal root moves (restricted to `searchmoves` when given), ordered for depth 1.
    pub(super) fn initial_root_moves(&self, root: &Chess, root_key: u64, searchmoves: &[Move]) -> Vec<RootMove> {
        let mut legal = root.legal_moves();
        if !searchmoves.is_empty() {
            legal.retain(|m| searchmoves.contains(m));
        }
        let tt_move = self.shared.tt.probe(root_key, 0).map_or(NO_MOVE, |h| h.mv);
        let see_of = |m: Move| see::see(root, m);
        let hints = OrderingHints {
            tt_move,
            killers: [NO_MOVE; 2],
            counter: NO_MOVE,
            history: None::<Unused>,
            capture_history: None::<Unused>,
            see: Some(see_of),
        };
        MovePicker::new(&mut legal, &mut MoveScores::unwritten(), &hints)
            .map(|mv| RootMove { mv, value: -INFINITY, nodes: 0 })
            .collect()
    }

    /// One iteration over the root moves; returns the best value (fail-soft).
    #[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
    fn search_root<P: Preset>(
        &mut self,
        root: &Chess,
        root_key: u64,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        root_moves: &mut [RootMove],
        reporter: &mut dyn Reporter,
        start: Instant,
    ) -> i32 {
        self.line.pv_len[0] = 0;
        self.line.plies[0].static_eval =
            (!root.is_check()).then(|| self.static_eval::<P>(root, self.evaluator.evaluate(root, 0)));
        let mut best_value = -INFINITY;
        for index in 0..root_moves.len() {
            let mv = root_moves[index].mv;
            if start.elapsed().as_millis() >= VERBOSE_AFTER_MS {
                reporter.report(Progress::CurrentMove { depth: depth as u32, mv, number: index as u32 + 1 });
            }
            let nodes_before = self.nodes;
            let mut child = root.clone();
            child.play_unchecked(mv);
            let child_key = key_after(root, root_key, mv, &child);
            let extension = i32::from(P::FEATURES.check_extension && child.is_check());
            let new_depth = depth - 1 + extension;
            self.line.plies[0].moved = piece_to(root.turn(), mv);
            self.line.keys.push(child_key);
            self.evaluator.follow_move(0, root, mv);
            let value = if index == 0 {
                -self.negamax::<P, true>(&child, child_key, new_depth, 1, -beta, -alpha, true)
            } else {
                let value = -self.negamax::<P, false>(&child, child_key, new_depth, 1, -alpha - 1, -alpha, true);
                if value > alpha && value < beta {
                    -self.negamax::<P, true>(&child, child_key, new_depth, 1, -beta, -alpha, true)
                } else {
                    value
                }
            };
            self.line.keys.pop();
            root_moves[index].nodes = self.nodes - nodes_before;
            if self.stopped {
                return best_value;
            }
            if value > best_value {
                best_value = value;
            }
            if value > alpha {
                root_moves[index].value = value;
                alpha = value;
                self.line.update_pv(0, encode(mv));
                if value >= beta {
                    break;
                }
            } else {
                root_moves[index].value = -INFINITY;
            }
        }
        // The best move first, the others by the effort they took (a proxy for how close
        // they came).
        if let Some(best) = self.line.principal_codes().first().copied() {
            root_moves.sort_by_key(|rm| (encode(rm.mv) != best, std::cmp::Reverse(rm.nodes)));
        }
        best_value
    }

    /// One iteration over `root_moves` with aspiration windows around `previous`, the
    /// value this line had in the last iteration; returns its value (meaningless when the
    /// search was stopped).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_line<P: Preset>(
        &mut self,
        root: &Chess,
        root_key: u64,
        depth: u32,
        previous: i32,
        root_moves: &mut [RootMove],
        multipv: u32,
        reporter: &mut dyn Reporter,
        start: Instant,
    ) -> i32 {
        let (mut alpha, mut beta) = (-INFINITY, INFINITY);
        let mut delta = tunables::aspiration_delta();
        if P::FEATURES.aspiration && depth >= tunables::aspiration_min_depth() && previous.abs() < MATE_BOUND {
            alpha = (previous - delta).max(-INFINITY);
            beta = (previous + delta).min(INFINITY);
        }
        loop {
            let value = self.search_root::<P>(root, root_key, depth as i32, alpha, beta, root_moves, reporter, start);
            if self.stopped {
                return value;
            }
            let bound = if value <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-INFINITY);
                Bound::Upper
            } else if value >= beta {
                beta = (value + delta).min(INFINITY);
                Bound::Lower
            } else {
                return value;
            };
            delta = delta * tunables::aspiration_growth_percent() / 100;
            if start.elapsed().as_millis() >= VERBOSE_AFTER_MS {
                let line = self.principal_line(root);
                let report = Report { multipv, ..self.report(depth, value, bound, line, start.elapsed()) };
                reporter.report(Progress::Iteration(report));
            }
        }
    }
}
