//! The quiescence search at the horizon: stand pat, then captures and promotions (every
//! evasion when in check) until the position is quiet, with the transposition table.

use shakmaty::{Chess, Position, Role};

use super::check::gives_check;
use super::movepick::{MovePicker, MoveScores};
use super::params::QUIESCENCE_DRAFT;
use super::presets::Preset;
use super::see::{may_lose_material, see};
use super::worker::Worker;
use crate::moves::{NO_MOVE, encode, role_value, tactical_moves};
use crate::search::tt::TtBound;
use crate::search::tunables;
use crate::search::{INFINITY, MATE_BOUND, MAX_PLY, mated_in};
use crate::zobrist::key_after;

impl Worker {
    /// Quiescence search of `pos` (zobrist key `key`). A table entry of any draft settles a
    /// non-PV node; its value replaces the static evaluation when its bound says the truth
    /// lies beyond it. Results are stored at [`QUIESCENCE_DRAFT`], never over a deeper entry.
    pub(super) fn quiescence<P: Preset>(
        &mut self,
        pos: &Chess,
        key: u64,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.line.pv_len[ply] = 0;
        if self.visit(ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluator.evaluate(pos, ply);
        }
        let pv = beta - alpha > 1;
        let tt_hit = if P::FEATURES.transposition_table { self.shared.tt.probe(key, ply) } else { None };
        if let Some(hit) = tt_hit
            && !pv
            && hit.settles(alpha, beta)
        {
            return hit.value;
        }
        // A deeper entry of this position is worth more than what this search can store.
        let may_store = P::FEATURES.transposition_table && tt_hit.is_none_or(|h| h.depth <= QUIESCENCE_DRAFT);
        let original_alpha = alpha;
        let in_check = pos.is_check();
        let (raw_eval, stand_pat) = if in_check {
            (-INFINITY, -INFINITY)
        } else {
            let raw_eval = tt_hit.map_or_else(|| self.evaluator.evaluate(pos, ply), |h| h.eval);
            let static_eval = self.static_eval::<P>(pos, raw_eval);
            let stand_pat = match tt_hit {
                Some(hit) if hit.value.abs() < MATE_BOUND && hit.settles(static_eval, static_eval) => hit.value,
                _ => static_eval,
            };
            if stand_pat >= beta {
                if may_store {
                    self.shared.tt.store(key, ply, NO_MOVE, stand_pat, raw_eval, QUIESCENCE_DRAFT, TtBound::Lower);
                }
                return stand_pat;
            }
            (raw_eval, stand_pat)
        };
        // Generated only now, a stand pat at or above beta needs no moves; and in one
        // statement, so that the list is written where it stays, not copied there.
        let mut moves = if in_check { pos.legal_moves() } else { tactical_moves(pos) };
        if in_check && moves.is_empty() {
            return mated_in(ply);
        }
        alpha = alpha.max(stand_pat);
        let mut best_value = stand_pat;

        let tt_move = tt_hit.map_or(NO_MOVE, |h| h.mv);
        let mut best_move = NO_MOVE;
        let mut scores = MoveScores::unwritten();
        for m in MovePicker::tactical(&mut moves, &mut scores, tt_move) {
            if !in_check {
                let gain = m.capture().map_or(0, role_value)
                    + if m.is_en_passant() { role_value(Role::Pawn) } else { 0 }
                    + m.promotion().map_or(0, |r| role_value(r) - role_value(Role::Pawn));
                // A check is kept: the material sum cannot see that it may mate.
                let hopeless = P::FEATURES.delta_pruning
                    && alpha.abs() < MATE_BOUND
                    && stand_pat + gain + tunables::delta_margin() <= alpha
                    && !gives_check(pos, m);
                if hopeless || (P::FEATURES.quiescence_see && may_lose_material(m) && see(pos, m) < 0) {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = key_after(pos, key, m, &child);
            self.shared.tt.prefetch(child_key);
            self.evaluator.follow_move(ply, pos, m);
            let value = -self.quiescence::<P>(&child, child_key, ply + 1, -beta, -alpha);
            if self.stopped {
                return 0;
            }
            if value > best_value {
                best_value = value;
                if value > alpha {
                    alpha = value;
                    best_move = encode(m);
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        if may_store {
            let bound = if best_value >= beta {
                TtBound::Lower
            } else if best_value > original_alpha {
                TtBound::Exact
            } else {
                TtBound::Upper
            };
            self.shared.tt.store(key, ply, best_move, best_value, raw_eval, QUIESCENCE_DRAFT, bound);
        }
        best_value
    }
}
