//! Every state at every size: random key sequences through the real app (the harness) on every
//! fixture, plus generated hostile ones (1,000 options, 50 questions, a 1 MB preview, zero-width,
//! combining, right-to-left and control characters), drawn after every key at random sizes from
//! 1x1 to 300x120. Nothing panics, the frame fits the area, the cursor row (or the too-small
//! notice) is on screen, and the model's invariants hold.

mod common;

use pi_ask::testing::Harness;
use proptest::prelude::*;
use serde_json::{Value, json};

/// The payloads, built once for every case (some are megabytes).
fn fixtures() -> &'static [String] {
    static PAYLOADS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    PAYLOADS.get_or_init(build_fixtures)
}

fn build_fixtures() -> Vec<String> {
    let mut payloads: Vec<String> = [
        include_str!("../fixtures/payloads/showcase.json"),
        include_str!("../fixtures/payloads/many-options.json"),
        include_str!("../fixtures/payloads/preview.json"),
        include_str!("../fixtures/payloads/unicode-long.json"),
        include_str!("../fixtures/payloads/planning.json"),
        include_str!("../fixtures/payloads/markdown.json"),
    ]
    .map(str::to_owned)
    .to_vec();
    let option = |i: usize| json!({"value": format!("v{i}"), "label": format!("Option {i}")});
    payloads.push(json!({"questions": [{"id": "big", "prompt": "Pick one of a thousand", "options": (0..1000).map(option).collect::<Vec<_>>()}]}).to_string());
    payloads.push(
        json!({"questions": (0..50).map(|q| json!({"id": format!("q{q}"), "prompt": format!("Question {q}?"), "type": if q % 2 == 0 { "single" } else { "multi" }, "options": (0..3).map(option).collect::<Vec<_>>()})).collect::<Vec<_>>()})
            .to_string(),
    );
    let line = "A preview line with some words in it, long enough to wrap somewhere.\n";
    let huge = line.repeat((1 << 20) / line.len());
    payloads.push(
        json!({"questions": [{"id": "p", "prompt": "Which layout?", "type": "preview", "options": [
        {"value": "huge", "label": "Huge", "preview": huge},
        {"value": "small", "label": "Small", "preview": "tiny"}]}]})
        .to_string(),
    );
    let hostile = [
        "zero\u{200b}width\u{200b}joiners\u{200d}",
        "combining e\u{301}\u{301}\u{301}\u{301} marks a\u{308}\u{308}",
        "עברית ومع العربية mixed RTL \u{202e}override\u{202c} text",
        "control \u{7} bell \u{1b}[31m red \u{8} backspace \t tab \r return",
        "wide 表示幅の広い文字 and emoji 👩‍👩‍👧‍👦🏳️‍🌈",
    ];
    payloads.push(
        json!({"title": hostile[3], "questions": hostile.iter().enumerate().map(|(i, t)| json!({
        "id": format!("h{i}"), "label": t, "prompt": format!("{t}?"),
        "options": [{"value": "a", "label": t, "description": t}, {"value": "b", "label": "Plain"}]
    })).collect::<Vec<_>>()})
        .to_string(),
    );
    // Hostile Markdown: a huge table, deep nesting, a megabyte code block, escapes inside code.
    let table = format!("|{}\n|{}\n", "col|".repeat(300), "-|".repeat(300))
        + &format!("|{}\n", "cell|".repeat(300)).repeat(200);
    let deep = ">".repeat(10_000)
        + " deep\n"
        + &(0..500)
            .map(|i| format!("{}- item", "  ".repeat(i)))
            .collect::<Vec<_>>()
            .join("\n");
    let code = format!("```\n{}\n```", "x\u{1b}[31m".repeat((1 << 20) / 6));
    payloads.push(
        json!({"title": "**bold** `title`", "questions": [{"id": "md", "type": "preview", "prompt": deep, "options": [
            {"value": "t", "label": "Table", "description": table, "preview": table},
            {"value": "c", "label": "Code", "description": "`\u{7}bell` **\u{1b}]2;x\u{7}**", "preview": code},
            {"value": "d", "label": "Deep", "preview": deep}]}]})
        .to_string(),
    );
    payloads
}

/// Keys a person might press in any state.
const KEYS: [&str; 29] = [
    "down",
    "up",
    "tab",
    "shift+tab",
    "enter",
    "space",
    "1",
    "2",
    "3",
    "n",
    "shift+n",
    "t",
    "?",
    "escape",
    "home",
    "end",
    "pageDown",
    "pageUp",
    "shift+down",
    "shift+up",
    "x",
    "@",
    "backspace",
    "ctrl+w",
    "left",
    "right",
    "/",
    "ctrl+n",
    "r",
];

#[derive(Debug, Clone)]
enum Step {
    Key(&'static str),
    Text(String),
    Resize(u16, u16),
}

fn any_step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => (0..KEYS.len()).prop_map(|k| Step::Key(KEYS[k])),
        1 => "[a-z @/é表]{1,6}".prop_map(Step::Text),
        2 => (1u16..=300, 1u16..=120).prop_map(|(w, h)| Step::Resize(w, h)),
        1 => (1u16..=30, 1u16..=12).prop_map(|(w, h)| Step::Resize(w, h)),
    ]
}

fn check_frame(h: &mut Harness, width: u16, height: u16) {
    let buffer = h.buffer();
    assert_eq!((buffer.area.width, buffer.area.height), (width, height));
    if h.is_done() {
        return;
    }
    common::assert_shows_the_point(h, width, height);
    if let Some(model) = h.model() {
        common::check_invariants(model);
    }
}

proptest! {
    // 64 cases in `cargo test`; PI_ASK_STATE_CASES=5000 for a long run (docs/reliability.md).
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PI_ASK_STATE_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64)
    ))]

    #[test]
    fn any_keys_at_any_size_on_any_form_draw_within_the_area(
        index in 0usize..12,
        start in (1u16..=300, 1u16..=120),
        steps in proptest::collection::vec(any_step(), 1..40),
    ) {
        let payloads = fixtures();
        let payload = &payloads[index % payloads.len()];
        let (mut width, mut height) = start;
        let mut h = Harness::new(payload, width, height).expect("fixtures are valid");
        check_frame(&mut h, width, height);
        for step in steps {
            match step {
                Step::Key(key) => { h.press(key); }
                Step::Text(text) => { h.type_text(&text); }
                Step::Resize(w, hh) => {
                    width = w;
                    height = hh;
                    h.resize(w, hh);
                }
            }
            check_frame(&mut h, width, height);
            if h.is_done() {
                break;
            }
        }
    }
}

#[test]
fn the_hostile_fixtures_are_valid_payloads() {
    for payload in fixtures() {
        let value: Value = serde_json::from_str(payload).unwrap();
        pi_ask::input::validate_payload(&value).unwrap();
    }
}

#[test]
fn wide_characters_of_an_earlier_frame_leave_nothing_behind() {
    // Found by the property above at 20x2: the harness once showed halves of wide characters
    // from the previous frame ("terminalutooasmallt(").
    let payload = include_str!("../fixtures/payloads/unicode-long.json");
    let mut h = Harness::new(payload, 1, 1).unwrap();
    h.press("n");
    h.resize(20, 2);
    h.keys(&["escape", "tab", "left", "n"]);
    assert_eq!(h.screen()[0], "terminal too small");
    assert!(h.screen()[1].starts_with("(need 20 x "), "{:?}", h.screen());
    h.resize(20, 2);
    h.keys(&["escape", "tab"]);
    assert_eq!(h.screen()[0], " Pick your favourite");
}
