//! Bitboard geometry the evaluation terms share: files, ranks ahead, pawn spans.

use shakmaty::{Bitboard, Color, File, Square};

/// The squares of file `file` (0 = a).
const fn file_bits(file: u32) -> u64 {
    0x0101_0101_0101_0101 << file
}

/// Every square on a rank strictly ahead of `rank` for White, indexed by rank.
const AHEAD_WHITE: [u64; 8] = {
    let mut table = [0; 8];
    let mut rank = 0;
    while rank < 8 {
        table[rank] = if rank == 7 { 0 } else { !0u64 << (8 * (rank + 1)) };
        rank += 1;
    }
    table
};

/// Every square on a rank strictly ahead of `rank` for Black, indexed by rank.
const AHEAD_BLACK: [u64; 8] = {
    let mut table = [0; 8];
    let mut rank = 0;
    while rank < 8 {
        table[rank] = if rank == 0 { 0 } else { !0u64 >> (8 * (8 - rank)) };
        rank += 1;
    }
    table
};

/// The squares of the files beside `file`.
#[inline]
pub fn adjacent_files(file: File) -> Bitboard {
    let f = file as u32;
    let left = if f > 0 { file_bits(f - 1) } else { 0 };
    let right = if f < 7 { file_bits(f + 1) } else { 0 };
    Bitboard(left | right)
}

/// The squares of `file`.
#[inline]
pub fn file_of(file: File) -> Bitboard {
    Bitboard(file_bits(file as u32))
}

/// Every square on a rank strictly ahead of `sq`'s rank, seen from `color`.
#[inline]
pub fn ranks_ahead(color: Color, sq: Square) -> Bitboard {
    let rank = sq.rank() as usize;
    Bitboard(if color == Color::White { AHEAD_WHITE[rank] } else { AHEAD_BLACK[rank] })
}

/// The squares in front of `sq` on its file, seen from `color`.
#[inline]
pub fn front_span(color: Color, sq: Square) -> Bitboard {
    ranks_ahead(color, sq) & file_of(sq.file())
}

/// The squares a pawn of `color` on `sq` could ever attack as it advances.
#[inline]
pub fn attack_span(color: Color, sq: Square) -> Bitboard {
    ranks_ahead(color, sq) & adjacent_files(sq.file())
}

/// The squares where an enemy pawn stops a pawn of `color` on `sq` from being passed.
#[inline]
pub fn passed_span(color: Color, sq: Square) -> Bitboard {
    front_span(color, sq) | attack_span(color, sq)
}

/// `sq`'s rank counted from `color`'s side: 0 for its back rank, 7 for the promotion rank.
#[inline]
pub fn relative_rank(color: Color, sq: Square) -> usize {
    let rank = sq.rank() as usize;
    if color == Color::White { rank } else { 7 - rank }
}

/// `sq` as `color` sees it: unchanged for White, flipped top to bottom for Black.
#[inline]
pub fn relative_square(color: Color, sq: Square) -> Square {
    if color == Color::White { sq } else { sq.flip_vertical() }
}

/// The square in front of `sq` for `color`, if there is one.
#[inline]
pub fn square_ahead(color: Color, sq: Square) -> Option<Square> {
    sq.offset(if color == Color::White { 8 } else { -8 })
}

/// `squares` moved one rank forward for `color`.
#[inline]
pub fn shift_forward(color: Color, squares: Bitboard) -> Bitboard {
    squares.shift(if color == Color::White { 8 } else { -8 })
}

/// `squares` and every square in front of them on their files, seen from `color`.
#[inline]
pub fn fill_forward(color: Color, squares: Bitboard) -> Bitboard {
    let mut x = squares.0;
    if color == Color::White {
        x |= x << 8;
        x |= x << 16;
        x |= x << 32;
    } else {
        x |= x >> 8;
        x |= x >> 16;
        x |= x >> 32;
    }
    Bitboard(x)
}

/// All squares attacked by `pawns` of `color`.
#[inline]
pub fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let not_a = Bitboard(!file_bits(0));
    let not_h = Bitboard(!file_bits(7));
    if color == Color::White {
        (pawns & not_a).shift(7) | (pawns & not_h).shift(9)
    } else {
        (pawns & not_a).shift(-9) | (pawns & not_h).shift(-7)
    }
}

/// Squares attacked by at least two of `pawns` of `color`.
#[inline]
pub fn pawn_double_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let not_a = Bitboard(!file_bits(0));
    let not_h = Bitboard(!file_bits(7));
    if color == Color::White {
        (pawns & not_a).shift(7) & (pawns & not_h).shift(9)
    } else {
        (pawns & not_a).shift(-9) & (pawns & not_h).shift(-7)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::attacks;

    #[test]
    fn pawn_attacks_match_shakmaty() {
        let pawns = Bitboard(0x0000_2400_8100_4200);
        for color in Color::ALL {
            let expected = pawns.into_iter().fold(Bitboard::EMPTY, |acc, sq| acc | attacks::pawn_attacks(color, sq));
            assert_eq!(pawn_attacks(color, pawns), expected);
        }
    }

    #[test]
    fn filled_pawn_attacks_are_the_attack_spans() {
        let pawns = Bitboard(0x0000_2400_8100_4200);
        for color in Color::ALL {
            let spans = pawns.into_iter().fold(Bitboard::EMPTY, |acc, sq| acc | attack_span(color, sq));
            assert_eq!(fill_forward(color, pawn_attacks(color, pawns)), spans);
        }
    }

    #[test]
    fn spans_look_forward_for_each_colour() {
        assert_eq!(front_span(Color::White, Square::E6), Bitboard::from(Square::E7) | Bitboard::from(Square::E8));
        assert_eq!(front_span(Color::Black, Square::E3), Bitboard::from(Square::E2) | Bitboard::from(Square::E1));
        assert_eq!(passed_span(Color::White, Square::A7).count(), 2);
        assert!(ranks_ahead(Color::White, Square::H8).is_empty());
        assert!(ranks_ahead(Color::Black, Square::A1).is_empty());
        assert_eq!(relative_rank(Color::Black, Square::C2), 6);
    }
}
