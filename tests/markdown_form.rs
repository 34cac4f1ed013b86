//! Markdown in the form: the showcase payload of fixtures/payloads/markdown.json rendered at 40,
//! 80 and 200 columns, the raw toggle, the config switch, and plain text for line mode and RPC
//! dialogs.

use pi_ask::testing::{Harness, LineHarness};

const PAYLOAD: &str = include_str!("../fixtures/payloads/markdown.json");

#[test]
fn prompts_descriptions_and_previews_are_rendered_at_every_width() {
    for (w, h) in [(40u16, 40u16), (80, 40), (200, 50)] {
        let mut harness = Harness::new(PAYLOAD, w, h).unwrap();
        let screen = harness.screen_text();
        assert!(
            screen.contains("Which refactor should land first?"),
            "{w}:\n{screen}"
        );
        assert!(
            !screen.contains("**"),
            "no emphasis markers at {w}:\n{screen}"
        );
        assert!(!screen.contains("```"), "no fences at {w}:\n{screen}");
        assert!(screen.contains("- the loader"), "{w}:\n{screen}");
        if w >= 80 {
            // The preview: its heading without `##`, the diff in its box.
            assert!(
                screen.contains("The change") && !screen.contains("## The change"),
                "{screen}"
            );
            assert!(screen.contains("┌─ diff"), "{w}:\n{screen}");
            assert!(
                screen.contains("Small and safe; keeps load()"),
                "{w}:\n{screen}"
            );
        }
        for row in harness.screen() {
            assert!(pi_ask_components::text::width(&row) <= w as usize, "{row}");
        }
    }
}

#[test]
fn r_shows_the_previews_raw_text_and_back() {
    let mut h = Harness::new(PAYLOAD, 120, 45).unwrap();
    assert!(h.screen_text().contains("R raw"), "{}", h.screen_text());
    h.press("r");
    let raw = h.screen_text();
    assert!(raw.contains("## The change"), "{raw}");
    assert!(raw.contains("```diff"), "{raw}");
    assert!(raw.contains("R rendered"), "{raw}");
    // Descriptions and the prompt stay rendered: only previews go raw.
    assert!(raw.contains("Which refactor should"), "{raw}");
    h.press("r");
    assert!(!h.screen_text().contains("```diff"));
    // A preview without Markdown offers no toggle.
    h.press("down").press("down");
    assert!(!h.screen_text().contains("R raw"), "{}", h.screen_text());
}

#[test]
fn the_config_switch_draws_every_text_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pi-ask.toml");
    std::fs::write(&config, "schemaVersion = 5\n[theme]\nmarkdown = false\n").unwrap();
    let mut h = Harness::with_config(PAYLOAD, &config, 120, 45).unwrap();
    let screen = h.screen_text();
    assert!(screen.contains("Which **refactor** should"), "{screen}");
    assert!(screen.contains("```diff"), "{screen}");
    assert!(!screen.contains("R raw"), "nothing to toggle: {screen}");
    // A bad value is named, and Markdown is rendered.
    std::fs::write(&config, "schemaVersion = 5\n[theme]\nmarkdown = \"no\"\n").unwrap();
    let mut h = Harness::with_config(PAYLOAD, &config, 120, 45).unwrap();
    let screen = h.screen_text();
    assert!(
        screen.contains("theme.markdown must be true or false"),
        "{screen}"
    );
    assert!(screen.contains("Which refactor should"), "{screen}");
}

#[test]
fn line_mode_and_rpc_dialogs_get_plain_text() {
    let mut line = LineHarness::new(PAYLOAD).unwrap();
    let said = line.type_lines(&["p 1"]);
    assert!(
        said.contains("Which refactor should land first? It touches src/config.rs and:"),
        "{said}"
    );
    assert!(
        said.contains("1. Rename the loader: Small and safe; keeps load()"),
        "{said}"
    );
    assert!(
        said.contains("The change") && !said.contains("## The change"),
        "{said}"
    );
    assert!(!said.contains("**") && !said.contains("```"), "{said}");
    let form = pi_ask::input::parse_payload(PAYLOAD).unwrap();
    let options = pi_ask::drivers::rpc::option_strings(&form.questions[0]);
    assert!(
        options[0].contains("Small and safe; keeps load()"),
        "{options:?}"
    );
    assert!(!options.concat().contains("**"), "{options:?}");
}

#[test]
fn a_note_written_in_markdown_is_rendered_on_the_review() {
    let mut h = Harness::new(PAYLOAD, 100, 45).unwrap();
    h.press("shift+n")
        .type_text("Check **both** callers")
        .press("enter");
    h.press("1");
    let screen = h.screen_text();
    assert!(screen.contains("Check both callers"), "{screen}");
    assert!(!screen.contains("**"), "{screen}");
    // The result keeps the note as written.
    h.press("enter");
    let result = serde_json::to_value(h.result().unwrap()).unwrap();
    assert_eq!(
        result["details"]["answers"]["plan"]["note"],
        "Check **both** callers"
    );
}
