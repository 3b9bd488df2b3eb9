//! One engine and the writer it answers through: what the UCI loop hands every parsed
//! command and every search thread event to. Apart from the loop so that the fuzzer drives the
//! very same path with a writer into memory.

use std::time::Instant;

use crossbeam_channel::Receiver;

use super::output::Writer;
use super::parse::UciCommand;
use crate::engine::search_thread::Event;
use crate::engine::{AUTHOR, Engine, NAME, Output, options};

/// The engine and its writer.
pub struct Session {
    engine: Engine,
    writer: Writer,
}

impl Session {
    /// A fresh engine writing through `writer`.
    pub fn new(writer: Writer) -> Session {
        Session { engine: Engine::new(Box::new(writer.clone())), writer }
    }

    /// The engine, for reading its state.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The search thread's events; each goes to [`Session::on_event`].
    pub fn events(&self) -> Receiver<Event> {
        self.engine.events()
    }

    /// Handles one event from the search thread.
    pub fn on_event(&mut self, event: Event) {
        self.engine.on_event(event);
    }

    /// True once a line could not be written: nobody reads the engine any more.
    pub fn output_closed(&self) -> bool {
        self.writer.is_closed()
    }

    /// Carries out one command; `arrived` is when its line was read. False for `quit`,
    /// which the caller answers with [`Session::quit`].
    pub fn handle(&mut self, command: UciCommand, arrived: Instant) -> bool {
        if command == UciCommand::Quit {
            return false;
        }
        // Idle thinking yields to every command but `isready`.
        if command != UciCommand::IsReady {
            self.engine.end_idle_thinking();
        }
        self.dispatch(command, arrived);
        true
    }

    fn dispatch(&mut self, command: UciCommand, arrived: Instant) {
        let (engine, writer) = (&mut self.engine, &self.writer);
        match command {
            UciCommand::Uci => writer.identify(NAME, AUTHOR, options::all()),
            UciCommand::Debug(on) => engine.set_debug(on),
            UciCommand::IsReady => writer.ready(),
            UciCommand::SetOption { name, value } => engine.set_option(&name, &value),
            UciCommand::Register => writer.info_string("registration is not needed"),
            UciCommand::NewGame => engine.new_game(),
            UciCommand::Position { fen, moves } => engine.set_position(fen.as_deref(), &moves),
            UciCommand::Go(go) => {
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
            UciCommand::Stop => engine.stop(),
            UciCommand::PonderHit => engine.ponderhit(),
            UciCommand::Display => writer.board(engine.position()),
            UciCommand::Eval => writer.evaluation(engine.position(), &engine.settings().search.evaluation),
            UciCommand::Empty => {}
            UciCommand::Invalid(reason) => writer.info_string(&format!("{reason}; ignored")),
            UciCommand::Quit => unreachable!("handle answers quit itself"),
        }
    }

    /// `quit`, or the end of input: ends the work under way, still sending a running
    /// search's `bestmove`.
    pub fn quit(self) {
        self.engine.quit();
    }

    /// The GUI has gone: ends the work under way without a word.
    pub fn abandon(self) {
        self.engine.abandon();
    }
}
