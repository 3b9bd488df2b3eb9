//! Input buckets: which set of feature-transformer rows a perspective reads, chosen by
//! where that perspective's own king stands, and whether the board is mirrored (files a
//! to h) for it when its king stands on the e to h files.
//!
//! A network without them (one bucket, no mirroring: every network before them) reads the
//! same 768 rows whatever the kings do. With them, a king move that changes its side's
//! bucket or mirroring changes every input of that side's perspective, and its
//! accumulator half is rebuilt instead of updated.

use shakmaty::{Color, Square};

use super::INPUTS;

/// The most input buckets a network may have.
pub const MAX_INPUT_BUCKETS: usize = 32;
/// Bytes of input buckets as network files and checkpoints store them
/// ([`InputBuckets::to_bytes`]).
pub const INPUT_BUCKET_BYTES: usize = 72;

/// The mirror of a square as a perspective sees it (a1 its own corner): files a to h.
const MIRROR_FILES: u8 = 7;
/// The turn of a square for Black's perspective: ranks 1 to 8.
const FLIP_RANKS: u8 = 56;

/// A network's input buckets: a bucket for every square its king may stand on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InputBuckets {
    /// The bucket of each square of the perspective's own king, as the perspective sees
    /// it (a1 its own corner) after any mirroring; with mirroring, the e to h files repeat
    /// the a to d files.
    map: [u8; 64],
    /// Buckets, each used somewhere in `map`.
    count: u8,
    /// Whether a perspective whose king stands on the e to h files sees the board mirrored.
    mirrored: bool,
}

/// How a perspective reads the board: the first row of its bucket and the squares'
/// turn (ranks for Black, files when mirrored).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputView {
    /// The first input of the bucket (u32: two views copy as one word with every move).
    offset: u32,
    /// XORed into a square to get the square as the perspective sees it.
    flip: u8,
}

impl InputView {
    /// The view of a network without input buckets: every perspective reads rows 0 to 767,
    /// Black's upside down.
    pub const fn plain(perspective: Color) -> InputView {
        InputView { offset: 0, flip: flip_ranks(perspective) }
    }

    /// The input of a piece code (0 to 11: the perspective's own pieces first, then by
    /// role, pawn first) on `square`.
    #[inline(always)]
    pub fn input(self, code: usize, square: Square) -> usize {
        self.offset as usize + code * 64 + usize::from(square as u8 ^ self.flip)
    }
}

const fn flip_ranks(perspective: Color) -> u8 {
    match perspective {
        Color::White => 0,
        Color::Black => FLIP_RANKS,
    }
}

impl InputBuckets {
    /// One bucket without mirroring: the inputs of every network before input buckets.
    pub const NONE: InputBuckets = InputBuckets { map: [0; 64], count: 1, mirrored: false };

    /// The buckets of `map` (by king square as the perspective sees it, a1 first), with
    /// mirroring when `mirrored` (then only the a to d files of `map` count). An error
    /// unless the buckets used are 0 to n−1 for some n up to [`MAX_INPUT_BUCKETS`].
    pub fn new(map: [u8; 64], mirrored: bool) -> Result<InputBuckets, String> {
        let mut map = map;
        if mirrored {
            for square in 0..64 {
                if square & 7 >= 4 {
                    map[square] = map[square ^ usize::from(MIRROR_FILES)];
                }
            }
        }
        let count = usize::from(map.iter().copied().max().unwrap_or(0)) + 1;
        if count > MAX_INPUT_BUCKETS {
            return Err(format!("{count} input buckets (1 to {MAX_INPUT_BUCKETS} allowed)"));
        }
        if let Some(unused) = (0..count).find(|&bucket| !map.contains(&(bucket as u8))) {
            return Err(format!("input bucket {unused} is given no square (buckets must be numbered 0 to n−1)"));
        }
        Ok(InputBuckets { map, count: count as u8, mirrored })
    }

    /// Reads a layout as `harrier train --input-buckets` takes it: `none`; `mirror` (one
    /// bucket, mirrored); 32 bucket numbers for the king's squares on the a to d files,
    /// rank 1 first (a1 b1 c1 d1 a2 ...), mirrored; or 64 numbers for every square, a1
    /// first, not mirrored. Numbers are separated by commas, spaces or slashes.
    pub fn parse(text: &str) -> Result<InputBuckets, String> {
        match text.trim() {
            "none" => return Ok(InputBuckets::NONE),
            "mirror" => return InputBuckets::new([0; 64], true),
            _ => {}
        }
        let numbers = text
            .split(|c: char| c == ',' || c == '/' || c.is_whitespace())
            .filter(|word| !word.is_empty())
            .map(|word| word.parse::<u8>().map_err(|_| format!("input buckets: `{word}` is not a bucket number")))
            .collect::<Result<Vec<u8>, String>>()?;
        let mut map = [0u8; 64];
        match numbers.len() {
            32 => {
                for (index, &bucket) in numbers.iter().enumerate() {
                    map[index / 4 * 8 + index % 4] = bucket;
                }
                InputBuckets::new(map, true)
            }
            64 => {
                map.copy_from_slice(&numbers);
                InputBuckets::new(map, false)
            }
            other => Err(format!(
                "input buckets: `none`, `mirror`, 32 numbers (files a to d, mirrored) or 64 (every square), not \
                 {other} numbers"
            )),
        }
    }

    /// The layout as network files and checkpoints store it, little-endian: the number
    /// of buckets (u32), whether they mirror (u32, 0 or 1), and the bucket of each king
    /// square (64 bytes, a1 first, as the perspective sees the board).
    pub fn to_bytes(&self) -> [u8; INPUT_BUCKET_BYTES] {
        let mut bytes = [0; INPUT_BUCKET_BYTES];
        bytes[..4].copy_from_slice(&u32::from(self.count).to_le_bytes());
        bytes[4..8].copy_from_slice(&u32::from(self.mirrored).to_le_bytes());
        bytes[8..].copy_from_slice(&self.map);
        bytes
    }

    /// Reads [`InputBuckets::to_bytes`]; fields that contradict each other (a count or
    /// mirrored half that the squares do not give, a mirroring other than 0 or 1) are an
    /// error.
    pub fn from_bytes(bytes: &[u8; INPUT_BUCKET_BYTES]) -> Result<InputBuckets, String> {
        let word = |offset: usize| {
            u32::from_le_bytes([bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]])
        };
        let (count, mirrored) = (word(0), word(4));
        let mirrored = match mirrored {
            0 => false,
            1 => true,
            other => return Err(format!("the input buckets' mirroring is {other}, not 0 or 1")),
        };
        let mut map = [0u8; 64];
        map.copy_from_slice(&bytes[8..]);
        let input_buckets = InputBuckets::new(map, mirrored)?;
        if input_buckets.count() != count as usize || input_buckets.map() != &map {
            return Err(format!("the header declares {count} input buckets and its squares give another layout"));
        }
        Ok(input_buckets)
    }

    /// The layout as [`InputBuckets::parse`] reads it back.
    pub fn spec(&self) -> String {
        if self.is_none() {
            return "none".to_string();
        }
        if self.mirrored && self.count == 1 {
            return "mirror".to_string();
        }
        let squares: Vec<usize> =
            if self.mirrored { (0..32).map(|index| index / 4 * 8 + index % 4).collect() } else { (0..64).collect() };
        let width = if self.mirrored { 4 } else { 8 };
        let ranks: Vec<String> = squares
            .chunks(width)
            .map(|rank| rank.iter().map(|&square| self.map[square].to_string()).collect::<Vec<_>>().join(","))
            .collect();
        ranks.join("/")
    }

    /// Buckets.
    pub fn count(&self) -> usize {
        usize::from(self.count)
    }

    /// Whether a king on the e to h files mirrors its perspective's board.
    pub fn mirrored(&self) -> bool {
        self.mirrored
    }

    /// The bucket of each king square as the perspective sees it, a1 first.
    pub fn map(&self) -> &[u8; 64] {
        &self.map
    }

    /// Whether these are the inputs of a network without input buckets (one bucket, whose
    /// map is then all zeros, and no mirroring).
    #[inline]
    pub fn is_none(&self) -> bool {
        self.count == 1 && !self.mirrored
    }

    /// The feature-transformer rows: 768 per bucket.
    pub fn inputs(&self) -> usize {
        self.count() * INPUTS
    }

    /// How `perspective` reads the board while its king stands on `king`.
    #[inline]
    pub fn view(&self, perspective: Color, king: Square) -> InputView {
        let mut flip = flip_ranks(perspective);
        if self.mirrored && (king as u8 ^ flip) & 7 >= 4 {
            flip ^= MIRROR_FILES;
        }
        let bucket = usize::from(self.map[usize::from(king as u8 ^ flip)]);
        InputView { offset: (bucket * INPUTS) as u32, flip }
    }

    /// [`InputBuckets::view`] for a board that may lack the king (an empty board): the
    /// plain view then.
    #[inline]
    pub fn view_of(&self, perspective: Color, king: Option<Square>) -> InputView {
        king.map_or(InputView::plain(perspective), |king| self.view(perspective, king))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_buckets_every_king_square_gives_the_plain_view() {
        for perspective in Color::ALL {
            for king in Square::ALL {
                assert_eq!(InputBuckets::NONE.view(perspective, king), InputView::plain(perspective));
            }
        }
    }

    #[test]
    fn a_mirrored_layout_reads_a_king_on_the_right_as_its_mirror_on_the_left() {
        let layout = InputBuckets::parse("0,0,1,1/2,2,2,2/3,3,3,3/3,3,3,3/3,3,3,3/3,3,3,3/3,3,3,3/3,3,3,3").unwrap();
        assert_eq!((layout.count(), layout.inputs(), layout.mirrored()), (4, 4 * INPUTS, true));
        // White's king on g1 reads as b1 (bucket 0), the board mirrored: a piece on h2 as on a2.
        let view = layout.view(Color::White, Square::G1);
        assert_eq!(view, InputView { offset: 0, flip: 7 });
        assert_eq!(view.input(0, Square::H2), Square::A2 as usize);
        // Black's king on c8 is on its own first rank, file c: bucket 1, not mirrored.
        assert_eq!(layout.view(Color::Black, Square::C8), InputView { offset: INPUTS as u32, flip: 56 });
        // Black's king on f7: its second rank, file f, mirrored to c: bucket 2.
        let view = layout.view(Color::Black, Square::F7);
        assert_eq!(view, InputView { offset: 2 * INPUTS as u32, flip: 56 ^ 7 });
        assert_eq!(view.input(1, Square::H8), INPUTS * 2 + 64 + Square::A1 as usize);
        assert_eq!(InputBuckets::parse(&layout.spec()), Ok(layout));
    }

    #[test]
    fn every_written_layout_reads_back() {
        let full: Vec<String> = (0..64).map(|square| (square / 16).to_string()).collect();
        for text in ["none", "mirror", &full.join(" ")] {
            let layout = InputBuckets::parse(text).unwrap();
            assert_eq!(InputBuckets::parse(&layout.spec()), Ok(layout), "{text}");
        }
        assert!(!InputBuckets::parse(&full.join(",")).unwrap().mirrored());
    }

    #[test]
    fn a_bad_layout_is_refused_with_its_reason() {
        let cases = [("1", "not 1 numbers"), ("0,0,x,1", "`x` is not a bucket number"), ("0,0,0", "not 3 numbers")];
        for (text, reason) in cases {
            assert!(InputBuckets::parse(text).unwrap_err().contains(reason), "{text}");
        }
        let gap = ["0"; 32].join(",").replacen('0', "2", 1);
        assert!(InputBuckets::parse(&gap).unwrap_err().contains("bucket 1 is given no square"));
        let many: Vec<String> = (0..64).map(|square| square.to_string()).collect();
        assert!(InputBuckets::parse(&many.join(",")).unwrap_err().contains("64 input buckets"));
    }
}
