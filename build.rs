//! Build script: chooses the network to embed and records the commit the build came from.
//!
//! The default network is named here, once: `nets/<DEFAULT_NET>.nnue`. `EVALFILE=<path>
//! cargo build --release` embeds another file instead (as OpenBench and other engines'
//! builds do), known to the engine by its file name without the extension. The commit
//! goes into the data manifest's rows (`harrier datagen`); a build from a tree with
//! uncommitted changes says so with a `+`, one outside git says `unknown`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The id of the default network: the file `nets/<id>.nnue`, listed in `nets/manifest.tsv`.
const DEFAULT_NET: &str = "g10a";

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-env-changed=EVALFILE");
    let (path, id) = match std::env::var("EVALFILE") {
        Ok(file) if !file.is_empty() => {
            let path = std::fs::canonicalize(&file).unwrap_or_else(|e| panic!("EVALFILE={file}: {e}"));
            let id = path.file_stem().map_or("custom".into(), |stem| stem.to_string_lossy().into_owned());
            (path, id)
        }
        _ => (root.join("nets").join(format!("{DEFAULT_NET}.nnue")), DEFAULT_NET.to_string()),
    };
    println!("cargo:rerun-if-changed={}", path.display());
    println!("cargo:rustc-env=HARRIER_NET_PATH={}", path.display());
    println!("cargo:rustc-env=HARRIER_NET_ID={id}");
    println!("cargo:rustc-env=HARRIER_COMMIT={}", commit(&root));
    // The commit and the `+` change with these (the sources: an edit after the last commit).
    for watched in [".git/HEAD", ".git/refs/heads", ".git/index", "src"] {
        if root.join(watched).exists() {
            println!("cargo:rerun-if-changed={}", root.join(watched).display());
        }
    }
}

/// The short hash of HEAD, with `+` when tracked files differ from it; `unknown` outside git.
fn commit(root: &Path) -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(root)
            .output()
            .ok()
            .filter(|out| out.status.success())
            .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    match git(&["rev-parse", "--short=7", "HEAD"]) {
        Some(hash) => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
            if dirty { format!("{hash}+") } else { hash }
        }
        None => "unknown".to_string(),
    }
}
