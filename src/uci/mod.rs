//! The UCI front end: reads stdin line by line, parses each line and hands the command to
//! the engine controller's thread. Only this layer touches stdin and stdout.

pub mod output;
pub mod parse;

use std::io::{BufRead, BufReader, Read};
use std::thread;

use crossbeam_channel::unbounded;

use crate::engine::{Command, Engine};
use output::Writer;

/// The longest line read whole; anything longer is cut here (no GUI sends such lines, and
/// an unbounded line must not exhaust memory).
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
        let line = String::from_utf8_lossy(&buffer);
        let command = parse::parse_line(&line);
        let quit = command == Command::Quit;
        if commands.send(command).is_err() || quit {
            break;
        }
    }
    let _ = commands.send(Command::Quit);
    let _ = controller.join();
}
