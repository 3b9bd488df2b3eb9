//! Static exchange evaluation: the material outcome of the capture sequence on one square,
//! each side recapturing with its least valuable attacker and free to stop.

use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, attacks};

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
    let diagonal = board.bishops_and_queens();
    let straight = board.rooks_and_queens();
    // Every piece of either side that attacks `to`, worked out once: a piece that leaves
    // for the square uncovers only the sliders behind it on its own line, added as it goes.
    let mut attackers = (attacks::rook_attacks(to, occupied) & straight)
        | (attacks::bishop_attacks(to, occupied) & diagonal)
        | (attacks::knight_attacks(to) & board.knights())
        | (attacks::king_attacks(to) & board.kings())
        | (attacks::pawn_attacks(Color::White, to) & board.pawns() & board.black())
        | (attacks::pawn_attacks(Color::Black, to) & board.pawns() & board.white());
    let mut side = !pos.turn();
    let mut depth = 0;
    while depth + 1 < gains.len() {
        let Some((sq, role)) = least_valuable(board, attackers & occupied & board.by_color(side)) else {
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
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occupied) & straight;
        }
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

    /// The exchange worked out the plain way, every attacker of the square found again
    /// after each capture: the reference the incremental one must agree with.
    fn see_by_recounting(pos: &Chess, m: Move) -> i32 {
        let (Some(from), to) = (m.from(), m.to()) else {
            return 0;
        };
        if m.is_castle() {
            return 0;
        }
        let board = pos.board();
        let mut occupied = board.occupied().without(from);
        if m.is_en_passant() {
            occupied.discard(shakmaty::Square::from_coords(to.file(), from.rank()));
        }
        let mut gains = vec![
            m.capture().map_or(0, role_value) + m.promotion().map_or(0, |r| role_value(r) - role_value(Role::Pawn)),
        ];
        let mut on_square = role_value(m.promotion().unwrap_or(m.role()));
        let mut side = !pos.turn();
        while let Some((sq, role)) = least_valuable(board, board.attacks_to(to, side, occupied) & occupied) {
            let after = occupied.without(sq);
            if role == Role::King && (board.attacks_to(to, !side, after) & after).any() {
                break;
            }
            gains.push(on_square - gains.last().unwrap());
            on_square = role_value(role);
            occupied = after;
            side = !side;
        }
        while gains.len() > 1 {
            let last = gains.pop().unwrap();
            let before = gains.last_mut().unwrap();
            *before = -(-*before).max(last);
        }
        gains[0]
    }

    /// Compares [`see`] with [`see_by_recounting`] for every move at every node below `pos`
    /// to `depth` plies; returns the moves whose exchange loses material.
    fn compare_tree(pos: &Chess, depth: u32) -> usize {
        let mut losing = 0;
        for m in pos.legal_moves() {
            let expected = see_by_recounting(pos, m);
            assert_eq!(see(pos, m), expected, "{m} in {}", Fen::from_position(pos, shakmaty::EnPassantMode::Legal));
            losing += usize::from(expected < 0);
            if depth > 1 {
                let mut child = pos.clone();
                child.play_unchecked(m);
                losing += compare_tree(&child, depth - 1);
            }
        }
        losing
    }

    #[test]
    fn the_incremental_exchange_agrees_with_recounting_the_attackers() {
        for fen in [
            // Batteries of rooks and queens, bishops behind pawns, both kings near the centre.
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "2r1r1k1/1b1q1ppp/p2b1n2/1p1pN3/3P4/1BPQ1N2/P4PPP/R3R1K1 w - - 0 1",
            "3q1rk1/1b2bppp/p3pn2/1pr5/3NP3/P1N1BP2/1PQ3PP/2RR2K1 b - - 0 1",
            "4k3/8/2q5/3r4/4B3/5Q2/6B1/4K3 b - - 0 1",
            "8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1",
        ] {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            assert!(compare_tree(&pos, 2) > 0, "{fen}");
        }
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
