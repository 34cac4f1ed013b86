//! The engine's promise through the terminal runtime: the real binary in a pseudo-terminal, fed
//! random keys in random batches (each batch one write, so one read), shows after every batch
//! exactly the screen the harness shows after the same keys pressed one at a time, and ends with
//! the same result. The wait is for that screen, never a fixed sleep.

mod common;

use common::pty::{COLS, ROWS, Session};
use pi_ask::testing::Harness;
use proptest::prelude::*;
use serde_json::{Value, json};

/// A preview question (a one-line and a 200-line preview), a 40-option list, a multi question.
fn payload() -> Value {
    let tall: String = (1..=200).map(|n| format!("line {n}\n")).collect();
    let regions: Vec<Value> = (0..40)
        .map(|n| json!({"value": format!("r{n}"), "label": format!("Region {n:02}")}))
        .collect();
    json!({"title": "Batches", "questions": [
        {"id": "layout", "type": "preview", "prompt": "Which layout?", "options": [
            {"value": "short", "label": "Short", "preview": "one line"},
            {"value": "tall", "label": "Tall", "preview": tall}]},
        {"id": "region", "prompt": "Which region?", "options": regions},
        {"id": "checks", "type": "multi", "prompt": "Which checks?", "options": [
            {"value": "lint", "label": "Lint"}, {"value": "test", "label": "Tests"}]}]})
}

/// Keys (as the harness names them) and the bytes a legacy terminal sends. No Tab: in an editor
/// it lists the working folder on the file worker's own time, which differs between the two
/// processes (Right is its twin outside an editor).
const KEYS: &[(&str, &str)] = &[
    ("down", "\x1b[B"),
    ("up", "\x1b[A"),
    ("pageDown", "\x1b[6~"),
    ("pageUp", "\x1b[5~"),
    ("end", "\x1b[F"),
    ("shift+end", "\x1b[1;2F"),
    ("shift+home", "\x1b[1;2H"),
    ("shift+down", "\x1b[1;2B"),
    ("shift+pageDown", "\x1b[6;2~"),
    ("right", "\x1b[C"),
    ("left", "\x1b[D"),
    ("space", " "),
    ("n", "n"),
    ("x", "x"),
    ("/", "/"),
    ("r", "r"),
    ("backspace", "\x7f"),
    ("enter", "\r"),
];

/// Feeds `batches` (indexes into [`KEYS`], each batch one write) to the binary and to the harness
/// one key at a time; returns the result the binary printed and the harness's.
fn run_both(batches: &[Vec<usize>]) -> (Value, Value) {
    let payload = payload();
    let mut harness = Harness::new(&payload.to_string(), COLS, ROWS).unwrap();
    let mut pty = Session::start(&["ask", "--fullscreen", "form.json"], |dir| {
        std::fs::write(dir.join("form.json"), payload.to_string()).unwrap();
    });
    pty.wait_for_rows(&harness.screen());
    for batch in batches {
        // One key at a time, each drawn: the reference a batch must equal.
        for &k in batch {
            harness.press(KEYS[k].0);
            harness.screen();
        }
        let bytes: String = batch.iter().map(|&k| KEYS[k].1).collect();
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

/// The issue's repros through the terminal: Down onto the tall preview then Shift+End, and a
/// tab change followed by pages, each pair in one read.
#[test]
fn keys_in_one_read_of_the_terminal_act_as_keys_one_at_a_time() {
    let key = |id: &str| KEYS.iter().position(|(k, _)| *k == id).unwrap();
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
