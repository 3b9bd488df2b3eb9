//! Helpers for the tests that drive the alpha-beta searcher in-process: positions from
//! shakmaty alone, keys, move text, fixed-depth searches from a fresh start, and a
//! brute-force mate prover written from shakmaty alone.

use std::sync::Arc;
use std::time::Instant;

use harrier::search::alphabeta::AlphaBeta;
use harrier::search::alphabeta::presets::{Preset, Selectivity};
use harrier::search::{Limits, Score, SearchJob, SearchOutcome, Searcher, Signals, Silent};
use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

/// Parses a FEN with shakmaty only (standard castling).
pub fn chess(fen: &str) -> Chess {
    let fen: Fen = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
    fen.into_position(CastlingMode::Standard).unwrap_or_else(|e| panic!("{e}"))
}

pub fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

pub fn uci(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

pub fn play(pos: &Chess, m: Move) -> Chess {
    let mut child = pos.clone();
    child.play_unchecked(m);
    child
}

pub fn searcher() -> AlphaBeta {
    AlphaBeta::new(16, Selectivity::Full, Arc::new(Signals::default())).expect("a 16 MB table")
}

/// A fixed-depth search of `root` with the preset `P` after a fresh start of the searcher.
pub fn search_with<P: Preset>(s: &mut AlphaBeta, root: &Chess, history: &[u64], depth: u32) -> SearchOutcome {
    s.new_game();
    let job = SearchJob {
        root: root.clone(),
        history: history.to_vec(),
        limits: Limits { depth: Some(depth), ..Limits::default() },
        move_overhead: 0,
        started: Instant::now(),
    };
    let outcome = s.search_with::<P>(&job, &mut Silent);
    // A proven mate ends the iterations early; anything else must reach the depth asked for.
    if outcome.best.is_some() && !matches!(outcome.report.score, Score::Mate(_)) {
        assert_eq!(outcome.report.depth, depth, "a depth-limited search must finish its last iteration");
    }
    outcome
}

pub fn search<P: Preset>(root: &Chess, history: &[u64], depth: u32) -> SearchOutcome {
    search_with::<P>(&mut searcher(), root, history, depth)
}

/// True when the side to move can force mate within `n` of its moves.
pub fn mates_within(pos: &Chess, n: u32) -> bool {
    n > 0 && pos.legal_moves().iter().any(|&m| mating_move(pos, m, n))
}

/// True when `m` forces mate within `n` moves (counting `m`).
pub fn mating_move(pos: &Chess, m: Move, n: u32) -> bool {
    let child = play(pos, m);
    if child.is_checkmate() {
        return true;
    }
    if n <= 1 {
        return false;
    }
    let replies = child.legal_moves();
    // Stalemate is no mate.
    !replies.is_empty() && replies.iter().all(|&r| mates_within(&play(&child, r), n - 1))
}

/// The quiescence value written from shakmaty alone: stand pat on the static evaluation or
/// the best capture or promotion, every evasion when in check. With `skip_losing` it leaves
/// out captures that lose material by static exchange evaluation, as the engine's filter
/// does. Fail-soft alpha-beta with the biggest victims first (for speed only): exact in a
/// full window.
pub fn reference_quiescence(pos: &Chess, ply: usize, alpha: i32, beta: i32, skip_losing: bool) -> i32 {
    reference_quiescence_with(&harrier::eval::hce::evaluate, pos, ply, alpha, beta, skip_losing)
}

/// [`reference_quiescence`] with the static evaluation `evaluate`.
pub fn reference_quiescence_with(
    evaluate: &dyn Fn(&Chess) -> i32,
    pos: &Chess,
    ply: usize,
    mut alpha: i32,
    beta: i32,
    skip_losing: bool,
) -> i32 {
    use harrier::moves::role_value;
    use harrier::search::alphabeta::see::{may_lose_material, see};
    use harrier::search::{INFINITY, mated_in};

    let in_check = pos.is_check();
    let moves = pos.legal_moves();
    let mut best = -INFINITY;
    if in_check {
        if moves.is_empty() {
            return mated_in(ply);
        }
    } else {
        best = evaluate(pos);
        if best >= beta {
            return best;
        }
        alpha = alpha.max(best);
    }
    let losing = |m: Move| skip_losing && may_lose_material(m) && see(pos, m) < 0;
    let mut moves: Vec<Move> =
        moves.into_iter().filter(|&m| in_check || ((m.is_capture() || m.is_promotion()) && !losing(m))).collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.capture().map_or(0, role_value)));
    for m in moves {
        let value = -reference_quiescence_with(evaluate, &play(pos, m), ply + 1, -beta, -alpha, skip_losing);
        if value > best {
            best = value;
            alpha = alpha.max(value);
            if value >= beta {
                break;
            }
        }
    }
    best
}
