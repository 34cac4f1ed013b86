//! What a web page posts: read or refused; the page drawn after each press holds only its own tags.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::web_press(data));
