//! The engine's promise through the terminal runtime: the real binary in a pseudo-terminal, fed
//! random keys in random batches (each batch one write, so one read), shows after every batch
//! exactly the screen the harness shows after the same keys pressed one at a time, and ends with
//! the same result. The wait is for that screen, never a fixed sleep.

mod common;

use common::batches::{KEYS, key, payload, race_free};
use common::pty::{COLS, ROWS, Session};
use pi_ask::testing::Harness;
use proptest::prelude::*;
use serde_json::Value;

/// Feeds `batches` (indexes into [`KEYS`], each batch one write) to the binary and to the harness
/// one key at a time; returns the result the binary printed and the harness's. Tab goes as Right
/// ([`race_free`]): in an editor it lists the working folder, which differs between the two
/// processes, on the file worker's own time.
fn run_both(batches: &[Vec<usize>]) -> (Value, Value) {
    let payload = payload();
    // File suggestions on, as in the binary (whether Tab completes or goes on, and the footer's
    // word for it, depend on it); no key here opens a listing, so the index's files never show.
    let index = pi_ask::files::FileIndex::from_entries(std::path::Path::new("."), Vec::new());
    let mut harness = Harness::with_file_index(&payload.to_string(), index, COLS, ROWS).unwrap();
    let mut pty = Session::start(&["ask", "--fullscreen", "form.json"], |dir| {
        std::fs::write(dir.join("form.json"), payload.to_string()).unwrap();
    });
    pty.wait_for_rows(&harness.screen());
    for batch in batches {
        // One key at a time, each drawn: the reference a batch must equal.
        for &k in batch {
            harness.press(race_free(k).0);
            harness.screen();
        }
        let bytes: String = batch.iter().map(|&k| race_free(k).1).collect();
        pty.write_raw(bytes.as_bytes());
        if harness.is_done() {
            break;
        }
        pty.wait_for_rows(&harness.screen());
    }
    // Ctrl+C dismisses; a form with answers asks for a second press first.
    for _ in 0..2 {
        if harness.is_done() {
            break;
        }
        harness.press("ctrl+c");
        pty.write_raw(b"\x03");
        if !harness.is_done() {
            pty.wait_for_rows(&harness.screen());
        }
    }
    let (_, printed) = pty.finish();
    let expected = serde_json::to_value(harness.result().expect("the form ended")).unwrap();
    (printed, expected)
}

/// The repros through the terminal: Down onto the tall preview then Shift+End, and a
/// tab change followed by pages, each pair in one read.
#[test]
fn keys_in_one_read_of_the_terminal_act_as_keys_one_at_a_time() {
    let (printed, expected) = run_both(&[
        vec![key("down"), key("shift+end")],
        vec![key("right"), key("pageDown"), key("pageDown")],
        vec![key("left"), key("shift+home"), key("shift+pageDown")],
    ]);
    assert_eq!(printed, expected);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    #[test]
    fn the_terminal_runtime_acts_on_batched_keys_as_on_keys_one_at_a_time(
        batches in prop::collection::vec(prop::collection::vec(0..KEYS.len(), 1..5), 1..8)
    ) {
        let (printed, expected) = run_both(&batches);
        prop_assert_eq!(printed, expected);
    }
}
