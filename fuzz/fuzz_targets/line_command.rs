//! Typed lines in line mode: read or refused in a sentence, only text said.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::line_command(data));
