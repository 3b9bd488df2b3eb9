//! The option table through the engine controller, in process: a `setoption` the engine
//! cannot carry out gets one `info string` and leaves every setting as it was; a valid
//! one changes its setting alone.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use harrier::engine::options::{self, OptionKind};
use harrier::engine::searchers::SearchMode;
use harrier::engine::settings::Settings;
use harrier::engine::{Engine, Output};
use harrier::search::{Limits, Report};
use shakmaty::{CastlingMode, Move};

/// The `info string` texts the engine wrote, shared with the test.
#[derive(Clone, Default)]
struct Notes(Arc<Mutex<Vec<String>>>);

impl Notes {
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

impl Output for Notes {
    fn info_string(&self, text: &str) {
        self.0.lock().unwrap().push(text.to_string());
    }
    fn report(&self, _: &Report, _: CastlingMode) {}
    fn current_move(&self, _: u32, _: Move, _: u32, _: CastlingMode) {}
    fn best_move(&self, _: Option<Move>, _: Option<Move>, _: CastlingMode) {}
    fn perft_move(&self, _: Move, _: u64, _: CastlingMode) {}
    fn perft_total(&self, _: u64) {}
}

fn engine() -> (Engine, Notes) {
    let notes = Notes::default();
    (Engine::new(Box::new(notes.clone())), notes)
}

/// Sends `setoption` and expects exactly one `info string` and no change to any setting.
fn refused(engine: &mut Engine, notes: &Notes, name: &str, value: &str) -> String {
    let before: Settings = engine.settings().clone();
    engine.set_option(name, value);
    let said = notes.take();
    assert_eq!(said.len(), 1, "setoption {name} {value}: {said:?}");
    assert_eq!(*engine.settings(), before, "setoption {name} {value} changed a setting");
    said.into_iter().next().unwrap_or_default()
}

#[test]
fn an_unknown_option_or_a_bad_value_changes_nothing() {
    let (mut engine, notes) = engine();
    assert!(refused(&mut engine, &notes, "Contempt", "50").contains("unknown option 'Contempt'"));
    refused(&mut engine, &notes, "", "");
    for option in options::all() {
        let bad: Vec<String> = match &option.kind {
            OptionKind::Spin { min, max, .. } => {
                vec![(min - 1).to_string(), (max + 1).to_string(), "lots".to_string(), String::new()]
            }
            OptionKind::Check { .. } => vec!["maybe".to_string(), "1".to_string()],
            OptionKind::Combo { .. } => vec!["NoSuchChoice".to_string()],
            OptionKind::String { .. } | OptionKind::Button(_) => Vec::new(),
        };
        for value in bad {
            let said = refused(&mut engine, &notes, option.name, &value);
            assert!(said.contains(option.name), "{said}");
        }
    }
}

/// A `Hash` larger than the memory the system can give is refused before anything is
/// allocated (Linux would grant it and end the process once the table is touched).
#[test]
fn a_hash_larger_than_the_free_memory_is_refused() {
    let Some(free) = harrier::engine::memory::available_mb() else { return };
    let wanted = free + 1024;
    if wanted > harrier::search::tt::MAX_HASH_MB {
        return; // the option's range already refuses it
    }
    let (mut engine, notes) = engine();
    let before: Settings = engine.settings().clone();
    engine.set_option("Hash", &wanted.to_string());
    let said = notes.take();
    assert!(said.iter().any(|s| s.starts_with(&format!("Hash {wanted} MB is more than"))), "{said:?}");
    assert!(said.iter().any(|s| s == "keeping 16 MB"), "{said:?}");
    assert_eq!(*engine.settings(), before);
}

#[test]
fn a_valid_value_changes_its_setting_alone() {
    let (mut engine, notes) = engine();
    let before = engine.settings().clone();
    engine.set_option("multipv", " 3 ");
    engine.set_option("Move Overhead", "120");
    assert!(notes.take().is_empty());
    let after = engine.settings();
    assert_eq!((after.search.multi_pv, after.move_overhead_ms), (3, 120));
    let expected = Settings {
        move_overhead_ms: 120,
        search: harrier::search::SearchSettings { multi_pv: 3, ..before.search.clone() },
        ..before
    };
    assert_eq!(*after, expected);
}

#[test]
fn options_a_search_reads_wait_for_it_to_end() {
    let (mut engine, notes) = engine();
    engine.go(Limits { infinite: true, ..Limits::default() }, &[], Instant::now());
    for (name, value) in [("Hash", "32"), ("Threads", "2"), ("SearchMode", "Minimax"), ("Clear Hash", "")] {
        let said = refused(&mut engine, &notes, name, value);
        assert!(said.contains("a search is running"), "{said}");
    }
    engine.set_option("Move Overhead", "50");
    assert_eq!(engine.settings().move_overhead_ms, 50, "a setting the search does not read changes at once");
    engine.stop();
    let events = engine.events();
    let deadline = Instant::now() + Duration::from_secs(10);
    while engine.is_busy() && Instant::now() < deadline {
        if let Ok(event) = events.recv_timeout(Duration::from_millis(100)) {
            engine.on_event(event);
        }
    }
    assert!(!engine.is_busy());
    engine.set_option("Hash", "32");
    assert_eq!(engine.settings().hash_mb, 32);
}

#[test]
fn threads_and_multipv_in_bandwidth_mode_are_kept_and_said_to_wait() {
    let (mut engine, notes) = engine();
    engine.set_option("Threads", "2");
    engine.set_option("MultiPV", "2");
    assert!(notes.take().is_empty(), "alpha-beta mode takes both");
    engine.set_option("SearchMode", "Bandwidth");
    let said = notes.take();
    assert_eq!(engine.settings().search_mode, SearchMode::Bandwidth);
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(said.iter().any(|s| s.contains("bandwidth mode searches on one thread, not 2")), "{said:?}");
    assert!(said.iter().any(|s| s.contains("bandwidth mode reports one line, not 2")), "{said:?}");
    engine.set_option("Threads", "3");
    let said = notes.take();
    assert!(said.len() == 1 && said[0].contains("one thread, not 3"), "{said:?}");
    assert_eq!(engine.settings().threads, 3, "kept for the other modes");
    engine.set_option("SearchMode", "AlphaBeta");
    assert!(notes.take().is_empty());
}

/// An `EvalFile` the engine cannot use (missing, truncated, not a network) is refused with
/// one `info string` and the network in use stays; a valid one is taken and named.
#[test]
fn a_bad_network_file_keeps_the_network_in_use() {
    let dir = std::env::temp_dir().join(format!("harrier-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let network = harrier::eval::nnue::EMBEDDED_BYTES;
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_string()
    };
    let copy = write("copy.nnue", network);
    let bad = [
        write("truncated.nnue", &network[..network.len() / 2]),
        write("garbage.nnue", b"not a network"),
        dir.join("missing.nnue").to_str().unwrap().to_string(),
    ];
    let (mut engine, notes) = engine();
    for path in &bad {
        let said = refused(&mut engine, &notes, "EvalFile", path);
        assert!(said.ends_with("; keeping the previous evaluation"), "{said}");
    }
    engine.set_option("EvalFile", &copy);
    assert_eq!(notes.take(), [format!("evaluation: network {copy}")]);
    assert_eq!(engine.settings().eval_file, copy);
    for path in &bad {
        refused(&mut engine, &notes, "EvalFile", path);
    }
    engine.set_option("Use NNUE", "false");
    assert_eq!(notes.take(), ["evaluation: hand-crafted"]);
    assert!(engine.settings().search.evaluation.network().is_none());
    engine.set_option("Use NNUE", "true");
    engine.set_option("EvalFile", "");
    let built_in = format!("evaluation: network {} (built in)", harrier::eval::nnue::EMBEDDED_ID);
    assert_eq!(notes.take(), [format!("evaluation: network {copy}"), built_in]);
    std::fs::remove_dir_all(&dir).unwrap();
}
