//! What several commands' flags share: the `--eval` choice, the parsers that keep numbers
//! in range or read a UCI combo's names, the default thread count and positions from FEN
//! words.

use std::fmt::Display;
use std::str::FromStr;

use clap::ValueEnum;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use harrier::engine::game::parse_fen;
use harrier::engine::options::DEFAULT_USE_NNUE;
use harrier::eval::Evaluation;
use shakmaty::{CastlingMode, Chess};

/// The evaluation `--eval` names.
#[derive(Clone, Copy, ValueEnum)]
pub enum EvalChoice {
    /// The network built into the binary
    Nnue,
    /// The hand-crafted evaluation
    Hce,
}

impl EvalChoice {
    /// The evaluation a new engine starts with (the default of `Use NNUE`), so that a tool
    /// measures the engine as it plays unless told otherwise.
    pub const ENGINE: EvalChoice = if DEFAULT_USE_NNUE { EvalChoice::Nnue } else { EvalChoice::Hce };

    /// The evaluation to search with.
    pub fn evaluation(self) -> Evaluation {
        match self {
            EvalChoice::Nnue => Evaluation::built_in_network(),
            EvalChoice::Hce => Evaluation::HandCrafted,
        }
    }
}

/// A count that must be at least 1 (threads, nodes, megabytes): 0 is read as 1, as the
/// hand-written parser before clap did, rather than refused.
pub fn at_least_one<T>(text: &str) -> Result<T, String>
where
    T: FromStr + Ord + From<u8>,
    T::Err: Display,
{
    text.parse::<T>().map(|n| n.max(T::from(1))).map_err(|e| e.to_string())
}

/// A search depth, brought into 1 to [`harrier::search::MAX_DEPTH`].
pub fn depth(text: &str) -> Result<u32, String> {
    text.parse::<u32>().map(|d| d.clamp(1, harrier::search::MAX_DEPTH)).map_err(|e| e.to_string())
}

/// One of the names a UCI combo offers (`SearchMode`, `BandwidthStyle`), read by the
/// library's own `from_name`, so that the command line and `setoption` take the same
/// names; the flag should set `ignore_case`, as `setoption` ignores case.
pub fn combo<T>(names: &'static [&'static str], from_name: fn(&str) -> Option<T>) -> impl TypedValueParser<Value = T>
where
    T: Clone + Send + Sync + 'static,
{
    PossibleValuesParser::new(names.iter().copied())
        .try_map(move |name| from_name(&name).ok_or_else(|| format!("unknown name '{name}'")))
}

/// The default of `--threads` where a command uses the whole machine: every core.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The position of a FEN given as one argument or as its words, the start position when
/// there is none. Standard castling where the FEN allows it, so moves print as e1g1;
/// Shredder-FEN and other Chess960 setups are read in Chess960 mode.
pub fn position(fen: &[String]) -> Result<Chess, String> {
    if fen.is_empty() {
        return Ok(Chess::default());
    }
    let fen = fen.join(" ");
    let mut repairs = Vec::new();
    match parse_fen(&fen, CastlingMode::Standard, &mut repairs) {
        Ok(position) if repairs.is_empty() => Ok(position),
        _ => parse_fen(&fen, CastlingMode::Chess960, &mut Vec::new()),
    }
}
