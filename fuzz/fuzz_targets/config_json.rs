//! The original pi-ask's JSON config (any nesting) and any config tree: read or refused, never a
//! panic, migrated in memory only.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::config_json(data));
