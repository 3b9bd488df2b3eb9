//! What the fuzzer holds the engine's output and state to: every line printed is a UCI
//! line (or `d`, `eval` or perft output where those are due), every move printed is legal
//! where it was searched and written as the position's castling mode wants, and a command
//! the engine refused left the game and every option as they were.

use shakmaty::uci::UciMove;
use shakmaty::{Chess, EnPassantMode, Move, Position, Setup};

use crate::engine::Engine;
use crate::engine::settings::Settings;

/// The words that may follow `info` first.
const INFO_KEYWORDS: &[&str] = &[
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "string",
];

/// How the engine says that it refused a command, or the part of one it could not carry
/// out, and kept what it had: `... ignored`, `... ignored: <why>`, `position rejected:
/// ...`, `...; keeping the previous <thing>`, `keeping <N> MB`, `...; no opening book` (a
/// book that cannot be read when none was loaded), `...; staying in the previous search
/// mode`. A line with one of these is a refusal.
const REFUSALS: &[&str] = &["ignored", "position rejected", "keeping ", "; no opening book", "staying in the previous"];

/// What the engine says when a search panicked: a bug, whatever the input.
const ENGINE_BUG: &str = "engine bug";

/// True for the lines a UCI engine prints (perft's and `d`'s are not among them).
pub fn is_uci_line(line: &str) -> bool {
    let words: Vec<&str> = line.split(' ').collect();
    match words[0] {
        "id" => line.starts_with("id name ") || line.starts_with("id author "),
        "option" => line.starts_with("option name ") && line.contains(" type "),
        "uciok" | "readyok" => words.len() == 1,
        "info" => words.get(1).is_some_and(|w| INFO_KEYWORDS.contains(w)),
        "bestmove" => words.len() == 2 || (words.len() == 4 && words[2] == "ponder"),
        _ => false,
    }
}

/// True for an `info string` that refuses (see [`REFUSALS`]). The note `debug on` adds
/// to an accepted option quotes the value, which may hold any word: it is not one.
pub fn is_refusal(line: &str) -> bool {
    line.strip_prefix("info string ")
        .is_some_and(|text| !text.starts_with("option ") && REFUSALS.iter().any(|refusal| text.contains(refusal)))
}

/// True for the note of a search that failed.
pub fn reports_engine_bug(line: &str) -> bool {
    line.starts_with("info string ") && line.contains(ENGINE_BUG)
}

/// The legal move of `pos` that `text` names, if `text` is how the position's castling
/// mode writes it.
pub fn printed_move(pos: &Chess, text: &str) -> Result<Move, String> {
    let m = UciMove::from_ascii(text.as_bytes())
        .ok()
        .and_then(|uci| uci.to_move(pos).ok())
        .filter(|m| pos.is_legal(*m))
        .ok_or_else(|| format!("{text} is not a legal move in {}", fen_of(pos)))?;
    let canonical = m.to_uci(pos.castles().mode()).to_string();
    if canonical != text {
        return Err(format!("{text} is written {canonical} in {}", fen_of(pos)));
    }
    Ok(m)
}

/// Replays `moves` from `pos`, each legal and written as the position's castling mode
/// wants.
pub fn check_line(pos: &Chess, moves: &[&str]) -> Result<(), String> {
    let mut pos = pos.clone();
    for text in moves {
        let m = printed_move(&pos, text)?;
        pos.play_unchecked(m);
    }
    Ok(())
}

/// The words after `key` in an `info` line, up to the next of its keywords.
pub fn info_field<'a>(line: &'a str, key: &str) -> Vec<&'a str> {
    let words: Vec<&str> = line.split(' ').collect();
    let Some(at) = words.iter().position(|&w| w == key) else { return Vec::new() };
    words[at + 1..].iter().copied().take_while(|w| !INFO_KEYWORDS.contains(w)).collect()
}

/// The FEN of `pos`.
pub fn fen_of(pos: &Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// What a refused command must leave as it was: the position with its move counters, the
/// moves of the game, and every option.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    position: Setup,
    moves: Vec<Move>,
    /// Every option's value.
    pub settings: Settings,
}

impl Snapshot {
    /// The state of `engine` now.
    pub fn of(engine: &Engine) -> Snapshot {
        Snapshot {
            position: engine.position().to_setup(EnPassantMode::Always),
            moves: engine.game().moves().to_vec(),
            settings: engine.settings().clone(),
        }
    }

    /// The number of moves of the game.
    pub fn game_length(&self) -> usize {
        self.moves.len()
    }

    /// True when the game (position and moves) is the same in both.
    pub fn same_game(&self, other: &Snapshot) -> bool {
        self.position == other.position && self.moves == other.moves
    }

    /// What differs between `self` and `later`, for a finding.
    pub fn changes(&self, later: &Snapshot) -> String {
        let mut parts = Vec::new();
        if !self.same_game(later) {
            parts.push(format!("the game changed ({} moves, then {})", self.moves.len(), later.moves.len()));
        }
        if self.settings != later.settings {
            let (before, after) = (without_network(&self.settings), without_network(&later.settings));
            parts.push(format!("the settings changed from {before:?} to {after:?}"));
        }
        parts.join("; ")
    }
}

/// `settings` without the network, whose weights are too many to print.
fn without_network(settings: &Settings) -> Settings {
    let mut shown = settings.clone();
    shown.search.evaluation = crate::eval::Evaluation::HandCrafted;
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_told_from_other_notes() {
        for refusal in [
            "info string unknown option 'Contempt'; ignored",
            "info string setoption Hash ignored: a search is running (send stop first)",
            "info string position rejected: invalid FEN (x); keeping the previous position",
            "info string keeping 16 MB",
            "info string no such file; keeping the previous opening book",
        ] {
            assert!(is_refusal(refusal), "{refusal}");
        }
        for note in [
            "info string invalid castling rights in the FEN were dropped",
            "info string option UCI_Opponent set to ignored",
            "info string no Syzygy tables found in /tmp",
            "info depth 1 score cp 0 pv e2e4",
        ] {
            assert!(!is_refusal(note), "{note}");
        }
    }

    #[test]
    fn moves_must_be_legal_and_written_for_the_castling_mode() {
        let fen: shakmaty::fen::Fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        let pos: Chess = fen.into_position(shakmaty::CastlingMode::Standard).unwrap();
        assert!(printed_move(&pos, "e1g1").is_ok());
        assert!(printed_move(&pos, "e1h1").is_err(), "king takes rook is Chess960's way");
        assert!(printed_move(&pos, "e1e3").is_err());
        assert!(check_line(&pos, &["e1g1", "e8c8", "f1f8"]).is_ok());
        assert!(check_line(&pos, &["e1g1", "e1g1"]).is_err());
        assert_eq!(info_field("info depth 2 pv e2e4 e7e5", "pv"), ["e2e4", "e7e5"]);
        assert_eq!(info_field("info depth 2 currmove e2e4 currmovenumber 1", "currmove"), ["e2e4"]);
    }
}
