//! The UCI protocol through the real binary: every test starts `harrier`, talks to it over
//! stdin/stdout and checks what a GUI would see.
//!
//! Every line the engine prints is checked to be a UCI line, and every `bestmove` (with its
//! ponder move and the PVs before it) is replayed with shakmaty for legality. Timeouts are
//! generous and latency limits loose, so the tests hold on a loaded two-core machine; the
//! real latency targets are measured elsewhere.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// How long to wait for anything the engine must eventually send.
const TIMEOUT: Duration = Duration::from_secs(10);
/// A loose bound for answers that must come "at once" (`readyok`, `bestmove` after `stop`).
const PROMPT: Duration = Duration::from_millis(500);
/// How long a search that must not end yet is watched.
const WATCH: Duration = Duration::from_millis(1000);

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// White mates in two: 1. Nf6+ gxf6 2. Bxf7#.
const MATE_IN_TWO: &str = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";

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
struct Harrier {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Vec<u8>>,
    /// Set by `go perft`, cleared by its `Nodes searched:` line: perft output is allowed.
    in_perft: bool,
}

/// Why no line came.
#[derive(Debug, PartialEq, Eq)]
enum NoLine {
    Timeout,
    Closed,
}

impl Harrier {
    /// Starts the engine; a reader thread feeds its stdout lines into a channel.
    fn spawn() -> Harrier {
        let mut child = Command::new(env!("CARGO_BIN_EXE_harrier"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("harrier starts");
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
    fn send(&mut self, line: &str) {
        if line.trim_start().starts_with("go perft") {
            self.in_perft = true;
        }
        self.send_raw(line.as_bytes());
    }

    /// Sends raw bytes followed by a newline.
    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is still open");
        let mut data = bytes.to_vec();
        data.push(b'\n');
        stdin.write_all(&data).and_then(|()| stdin.flush()).expect("the engine reads its input");
    }

    /// Closes the engine's stdin (end of input).
    fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line before `deadline`, checked to be a UCI line.
    fn next_line(&mut self, deadline: Instant) -> Result<String, NoLine> {
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
    fn expect_line(&mut self, predicate: impl Fn(&str) -> bool, timeout: Duration, what: &str) -> String {
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
    fn read_until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
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
    fn lines_for(&mut self, duration: Duration) -> Vec<String> {
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
    fn ready_within(&mut self, timeout: Duration) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until("readyok", timeout);
        assert_eq!(lines.pop().as_deref(), Some("readyok"));
        lines
    }

    /// `isready` → `readyok`, with no `bestmove` in between; returns the lines before it.
    fn ready(&mut self) -> Vec<String> {
        let lines = self.ready_within(TIMEOUT);
        assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "unexpected bestmove: {lines:#?}");
        lines
    }

    /// Sends `go ...` and waits for its `bestmove`, checked against `pos`.
    fn go(&mut self, go: &str, pos: &Chess) -> Search {
        self.send(go);
        self.bestmove(pos, TIMEOUT)
    }

    /// Waits for the `bestmove` of a running search on `pos` and checks it.
    fn bestmove(&mut self, pos: &Chess, timeout: Duration) -> Search {
        let start = Instant::now();
        let lines = self.read_until("bestmove", timeout);
        Search::check(lines, pos, start.elapsed())
    }

    /// Asserts that no `bestmove` arrives within `duration`.
    fn no_bestmove_for(&mut self, duration: Duration) {
        let lines = self.lines_for(duration);
        assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "bestmove too early: {lines:#?}");
    }

    /// Waits for the process to exit; true if it did within `timeout`.
    fn exits_within(&mut self, timeout: Duration) -> bool {
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
fn position_in(fen: Option<&str>, moves: &[&str], mode: CastlingMode) -> Chess {
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
fn position(fen: Option<&str>, moves: &[&str]) -> Chess {
    position_in(fen, moves, CastlingMode::Standard)
}

/// The legal move of `pos` that `text` names, if any.
fn legal_move(pos: &Chess, text: &str) -> Option<Move> {
    let m = UciMove::from_ascii(text.as_bytes()).ok()?.to_move(pos).ok()?;
    pos.legal_moves().contains(&m).then_some(m)
}

/// Asserts `text` is a legal move of `pos`, written the way the position's castling mode
/// wants (`e1g1` in standard chess, king-takes-rook in Chess960); returns the move.
fn assert_legal(pos: &Chess, text: &str) -> Move {
    let m = legal_move(pos, text).unwrap_or_else(|| panic!("{text} is not legal in {}", fen_of(pos)));
    assert_eq!(m.to_uci(pos.castles().mode()).to_string(), text, "move text is not canonical");
    m
}

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

/// The first moves that mate in at most two moves, found by brute force.
fn mates_in_two(pos: &Chess) -> Vec<Move> {
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
struct Search {
    lines: Vec<String>,
    best: String,
    ponder: Option<String>,
    /// From the call that waited for `bestmove` to its arrival.
    elapsed: Duration,
}

impl Search {
    /// Checks a search's output on `pos`: one `bestmove`, last; a final `info` with score
    /// and pv just before it; legal PVs; the best move first in the last PV and the ponder
    /// move second.
    fn check(lines: Vec<String>, pos: &Chess, elapsed: Duration) -> Search {
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
    fn max_depth(&self) -> u32 {
        self.lines.iter().filter_map(|l| field(l, "depth")).max().unwrap_or(0) as u32
    }

    /// The final report's value of `key`.
    fn final_field(&self, key: &str) -> Option<i64> {
        field(&self.lines[self.lines.len() - 2], key)
    }
}

/// The moves after `pv` in an info line (pv is the last attribute).
fn pv_of(line: &str) -> Vec<&str> {
    let words: Vec<&str> = line.split(' ').collect();
    words.iter().position(|&w| w == "pv").map(|i| words[i + 1..].to_vec()).unwrap_or_default()
}

/// The number after `key` in an info line.
fn field(line: &str, key: &str) -> Option<i64> {
    let words: Vec<&str> = line.split(' ').collect();
    let at = words.iter().position(|&w| w == key)?;
    words.get(at + 1)?.parse().ok()
}

/// Replays an info line's PV from `pos`: every move legal and written canonically.
fn check_pv(pos: &Chess, line: &str) {
    let mut p = pos.clone();
    for text in pv_of(line) {
        let m = assert_legal(&p, text);
        p.play_unchecked(m);
    }
}

fn info_strings(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info string")).collect()
}

// ---------------------------------------------------------------------------------------
// 1. uci
// ---------------------------------------------------------------------------------------

#[test]
fn uci_lists_identity_and_every_option_then_uciok_last() {
    let mut e = Harrier::spawn();
    e.send("uci");
    let lines = e.read_until("uciok", TIMEOUT);
    assert!(lines.iter().any(|l| l.starts_with("id name Harrier")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")), "{lines:#?}");
    for option in ["Hash", "Clear Hash", "Threads", "Ponder", "Move Overhead", "SearchMode", "UCI_Chess960"] {
        let prefix = format!("option name {option} type ");
        assert!(lines.iter().any(|l| l.starts_with(&prefix)), "option {option} missing: {lines:#?}");
    }
    // Nothing (no late option) follows uciok before the next answer.
    let after = e.ready();
    assert!(after.is_empty(), "lines after uciok: {after:#?}");
}

// ---------------------------------------------------------------------------------------
// 2. isready
// ---------------------------------------------------------------------------------------

#[test]
fn isready_is_answered_when_idle_and_during_a_search() {
    let mut e = Harrier::spawn();
    assert!(e.ready().is_empty());
    e.send("position startpos moves d2d4");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    let start = Instant::now();
    let lines = e.ready_within(TIMEOUT);
    assert!(start.elapsed() < PROMPT, "readyok during a search took {:?}", start.elapsed());
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    // The search carries on after readyok.
    e.no_bestmove_for(Duration::from_millis(300));
    e.send("stop");
    let search = e.bestmove(&position(None, &["d2d4"]), TIMEOUT);
    assert!(search.elapsed < PROMPT, "bestmove after stop took {:?}", search.elapsed);
    // Exactly one bestmove.
    e.ready();
}

// ---------------------------------------------------------------------------------------
// 3. go and its limits
// ---------------------------------------------------------------------------------------

#[test]
fn go_depth_stops_at_that_depth() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    let search = e.go("go depth 5", &Chess::default());
    assert_eq!(search.max_depth(), 5, "{:#?}", search.lines);
    assert!(search.ponder.is_some(), "a depth-5 pv has a reply to ponder on");
}

#[test]
fn go_nodes_stays_near_the_node_limit() {
    let mut e = Harrier::spawn();
    e.send("position startpos moves e2e4");
    let search = e.go("go nodes 5000", &position(None, &["e2e4"]));
    let nodes = search.final_field("nodes").expect("the final info has nodes");
    assert!(nodes <= 5500, "searched {nodes} nodes for go nodes 5000");
}

#[test]
fn go_movetime_uses_about_that_time() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    let search = e.go("go movetime 300", &Chess::default());
    assert!(search.elapsed >= Duration::from_millis(250), "stopped after {:?}", search.elapsed);
    assert!(search.elapsed < Duration::from_millis(1300), "stopped after {:?}", search.elapsed);
}

#[test]
fn go_with_clocks_moves_within_the_clock() {
    let mut e = Harrier::spawn();
    e.send("position startpos moves e2e4");
    let search = e.go("go wtime 1000 btime 1000 winc 10 binc 10", &position(None, &["e2e4"]));
    assert!(search.elapsed < Duration::from_millis(1000), "took {:?} on a 1 s clock", search.elapsed);
}

#[test]
fn go_movestogo_spends_more_of_the_clock() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    // One move to the time control: most of the clock may go into this move (a clock
    // shared over the default 25 moves allows about 120 ms here).
    let search = e.go("go wtime 1000 btime 1000 movestogo 1", &Chess::default());
    assert!(search.elapsed >= Duration::from_millis(300), "took only {:?}", search.elapsed);
    assert!(search.elapsed < Duration::from_millis(1000), "took {:?} on a 1 s clock", search.elapsed);
}

#[test]
fn go_mate_finds_the_mate_in_two() {
    let pos = position(Some(MATE_IN_TWO), &[]);
    let mates = mates_in_two(&pos);
    let texts: Vec<String> = mates.iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect();
    assert_eq!(texts, ["d5f6"], "the test position has one mate in two");
    let mut e = Harrier::spawn();
    e.send(&format!("position fen {MATE_IN_TWO}"));
    let search = e.go("go mate 2", &pos);
    let report = &search.lines[search.lines.len() - 2];
    assert!(report.contains(" score mate 2 "), "{report}");
    let best = assert_legal(&pos, &search.best);
    assert!(mates.contains(&best), "{} does not mate in two", search.best);
}

#[test]
fn go_searchmoves_restricts_the_root() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    let search = e.go("go depth 4 searchmoves a2a3 b2b3", &Chess::default());
    assert!(["a2a3", "b2b3"].contains(&search.best.as_str()), "bestmove {}", search.best);
    for line in search.lines.iter().filter(|l| l.contains(" pv ")) {
        assert!(["a2a3", "b2b3"].contains(&pv_of(line)[0]), "{line}");
    }
}

#[test]
fn go_infinite_waits_for_stop() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    e.send("go infinite");
    e.no_bestmove_for(WATCH);
    e.send("stop");
    let search = e.bestmove(&Chess::default(), TIMEOUT);
    assert!(search.elapsed < PROMPT, "bestmove after stop took {:?}", search.elapsed);
    e.ready();
}

#[test]
fn go_ponder_waits_for_ponderhit_then_keeps_to_the_clock() {
    let pos = position(None, &["e2e4", "e7e5"]);
    let mut e = Harrier::spawn();
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 1000 btime 1000");
    e.no_bestmove_for(Duration::from_millis(700));
    e.send("ponderhit");
    let search = e.bestmove(&pos, TIMEOUT);
    assert!(search.elapsed < Duration::from_millis(1000), "bestmove {:?} after ponderhit", search.elapsed);
    e.ready();
}

#[test]
fn go_ponder_answers_stop_with_a_bestmove() {
    let pos = position(None, &["e2e4", "e7e5"]);
    let mut e = Harrier::spawn();
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder");
    e.no_bestmove_for(Duration::from_millis(500));
    e.send("stop");
    let search = e.bestmove(&pos, TIMEOUT);
    assert!(search.elapsed < PROMPT, "bestmove after stop took {:?}", search.elapsed);
    e.ready();
}

// ---------------------------------------------------------------------------------------
// 4. The vampirc-uci gaps (shared/design/vampirc-uci.md), row by row.
// ---------------------------------------------------------------------------------------

#[test]
fn go_ponder_with_clock_fields_is_still_a_ponder_search() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    e.send("go ponder wtime 1000 btime 2000 winc 10 binc 10");
    // A plain clock search would have moved after about 120 ms (700 ms at most).
    e.no_bestmove_for(Duration::from_millis(1200));
    e.send("ponderhit");
    let search = e.bestmove(&Chess::default(), TIMEOUT);
    assert!(search.elapsed < Duration::from_millis(1000), "bestmove {:?} after ponderhit", search.elapsed);
}

#[test]
fn go_ponder_movetime_is_a_ponder_search_and_the_movetime_starts_at_ponderhit() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    e.send("go ponder movetime 15000");
    e.no_bestmove_for(Duration::from_millis(500));
    e.send("stop");
    e.bestmove(&Chess::default(), PROMPT);

    e.send("go ponder movetime 600");
    e.no_bestmove_for(Duration::from_millis(900));
    e.send("ponderhit");
    let search = e.bestmove(&Chess::default(), TIMEOUT);
    assert!(search.elapsed >= Duration::from_millis(450), "movetime ignored after ponderhit: {:?}", search.elapsed);
    assert!(search.elapsed < Duration::from_millis(1600), "bestmove {:?} after ponderhit", search.elapsed);
}

#[test]
fn go_infinite_with_a_clock_stays_infinite() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    e.send("go infinite wtime 1000");
    e.no_bestmove_for(Duration::from_millis(1200));
    e.send("stop");
    e.bestmove(&Chess::default(), PROMPT);
}

#[test]
fn go_movetime_is_honoured_beside_other_fields() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    let search = e.go(
        "go movetime 300 wtime 100000 btime 100000 depth 60 nodes 100000000 searchmoves e2e4 d2d4",
        &Chess::default(),
    );
    assert!(["e2e4", "d2d4"].contains(&search.best.as_str()), "bestmove {}", search.best);
    assert!(search.elapsed >= Duration::from_millis(250), "stopped after {:?}", search.elapsed);
    assert!(search.elapsed < Duration::from_millis(1300), "stopped after {:?}", search.elapsed);
}

#[test]
fn numbers_that_overflow_vampirc_uci_do_not_crash() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    for go in ["go depth 256", "go movestogo 256", "go mate 300", "go nodes 9999999999999"] {
        e.send(go);
        e.ready_within(TIMEOUT);
        e.send("stop");
        e.bestmove(&Chess::default(), TIMEOUT);
        e.ready();
    }
    // The largest values still give a playable search.
    e.go("go depth 256 movestogo 256 mate 300 nodes 2000", &Chess::default());
}

#[test]
fn position_with_a_double_space_before_the_moves_applies_them() {
    let mut e = Harrier::spawn();
    e.send("position startpos moves  e2e4");
    let search = e.go("go depth 1", &position(None, &["e2e4"]));
    assert!(
        legal_move(&Chess::default(), &search.best).is_none(),
        "{} was played from the start position",
        search.best
    );
    e.send("position startpos moves\t\te2e4 \t e7e5\r");
    e.go("go depth 1", &position(None, &["e2e4", "e7e5"]));
}

#[test]
fn position_with_a_bad_move_is_rejected_whole_and_the_old_position_kept() {
    // The kept position (white queen and king only) shares no legal move with the start
    // position or the position after 1. e4.
    let kept_fen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
    let kept = position(Some(kept_fen), &[]);
    let after_e4 = position(None, &["e2e4"]);
    let start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut e = Harrier::spawn();
    for bad in [
        "position startpos moves e2e4 xx e7e5".to_string(),
        "position startpos moves e2e4 0000".to_string(),
        format!("position fen {start_fen} moves e2e4 xx e7e5"),
        format!("position fen {start_fen} moves e2e4 0000 e7e5"),
        "position startpos moves e2e4 e2e4".to_string(),
    ] {
        e.send(&format!("position fen {kept_fen}"));
        e.send(&bad);
        let lines = e.ready();
        assert!(info_strings(&lines).iter().any(|l| l.contains("rejected")), "no info string for {bad}: {lines:#?}");
        let search = e.go("go depth 1", &kept);
        assert!(legal_move(&after_e4, &search.best).is_none(), "{bad}: part of it was applied");
        assert!(legal_move(&Chess::default(), &search.best).is_none(), "{bad}: the start position was set");
    }
}

#[test]
fn shredder_fen_castling_in_chess960() {
    let mut e = Harrier::spawn();
    e.send("setoption name UCI_Chess960 value true");
    // Position 1 of the Chess960 perft suite: 21 and 528 positions.
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    e.send(&format!("position fen {fen}"));
    e.send("go perft 2");
    let lines = e.read_until("Nodes searched:", TIMEOUT);
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 528"), "{lines:#?}");
    e.go("go depth 3", &position_in(Some(fen), &[], CastlingMode::Chess960));

    // Castling is printed king-takes-rook in Chess960.
    let fen = "4k3/8/8/8/8/8/8/R3K2R w HA - 0 1";
    e.send(&format!("position fen {fen}"));
    let search = e.go("go depth 2 searchmoves e1h1", &position_in(Some(fen), &[], CastlingMode::Chess960));
    assert_eq!(search.best, "e1h1");
}

#[test]
fn fen_with_four_fields_is_accepted() {
    let mut e = Harrier::spawn();
    e.send("position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -");
    let lines = e.ready();
    assert!(info_strings(&lines).is_empty(), "{lines:#?}");
    let search = e.go("go depth 1", &position(None, &["e2e4"]));
    assert!(legal_move(&Chess::default(), &search.best).is_none(), "the FEN was not set");
}

#[test]
fn upper_case_moves_are_accepted() {
    let mut e = Harrier::spawn();
    e.send("position startpos moves E2E4");
    let search = e.go("go depth 1", &position(None, &["e2e4"]));
    assert!(legal_move(&Chess::default(), &search.best).is_none(), "E2E4 was not applied");
    e.send("position startpos moves E2E4 E7E5 G1F3");
    e.go("go depth 1 searchmoves B8C6 G8F6", &position(None, &["e2e4", "e7e5", "g1f3"]));
}

#[test]
fn king_takes_rook_castling_is_accepted_and_printed_as_king_two_squares() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut e = Harrier::spawn();
    e.send(&format!("position fen {fen} moves e1h1"));
    let pos = position(Some(fen), &["e1g1"]);
    // e8a8 is accepted as castling in searchmoves too, and printed e8c8 (black may not
    // castle short: the rook on f1 guards f8).
    let search = e.go("go depth 2 searchmoves e8a8", &pos);
    assert_eq!(search.best, "e8c8");
    e.send(&format!("position fen {fen} moves e1h1 e8a8"));
    e.go("go depth 3", &position(Some(fen), &["e1g1", "e8c8"]));
    e.send(&format!("position fen {fen}"));
    let search = e.go("go depth 2 searchmoves e1g1", &position(Some(fen), &[]));
    assert_eq!(search.best, "e1g1");
}

#[test]
fn empty_syzygy_path_and_unknown_options_are_ignored() {
    let mut e = Harrier::spawn();
    for line in ["setoption name SyzygyPath value", "setoption name NoSuchOption value 3", "setoption name Foo Bar"] {
        e.send(line);
        let lines = e.ready();
        assert!(!info_strings(&lines).is_empty(), "no info string for {line}");
    }
    e.send("position startpos");
    e.go("go depth 2", &Chess::default());
}

#[test]
fn garbage_and_empty_lines_are_ignored() {
    let mut e = Harrier::spawn();
    e.send("position startpos moves g1f3");
    for line in ["", "   ", "\t\r", "hello world", "isready?", "GO!"] {
        e.send(line);
        e.ready();
    }
    e.go("go depth 2", &position(None, &["g1f3"]));
}

#[test]
fn negative_clock_moves_at_once() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    let search = e.go("go wtime -500 btime 1000", &Chess::default());
    assert!(search.elapsed < Duration::from_millis(1000), "took {:?} with no time left", search.elapsed);
    e.send("position startpos moves e2e4");
    let search = e.go("go wtime 1000 btime -1 winc 0 binc 0", &position(None, &["e2e4"]));
    assert!(search.elapsed < Duration::from_millis(1000), "took {:?} with no time left", search.elapsed);
}

// ---------------------------------------------------------------------------------------
// 5. A battery of malformed input.
// ---------------------------------------------------------------------------------------

/// What a battery line does to the engine.
enum Effect {
    /// Nothing but perhaps an `info string`.
    Ignored,
    /// Starts a search of the current position (stopped by the test).
    Search,
    /// Prints perft output.
    Perft,
    /// Sets this position (FEN or start position, and moves).
    Sets(Option<&'static str>, &'static [&'static str]),
}

#[test]
fn malformed_input_battery_leaves_the_engine_working() {
    let long_garbage = "x".repeat(100_000);
    let long_moves = format!("position startpos moves {}", "g1f3 g8f6 f3g1 f6g8 ".repeat(2_000));
    // Longer than the engine reads at once (1 MiB): its tail must not become a command.
    let overlong = format!("{} quit", "y ".repeat(700_000));
    let battery: Vec<(Vec<u8>, Effect)> = vec![
        (b"position".to_vec(), Effect::Ignored),
        (b"position fen".to_vec(), Effect::Ignored),
        (b"position startpos extra".to_vec(), Effect::Ignored),
        (b"position moves e2e4".to_vec(), Effect::Ignored),
        (b"position fen garbage garbage garbage".to_vec(), Effect::Ignored),
        (b"position fen 8/8/8/8/8/8/8/8 w - - 0 1".to_vec(), Effect::Ignored),
        (b"position fen 4k3/8/8/8/8/8/8/8 w - - 0 1".to_vec(), Effect::Ignored),
        (b"position fen kkkkkkkk/8/8/8/8/8/8/KKKKKKKK w - - 0 1".to_vec(), Effect::Ignored),
        (b"position fen 4k3/4R3/8/8/8/8/8/4K3 w - - 0 1".to_vec(), Effect::Ignored),
        (b"position fen 4k3/8/8/8/8/8/8/P3K3 w - - 0 1".to_vec(), Effect::Ignored),
        (b"position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_vec(), Effect::Ignored),
        (b"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1".to_vec(), Effect::Ignored),
        (b"position fen 4k3/8/8/8/8/8/8/4K3 w - - -5 1".to_vec(), Effect::Ignored),
        (b"position startpos moves e7e5".to_vec(), Effect::Ignored),
        (b"position startpos moves e2e4 e2e4".to_vec(), Effect::Ignored),
        (b"position startpos moves 0000".to_vec(), Effect::Ignored),
        (b"position startpos moves e2e4 xx".to_vec(), Effect::Ignored),
        (b"position startpos moves e2e".to_vec(), Effect::Ignored),
        (b"position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1 e8c8".to_vec(), Effect::Ignored),
        ("position startpos moves \u{e9}2\u{e9}4".as_bytes().to_vec(), Effect::Ignored),
        (b"position startpos moves e2e4 \xc3\x28".to_vec(), Effect::Ignored),
        (format!("{long_moves}e2e5").into_bytes(), Effect::Ignored),
        (b"setoption name Hash value -5".to_vec(), Effect::Ignored),
        (b"setoption name Hash value 99999999".to_vec(), Effect::Ignored),
        (b"setoption name Hash value lots".to_vec(), Effect::Ignored),
        (b"setoption name Threads value 64".to_vec(), Effect::Ignored),
        (b"setoption name UCI_Chess960 value maybe".to_vec(), Effect::Ignored),
        (b"setoption name SearchMode value Bogus".to_vec(), Effect::Ignored),
        (b"setoption name".to_vec(), Effect::Ignored),
        (b"setoption value 5".to_vec(), Effect::Ignored),
        (b"setoption".to_vec(), Effect::Ignored),
        (b"debug maybe".to_vec(), Effect::Ignored),
        (b"register later".to_vec(), Effect::Ignored),
        (b"stop".to_vec(), Effect::Ignored),
        (b"ponderhit".to_vec(), Effect::Ignored),
        (b"\xff\xfe\x80".to_vec(), Effect::Ignored),
        (b"\xff\xfego depth 1".to_vec(), Effect::Ignored),
        (b"go\0depth 1".to_vec(), Effect::Ignored),
        (long_garbage.into_bytes(), Effect::Ignored),
        (overlong.into_bytes(), Effect::Ignored),
        (b"go wtime abc".to_vec(), Effect::Search),
        (b"go depth".to_vec(), Effect::Search),
        (b"go depth -3".to_vec(), Effect::Search),
        (b"go depth 99999999999999999999999999999999999999999999".to_vec(), Effect::Search),
        (b"go nodes -1".to_vec(), Effect::Search),
        (b"go movetime 0".to_vec(), Effect::Search),
        (b"go searchmoves".to_vec(), Effect::Search),
        (b"go searchmoves zz99 a1a1 e1e8".to_vec(), Effect::Search),
        (b"go mate 0".to_vec(), Effect::Search),
        (b"go banana 12 wtime".to_vec(), Effect::Search),
        (b"\xff go depth 2".to_vec(), Effect::Search),
        (b"go perft -1".to_vec(), Effect::Perft),
        (b"go perft 0".to_vec(), Effect::Perft),
        (
            b"position fen 4k3/8/8/8/8/8/8/4K2R w K e3 0 1".to_vec(),
            Effect::Sets(Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), &[]),
        ),
        (
            b"position fen 4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1".to_vec(),
            Effect::Sets(Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), &[]),
        ),
        (
            b"position fen 4k3/8/8/8/8/8/8/R3K3 b - - 0 1 moves".to_vec(),
            Effect::Sets(Some("4k3/8/8/8/8/8/8/R3K3 b - - 0 1"), &[]),
        ),
        // 8000 legal moves back to the start position (drawn by the fifty-move rule).
        (long_moves.into_bytes(), Effect::Sets(None, &[])),
        (b"position startpos moves".to_vec(), Effect::Sets(None, &[])),
    ];

    let mut e = Harrier::spawn();
    e.send("position startpos moves e2e4 e7e5 g1f3");
    let mut pos = position(None, &["e2e4", "e7e5", "g1f3"]);
    for (bytes, effect) in &battery {
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(60)]).into_owned();
        // Shown with a failure: which line broke the engine.
        println!("battery line: {shown:?}");
        match effect {
            Effect::Ignored => e.send_raw(bytes),
            Effect::Search => {
                e.send_raw(bytes);
                e.send("stop");
                e.bestmove(&pos, TIMEOUT);
            }
            Effect::Perft => {
                e.in_perft = true;
                e.send_raw(bytes);
                e.read_until("Nodes searched: ", TIMEOUT);
            }
            Effect::Sets(fen, moves) => {
                e.send_raw(bytes);
                pos = position(*fen, moves);
            }
        }
        let lines = e.ready();
        assert!(lines.iter().all(|l| l.starts_with("info")), "after {shown:?}: {lines:#?}");
        let search = e.go("go depth 1", &pos);
        assert_eq!(search.max_depth(), 1, "after {shown:?}");
    }
}

// ---------------------------------------------------------------------------------------
// 6. perft
// ---------------------------------------------------------------------------------------

#[test]
fn go_perft_prints_divide_and_the_total() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.read_until("Nodes searched:", TIMEOUT);
    let counts: Vec<u64> = lines
        .iter()
        .filter_map(|l| l.split_once(": ").filter(|(m, _)| m.len() <= 5).and_then(|(_, c)| c.parse().ok()))
        .collect();
    assert_eq!(counts.len(), 20, "{lines:#?}");
    assert_eq!(counts.iter().sum::<u64>(), 8902);
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 8902"));

    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go perft 2");
    let lines = e.read_until("Nodes searched:", TIMEOUT);
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 2039"));
    e.ready();
}

// ---------------------------------------------------------------------------------------
// 7. Game history
// ---------------------------------------------------------------------------------------

#[test]
fn repeated_positions_and_new_games() {
    let moves = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"];
    let mut e = Harrier::spawn();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.go("go depth 4", &position(None, &moves));
    e.send("ucinewgame");
    e.ready();
    e.send("position startpos moves d2d4 d7d5");
    e.go("go depth 4", &position(None, &["d2d4", "d7d5"]));
    e.send("ucinewgame");
    e.send(&format!("position fen {KIWIPETE}"));
    e.go("go depth 3", &position(Some(KIWIPETE), &[]));
}

// ---------------------------------------------------------------------------------------
// 8. quit, end of input, stray stop/ponderhit, go during a search
// ---------------------------------------------------------------------------------------

#[test]
fn quit_exits_promptly_even_during_a_search() {
    let mut e = Harrier::spawn();
    e.ready();
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(2)), "quit did not end the engine");

    let mut e = Harrier::spawn();
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(2)), "quit during a search did not end the engine");
}

#[test]
fn end_of_input_exits_and_still_sends_bestmove() {
    let mut e = Harrier::spawn();
    e.ready();
    e.close_stdin();
    assert!(e.exits_within(Duration::from_secs(2)), "EOF did not end the engine");

    let mut e = Harrier::spawn();
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    e.close_stdin();
    e.bestmove(&Chess::default(), TIMEOUT);
    assert!(e.exits_within(Duration::from_secs(2)), "EOF during a search did not end the engine");
}

#[test]
fn stop_and_ponderhit_without_a_search_are_harmless() {
    let mut e = Harrier::spawn();
    e.send("stop");
    e.send("ponderhit");
    e.send("stop");
    let lines = e.ready();
    assert!(lines.is_empty(), "{lines:#?}");
    e.send("position startpos");
    e.go("go depth 2", &Chess::default());
    // After the search ended, stop and ponderhit change nothing either.
    e.send("stop");
    e.send("ponderhit");
    assert!(e.ready().is_empty());
}

#[test]
fn go_during_a_search_is_refused_without_a_second_bestmove() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    e.send("go infinite");
    e.send("go depth 1");
    e.expect_line(|l| l.starts_with("info string") && l.contains("go"), TIMEOUT, "an info string refusing go");
    e.send("stop");
    e.bestmove(&Chess::default(), TIMEOUT);
    e.no_bestmove_for(Duration::from_millis(300));
    e.ready();
    // The engine is idle again: the next go is served, once.
    e.go("go depth 1", &Chess::default());
    e.ready();
}

// ---------------------------------------------------------------------------------------
// 9. Options a GUI sets
// ---------------------------------------------------------------------------------------

#[test]
fn declared_options_are_accepted_silently() {
    let mut e = Harrier::spawn();
    for line in [
        "setoption name Hash value 32",
        "setoption name Clear Hash",
        "setoption name Move Overhead value 50",
        "setoption name Ponder value true",
        "setoption name Threads value 1",
        "setoption name SearchMode value AlphaBeta",
        "setoption name UCI_Chess960 value false",
    ] {
        e.send(line);
        let lines = e.ready();
        assert!(lines.is_empty(), "{line}: {lines:#?}");
    }
    e.send("position startpos moves e2e4");
    e.go("go depth 4", &position(None, &["e2e4"]));
    e.go("go wtime 1000 btime 1000", &position(None, &["e2e4"]));
}
