//! Lazy SMP through the real binary: `Threads` starts helper threads that live as long as
//! the setting, searches with them play legal moves and find the same mates, and bandwidth
//! mode (which searches alone) starts none.

use std::time::Duration;

use crate::common::*;

#[test]
fn helper_threads_follow_the_threads_option() {
    let mut e = Harrier::spawn();
    e.ready();
    let pid = e.child.id();
    let alone = thread_count(pid);
    e.send("setoption name Threads value 3");
    e.ready();
    assert_eq!(thread_count(pid), alone + 2, "Threads 3: two helpers");
    let pos = position(None, &["e2e4"]);
    for _ in 0..5 {
        e.send("position startpos moves e2e4");
        e.go("go depth 8", &pos);
        assert_eq!(thread_count(pid), alone + 2, "the helpers stay between searches");
    }
    e.send("setoption name Threads value 1");
    e.ready();
    assert_eq!(thread_count(pid), alone, "Threads 1: no helper");
    e.send("setoption name Threads value 2");
    e.send("setoption name SearchMode value Bandwidth");
    e.ready();
    assert_eq!(thread_count(pid), alone, "bandwidth mode searches alone");
    e.send("setoption name SearchMode value AlphaBeta");
    e.ready();
    assert_eq!(thread_count(pid), alone + 1, "back in alpha-beta mode, one helper");
}

#[test]
fn two_threads_find_the_mate_and_play_legal_moves() {
    let mut e = Harrier::spawn();
    e.send("setoption name Threads value 2");
    let pos = position(Some(MATE_IN_TWO), &[]);
    e.send(&format!("position fen {MATE_IN_TWO}"));
    let search = e.go("go mate 2", &pos);
    let report = &search.lines[search.lines.len() - 2];
    assert!(report.contains(" score mate 2 "), "{report}");
    assert!(mates_in_two(&pos).contains(&assert_legal(&pos, &search.best)), "{} does not mate", search.best);

    // A short game against itself, each search stopped early or by its clock.
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..12 {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let pos = position(None, &refs);
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let search = if ply % 2 == 0 {
            e.go("go wtime 2000 btime 2000 winc 20 binc 20", &pos)
        } else {
            e.send("go infinite");
            std::thread::sleep(Duration::from_millis(100));
            e.send("stop");
            e.bestmove(&pos, TIMEOUT)
        };
        moves.push(search.best);
    }
}

#[test]
fn threads_in_bandwidth_mode_are_refused_aloud_and_kept_for_alpha_beta() {
    let mut e = Harrier::spawn();
    e.ready();
    let pid = e.child.id();
    let alone = thread_count(pid);
    e.send("setoption name SearchMode value Bandwidth");
    assert!(e.ready().is_empty(), "bandwidth mode with one thread says nothing");
    e.send("setoption name Threads value 2");
    let lines = e.ready();
    let said = info_strings(&lines);
    assert_eq!(said.len(), 1, "{lines:#?}");
    assert!(said[0].contains("bandwidth mode searches on one thread, not 2"), "{}", said[0]);
    assert_eq!(thread_count(pid), alone, "no helper in bandwidth mode");
    let pos = position(None, &["d2d4"]);
    e.send("position startpos moves d2d4");
    e.go("go nodes 20000", &pos);
    e.send("setoption name SearchMode value AlphaBeta");
    assert!(e.ready().is_empty());
    assert_eq!(thread_count(pid), alone + 1, "alpha-beta mode gets the second thread");
    e.go("go depth 6", &pos);
    e.send("setoption name SearchMode value Bandwidth");
    let lines = e.ready();
    assert!(info_strings(&lines).iter().any(|s| s.contains("one thread, not 2")), "the switch says so: {lines:#?}");
}

#[test]
fn go_depth_with_helpers_answers_at_that_depth() {
    let mut e = Harrier::spawn();
    e.send("setoption name Threads value 2");
    for fen in ["r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 0 9", MATE_IN_TWO] {
        let pos = position(Some(fen), &[]);
        for depth in [6, 9] {
            e.send(&format!("position fen {fen}"));
            let search = e.go(&format!("go depth {depth}"), &pos);
            let reported = search.final_field("depth").expect("a final report");
            // A proven mate ends the iterations early (at twice its distance and more).
            let proven_mate = search.final_field("mate").is_some();
            assert!(
                reported >= i64::from(depth) || proven_mate,
                "go depth {depth} answered at depth {reported}: {fen}"
            );
        }
    }
}
