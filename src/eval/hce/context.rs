//! What the terms share about one position: occupancy, attack maps, king zones, and the
//! king attackers the piece terms count for the king-attack term.

use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

use super::bits::{fill_forward, pawn_attacks, pawn_double_attacks};

/// Attack maps and king data of one position, filled as the terms run.
pub struct Context<'a> {
    /// The board being evaluated.
    pub board: &'a Board,
    /// Every occupied square.
    pub occupied: Bitboard,
    /// Each colour's king square.
    pub king: [Square; 2],
    /// The squares around each colour's king, the king's own included.
    pub king_zone: [Bitboard; 2],
    /// Squares each colour attacks, by attacking role (indexed by `Role as usize - 1`).
    pub attacked_by: [[Bitboard; 6]; 2],
    /// Squares each colour attacks at all.
    pub attacked: [Bitboard; 2],
    /// Squares each colour attacks at least twice.
    pub attacked_twice: [Bitboard; 2],
    /// Squares each colour's pawns could ever attack as they advance.
    pub pawn_span: [Bitboard; 2],
    /// Each colour's pieces attacking the enemy king zone, by role (knight to queen).
    pub king_attackers: [[i32; 4]; 2],
    /// Attacks of each colour's pieces on squares of the enemy king zone.
    pub king_zone_attacks: [i32; 2],
    /// Each colour's passed pawns.
    pub passed: Bitboard,
}

impl<'a> Context<'a> {
    /// The context before the piece terms: pawn and king attacks only.
    pub fn new(board: &'a Board, passed: Bitboard) -> Context<'a> {
        let mut ctx = Context {
            board,
            occupied: board.occupied(),
            king: [Square::A1; 2],
            king_zone: [Bitboard::EMPTY; 2],
            attacked_by: [[Bitboard::EMPTY; 6]; 2],
            attacked: [Bitboard::EMPTY; 2],
            attacked_twice: [Bitboard::EMPTY; 2],
            pawn_span: [Bitboard::EMPTY; 2],
            king_attackers: [[0; 4]; 2],
            king_zone_attacks: [0; 2],
            passed,
        };
        for color in Color::ALL {
            let c = color as usize;
            let pawns = board.pawns() & board.by_color(color);
            let king = (board.kings() & board.by_color(color)).first().unwrap_or(Square::A1);
            let king_attacks = attacks::king_attacks(king);
            let pawn_hits = pawn_attacks(color, pawns);
            ctx.king[c] = king;
            ctx.king_zone[c] = king_attacks | Bitboard::from(king);
            ctx.attacked_by[c][Role::Pawn as usize - 1] = pawn_hits;
            ctx.attacked_by[c][Role::King as usize - 1] = king_attacks;
            ctx.attacked[c] = pawn_hits | king_attacks;
            ctx.attacked_twice[c] = pawn_double_attacks(color, pawns) | (pawn_hits & king_attacks);
            ctx.pawn_span[c] = fill_forward(color, pawn_hits);
        }
        ctx
    }

    /// Records that a `role` of `color` attacks `squares`.
    #[inline]
    pub fn note_attacks(&mut self, color: Color, role: Role, squares: Bitboard) {
        let c = color as usize;
        self.attacked_twice[c] |= self.attacked[c] & squares;
        self.attacked[c] |= squares;
        self.attacked_by[c][role as usize - 1] |= squares;
    }

    /// The squares `color` attacks with `role`.
    #[inline]
    pub fn attacks_of(&self, color: Color, role: Role) -> Bitboard {
        self.attacked_by[color as usize][role as usize - 1]
    }
}
