//! Zobrist keys: the one place the engine computes a position's key, and the key after a
//! move, incrementally where shakmaty can. Repetition checks, the transposition table and
//! the bandwidth tree all use these keys, so they must agree.

use shakmaty::{Chess, EnPassantMode, Move, Position, zobrist::Zobrist64};

/// The zobrist key of `pos` (an en-passant square counts only when a capture is legal).
#[inline]
pub fn key_of(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The key of `child`, the position after the legal move `m` in `pos` (whose key is
/// `key`): updated incrementally where shakmaty can, computed afresh where it cannot.
#[inline]
pub fn key_after(pos: &Chess, key: u64, m: Move, child: &Chess) -> u64 {
    pos.update_zobrist_hash::<Zobrist64>(Zobrist64(key), m, EnPassantMode::Legal).map_or_else(|| key_of(child), |z| z.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::parse_uci;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    #[test]
    fn the_incremental_key_is_the_key_of_the_child() {
        for (fen, moves) in [
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "e1g1 e1c1 d5e6 a2a4 e2a6"),
            ("8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1", "f4e3 c7c5 h5h6"),
            ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", "b2a1q a7b8n c4c5"),
        ] {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            for text in moves.split(' ') {
                let Some(m) = parse_uci(&pos, text) else { continue };
                let mut child = pos.clone();
                child.play_unchecked(m);
                assert_eq!(key_after(&pos, key_of(&pos), m, &child), key_of(&child), "{fen} {text}");
            }
        }
    }
}
