//! Key ids and keymap sections from any text: parsed or refused, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::keymaps(data));
