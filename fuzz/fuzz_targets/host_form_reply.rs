//! A host form's reply to an elicitation: read into the contract's result, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::host_form_reply(data));
