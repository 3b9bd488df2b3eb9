//! The one writer of engine messages. Every line is formatted here (through vampirc-uci's
//! serialisers where they are right) and written whole, then flushed.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{
    CastlingMode, Chess, EnPassantMode, File, Move, Position, Rank, Role, Square, uci::UciMove as ShakmatyUci,
};
use vampirc_uci::{Duration, UciInfoAttribute, UciMessage, UciMove, UciOptionConfig, UciPiece, UciSquare};

use crate::engine::Output;
use crate::engine::options::{EngineOption, OptionKind};
use crate::eval::Evaluation;
use crate::eval::hce::trace;
use crate::eval::nnue;
use crate::moves::uci_text;
use crate::search::{Bound, Report, Score};

/// Where engine lines go: stdout in the engine, a buffer in tests.
#[derive(Clone)]
pub struct Writer {
    sink: Arc<Mutex<dyn Write + Send>>,
    /// Set once a write has failed: nobody reads what the engine says any more.
    closed: Arc<AtomicBool>,
}

impl Writer {
    /// A writer to standard output.
    pub fn stdout() -> Writer {
        Writer::new(Arc::new(Mutex::new(std::io::stdout())))
    }

    /// A writer to any sink.
    pub fn new(sink: Arc<Mutex<dyn Write + Send>>) -> Writer {
        Writer { sink, closed: Arc::new(AtomicBool::new(false)) }
    }

    /// True once a line could not be written (the GUI has closed its end of the pipe).
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    /// Writes one line and flushes it.
    pub fn line(&self, text: &str) {
        let mut sink = self.sink.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if writeln!(sink, "{text}").and_then(|()| sink.flush()).is_err() {
            self.closed.store(true, Ordering::Release);
        }
    }

    fn message(&self, message: UciMessage) {
        self.line(&message.to_string());
    }

    /// `readyok`.
    pub fn ready(&self) {
        self.message(UciMessage::ReadyOk);
    }

    /// `d`: the board from White's side, then the FEN, the Polyglot key and the checkers.
    pub fn board(&self, pos: &Chess) {
        let separator = " +---+---+---+---+---+---+---+---+";
        self.line("");
        self.line(separator);
        for rank in Rank::ALL.into_iter().rev() {
            let mut row = String::from(" |");
            for file in File::ALL {
                let piece = pos.board().piece_at(Square::from_coords(file, rank));
                row.push_str(&format!(" {} |", piece.map_or(' ', |p| p.char())));
            }
            self.line(&format!("{row} {}", rank.char()));
            self.line(separator);
        }
        self.line("   a   b   c   d   e   f   g   h");
        self.line("");
        self.line(&format!("Fen: {}", Fen::from_position(pos, EnPassantMode::Legal)));
        self.line(&format!("Key: {:016X}", pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0));
        let checkers: Vec<String> = pos.checkers().into_iter().map(|sq| sq.to_string()).collect();
        self.line(&format!("Checkers: {}", checkers.join(" ")));
    }

    /// `eval`: the hand-crafted evaluation of `pos` term by term, then the network's (the one
    /// in use, else the built-in one), from White's side.
    pub fn evaluation(&self, pos: &Chess, evaluation: &Evaluation) {
        for line in trace::report(pos) {
            self.line(&line);
        }
        let line = match evaluation.network() {
            Some(net) => crate::eval::network_report_line(net, pos, "in use"),
            None => {
                crate::eval::network_report_line(&nnue::embedded(), pos, &format!("{}, built in", nnue::EMBEDDED_ID))
            }
        };
        self.line(&line);
    }

    /// The answer to `uci`: identity, every option, then `uciok` last.
    pub fn identify(&self, name: &str, author: &str, options: &[EngineOption]) {
        self.message(UciMessage::Id { name: Some(name.to_string()), author: None });
        self.message(UciMessage::Id { name: None, author: Some(author.to_string()) });
        for spec in options {
            self.message(UciMessage::Option(option_config(spec)));
        }
        self.message(UciMessage::UciOk);
    }
}

impl Output for Writer {
    /// `info string <text>`.
    fn info_string(&self, text: &str) {
        self.message(UciMessage::info_string(text.to_string()));
    }

    /// An `info` line for a search report.
    fn report(&self, report: &Report, mode: CastlingMode) {
        let (cp, mate) = match report.score {
            Score::Centipawns(cp) => (Some(cp), None),
            Score::Mate(n) => (None, Some(n.clamp(i8::MIN as i32, i8::MAX as i32) as i8)),
        };
        let mut attributes = vec![
            UciInfoAttribute::Depth(report.depth.min(u8::MAX as u32) as u8),
            UciInfoAttribute::SelDepth(report.seldepth.min(u8::MAX as u32) as u8),
            UciInfoAttribute::MultiPv(report.multipv.min(u16::MAX as u32) as u16),
            UciInfoAttribute::Score {
                cp,
                mate,
                lower_bound: (report.bound == Bound::Lower).then_some(true),
                upper_bound: (report.bound == Bound::Upper).then_some(true),
            },
        ];
        if let Some([win, draw, loss]) = report.wdl {
            attributes.push(UciInfoAttribute::Any("wdl".to_string(), format!("{win} {draw} {loss}")));
        }
        attributes.extend([
            UciInfoAttribute::Nodes(report.nodes),
            UciInfoAttribute::Nps(report.nps()),
            UciInfoAttribute::HashFull(report.hashfull.min(1000) as u16),
            UciInfoAttribute::Time(Duration::milliseconds(report.elapsed.as_millis() as i64)),
        ]);
        if report.tbhits > 0 {
            attributes.push(UciInfoAttribute::TbHits(report.tbhits));
        }
        if !report.pv.is_empty() {
            attributes.push(UciInfoAttribute::Pv(report.pv.iter().map(|&m| wire_move(m, mode)).collect()));
        }
        self.message(UciMessage::Info(attributes));
    }

    /// `info depth D currmove M currmovenumber N` (vampirc-uci would print `currmovenum`).
    fn current_move(&self, depth: u32, mv: Move, number: u32, mode: CastlingMode) {
        self.message(UciMessage::Info(vec![
            UciInfoAttribute::Depth(depth.min(u8::MAX as u32) as u8),
            UciInfoAttribute::CurrMove(wire_move(mv, mode)),
            UciInfoAttribute::Any("currmovenumber".to_string(), number.to_string()),
        ]));
    }

    /// `bestmove M [ponder P]`, or `bestmove (none)` when there is no legal move.
    fn best_move(&self, best: Option<Move>, ponder: Option<Move>, mode: CastlingMode) {
        match best {
            Some(best) => self.message(UciMessage::BestMove {
                best_move: wire_move(best, mode),
                ponder: ponder.map(|p| wire_move(p, mode)),
            }),
            None => self.line("bestmove (none)"),
        }
    }

    /// `e2e4: 20`, as Stockfish prints perft counts.
    fn perft_move(&self, mv: Move, count: u64, mode: CastlingMode) {
        self.line(&format!("{}: {count}", uci_text(mv, mode)));
    }

    /// An empty line, then `Nodes searched: N`.
    fn perft_total(&self, total: u64) {
        self.line("");
        self.line(&format!("Nodes searched: {total}"));
    }
}

/// A move in vampirc-uci's type, castling written the way `mode` wants.
fn wire_move(m: Move, mode: CastlingMode) -> UciMove {
    match m.to_uci(mode) {
        ShakmatyUci::Normal { from, to, promotion } => UciMove {
            from: square(from),
            to: square(to),
            promotion: promotion.map(|r| match r {
                Role::Knight => UciPiece::Knight,
                Role::Bishop => UciPiece::Bishop,
                Role::Rook => UciPiece::Rook,
                _ => UciPiece::Queen,
            }),
        },
        // Standard chess has neither drops nor null moves among its legal moves.
        ShakmatyUci::Put { .. } | ShakmatyUci::Null => unreachable!("not a legal chess move"),
    }
}

fn square(sq: shakmaty::Square) -> UciSquare {
    UciSquare::from(sq.file().char(), sq.rank() as u8 + 1)
}

fn option_config(option: &EngineOption) -> UciOptionConfig {
    let name = option.name.to_string();
    match &option.kind {
        OptionKind::Check { default, .. } => UciOptionConfig::Check { name, default: Some(*default) },
        OptionKind::Spin { default, min, max, .. } => {
            UciOptionConfig::Spin { name, default: Some(*default), min: Some(*min), max: Some(*max) }
        }
        OptionKind::Combo { default, choices, .. } => UciOptionConfig::Combo {
            name,
            default: Some(default.to_string()),
            var: choices.iter().map(|c| c.to_string()).collect(),
        },
        OptionKind::Button(_) => UciOptionConfig::Button { name },
        OptionKind::String { default, .. } => UciOptionConfig::String { name, default: Some(default.to_string()) },
    }
}
