//! A hook's shell command as `pi-ask doctor` reads the program it runs: never a panic, and a
//! program quoted as `pi-ask setup` writes it reads back as itself.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::hook_command(data));
