//! The captures and promotions of a position not in check, generated on their own: the
//! quiescence search wants nothing else, and the quiet moves are most of a position's
//! moves. They come in the order shakmaty's full generator lists them, so that a search
//! over them is the search over the full list with the quiet moves left out.

use shakmaty::{Bitboard, Chess, Color, EnPassantMode, Move, MoveList, Position, Role, Square, attacks};

/// The squares off the a file and off the h file: where a pawn may capture towards the a
/// file and towards the h file from.
const NOT_FILE_A: Bitboard = Bitboard(!0x0101_0101_0101_0101);
const NOT_FILE_H: Bitboard = Bitboard(!0x8080_8080_8080_8080);

/// The legal captures and promotions of `pos`, which is not in check, in the order of
/// `pos.legal_moves()`: en passant, then the pawns' captures towards the a file and
/// towards the h file (promotions after the other captures of each), the pawns' pushes
/// that promote, and the captures of knights, bishops, rooks, queens and the king.
pub fn tactical_moves(pos: &Chess) -> MoveList {
    debug_assert!(!pos.is_check());
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        let mut moves = pos.legal_moves();
        moves.retain(|m| super::is_tactical(*m));
        return moves;
    };
    let (ours, theirs, occupied) = (board.by_color(us), board.by_color(!us), board.occupied());
    let mut moves = MoveList::new();

    let pawns = board.pawns() & ours;
    if let Some(to) = pos.ep_square(EnPassantMode::Always) {
        for from in pawns & attacks::pawn_attacks(!us, to) {
            moves.push(Move::EnPassant { from, to });
        }
    }
    let (forward, towards_a, towards_h) = match us {
        Color::White => (8, 7, 9),
        Color::Black => (-8, -9, -7),
    };
    for (offset, may_leave) in [(towards_a, NOT_FILE_A), (towards_h, NOT_FILE_H)] {
        let targets = (pawns & may_leave).shift(offset) & theirs;
        for to in targets & !Bitboard::BACKRANKS {
            let from = pawn_origin(to, offset);
            moves.push(Move::Normal { role: Role::Pawn, from, capture: board.role_at(to), to, promotion: None });
        }
        for to in targets & Bitboard::BACKRANKS {
            push_promotions(&mut moves, pawn_origin(to, offset), to, board.role_at(to));
        }
    }
    for to in pawns.shift(forward) & !occupied & Bitboard::BACKRANKS {
        push_promotions(&mut moves, pawn_origin(to, forward), to, None);
    }

    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in board.by_role(role) & ours {
            for to in attacks::attacks(from, role.of(us), occupied) & theirs {
                moves.push(Move::Normal { role, from, capture: board.role_at(to), to, promotion: None });
            }
        }
    }
    for to in attacks::king_attacks(king) & theirs {
        if board.attacks_to(to, !us, occupied).is_empty() {
            moves.push(Move::Normal { role: Role::King, from: king, capture: board.role_at(to), to, promotion: None });
        }
    }

    let pinned = lone_blockers(board, theirs, king);
    moves.retain(|m| keeps_king_safe(pos, king, *m, pinned));
    moves
}

/// The square a pawn that arrived on `to` by `offset` came from.
fn pawn_origin(to: Square, offset: i32) -> Square {
    Square::new((to.to_u32() as i32 - offset) as u32)
}

/// The four promotions of one pawn move, queen first, as shakmaty lists them.
fn push_promotions(moves: &mut MoveList, from: Square, to: Square, capture: Option<Role>) {
    for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
        moves.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(promotion) });
    }
}

/// The pieces, of either side, that stand alone between `king` and one of the sliders in
/// `side` that aims at it along its line: the pieces pinned to their king when `side` is
/// the king's opponent, and those whose move uncovers a check when `side` holds them too.
pub fn lone_blockers(board: &shakmaty::Board, side: Bitboard, king: Square) -> Bitboard {
    let snipers = side
        & ((attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()));
    let mut blockers = Bitboard::EMPTY;
    for sniper in snipers {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            blockers |= between;
        }
    }
    blockers
}

/// True when the pseudo-legal `m` leaves the mover's `king` out of check: a pinned piece
/// stays on its line, and an en passant capture uncovers no slider.
fn keeps_king_safe(pos: &Chess, king: Square, m: Move, pinned: Bitboard) -> bool {
    match m {
        Move::Normal { from, to, .. } => !pinned.contains(from) || attacks::aligned(from, to, king),
        Move::EnPassant { from, to } => {
            let captured = Square::from_coords(to.file(), from.rank());
            let after = pos.board().occupied().without(from).without(captured).with(to);
            pos.board().attacks_to(king, !pos.turn(), after).without(captured).is_empty()
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::is_tactical;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    /// Compares [`tactical_moves`] with the full generator's list less its quiet moves, in
    /// order, at every node out of check below `pos` to `depth` plies; returns how many
    /// tactical moves it compared.
    fn compare_tree(pos: &Chess, depth: u32) -> usize {
        let all = pos.legal_moves();
        let mut compared = 0;
        if !pos.is_check() {
            let expected: Vec<Move> = all.iter().copied().filter(|&m| is_tactical(m)).collect();
            let found: Vec<Move> = tactical_moves(pos).into_iter().collect();
            assert_eq!(found, expected, "{}", Fen::from_position(pos, EnPassantMode::Legal));
            compared += found.len();
        }
        if depth > 1 {
            for &m in &all {
                let mut child = pos.clone();
                child.play_unchecked(m);
                compared += compare_tree(&child, depth - 1);
            }
        }
        compared
    }

    #[test]
    fn tactical_moves_are_the_full_lists_captures_and_promotions_in_its_order() {
        for (fen, depth) in [
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
            // En passant along a pinned rank, pins on every line.
            ("8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1", 4),
            ("8/8/3p4/KPp4r/1R3p1k/8/4P1P1/8 w - c6 0 3", 3),
            // Promotions by push and by capture for both sides.
            ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3),
            ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 3),
        ] {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            assert!(compare_tree(&pos, depth) > 100, "{fen}");
        }
    }
}
