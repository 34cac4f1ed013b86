//! pi-ask's history file (any bytes): read, lines that are not events skipped, lookups safe.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::history_file(data));
