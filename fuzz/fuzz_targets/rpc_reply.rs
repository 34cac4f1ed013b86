//! An RPC host's response line (any bytes): a reply, an abort, or reported and ignored.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::rpc_reply(data));
