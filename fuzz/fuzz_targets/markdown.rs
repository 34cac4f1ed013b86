//! Any text as Markdown, at a width the first byte picks: within the width and the line limit,
//! nothing a terminal would act on.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| pi_ask::fuzzing::markdown(data));
