//! A pi session file (any bytes): read or refused, and every lookup on its branch never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::session_file(data));
