//! Editing operations on an editor's text: caret, line breaks, rows and the row cache stay right.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::editing(data));
