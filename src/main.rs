//! The `harrier` binary: the UCI engine, plus `bench`, `perft` and `epd` tools.

use std::process::ExitCode;

use harrier::bench;
use harrier::engine::game::parse_fen;
use harrier::epd::{EpdLimit, run_suite};
use harrier::moves::uci_text;
use harrier::perft::divide;
use harrier::search::alphabeta::Features;
use shakmaty::{CastlingMode, Chess, Position};

const USAGE: &str = "\
usage:
  harrier                              run the UCI engine on stdin/stdout
  harrier bench [depth]                fixed-depth search of the bench positions
  harrier perft <depth> [fen]          move-generation count, per root move
  harrier epd <file> [--movetime ms | --depth d] [--hash mb]
                                       run an EPD test suite (bm/am, SAN or UCI)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => {
            harrier::uci::run();
            Ok(())
        }
        Some("bench") => bench_command(&args[1..]),
        Some("perft") => perft_command(&args[1..]),
        Some("epd") => epd_command(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some("-V" | "--version") => {
            println!("{}", harrier::engine::NAME);
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

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("{what} must be a number, not '{text}'"))
}

fn bench_command(args: &[String]) -> Result<(), String> {
    let depth = match args.first() {
        Some(d) => number::<u32>(d, "depth")?.clamp(1, harrier::search::alphabeta::MAX_DEPTH),
        None => bench::DEFAULT_DEPTH,
    };
    let result = bench::run(depth, Features::FULL, |index, nodes| {
        eprintln!("position {:>2}/{}: {nodes} nodes", index + 1, bench::POSITIONS.len());
    });
    eprintln!("depth {depth}, {:.3} s", result.elapsed.as_secs_f64());
    println!("{} nodes {} nps", result.nodes, result.nps());
    Ok(())
}

fn perft_command(args: &[String]) -> Result<(), String> {
    let depth: u32 = number(args.first().ok_or("perft needs a depth")?, "depth")?;
    let position: Chess = match args.get(1..).filter(|rest| !rest.is_empty()) {
        Some(fen) => parse_fen(&fen.join(" "), CastlingMode::Chess960, &mut Vec::new())?,
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

fn epd_command(args: &[String]) -> Result<(), String> {
    let path = args.first().ok_or("epd needs a file")?;
    let mut limit = EpdLimit::MoveTime(1000);
    let mut hash_mb = 16;
    let mut rest = args[1..].iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--movetime" => limit = EpdLimit::MoveTime(number(value, "--movetime")?),
            "--depth" => limit = EpdLimit::Depth(number(value, "--depth")?),
            "--hash" => hash_mb = number(value, "--hash")?,
            _ => return Err(format!("unknown option '{flag}'")),
        }
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    run_suite(&text, limit, hash_mb);
    Ok(())
}
