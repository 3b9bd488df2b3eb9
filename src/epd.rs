//! `harrier epd`: runs a test suite of EPD records with `bm` (best move) or `am` (avoid
//! move) operations, in SAN or UCI notation, and counts the positions solved.

use std::sync::Arc;
use std::time::Instant;

use shakmaty::san::{San, SanPlus};
use shakmaty::{CastlingMode, Chess, Move};

use crate::engine::game::parse_fen;
use crate::engine::searchers::SearchMode;
use crate::moves::parse_uci;
use crate::search::alphabeta::AlphaBeta;
use crate::search::bandwidth::Bandwidth;
use crate::search::bandwidth::params::BandwidthParams;
use crate::search::{Limits, Score, SearchJob, Searcher, Signals, Silent};

/// One EPD record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdRecord {
    /// The position.
    pub position: Chess,
    /// Moves of which one must be played (`bm`).
    pub best: Vec<Move>,
    /// Moves that must not be played (`am`).
    pub avoid: Vec<Move>,
    /// The record's `id`, or its line number.
    pub id: String,
}

/// Parses one EPD line: four FEN fields (optionally the two clock fields), then
/// `opcode operands;` operations.
pub fn parse_record(line: &str, line_number: usize) -> Result<EpdRecord, String> {
    let mut rest = line.trim();
    let mut fields = Vec::new();
    while fields.len() < 4 {
        let (field, tail) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        if field.is_empty() {
            return Err("fewer than four FEN fields".to_string());
        }
        fields.push(field);
        rest = tail.trim_start();
    }
    // Some files carry the two clock fields before the operations.
    let mut clocks = "0 1".to_string();
    let words: Vec<&str> = rest.splitn(3, char::is_whitespace).collect();
    if words.len() >= 2 && words[0].parse::<u32>().is_ok() && words[1].parse::<u32>().is_ok() {
        clocks = format!("{} {}", words[0], words[1]);
        rest = words.get(2).copied().unwrap_or("");
    }
    let fen = format!("{} {clocks}", fields.join(" "));
    let position = parse_fen(&fen, CastlingMode::Standard, &mut Vec::new())?;
    let mut record = EpdRecord { position, best: Vec::new(), avoid: Vec::new(), id: format!("line {line_number}") };
    for operation in rest.split(';') {
        let operation = operation.trim();
        let (opcode, operands) = operation.split_once(char::is_whitespace).unwrap_or((operation, ""));
        match opcode {
            "bm" | "am" => {
                for text in operands.split_whitespace() {
                    let m = resolve_move(&record.position, text)
                        .ok_or_else(|| format!("{opcode} {text} is not a legal move here"))?;
                    if opcode == "bm" { record.best.push(m) } else { record.avoid.push(m) }
                }
            }
            "id" => record.id = operands.trim().trim_matches('"').to_string(),
            _ => {}
        }
    }
    if record.best.is_empty() && record.avoid.is_empty() {
        return Err("no bm or am operation".to_string());
    }
    Ok(record)
}

/// A move in SAN (`Nf3`, `exd5`, `f8q+`) or UCI (`g1f3`) notation.
fn resolve_move(pos: &Chess, text: &str) -> Option<Move> {
    let san_move = SanPlus::from_ascii(text.as_bytes()).ok().and_then(|s| s.san.to_move(pos).ok());
    san_move
        .or_else(|| {
            // Promotions written without '=' (f8q) parse as SAN only with it.
            let bytes = text.trim_end_matches(['+', '#']).as_bytes();
            let (last, head) = bytes.split_last()?;
            let with_equals = [head, b"=", &[last.to_ascii_uppercase()]].concat();
            San::from_ascii(&with_equals).ok()?.to_move(pos).ok()
        })
        .or_else(|| parse_uci(pos, text))
}

/// How long to think per position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpdLimit {
    /// Milliseconds per position.
    MoveTime(u64),
    /// Fixed depth per position.
    Depth(u32),
}

/// The verdict on one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdResult {
    /// The record's id.
    pub id: String,
    /// The move the engine chose.
    pub played: Option<Move>,
    /// True when `played` is among `bm` and not among `am`.
    pub solved: bool,
    /// The final score.
    pub score: Score,
    /// The depth reached.
    pub depth: u32,
}

/// The searcher an EPD run uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EpdSearcher {
    /// Which searcher.
    pub mode: SearchMode,
    /// Its memory in MB.
    pub hash_mb: usize,
    /// Bandwidth mode's settings.
    pub bandwidth: BandwidthParams,
}

/// Runs the engine on one record, from a fresh table or tree.
pub fn solve(searcher: &mut dyn Searcher, record: &EpdRecord, limit: EpdLimit) -> EpdResult {
    let limits = match limit {
        EpdLimit::MoveTime(ms) => Limits { movetime: Some(ms), ..Limits::default() },
        EpdLimit::Depth(d) => Limits { depth: Some(d), ..Limits::default() },
    };
    searcher.new_game();
    let job = SearchJob {
        root: record.position.clone(),
        history: Vec::new(),
        limits,
        move_overhead: 0,
        started: Instant::now(),
    };
    let outcome = searcher.search(&job, &mut Silent);
    let solved = outcome
        .best
        .is_some_and(|m| (record.best.is_empty() || record.best.contains(&m)) && !record.avoid.contains(&m));
    EpdResult {
        id: record.id.clone(),
        played: outcome.best,
        solved,
        score: outcome.report.score,
        depth: outcome.report.depth,
    }
}

/// Runs a whole suite, printing one line per record and `solved X/Y` last. Returns the
/// number solved and the number of records.
pub fn run_suite(text: &str, limit: EpdLimit, setup: EpdSearcher) -> Result<(usize, usize), String> {
    let signals = Arc::new(Signals::default());
    let mut searcher: Box<dyn Searcher> = match setup.mode {
        SearchMode::AlphaBeta => Box::new(AlphaBeta::new(setup.hash_mb, signals)?),
        SearchMode::Bandwidth => Box::new(Bandwidth::new(setup.hash_mb, setup.bandwidth, signals)?),
    };
    let (mut solved, mut total) = (0, 0);
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let record = match parse_record(line, index + 1) {
            Ok(record) => record,
            Err(reason) => {
                println!("line {}: skipped: {reason}", index + 1);
                continue;
            }
        };
        total += 1;
        let result = solve(searcher.as_mut(), &record, limit);
        solved += usize::from(result.solved);
        let san = |m: &Move| SanPlus::from_move(record.position.clone(), *m).to_string();
        let expected: Vec<String> = record
            .best
            .iter()
            .map(|m| format!("bm {}", san(m)))
            .chain(record.avoid.iter().map(|m| format!("am {}", san(m))))
            .collect();
        let score = match result.score {
            Score::Centipawns(cp) => format!("cp {cp}"),
            Score::Mate(n) => format!("mate {n}"),
        };
        println!(
            "{:<24} {:<6} played {:<8} expected {:<16} depth {} score {}",
            result.id,
            if result.solved { "ok" } else { "FAIL" },
            result.played.as_ref().map_or("(none)".to_string(), san),
            expected.join(" "),
            result.depth,
            score
        );
    }
    println!("solved {solved}/{total}");
    Ok((solved, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_parse_in_san_and_uci() {
        let r = parse_record(r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";"#, 1)
            .unwrap();
        assert_eq!(r.id, "WAC.001");
        assert_eq!(r.best.len(), 1);
        let r = parse_record("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 bm a1a8; am a1a2;", 2).unwrap();
        assert_eq!((r.best.len(), r.avoid.len(), r.id.as_str()), (1, 1, "line 2"));
        let r = parse_record("8/5P1k/8/8/8/8/8/K7 w - - bm f8q;", 3).unwrap();
        assert_eq!(r.best[0].promotion(), Some(shakmaty::Role::Queen));
        assert!(parse_record("8/8/8/8 w - - bm #3;", 4).is_err());
        assert!(parse_record("6k1/5ppp/8/8/8/8/8/R5K1 w - - id \"x\";", 5).is_err());
    }
}
