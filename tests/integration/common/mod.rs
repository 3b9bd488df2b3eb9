//! The harness shared by the transcript tests: it starts the real `harrier` binary, talks
//! to it over stdin/stdout and checks what a GUI would see.
//!
//! Every line the engine prints is checked to be a UCI line, and every `bestmove` (with its
//! ponder move and the PVs before it) is replayed with shakmaty for legality. Timeouts are
//! generous and latency limits loose, so the tests hold on a loaded two-core machine; the
//! real latency targets are measured elsewhere.

pub mod searching;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// How long to wait for anything the engine must eventually send.
pub const TIMEOUT: Duration = Duration::from_secs(10);
/// A loose bound for answers that must come "at once" (`readyok`, `bestmove` after `stop`).
pub const PROMPT: Duration = Duration::from_millis(500);
/// How long a search that must not end yet is watched.
pub const WATCH: Duration = Duration::from_millis(1000);

/// White mates in two: 1. Nf6+ gxf6 2. Bxf7#.
pub const MATE_IN_TWO: &str = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";

/// The first words an `info` line may continue with.
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
    "sbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
];

// ---------------------------------------------------------------------------------------
// The engine under test.
// ---------------------------------------------------------------------------------------

/// A running `harrier` with piped stdin/stdout; killed when dropped.
pub struct Harrier {
    /// The engine process (its `id()` is the pid, for reading `/proc`).
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Vec<u8>>,
    /// Set by `go perft`, cleared by its `Nodes searched:` line: perft output is allowed.
    pub in_perft: bool,
}

/// Why no line came.
#[derive(Debug, PartialEq, Eq)]
pub enum NoLine {
    /// Nothing before the deadline.
    Timeout,
    /// The engine closed its output.
    Closed,
}

/// Starts the engine with piped stdin and stdout, for tests that read it raw.
pub fn spawn_process() -> Child {
    Command::new(env!("CARGO_BIN_EXE_harrier"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("harrier starts")
}

/// The number of threads of a process, from `/proc`.
pub fn thread_count(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/task")).expect("/proc lists the threads").count()
}

impl Harrier {
    /// Starts the engine; a reader thread feeds its stdout lines into a channel.
    pub fn spawn() -> Harrier {
        let mut child = spawn_process();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if line.last() == Some(&b'\n') {
                            line.pop();
                        }
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stdin = child.stdin.take();
        Harrier { child, stdin, lines, in_perft: false }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        if line.trim_start().starts_with("go perft") {
            self.in_perft = true;
        }
        self.send_raw(line.as_bytes());
    }

    /// Sends raw bytes followed by a newline.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is still open");
        let mut data = bytes.to_vec();
        data.push(b'\n');
        stdin.write_all(&data).and_then(|()| stdin.flush()).expect("the engine reads its input");
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line before `deadline`, checked to be a UCI line.
    pub fn next_line(&mut self, deadline: Instant) -> Result<String, NoLine> {
        let wait = deadline.saturating_duration_since(Instant::now());
        let bytes = self.lines.recv_timeout(wait).map_err(|e| match e {
            RecvTimeoutError::Timeout => NoLine::Timeout,
            RecvTimeoutError::Disconnected => NoLine::Closed,
        })?;
        let line = String::from_utf8(bytes).unwrap_or_else(|e| panic!("engine printed non-UTF-8: {e}"));
        assert!(is_uci_line(&line, self.in_perft), "not a UCI line: {line:?}");
        if line.starts_with("Nodes searched: ") {
            self.in_perft = false;
        }
        Ok(line)
    }

    /// Reads until a line satisfies `predicate`, and returns that line.
    pub fn expect_line(&mut self, predicate: impl Fn(&str) -> bool, timeout: Duration, what: &str) -> String {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            match self.next_line(deadline) {
                Ok(line) if predicate(&line) => return line,
                Ok(line) => seen.push(line),
                Err(why) => panic!("expected {what} within {timeout:?}, got {why:?}; lines seen: {seen:#?}"),
            }
        }
    }

    /// Reads until a line starting with `prefix` and returns every line seen, that one last.
    pub fn read_until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            match self.next_line(deadline) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(why) => panic!("expected '{prefix}' within {timeout:?}, got {why:?}; lines seen: {seen:#?}"),
            }
        }
    }

    /// Every line that arrives within `duration`.
    pub fn lines_for(&mut self, duration: Duration) -> Vec<String> {
        let deadline = Instant::now() + duration;
        let mut seen = Vec::new();
        loop {
            match self.next_line(deadline) {
                Ok(line) => seen.push(line),
                Err(NoLine::Timeout) => return seen,
                Err(NoLine::Closed) => panic!("the engine closed its output; lines seen: {seen:#?}"),
            }
        }
    }

    /// `isready`, answered by `readyok` within `timeout`; returns the lines before it.
    pub fn ready_within(&mut self, timeout: Duration) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until("readyok", timeout);
        assert_eq!(lines.pop().as_deref(), Some("readyok"));
        lines
    }

    /// `isready` → `readyok`, with no `bestmove` in between; returns the lines before it.
    pub fn ready(&mut self) -> Vec<String> {
        let lines = self.ready_within(TIMEOUT);
        assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "unexpected bestmove: {lines:#?}");
        lines
    }

    /// Sends `go ...` and waits for its `bestmove`, checked against `pos`.
    pub fn go(&mut self, go: &str, pos: &Chess) -> Search {
        self.send(go);
        self.bestmove(pos, TIMEOUT)
    }

    /// Waits for the `bestmove` of a running search on `pos` and checks it.
    pub fn bestmove(&mut self, pos: &Chess, timeout: Duration) -> Search {
        let start = Instant::now();
        let lines = self.read_until("bestmove", timeout);
        Search::check(lines, pos, start.elapsed())
    }

    /// Asserts that no `bestmove` arrives within `duration`.
    pub fn no_bestmove_for(&mut self, duration: Duration) {
        let lines = self.lines_for(duration);
        assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "bestmove too early: {lines:#?}");
    }

    /// Waits for the process to exit; true if it did within `timeout`.
    pub fn exits_within(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if self.child.try_wait().expect("the child can be polled").is_some() {
                return true;
            }
            thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Drop for Harrier {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// True for the lines a UCI engine may print; perft output only while `in_perft`.
fn is_uci_line(line: &str, in_perft: bool) -> bool {
    let words: Vec<&str> = line.split(' ').collect();
    match words[0] {
        "id" => line.starts_with("id name ") || line.starts_with("id author "),
        "option" => line.starts_with("option name ") && line.contains(" type "),
        "uciok" | "readyok" => words.len() == 1,
        "info" => words.get(1).is_some_and(|w| INFO_KEYWORDS.contains(w)),
        "bestmove" => words.len() == 2 || (words.len() == 4 && words[2] == "ponder"),
        _ => in_perft && (line.is_empty() || line.starts_with("Nodes searched: ") || is_perft_count(line)),
    }
}

/// A `move: count` line of `go perft`.
fn is_perft_count(line: &str) -> bool {
    line.split_once(": ")
        .is_some_and(|(mv, count)| UciMove::from_ascii(mv.as_bytes()).is_ok() && count.parse::<u64>().is_ok())
}

// ---------------------------------------------------------------------------------------
// An independent legality check: every move the engine prints is replayed with shakmaty.
// ---------------------------------------------------------------------------------------

/// A position from a FEN (`None`: the start position) and UCI moves.
pub fn position_in(fen: Option<&str>, moves: &[&str], mode: CastlingMode) -> Chess {
    let mut pos: Chess = match fen {
        None => Chess::default(),
        Some(text) => text.parse::<Fen>().expect("test FEN parses").into_position(mode).expect("test FEN is legal"),
    };
    for text in moves {
        let m = legal_move(&pos, text).unwrap_or_else(|| panic!("test move {text} is legal"));
        pos.play_unchecked(m);
    }
    pos
}

/// A standard-chess position.
pub fn position(fen: Option<&str>, moves: &[&str]) -> Chess {
    position_in(fen, moves, CastlingMode::Standard)
}

/// The legal move of `pos` that `text` names, if any.
pub fn legal_move(pos: &Chess, text: &str) -> Option<Move> {
    let m = UciMove::from_ascii(text.as_bytes()).ok()?.to_move(pos).ok()?;
    pos.legal_moves().contains(&m).then_some(m)
}

/// Asserts `text` is a legal move of `pos`, written the way the position's castling mode
/// wants (`e1g1` in standard chess, king-takes-rook in Chess960); returns the move.
pub fn assert_legal(pos: &Chess, text: &str) -> Move {
    let m = legal_move(pos, text).unwrap_or_else(|| panic!("{text} is not legal in {}", fen_of(pos)));
    assert_eq!(m.to_uci(pos.castles().mode()).to_string(), text, "move text is not canonical");
    m
}

/// The FEN of `pos`.
fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

/// The first moves that mate in at most two moves, found by brute force.
pub fn mates_in_two(pos: &Chess) -> Vec<Move> {
    let mates_at_once = |p: &Chess| {
        p.legal_moves().into_iter().any(|m| {
            let mut next = p.clone();
            next.play_unchecked(m);
            next.is_checkmate()
        })
    };
    pos.legal_moves()
        .into_iter()
        .filter(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            after.is_checkmate()
                || (!after.is_stalemate()
                    && after.legal_moves().into_iter().all(|reply| {
                        let mut p = after.clone();
                        p.play_unchecked(reply);
                        mates_at_once(&p)
                    }))
        })
        .collect()
}

/// A finished search: its lines, checked.
pub struct Search {
    /// Every line from the call that waited for `bestmove`, `bestmove` last.
    pub lines: Vec<String>,
    /// The move played.
    pub best: String,
    /// The ponder move, if any.
    pub ponder: Option<String>,
    /// From the call that waited for `bestmove` to its arrival.
    pub elapsed: Duration,
}

impl Search {
    /// Checks a search's output on `pos`: one `bestmove`, last; a final `info` with score
    /// and pv just before it; legal PVs; the best move first in the last PV and the ponder
    /// move second.
    pub fn check(lines: Vec<String>, pos: &Chess, elapsed: Duration) -> Search {
        let last = lines.last().expect("bestmove was read");
        let words: Vec<&str> = last.split(' ').collect();
        let best = words[1].to_string();
        let ponder = words.get(3).map(|p| p.to_string());
        assert!(lines[..lines.len() - 1].iter().all(|l| !l.starts_with("bestmove")));
        for line in lines.iter().filter(|l| l.starts_with("info ") && l.contains(" pv ")) {
            check_pv(pos, line);
        }
        let report = lines.len().checked_sub(2).map(|i| lines[i].as_str()).unwrap_or_default();
        assert!(
            report.starts_with("info ") && report.contains(" score "),
            "no final info with a score before {last}: {lines:#?}"
        );
        if best == "(none)" {
            assert!(pos.legal_moves().is_empty(), "bestmove (none) with legal moves");
            return Search { lines, best, ponder, elapsed };
        }
        let pv = pv_of(report);
        assert!(!pv.is_empty(), "the final info has no pv: {report}");
        assert_eq!(pv[0], best, "bestmove is not the first move of the final pv");
        let m = assert_legal(pos, &best);
        if let Some(ponder) = &ponder {
            let mut after = pos.clone();
            after.play_unchecked(m);
            assert_legal(&after, ponder);
        }
        if pv.len() >= 2 {
            assert_eq!(ponder.as_deref(), Some(pv[1]), "ponder must be the pv's second move: {report} / {last}");
        }
        Search { lines, best, ponder, elapsed }
    }

    /// The deepest `depth` reported.
    pub fn max_depth(&self) -> u32 {
        self.lines.iter().filter_map(|l| field(l, "depth")).max().unwrap_or(0) as u32
    }

    /// The final report's value of `key`.
    pub fn final_field(&self, key: &str) -> Option<i64> {
        field(&self.lines[self.lines.len() - 2], key)
    }
}

/// The moves after `pv` in an info line (pv is the last attribute).
pub fn pv_of(line: &str) -> Vec<&str> {
    let words: Vec<&str> = line.split(' ').collect();
    words.iter().position(|&w| w == "pv").map(|i| words[i + 1..].to_vec()).unwrap_or_default()
}

/// The number after `key` in an info line.
pub fn field(line: &str, key: &str) -> Option<i64> {
    let words: Vec<&str> = line.split(' ').collect();
    let at = words.iter().position(|&w| w == key)?;
    words.get(at + 1)?.parse().ok()
}

/// Replays an info line's PV from `pos`: every move legal and written canonically.
pub fn check_pv(pos: &Chess, line: &str) {
    let mut p = pos.clone();
    for text in pv_of(line) {
        let m = assert_legal(&p, text);
        p.play_unchecked(m);
    }
}

/// The `info string` lines among `lines`.
pub fn info_strings(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info string")).collect()
}
