//! A TOML config from any text: loaded (never written), then one toggle saved. The saved file
//! still loads and differs from the original in that one value only; a failed save leaves the
//! file byte-identical.
#![no_main]
use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

/// A scratch folder for this fuzzing process.
fn dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let path = std::env::temp_dir().join(format!("pi-ask-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&path).unwrap();
        path
    })
}

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::config_toml(data, dir()));
