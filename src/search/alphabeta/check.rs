//! Whether a move gives check, told from the position before it: the search decides most
//! pruning on that, and a move it prunes should not cost a copy of the position.

use shakmaty::{Bitboard, Chess, Move, Position, Role, Square, attacks};

use crate::moves::lone_blockers;

/// The squares from which each kind of piece would check the opponent's king, and the
/// mover's pieces that uncover a check by leaving their line: worked out once a node, so
/// that the test of each move is a few bit operations.
pub struct CheckSquares {
    /// The opponent's king, if the board has one.
    king: Option<Square>,
    /// Where a pawn of the mover checks the king.
    pawn: Bitboard,
    /// Where a knight checks the king.
    knight: Bitboard,
    /// Where a bishop (or a queen) checks the king.
    diagonal: Bitboard,
    /// Where a rook (or a queen) checks the king.
    straight: Bitboard,
    /// The mover's pieces that stand alone between the king and one of the mover's sliders.
    discoverers: Bitboard,
}

impl CheckSquares {
    /// The check squares of the side to move in `pos`.
    pub fn new(pos: &Chess) -> CheckSquares {
        let us = pos.turn();
        let board = pos.board();
        let Some(king) = board.king_of(!us) else {
            let none = Bitboard::EMPTY;
            return CheckSquares {
                king: None,
                pawn: none,
                knight: none,
                diagonal: none,
                straight: none,
                discoverers: none,
            };
        };
        let occupied = board.occupied();
        let ours = board.by_color(us);
        // A lone blocker of the mover's own slider uncovers a check when it leaves the line.
        let discoverers = lone_blockers(board, ours, king) & ours;
        CheckSquares {
            king: Some(king),
            pawn: attacks::pawn_attacks(!us, king),
            knight: attacks::knight_attacks(king),
            diagonal: attacks::bishop_attacks(king, occupied),
            straight: attacks::rook_attacks(king, occupied),
            discoverers,
        }
    }

    /// True when the legal move `m` in `pos`, the position these squares were worked out
    /// for, checks the opponent's king.
    #[inline]
    pub fn gives_check(&self, pos: &Chess, m: Move) -> bool {
        // A promotion may check along the line its pawn leaves, castling and en passant
        // move two pieces: all are rare enough for the general test.
        let Move::Normal { role, from, to, promotion: None, .. } = m else {
            return gives_check(pos, m);
        };
        let Some(king) = self.king else {
            return false;
        };
        // A slider cannot have stood between the king and `to` on its own line: it would
        // have been checking already. So the squares seen from the king before the move
        // are the ones it checks from after it.
        let direct = match role {
            Role::Pawn => self.pawn.contains(to),
            Role::Knight => self.knight.contains(to),
            Role::Bishop => self.diagonal.contains(to),
            Role::Rook => self.straight.contains(to),
            Role::Queen => (self.diagonal | self.straight).contains(to),
            Role::King => false,
        };
        direct || (self.discoverers.contains(from) && !attacks::aligned(from, to, king))
    }
}

/// True when the legal move `m` in `pos` checks the opponent's king: directly from its
/// destination or by uncovering one of the mover's sliders.
pub fn gives_check(pos: &Chess, m: Move) -> bool {
    let Move::Normal { role, from, to, promotion, .. } = m else {
        // Castling and en passant move two pieces; they are rare enough to be played.
        let mut after = pos.clone();
        after.play_unchecked(m);
        return after.is_check();
    };
    let us = pos.turn();
    let board = pos.board();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    let arrives = promotion.unwrap_or(role);
    let direct = match arrives {
        Role::Pawn => attacks::pawn_attacks(us, to).contains(king),
        Role::Knight => attacks::knight_attacks(to).contains(king),
        _ => false,
    };
    if direct {
        return true;
    }
    // Sliders after the move: the mover's own, less the piece that left `from`, plus the
    // one that arrives on `to` (a capture there is the opponent's and never counts).
    let occupied = board.occupied().without(from).with(to);
    let ours = board.by_color(us).without(from);
    let arrived = |roles: [Role; 2]| if roles.contains(&arrives) { Bitboard::from_square(to) } else { Bitboard::EMPTY };
    let straight = ((board.rooks() | board.queens()) & ours) | arrived([Role::Rook, Role::Queen]);
    let diagonal = ((board.bishops() | board.queens()) & ours) | arrived([Role::Bishop, Role::Queen]);
    (attacks::rook_attacks(king, occupied) & straight).any()
        || (attacks::bishop_attacks(king, occupied) & diagonal).any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode};

    /// Compares [`gives_check`] and [`CheckSquares::gives_check`] with playing the move at
    /// every node below `pos` to `depth` plies; returns the checks found.
    fn check_tree(pos: &Chess, depth: u32) -> u64 {
        if depth == 0 {
            return 0;
        }
        let mut checks = 0;
        let squares = CheckSquares::new(pos);
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let expected = child.is_check();
            let fen = Fen::from_position(pos, EnPassantMode::Legal);
            assert_eq!(gives_check(pos, m), expected, "{m} in {fen}");
            assert_eq!(squares.gives_check(pos, m), expected, "check squares: {m} in {fen}");
            checks += u64::from(expected) + check_tree(&child, depth - 1);
        }
        checks
    }

    #[test]
    fn gives_check_agrees_with_playing_the_move_in_tricky_trees() {
        for (fen, depth) in [
            // Castling, en passant, promotions, discovered checks.
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
            ("8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1", 4),
            ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3),
            ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3),
            // Pawns about to promote beside both kings, with checks by every piece.
            ("4k3/1P4P1/8/3K4/8/8/1p4p1/R6r w - - 0 1", 4),
        ] {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            // Position 4 of the chess programming wiki's perft table gives 0, 10 and 38 checks at
            // depths 1 to 3; every tree here holds at least as many.
            assert!(check_tree(&pos, depth) >= 48, "{fen}");
        }
    }
}
