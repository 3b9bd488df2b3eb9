//! Space: safe central squares behind the pawn front, worth more with more pieces to use them.

use shakmaty::{Bitboard, Color, Role};

use super::context::Context;
use super::terms::{Sink, Term};

/// Files c to f on White's ranks 2 to 4.
const WHITE_SPACE: Bitboard = Bitboard(0x0000_0000_3C3C_3C00);
/// Files c to f on Black's ranks 7 to 5.
const BLACK_SPACE: Bitboard = Bitboard(0x003C_3C3C_0000_0000);

/// Reports each side's space, indexed by its number of pieces (pawns and king aside).
pub fn evaluate<K: Sink>(ctx: &Context, sink: &mut K) {
    let board = ctx.board;
    for color in Color::ALL {
        let area = if color == Color::White { WHITE_SPACE } else { BLACK_SPACE };
        let own_pawns = board.pawns() & board.by_color(color);
        let safe = area & !own_pawns & !ctx.attacked_by[!color as usize][Role::Pawn as usize - 1];
        let pieces = (board.by_color(color) & !board.pawns() & !board.kings()).count().min(7);
        if safe.any() {
            sink.add(color, Term::Space, pieces, safe.count() as i32);
        }
    }
}
