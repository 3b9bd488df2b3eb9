//! `setoption`: a value checked against the option table, then what it changes carried
//! out (the searcher rebuilt or resized, tables, a book or a network loaded). A command the engine
//! cannot carry out gets one `info string` and changes nothing.

use std::sync::Arc;

use super::Engine;
use super::book::Book;
use super::memory;
use super::options::{self, Action, OptionChange};
use super::search_thread::Change;
use super::settings::{Settings, SyzygySettings};
use crate::eval::Evaluation;
use crate::eval::nnue::{self, Network};
use crate::search::syzygy::Syzygy;

impl Engine {
    /// `setoption name <name> value <value>`.
    pub fn set_option(&mut self, name: &str, value: &str) {
        let Some(option) = options::find(name) else {
            self.out.info_string(&format!("unknown option '{name}'; ignored"));
            return;
        };
        if self.is_busy() && !option.while_searching {
            self.out.info_string(&format!("setoption {} ignored: a search is running (send stop first)", option.name));
            return;
        }
        match option.apply(&self.settings, value) {
            Err(reason) => self.out.info_string(&format!("{reason}; ignored")),
            // The searcher forgets what a new game forgets; the position stays.
            Ok(OptionChange::Press(Action::ClearHash)) => {
                self.run_change(Change::NewGame);
            }
            Ok(OptionChange::Set(settings)) => {
                self.adopt(*settings);
                if self.debug {
                    self.out.info_string(&format!("option {} set to {}", option.name, value.trim()));
                }
            }
        }
    }

    /// Runs a change on the search thread and says what it reports.
    pub(super) fn run_change(&mut self, change: Change) -> bool {
        match self.search_thread.configure(change) {
            Ok(notes) => {
                notes.iter().for_each(|note| self.out.info_string(note));
                true
            }
            Err(reason) => {
                self.out.info_string(&reason);
                false
            }
        }
    }

    /// Runs `change` if the memory `check` allows it, else says why; whether it ran.
    fn run_checked_change(&mut self, check: Result<(), String>, change: Change) -> bool {
        if let Err(reason) = check {
            self.out.info_string(&reason);
            return false;
        }
        self.run_change(change)
    }

    /// Carries out what differs between the settings in force and `wanted`, then keeps
    /// `wanted`; a part the engine cannot carry out keeps its old value.
    fn adopt(&mut self, mut wanted: Settings) {
        let old = self.settings.clone();
        if (wanted.use_nnue, &wanted.eval_file) != (old.use_nnue, &old.eval_file) {
            match evaluation_of(&wanted) {
                Ok(evaluation) => {
                    self.out.info_string(&evaluation_in_use(&wanted));
                    wanted.search.evaluation = evaluation;
                }
                Err(reason) => {
                    self.out.info_string(&format!("{reason}; keeping the previous evaluation"));
                    (wanted.use_nnue, wanted.eval_file) = (old.use_nnue, old.eval_file.clone());
                }
            }
        }
        wanted.search.level = wanted.playing_level();
        if wanted.hash_mb != old.hash_mb {
            let check = memory::check_hash(wanted.hash_mb, old.hash_mb, memory::available_mb());
            let resized = self.run_checked_change(check, Change::Resize(wanted.hash_mb));
            if !resized {
                self.out.info_string(&format!("keeping {} MB", old.hash_mb));
                wanted.hash_mb = old.hash_mb;
            }
        }
        if wanted.search_mode != old.search_mode {
            let replace = Change::Replace {
                mode: wanted.search_mode,
                previous: old.search_mode,
                hash_mb: wanted.hash_mb,
                search: wanted.search.clone(),
                threads: wanted.threads,
                tablebases: self.tablebases.clone(),
            };
            if !self.run_change(replace) {
                wanted.search_mode = old.search_mode;
            }
        } else if wanted.search != old.search {
            self.run_change(Change::Search(wanted.search.clone()));
        }
        // A mode that searches on one thread says so and keeps the value for the others.
        if wanted.threads != old.threads {
            let check = memory::check_threads(wanted.threads, old.threads, memory::available_mb());
            let changed = self.run_checked_change(check, Change::Threads(wanted.threads));
            if !changed {
                let kept = if old.threads == 1 {
                    "one search thread".to_string()
                } else {
                    format!("{} search threads", old.threads)
                };
                self.out.info_string(&format!("keeping {kept}"));
                wanted.threads = old.threads;
            }
        }
        if wanted.syzygy != old.syzygy && !self.load_tablebases(&wanted.syzygy, &old.syzygy) {
            wanted.syzygy = old.syzygy.clone();
        }
        if wanted.book_file != old.book_file && !self.load_book(&wanted.book_file) {
            wanted.book_file = old.book_file.clone();
        }
        // No search runs (tunables may not change during one): the next one reads these.
        #[cfg(feature = "tune")]
        if wanted.tunables != old.tunables {
            crate::search::tunables::publish(&wanted.tunables);
        }
        self.settings = wanted;
    }

    /// Loads the tables `wanted` names (again only when the path changed) and hands them
    /// to the searcher; false when they cannot be read.
    fn load_tablebases(&mut self, wanted: &SyzygySettings, old: &SyzygySettings) -> bool {
        let SyzygySettings { ref path, probe_depth, probe_limit, rule50 } = *wanted;
        let tablebases = match &self.tablebases {
            Some(loaded) if *path == old.path => Some(loaded.with_settings(probe_depth, probe_limit, rule50)),
            None if *path == old.path => return true,
            _ => match Syzygy::load(path, probe_depth, probe_limit, rule50) {
                Ok(Some(tables)) => {
                    self.out.info_string(&format!("Syzygy tablebases up to {} pieces", tables.max_pieces()));
                    Some(tables)
                }
                Ok(None) if path.is_empty() => None,
                Ok(None) => {
                    self.out.info_string(&format!("no Syzygy tables found in {path}"));
                    None
                }
                Err(reason) => {
                    self.out.info_string(&format!("{reason}; keeping the previous tablebases"));
                    return false;
                }
            },
        };
        if !self.run_change(Change::Tablebases(tablebases.clone())) {
            return false;
        }
        if self.tablebases.is_some() && tablebases.is_none() {
            self.out.info_string("no Syzygy tablebases");
        }
        self.tablebases = tablebases;
        true
    }

    /// Loads the book at `path` (none for the empty path); false when it cannot be used,
    /// which leaves the previous one in place.
    fn load_book(&mut self, path: &str) -> bool {
        if path.is_empty() {
            self.book = None;
            self.out.info_string("no opening book");
            return true;
        }
        match Book::load(path) {
            Ok(book) => {
                self.out.info_string(&format!("opening book {path}: {} entries", book.entry_count()));
                self.book = Some(book);
                true
            }
            Err(reason) => {
                let kept = if self.book.is_some() { "keeping the previous opening book" } else { "no opening book" };
                self.out.info_string(&format!("{reason}; {kept}"));
                false
            }
        }
    }
}

/// Which evaluation `settings` select, as said when it changes (Stockfish names its
/// network the same way), so a user sees that an `EvalFile` was taken.
fn evaluation_in_use(settings: &Settings) -> String {
    match (settings.use_nnue, settings.eval_file.as_str()) {
        (false, _) => "evaluation: hand-crafted".to_string(),
        (true, "") => format!("evaluation: network {} (built in)", nnue::EMBEDDED_ID),
        (true, path) => format!("evaluation: network {path}"),
    }
}

/// The evaluation `settings` ask for: with `Use NNUE`, `EvalFile`'s network (the built-in
/// one when it is empty), else the hand-crafted one; `Err` when the file cannot be used,
/// whether or not it is in use.
pub(super) fn evaluation_of(settings: &Settings) -> Result<Evaluation, String> {
    let net = match settings.eval_file.as_str() {
        "" => nnue::embedded(),
        path => Arc::new(Network::load(std::path::Path::new(path))?),
    };
    Ok(if settings.use_nnue { Evaluation::Network(net) } else { Evaluation::HandCrafted })
}
