//! A recorded draft (any bytes): restored only when it fits the form, keeping its invariants.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::draft(data));
