//! Passed pawns: rank, a free or safe path, the kings' distances, rooks behind, and the
//! square rule against a bare king.

use shakmaty::{Color, Rank, Role, Square};

use super::bits::{front_span, relative_rank, square_ahead};
use super::context::Context;
use super::pieces::piece_attacks;
use super::terms::{Sink, Term};

/// Reports the passed-pawn terms of both sides; `turn` is the side to move.
pub fn evaluate<K: Sink>(ctx: &Context, turn: Color, sink: &mut K) {
    let board = ctx.board;
    for color in Color::ALL {
        let them = !color as usize;
        let enemy_pieces = board.by_color(!color) & !board.pawns() & !board.kings();
        for sq in ctx.passed & board.by_color(color) {
            let rank = relative_rank(color, sq);
            sink.add(color, Term::PassedRank, rank, 1);
            let Some(front) = square_ahead(color, sq) else { continue };
            let path = front_span(color, sq);
            if (path & (ctx.occupied | ctx.attacked[them])).is_empty() {
                sink.add(color, Term::PassedFreePath, rank, 1);
            } else if !ctx.occupied.contains(front) && !ctx.attacked[them].contains(front) {
                sink.add(color, Term::PassedSafePush, rank, 1);
            }
            sink.add(color, Term::PassedOwnKing, ctx.king[color as usize].distance(front).min(7) as usize, 1);
            sink.add(color, Term::PassedTheirKing, ctx.king[them].distance(front).min(7) as usize, 1);

            let behind = piece_attacks(Role::Rook, sq, ctx.occupied) & front_span(!color, sq) & board.rooks();
            if (behind & board.by_color(color)).any() {
                sink.add(color, Term::PassedRookBehind, 0, 1);
            }
            if (behind & board.by_color(!color)).any() {
                sink.add(color, Term::PassedRookBehind, 1, 1);
            }

            // The square rule: a bare king that cannot catch the pawn, whose path is clear.
            let promotion =
                Square::from_coords(sq.file(), if color == Color::White { Rank::Eighth } else { Rank::First });
            if enemy_pieces.is_empty() && (path & ctx.occupied).is_empty() {
                let steps = (7 - rank).min(5) as u32;
                let tempo = u32::from(turn != color);
                if ctx.king[them].distance(promotion) > steps + tempo {
                    sink.add(color, Term::PassedUnstoppable, 0, 1);
                }
            }
        }
    }
}
