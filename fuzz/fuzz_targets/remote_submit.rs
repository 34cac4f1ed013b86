//! A remote `submit` line (any bytes) against a fixed flow: refused with a message, or accepted and
//! applied to the model without breaking it.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::remote_submit(data));
