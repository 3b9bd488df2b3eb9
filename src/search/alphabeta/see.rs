//! Static exchange evaluation: the material outcome of the capture sequence on one square,
//! each side recapturing with its least valuable attacker and free to stop.

use shakmaty::{Bitboard, Chess, Move, Position, Role};

use crate::moves::role_value;

/// True when `m` is a capture that may lose material: the capturing piece is worth more
/// than its victim. Other captures cannot lose, so their exchange need not be computed.
#[inline]
pub fn may_lose_material(m: Move) -> bool {
    let victim = if m.is_en_passant() { role_value(Role::Pawn) } else { m.capture().map_or(0, role_value) };
    role_value(m.role()) > victim
}

/// The exchange value of `m` for the side that plays it, in centipawns.
pub fn see(pos: &Chess, m: Move) -> i32 {
    let (Some(from), to) = (m.from(), m.to()) else {
        return 0;
    };
    if m.is_castle() {
        return 0;
    }
    let board = pos.board();
    let mut occupied = board.occupied();
    let mut gains = [0i32; 32];
    gains[0] = m.capture().map_or(0, role_value);
    let mut on_square = role_value(m.promotion().unwrap_or(m.role()));
    if let Some(promotion) = m.promotion() {
        gains[0] += role_value(promotion) - role_value(Role::Pawn);
    }
    occupied.discard(from);
    if m.is_en_passant() {
        occupied.discard(shakmaty::Square::from_coords(to.file(), from.rank()));
    }
    let mut side = !pos.turn();
    let mut depth = 0;
    while depth + 1 < gains.len() {
        let attackers = board.attacks_to(to, side, occupied) & occupied;
        let Some((sq, role)) = least_valuable(board, attackers) else {
            break;
        };
        if role == Role::King {
            let mut after = occupied;
            after.discard(sq);
            if (board.attacks_to(to, !side, after) & after).any() {
                break;
            }
        }
        depth += 1;
        gains[depth] = on_square - gains[depth - 1];
        on_square = role_value(role);
        occupied.discard(sq);
        side = !side;
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

fn least_valuable(board: &shakmaty::Board, attackers: Bitboard) -> Option<(shakmaty::Square, Role)> {
    Role::ALL.into_iter().find_map(|role| (attackers & board.by_role(role)).first().map(|sq| (sq, role)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::parse_uci;
    use shakmaty::{CastlingMode, fen::Fen};

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        see(&pos, parse_uci(&pos, uci).unwrap())
    }

    #[test]
    fn exchanges() {
        // Free pawn.
        assert_eq!(see_of("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 100);
        // Pawn defended by pawn: knight takes, loses the knight.
        assert_eq!(see_of("4k3/4p3/3p4/8/4N3/8/8/4K3 w - - 0 1", "e4d6"), 100 - 320);
        // Doubled rooks against rook and rook: every piece is traded, nothing gained.
        assert_eq!(see_of("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 0);
        // The king may not recapture on a square the second rook guards.
        assert_eq!(see_of("4k3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 500);
        // Quiet move to an attacked square.
        assert_eq!(see_of("4k3/8/8/3p4/8/8/8/2N1K3 w - - 0 1", "c1b3"), 0);
        assert_eq!(see_of("4k3/8/2p5/8/8/8/8/2Q1K3 w - - 0 1", "c1c5"), 0);
        assert_eq!(see_of("4k3/8/8/1p6/8/8/8/2Q1K3 w - - 0 1", "c1c4"), -950);
    }
}
