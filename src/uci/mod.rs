//! The UCI front end: text in, text out. A reader thread parses stdin line by line; this
//! thread hands each command to the engine and the search worker's events back to it.
//! Only this layer touches stdin and stdout.

pub mod output;
pub mod parse;

use std::io::{BufRead, BufReader, Read};
use std::thread;
use std::time::Instant;

use crossbeam_channel::{Sender, select, unbounded};

use crate::engine::{AUTHOR, Engine, NAME, Output, options};
use output::Writer;
use parse::Command;

/// The longest line read whole; a longer one is ignored whole, with an `info string` (no
/// GUI sends such lines, and an unbounded line must not exhaust memory).
const MAX_LINE_BYTES: u64 = 1 << 20;

/// Runs the engine on stdin/stdout until `quit`, the end of input, or a closed stdout.
pub fn run() {
    let writer = Writer::stdout();
    let mut engine = Engine::new(Box::new(writer.clone()));
    let events = engine.events();
    let (commands, inbox) = unbounded();
    // Blocked in a read when the engine quits: the process ends it.
    thread::Builder::new()
        .name("stdin".to_string())
        .spawn(move || read_commands(&commands))
        .expect("the reader starts");

    loop {
        select! {
            recv(inbox) -> received => {
                let Ok((arrived, command)) = received else { break };
                if command == Command::Quit {
                    break;
                }
                // Idle thinking yields to every command but `isready`.
                if command != Command::IsReady {
                    engine.end_idle_thinking();
                }
                dispatch(&mut engine, &writer, command, arrived);
            }
            recv(events) -> event => {
                if let Ok(event) = event {
                    engine.on_event(event);
                }
            }
        }
        if writer.is_closed() {
            engine.abandon();
            return;
        }
    }
    engine.quit();
}

/// Carries out one command; `arrived` is when its line was read.
fn dispatch(engine: &mut Engine, writer: &Writer, command: Command, arrived: Instant) {
    match command {
        Command::Uci => writer.identify(NAME, AUTHOR, options::OPTIONS),
        Command::Debug(on) => engine.set_debug(on),
        Command::IsReady => writer.ready(),
        Command::SetOption { name, value } => engine.set_option(&name, &value),
        Command::Register => writer.info_string("registration is not needed"),
        Command::NewGame => engine.new_game(),
        Command::Position { fen, moves } => engine.set_position(fen.as_deref(), &moves),
        Command::Go(go) => {
            if engine.is_busy() {
                writer.info_string("go ignored: a search is already running");
                return;
            }
            for warning in &go.warnings {
                writer.info_string(warning);
            }
            match go.perft {
                Some(depth) => engine.perft(depth),
                None => engine.go(go.limits, &go.searchmoves, arrived),
            }
        }
        Command::Stop => engine.stop(),
        Command::PonderHit => engine.ponderhit(),
        Command::Display => writer.board(engine.position()),
        Command::Eval => writer.evaluation(engine.position(), engine.settings().search.network.as_deref()),
        Command::Empty => {}
        Command::Invalid(reason) => writer.info_string(&format!("{reason}; ignored")),
        Command::Quit => unreachable!("quit ends the loop"),
    }
}

/// Reads stdin until its end, sending each parsed line with the time it was read; the end
/// of input closes the channel, which acts as `quit`.
fn read_commands(commands: &Sender<(Instant, Command)>) {
    let stdin = std::io::stdin();
    let mut reader = BufReader::new(stdin.lock());
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match Read::by_ref(&mut reader).take(MAX_LINE_BYTES).read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let arrived = Instant::now();
        // A line cut at the limit: drop the rest of it, so its tail is not read as a command.
        let command = if buffer.len() as u64 == MAX_LINE_BYTES && buffer.last() != Some(&b'\n') {
            if skip_rest_of_line(&mut reader).is_err() {
                return;
            }
            Command::Invalid(format!("input line longer than {MAX_LINE_BYTES} bytes"))
        } else {
            parse::parse_line(&String::from_utf8_lossy(&buffer))
        };
        let quit = command == Command::Quit;
        if commands.send((arrived, command)).is_err() || quit {
            return;
        }
    }
}

/// Reads and discards input up to and including the next newline (or the end of input).
fn skip_rest_of_line(reader: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(());
        }
        match available.iter().position(|&b| b == b'\n') {
            Some(end) => {
                reader.consume(end + 1);
                return Ok(());
            }
            None => {
                let length = available.len();
                reader.consume(length);
            }
        }
    }
}
