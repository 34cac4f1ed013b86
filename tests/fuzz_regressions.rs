//! The fuzz targets' checks on stable: every seed in `fuzz/seeds/<target>/` and every crash kept
//! in `fuzz/regressions/<target>/` runs through `pi_ask::fuzzing`, the code the fuzzers run.

use std::path::Path;

fn inputs(folder: &str, target: &str) -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(folder)
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn every_seed_and_kept_crash_passes_its_targets_check() {
    let scratch = tempfile::tempdir().unwrap();
    let mut ran = 0;
    for target in pi_ask::fuzzing::TARGETS {
        let seeds = inputs("seeds", target);
        assert!(!seeds.is_empty(), "{target} has seeds");
        for file in seeds.iter().chain(&inputs("regressions", target)) {
            let data = std::fs::read(file).unwrap();
            pi_ask::fuzzing::run(target, &data, scratch.path());
            ran += 1;
        }
    }
    assert!(ran >= 30, "{ran} inputs");
}
