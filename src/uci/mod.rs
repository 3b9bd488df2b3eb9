//! The UCI front end: reads stdin line by line, parses each line and hands the command to
//! the engine controller's thread. Only this layer touches stdin and stdout.

pub mod output;
pub mod parse;

use std::io::{BufRead, BufReader, Read};
use std::thread;

use crossbeam_channel::unbounded;

use crate::engine::{Command, Engine};
use output::Writer;

/// The longest line read whole; a longer one is ignored whole, with an `info string` (no
/// GUI sends such lines, and an unbounded line must not exhaust memory).
const MAX_LINE_BYTES: u64 = 1 << 20;

/// Runs the engine on stdin/stdout until `quit` or the end of input.
pub fn run() {
    let (commands, inbox) = unbounded();
    let engine = Engine::new(Writer::stdout());
    let controller = thread::Builder::new()
        .name("engine".to_string())
        .spawn(move || engine.run(inbox))
        .expect("the engine thread starts");

    let stdin = std::io::stdin();
    let mut reader = BufReader::new(stdin.lock());
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match Read::by_ref(&mut reader).take(MAX_LINE_BYTES).read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        // A line cut at the limit: drop the rest of it, so its tail is not read as a command.
        let command = if buffer.len() as u64 == MAX_LINE_BYTES && buffer.last() != Some(&b'\n') {
            if skip_rest_of_line(&mut reader).is_err() {
                break;
            }
            Command::Invalid(format!("input line longer than {MAX_LINE_BYTES} bytes"))
        } else {
            parse::parse_line(&String::from_utf8_lossy(&buffer))
        };
        let quit = command == Command::Quit;
        if commands.send(command).is_err() || quit {
            break;
        }
    }
    let _ = commands.send(Command::Quit);
    let _ = controller.join();
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
