//! Compact move codes and move text.
//!
//! The transposition table, the killer slots and (later) the bandwidth tree store moves as
//! 16-bit codes instead of shakmaty's 5-byte `Move`; a code is turned back into a move by
//! matching it against the legal moves of the position it belongs to.

use shakmaty::{CastlingMode, Chess, Move, Position, Role, uci::UciMove};

/// A move packed into 16 bits: from (6) | to (6) << 6 | promotion role (3) << 12.
/// Castling is encoded king-square to rook-square, so every legal move has its own code.
/// Zero is never a legal move's code (from and to would be the same square).
pub type MoveCode = u16;

/// The code that stands for "no move".
pub const NO_MOVE: MoveCode = 0;

/// Packs a legal move into its 16-bit code.
#[inline]
pub fn encode(m: Move) -> MoveCode {
    let from = m.from().map_or(0, |sq| sq as u16);
    let to = m.to() as u16;
    let promo = m.promotion().map_or(0, |r| r as u16);
    from | (to << 6) | (promo << 12)
}

/// Finds the legal move of `pos` whose code is `code`.
pub fn decode(pos: &Chess, code: MoveCode) -> Option<Move> {
    if code == NO_MOVE {
        return None;
    }
    pos.legal_moves().into_iter().find(|&m| encode(m) == code)
}

/// The UCI text of a move: `e1g1` for castling in standard chess, `e1h1` in Chess960.
pub fn uci_text(m: Move, mode: CastlingMode) -> String {
    m.to_uci(mode).to_string()
}

/// Parses UCI move text (any case; castling as king-two-squares or king-takes-rook) into a
/// legal move of `pos`.
pub fn parse_uci(pos: &Chess, text: &str) -> Option<Move> {
    let lower = text.to_ascii_lowercase();
    let uci = UciMove::from_ascii(lower.as_bytes()).ok()?;
    uci.to_move(pos).ok()
}

/// The value of a role for capture ordering (MVV-LVA) and exchange evaluation, in centipawns.
#[inline]
pub const fn role_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 950,
        Role::King => 20_000,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    #[test]
    fn every_legal_move_round_trips_through_its_code() {
        let fen: Fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let moves = pos.legal_moves();
        for &m in &moves {
            assert_ne!(encode(m), NO_MOVE);
            assert_eq!(decode(&pos, encode(m)), Some(m));
        }
        let mut codes: Vec<_> = moves.iter().map(|&m| encode(m)).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), moves.len());
    }

    #[test]
    fn castling_is_read_both_ways_and_printed_by_mode() {
        let fen: Fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let a = parse_uci(&pos, "e1g1").unwrap();
        let b = parse_uci(&pos, "E1H1").unwrap();
        assert_eq!(a, b);
        assert_eq!(uci_text(a, CastlingMode::Standard), "e1g1");
        assert_eq!(uci_text(a, CastlingMode::Chess960), "e1h1");
        assert!(parse_uci(&pos, "e1e3").is_none());
        assert!(parse_uci(&pos, "zz").is_none());
    }
}
