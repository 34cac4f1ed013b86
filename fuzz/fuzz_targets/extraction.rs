//! Extraction from any text: a model's reply is read or refused, and the built-in extractor's form
//! always validates (or is "no questions").
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::extraction(data));
