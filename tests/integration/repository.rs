//! The networks and training data kept in the repository agree with their manifests:
//! `nets/manifest.tsv` with `nets/*.nnue` and the network built into the binary,
//! `data/manifest.tsv` with the data files.

use std::path::Path;

use harrier::eval::nnue::data::manifest::{self, Depth, sha256_hex};
use harrier::eval::nnue::{self, QuantisedNet, file};

const NETS_HEADER: &str = "id\tsha256\tparent\tinputs\thidden\tbuckets\tdata\tcommand\ttrainer\tsprt";

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_kept_network_matches_its_manifest_row() {
    let text = std::fs::read_to_string(repository().join("nets/manifest.tsv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(NETS_HEADER));
    let mut ids = vec!["hce".to_string()];
    for line in lines {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 10, "{line}");
        let [id, sha256, parent, inputs, hidden, buckets, ..] = fields[..] else { unreachable!() };
        assert!(ids.iter().any(|known| known == parent), "{id}: its parent {parent} comes before it");
        let bytes = std::fs::read(repository().join(format!("nets/{id}.nnue"))).unwrap();
        assert_eq!(sha256_hex(&bytes), sha256, "{id}");
        let header = file::header(&bytes).unwrap();
        let net = QuantisedNet::from_bytes(&bytes).unwrap();
        assert_eq!(inputs.parse::<usize>().unwrap(), net.feature_weights.len() / net.hidden(), "{id}");
        assert_eq!((hidden.parse().unwrap(), buckets.parse().unwrap()), (header.hidden, header.buckets), "{id}");
        ids.push(id.to_string());
    }
    for entry in std::fs::read_dir(repository().join("nets")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "nnue") {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            assert!(ids.contains(&stem), "{} has no row in nets/manifest.tsv", path.display());
        }
    }
    // An EVALFILE build embeds a file of its own choosing; the default build, a listed net.
    if ids.iter().any(|id| id == nnue::EMBEDDED_ID) {
        let listed = std::fs::read(repository().join(format!("nets/{}.nnue", nnue::EMBEDDED_ID))).unwrap();
        assert_eq!(nnue::EMBEDDED_BYTES, listed.as_slice());
    }
}

#[test]
fn every_data_file_matches_its_manifest_row() {
    let data = repository().join("data");
    if !data.join(manifest::MANIFEST).exists() {
        return;
    }
    let report = manifest::check(&data, Depth::Full).unwrap();
    assert_eq!(report.problems, Vec::<String>::new());
    assert!(report.files > 0 && report.positions > report.games);
}
