//! The self-play data format: whole games, a few bytes a position.
//!
//! A file starts with [`GAME_MAGIC`] and holds games one after another. A game is its start
//! position as FEN (a length byte and the text), its ply count (u16), then per ply the
//! move played (a [`MoveCode`], u16) and the search's score for the side to move (i16),
//! then the result (u8: 0 Black won, 1 draw, 2 White won). All numbers little-endian.
//! Readers replay the moves to recover each position, so a position costs four bytes.

use std::io::{self, Read, Write};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

use crate::moves::{MoveCode, decode};

/// The first bytes of every data file (the format's version is its last character).
pub const GAME_MAGIC: [u8; 8] = *b"HRRGAME1";

/// How a game ended, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// Black won.
    BlackWin,
    /// A draw.
    Draw,
    /// White won.
    WhiteWin,
}

impl GameResult {
    /// The result for `side`: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn score_for(self, side: Color) -> f32 {
        let white = match self {
            GameResult::BlackWin => 0.0,
            GameResult::Draw => 0.5,
            GameResult::WhiteWin => 1.0,
        };
        if side == Color::White { white } else { 1.0 - white }
    }

    /// A win for `side`.
    pub fn win_for(side: Color) -> GameResult {
        if side == Color::White { GameResult::WhiteWin } else { GameResult::BlackWin }
    }

    fn code(self) -> u8 {
        match self {
            GameResult::BlackWin => 0,
            GameResult::Draw => 1,
            GameResult::WhiteWin => 2,
        }
    }

    fn from_code(code: u8) -> Option<GameResult> {
        [GameResult::BlackWin, GameResult::Draw, GameResult::WhiteWin].get(usize::from(code)).copied()
    }
}

/// One game: where it started, each move played with the search's score, and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The position the scored moves start from (after the random opening plies).
    pub start: Chess,
    /// Each move played and the score (side to move's view) of the search that chose it.
    pub plies: Vec<(MoveCode, i16)>,
    /// How the game ended.
    pub result: GameResult,
}

impl GameRecord {
    /// Writes the game in the data format.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        let fen = Fen::from_position(&self.start, EnPassantMode::Legal).to_string();
        let length = u8::try_from(fen.len()).map_err(|_| io::Error::other("FEN longer than 255 bytes"))?;
        let plies = u16::try_from(self.plies.len()).map_err(|_| io::Error::other("game longer than 65,535 plies"))?;
        out.write_all(&[length])?;
        out.write_all(fen.as_bytes())?;
        out.write_all(&plies.to_le_bytes())?;
        for &(code, score) in &self.plies {
            out.write_all(&code.to_le_bytes())?;
            out.write_all(&score.to_le_bytes())?;
        }
        out.write_all(&[self.result.code()])
    }

    /// Reads the next game; `Ok(None)` at the end of the input.
    pub fn read_from(input: &mut impl Read) -> io::Result<Option<GameRecord>> {
        let mut length = [0u8; 1];
        if input.read(&mut length)? == 0 {
            return Ok(None);
        }
        let mut fen = vec![0u8; usize::from(length[0])];
        input.read_exact(&mut fen)?;
        let start = Fen::from_ascii(&fen)
            .ok()
            .and_then(|fen| fen.into_position(CastlingMode::Chess960).ok())
            .ok_or_else(|| invalid("a game's start position is not a legal FEN"))?;
        let mut count = [0u8; 2];
        input.read_exact(&mut count)?;
        let mut plies = Vec::with_capacity(usize::from(u16::from_le_bytes(count)));
        let mut bytes = [0u8; 4];
        for _ in 0..u16::from_le_bytes(count) {
            input.read_exact(&mut bytes)?;
            plies.push((u16::from_le_bytes([bytes[0], bytes[1]]), i16::from_le_bytes([bytes[2], bytes[3]])));
        }
        let mut result = [0u8; 1];
        input.read_exact(&mut result)?;
        let result = GameResult::from_code(result[0]).ok_or_else(|| invalid("a game's result is not 0, 1 or 2"))?;
        Ok(Some(GameRecord { start, plies, result }))
    }

    /// Replays the game: each position before a move, the move and its score. Stops at a
    /// move that is not legal where it stands (a damaged record).
    pub fn positions(&self) -> impl Iterator<Item = (Chess, shakmaty::Move, i16)> + '_ {
        let mut pos = self.start.clone();
        self.plies.iter().map_while(move |&(code, score)| {
            let m = decode(&pos, code)?;
            let before = pos.clone();
            pos.play_unchecked(m);
            Some((before, m, score))
        })
    }
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what)
}

/// Writes the file header.
pub fn write_header(out: &mut impl Write) -> io::Result<()> {
    out.write_all(&GAME_MAGIC)
}

/// Reads and checks the file header.
pub fn read_header(input: &mut impl Read) -> io::Result<()> {
    let mut magic = [0u8; 8];
    input.read_exact(&mut magic)?;
    if magic == GAME_MAGIC { Ok(()) } else { Err(invalid("not a Harrier game file (bad magic)")) }
}

/// Reads every game of a data file's contents. An error names the game and the byte at
/// which it starts.
pub fn read_games(input: impl Read) -> io::Result<Vec<GameRecord>> {
    let mut input = Counting { inner: input, read: 0 };
    read_header(&mut input)?;
    let mut games = Vec::new();
    loop {
        let start = input.read;
        match GameRecord::read_from(&mut input) {
            Ok(Some(game)) => games.push(game),
            Ok(None) => return Ok(games),
            Err(e) => {
                let what =
                    if e.kind() == io::ErrorKind::UnexpectedEof { "cut short".to_string() } else { e.to_string() };
                return Err(io::Error::new(e.kind(), format!("game {} at byte {start}: {what}", games.len() + 1)));
            }
        }
    }
}

/// A reader that counts the bytes read through it.
struct Counting<R> {
    inner: R,
    read: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let count = self.inner.read(buf)?;
        self.read += count as u64;
        Ok(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::{encode, parse_uci};

    #[test]
    fn a_game_round_trips() {
        let start: Chess = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mut pos = start.clone();
        let mut plies = Vec::new();
        for (text, score) in [("e7e5", -20), ("g1f3", 31), ("b8c6", -25)] {
            let m = parse_uci(&pos, text).unwrap();
            plies.push((encode(m), score));
            pos.play_unchecked(m);
        }
        let game = GameRecord { start, plies, result: GameResult::Draw };
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        game.write_to(&mut bytes).unwrap();
        game.write_to(&mut bytes).unwrap();
        let games = read_games(bytes.as_slice()).unwrap();
        assert_eq!(games, vec![game.clone(), game.clone()]);
        let replayed: Vec<i16> = games[0].positions().map(|(_, _, score)| score).collect();
        assert_eq!(replayed, vec![-20, 31, -25]);
        let cut = read_games(&bytes[..bytes.len() - 1]).unwrap_err().to_string();
        let second = bytes.len() / 2 + GAME_MAGIC.len() / 2;
        assert_eq!(cut, format!("game 2 at byte {second}: cut short"));
        assert!(read_games(&b"HRRGAME0"[..]).is_err(), "another version is refused");
    }
}
