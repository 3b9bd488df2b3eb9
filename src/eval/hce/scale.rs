//! Endgame scaling: how much of the endgame score the stronger side can hope to keep in
//! drawish material (no mating material, opposite-coloured bishops, rook endings).

use shakmaty::{Bitboard, Board, Color, Role};

use super::params::*;
use crate::eval::pawn_units;

/// Non-pawn material of `color` in pawns (minor 3, rook 5, queen 9).
pub fn piece_material(board: &Board, color: Color) -> u32 {
    let ours = board.by_color(color);
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .map(|role| (board.by_role(role) & ours).count() as u32 * pawn_units(role))
        .sum()
}

/// The scale, out of [`SCALE_NORMAL`], of the endgame score when `strong` leads.
pub fn endgame_factor(board: &Board, strong: Color) -> i32 {
    let weak = !strong;
    let strong_pawns = board.pawns() & board.by_color(strong);
    let (strong_pieces, weak_pieces) = (piece_material(board, strong), piece_material(board, weak));
    if strong_pawns.is_empty() {
        if strong_pieces <= 3 {
            return SCALE_NO_MATING_MATERIAL;
        }
        if strong_pieces <= weak_pieces + 3 {
            return SCALE_NO_PAWNS_MINOR_EDGE;
        }
    }
    let bishops = |color: Color| board.bishops() & board.by_color(color);
    let (strong_bishops, weak_bishops) = (bishops(strong), bishops(weak));
    if strong_bishops.count() == 1 && weak_bishops.count() == 1 {
        let opposite = (strong_bishops & Bitboard::DARK_SQUARES).any() != (weak_bishops & Bitboard::DARK_SQUARES).any();
        if opposite {
            let only_bishops = strong_pieces == 3 && weak_pieces == 3;
            return if only_bishops { SCALE_OPPOSITE_BISHOPS } else { SCALE_OPPOSITE_BISHOPS_WITH_PIECES };
        }
    }
    let rook_each = strong_pieces == 5
        && weak_pieces == 5
        && (board.rooks() & board.by_color(strong)).count() == 1
        && (board.rooks() & board.by_color(weak)).count() == 1;
    if rook_each {
        let weak_pawns = (board.pawns() & board.by_color(weak)).count();
        let one_wing = (strong_pawns & Bitboard::WEST).is_empty() || (strong_pawns & Bitboard::EAST).is_empty();
        if strong_pawns.count() <= weak_pawns + 1 && one_wing {
            return SCALE_ROOK_ENDING;
        }
    }
    SCALE_NORMAL
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().into_setup().board
    }

    #[test]
    fn drawish_material_is_scaled_down() {
        assert_eq!(endgame_factor(&board("8/8/4k3/8/8/3BK3/8/8 w - - 0 1"), Color::White), SCALE_NO_MATING_MATERIAL);
        assert_eq!(endgame_factor(&board("8/8/4k3/4b3/8/3RK3/8/8 w - - 0 1"), Color::White), SCALE_NO_PAWNS_MINOR_EDGE);
        assert_eq!(
            endgame_factor(&board("8/5p2/4kb2/8/8/3BK3/5PP1/8 w - - 0 1"), Color::White),
            SCALE_OPPOSITE_BISHOPS
        );
        assert_eq!(endgame_factor(&board("8/5p2/4k3/8/6r1/3RK3/5PP1/8 w - - 0 1"), Color::White), SCALE_ROOK_ENDING);
        assert_eq!(endgame_factor(&board("8/5p2/4k3/8/8/3NK3/5PP1/8 w - - 0 1"), Color::White), SCALE_NORMAL);
    }
}
