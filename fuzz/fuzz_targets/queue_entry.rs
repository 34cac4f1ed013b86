//! A file planted in the ask queue (any bytes): offered only when it is a valid ask of its own
//! name, else set aside once; never a panic, never a hang.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("pi-ask-fuzz-queue-{}", std::process::id()));
    pi_ask::fuzzing::queue_entry(data, &dir);
});
