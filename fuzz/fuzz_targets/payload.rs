//! A payload from any bytes: validation never panics, and a valid form opens, answers and builds
//! every kind of result.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::payload(data));
