//! The UCI front end: text in, text out. A reader thread parses stdin line by line; this
//! thread hands each command, and the search thread's events, to the [`Session`] (the
//! engine and its writer). Only this layer touches stdin and stdout.

pub mod fuzz;
pub mod output;
pub mod parse;
pub mod session;

use std::io::{BufRead, BufReader, Read};
use std::thread;
use std::time::Instant;

use crossbeam_channel::{Sender, select, unbounded};

use output::Writer;
use parse::UciCommand;
use session::Session;

/// The longest line read whole; a longer one is ignored whole, with an `info string` (no
/// GUI sends such lines, and an unbounded line must not exhaust memory).
pub const MAX_LINE_BYTES: u64 = 1 << 20;

/// Runs the engine on stdin/stdout until `quit`, the end of input, or a closed stdout.
pub fn run() {
    let mut session = Session::new(Writer::stdout());
    let events = session.events();
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
                if !session.handle(command, arrived) {
                    break;
                }
            }
            recv(events) -> event => {
                if let Ok(event) = event {
                    session.on_event(event);
                }
            }
        }
        if session.output_closed() {
            session.abandon();
            return;
        }
    }
    session.quit();
}

/// Reads stdin until its end, sending each parsed line with the time it was read; the end
/// of input closes the channel, which acts as `quit`.
fn read_commands(commands: &Sender<(Instant, UciCommand)>) {
    let stdin = std::io::stdin();
    let mut reader = BufReader::new(stdin.lock());
    let mut buffer = Vec::new();
    while let Some((arrived, command)) = read_command(&mut reader, &mut buffer) {
        let quit = command == UciCommand::Quit;
        if commands.send((arrived, command)).is_err() || quit {
            return;
        }
    }
}

/// Reads and parses the next line of `reader` (`buffer` is scratch space): when it was
/// read, and the command; `None` at the end of input or on a read error. A line longer
/// than [`MAX_LINE_BYTES`] is read to its end and becomes an invalid command, so that its
/// tail is not read as a command.
pub fn read_command(reader: &mut impl BufRead, buffer: &mut Vec<u8>) -> Option<(Instant, UciCommand)> {
    buffer.clear();
    match Read::by_ref(reader).take(MAX_LINE_BYTES).read_until(b'\n', buffer) {
        Ok(0) | Err(_) => return None,
        Ok(_) => {}
    }
    let arrived = Instant::now();
    if buffer.len() as u64 == MAX_LINE_BYTES && buffer.last() != Some(&b'\n') {
        skip_rest_of_line(reader).ok()?;
        let reason = format!("input line longer than {MAX_LINE_BYTES} bytes");
        return Some((arrived, UciCommand::Invalid(reason)));
    }
    Some((arrived, parse::parse_line(&String::from_utf8_lossy(buffer))))
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn an_overlong_line_is_one_invalid_command_and_its_tail_no_command() {
        let mut input = vec![b'x'; MAX_LINE_BYTES as usize + 10];
        input.extend_from_slice(b" quit\nisready\r\n");
        let mut reader = Cursor::new(input);
        let mut buffer = Vec::new();
        let (_, first) = read_command(&mut reader, &mut buffer).expect("a command");
        assert!(matches!(first, UciCommand::Invalid(reason) if reason.contains("longer than")));
        assert_eq!(read_command(&mut reader, &mut buffer).map(|(_, c)| c), Some(UciCommand::IsReady));
        assert!(read_command(&mut reader, &mut buffer).is_none());
    }
}
