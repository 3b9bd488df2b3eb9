//! The fuzzer's malformed lines: valid commands mutated token by token (words dropped,
//! repeated, swapped, replaced by keywords or by numbers of every size and sign, FENs
//! damaged, odd whitespace), random bytes, and very long lines up to a little past the
//! reader's limit.

use shakmaty::{CastlingMode, Chess};

use super::lines::{LineGenerator, VOCABULARY};
use crate::uci::MAX_LINE_BYTES;

/// Of a thousand lines, this many are valid commands...
const VALID_PER_MILLE: u64 = 600;
/// ...this many mutated commands...
const MUTATED_PER_MILLE: u64 = 340;
/// ...this many random bytes, and the rest (one) a very long line.
const RANDOM_PER_MILLE: u64 = 59;
/// The most mutations made to one command.
const MAX_MUTATIONS: u64 = 3;
/// Numbers a mutation writes in place of a word: signs, zero, the edges of every integer
/// type the engine might parse into, and numbers that are not integers.
const NUMBERS: &[&str] = &[
    "-1",
    "0",
    "-0",
    "255",
    "256",
    "65536",
    "2147483648",
    "4294967296",
    "-9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999999999999999999999",
    "1e9",
    "0x10",
    "+5",
    "3.5",
    "NaN",
    "\u{661}\u{662}",
];
/// Whitespace a mutation puts between words: the parser must read any run of it as one
/// space, and the rest as part of a word.
const SPACES: &[&str] = &["  ", "\t", "\r", " \t ", "\u{a0}", "\u{3000}", "\u{b}", "\u{c}"];
/// Characters written into a FEN.
const FEN_CHARS: &[u8] = b"pnbrqkPNBRQK0123456789/-wx";
/// The most bytes of a random line.
const MAX_RANDOM_BYTES: u64 = 160;
/// The shortest long line; the longest is this much past the reader's limit.
const MIN_LONG_BYTES: u64 = 1024;
const LONG_OVERSHOOT_BYTES: u64 = 64 * 1024;
/// Units a long line repeats after its prefix: garbage, a legal knight shuffle from the
/// start position, repeated `go` fields, a long option value, commands run together.
const LONG_LINES: &[(&str, &str)] = &[
    ("", "x"),
    ("position startpos moves", " g1f3 g8f6 f3g1 f6g8"),
    ("go", " depth 1"),
    ("setoption name UCI_Opponent value", " Carlsen"),
    ("", "isready position startpos go "),
];

impl LineGenerator {
    /// The next line for an engine at `pos` whose castling is written as `mode` wants.
    pub fn next_line(&mut self, pos: &Chess, mode: CastlingMode) -> Vec<u8> {
        let roll = self.below(1000);
        if roll < VALID_PER_MILLE {
            self.valid(pos, mode).into_bytes()
        } else if roll < VALID_PER_MILLE + MUTATED_PER_MILLE {
            self.mutated(pos, mode)
        } else if roll < VALID_PER_MILLE + MUTATED_PER_MILLE + RANDOM_PER_MILLE {
            self.random_bytes()
        } else {
            self.long_line()
        }
    }

    /// A valid command with up to [`MAX_MUTATIONS`] mutations.
    fn mutated(&mut self, pos: &Chess, mode: CastlingMode) -> Vec<u8> {
        let mut words: Vec<String> = self.valid(pos, mode).split(' ').map(str::to_string).collect();
        for _ in 0..1 + self.below(MAX_MUTATIONS) {
            self.mutate(&mut words);
        }
        let mut line = String::new();
        for (index, word) in words.iter().enumerate() {
            if index > 0 {
                let space = if self.chance(100) { *self.pick(SPACES) } else { " " };
                line.push_str(space);
            }
            line.push_str(word);
        }
        line.into_bytes()
    }

    /// One mutation of `words`.
    fn mutate(&mut self, words: &mut Vec<String>) {
        if words.is_empty() {
            words.push(self.pick(VOCABULARY).to_string());
            return;
        }
        let len = words.len() as u64;
        let at = self.below(len) as usize;
        match self.below(10) {
            0 => drop(words.remove(at)),
            1 => words.insert(at, words[at].clone()),
            2 => words.swap(at, self.below(len) as usize),
            3 => {
                // A number where there is one, if any.
                let number = words.iter().position(|w| w.parse::<i64>().is_ok()).unwrap_or(at);
                words[number] = self.pick(NUMBERS).to_string();
            }
            4 => words[at] = self.pick(VOCABULARY).to_string(),
            5 => words.insert(at, self.pick(VOCABULARY).to_string()),
            6 => words[at] = self.shuffle_case(&words[at].to_ascii_uppercase()),
            7 => {
                let board = words.iter().position(|w| w.contains('/')).unwrap_or(at);
                words[board] = self.damage(&words[board]);
            }
            8 => words.truncate(at),
            _ if at + 1 < words.len() => {
                let next = words.remove(at + 1);
                words[at].push_str(&next);
            }
            _ => {}
        }
    }

    /// `word` with a character replaced, inserted or removed.
    fn damage(&mut self, word: &str) -> String {
        let mut chars: Vec<char> = word.chars().collect();
        let at = self.below(chars.len() as u64 + 1) as usize;
        let c = char::from(*self.pick(FEN_CHARS));
        match self.below(3) {
            0 if at < chars.len() => chars[at] = c,
            1 if at < chars.len() => drop(chars.remove(at)),
            _ => chars.insert(at, c),
        }
        chars.into_iter().collect()
    }

    /// Random bytes, printable three times in four; a newline among them makes two lines.
    fn random_bytes(&mut self) -> Vec<u8> {
        let len = self.below(MAX_RANDOM_BYTES + 1);
        (0..len)
            .map(|_| match self.below(4) {
                0 => self.below(256) as u8,
                _ => b' ' + self.below(95) as u8,
            })
            .collect()
    }

    /// A line of [`LONG_LINES`], its length spread evenly over the orders of magnitude from
    /// [`MIN_LONG_BYTES`] to a little past the reader's limit.
    fn long_line(&mut self) -> Vec<u8> {
        let (low, high) = ((MIN_LONG_BYTES as f64).ln(), ((MAX_LINE_BYTES + LONG_OVERSHOOT_BYTES) as f64).ln());
        let fraction = (self.random.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let target = (low + (high - low) * fraction).exp() as usize;
        let &(prefix, unit) = self.pick(LONG_LINES);
        let mut line = prefix.as_bytes().to_vec();
        while line.len() < target {
            line.extend_from_slice(unit.as_bytes());
        }
        line.truncate(target);
        line
    }
}
