//! Playing levels through the real binary: a limited level searches few nodes and varies
//! its moves among good ones; full strength is the normal search.

use std::collections::HashSet;

use crate::common::*;

/// The position after 1. e4 e5 2. Nf3: many reasonable replies.
const MOVES: [&str; 3] = ["e2e4", "e7e5", "g1f3"];

#[test]
fn the_weakest_level_searches_little_and_varies_its_moves() {
    let mut e = Harrier::spawn();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 800");
    e.ready();
    let pos = position(None, &MOVES);
    let mut played = HashSet::new();
    for _ in 0..20 {
        e.send(&format!("position startpos moves {}", MOVES.join(" ")));
        let search = e.go("go depth 12", &pos);
        let nodes = search.final_field("nodes").expect("a final report");
        assert!(nodes < 1_000, "the weakest level searched {nodes} nodes");
        played.insert(search.best);
    }
    assert!(played.len() >= 2, "always {played:?}");
}

#[test]
fn skill_level_20_and_the_strongest_elo_play_at_full_strength() {
    let pos = position(None, &MOVES);
    let full = |settings: &[&str]| {
        let mut e = Harrier::spawn();
        for line in settings {
            e.send(line);
        }
        e.send(&format!("position startpos moves {}", MOVES.join(" ")));
        let search = e.go("go depth 9", &pos);
        (search.best.clone(), search.final_field("nodes"))
    };
    let normal = full(&[]);
    assert_eq!(full(&["setoption name Skill Level value 20"]), normal);
    assert_eq!(full(&["setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 2850"]), normal);
    let weak = full(&["setoption name Skill Level value 5"]);
    assert!(weak.1 < normal.1, "skill 5 searched {:?} nodes, full strength {:?}", weak.1, normal.1);
}
