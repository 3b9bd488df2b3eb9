//! Training positions: read from `harrier datagen`'s data files into 32 bytes each, split
//! into training and validation games, and shuffled anew every epoch. A file in a folder
//! with a manifest must match its row (hash, games, positions) or the run stops.

use std::path::{Path, PathBuf};

use shakmaty::{Board, Chess, Color, Piece, Position, Role, Square};

use crate::eval::nnue::data::format::read_games;
use crate::eval::nnue::data::manifest::{self, Row, sha256_hex};
use crate::eval::nnue::data::training_positions;
use crate::eval::nnue::{EVAL_SCALE, InputBuckets, MAX_PIECES, feature_index, file::checksum};
use crate::random::{GOLDEN_GAMMA, SplitMix, mix};

/// A position with its label, packed: the occupied squares, and the piece on each of them
/// in square order, four bits a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    occupied: u64,
    pieces: [u8; MAX_PIECES / 2],
    /// The search's score in centipawns for the side to move.
    score: i16,
    /// The game's result for the side to move: 0 lost, 1 drawn, 2 won.
    result: u8,
    white_to_move: bool,
}

/// A sample's active inputs from both perspectives, the side to move's first.
pub struct Inputs {
    /// Pieces on the board (inputs per perspective).
    pub count: usize,
    /// The inputs from the side to move's perspective.
    pub ours: [u16; MAX_PIECES],
    /// The inputs from the other side's perspective.
    pub theirs: [u16; MAX_PIECES],
}

impl Sample {
    /// The sample of `pos` scored `score` (side to move's view) from a game that ended
    /// `result` (1, 0.5 or 0 for the side to move); `None` beyond [`MAX_PIECES`] pieces.
    pub fn new(pos: &Chess, score: i16, result: f32) -> Option<Sample> {
        Sample::of_board(pos.board(), pos.turn(), score, result)
    }

    /// The sample of `pos` with its files mirrored (a to h), for a position without
    /// castling rights, whose value the mirror keeps; `None` when it has castling rights
    /// or too many pieces.
    pub fn mirrored(pos: &Chess, score: i16, result: f32) -> Option<Sample> {
        if pos.castles().any() {
            return None;
        }
        let mut board = pos.board().clone();
        board.flip_horizontal();
        Sample::of_board(&board, pos.turn(), score, result)
    }

    fn of_board(board: &Board, turn: Color, score: i16, result: f32) -> Option<Sample> {
        if board.occupied().count() > MAX_PIECES {
            return None;
        }
        let mut pieces = [0u8; MAX_PIECES / 2];
        for (slot, (_, piece)) in board.iter().enumerate() {
            pieces[slot / 2] |= piece_code(piece) << (4 * (slot % 2));
        }
        Some(Sample {
            occupied: u64::from(board.occupied()),
            pieces,
            score,
            result: (result * 2.0).round().clamp(0.0, 2.0) as u8,
            white_to_move: turn == Color::White,
        })
    }

    /// The active inputs of both perspectives, each reading the rows of the input bucket
    /// its king chooses in `input_buckets`.
    pub fn inputs(&self, input_buckets: &InputBuckets) -> Inputs {
        let (us, them) = if self.white_to_move { (Color::White, Color::Black) } else { (Color::Black, Color::White) };
        // The pieces first: each perspective's view depends on where its king stands.
        let mut pieces = [(Square::A1, piece_of(0)); MAX_PIECES];
        let mut count = 0;
        let (mut our_king, mut their_king) = (None, None);
        let mut occupied = self.occupied;
        while occupied != 0 {
            let square = Square::new(occupied.trailing_zeros());
            occupied &= occupied - 1;
            let piece = piece_of((self.pieces[count / 2] >> (4 * (count % 2))) & 0xF);
            if piece.role == Role::King {
                *(if piece.color == us { &mut our_king } else { &mut their_king }) = Some(square);
            }
            pieces[count] = (square, piece);
            count += 1;
        }
        let (our_view, their_view) = (input_buckets.view_of(us, our_king), input_buckets.view_of(them, their_king));
        let mut inputs = Inputs { count, ours: [0; MAX_PIECES], theirs: [0; MAX_PIECES] };
        for (slot, &(square, piece)) in pieces[..count].iter().enumerate() {
            inputs.ours[slot] = feature_index(our_view, us, piece, square) as u16;
            inputs.theirs[slot] = feature_index(their_view, them, piece, square) as u16;
        }
        inputs
    }

    /// The training target: the score's expected result blended with the game's result,
    /// `wdl` being the result's share.
    pub fn target(&self, wdl: f32) -> f32 {
        let expected = logistic(f32::from(self.score) / EVAL_SCALE as f32);
        (1.0 - wdl) * expected + wdl * f32::from(self.result) / 2.0
    }
}

/// The logistic function: a win-rate logit to an expected result.
pub fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// 0..=11: colour (Black first), then role.
fn piece_code(piece: Piece) -> u8 {
    piece.color as u8 * 6 + piece.role as u8 - 1
}

fn piece_of(code: u8) -> Piece {
    let color = if code >= 6 { Color::White } else { Color::Black };
    let role = Role::ALL[usize::from(code % 6)];
    Piece { color, role }
}

/// The training and validation positions of a data set.
#[derive(Debug, Default)]
pub struct Dataset {
    /// Positions trained on.
    pub training: Vec<Sample>,
    /// Positions of held-out games, only measured.
    pub validation: Vec<Sample>,
    /// Data files read.
    pub files: usize,
    /// Games read.
    pub games: usize,
    /// Folders read without a manifest, whose files nothing checked.
    pub unchecked: Vec<PathBuf>,
}

/// A data file to read, with the manifest row it must match when its folder has one.
#[derive(Clone, Debug)]
pub struct DataFile {
    /// Where it is.
    pub path: PathBuf,
    /// Its row in its folder's manifest.
    pub row: Option<Row>,
}

/// The data files named by `inputs` (a file as it is, a folder's data files by name), and
/// the folders among them without a manifest. In a folder with a manifest, every data file
/// must be listed and every listed file present.
pub fn resolve_inputs(inputs: &[PathBuf]) -> Result<(Vec<DataFile>, Vec<PathBuf>), String> {
    let mut files = Vec::new();
    let mut unchecked = Vec::new();
    for input in inputs {
        let (dir, names) = if input.is_dir() {
            (input.clone(), manifest::data_files(input)?)
        } else if input.is_file() {
            let dir = input.parent().map_or(PathBuf::from("."), Path::to_path_buf);
            (dir, vec![input.file_name().map_or(String::new(), |name| name.to_string_lossy().into_owned())])
        } else {
            return Err(format!("{} is neither a file nor a folder", input.display()));
        };
        let rows = manifest::read(&dir)?;
        let has_manifest = dir.join(manifest::MANIFEST).exists();
        if !has_manifest && !unchecked.contains(&dir) {
            unchecked.push(dir.clone());
        }
        for name in &names {
            let row = rows.iter().find(|row| &row.file == name).cloned();
            if has_manifest && row.is_none() {
                return Err(format!(
                    "{}: not listed in {}",
                    dir.join(name).display(),
                    dir.join(manifest::MANIFEST).display()
                ));
            }
            files.push(DataFile { path: dir.join(name), row });
        }
        if input.is_dir()
            && let Some(missing) = rows.iter().find(|row| !names.contains(&row.file))
        {
            return Err(format!("{}: listed in the manifest but absent", dir.join(&missing.file).display()));
        }
    }
    Ok((files, unchecked))
}

/// Reads every data file of `inputs` on `threads` threads. A game goes to validation
/// with probability `validation_share`, decided by `seed`, its file's name and its place
/// in the file, so the split of a game stays the same as more data files arrive.
pub fn load(
    inputs: &[PathBuf],
    validation_share: f64,
    mirror: bool,
    seed: u64,
    threads: usize,
) -> Result<Dataset, String> {
    let (files, unchecked) = resolve_inputs(inputs)?;
    let per_thread = files.len().div_ceil(threads.max(1)).max(1);
    let parts = std::thread::scope(|scope| {
        let workers: Vec<_> = files
            .chunks(per_thread)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|file| load_file(file, validation_share, mirror, seed))
                        .collect::<Result<Vec<_>, _>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().map_err(|_| "a loading thread panicked".to_string())?)
            .collect::<Result<Vec<_>, _>>()
    })?;
    let mut data = Dataset { files: files.len(), unchecked, ..Dataset::default() };
    for part in parts.into_iter().flatten() {
        data.training.extend(part.training);
        data.validation.extend(part.validation);
        data.games += part.games;
    }
    Ok(data)
}

/// One data file's positions, checked against its manifest row if it has one.
fn load_file(file: &DataFile, validation_share: f64, mirror: bool, seed: u64) -> Result<Dataset, String> {
    let path = &file.path;
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if let Some(row) = &file.row
        && sha256_hex(&bytes) != row.sha256
    {
        return Err(format!("{}: its SHA-256 is not the manifest's", path.display()));
    }
    let games = read_games(bytes.as_slice()).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path.file_name().map_or(Vec::new(), |name| name.as_encoded_bytes().to_vec());
    let file_key = seed ^ checksum(&name);
    let mut data = Dataset { files: 1, games: games.len(), ..Dataset::default() };
    let mut kept = 0;
    for (index, game) in games.iter().enumerate() {
        let draw = mix(file_key ^ (index as u64).wrapping_mul(GOLDEN_GAMMA)) as f64 / u64::MAX as f64;
        let side = if draw < validation_share { &mut data.validation } else { &mut data.training };
        for (pos, score) in training_positions(game) {
            kept += 1;
            let result = game.result.score_for(pos.turn());
            side.extend(Sample::new(&pos, score, result));
            if mirror {
                side.extend(Sample::mirrored(&pos, score, result));
            }
        }
    }
    if let Some(row) = &file.row
        && (row.games, row.positions) != (games.len() as u64, kept)
    {
        return Err(format!(
            "{}: holds {} games and {kept} positions, the manifest says {} and {}",
            path.display(),
            games.len(),
            row.games,
            row.positions
        ));
    }
    Ok(data)
}

/// The order in which epoch `epoch` visits `count` samples: a shuffle drawn from `seed`
/// and the epoch alone, so a resumed run repeats it.
pub fn epoch_order(count: usize, seed: u64, epoch: usize) -> Vec<u32> {
    let mut rng = SplitMix::new(mix(seed ^ (epoch as u64).wrapping_mul(GOLDEN_GAMMA)));
    let mut order: Vec<u32> = (0..count as u32).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::data::format::{GameRecord, GameResult, write_header};
    use crate::moves::{encode, parse_uci};
    use shakmaty::{CastlingMode, fen::Fen};

    #[test]
    fn a_mirrored_sample_is_the_sample_of_the_mirrored_position() {
        let chess = |fen: &str| -> Chess { fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap() };
        let pos = chess("2r3k1/pp3ppp/4pn2/3p4/1bPP4/2N1P3/PP3PPP/R4RK1 b - - 0 1");
        let mirror = chess("1k3r2/ppp3pp/2np4/4p3/4PPb1/3P1N2/PPP3PP/1KR4R b - - 0 1");
        let inputs = |sample: Sample| {
            let inputs = sample.inputs(&InputBuckets::NONE);
            let mut both = (inputs.ours[..inputs.count].to_vec(), inputs.theirs[..inputs.count].to_vec());
            both.0.sort_unstable();
            both.1.sort_unstable();
            both
        };
        let mirrored = Sample::mirrored(&pos, 40, 0.5).unwrap();
        assert_eq!(inputs(mirrored), inputs(Sample::new(&mirror, 40, 0.5).unwrap()));
        assert_eq!((mirrored.score, mirrored.result), (40, 1));
        assert!(Sample::mirrored(&Chess::default(), 0, 0.5).is_none(), "castling rights are not symmetric");
    }

    #[test]
    fn a_sample_gives_the_inputs_of_its_position() {
        // Black's king on e8 mirrors Black's board in a mirrored layout; White's on g3 too.
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2QKp/PPPBBPPP/R6R b kq - 0 1";
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        let sample = Sample::new(&pos, -35, 1.0).unwrap();
        for layout in crate::eval::nnue::testing::INPUT_BUCKET_LAYOUTS {
            let input_buckets = InputBuckets::parse(layout).unwrap();
            let inputs = sample.inputs(&input_buckets);
            for (perspective, got) in [(Color::Black, &inputs.ours), (Color::White, &inputs.theirs)] {
                let view = input_buckets.view(perspective, pos.board().king_of(perspective).unwrap());
                let mut got: Vec<u16> = got[..inputs.count].to_vec();
                let mut expected: Vec<u16> =
                    pos.board().iter().map(|(sq, piece)| feature_index(view, perspective, piece, sq) as u16).collect();
                got.sort_unstable();
                expected.sort_unstable();
                assert_eq!(got, expected, "{layout} {perspective:?}");
            }
        }
        assert_eq!(sample.target(1.0), 1.0);
        assert!((sample.target(0.0) - logistic(-35.0 / 400.0)).abs() < 1e-6);
        assert!(std::mem::size_of::<Sample>() <= 32);
    }

    /// Writes a data file of `count` copies of a short game that White wins.
    fn write_data_file(path: &Path, count: usize) {
        let mut pos = Chess::default();
        let mut plies = Vec::new();
        for (text, score) in [("e2e4", 30), ("e7e5", -25), ("g1f3", 28), ("b8c6", -20)] {
            let m = parse_uci(&pos, text).unwrap();
            plies.push((encode(m), score));
            pos.play_unchecked(m);
        }
        let game = GameRecord { start: Chess::default(), plies, result: GameResult::WhiteWin };
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        (0..count).for_each(|_| game.write_to(&mut bytes).unwrap());
        std::fs::write(path, bytes).unwrap();
    }

    #[test]
    fn folders_are_read_and_games_held_out_whole() {
        let dir = std::env::temp_dir().join(format!("harrier-train-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        write_data_file(&dir.join("games-s1-000000.bin"), 200);
        write_data_file(&dir.join("games-s1-000001.bin"), 100);
        std::fs::write(dir.join("notes.txt"), "not a data file").unwrap();
        let data = load(std::slice::from_ref(&dir), 0.25, false, 9, 2).unwrap();
        assert_eq!((data.files, data.games, data.unchecked), (2, 300, vec![dir.clone()]));
        assert_eq!(data.training.len() + data.validation.len(), 300 * 4);
        assert_eq!(data.validation.len() % 4, 0, "a game's positions stay together");
        let held_out = data.validation.len() / 4;
        assert!((40..110).contains(&held_out), "{held_out} of 300 games held out at 25 %");
        let again = load(std::slice::from_ref(&dir), 0.25, false, 9, 1).unwrap();
        assert_eq!((again.training, again.validation), (data.training, data.validation));
        let first_file = load(&[dir.join("games-s1-000000.bin")], 0.0, false, 9, 1).unwrap();
        assert_eq!(first_file.training[0].target(1.0), 1.0, "White won, and White moves first");
        std::fs::write(dir.join("games-s1-000002.bin"), b"HRRGAME1\x05abc").unwrap();
        let error = load(std::slice::from_ref(&dir), 0.25, false, 9, 2).unwrap_err();
        assert!(error.contains("games-s1-000002.bin"), "{error}");
        assert!(load(&[dir.join("missing")], 0.0, false, 1, 1).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_that_disagrees_with_its_manifest_row_is_refused_by_name() {
        use crate::eval::nnue::data::manifest::{Provenance, append, row_of};
        let dir = std::env::temp_dir().join(format!("harrier-train-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let provenance = Provenance { commit: "c".into(), net: "hce".into(), command: "test".into() };
        for name in ["a.bin", "b.bin"] {
            write_data_file(&dir.join(name), 10);
            append(&dir, &row_of(name, &std::fs::read(dir.join(name)).unwrap(), provenance.clone()).unwrap()).unwrap();
        }
        let whole = load(std::slice::from_ref(&dir), 0.0, false, 1, 2).unwrap();
        assert_eq!((whole.files, whole.games, whole.unchecked.len()), (2, 20, 0));
        let mut bytes = std::fs::read(dir.join("b.bin")).unwrap();
        let last = bytes.len() - 1;
        bytes[last] = 0; // The last game's result: Black won, not White.
        std::fs::write(dir.join("b.bin"), &bytes).unwrap();
        let error = load(std::slice::from_ref(&dir), 0.0, false, 1, 2).unwrap_err();
        assert!(error.contains("b.bin") && error.contains("SHA-256"), "{error}");
        let error = load(&[dir.join("b.bin")], 0.0, false, 1, 1).unwrap_err();
        assert!(error.contains("b.bin") && error.contains("SHA-256"), "{error}");
        std::fs::remove_file(dir.join("b.bin")).unwrap();
        let error = load(std::slice::from_ref(&dir), 0.0, false, 1, 2).unwrap_err();
        assert!(error.contains("b.bin") && error.contains("absent"), "{error}");
        write_data_file(&dir.join("c.bin"), 3);
        let error = load(&[dir.join("c.bin")], 0.0, false, 1, 1).unwrap_err();
        assert!(error.contains("c.bin") && error.contains("not listed"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_epoch_visits_every_sample_once_in_its_own_order() {
        let first = epoch_order(1000, 3, 1);
        let mut sorted = first.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..1000).collect::<Vec<u32>>());
        assert_eq!(first, epoch_order(1000, 3, 1));
        assert_ne!(first, epoch_order(1000, 3, 2));
        assert_ne!(first, epoch_order(1000, 4, 1));
    }
}
