//! The engine's promise: a key acts the same however it arrives — alone, batched with others in
//! one read, with or without a frame drawn before it — through every driver that takes raw input
//! (the test harness and the embed protocol here; the terminal runtime in tests/e2e_pty.rs).

use std::sync::mpsc;

use pi_ask::embed;
use pi_ask::lines::Line;
use pi_ask::testing::Harness;
use proptest::prelude::*;
use serde_json::{Value, json};

/// A preview question whose first option's preview is one line and whose second's is 200, a
/// long single-select list (paging), and a multi question with a note to type.
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

fn harness(width: u16, height: u16) -> Harness {
    Harness::new(&payload().to_string(), width, height).expect("a valid payload")
}

/// The issue's repro: Down onto the tall preview, then Shift+End to its bottom. Before the
/// engine, the second key clamped to the preview measured in the last frame drawn (the one-line
/// preview: scroll 0) unless the screen was read in between.
#[test]
fn a_key_acts_the_same_with_or_without_a_frame_drawn_before_it() {
    let mut drawn = harness(100, 30);
    drawn.press("down");
    drawn.screen();
    drawn.press("shift+end");
    let mut undrawn = harness(100, 30);
    undrawn.press("down").press("shift+end");
    let scroll = drawn.model().unwrap().preview_scroll();
    assert!(
        scroll > 150,
        "Shift+End scrolls the 200-line preview to its bottom: {scroll}"
    );
    assert_eq!(undrawn.model().unwrap().preview_scroll(), scroll);
    assert_eq!(undrawn.screen(), drawn.screen());
}

#[test]
fn keys_in_one_read_act_as_keys_one_at_a_time() {
    let mut apart = harness(100, 30);
    apart.press("down");
    apart.screen();
    apart.press("shift+end");
    let mut together = harness(100, 30);
    together.press_together(&["down", "shift+end"]);
    let mut as_bytes = harness(100, 30);
    as_bytes.send_bytes(b"\x1b[B\x1b[1;2F");
    assert!(apart.model().unwrap().preview_scroll() > 150);
    for other in [&mut together, &mut as_bytes] {
        assert_eq!(
            other.model().unwrap().preview_scroll(),
            apart.model().unwrap().preview_scroll()
        );
        assert_eq!(other.screen(), apart.screen());
    }
}

/// Runs one embed session on the host's lines and returns the last frame's plain lines and the
/// result's details.
fn embed_exchange(inputs: &[&str], width: u16, height: u16) -> (Vec<String>, Value) {
    let dir = tempfile::tempdir().unwrap();
    let (tx, rx) = mpsc::channel();
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
    for line in &lines {
        tx.send(Line::Text(line.to_string().into_bytes())).unwrap();
    }
    tx.send(Line::Text(
        json!({"type": "abort"}).to_string().into_bytes(),
    ))
    .unwrap();
    drop(tx);
    let mut out = Vec::new();
    embed::run(rx, &mut out).expect("the engine writes to memory");
    let sent: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let frame = sent
        .iter()
        .rev()
        .find(|v| v["type"] == "frame")
        .expect("a frame");
    let plain = frame["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| strip_styles(l.as_str().unwrap()))
        .collect();
    let result = sent
        .iter()
        .find(|v| v["type"] == "result")
        .expect("a result");
    (plain, result["result"]["details"].clone())
}

/// A frame line without its SGR sequences.
fn strip_styles(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out.trim_end().to_owned()
}

/// The issue's embed repro: the two keys in one `input` message did not scroll.
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

/// Keys a person uses on this form, each with the bytes a legacy terminal sends for it.
const KEYS: &[(&str, &str)] = &[
    ("down", "\x1b[B"),
    ("up", "\x1b[A"),
    ("pageDown", "\x1b[6~"),
    ("pageUp", "\x1b[5~"),
    ("home", "\x1b[H"),
    ("end", "\x1b[F"),
    ("shift+end", "\x1b[1;2F"),
    ("shift+home", "\x1b[1;2H"),
    ("shift+down", "\x1b[1;2B"),
    ("shift+up", "\x1b[1;2A"),
    ("shift+pageDown", "\x1b[6;2~"),
    ("shift+pageUp", "\x1b[5;2~"),
    ("tab", "\t"),
    ("shift+tab", "\x1b[Z"),
    ("space", " "),
    ("n", "n"),
    ("x", "x"),
    ("/", "/"),
    ("r", "r"),
    ("backspace", "\x7f"),
    ("enter", "\r"),
    ("right", "\x1b[C"),
    ("left", "\x1b[D"),
];

/// The bytes of key `k` for a driver whose file suggestions arrive when they come: Tab (path
/// completion in an editor, answered by the file worker on its own time) is sent as Right, its
/// twin outside an editor, so no key races a listing.
fn race_free_bytes(k: usize) -> &'static str {
    match KEYS[k].0 {
        "tab" => "\x1b[C",
        _ => KEYS[k].1,
    }
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
        let apart: Vec<&str> = batches.iter().flatten().map(|&k| race_free_bytes(k)).collect();
        let together: Vec<String> = batches
            .iter()
            .map(|b| b.iter().map(|&k| race_free_bytes(k)).collect())
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
