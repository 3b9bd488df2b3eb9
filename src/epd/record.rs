//! Reading EPD records: four FEN fields, then `opcode operands;` operations. The runner
//! uses `bm` (best moves, or `bm #N` for a mate in N), `am` (moves to avoid), `dm` (mate in
//! N), `id`, and the point lists of the Strategic Test Suite: `c0 "Qb3=10, Qd2=6"` (SAN) or
//! `c8 "10 6"` with `c9 "d1b3 d1d2"` (UCI). Other operations, and `c0`/`c8`/`c9` comments
//! that are not point lists, are ignored.

use shakmaty::san::{San, SanPlus};
use shakmaty::{CastlingMode, Chess, Move};

use crate::engine::game::parse_fen;
use crate::moves::parse_uci;

/// The most points a move earns in one position; listed points above it count as this.
pub const MAX_POINTS: u32 = 10;

/// One EPD record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdRecord {
    /// The position to search, from the record's four FEN fields.
    pub position: Chess,
    /// Moves of which one must be played (`bm`).
    pub best: Vec<Move>,
    /// Moves that must not be played (`am`).
    pub avoid: Vec<Move>,
    /// `dm`: the side to move mates in at most this many moves.
    pub mate: Option<u32>,
    /// The points each listed move earns (`c0`, or `c8` with `c9`), at most
    /// [`MAX_POINTS`] each; empty when the record has no point list.
    pub points: Vec<(Move, u32)>,
    /// The record's `id`, or its line number.
    pub id: String,
}

impl EpdRecord {
    /// The points `played` earns: zero for a move the list does not name.
    pub fn points_for(&self, played: Option<Move>) -> u32 {
        self.points.iter().find(|(m, _)| Some(*m) == played).map_or(0, |&(_, points)| points)
    }

    /// The most points a move earns here (zero without a point list).
    pub fn max_points(&self) -> u32 {
        self.points.iter().map(|&(_, points)| points).max().unwrap_or(0)
    }
}

/// Parses one EPD line: four FEN fields (optionally the two clock fields), then
/// `opcode operands;` operations. A record needs a `bm`, `am`, `dm` or point list.
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
    let mut record = EpdRecord {
        position,
        best: Vec::new(),
        avoid: Vec::new(),
        mate: None,
        points: Vec::new(),
        id: format!("line {line_number}"),
    };
    let (mut c0, mut c8, mut c9) = (None, None, None);
    for (opcode, operand) in operations(rest)? {
        match opcode {
            // Mate-track files write a mate in N as `bm #N`: the same test as `dm N`.
            "bm" if operand.starts_with('#') => record.mate = Some(mate_moves(&operand[1..])?),
            "bm" | "am" => {
                for text in operand.split_whitespace() {
                    let m = resolve_move(&record.position, text)
                        .ok_or_else(|| format!("{opcode} {text} is not a legal move here"))?;
                    if opcode == "bm" { record.best.push(m) } else { record.avoid.push(m) }
                }
            }
            "dm" => record.mate = Some(mate_moves(operand)?),
            "id" => record.id = unquote(operand).to_string(),
            "c0" => c0 = Some(unquote(operand)),
            "c8" => c8 = Some(unquote(operand)),
            "c9" => c9 = Some(unquote(operand)),
            _ => {}
        }
    }
    // The UCI list names moves exactly; the SAN list is the fallback.
    let uci_list = c8.zip(c9).and_then(|(points, moves)| parallel_points(points, moves));
    let listed = uci_list.or_else(|| c0.and_then(point_list)).unwrap_or_default();
    for (text, points) in listed {
        let m = resolve_move(&record.position, text)
            .ok_or_else(|| format!("points for {text}, which is not a legal move here"))?;
        let points = points.min(MAX_POINTS);
        // A move listed twice keeps its higher points.
        match record.points.iter_mut().find(|(listed, _)| *listed == m) {
            Some(entry) => entry.1 = entry.1.max(points),
            None => record.points.push((m, points)),
        }
    }
    if record.best.is_empty() && record.avoid.is_empty() && record.mate.is_none() && record.points.is_empty() {
        return Err("no bm, am, dm or point list".to_string());
    }
    Ok(record)
}

/// The N of a mate in N (`dm N`, `bm #N`): a positive number of moves.
fn mate_moves(operand: &str) -> Result<u32, String> {
    match operand.parse::<u32>() {
        Ok(moves) if moves > 0 => Ok(moves),
        _ => Err(format!("a mate needs a positive number of moves, not '{operand}'")),
    }
}

/// The `(opcode, operand)` pairs of the operations, in order. A `;` inside a quoted
/// string belongs to the string.
fn operations(text: &str) -> Result<Vec<(&str, &str)>, String> {
    let mut pieces = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (at, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                pieces.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    if quoted {
        return Err("a quoted string is not closed".to_string());
    }
    // The last operation may lack its `;`.
    pieces.push(&text[start..]);
    Ok(pieces
        .into_iter()
        .map(str::trim)
        .filter(|operation| !operation.is_empty())
        .map(|operation| {
            let (opcode, operand) = operation.split_once(char::is_whitespace).unwrap_or((operation, ""));
            (opcode, operand.trim())
        })
        .collect())
}

/// An operand without its surrounding double quotes.
fn unquote(operand: &str) -> &str {
    operand.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(operand)
}

/// The `move=points` pairs of an STS `c0` comment (`"f5=10, Be5+=2"`), or `None` when
/// the comment is something else (a source, a game).
pub fn point_list(text: &str) -> Option<Vec<(&str, u32)>> {
    text.split(',')
        .map(|item| {
            let (mv, points) = item.trim().split_once('=')?;
            let mv = mv.trim();
            (!mv.is_empty() && !mv.contains(char::is_whitespace)).then_some(())?;
            Some((mv, points.trim().parse().ok()?))
        })
        .collect()
}

/// The `(move, points)` pairs of a `c8` points list and the `c9` moves it scores, or
/// `None` when `c8` is not a list of numbers as long as `c9`.
pub fn parallel_points<'a>(points: &str, moves: &'a str) -> Option<Vec<(&'a str, u32)>> {
    let points: Vec<u32> = points.split_whitespace().map(|p| p.parse().ok()).collect::<Option<_>>()?;
    let moves: Vec<&str> = moves.split_whitespace().collect();
    (!moves.is_empty() && moves.len() == points.len()).then(|| moves.into_iter().zip(points).collect())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::uci_text;

    fn uci_points(record: &EpdRecord) -> Vec<(String, u32)> {
        record.points.iter().map(|&(m, p)| (uci_text(m, CastlingMode::Standard), p)).collect()
    }

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
        assert!(parse_record("6k1/5ppp/8/8/8/8/8/R5K1 w - - id \"x\";", 5).is_err());
        assert!(parse_record("8/8/8/8 w - - bm Ra8;", 6).is_err());
    }

    #[test]
    fn dm_records_need_a_positive_number() {
        let r = parse_record("6k1/5ppp/8/8/8/8/8/R5K1 w - - dm 1; id \"m\";", 1).unwrap();
        assert_eq!((r.mate, r.best.len()), (Some(1), 0));
        assert!(parse_record("6k1/5ppp/8/8/8/8/8/R5K1 w - - dm 0;", 2).is_err());
        assert!(parse_record("6k1/5ppp/8/8/8/8/8/R5K1 w - - dm two;", 3).is_err());
    }

    #[test]
    fn mate_track_bm_is_a_mate_in_n() {
        let r = parse_record("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm #1;", 1).unwrap();
        assert_eq!((r.mate, r.best.len()), (Some(1), 0));
        // A mate against the side to move is not a move to find.
        assert!(parse_record("6k1/5ppp/8/8/8/8/8/r5K1 b - - bm #-2;", 2).is_err());
        assert!(parse_record("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm #;", 3).is_err());
    }

    #[test]
    fn c0_point_lists_are_told_from_comments() {
        assert_eq!(point_list("f5=10, Be5+=2,Bf2=3"), Some(vec![("f5", 10), ("Be5+", 2), ("Bf2", 3)]));
        assert_eq!(point_list("Bg7f8=10"), Some(vec![("Bg7f8", 10)]));
        assert_eq!(point_list("DB/GK Philadelphia 1996, Game 5, move 7W (Bd3)"), None);
        assert_eq!(point_list("Mate in 7 moves"), None);
        assert_eq!(point_list("f5=10, Be5+=two"), None);
        assert_eq!(point_list("f5=10, =2"), None);
        assert_eq!(point_list("a b=1"), None);
        assert_eq!(point_list(""), None);
    }

    #[test]
    fn c8_c9_lists_pair_points_with_moves() {
        assert_eq!(parallel_points("10 2 3", "f4f5 d4e5 d4f2"), Some(vec![("f4f5", 10), ("d4e5", 2), ("d4f2", 3)]));
        assert_eq!(parallel_points("10 2", "f4f5 d4e5 d4f2"), None);
        assert_eq!(parallel_points("10 x", "f4f5 d4e5"), None);
        assert_eq!(parallel_points("", ""), None);
    }

    #[test]
    fn point_lists_become_legal_moves_with_points() {
        // STS Undermine.001: c0 and c8/c9 name the same moves.
        let fen = "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - -";
        let expected = vec![("f4f5".to_string(), 10), ("d4e5".into(), 2), ("d4f2".into(), 3), ("f3g4".into(), 2)];
        let r = parse_record(
            &format!(r#"{fen} bm f5; id "STS(v1.0) Undermine.001"; c0 "f5=10, Be5+=2, Bf2=3, Bg4=2";"#),
            1,
        )
        .unwrap();
        assert_eq!(uci_points(&r), expected);
        assert_eq!((r.max_points(), r.points_for(Some(r.best[0])), r.points_for(None)), (10, 10, 0));
        let r = parse_record(&format!(r#"{fen} c8 "10 2 3 2"; c9 "f4f5 d4e5 d4f2 f3g4";"#), 2).unwrap();
        assert_eq!(uci_points(&r), expected);
        // c8/c9 win over c0; a `;` inside a quoted comment does not end it; the last
        // operation may lack its `;`.
        let r = parse_record(&format!(r#"{fen} c0 "a3=4; odd, but a comment"; c8 "7"; c9 "f4f5""#), 3).unwrap();
        assert_eq!(uci_points(&r), vec![("f4f5".to_string(), 7)]);
        // A move listed twice keeps its higher points; points above the maximum count as it.
        let r = parse_record(&format!(r#"{fen} c0 "f5=4, f5=9, Bf2=12";"#), 4).unwrap();
        assert_eq!(uci_points(&r), vec![("f4f5".to_string(), 9), ("d4f2".into(), MAX_POINTS)]);
        // A comment that is not a point list is ignored; an illegal move in a list is an error.
        let r = parse_record(&format!(r#"{fen} bm f5; c0 "Aldiga-Knight-king, playchess.com 2016";"#), 5).unwrap();
        assert!(r.points.is_empty());
        assert!(parse_record(&format!(r#"{fen} c0 "Arasan 2016";"#), 6).is_err());
        assert!(parse_record(&format!(r#"{fen} c0 "f5=10, Qh5=3";"#), 7).is_err());
        assert!(parse_record(&format!(r#"{fen} bm f5; c0 "unclosed;"#), 8).is_err());
    }
}
