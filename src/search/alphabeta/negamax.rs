//! The recursive search: negamax alpha-beta with principal variation search. Node kinds
//! (PV or not) are compile-time parameters.

#[cfg(not(feature = "tune"))]
use once_cell::sync::Lazy;
use shakmaty::{Chess, Move, Position};

use super::check::CheckSquares;
use super::history::{NO_PIECE_TO, PieceTo, piece_to};
use super::movepick::{MovePicker, MoveScores, OrderingHints};
use super::params::TABLEBASE_DRAFT_BONUS;
use super::presets::Preset;
use super::see::see;
use super::worker::Worker;
use crate::moves::{MoveCode, NO_MOVE, encode, is_tactical};
use crate::search::tt::{TtBound, TtHit};
use crate::search::tunables;
use crate::search::{INFINITY, MATE_BOUND, MAX_PLY, mate_in, mated_in};
use crate::value::TB_WIN_BOUND;
use crate::zobrist::{key_after, key_after_null};

/// The late-move reduction formula, `base + ln(depth)·ln(moves) / divisor` plies with
/// the tunables' coefficients (none at a draft or move number of 0).
fn reduction_formula(depth: usize, moves: usize) -> i32 {
    if depth == 0 || moves == 0 {
        return 0;
    }
    let ln = (depth as f64).ln() * (moves as f64).ln();
    let base = f64::from(tunables::lmr_base_percent()) / 100.0;
    let divisor = f64::from(tunables::lmr_divisor_percent()) / 100.0;
    (base + ln / divisor) as i32
}

/// Drafts and move numbers past this share the reduction of the last one.
const LMR_SIZE: usize = 64;

/// Late-move reductions by draft and move number: the formula, once.
#[cfg(not(feature = "tune"))]
static LMR_TABLE: Lazy<[[i32; LMR_SIZE]; LMR_SIZE]> =
    Lazy::new(|| std::array::from_fn(|depth| std::array::from_fn(|moves| reduction_formula(depth, moves))));

/// The late-move reduction, in plies, of the quiet move searched `searched`-th (from 0)
/// at `depth`, before the adjustments a node makes for itself.
#[cfg(not(feature = "tune"))]
pub(super) fn late_move_reduction(depth: i32, searched: usize) -> i32 {
    LMR_TABLE[(depth.max(0) as usize).min(LMR_SIZE - 1)][searched.min(LMR_SIZE - 1)]
}

/// The late-move reduction, in plies, of the quiet move searched `searched`-th (from 0)
/// at `depth`, before the adjustments a node makes for itself. The `tune` build works the
/// formula out each time instead of keeping a table: its coefficients change between
/// searches, and with nothing derived from them there is nothing to rebuild or to share
/// between threads.
#[cfg(feature = "tune")]
pub(super) fn late_move_reduction(depth: i32, searched: usize) -> i32 {
    reduction_formula((depth.max(0) as usize).min(LMR_SIZE - 1), searched.min(LMR_SIZE - 1))
}

/// What a singular-extension test found about the table move.
enum Singular {
    /// The other moves all fail well below it: search it a ply deeper.
    Extend,
    /// Other moves reach beta too: the node fails high with this value.
    MultiCut(i32),
    /// Neither.
    No,
}

/// True if the side to move has a piece other than pawns and king (null move is safe).
fn has_non_pawn_material(pos: &Chess) -> bool {
    let board = pos.board();
    let ours = board.by_color(pos.turn());
    (ours & !board.pawns() & !board.kings()).any()
}

impl Worker {
    /// The tablebase value of `pos`, when the tables know it and it settles the window
    /// (a win at least `beta`, a loss at most `alpha`, a draw always); stored in the table.
    fn tablebase_cutoff(
        &mut self,
        pos: &Chess,
        key: u64,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let tables = self.syzygy.as_ref()?;
        // The tables assume the halfmove clock was just reset.
        if pos.halfmoves() != 0 || !tables.covers(pos) {
            return None;
        }
        let fewer_pieces_than_the_limit = pos.board().occupied().count() < tables.probe_limit.min(tables.max_pieces());
        if depth < tables.probe_depth && !fewer_pieces_than_the_limit {
            return None;
        }
        let value = tables.probe_value(pos, ply)?;
        self.tbhits += 1;
        let bound = if value >= TB_WIN_BOUND {
            TtBound::Lower
        } else if value <= -TB_WIN_BOUND {
            TtBound::Upper
        } else {
            TtBound::Exact
        };
        if !bound.settles(value, alpha, beta) {
            return None;
        }
        let draft = (depth + TABLEBASE_DRAFT_BONUS).min(MAX_PLY as i32);
        let eval = self.evaluator.evaluate(pos, ply);
        self.shared.tt.store(key, ply, NO_MOVE, value, eval, draft, bound);
        Some(value)
    }

    /// Negamax alpha-beta search of `pos` (whose key is on top of `self.line.keys`) to `depth`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax<P: Preset, const PV: bool>(
        &mut self,
        pos: &Chess,
        key: u64,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        allow_null: bool,
    ) -> i32 {
        self.line.pv_len[ply] = 0;
        if depth <= 0 {
            if P::FEATURES.quiescence {
                return self.quiescence::<P>(pos, key, ply, alpha, beta);
            }
            self.visit(ply);
            return self.evaluator.evaluate(pos, ply);
        }
        if self.visit(ply) {
            return 0;
        }
        if self.is_draw(pos) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluator.evaluate(pos, ply);
        }
        if P::FEATURES.mate_distance {
            // Mate distance pruning: no line from here can beat a mate already found nearer.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        let in_check = pos.is_check();
        // A singular-extension search of this node without one move: it must not take the
        // node's own results from the table, nor leave its partial ones there.
        let excluded = self.line.plies[ply].excluded;
        let tt_hit = if P::FEATURES.transposition_table { self.shared.tt.probe(key, ply) } else { None };
        let tt_move = tt_hit.map_or(NO_MOVE, |h| h.mv);
        if let Some(hit) = tt_hit
            && !PV
            && excluded == NO_MOVE
            && hit.depth >= depth
            && hit.settles(alpha, beta)
        {
            return hit.value;
        }
        if excluded == NO_MOVE
            && let Some(value) = self.tablebase_cutoff(pos, key, depth, ply, alpha, beta)
        {
            return value;
        }

        let raw_eval =
            if in_check { -INFINITY } else { tt_hit.map_or_else(|| self.evaluator.evaluate(pos, ply), |h| h.eval) };
        let static_eval = if in_check { -INFINITY } else { self.static_eval::<P>(pos, raw_eval) };
        self.line.plies[ply].static_eval = (!in_check).then_some(static_eval);
        let improving = self.improving(ply);

        if P::FEATURES.pruning && !PV && !in_check && excluded == NO_MOVE {
            // Reverse futility pruning: far above beta at low draft, a quiet position holds.
            // Not against a mate-score beta: only a search can prove a faster mate.
            if depth <= tunables::rfp_max_depth()
                && static_eval - tunables::rfp_margin() * (depth - i32::from(improving)) >= beta
                && static_eval < MATE_BOUND
                && beta.abs() < MATE_BOUND
            {
                return static_eval;
            }
            // Null-move pruning: if passing still fails high, a real move will too. Not
            // against a beta that says we are mated: passing beats any mate bound, but the
            // shallow search after it cannot see the mate it would be refuting.
            if allow_null
                && depth >= tunables::nmp_min_depth()
                && static_eval >= beta
                && beta > -MATE_BOUND
                && has_non_pawn_material(pos)
                && let Ok(null_pos) = pos.clone().swap_turn()
            {
                self.line.plies[ply].moved = NO_PIECE_TO;
                let reduction = tunables::nmp_base_reduction()
                    + depth / tunables::nmp_depth_divisor()
                    + ((static_eval - beta) / tunables::nmp_eval_divisor()).min(tunables::nmp_eval_reduction_max());
                let null_key = key_after_null(pos, key);
                self.line.keys.push(null_key);
                self.evaluator.follow_null_move(ply);
                let value = -self.negamax::<P, false>(
                    &null_pos,
                    null_key,
                    depth - 1 - reduction,
                    ply + 1,
                    -beta,
                    -beta + 1,
                    false,
                );
                self.line.keys.pop();
                if self.stopped {
                    return 0;
                }
                if value >= beta {
                    return if value >= MATE_BOUND { beta } else { value };
                }
            }
        }

        // Internal iterative reduction: a node without a table move is searched a ply
        // shallower; the next visit finds the move this search leaves behind.
        if P::FEATURES.pruning
            && P::FEATURES.transposition_table
            && depth >= tunables::iir_min_depth()
            && tt_move == NO_MOVE
        {
            depth -= 1;
        }

        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { mated_in(ply) } else { 0 };
        }
        let mut singular = false;
        if P::FEATURES.pruning
            && ply > 0
            && excluded == NO_MOVE
            && depth >= tunables::se_min_depth()
            && let Some(hit) = tt_hit
        {
            match self.singular::<P>(pos, key, depth, ply, beta, hit) {
                Singular::Extend => singular = true,
                // A PV node owes an exact value: a bound from a shallower search is not one.
                Singular::MultiCut(value) if !PV => return value,
                Singular::MultiCut(_) => {}
                Singular::No => {}
            }
            if self.stopped {
                return 0;
            }
        }
        let side = pos.turn();
        let killers = if P::FEATURES.killers { self.histories.killers.at(ply) } else { [NO_MOVE; 2] };
        // The moves one and two plies back, for continuation history and counter moves.
        let previous = [1, 2].map(|back| if ply >= back { self.line.plies[ply - back].moved } else { NO_PIECE_TO });
        let counter = if P::FEATURES.history { self.histories.counters.get(previous[0]) } else { NO_MOVE };
        let quiet_scorer = self.histories.quiet_scorer(side, previous);
        let quiet_score = |m: Move| quiet_scorer.score(m);
        let capture_history = &self.histories.captures;
        let capture_score = |m: Move| capture_history.score(side, m);
        let see_of = |m: Move| see(pos, m);
        let hints = OrderingHints {
            tt_move,
            killers,
            counter,
            history: P::FEATURES.history.then_some(quiet_score),
            capture_history: P::FEATURES.history.then_some(capture_score),
            see: P::FEATURES.see_ordering.then_some(see_of),
        };
        let mut scores = MoveScores::unwritten();
        let picker = MovePicker::new(&mut moves, &mut scores, &hints);

        let mut best_value = -INFINITY;
        let mut best_move = NO_MOVE;
        let mut best_is_tactical = false;
        let mut quiets_tried = [NO_MOVE; 64];
        let mut quiet_pieces = [NO_PIECE_TO; 64];
        let mut quiet_count = 0usize;
        let mut captures_tried: [Option<Move>; 32] = [None; 32];
        let mut capture_count = 0usize;
        let mut searched = 0usize;
        let futile = P::FEATURES.pruning
            && !PV
            && !in_check
            && depth <= tunables::futility_max_depth()
            && alpha.abs() < MATE_BOUND
            && static_eval
                + tunables::futility_base()
                + tunables::futility_per_depth() * depth
                + tunables::futility_improving() * i32::from(improving)
                <= alpha;
        let lmp_tries = tunables::lmp_base() + depth * depth;
        let lmp_limit = if improving { lmp_tries } else { lmp_tries * tunables::lmp_not_improving_percent() / 100 };
        let check_squares = CheckSquares::new(pos);

        for m in picker {
            let code = encode(m);
            if code == excluded {
                continue;
            }
            let quiet = !is_tactical(m);
            let gives_check = check_squares.gives_check(pos, m);

            if P::FEATURES.pruning && !PV && !in_check && quiet && !gives_check && best_value > -MATE_BOUND {
                if depth <= tunables::lmp_max_depth() && quiet_count as i32 >= lmp_limit {
                    continue;
                }
                if futile {
                    continue;
                }
            }
            // SEE pruning: at low draft, a move that loses material on its square is not
            // worth a search once some move has been searched.
            if P::FEATURES.pruning
                && ply > 0
                && !in_check
                && !gives_check
                && depth <= tunables::see_prune_max_depth()
                && best_value > -MATE_BOUND
            {
                let bar = if quiet {
                    -tunables::see_quiet_margin() * depth
                } else {
                    -tunables::see_tactical_margin() * depth * depth
                };
                if see(pos, m) < bar {
                    continue;
                }
            }

            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = key_after(pos, key, m, &child);
            self.shared.tt.prefetch(child_key);
            let extension = i32::from((P::FEATURES.check_extension && gives_check) || (singular && code == tt_move));
            let new_depth = depth - 1 + extension;
            let moved = piece_to(side, m);
            self.line.plies[ply].moved = moved;
            self.line.keys.push(child_key);
            self.evaluator.follow_move(ply, pos, m);
            let value = if searched == 0 {
                -self.negamax::<P, PV>(&child, child_key, new_depth, ply + 1, -beta, -alpha, true)
            } else {
                let mut reduction = 0;
                if P::FEATURES.pruning
                    && depth >= tunables::lmr_min_depth()
                    && searched >= tunables::lmr_full_depth_moves()
                    && quiet
                    && !gives_check
                    && !in_check
                {
                    reduction = late_move_reduction(depth, searched);
                    reduction -= i32::from(PV);
                    reduction += i32::from(!improving);
                    reduction -= i32::from(code == killers[0] || code == killers[1]);
                    if P::FEATURES.history {
                        reduction -= self.quiet_score(side, m, previous) / tunables::lmr_history_divisor();
                    }
                    reduction = reduction.clamp(0, (new_depth - 1).max(0));
                }
                let mut value = -self.negamax::<P, false>(
                    &child,
                    child_key,
                    new_depth - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    true,
                );
                if value > alpha && reduction > 0 {
                    value = -self.negamax::<P, false>(&child, child_key, new_depth, ply + 1, -alpha - 1, -alpha, true);
                }
                if PV && value > alpha && value < beta {
                    value = -self.negamax::<P, true>(&child, child_key, new_depth, ply + 1, -beta, -alpha, true);
                }
                value
            };
            self.line.keys.pop();
            searched += 1;
            if self.stopped {
                return 0;
            }

            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = code;
                    best_is_tactical = !quiet;
                    alpha = value;
                    if PV {
                        self.line.update_pv(ply, code);
                    }
                    if value >= beta {
                        if quiet && P::FEATURES.killers {
                            self.histories.killers.record(ply, code);
                        }
                        if P::FEATURES.history {
                            let quiets = (&quiets_tried[..quiet_count], &quiet_pieces[..quiet_count]);
                            self.learn_from_cutoff(side, depth, m, previous, quiets, &captures_tried[..capture_count]);
                        }
                        break;
                    }
                }
            }
            if quiet && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = code;
                quiet_pieces[quiet_count] = moved;
                quiet_count += 1;
            } else if !quiet && capture_count < captures_tried.len() {
                captures_tried[capture_count] = Some(m);
                capture_count += 1;
            }
        }

        let bound = if best_value >= beta {
            TtBound::Lower
        } else if best_move != NO_MOVE {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        // The search's value teaches the static evaluation when it is exact or a bound on
        // the far side of it, and not the result of winning material.
        let informative = match bound {
            TtBound::Exact => true,
            TtBound::Lower => best_value > static_eval,
            TtBound::Upper => best_value < static_eval,
        };
        if excluded != NO_MOVE {
            return best_value;
        }
        if P::FEATURES.correction && !in_check && !best_is_tactical && informative && best_value.abs() < MATE_BOUND {
            self.histories.correction.update(pos, depth, best_value - raw_eval);
        }
        if P::FEATURES.transposition_table {
            self.shared.tt.store(key, ply, best_move, best_value, raw_eval, depth, bound);
        }
        best_value
    }

    /// Singular extension test of the table move `hit.mv` at a node of draft `depth`: when
    /// the table knows it as good (a lower or exact bound not much shallower), the other
    /// moves are searched at half the draft against a bar below its value. If all fail low,
    /// the move is singular and gets a ply more; if even that bar reaches `beta`, several
    /// moves cut off and the node fails high at once (multi-cut).
    fn singular<P: Preset>(
        &mut self,
        pos: &Chess,
        key: u64,
        depth: i32,
        ply: usize,
        beta: i32,
        hit: TtHit,
    ) -> Singular {
        if hit.mv == NO_MOVE
            || hit.bound == TtBound::Upper
            || hit.depth < depth - tunables::se_tt_depth_margin()
            || hit.value.abs() >= MATE_BOUND
        {
            return Singular::No;
        }
        let singular_beta = hit.value - tunables::se_margin() * depth;
        self.line.plies[ply].excluded = hit.mv;
        let value = self.negamax::<P, false>(pos, key, (depth - 1) / 2, ply, singular_beta - 1, singular_beta, false);
        self.line.plies[ply].excluded = NO_MOVE;
        if value < singular_beta {
            Singular::Extend
        } else if singular_beta >= beta {
            Singular::MultiCut(singular_beta)
        } else {
            Singular::No
        }
    }

    /// The static evaluation `raw` of `pos` as pruning and quiescence use it: with the
    /// correction history added when it is on.
    #[inline]
    pub(super) fn static_eval<P: Preset>(&self, pos: &Chess, raw: i32) -> i32 {
        if P::FEATURES.correction { self.histories.correction.corrected(pos, raw) } else { raw }
    }

    /// True when the static evaluation at `ply` is better than two plies before (or four,
    /// when the side was in check then; true when neither is known): the side to move is
    /// making progress, so pruning should be more careful.
    fn improving(&self, ply: usize) -> bool {
        let Some(now) = self.line.plies[ply].static_eval else { return false };
        let before =
            [2, 4].into_iter().filter(|&back| ply >= back).find_map(|back| self.line.plies[ply - back].static_eval);
        before.is_none_or(|before| now > before)
    }

    /// The ordering score of the quiet move `m` by `side`: butterfly history plus the
    /// continuation histories after the moves `previous` (one and two plies back).
    #[inline]
    fn quiet_score(&self, side: shakmaty::Color, m: Move, previous: [PieceTo; 2]) -> i32 {
        self.histories.quiet_scorer(side, previous).score(m)
    }

    /// Updates the ordering tables after `best` cut off at `depth`: a quiet cutoff feeds the
    /// butterfly and continuation histories (bonus to it, malus to the `quiets` tried before
    /// it, as codes and as pieces) and becomes the counter move to the previous move; a
    /// capture cutoff earns a capture-history bonus; the `captures` tried before pay a malus.
    fn learn_from_cutoff(
        &mut self,
        side: shakmaty::Color,
        depth: i32,
        best: Move,
        previous: [PieceTo; 2],
        quiets: (&[MoveCode], &[PieceTo]),
        captures: &[Option<Move>],
    ) {
        let captures = captures.iter().flatten().copied();
        if is_tactical(best) {
            self.histories.captures.update(side, depth, Some(best), captures);
            return;
        }
        let code = encode(best);
        let moved = piece_to(side, best);
        self.histories.quiet.update(side, depth, code, quiets.0);
        for (table, &before) in self.histories.continuation.iter_mut().zip(previous.iter()) {
            table.update(before, depth, moved, quiets.1);
        }
        self.histories.counters.record(previous[0], code);
        self.histories.captures.update(side, depth, None, captures);
    }
}
