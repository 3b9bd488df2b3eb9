//! Compact move codes and move text.
//!
//! The transposition table, the move-ordering tables, the bandwidth tree's nodes and the
//! training data store moves as 16-bit codes instead of shakmaty's 5-byte `Move`; a code
//! is turned back into a move by building the one move it can mean in the position it
//! belongs to and checking that move's legality.

use shakmaty::{CastlingMode, Chess, Move, Position, Role, Square, uci::UciMove};

mod tactical;
pub use tactical::{lone_blockers, tactical_moves};

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

/// Finds the legal move of `pos` whose code is `code`, if there is one. A code may come
/// from another position (a table entry of a colliding key), so anything is checked.
/// shakmaty's legality check generates only the moves to the target square: far cheaper
/// than matching the code against every legal move, and the bandwidth tree decodes a
/// move at every node it walks through.
pub fn decode(pos: &Chess, code: MoveCode) -> Option<Move> {
    if code == NO_MOVE {
        return None;
    }
    let from = Square::new(u32::from(code & 63));
    let to = Square::new(u32::from((code >> 6) & 63));
    let promotion = match code >> 12 {
        0 => None,
        role => Some(Role::try_from(role).ok()?),
    };
    let board = pos.board();
    let role = board.role_at(from)?;
    let ours = board.by_color(pos.turn());
    let m = if role == Role::King && ours.contains(to) && board.role_at(to) == Some(Role::Rook) {
        promotion.is_none().then_some(Move::Castle { king: from, rook: to })?
    } else if role == Role::Pawn && from.file() != to.file() && !board.occupied().contains(to) {
        promotion.is_none().then_some(Move::EnPassant { from, to })?
    } else {
        Move::Normal { role, from, capture: board.role_at(to), to, promotion }
    };
    pos.is_legal(m).then_some(m)
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

/// The MVV-LVA key: most valuable victim first, least valuable attacker among equals.
#[inline]
pub fn mvv_lva(m: Move) -> i32 {
    let victim = if m.is_en_passant() { role_value(Role::Pawn) } else { m.capture().map_or(0, role_value) };
    let promotion = m.promotion().map_or(0, role_value);
    (victim + promotion) * 8 - m.role() as i32
}

/// True for moves that change material: captures and promotions.
#[inline]
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
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

    /// Every one of the 2^15 codes decodes to the legal move with that code, or to nothing.
    #[test]
    fn decoding_agrees_with_the_legal_moves_for_every_code() {
        for (fen, mode) in [
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", CastlingMode::Standard),
            ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", CastlingMode::Standard),
            ("8/8/3p4/KPp4r/1R3p1k/8/4P1P1/8 w - c6 0 3", CastlingMode::Standard),
            ("8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1", CastlingMode::Standard),
            ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", CastlingMode::Chess960),
            ("1r2k1r1/8/8/8/8/8/8/R3K2R b KQk - 0 1", CastlingMode::Chess960),
        ] {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
            let moves = pos.legal_moves();
            for code in 0..(1 << 15) {
                let expected = moves.iter().copied().find(|&m| encode(m) == code);
                assert_eq!(decode(&pos, code), expected, "{fen}: code {code:#06x}");
            }
        }
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
