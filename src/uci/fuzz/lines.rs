//! The fuzzer's input: a seeded stream of lines. Most are valid commands of every kind,
//! drawn against the engine's current position and options (legal moves, every option of
//! the table with valid and invalid values); the rest are those commands mutated token by
//! token, random bytes and very long lines ([`super::mutate`]).

use shakmaty::{CastlingMode, Chess, Position};

use super::fixtures::Fixtures;
use crate::engine::game::parse_fen;
use crate::engine::options::{self, EngineOption, OptionKind};
use crate::random::SplitMix;

/// Positions `position fen` starts from: the openings and endings every engine meets, the
/// special moves, games already over, extreme move counters, Chess960 castling written
/// both ways, a four-field FEN, and positions shakmaty accepts only once repaired (far too
/// much material, an impossible double check).
pub const FENS: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/1P2k3/8/8/8/8/6p1/4K3 w - - 0 1",
    "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 99 80",
    "4k3/8/8/8/8/8/8/4K2R w K - 4294967295 4294967295",
    "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
    "8/8/3p4/KPp4r/1R3p1k/8/4P1P1/8 w - c6 0 3",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w KQkq - 0 1",
    "1r2k1r1/8/8/8/8/8/8/R3K2R b KQk - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K -",
    "kb6/bb6/nnnnnnnn/QQQQQQQQ/qqqqqqqq/NNNNNNNN/6BB/6BK w - - 0 1",
    "kqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQK w - - 0 1",
    "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1",
];

/// The start position written as a FEN, for Chess960 mode's `position startpos`.
const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The largest `Hash` the fuzzer sets, in MB: a valid larger value would only spend the
/// machine's memory (and the time to clear it), not reach other code.
const MAX_FUZZ_HASH_MB: i64 = 32;
/// The most `Threads` the fuzzer sets, for the same reason.
const MAX_FUZZ_THREADS: i64 = 2;
/// The longest random game a `position` command plays, in plies.
const MAX_GAME_PLIES: u64 = 120;
/// The deepest `go depth`, the most `go nodes`, the longest `go movetime` (ms) and the
/// deepest `go perft` of a valid `go`: searches that end by themselves end quickly.
const MAX_GO_DEPTH: u64 = 4;
const MAX_GO_NODES: u64 = 5_000;
const MAX_GO_MOVETIME_MS: u64 = 30;
const MAX_GO_PERFT: u64 = 4;
/// Clocks of a valid `go wtime ...`, in ms (a GUI may send a negative one).
const MIN_GO_CLOCK_MS: i64 = -100;
const MAX_GO_CLOCK_MS: i64 = 60_000;
/// Words a mutation puts in place of another: every keyword of the protocol and a few
/// values and moves that are almost right.
pub const VOCABULARY: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "setoption",
    "name",
    "value",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
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
    "stop",
    "ponderhit",
    "quit",
    "debug",
    "on",
    "off",
    "register",
    "later",
    "code",
    "d",
    "eval",
    "true",
    "false",
    "<empty>",
    "e2e4",
    "e7e8q",
    "e7e8k",
    "e1h1",
    "e1g1",
    "a1a1",
    "0000",
    "O-O",
    "e2e9",
    "(none)",
    "-",
    "KQkq",
    "HAha",
    "w",
    "b",
    "8/8/8/8/8/8/8/8",
];

/// A generator of input lines, reproducible from its seed.
pub struct LineGenerator {
    pub(super) random: SplitMix,
    fixtures: Fixtures,
}

impl LineGenerator {
    /// A generator seeded with `seed`, offering the paths of `fixtures` to path options.
    pub fn new(seed: u64, fixtures: Fixtures) -> LineGenerator {
        LineGenerator { random: SplitMix::new(seed), fixtures }
    }

    /// A number in `0..bound` (`bound` > 0).
    pub(super) fn below(&mut self, bound: u64) -> u64 {
        self.random.below(bound)
    }

    /// True with a chance of `per_mille` in a thousand.
    pub(super) fn chance(&mut self, per_mille: u64) -> bool {
        self.below(1000) < per_mille
    }

    /// One of `items` (not empty).
    pub(super) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// A number in `lo..=hi`.
    fn between(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    /// `text` with each letter's case flipped now and then (commands and names are read in
    /// any case in places, and must be refused cleanly elsewhere).
    pub(super) fn shuffle_case(&mut self, text: &str) -> String {
        text.chars().map(|c| if self.chance(100) { flip_case(c) } else { c }).collect()
    }

    /// A valid command for an engine at `pos` whose castling is written as `mode` wants.
    pub fn valid(&mut self, pos: &Chess, mode: CastlingMode) -> String {
        match self.below(100) {
            0..=5 => "isready".to_string(),
            6 => "uci".to_string(),
            7..=8 => "ucinewgame".to_string(),
            9..=33 => self.setoption(),
            34..=55 => self.position(mode),
            56..=73 => self.go(pos, mode),
            74..=80 => "stop".to_string(),
            81..=84 => "ponderhit".to_string(),
            85..=86 => format!("debug {}", self.pick(&["on", "off"])),
            87 => self.pick(&["register later", "register name Harrier code 1234"]).to_string(),
            88..=90 => "d".to_string(),
            91..=93 => "eval".to_string(),
            // Rare, as each one costs a fresh engine.
            94 if self.chance(100) => "quit".to_string(),
            _ => "isready".to_string(),
        }
    }

    /// `setoption` for any option of the table, its value valid three times in four.
    fn setoption(&mut self) -> String {
        let option = self.pick(options::all());
        let name = self.shuffle_case(option.name);
        let value = if self.chance(750) { self.valid_value(option) } else { self.invalid_value(option) };
        match (&option.kind, self.below(10)) {
            (OptionKind::Button(_), 0..=7) => format!("setoption name {name}"),
            (_, 0) => format!("setoption name {name}"),
            _ => format!("setoption name {name} value {value}"),
        }
    }

    /// A value the option accepts (a path option's may name a file that cannot be used).
    fn valid_value(&mut self, option: &EngineOption) -> String {
        match &option.kind {
            OptionKind::Check { .. } => self.pick(&["true", "false", "TRUE", "False"]).to_string(),
            OptionKind::Spin { min, max, .. } => {
                let max = match option.name {
                    "Hash" => MAX_FUZZ_HASH_MB,
                    "Threads" => MAX_FUZZ_THREADS,
                    _ => *max,
                };
                let value = match self.below(4) {
                    0 => *min,
                    1 => max,
                    _ => self.between(*min, max),
                };
                value.to_string()
            }
            OptionKind::Combo { choices, .. } => {
                let choice = *self.pick(choices);
                self.shuffle_case(choice)
            }
            OptionKind::String { .. } => {
                let paths = match option.name {
                    "BookFile" => &self.fixtures.books,
                    "EvalFile" => &self.fixtures.networks,
                    "SyzygyPath" => &self.fixtures.tablebases,
                    _ => return self.pick(&["GM 2800 human Carlsen", "computer", "<empty>", ""]).to_string(),
                };
                let path = paths[self.random.below(paths.len() as u64) as usize].clone();
                if self.chance(200) { "<empty>".to_string() } else { path }
            }
            OptionKind::Button(_) => String::new(),
        }
    }

    /// A value the option refuses: out of range, of the wrong type, or none at all.
    fn invalid_value(&mut self, option: &EngineOption) -> String {
        match &option.kind {
            OptionKind::Spin { min, max, .. } => {
                let near = [min.saturating_sub(1), max.saturating_add(1), i64::MIN, i64::MAX];
                match self.below(3) {
                    0 => self.pick(&near).to_string(),
                    1 => self.pick(&["", "lots", "1.5", "0x10", "99999999999999999999999"]).to_string(),
                    _ => format!("{min} {max}"),
                }
            }
            OptionKind::Check { .. } => self.pick(&["", "yes", "1", "truee", "on"]).to_string(),
            OptionKind::Combo { choices, .. } => {
                let choice = *self.pick(choices);
                let near = [String::new(), format!("{choice}x"), choice[1..].to_string()];
                self.pick(&near).clone()
            }
            // Any text is a valid string; a path that cannot exist is the invalid one.
            OptionKind::String { .. } => "/nonexistent/path/\u{0}x".to_string(),
            OptionKind::Button(_) => "now".to_string(),
        }
    }

    /// `position startpos|fen ... [moves ...]`: a random game from the start or a FEN of
    /// [`FENS`], its moves written for `mode` and now and then for the other mode.
    fn position(&mut self, mode: CastlingMode) -> String {
        let fen = if self.chance(500) { None } else { Some(*self.pick(FENS)) };
        let start = match fen {
            None if mode == CastlingMode::Standard => Ok(Chess::default()),
            None => parse_fen(START_FEN, mode, &mut Vec::new()),
            Some(text) => parse_fen(text, mode, &mut Vec::new()),
        };
        let plies = if self.chance(50) { self.below(MAX_GAME_PLIES + 1) } else { self.below(13) };
        let moves = match start {
            Ok(start) => self.random_game(start, plies, mode),
            Err(_) => Vec::new(),
        };
        let setup = fen.map_or("startpos".to_string(), |text| format!("fen {text}"));
        match (moves.is_empty(), self.below(4)) {
            (true, 0) => format!("position {setup} moves"),
            (true, _) => format!("position {setup}"),
            (false, _) => format!("position {setup} moves {}", moves.join(" ")),
        }
    }

    /// The moves of a random game of up to `plies` plies from `pos`, as UCI text.
    fn random_game(&mut self, mut pos: Chess, plies: u64, mode: CastlingMode) -> Vec<String> {
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = *self.pick(&legal);
            moves.push(self.move_text(m, mode));
            pos.play_unchecked(m);
        }
        moves
    }

    /// A move written for `mode`, and one time in five for the other castling mode.
    fn move_text(&mut self, m: shakmaty::Move, mode: CastlingMode) -> String {
        let written = if self.chance(200) { other_mode(mode) } else { mode };
        m.to_uci(written).to_string()
    }

    /// `go` with limits of every kind, alone or together, now and then with `searchmoves`
    /// legal at `pos`.
    fn go(&mut self, pos: &Chess, mode: CastlingMode) -> String {
        let mut words = vec!["go".to_string()];
        let fields = 1 + self.below(3);
        for _ in 0..fields {
            let field = match self.below(100) {
                0..=19 => format!("depth {}", 1 + self.below(MAX_GO_DEPTH)),
                20..=39 => format!("nodes {}", 1 + self.below(MAX_GO_NODES)),
                40..=49 => format!("movetime {}", 1 + self.below(MAX_GO_MOVETIME_MS)),
                50..=64 => self.clocks(),
                65..=74 => "infinite".to_string(),
                75..=84 => format!("ponder {}", self.clocks()),
                85..=89 => format!("mate {}", 1 + self.below(3)),
                90..=93 => format!("perft {}", 1 + self.below(MAX_GO_PERFT)),
                _ => String::new(),
            };
            words.push(field);
        }
        if self.chance(150) {
            let legal = pos.legal_moves();
            words.push("searchmoves".to_string());
            for _ in 0..1 + self.below(3) {
                match legal.is_empty() || self.chance(100) {
                    true => words.push("e2e4".to_string()),
                    false => {
                        let m = *self.pick(&legal);
                        words.push(self.move_text(m, mode));
                    }
                }
            }
        }
        words.retain(|w| !w.is_empty());
        words.join(" ")
    }

    /// Clock fields: both clocks, and now and then the increments and `movestogo`.
    fn clocks(&mut self) -> String {
        let mut text = format!(
            "wtime {} btime {}",
            self.between(MIN_GO_CLOCK_MS, MAX_GO_CLOCK_MS),
            self.between(MIN_GO_CLOCK_MS, MAX_GO_CLOCK_MS)
        );
        if self.chance(500) {
            text.push_str(&format!(" winc {} binc {}", self.below(1000), self.below(1000)));
        }
        if self.chance(300) {
            text.push_str(&format!(" movestogo {}", 1 + self.below(40)));
        }
        text
    }
}

/// The other castling mode.
fn other_mode(mode: CastlingMode) -> CastlingMode {
    match mode {
        CastlingMode::Standard => CastlingMode::Chess960,
        CastlingMode::Chess960 => CastlingMode::Standard,
    }
}

/// `c` in the other case (unchanged if it has none).
fn flip_case(c: char) -> char {
    if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn generator(seed: u64) -> LineGenerator {
        LineGenerator::new(seed, Fixtures::create(seed).expect("the scratch directory is writable"))
    }

    #[test]
    fn a_seed_gives_its_lines_again() {
        let (mut a, mut b, mut c) = (generator(7), generator(7), generator(8));
        let pos = Chess::default();
        // Each generator writes its files in a directory of its own; the paths are named alike.
        let lines = |g: &mut LineGenerator| {
            let dir = g.fixtures.dir.display().to_string();
            (0..200)
                .map(|_| String::from_utf8_lossy(&g.next_line(&pos, CastlingMode::Standard)).replace(&dir, "<dir>"))
                .collect::<Vec<_>>()
        };
        let first = lines(&mut a);
        assert_eq!(first, lines(&mut b));
        assert_ne!(first, lines(&mut c));
    }

    #[test]
    fn valid_lines_name_every_command_and_option() {
        let mut g = generator(3);
        let pos = Chess::default();
        let lines: Vec<String> = (0..20_000).map(|_| g.valid(&pos, CastlingMode::Standard)).collect();
        let first_words: std::collections::HashSet<&str> =
            lines.iter().filter_map(|line| line.split(' ').next()).collect();
        for command in [
            "uci",
            "isready",
            "ucinewgame",
            "setoption",
            "position",
            "go",
            "stop",
            "ponderhit",
            "debug",
            "register",
            "d",
            "eval",
            "quit",
        ] {
            assert!(first_words.contains(command), "no {command}");
        }
        for option in options::all() {
            let prefix = format!("setoption name {}", option.name).to_ascii_lowercase();
            assert!(lines.iter().any(|line| line.to_ascii_lowercase().starts_with(&prefix)), "no {}", option.name);
        }
        for field in [
            "depth",
            "nodes",
            "movetime",
            "wtime",
            "infinite",
            "ponder",
            "mate",
            "perft",
            "searchmoves",
            "movestogo",
            "winc",
        ] {
            assert!(
                lines.iter().any(|line| line.starts_with("go ") && line.split(' ').any(|w| w == field)),
                "no go {field}"
            );
        }
    }
}
