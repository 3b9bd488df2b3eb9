//! Mop-up: against a bare king, drive it to the edge and bring the kings together, so the
//! search sees its way to a mate that no other term tells apart from shuffling.

use shakmaty::{Board, Color, Square};

use super::context::Context;
use super::scale::piece_material;
use super::terms::{Sink, Term};

/// Non-pawn material, in pawns (minor 3, rook 5, queen 9), from which a side can mate a
/// bare king by force without pawns' help.
const MATING_MATERIAL: u32 = 5;

/// Reports the mop-up terms of a side facing a bare king with mating material.
pub fn evaluate<K: Sink>(ctx: &Context, sink: &mut K) {
    for color in Color::ALL {
        if !mates_bare_king(ctx.board, color) {
            continue;
        }
        let (king, their_king) = (ctx.king[color as usize], ctx.king[!color as usize]);
        sink.add(color, Term::MopUpEdge, 0, centre_distance(their_king));
        sink.add(color, Term::MopUpKings, 0, 7 - king.distance(their_king) as i32);
    }
}

/// True when either side faces a bare king with mating material.
#[inline]
pub fn applies(board: &Board) -> bool {
    Color::ALL.into_iter().any(|color| mates_bare_king(board, color))
}

/// True when `color`'s opponent has only its king and `color` has mating material.
#[inline]
fn mates_bare_king(board: &Board, color: Color) -> bool {
    let bare = (board.by_color(!color) & !board.kings()).is_empty();
    bare && piece_material(board, color) >= MATING_MATERIAL
}

/// Steps from `sq` to the nearest of the four centre squares (0 to 6).
fn centre_distance(sq: Square) -> i32 {
    let (file, rank) = (sq.file() as i32, sq.rank() as i32);
    (3 - file).max(file - 4) + (3 - rank).max(rank - 4)
}
