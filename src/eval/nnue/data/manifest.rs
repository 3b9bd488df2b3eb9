//! `manifest.tsv`: one row per finished data file, written after the file is whole, with
//! what it holds and what made it; and the check of a folder's files against it.
//!
//! Columns, tab-separated, with a header line: `file` (the name in the folder), `games`,
//! `positions` (kept for training, [`super::is_training_position`]), `sha256` (of the whole
//! file), `commit` (the build that played the games), `net` (the evaluation it played
//! with: a network id or `hce`) and `command` (the `harrier datagen` command line).

use std::fs;
use std::io::Write;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::format::read_games;
use super::training_positions;

/// The manifest's file name inside a data folder.
pub const MANIFEST: &str = "manifest.tsv";
/// The extension of data files.
pub const DATA_EXTENSION: &str = "bin";
/// The manifest's first line.
const HEADER: &str = "file\tgames\tpositions\tsha256\tcommit\tnet\tcommand";

/// One data file as the manifest lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The file's name in the folder.
    pub file: String,
    /// Games in it.
    pub games: u64,
    /// Positions kept for training.
    pub positions: u64,
    /// SHA-256 of the file, in lowercase hex.
    pub sha256: String,
    /// What made it: the build's commit, the evaluation and the command.
    pub provenance: Provenance,
}

/// What made a data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provenance {
    /// The commit of the build that played the games.
    pub commit: String,
    /// The evaluation the games were played with: a network id or `hce`.
    pub net: String,
    /// The `harrier datagen` command line.
    pub command: String,
}

impl Row {
    fn line(&self) -> String {
        let Provenance { commit, net, command } = &self.provenance;
        format!("{}\t{}\t{}\t{}\t{commit}\t{net}\t{command}", self.file, self.games, self.positions, self.sha256)
    }

    fn parse(line: &str) -> Option<Row> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [file, games, positions, sha256, commit, net, command] = fields[..] else { return None };
        Some(Row {
            file: file.to_string(),
            games: games.parse().ok()?,
            positions: positions.parse().ok()?,
            sha256: sha256.to_string(),
            provenance: Provenance { commit: commit.to_string(), net: net.to_string(), command: command.to_string() },
        })
    }
}

/// SHA-256 of `bytes` in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|byte| format!("{byte:02x}")).collect()
}

/// What a data file's contents hold: games and kept positions. A damaged file is an
/// error that says where.
pub fn describe(bytes: &[u8]) -> Result<(u64, u64), String> {
    let games = read_games(bytes).map_err(|e| e.to_string())?;
    for (index, game) in games.iter().enumerate() {
        if game.positions().count() != game.plies.len() {
            return Err(format!("game {} holds a move that is not legal where it stands", index + 1));
        }
    }
    let positions = games.iter().map(|game| training_positions(game).count() as u64).sum();
    Ok((games.len() as u64, positions))
}

/// The row of the file `name` whose contents are `bytes`.
pub fn row_of(name: &str, bytes: &[u8], provenance: Provenance) -> Result<Row, String> {
    let (games, positions) = describe(bytes).map_err(|e| format!("{name}: {e}"))?;
    Ok(Row { file: name.to_string(), games, positions, sha256: sha256_hex(bytes), provenance })
}

/// The rows of `dir`'s manifest; none when it has no manifest. A malformed line is an
/// error naming it.
pub fn read(dir: &Path) -> Result<Vec<Row>, String> {
    let path = dir.join(MANIFEST);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let mut lines = text.lines().enumerate();
    if lines.next().map(|(_, line)| line) != Some(HEADER) {
        return Err(format!("{}: the first line is not the header '{HEADER}'", path.display()));
    }
    lines
        .filter(|(_, line)| !line.is_empty())
        .map(|(number, line)| {
            Row::parse(line).ok_or_else(|| format!("{} line {}: not a manifest row", path.display(), number + 1))
        })
        .collect()
}

/// Appends `row` to `dir`'s manifest (made with its header if absent) and flushes it to
/// the disk: a row is written only for a file already whole under its final name.
pub fn append(dir: &Path, row: &Row) -> Result<(), String> {
    let path = dir.join(MANIFEST);
    let fresh = !path.exists();
    let append = || -> std::io::Result<()> {
        let mut file = fs::OpenOptions::new().create(true).append(true).open(&path)?;
        let header = if fresh { format!("{HEADER}\n") } else { String::new() };
        file.write_all(format!("{header}{}\n", row.line()).as_bytes())?;
        file.sync_all()
    };
    append().map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// How deeply [`check`] looks at each file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// Every file's hash and its games replayed and counted.
    Full,
    /// Every file's size and the header, and the hash of every `n`-th file.
    Sample(usize),
}

/// The outcome of [`check`]: the listed totals and every disagreement found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Files the manifest lists.
    pub files: u64,
    /// Games it lists.
    pub games: u64,
    /// Kept positions it lists.
    pub positions: u64,
    /// Bytes of the listed files.
    pub bytes: u64,
    /// Each problem, naming its file.
    pub problems: Vec<String>,
}

/// Checks `dir`'s data files against its manifest: every listed file is there with its
/// hash and counts, no file is listed twice, and no data file lies there unlisted.
pub fn check(dir: &Path, depth: Depth) -> Result<CheckReport, String> {
    let rows = read(dir)?;
    let mut report = CheckReport::default();
    let mut seen = std::collections::HashSet::new();
    for (index, row) in rows.iter().enumerate() {
        report.files += 1;
        report.games += row.games;
        report.positions += row.positions;
        if !seen.insert(row.file.as_str()) {
            report.problems.push(format!("{}: listed twice", row.file));
            continue;
        }
        let bytes = match fs::read(dir.join(&row.file)) {
            Ok(bytes) => bytes,
            Err(e) => {
                report.problems.push(format!("{}: listed but cannot be read: {e}", row.file));
                continue;
            }
        };
        report.bytes += bytes.len() as u64;
        let hashed = match depth {
            Depth::Full => true,
            Depth::Sample(every) => index % every.max(1) == 0,
        };
        if hashed && sha256_hex(&bytes) != row.sha256 {
            report.problems.push(format!("{}: its SHA-256 is not the manifest's", row.file));
            continue;
        }
        if depth == Depth::Full {
            match describe(&bytes) {
                Ok(counts) if counts == (row.games, row.positions) => {}
                Ok((games, positions)) => report.problems.push(format!(
                    "{}: holds {games} games and {positions} positions, the manifest says {} and {}",
                    row.file, row.games, row.positions
                )),
                Err(e) => report.problems.push(format!("{}: {e}", row.file)),
            }
        } else if let Err(e) = super::format::read_header(&mut bytes.as_slice()) {
            report.problems.push(format!("{}: {e}", row.file));
        }
    }
    for name in data_files(dir)? {
        if !seen.contains(name.as_str()) {
            report.problems.push(format!("{name}: a data file the manifest does not list"));
        }
    }
    Ok(report)
}

/// The names of the data files in `dir`, sorted.
pub fn data_files(dir: &Path) -> Result<Vec<String>, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut names: Vec<String> = entries
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| Path::new(name).extension().is_some_and(|ext| ext == DATA_EXTENSION))
        .collect();
    names.sort();
    Ok(names)
}
