//! The game as the GUI last set it: a start position, the moves played from it, and the
//! zobrist keys of every position on the way (shakmaty keeps no repetition history).

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position, PositionError, PositionErrorKinds};

use crate::moves::parse_uci;
use crate::zobrist::key_of;

/// The moves played from the start position, the position they lead to, and the keys.
#[derive(Clone, Debug)]
pub struct Game {
    moves: Vec<Move>,
    current: Chess,
    /// Keys of the start position and of every position after each move.
    keys: Vec<u64>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Chess::default())
    }
}

impl Game {
    /// A game starting at `start` with no moves played.
    pub fn new(start: Chess) -> Game {
        let key = key_of(&start);
        Game { current: start, moves: Vec::new(), keys: vec![key] }
    }

    /// Builds a game from a `position` command's parts: `fen` (`None` for the start
    /// position) and UCI move texts. Either every part is valid or nothing is returned
    /// but the reason. `notes` collects repairs made to the FEN (dropped castling rights).
    pub fn from_command(
        fen: Option<&str>,
        moves: &[String],
        mode: CastlingMode,
        notes: &mut Vec<String>,
    ) -> Result<Game, String> {
        let start = match fen {
            None => match mode {
                CastlingMode::Standard => Chess::default(),
                CastlingMode::Chess960 => {
                    parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", mode, notes)?
                }
            },
            Some(text) => parse_fen(text, mode, notes)?,
        };
        let mut game = Game::new(start);
        for (index, text) in moves.iter().enumerate() {
            let Some(m) = parse_uci(&game.current, text) else {
                return Err(format!("move {} ({text}) is not legal in that position", index + 1));
            };
            game.play(m);
        }
        Ok(game)
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) {
        self.current.play_unchecked(m);
        self.moves.push(m);
        self.keys.push(key_of(&self.current));
    }

    /// The position after all moves.
    pub fn position(&self) -> &Chess {
        &self.current
    }

    /// The moves played from the start position.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Keys of the positions before the current one, oldest first.
    pub fn earlier_keys(&self) -> &[u64] {
        &self.keys[..self.keys.len() - 1]
    }
}

/// Parses a FEN (four to six fields) into a position, refusing positions a search cannot
/// handle (missing kings, the side not to move in check) and repairing the harmless
/// faults, which `notes` records.
pub fn parse_fen(text: &str, mode: CastlingMode, notes: &mut Vec<String>) -> Result<Chess, String> {
    let fen: Fen = text.parse().map_err(|e| format!("invalid FEN ({e})"))?;
    match fen.into_position::<Chess>(mode) {
        Ok(pos) => Ok(pos),
        Err(err) => {
            let kinds = err.kinds();
            let repairable = PositionErrorKinds::INVALID_CASTLING_RIGHTS
                | PositionErrorKinds::INVALID_EP_SQUARE
                | PositionErrorKinds::IMPOSSIBLE_CHECK
                | PositionErrorKinds::TOO_MUCH_MATERIAL;
            if !(kinds - repairable).is_empty() {
                return Err(format!("illegal position ({err})"));
            }
            if kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) {
                notes.push("invalid castling rights in the FEN were dropped".to_string());
            }
            if kinds.contains(PositionErrorKinds::INVALID_EP_SQUARE) {
                notes.push("an invalid en passant square in the FEN was dropped".to_string());
            }
            err.ignore_invalid_castling_rights()
                .or_else(PositionError::ignore_invalid_ep_square)
                .or_else(PositionError::ignore_impossible_check)
                .or_else(PositionError::ignore_too_much_material)
                .map_err(|e| format!("illegal position ({e})"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(fen: Option<&str>, moves: &[&str]) -> Result<Game, String> {
        let moves: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
        Game::from_command(fen, &moves, CastlingMode::Standard, &mut Vec::new())
    }

    #[test]
    fn moves_are_applied_and_keys_recorded() {
        let game = build(None, &["e2e4", "e7e5", "g1f3"]).unwrap();
        assert_eq!(game.moves().len(), 3);
        assert_eq!(game.earlier_keys().len(), 3);
        assert_eq!(game.earlier_keys()[0], key_of(&Chess::default()));
    }

    #[test]
    fn an_illegal_move_rejects_the_whole_command() {
        let err = build(None, &["e2e4", "e2e4"]).unwrap_err();
        assert!(err.contains("move 2"), "{err}");
        assert!(build(None, &["0000"]).is_err());
    }

    #[test]
    fn short_fens_and_repairs() {
        let game = build(Some("4k3/8/8/8/8/8/8/4K2R w K -"), &["e1g1"]).unwrap();
        assert_eq!(game.position().halfmoves(), 1);
        let mut notes = Vec::new();
        let game =
            Game::from_command(Some("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1"), &[], CastlingMode::Standard, &mut notes);
        assert!(game.is_ok());
        assert_eq!(notes.len(), 1);
        // Double check by two bishops: unreachable, but searchable.
        assert!(build(Some("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1"), &[]).is_ok());
    }

    #[test]
    fn unplayable_positions_are_refused() {
        assert!(build(Some("8/8/8/8/8/8/8/8 w - - 0 1"), &[]).is_err());
        assert!(build(Some("4k3/8/8/8/8/8/8/8 w - - 0 1"), &[]).is_err());
        // The side not to move is in check.
        assert!(build(Some("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"), &[]).is_err());
        assert!(build(Some("not a fen"), &[]).is_err());
    }
}
