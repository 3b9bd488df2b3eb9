//! Polyglot opening books (`OwnBook`, `BookFile`): the file read whole into memory, the
//! position's entries found by binary search on its Polyglot key, each entry's move
//! checked against the position's legal moves, and one move chosen at random in
//! proportion to the entries' weights.
//!
//! The format: 16-byte entries, big-endian, sorted by key: key (u64), move (u16), weight
//! (u16), learn (u32, unused). A move packs the to-square (bits 0-5, file first), the
//! from-square (bits 6-11) and the promotion (bits 12-14: none, knight, bishop, rook,
//! queen); castling is the king taking its own rook (`e1h1`), in Chess960 as in standard
//! chess.

use std::fs::File;
use std::io::Read;
use std::time::{SystemTime, UNIX_EPOCH};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use crate::moves::{self, MoveCode};
use crate::random::SplitMix;

/// Bytes per book entry.
const ENTRY_BYTES: usize = 16;
/// The largest file accepted as a book: far above the largest books in use, and a guard
/// against reading some other huge file into memory by mistake.
const MAX_BOOK_BYTES: u64 = 1 << 31;
/// A Polyglot move's from- and to-squares, each six bits.
const SQUARE_MASK: u16 = 63;
/// Where a Polyglot move's promotion piece starts.
const PROMOTION_SHIFT: u16 = 12;
/// The largest promotion field (three bits); the top bit of a move is never set.
const PROMOTION_MAX: u16 = 7;
/// Polyglot's promotion codes 1-4 (knight to queen) are shakmaty's roles minus one.
const PROMOTION_TO_ROLE: u16 = 1;

/// The Polyglot key of `pos`. shakmaty's 64-bit zobrist keys are Polyglot's; Polyglot
/// counts the en passant file when a pawn of the side to move stands beside the pawn that
/// has just advanced two squares, legal capture or not: shakmaty's pseudo-legal mode.
pub fn polyglot_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0
}

/// The legal move of `pos` that a Polyglot move code stands for, if any.
pub fn decode_move(pos: &Chess, code: u16) -> Option<Move> {
    if code >> PROMOTION_SHIFT > PROMOTION_MAX {
        return None;
    }
    let to = code & SQUARE_MASK;
    let from = (code >> 6) & SQUARE_MASK;
    let role = match code >> PROMOTION_SHIFT {
        0 => 0,
        promotion @ 1..=4 => promotion + PROMOTION_TO_ROLE,
        _ => return None,
    };
    // The project's own move code orders the fields the other way round and also writes
    // castling as king-takes-rook; its decoder checks legality.
    let own: MoveCode = from | (to << 6) | (role << PROMOTION_SHIFT);
    moves::decode(pos, own)
}

/// A move chosen from the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, legal in the position.
    pub mv: Move,
    /// Its entry's weight.
    pub weight: u64,
    /// The weights of all the position's legal entries together.
    pub total: u64,
}

/// A loaded book and the random numbers its choices draw on.
pub struct Book {
    bytes: Vec<u8>,
    random: SplitMix,
}

impl Book {
    /// Reads and checks the book at `path`. The error says why it cannot be used.
    pub fn load(path: &str) -> Result<Book, String> {
        let cannot = |e: std::io::Error| format!("the opening book {path} cannot be read ({e})");
        let file = File::open(path).map_err(cannot)?;
        let metadata = file.metadata().map_err(cannot)?;
        if !metadata.is_file() {
            return Err(format!("the opening book {path} is not a file"));
        }
        if metadata.len() > MAX_BOOK_BYTES {
            return Err(format!("the opening book {path} is larger than {MAX_BOOK_BYTES} bytes"));
        }
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(metadata.len() as usize)
            .map_err(|_| format!("the opening book {path} does not fit in memory ({} bytes)", metadata.len()))?;
        // One byte more than allowed, so that a file that grew meanwhile is still caught.
        file.take(MAX_BOOK_BYTES + 1).read_to_end(&mut bytes).map_err(cannot)?;
        Book::from_bytes(bytes, clock_seeded()).map_err(|reason| format!("the opening book {path} {reason}"))
    }

    /// A book from a file's contents; the error completes "the opening book ... ".
    fn from_bytes(bytes: Vec<u8>, random: SplitMix) -> Result<Book, String> {
        if bytes.len() as u64 > MAX_BOOK_BYTES {
            return Err(format!("is larger than {MAX_BOOK_BYTES} bytes"));
        }
        if bytes.is_empty() {
            return Err("is empty".to_string());
        }
        if !bytes.len().is_multiple_of(ENTRY_BYTES) {
            return Err(format!("is not a Polyglot book (its size is not a multiple of {ENTRY_BYTES} bytes)"));
        }
        let book = Book { bytes, random };
        if !book.entries().windows(2).all(|pair| key_of(&pair[0]) <= key_of(&pair[1])) {
            return Err("is not a Polyglot book (its entries are not sorted by key)".to_string());
        }
        Ok(book)
    }

    /// The number of entries.
    pub fn entry_count(&self) -> usize {
        self.entries().len()
    }

    fn entries(&self) -> &[[u8; ENTRY_BYTES]] {
        self.bytes.as_chunks::<ENTRY_BYTES>().0
    }

    /// The legal moves the book gives for `pos`, with their weights, in the book's order;
    /// entries whose move is not legal here are left out.
    pub fn moves(&self, pos: &Chess) -> Vec<(Move, u16)> {
        let key = polyglot_key(pos);
        let entries = self.entries();
        let first = entries.partition_point(|entry| key_of(entry) < key);
        entries[first..]
            .iter()
            .take_while(|entry| key_of(entry) == key)
            .filter_map(|entry| {
                let code = u16::from_be_bytes([entry[8], entry[9]]);
                let weight = u16::from_be_bytes([entry[10], entry[11]]);
                decode_move(pos, code).map(|m| (m, weight))
            })
            .collect()
    }

    /// A move for `pos`, chosen with a probability proportional to its weight; as in
    /// Polyglot, an entry of weight 0 is never played.
    pub fn choose(&mut self, pos: &Chess) -> Option<BookMove> {
        let moves = self.moves(pos);
        let total: u64 = moves.iter().map(|&(_, weight)| u64::from(weight)).sum();
        if total == 0 {
            return None;
        }
        let mut pick = self.random.below(total);
        for (mv, weight) in moves {
            let weight = u64::from(weight);
            if pick < weight {
                return Some(BookMove { mv, weight, total });
            }
            pick -= weight;
        }
        unreachable!("the pick is below the total of the weights")
    }
}

fn key_of(entry: &[u8; ENTRY_BYTES]) -> u64 {
    u64::from_be_bytes(entry[..8].try_into().expect("an entry starts with an eight-byte key"))
}

/// A generator seeded from the clock, so that games do not all open alike.
fn clock_seeded() -> SplitMix {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_nanos());
    SplitMix::new(nanos as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Role, Square};

    fn after(moves: &str) -> Chess {
        let mut pos = Chess::default();
        for text in moves.split_whitespace() {
            let m = moves::parse_uci(&pos, text).expect("a legal test move");
            pos.play_unchecked(m);
        }
        pos
    }

    fn fen(text: &str, mode: CastlingMode) -> Chess {
        text.parse::<Fen>().unwrap().into_position(mode).unwrap()
    }

    /// A Polyglot move code, from the specification's field layout.
    fn code(from: Square, to: Square, promotion: u16) -> u16 {
        let square = |sq: Square| ((sq.rank() as u16) << 3) | sq.file() as u16;
        square(to) | (square(from) << 6) | (promotion << 12)
    }

    fn entry(key: u64, code: u16, weight: u16) -> Vec<u8> {
        [&key.to_be_bytes()[..], &code.to_be_bytes(), &weight.to_be_bytes(), &[0; 4]].concat()
    }

    fn book(mut entries: Vec<(u64, u16, u16)>, seed: u64) -> Book {
        entries.sort_by_key(|&(key, _, _)| key);
        let bytes = entries.into_iter().flat_map(|(key, code, weight)| entry(key, code, weight)).collect();
        Book::from_bytes(bytes, SplitMix::new(seed)).unwrap()
    }

    /// The test positions of the Polyglot book format's specification, with their keys.
    #[test]
    fn keys_are_polyglots() {
        for (moves, key) in [
            ("", 0x463b96181691fc9c),
            ("e2e4", 0x823c9b50fd114196),
            ("e2e4 d7d5", 0x0756b94461c50fb0),
            ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
            ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
            ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
            ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
            ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
            ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
        ] {
            assert_eq!(polyglot_key(&after(moves)), key, "after '{moves}'");
        }
    }

    /// The specification counts the en passant file whenever a pawn of the side to move
    /// stands beside the pawn that advanced: here the capture is illegal (b5xc6 would
    /// expose the king on a5 to the rook on h5), yet the key has the file.
    #[test]
    fn the_en_passant_file_counts_when_a_pawn_stands_beside() {
        let pos = fen("4k3/8/8/KPp4r/8/8/8/8 w - c6 0 2", CastlingMode::Standard);
        assert!(pos.en_passant_moves().is_empty());
        let with_file = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Always).0;
        let without = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        assert_ne!(with_file, without);
        assert_eq!(polyglot_key(&pos), with_file);
    }

    #[test]
    fn moves_are_decoded_and_checked() {
        let start = Chess::default();
        let e4 = decode_move(&start, code(Square::E2, Square::E4, 0)).unwrap();
        assert_eq!(moves::uci_text(e4, CastlingMode::Standard), "e2e4");
        assert_eq!(decode_move(&start, code(Square::E2, Square::E5, 0)), None);
        assert_eq!(decode_move(&start, code(Square::E2, Square::E4, 4)), None);
        assert_eq!(decode_move(&start, code(Square::E2, Square::E4, 0) | (1 << 15)), None);

        let castles = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard);
        let short = decode_move(&castles, code(Square::E1, Square::H1, 0)).unwrap();
        let long = decode_move(&castles, code(Square::E1, Square::A1, 0)).unwrap();
        assert_eq!(moves::uci_text(short, CastlingMode::Standard), "e1g1");
        assert_eq!(moves::uci_text(long, CastlingMode::Standard), "e1c1");
        // The king's two-square step is not how Polyglot writes castling.
        assert_eq!(decode_move(&castles, code(Square::E1, Square::G1, 0)), None);

        let chess960 = fen("1r2k1r1/8/8/8/8/8/8/R3K2R b KQkq - 0 1", CastlingMode::Chess960);
        let black = decode_move(&chess960, code(Square::E8, Square::G8, 0)).unwrap();
        assert_eq!(moves::uci_text(black, CastlingMode::Chess960), "e8g8");
        assert!(matches!(black, Move::Castle { .. }));

        let promotion = fen("8/1P2k3/8/8/8/8/8/4K3 w - - 0 1", CastlingMode::Standard);
        for (piece, role) in [(1, Role::Knight), (2, Role::Bishop), (3, Role::Rook), (4, Role::Queen)] {
            let m = decode_move(&promotion, code(Square::B7, Square::B8, piece)).unwrap();
            assert_eq!(m.promotion(), Some(role));
        }
        assert_eq!(decode_move(&promotion, code(Square::B7, Square::B8, 5)), None);
        assert_eq!(decode_move(&promotion, code(Square::B7, Square::B8, 0)), None);
    }

    #[test]
    fn choices_follow_the_weights_and_skip_illegal_and_weightless_entries() {
        let start = Chess::default();
        let key = polyglot_key(&start);
        let mut book = book(
            vec![
                (key, code(Square::E2, Square::E4, 0), 1),
                (key, code(Square::E2, Square::E5, 0), 1000),
                (key, code(Square::D2, Square::D4, 0), 3),
                (key, code(Square::G1, Square::F3, 0), 0),
                (key ^ 1, code(Square::C2, Square::C4, 0), 1000),
                (key.wrapping_add(1), code(Square::B2, Square::B4, 0), 1000),
            ],
            7,
        );
        assert_eq!(book.entry_count(), 6);
        assert_eq!(book.moves(&start).len(), 3);
        let draws: i32 = 4000;
        let mut e4 = 0;
        for _ in 0..draws {
            let choice = book.choose(&start).unwrap();
            assert_eq!(choice.total, 4);
            match moves::uci_text(choice.mv, CastlingMode::Standard).as_str() {
                "e2e4" => e4 += 1,
                "d2d4" => assert_eq!(choice.weight, 3),
                other => panic!("{other} was chosen"),
            }
        }
        // One in four, within five standard deviations (27 draws).
        assert!((e4 - draws / 4).abs() < 5 * 27, "e2e4 {e4} times in {draws}");
        assert_eq!(book.choose(&after("e2e4")), None);
    }

    #[test]
    fn a_position_whose_entries_all_weigh_nothing_has_no_book_move() {
        let start = Chess::default();
        let mut book = book(vec![(polyglot_key(&start), code(Square::E2, Square::E4, 0), 0)], 1);
        assert_eq!(book.moves(&start).len(), 1);
        assert_eq!(book.choose(&start), None);
    }

    /// Why a file was refused.
    fn refusal(result: Result<Book, String>) -> String {
        result.err().expect("the file is refused")
    }

    #[test]
    fn files_that_are_not_books_are_refused() {
        let random = || SplitMix::new(1);
        assert!(refusal(Book::from_bytes(Vec::new(), random())).contains("empty"));
        assert!(refusal(Book::from_bytes(vec![0; 17], random())).contains("multiple of 16"));
        let unsorted = [entry(2, 0, 1), entry(1, 0, 1)].concat();
        assert!(refusal(Book::from_bytes(unsorted, random())).contains("sorted"));
        let sorted = [entry(1, 0, 1), entry(1, 0, 1), entry(2, 0, 1)].concat();
        assert_eq!(Book::from_bytes(sorted, random()).map(|book| book.entry_count()), Ok(3));
        assert!(refusal(Book::load("/nonexistent/book.bin")).contains("cannot be read"));
        assert!(refusal(Book::load("/")).contains("not a file"));
    }
}
