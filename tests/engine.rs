//! The engine's promise: a key acts the same however it arrives — alone, batched with others in
//! one read, with or without a frame drawn before it — through every driver that takes raw input
//! (the test harness and the embed protocol here; the terminal runtime in tests/e2e_pty.rs).

mod common;

use common::batches::{KEYS, payload, race_free};
use common::embed_host::{exchange, last_frame, of_type, plain};
use pi_ask::testing::Harness;
use proptest::prelude::*;
use serde_json::{Value, json};

fn harness(width: u16, height: u16) -> Harness {
    Harness::new(&payload().to_string(), width, height).expect("a valid payload")
}

/// The repro: Down onto the tall preview, then Shift+End to its bottom. Before the
/// engine, the second key clamped to the preview measured in the last frame drawn (the one-line
/// preview: scroll 0) unless the screen was read in between. Now the keys give the same model and
/// screen read apart, pressed without a frame between, pressed together or sent as one read.
#[test]
fn a_key_acts_the_same_alone_batched_or_without_a_frame_before_it() {
    let mut drawn = harness(100, 30);
    drawn.press("down");
    drawn.screen();
    drawn.press("shift+end");
    let scroll = drawn.model().unwrap().preview_scroll();
    assert!(
        scroll > 150,
        "Shift+End scrolls the 200-line preview to its bottom: {scroll}"
    );
    let mut undrawn = harness(100, 30);
    undrawn.press("down").press("shift+end");
    let mut together = harness(100, 30);
    together.press_together(&["down", "shift+end"]);
    let mut as_bytes = harness(100, 30);
    as_bytes.send_bytes(b"\x1b[B\x1b[1;2F");
    for other in [&mut undrawn, &mut together, &mut as_bytes] {
        assert_eq!(other.model().unwrap().preview_scroll(), scroll);
        assert_eq!(other.screen(), drawn.screen());
    }
}

/// A key after a resize acts on the frame at the new size, whether or not one was drawn: the
/// preview's bottom at 14 rows is further down than at 30.
#[test]
fn a_key_after_a_resize_acts_on_the_frame_at_the_new_size() {
    let at = |read_after_resize: bool| {
        let mut h = harness(100, 30);
        h.press("down");
        h.screen();
        h.resize(100, 14);
        if read_after_resize {
            h.screen();
        }
        h.press("shift+end");
        (h.model().unwrap().preview_scroll(), h.screen())
    };
    let (drawn, drawn_screen) = at(true);
    let (undrawn, undrawn_screen) = at(false);
    let mut tall = harness(100, 30);
    tall.press("down").press("shift+end");
    let at_30 = tall.model().unwrap().preview_scroll();
    assert!(
        drawn > at_30,
        "a shorter pane scrolls further: {drawn} > {at_30}"
    );
    assert_eq!(undrawn, drawn);
    assert_eq!(undrawn_screen, drawn_screen);
}

/// Runs one embed session on the host's `inputs` (each an `input` message), then an abort, and
/// returns the last frame's plain lines and the result's details.
fn embed_exchange(inputs: &[&str], width: u16, height: u16) -> (Vec<String>, Value) {
    let dir = tempfile::tempdir().unwrap();
    let open = json!({
        "type": "open", "flow": "ask", "payload": payload(), "width": width, "height": height,
        "config": dir.path().join("pi-ask.toml"), "cwd": dir.path(),
    });
    let mut lines = vec![open];
    lines.extend(
        inputs
            .iter()
            .map(|data| json!({"type": "input", "data": data})),
    );
    // The frame as it is after the inputs; then the abort ends the flow with what was entered.
    lines.push(json!({"type": "abort"}));
    let sent = exchange(&lines);
    let result = of_type(&sent, "result")[0]["result"]["details"].clone();
    (plain(last_frame(&sent)), result)
}

/// The embed repro: the two keys in one `input` message did not scroll.
#[test]
fn the_embed_protocol_acts_the_same_on_keys_in_one_message() {
    let (apart, apart_result) = embed_exchange(&["\x1b[B", "\x1b[1;2F"], 100, 30);
    let (together, together_result) = embed_exchange(&["\x1b[B\x1b[1;2F"], 100, 30);
    assert!(
        apart.iter().any(|l| l.contains("line 200")),
        "the preview's bottom shows: {apart:#?}"
    );
    assert_eq!(together, apart);
    assert_eq!(together_result, apart_result);
}

/// A key sequence cut into batches: each inner list arrives in one read.
fn batched_keys() -> impl Strategy<Value = Vec<Vec<usize>>> {
    prop::collection::vec(prop::collection::vec(0..KEYS.len(), 1..5), 1..12)
}

fn sizes() -> impl Strategy<Value = (u16, u16)> {
    prop_oneof![
        Just((100, 30)),
        Just((60, 14)),
        Just((120, 40)),
        Just((40, 10))
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The harness: keys pressed one at a time with the screen read after each, the same keys
    /// in batches without a frame, and the batches as raw bytes give the same model and screen.
    #[test]
    fn harness_batching_never_changes_what_a_key_does(batches in batched_keys(), (w, h) in sizes()) {
        let mut one_by_one = harness(w, h);
        let mut together = harness(w, h);
        let mut raw = harness(w, h);
        for batch in &batches {
            let ids: Vec<&str> = batch.iter().map(|&k| KEYS[k].0).collect();
            for id in &ids {
                one_by_one.press(id);
                one_by_one.screen();
            }
            together.press_together(&ids);
            let bytes: String = batch.iter().map(|&k| KEYS[k].1).collect();
            raw.send_bytes(bytes.as_bytes());
        }
        let expected = one_by_one.screen();
        let model = one_by_one.model().map(|m| (m.preview_scroll(), m.tab_index(), m.draft()));
        for other in [&mut together, &mut raw] {
            prop_assert_eq!(other.screen(), expected.clone());
            let other_model = other.model().map(|m| (m.preview_scroll(), m.tab_index(), m.draft()));
            prop_assert_eq!(format!("{other_model:?}"), format!("{model:?}"));
            prop_assert_eq!(other.result(), one_by_one.result());
        }
    }

    /// The embed protocol: each key its own `input` message, or each batch one message, gives
    /// the same last frame and the same result.
    #[test]
    fn embed_batching_never_changes_what_a_key_does(batches in batched_keys(), (w, h) in sizes()) {
        let apart: Vec<&str> = batches.iter().flatten().map(|&k| race_free(k).1).collect();
        let together: Vec<String> = batches
            .iter()
            .map(|b| b.iter().map(|&k| race_free(k).1).collect())
            .collect();
        let together: Vec<&str> = together.iter().map(String::as_str).collect();
        let (apart_frame, apart_result) = embed_exchange(&apart, w, h);
        let (together_frame, together_result) = embed_exchange(&together, w, h);
        prop_assert_eq!(together_result, apart_result);
        // A form the keys ended sends no frame after its last key: the last frames are then
        // those before different keys, and only the results are compared.
        let mut reference = harness(w, h);
        reference.send_bytes(apart.concat().as_bytes());
        if !reference.is_done() {
            prop_assert_eq!(together_frame, apart_frame);
        }
    }
}
