//! Zobrist keys: the one place the engine computes a position's key, and the key after a
//! move or a null move, incrementally. Repetition checks, the transposition table and the
//! bandwidth tree all use these keys, so they must agree with [`key_of`].
//!
//! shakmaty's own update gives up on king moves, castling, double pushes and every move
//! of a position with an en-passant square, and its full key walks every piece; the search
//! asks for a key at every node, so the update here covers every standard move.

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{CastlingSide, Chess, Color, EnPassantMode, Move, Piece, Position, Role, Square};

/// The zobrist key of `pos` (an en-passant square counts only when a capture is legal).
#[inline]
pub fn key_of(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The key of `child`, the position after the legal move `m` in `pos` (whose key is
/// `key`).
#[inline]
pub fn key_after(pos: &Chess, key: u64, m: Move, child: &Chess) -> u64 {
    let us = pos.turn();
    let mut next = Zobrist64(key) ^ Zobrist64::zobrist_for_white_turn();
    match m {
        Move::Normal { role, from, capture, to, promotion } => {
            next ^= piece_key(from, role.of(us));
            next ^= piece_key(to, promotion.unwrap_or(role).of(us));
            if let Some(captured) = capture {
                next ^= piece_key(to, captured.of(!us));
            }
        }
        Move::EnPassant { from, to } => {
            next ^= piece_key(from, Role::Pawn.of(us));
            next ^= piece_key(to, Role::Pawn.of(us));
            next ^= piece_key(Square::from_coords(to.file(), from.rank()), Role::Pawn.of(!us));
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(rook > king);
            next ^= piece_key(king, Role::King.of(us));
            next ^= piece_key(side.king_to(us), Role::King.of(us));
            next ^= piece_key(rook, Role::Rook.of(us));
            next ^= piece_key(side.rook_to(us), Role::Rook.of(us));
        }
        Move::Put { .. } => return key_of(child),
    }
    if pos.castles().castling_rights() != child.castles().castling_rights() {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if pos.castles().has(color, side) != child.castles().has(color, side) {
                    next ^= Zobrist64::zobrist_for_castling_right(color, side);
                }
            }
        }
    }
    (next ^ en_passant_key(pos) ^ en_passant_key(child)).0
}

/// The key of the position after a null move in `pos` (whose key is `key`): the other side
/// to move and no en-passant square.
#[inline]
pub fn key_after_null(pos: &Chess, key: u64) -> u64 {
    (Zobrist64(key) ^ Zobrist64::zobrist_for_white_turn() ^ en_passant_key(pos)).0
}

#[inline]
fn piece_key(square: Square, piece: Piece) -> Zobrist64 {
    Zobrist64::zobrist_for_piece(square, piece)
}

/// The en-passant part of `pos`'s key: the file of a square where a capture is legal.
#[inline]
fn en_passant_key(pos: &Chess) -> Zobrist64 {
    // shakmaty checks the stored square and an adjacent pawn before generating any move.
    pos.ep_square(EnPassantMode::Legal)
        .map_or_else(Zobrist64::default, |square| Zobrist64::zobrist_for_en_passant_file(square.file()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    /// Checks the incremental keys against shakmaty's full key at every node of the tree
    /// below `pos` to `depth` plies; returns the nodes checked.
    fn check_tree(pos: &Chess, key: u64, depth: u32) -> u64 {
        assert_eq!(key, key_of(pos), "{}", Fen::from_position(pos, EnPassantMode::Legal));
        if let Ok(null) = pos.clone().swap_turn() {
            assert_eq!(
                key_after_null(pos, key),
                key_of(&null),
                "null move in {}",
                Fen::from_position(pos, EnPassantMode::Legal)
            );
        }
        if depth == 0 {
            return 1;
        }
        let mut nodes = 1;
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            nodes += check_tree(&child, key_after(pos, key, m, &child), depth - 1);
        }
        nodes
    }

    #[test]
    fn the_incremental_keys_are_the_full_keys_everywhere_in_tricky_trees() {
        for (fen, mode, depth) in [
            // Castling both ways, en passant, promotions with capture.
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", CastlingMode::Standard, 3),
            // En passant that would expose the king, and legal ones.
            ("8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1", CastlingMode::Standard, 4),
            ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", CastlingMode::Standard, 3),
            // Rook captures that take castling rights away.
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard, 3),
            // Chess960: king and rooks on other files.
            ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", CastlingMode::Chess960, 3),
        ] {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
            assert!(check_tree(&pos, key_of(&pos), depth) > 1_000, "{fen}");
        }
    }
}
