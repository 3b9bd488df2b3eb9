//! The network's inputs: which of a bucket's 768 a piece switches on from each perspective, and
//! which pieces a move takes off and puts on the board.

use shakmaty::{Chess, Color, Move, Piece, Position, Role, Square};

use super::input_buckets::InputView;

/// A piece on a square: one input per perspective.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feature {
    /// Its colour and role.
    pub piece: Piece,
    /// Where it stands.
    pub square: Square,
}

impl Feature {
    /// `piece` on `square`.
    pub fn new(piece: Piece, square: Square) -> Feature {
        Feature { piece, square }
    }
}

/// The input that `piece` on `square` switches on from `perspective`'s side, read through
/// `view` (its bucket's rows and its turn of the board): the perspective's own pieces
/// first, then by role (pawn first) and square, with the board turned upside down for
/// Black so that both sides see their own pieces the same way.
#[inline]
pub fn feature_index(view: InputView, perspective: Color, piece: Piece, square: Square) -> usize {
    let theirs = usize::from(piece.color != perspective);
    view.input(theirs * 6 + piece.role as usize - 1, square)
}

/// The pieces a move takes off the board and puts on it. A move puts on at most two
/// (castling) and takes off at most two (a capture, castling, en passant).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Changes {
    added: [Feature; 2],
    added_count: u8,
    removed: [Feature; 2],
    removed_count: u8,
}

impl Changes {
    fn new() -> Changes {
        let none = Feature::new(Piece { color: Color::White, role: Role::Pawn }, Square::A1);
        Changes { added: [none; 2], added_count: 0, removed: [none; 2], removed_count: 0 }
    }

    fn add(&mut self, color: Color, role: Role, square: Square) {
        self.added[usize::from(self.added_count)] = Feature::new(Piece { color, role }, square);
        self.added_count += 1;
    }

    fn remove(&mut self, color: Color, role: Role, square: Square) {
        self.removed[usize::from(self.removed_count)] = Feature::new(Piece { color, role }, square);
        self.removed_count += 1;
    }

    /// The pieces put on the board.
    pub fn added(&self) -> &[Feature] {
        &self.added[..usize::from(self.added_count)]
    }

    /// The pieces taken off the board.
    pub fn removed(&self) -> &[Feature] {
        &self.removed[..usize::from(self.removed_count)]
    }
}

/// What `m`, a legal move of `pos`, changes on the board. Castling takes king and rook
/// off and puts them back even where one of them stays (Chess960): the pair cancels.
pub fn move_changes(pos: &Chess, m: Move) -> Changes {
    let us = pos.turn();
    let mut changes = Changes::new();
    match m {
        Move::Normal { role, from, capture, to, promotion } => {
            changes.remove(us, role, from);
            if let Some(victim) = capture {
                changes.remove(!us, victim, to);
            }
            changes.add(us, promotion.unwrap_or(role), to);
        }
        Move::EnPassant { from, to } => {
            changes.remove(us, Role::Pawn, from);
            changes.remove(!us, Role::Pawn, Square::from_coords(to.file(), from.rank()));
            changes.add(us, Role::Pawn, to);
        }
        Move::Castle { king, rook } => {
            let side = m.castling_side().unwrap_or(shakmaty::CastlingSide::KingSide);
            changes.remove(us, Role::King, king);
            changes.remove(us, Role::Rook, rook);
            changes.add(us, Role::King, side.king_to(us));
            changes.add(us, Role::Rook, side.rook_to(us));
        }
        Move::Put { role, to } => changes.add(us, role, to),
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::parse_uci;
    use shakmaty::{CastlingMode, fen::Fen};

    #[test]
    fn every_piece_and_square_has_its_own_input_from_each_side() {
        for perspective in Color::ALL {
            let mut seen = vec![false; super::super::INPUTS];
            for color in Color::ALL {
                for role in Role::ALL {
                    for square in Square::ALL {
                        let index =
                            feature_index(InputView::plain(perspective), perspective, Piece { color, role }, square);
                        assert!(!seen[index], "{perspective:?} {color:?} {role:?} {square:?}");
                        seen[index] = true;
                    }
                }
            }
        }
    }

    #[test]
    fn black_sees_the_board_as_white_does_with_colours_swapped() {
        let white_pawn_e2 = feature_index(
            InputView::plain(Color::White),
            Color::White,
            Piece { color: Color::White, role: Role::Pawn },
            Square::E2,
        );
        let black_pawn_e7 = feature_index(
            InputView::plain(Color::Black),
            Color::Black,
            Piece { color: Color::Black, role: Role::Pawn },
            Square::E7,
        );
        assert_eq!(white_pawn_e2, black_pawn_e7);
        assert_eq!(white_pawn_e2, 8 + 4, "own pawns come first, a1 = 0");
        let their_king = feature_index(
            InputView::plain(Color::White),
            Color::White,
            Piece { color: Color::Black, role: Role::King },
            Square::H8,
        );
        assert_eq!(their_king, 767);
    }

    #[test]
    fn a_move_adds_and_removes_what_it_changes_on_the_board() {
        let cases = [
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", 2, 2),
            ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", 2, 2),
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 1, 2),
            ("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", 1, 1),
            ("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8n", 1, 2),
            ("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "g1f3", 1, 1),
            ("4k3/8/8/8/8/8/3p4/4K1N1 w - - 0 1", "e1d2", 1, 2),
        ];
        for (fen, text, added, removed) in cases {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            let m = parse_uci(&pos, text).unwrap();
            let changes = move_changes(&pos, m);
            assert_eq!((changes.added().len(), changes.removed().len()), (added, removed), "{fen} {text}");
            let mut board = pos.board().clone();
            for f in changes.removed() {
                assert_eq!(board.remove_piece_at(f.square), Some(f.piece), "{fen} {text}");
            }
            for f in changes.added() {
                board.set_piece_at(f.square, f.piece);
            }
            let mut after = pos.clone();
            after.play_unchecked(m);
            assert_eq!(&board, after.board(), "{fen} {text}");
        }
    }
}
