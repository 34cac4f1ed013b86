//! Terminal input bytes into key events, as the harness decodes them.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::terminal_bytes(data));
