//! What an MCP client writes: lines passed whole or answered by id, never held past the limit.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::mcp_line(data));
