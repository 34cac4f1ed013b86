//! A host's JSON settings edited in place as `pi-ask setup` edits them: the text reads back as
//! the value meant, or the edit is refused; never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::json_edit(data));
