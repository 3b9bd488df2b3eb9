//! Files for the fuzzer's path options (`BookFile`, `EvalFile`, `SyzygyPath`): a scratch
//! directory holding a valid book and network and damaged ones, so that the loaders see
//! good and bad contents as well as missing paths. Removed when dropped.

use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use shakmaty::{Chess, Position, Square};

use crate::engine::book::polyglot_key;
use crate::eval::nnue;
use crate::moves::parse_uci;
use crate::random::SplitMix;

/// Bytes of the damaged files filled with random bytes.
const GARBAGE_BYTES: usize = 100;

/// The scratch directory and the paths each path option is offered.
pub struct Fixtures {
    pub(super) dir: PathBuf,
    /// Values for `BookFile`.
    pub books: Vec<String>,
    /// Values for `EvalFile`.
    pub networks: Vec<String>,
    /// Values for `SyzygyPath`.
    pub tablebases: Vec<String>,
}

impl Fixtures {
    /// Writes the files into a new directory under the system's temporary directory, named
    /// after the process and a count of the directories it made; random contents are drawn
    /// from `seed`.
    pub fn create(seed: u64) -> Result<Fixtures, String> {
        static MADE: AtomicU64 = AtomicU64::new(0);
        let count = MADE.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("harrier-fuzz-{}-{count}", std::process::id()));
        let fail = |e: std::io::Error| format!("cannot write the fuzzer's files in {}: {e}", dir.display());
        fs::create_dir_all(dir.join("no-tables")).map_err(fail)?;
        fs::create_dir_all(dir.join("fake-tables")).map_err(fail)?;
        let mut random = SplitMix::new(seed);
        let mut garbage = || (0..GARBAGE_BYTES).map(|_| random.next_u64() as u8).collect::<Vec<u8>>();
        let network = nnue::embedded().to_bytes();
        let files: [(&str, Vec<u8>); 7] = [
            ("book.bin", book_bytes()),
            ("garbage.bin", garbage()),
            ("empty.bin", Vec::new()),
            ("unsorted.bin", [entry(2, 0, 1), entry(1, 0, 1)].concat()),
            ("network.nnue", network.clone()),
            ("truncated.nnue", network[..network.len() / 2].to_vec()),
            // Named like a table, so the loader takes it, and unreadable as one.
            ("fake-tables/KQvK.rtbw", garbage()),
        ];
        for (name, bytes) in files {
            fs::write(dir.join(name), bytes).map_err(fail)?;
        }
        let path = |name: &str| dir.join(name).display().to_string();
        let missing = path("missing");
        Ok(Fixtures {
            books: vec![path("book.bin"), path("garbage.bin"), path("empty.bin"), path("unsorted.bin"), path("")],
            networks: vec![path("network.nnue"), path("truncated.nnue"), path("garbage.bin"), missing.clone()],
            tablebases: vec![
                path("no-tables"),
                path("fake-tables"),
                format!("{}:{}", path("fake-tables"), path("no-tables")),
                path("book.bin"),
                missing,
            ],
            dir,
        })
    }
}

impl Drop for Fixtures {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// A Polyglot entry: key, move, weight, and an unused learn field.
fn entry(key: u64, code: u16, weight: u16) -> Vec<u8> {
    [&key.to_be_bytes()[..], &code.to_be_bytes(), &weight.to_be_bytes(), &[0; 4]].concat()
}

/// A Polyglot move code: to-square, from-square (each rank * 8 + file), no promotion.
fn code(from: Square, to: Square) -> u16 {
    let square = |sq: Square| ((sq.rank() as u16) << 3) | sq.file() as u16;
    square(to) | (square(from) << 6)
}

/// A small valid book: two moves in the start position and a reply to 1. e4, so that
/// `OwnBook` games play from it.
fn book_bytes() -> Vec<u8> {
    let start = Chess::default();
    let mut after_e4 = start.clone();
    after_e4.play_unchecked(parse_uci(&start, "e2e4").expect("e2e4 is legal at the start"));
    let mut entries = vec![
        (polyglot_key(&start), code(Square::E2, Square::E4), 3),
        (polyglot_key(&start), code(Square::D2, Square::D4), 1),
        (polyglot_key(&after_e4), code(Square::E7, Square::E5), 1),
    ];
    entries.sort_by_key(|&(key, _, _)| key);
    entries.into_iter().flat_map(|(key, mv, weight)| entry(key, mv, weight)).collect()
}
