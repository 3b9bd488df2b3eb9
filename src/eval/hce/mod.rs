//! The hand-crafted evaluation: a tapered weighted sum of features whose weights are
//! fitted to game results by its Texel tuner ([`tune`], `harrier tune`), with a non-linear
//! king attack and endgame scaling.
//!
//! Each feature family is a module that reports its terms to a [`terms::Sink`]: the
//! engine's sink weighs them at once ([`evaluate`]), the trace records them ([`trace`]).
//! [`draws`] scales known draws towards 0, and [`mopup`] drives a bare king to the edge;
//! the network's output obeys both too ([`super::network_value`]).

pub mod bits;
mod cache;
mod context;
pub mod draws;
mod king;
pub mod mopup;
pub mod params;
mod passed;
mod pawns;
mod pieces;
pub mod scale;
pub mod score;
mod space;
pub mod terms;
mod threats;
pub mod trace;
pub mod tune;
pub mod weights;

use shakmaty::{Bitboard, Board, Chess, Color, Position, Role};

use context::Context;
use params::*;
use score::S;
use terms::{Sink, Term, TermSums};
use trace::Trace;

/// Evaluates `pos` in centipawns for the side to move.
pub fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    let (pawn_score, passed) = cache::probe(board);
    let mut terms = TermSums::default();
    terms.linear[Color::White as usize] += pawn_score;
    piece_terms(pos, passed, &mut terms);
    let white = blend(board, terms.linear, terms.safety).value;
    draws::scale(pos, if pos.turn() == Color::White { white } else { -white })
}

/// The term counts of `pos`, uncached.
pub fn trace(pos: &Chess) -> Trace {
    let mut trace = Trace::default();
    let passed = pawns::evaluate(pos.board(), &mut trace);
    piece_terms(pos, passed, &mut trace);
    trace
}

/// Every term but the pawn structure and king shelter, which [`cache`] keeps.
fn piece_terms<K: Sink>(pos: &Chess, passed: Bitboard, sink: &mut K) {
    let mut ctx = Context::new(pos.board(), passed);
    pieces::evaluate(&mut ctx, sink);
    king::evaluate(&ctx, sink);
    threats::evaluate(&ctx, sink);
    passed::evaluate(&ctx, pos.turn(), sink);
    space::evaluate(&ctx, sink);
    mopup::evaluate(&ctx, sink);
    sink.add(pos.turn(), Term::Tempo, 0, 1);
}

/// An evaluation from White's side, with what went into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blend {
    /// White's middlegame and endgame score minus Black's, the king attack included.
    pub total: S,
    /// The middlegame share, out of [`PHASE_TOTAL`].
    pub phase: i32,
    /// The share of the endgame score kept, out of [`SCALE_NORMAL`].
    pub scale: i32,
    /// The final value in centipawns.
    pub value: i32,
}

/// Blends each colour's `linear` terms and king-attack `units` into the final value.
pub fn blend(board: &Board, linear: [S; 2], units: [S; 2]) -> Blend {
    let (white, black) = (Color::White as usize, Color::Black as usize);
    let total = linear[white] - linear[black] + king_attack(units[white]) - king_attack(units[black]);
    let phase = phase(board);
    let strong = if total.eg() >= 0 { Color::White } else { Color::Black };
    let scale = scale::endgame_factor(board, strong);
    let endgame = total.eg() * (PHASE_TOTAL - phase) * scale / SCALE_NORMAL;
    Blend { total, phase, scale, value: (total.mg() * phase + endgame) / PHASE_TOTAL }
}

/// The score of king-attack `units`: quadratic in the middlegame, linear in the endgame.
pub fn king_attack(units: S) -> S {
    let mg = units.mg().max(0);
    S(mg * mg / SAFETY_MG_DIVISOR, units.eg().max(0) / SAFETY_EG_DIVISOR)
}

/// The middlegame share of `board`, out of [`PHASE_TOTAL`].
pub fn phase(board: &Board) -> i32 {
    let phase: i32 =
        Role::ALL.iter().map(|&role| PHASE_WEIGHT[role as usize - 1] * board.by_role(role).count() as i32).sum();
    phase.min(PHASE_TOTAL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    const FENS: [&str; 6] = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
        "8/5k2/8/3P4/8/8/5K2/8 w - - 0 1",
        "6k1/5ppp/8/8/8/8/r4PPP/1R4K1 b - - 0 1",
        "r3k2r/ppq2ppp/2n1b3/3pP3/1b1Pn3/2NB1N2/PP1B1PPP/R2Q1RK1 w kq - 0 12",
        "2r3k1/1q3pp1/p3p2p/1p1nP3/3P4/P2Q1N2/1P3PPP/2R3K1 b - - 0 28",
    ];

    /// `fen` with colours swapped and the board flipped top to bottom.
    fn mirrored(fen: &str) -> Chess {
        let pos = position(fen);
        let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
        setup.mirror();
        setup.position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn start_position_is_balanced_apart_from_tempo() {
        assert_eq!(evaluate(&Chess::default()), weights::TEMPO[0].mg());
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for fen in FENS {
            assert_eq!(evaluate(&position(fen)), evaluate(&mirrored(fen)), "{fen}");
        }
    }

    #[test]
    fn the_trace_sums_to_the_evaluation() {
        let weights = trace::engine_weights();
        for fen in FENS {
            let pos = position(fen);
            let white = trace(&pos).blend(pos.board(), &weights).value;
            let relative = if pos.turn() == Color::White { white } else { -white };
            assert_eq!(relative, evaluate(&pos), "{fen}");
        }
    }

    #[test]
    fn extra_material_is_better() {
        let up_a_knight = position("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
        let up_a_rook = position("4k3/8/8/8/8/8/8/1R2K3 w - - 0 1");
        assert!(evaluate(&up_a_rook) > 300);
        assert!(evaluate(&up_a_knight) < 50, "a lone knight cannot mate");
    }
}
