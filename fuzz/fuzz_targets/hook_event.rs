//! A host's hook event: a valid ask or a refusal; the answer is an allow or a deny.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::hook_event(data));
