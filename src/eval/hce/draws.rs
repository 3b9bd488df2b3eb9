//! Known draws that material and structure terms miss, and that a network trained on
//! self-play rarely sees: a rook's pawn whose queening square the defending king holds
//! and the attacking bishop cannot reach, and a blocked same-coloured-bishop ending.
//! Either evaluation's score is scaled towards 0 in them.

use shakmaty::{Bitboard, Board, Chess, Color, File, Position, Rank, Square};

use super::params::{SCALE_BLOCKED_BISHOPS, SCALE_NORMAL};

/// The most pieces (kings and pawns included) a position the rules look at has.
const MAX_RULE_PIECES: usize = 12;
use super::scale::piece_material;

/// `value` (for the side to move of `pos`) scaled by how drawn `pos` is known to be.
#[inline]
pub fn scale(pos: &Chess, value: i32) -> i32 {
    if value == 0 {
        return value;
    }
    let strong = if (value > 0) == (pos.turn() == Color::White) { Color::White } else { Color::Black };
    value * draw_factor(pos.board(), strong) / SCALE_NORMAL
}

/// The scale, out of [`SCALE_NORMAL`], of a score when `strong` leads.
pub fn draw_factor(board: &Board, strong: Color) -> i32 {
    // Only endings: the rules need few pieces, and this keeps the test cheap elsewhere.
    if board.occupied().count() > MAX_RULE_PIECES {
        SCALE_NORMAL
    } else if rook_pawn_held(board, strong) {
        0
    } else if blocked_same_bishops(board, strong) {
        SCALE_BLOCKED_BISHOPS
    } else {
        SCALE_NORMAL
    }
}

/// True when `strong` has only pawns on one rook's file and at most a bishop that does not
/// see the queening square, and the defending king (alone) stands on or next to that
/// square: the pawns never queen.
fn rook_pawn_held(board: &Board, strong: Color) -> bool {
    let weak = !strong;
    let ours = board.by_color(strong);
    let pawns = board.pawns() & ours;
    let pieces = ours & !board.pawns() & !board.kings();
    if pawns.is_empty() || board.by_color(weak) != board.kings() & board.by_color(weak) {
        return false;
    }
    let file = if (pawns & !Bitboard::from_file(File::A)).is_empty() {
        File::A
    } else if (pawns & !Bitboard::from_file(File::H)).is_empty() {
        File::H
    } else {
        return false;
    };
    let queening = Square::from_coords(file, if strong == Color::White { Rank::Eighth } else { Rank::First });
    let bishop_misses = match pieces.count() {
        0 => true,
        1 => (pieces & board.bishops()).any() && !same_colour(pieces, queening),
        _ => false,
    };
    let defender = board.king_of(weak);
    bishop_misses && defender.is_some_and(|king| king.distance(queening) <= 1)
}

/// True for bishops of one colour and pawns, where `strong` has at most one pawn more, every
/// pawn of `strong` is blocked by whatever stands in front of it, and every pawn of the
/// other side stands where `strong`'s bishop cannot attack it: neither side can make
/// progress by force.
fn blocked_same_bishops(board: &Board, strong: Color) -> bool {
    let weak = !strong;
    let (ours, theirs) = (board.by_color(strong), board.by_color(weak));
    let only_bishops = |side: Bitboard| {
        let pieces = side & !board.pawns() & !board.kings();
        pieces.count() == 1 && (pieces & board.bishops()).any()
    };
    if !only_bishops(ours) || !only_bishops(theirs) || piece_material(board, strong) != 3 {
        return false;
    }
    let (our_bishop, their_bishop) = (ours & board.bishops(), theirs & board.bishops());
    let (our_pawns, their_pawns) = (board.pawns() & ours, board.pawns() & theirs);
    if !same_bishops(our_bishop, their_bishop) || our_pawns.count() > their_pawns.count() + 1 {
        return false;
    }
    let blocked = our_pawns.into_iter().all(|pawn| {
        let ahead = if strong == Color::White { pawn.offset(8) } else { pawn.offset(-8) };
        ahead.is_some_and(|square| board.occupied().contains(square))
    });
    let out_of_reach = their_pawns.into_iter().all(|pawn| !same_colour(our_bishop, pawn));
    blocked && out_of_reach
}

/// True when both bishop sets stand on squares of one colour, the same for both.
fn same_bishops(ours: Bitboard, theirs: Bitboard) -> bool {
    let dark = |bishops: Bitboard| (bishops & Bitboard::DARK_SQUARES).any();
    let light = |bishops: Bitboard| (bishops & Bitboard::LIGHT_SQUARES).any();
    dark(ours) != light(ours) && dark(theirs) != light(theirs) && dark(ours) == dark(theirs)
}

/// True when the (single) bishop in `bishop` stands on a square of `square`'s colour.
fn same_colour(bishop: Bitboard, square: Square) -> bool {
    let dark = Bitboard::DARK_SQUARES.contains(square);
    (bishop & if dark { Bitboard::DARK_SQUARES } else { Bitboard::LIGHT_SQUARES }).any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn a_rook_pawn_with_the_wrong_bishop_is_a_draw() {
        // From a game: Black's h-pawn queens on h1, a light square; the bishop is dark.
        let held = chess("8/8/8/8/8/4k1b1/7p/7K w - - 0 1");
        assert_eq!(draw_factor(held.board(), Color::Black), 0);
        assert_eq!(scale(&held, -780), 0);
        // The right bishop wins; so does the wrong one when the king is away from the corner.
        assert_eq!(draw_factor(chess("8/8/8/8/8/4kb2/7p/7K w - - 0 1").board(), Color::Black), SCALE_NORMAL);
        assert_eq!(draw_factor(chess("8/8/8/8/8/2K1k1b1/7p/8 w - - 0 1").board(), Color::Black), SCALE_NORMAL);
        // A rook's pawn alone against the king in front of it; not with a knight beside.
        assert_eq!(draw_factor(chess("k7/8/8/8/8/8/P7/K7 w - - 0 1").board(), Color::White), 0);
        assert_eq!(draw_factor(chess("k7/8/8/8/8/8/P7/K1N5 w - - 0 1").board(), Color::White), SCALE_NORMAL);
        // Pawns on two files are no such draw.
        assert_eq!(draw_factor(chess("k7/8/8/8/8/8/PP6/K7 w - - 0 1").board(), Color::White), SCALE_NORMAL);
    }

    #[test]
    fn a_blocked_same_coloured_bishop_ending_is_drawish() {
        // From a game: Black's extra h-pawn is stopped by the king, g3 is out of the light
        // bishop's reach, and every black pawn is blocked.
        let fortress = chess("8/3b4/B7/8/6p1/6Pp/7K/2k5 w - - 0 1");
        assert_eq!(draw_factor(fortress.board(), Color::Black), SCALE_BLOCKED_BISHOPS);
        assert!(scale(&fortress, -260).abs() < 60);
        // Opposite-coloured bishops are another rule's; a free pawn is no fortress.
        assert_eq!(draw_factor(chess("8/3b4/8/B7/6p1/6Pp/7K/2k5 w - - 0 1").board(), Color::Black), SCALE_NORMAL);
        assert_eq!(draw_factor(chess("8/3b4/B7/8/8/6p1/7K/2k5 w - - 0 1").board(), Color::Black), SCALE_NORMAL);
    }
}
