//! A host talking to `pi-ask embed`: JSON lines in, frames no wider than the host, a result out.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("pi-ask-fuzz-embed-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    pi_ask::fuzzing::embed_session(data, &dir);
});
