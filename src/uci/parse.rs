//! From a line of GUI input to a [`UciCommand`], with the guards vampirc-uci needs.
//!
//! vampirc-uci parses the simple commands (`uci`, `debug`, `isready`, `setoption`,
//! `register`, `ucinewgame`, `stop`, `ponderhit`, `quit`). `position` and `go` are parsed
//! here, token by token: vampirc-uci drops moves after a double space or a bad token,
//! loses `ponder`/`infinite`/`movetime` when clock fields follow, and panics on numbers
//! above 255 for `depth`, `movestogo` and `mate`.

use std::panic::{AssertUnwindSafe, catch_unwind};

use vampirc_uci::{UciMessage, parse_one};

use crate::search::{Limits, MAX_DEPTH};

/// A command from the GUI, already checked for form (not yet against the game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    /// `uci`.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`.
    IsReady,
    /// `setoption name <name> value <value>` (value empty when absent).
    SetOption {
        /// Option name as sent.
        name: String,
        /// Value as sent.
        value: String,
    },
    /// `register ...`.
    Register,
    /// `ucinewgame`.
    NewGame,
    /// `position startpos|fen <fen> [moves ...]`.
    Position {
        /// The FEN, `None` for the start position.
        fen: Option<String>,
        /// Move texts, lower-cased.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(GoCommand),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`, or the end of input.
    Quit,
    /// `d`: the board, its FEN, key and checkers, as Stockfish prints them.
    Display,
    /// `eval`: the static evaluation, term by term.
    Eval,
    /// An empty line.
    Empty,
    /// A line that is not a valid command, with the reason.
    Invalid(String),
}

/// The parts of a `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// Limits (searchmoves still empty: they are resolved against the game).
    pub limits: Limits,
    /// `searchmoves` as sent.
    pub searchmoves: Vec<String>,
    /// `go perft N`.
    pub perft: Option<u32>,
    /// Problems found while parsing, reported as `info string`.
    pub warnings: Vec<String>,
}

/// The words that start a command.
const COMMANDS: &[&str] =
    &["uci", "debug", "isready", "setoption", "register", "ucinewgame", "position", "go", "stop", "ponderhit", "quit"];

/// Words inside `go` that take no number or start a new field.
const GO_KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// The largest clock value accepted, in ms (about 115 days).
const MAX_CLOCK_MS: i64 = 10_000_000_000;
/// The deepest perft accepted.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// The most characters of a rejected line quoted back in an `info string`.
const MAX_QUOTED_CHARS: usize = 80;

/// `text`, shortened to [`MAX_QUOTED_CHARS`] characters for quoting in a message.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTED_CHARS) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

/// Collapses every run of whitespace (spaces, tabs, `\r`, ...) to one space and trims.
pub fn normalise(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Parses one line of input.
pub fn parse_line(line: &str) -> UciCommand {
    let line = normalise(line);
    if line.is_empty() {
        return UciCommand::Empty;
    }
    // Stockfish's debugging commands, outside the protocol: only as the whole line.
    match line.as_str() {
        "d" => return UciCommand::Display,
        "eval" => return UciCommand::Eval,
        _ => {}
    }
    let tokens: Vec<&str> = line.split(' ').collect();
    // The UCI specification: unknown words before a command are skipped.
    let Some(start) = tokens.iter().position(|t| COMMANDS.contains(&t.to_ascii_lowercase().as_str())) else {
        return UciCommand::Invalid(format!("unknown command: {}", quoted(&line)));
    };
    let keyword = tokens[start].to_ascii_lowercase();
    let args = &tokens[start + 1..];
    match keyword.as_str() {
        "position" => parse_position(args),
        "go" => UciCommand::Go(parse_go(args)),
        _ => parse_simple(&keyword, args),
    }
}

/// The commands vampirc-uci handles well, guarded against its panics.
fn parse_simple(keyword: &str, args: &[&str]) -> UciCommand {
    let text = std::iter::once(keyword).chain(args.iter().copied()).collect::<Vec<_>>().join(" ");
    let message =
        catch_unwind(AssertUnwindSafe(|| parse_one(&text))).unwrap_or(UciMessage::Unknown(text.clone(), None));
    match message {
        UciMessage::Uci => UciCommand::Uci,
        UciMessage::Debug(on) => UciCommand::Debug(on),
        UciMessage::IsReady => UciCommand::IsReady,
        UciMessage::UciNewGame => UciCommand::NewGame,
        UciMessage::Stop => UciCommand::Stop,
        UciMessage::PonderHit => UciCommand::PonderHit,
        UciMessage::Quit => UciCommand::Quit,
        UciMessage::Register { .. } => UciCommand::Register,
        UciMessage::SetOption { name, value } => UciCommand::SetOption { name, value: value.unwrap_or_default() },
        _ => match keyword {
            // vampirc-uci refuses `setoption name X value` with nothing after `value`, and
            // option names it cannot tokenise: split the words ourselves.
            "setoption" => parse_setoption(args),
            "register" => UciCommand::Register,
            "debug" => UciCommand::Invalid("debug takes on or off".to_string()),
            _ => UciCommand::Invalid(format!("malformed command: {}", quoted(&text))),
        },
    }
}

fn parse_setoption(args: &[&str]) -> UciCommand {
    if args.first().map(|a| a.to_ascii_lowercase()) != Some("name".to_string()) {
        return UciCommand::Invalid("setoption needs: name <name> [value <value>]".to_string());
    }
    let rest = &args[1..];
    let value_at = rest.iter().position(|t| t.eq_ignore_ascii_case("value")).unwrap_or(rest.len());
    let name = rest[..value_at].join(" ");
    if name.is_empty() {
        return UciCommand::Invalid("setoption has an empty option name".to_string());
    }
    let value = rest.get(value_at + 1..).map(|v| v.join(" ")).unwrap_or_default();
    UciCommand::SetOption { name, value }
}

fn parse_position(args: &[&str]) -> UciCommand {
    let moves_at = args.iter().position(|t| t.eq_ignore_ascii_case("moves"));
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let fen = match setup.first().map(|t| t.to_ascii_lowercase()).as_deref() {
        Some("startpos") if setup.len() == 1 => None,
        Some("startpos") => {
            return UciCommand::Invalid(format!("unexpected text after startpos: {}", setup[1..].join(" ")));
        }
        Some("fen") if setup.len() >= 2 => Some(setup[1..].join(" ")),
        Some("fen") => return UciCommand::Invalid("position fen needs a FEN".to_string()),
        _ => return UciCommand::Invalid("position needs startpos or fen <FEN>".to_string()),
    };
    UciCommand::Position { fen, moves: moves.iter().map(|m| m.to_ascii_lowercase()).collect() }
}

/// Parses the words after `go`. Bad fields are skipped with a warning: a `go` always
/// starts a search, so the GUI always gets its `bestmove`.
pub fn parse_go(args: &[&str]) -> GoCommand {
    let mut go = GoCommand::default();
    let mut i = 0;
    while i < args.len() {
        let word = args[i].to_ascii_lowercase();
        i += 1;
        match word.as_str() {
            "infinite" => go.limits.infinite = true,
            "ponder" => go.limits.ponder = true,
            "searchmoves" => {
                while i < args.len() && !GO_KEYWORDS.contains(&args[i].to_ascii_lowercase().as_str()) {
                    go.searchmoves.push(args[i].to_ascii_lowercase());
                    i += 1;
                }
            }
            field if GO_KEYWORDS.contains(&field) => {
                let Some(text) = args.get(i) else {
                    go.warnings.push(format!("go {field} needs a number"));
                    continue;
                };
                let Ok(number) = text.parse::<i128>() else {
                    go.warnings.push(format!("go {field}: '{text}' is not a number, ignored"));
                    i += 1;
                    continue;
                };
                i += 1;
                apply_go_field(&mut go, field, number);
            }
            _ => go.warnings.push(format!("go: unknown word '{}' ignored", quoted(&word))),
        }
    }
    go
}

/// Stores one numeric `go` field, clamping it into range (and saying so).
fn apply_go_field(go: &mut GoCommand, field: &str, number: i128) {
    let mut clamp = |lo: i128, hi: i128| -> i128 {
        let clamped = number.clamp(lo, hi);
        if clamped != number {
            go.warnings.push(format!("go {field} {number} is out of range; using {clamped}"));
        }
        clamped
    };
    let limits = &mut go.limits;
    match field {
        "wtime" => limits.wtime = Some(clamp(-MAX_CLOCK_MS as i128, MAX_CLOCK_MS as i128) as i64),
        "btime" => limits.btime = Some(clamp(-MAX_CLOCK_MS as i128, MAX_CLOCK_MS as i128) as i64),
        "winc" => limits.winc = Some(clamp(0, MAX_CLOCK_MS as i128) as i64),
        "binc" => limits.binc = Some(clamp(0, MAX_CLOCK_MS as i128) as i64),
        "movestogo" => limits.movestogo = Some(clamp(1, 10_000) as u32),
        "depth" => limits.depth = Some(clamp(1, MAX_DEPTH as i128) as u32),
        "nodes" => limits.nodes = Some(clamp(1, u64::MAX as i128) as u64),
        "mate" => limits.mate = Some(clamp(1, (MAX_DEPTH / 2) as i128) as u32),
        "movetime" => limits.movetime = Some(clamp(1, MAX_CLOCK_MS as i128) as u64),
        "perft" => go.perft = Some(clamp(1, MAX_PERFT_DEPTH as i128) as u32),
        _ => unreachable!("only numeric go fields reach here"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_is_normalised() {
        assert_eq!(normalise("  position\tstartpos  moves  e2e4\r"), "position startpos moves e2e4");
        match parse_line("position startpos moves  e2e4 \t e7e5\r") {
            UciCommand::Position { fen: None, moves } => assert_eq!(moves, ["e2e4", "e7e5"]),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn go_keeps_ponder_infinite_and_movetime_beside_clocks() {
        let go = parse_go(&"ponder wtime 1000 btime 2000 winc 10 binc 10".split(' ').collect::<Vec<_>>());
        assert!(go.limits.ponder);
        assert_eq!((go.limits.wtime, go.limits.binc), (Some(1000), Some(10)));
        let go = parse_go(&["infinite", "wtime", "1000"]);
        assert!(go.limits.infinite && go.limits.wtime == Some(1000));
        let go = parse_go(
            &"movetime 1000 wtime 5 depth 3 nodes 7 mate 2 searchmoves e2e4 d2d4".split(' ').collect::<Vec<_>>(),
        );
        assert_eq!(go.limits.movetime, Some(1000));
        assert_eq!((go.limits.depth, go.limits.nodes, go.limits.mate), (Some(3), Some(7), Some(2)));
        assert_eq!(go.searchmoves, ["e2e4", "d2d4"]);
        assert!(go.warnings.is_empty());
    }

    #[test]
    fn big_numbers_are_clamped_with_a_warning() {
        let go = parse_go(&["depth", "256", "movestogo", "256", "mate", "300", "nodes", "9999999999999"]);
        assert_eq!(go.limits.depth, Some(MAX_DEPTH));
        assert_eq!(go.limits.movestogo, Some(256));
        assert_eq!(go.limits.nodes, Some(9_999_999_999_999));
        assert_eq!(go.warnings.len(), 2);
        let go = parse_go(&["depth", "99999999999999999999999999999999999999999"]);
        assert_eq!(go.limits.depth, None);
        assert_eq!(go.warnings.len(), 1);
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse_line("isready"), UciCommand::IsReady);
        assert_eq!(parse_line("joho debug on"), UciCommand::Debug(true));
        assert_eq!(
            parse_line("setoption name Move Overhead value 30"),
            UciCommand::SetOption { name: "Move Overhead".into(), value: "30".into() }
        );
        assert_eq!(
            parse_line("setoption name SyzygyPath value"),
            UciCommand::SetOption { name: "SyzygyPath".into(), value: String::new() }
        );
        assert_eq!(
            parse_line("setoption name Clear Hash"),
            UciCommand::SetOption { name: "Clear Hash".into(), value: String::new() }
        );
        assert_eq!(parse_line(""), UciCommand::Empty);
        assert_eq!(parse_line(" d "), UciCommand::Display);
        assert_eq!(parse_line("eval"), UciCommand::Eval);
        assert!(matches!(parse_line("d e2e4"), UciCommand::Invalid(_)));
        assert!(matches!(parse_line("hello world"), UciCommand::Invalid(_)));
        assert!(matches!(parse_line("position"), UciCommand::Invalid(_)));
        assert!(matches!(parse_line("position fen"), UciCommand::Invalid(_)));
        assert!(matches!(parse_line("setoption"), UciCommand::Invalid(_)));
        let UciCommand::Invalid(reason) = parse_line(&"x".repeat(10_000)) else { panic!() };
        assert!(reason.len() < 200, "{reason}");
    }
}
