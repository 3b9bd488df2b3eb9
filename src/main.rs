//! The `harrier` binary: the UCI engine, plus `bench`, `perft` and `epd` tools.

use std::io::Write;
use std::process::ExitCode;

use harrier::bench;
use harrier::datagen::{self, DatagenSettings, NodeLimits};
use harrier::engine::game::parse_fen;
use harrier::engine::searchers::SearchMode;
use harrier::epd::{EpdLimit, EpdSearcher, run_suite};
use harrier::eval::hce::tune::{self, TuneSettings};
use harrier::eval::nnue::train::{self, TrainSettings};
use harrier::moves::uci_text;
use harrier::perft::divide;
use harrier::search::alphabeta::presets::Selectivity;
use harrier::search::bandwidth::params::BandwidthStyle;
use shakmaty::{CastlingMode, Chess, Position};

const USAGE: &str = "\
usage:
  harrier                              run the UCI engine on stdin/stdout
  harrier bench [depth]                fixed-depth alpha-beta search of the bench positions
  harrier bench --bandwidth [nodes]    the same positions in bandwidth mode, fixed node count
  harrier bench --minimax [depth]      the same positions in minimax mode, fixed depth
                [--eval nnue|hce]      with the built-in network or the hand-crafted evaluation
                                       (default: as the engine starts)
  harrier perft <depth> [fen]          move-generation count, per root move
  harrier epd <file> [--movetime ms | --depth d | --nodes n] [--threads n] [--hash mb]
              [--mode alphabeta|bandwidth|minimax] [--style harris|hybrid] [--band cp]
              [--depth-penalty cp] [--tip-probe d] [--eval nnue|hce]
                                       run an EPD test suite (bm/am/dm, STS points)
  harrier eval [--net file] [fen]      the hand-crafted evaluation term by term, then the network's
                                       (the built-in one by default; start position by default)
  harrier datagen [--out dir] [--games n] [--threads n] [--seed n] [--soft-nodes n]
                  [--hard-nodes n] [--hash mb] [--syzygy path] [--eval nnue|hce | --net file]
                                       self-play games for training the evaluation network
  harrier tune <file> [--positions n] [--epochs n] [--rate cp] [--threads n] [--min-positions n]
               [--out file]
                                       fit the evaluation weights to labelled positions
  harrier train <data dir or file>... [--out file] [--hidden n] [--buckets n] [--epochs n]
                [--batch n] [--lr x] [--wdl x] [--threads n] [--seed n] [--validation share]
                [--mirror 0|1] [--resume file]
                                       train the evaluation network on datagen's games
  harrier fuzz [--lines n] [--seed n]  feed the engine generated UCI input in process and check
                                       every answer (exit status 1 on a finding)";

/// The exit status of a fuzz run that found a problem.
const FINDING_STATUS: u8 = 1;
/// The lines a fuzz run feeds unless told otherwise.
const DEFAULT_FUZZ_LINES: u64 = 1_000_000;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `harrier epd --help` and the like ask for the usage too, not for a file of that name.
    let asks_for_help = args.iter().any(|arg| arg == "-h" || arg == "--help");
    let result = match args.first().map(String::as_str) {
        _ if asks_for_help => {
            print_text(USAGE);
            Ok(())
        }
        None => {
            harrier::uci::run();
            Ok(())
        }
        Some("bench") => bench_command(&args[1..]),
        Some("perft") => perft_command(&args[1..]),
        Some("epd") => epd_command(&args[1..]),
        Some("eval") => eval_command(&args[1..]),
        Some("tune") => tune_command(&args[1..]),
        Some("train") => train_command(&args[1..]),
        Some("datagen") => datagen_command(&args[1..]),
        Some("data") => data_command(&args[1..]),
        Some("fuzz") => match fuzz_command(&args[1..]) {
            Ok(clean) => return if clean { ExitCode::SUCCESS } else { ExitCode::from(FINDING_STATUS) },
            Err(message) => Err(message),
        },
        Some("help") => {
            print_text(USAGE);
            Ok(())
        }
        Some("-V" | "--version") => {
            print_text(harrier::engine::NAME);
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{other}'")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("harrier: {message}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Prints `text` and a newline; a reader that has gone (`harrier --help | head -1`) is
/// no error.
fn print_text(text: &str) {
    let _ = writeln!(std::io::stdout(), "{text}");
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("{what} must be a number, not '{text}'"))
}

/// The evaluation `--eval` names: the built-in network (`nnue`) or the hand-crafted one
/// (`hce`).
fn evaluation(name: &str) -> Result<harrier::eval::Evaluation, String> {
    match name {
        "nnue" => Ok(harrier::eval::Evaluation::built_in_network()),
        "hce" => Ok(harrier::eval::Evaluation::HandCrafted),
        _ => Err(format!("--eval takes nnue or hce, not '{name}'")),
    }
}

/// A search depth from the command line, `default` when none is given.
fn depth_arg(arg: Option<&String>, default: u32) -> Result<u32, String> {
    match arg {
        Some(d) => Ok(number::<u32>(d, "depth")?.clamp(1, harrier::search::MAX_DEPTH)),
        None => Ok(default),
    }
}

fn bench_command(args: &[String]) -> Result<(), String> {
    let progress = |index: usize, nodes: u64| {
        eprintln!("position {:>2}/{}: {nodes} nodes", index + 1, bench::POSITIONS.len());
    };
    let mut evaluation_in_use = bench::default_evaluation();
    let mut rest = Vec::new();
    let mut args_left = args.iter();
    while let Some(arg) = args_left.next() {
        match arg.as_str() {
            "--eval" => evaluation_in_use = evaluation(args_left.next().ok_or("--eval needs a value")?)?,
            _ => rest.push(arg.clone()),
        }
    }
    let args = rest;
    let result = match args.first().map(String::as_str) {
        Some("--bandwidth") => {
            let nodes = match args.get(1) {
                Some(n) => number::<u64>(n, "nodes")?.max(1),
                None => bench::DEFAULT_BANDWIDTH_NODES,
            };
            let result = bench::run_bandwidth(nodes, evaluation_in_use, progress);
            eprintln!("bandwidth, {nodes} nodes per position, {:.3} s", result.elapsed.as_secs_f64());
            result
        }
        Some("--minimax") => {
            let depth = depth_arg(args.get(1), bench::DEFAULT_MINIMAX_DEPTH)?;
            let result = bench::run(depth, Selectivity::Minimax, evaluation_in_use.clone(), progress);
            eprintln!("minimax, depth {depth}, {:.3} s", result.elapsed.as_secs_f64());
            result
        }
        _ => {
            let depth = depth_arg(args.first(), bench::DEFAULT_DEPTH)?;
            let result = bench::run(depth, Selectivity::Full, evaluation_in_use.clone(), progress);
            eprintln!("depth {depth}, {:.3} s", result.elapsed.as_secs_f64());
            result
        }
    };
    println!("{} nodes {} nps", result.nodes, result.nps());
    Ok(())
}

/// A position from a FEN: standard castling where the FEN allows it, so moves print as
/// e1g1; Shredder-FEN and other Chess960 setups are read in Chess960 mode.
fn read_position(fen: &str) -> Result<Chess, String> {
    let mut repairs = Vec::new();
    match parse_fen(fen, CastlingMode::Standard, &mut repairs) {
        Ok(position) if repairs.is_empty() => Ok(position),
        _ => parse_fen(fen, CastlingMode::Chess960, &mut Vec::new()),
    }
}

fn perft_command(args: &[String]) -> Result<(), String> {
    let depth: u32 = number(args.first().ok_or("perft needs a depth")?, "depth")?;
    let position: Chess = match args.get(1..).filter(|rest| !rest.is_empty()) {
        Some(fen) => read_position(&fen.join(" "))?,
        None => Chess::default(),
    };
    let mode = position.castles().mode();
    let start = std::time::Instant::now();
    let mut total = 0;
    for (m, count) in divide(&position, depth) {
        total += count;
        println!("{}: {count}", uci_text(m, mode));
    }
    let seconds = start.elapsed().as_secs_f64();
    println!();
    println!("Nodes searched: {total}");
    eprintln!("{seconds:.3} s, {:.0} nodes/s", total as f64 / seconds.max(1e-9));
    Ok(())
}

fn eval_command(args: &[String]) -> Result<(), String> {
    use harrier::engine::options::DEFAULT_USE_NNUE;
    use harrier::eval::nnue::{self, Network};
    let (net, label, rest) = match args.first().map(String::as_str) {
        Some("--net") => {
            let path = args.get(1).ok_or("--net needs a file")?;
            (std::sync::Arc::new(Network::load(std::path::Path::new(path))?), path.as_str(), &args[2..])
        }
        // Labelled as a fresh engine's `eval` labels it, so that the two print the same.
        _ => (nnue::embedded(), if DEFAULT_USE_NNUE { "in use" } else { "built in" }, args),
    };
    let position = if rest.is_empty() { Chess::default() } else { read_position(&rest.join(" "))? };
    for line in harrier::eval::hce::trace::report(&position) {
        println!("{line}");
    }
    println!("{}", nnue::report_line(&net, &position, label));
    Ok(())
}

fn tune_command(args: &[String]) -> Result<(), String> {
    let path = args.first().ok_or("tune needs a file of labelled positions")?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut settings = TuneSettings {
        positions: usize::MAX,
        epochs: 2000,
        rate: 1.0,
        threads,
        min_positions: tune::DEFAULT_MIN_POSITIONS,
        out: "weights.rs".into(),
    };
    let mut rest = args[1..].iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--positions" => settings.positions = number(value, "--positions")?,
            "--epochs" => settings.epochs = number(value, "--epochs")?,
            "--rate" => settings.rate = number(value, "--rate")?,
            "--threads" => settings.threads = number::<usize>(value, "--threads")?.max(1),
            "--min-positions" => settings.min_positions = number(value, "--min-positions")?,
            "--out" => settings.out = value.clone(),
            _ => return Err(format!("unknown option '{flag}'")),
        }
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    tune::run(&text, &settings)
}

fn train_command(args: &[String]) -> Result<(), String> {
    let mut settings = TrainSettings::new(Vec::new());
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if !arg.starts_with("--") {
            settings.inputs.push(arg.into());
            continue;
        }
        let value = rest.next().ok_or_else(|| format!("{arg} needs a value"))?;
        let plan = &mut settings.plan;
        match arg.as_str() {
            "--out" => settings.out = value.into(),
            "--hidden" => settings.hidden = number(value, "--hidden")?,
            "--buckets" => settings.buckets = number(value, "--buckets")?,
            "--epochs" => plan.epochs = number(value, "--epochs")?,
            "--batch" => plan.batch = number(value, "--batch")?,
            "--lr" => plan.lr = number(value, "--lr")?,
            "--wdl" => plan.wdl = number(value, "--wdl")?,
            "--threads" => plan.threads = number::<usize>(value, "--threads")?.max(1),
            "--seed" => plan.seed = number(value, "--seed")?,
            "--validation" => settings.validation = number(value, "--validation")?,
            "--mirror" => settings.mirror = number::<u8>(value, "--mirror")? != 0,
            "--resume" => settings.resume = Some(value.into()),
            _ => return Err(format!("unknown option '{arg}'")),
        }
    }
    let summary = train::run(&settings, &|line| eprintln!("train: {line}"))?;
    eprintln!("train: done: {summary}");
    Ok(())
}

fn datagen_command(args: &[String]) -> Result<(), String> {
    let mut settings = DatagenSettings {
        out: "data".into(),
        games: 1000,
        games_per_file: datagen::DEFAULT_GAMES_PER_FILE,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        seed: 1,
        nodes: NodeLimits { soft: 5_000, hard: 20_000 },
        hash_mb: 16,
        syzygy: None,
        evaluation: harrier::bench::default_evaluation(),
        provenance: harrier::eval::nnue::data::manifest::Provenance {
            commit: env!("HARRIER_COMMIT").to_string(),
            net: net_id(&harrier::bench::default_evaluation(), None),
            command: std::iter::once("harrier datagen".to_string())
                .chain(args.iter().cloned())
                .collect::<Vec<_>>()
                .join(" "),
        },
    };
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--out" => settings.out = value.into(),
            "--games" => settings.games = number(value, "--games")?,
            "--games-per-file" => settings.games_per_file = number(value, "--games-per-file")?,
            "--threads" => settings.threads = number::<usize>(value, "--threads")?.max(1),
            "--seed" => settings.seed = number(value, "--seed")?,
            "--soft-nodes" => settings.nodes.soft = number::<u64>(value, "--soft-nodes")?.max(1),
            "--hard-nodes" => settings.nodes.hard = number::<u64>(value, "--hard-nodes")?.max(1),
            "--hash" => settings.hash_mb = number::<usize>(value, "--hash")?.max(1),
            "--syzygy" => settings.syzygy = Some(value.clone()),
            "--eval" => {
                settings.evaluation = evaluation(value)?;
                settings.provenance.net = net_id(&settings.evaluation, None);
            }
            "--net" => {
                settings.evaluation = harrier::eval::Evaluation::Network(std::sync::Arc::new(
                    harrier::eval::nnue::Network::load(value.as_ref())?,
                ));
                settings.provenance.net = net_id(&settings.evaluation, Some(value));
            }
            _ => return Err(format!("unknown option '{flag}'")),
        }
    }
    let start = std::time::Instant::now();
    let (made, found) = datagen::run(&settings, &|line| eprintln!("datagen: {line}"))?;
    if found.games > 0 {
        eprintln!(
            "datagen: {} games, {} positions already in {}",
            found.games,
            found.positions,
            settings.out.display()
        );
    }
    eprintln!("datagen: done: {}", datagen::progress_line(made.games, made.positions, start.elapsed()));
    for line in made.lines() {
        eprintln!("datagen: {line}");
    }
    Ok(())
}

/// `harrier data check [dir] [--sample n]`: the data files against their manifest.
fn data_command(args: &[String]) -> Result<(), String> {
    use harrier::eval::nnue::data::manifest::{self, Depth};
    if args.first().map(String::as_str) != Some("check") {
        return Err("data takes the subcommand check".to_string());
    }
    let mut dir = std::path::PathBuf::from("data");
    let mut depth = Depth::Full;
    let mut rest = args[1..].iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--sample" => depth = Depth::Sample(number(rest.next().ok_or("--sample needs a value")?, "--sample")?),
            _ => dir = arg.into(),
        }
    }
    let report = manifest::check(&dir, depth)?;
    for problem in &report.problems {
        eprintln!("data: {problem}");
    }
    println!(
        "{}: {} files, {} games, {} positions, {} bytes; {} problems",
        dir.display(),
        report.files,
        report.games,
        report.positions,
        report.bytes,
        report.problems.len()
    );
    if report.problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{} problems in {}", report.problems.len(), dir.display()))
    }
}

/// How the data manifest names an evaluation: `hce`, the built-in network's id, or a
/// network file's name without its extension.
fn net_id(evaluation: &harrier::eval::Evaluation, file: Option<&str>) -> String {
    match (evaluation.network(), file) {
        (None, _) => "hce".to_string(),
        (Some(_), None) => harrier::eval::nnue::EMBEDDED_ID.to_string(),
        (Some(_), Some(path)) => {
            std::path::Path::new(path).file_stem().map_or(path.into(), |s| s.to_string_lossy().into())
        }
    }
}

/// `harrier fuzz`: progress and the report on stderr, a finding on stdout; true when the
/// run found nothing.
fn fuzz_command(args: &[String]) -> Result<bool, String> {
    use harrier::uci::fuzz::{self, FuzzSettings};
    let mut settings = FuzzSettings { lines: DEFAULT_FUZZ_LINES, seed: 1 };
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--lines" => settings.lines = number(value, "--lines")?,
            "--seed" => settings.seed = number(value, "--seed")?,
            _ => return Err(format!("unknown option '{flag}'")),
        }
    }
    let outcome = fuzz::run(&settings, &mut |report| eprintln!("fuzz: {report}"));
    match outcome {
        Ok(report) => {
            eprintln!("fuzz: done, seed {}: {report}", settings.seed);
            if let Some(peak) = &report.peak_resident {
                eprintln!("fuzz: the memory peak came by line {}, after:", peak.line);
                for line in &peak.recent {
                    eprintln!("  {line}");
                }
            }
            Ok(true)
        }
        Err(finding) => {
            print_text(&format!("fuzz: finding: {finding}"));
            Ok(false)
        }
    }
}

fn epd_command(args: &[String]) -> Result<(), String> {
    let path = args.first().ok_or("epd needs a file")?;
    let mut limit = EpdLimit::MoveTime(1000);
    let mut setup = EpdSearcher {
        mode: SearchMode::AlphaBeta,
        hash_mb: 16,
        bandwidth: Default::default(),
        threads: 1,
        evaluation: harrier::bench::default_evaluation(),
    };
    let mut rest = args[1..].iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--movetime" => limit = EpdLimit::MoveTime(number(value, "--movetime")?),
            "--depth" => limit = EpdLimit::Depth(number(value, "--depth")?),
            "--nodes" => limit = EpdLimit::Nodes(number(value, "--nodes")?),
            "--hash" => setup.hash_mb = number(value, "--hash")?,
            "--threads" => setup.threads = number::<usize>(value, "--threads")?.max(1),
            "--mode" => setup.mode = SearchMode::from_name(value).ok_or_else(|| format!("unknown mode '{value}'"))?,
            "--style" => {
                setup.bandwidth.style =
                    BandwidthStyle::from_name(value).ok_or_else(|| format!("unknown bandwidth style '{value}'"))?
            }
            "--band" => setup.bandwidth.band = number(value, "--band")?,
            "--depth-penalty" => setup.bandwidth.depth_penalty = number(value, "--depth-penalty")?,
            "--tip-probe" => setup.bandwidth.tip_probe_depth = number(value, "--tip-probe")?,
            "--eval" => setup.evaluation = evaluation(value)?,
            _ => return Err(format!("unknown option '{flag}'")),
        }
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    run_suite(&text, limit, setup)?;
    Ok(())
}
