//! Nothing panics at any terminal size, in any tab, and the form comes back when the terminal grows.

mod common;

use common::assert_shows_the_point;
use pi_ask::testing::Harness;
use proptest::prelude::*;

const PAYLOADS: [&str; 5] = [
    include_str!("../fixtures/payloads/showcase.json"),
    include_str!("../fixtures/payloads/many-options.json"),
    include_str!("../fixtures/payloads/preview.json"),
    include_str!("../fixtures/payloads/unicode-long.json"),
    include_str!("../fixtures/payloads/planning.json"),
];

/// States worth drawing on every tab: as opened, an option note open, a question note with text,
/// the settings modal.
const STATES: [&[&str]; 4] = [&[], &["n"], &["shift+n", "x", "y"], &["?"]];

fn tab_count(h: &Harness) -> usize {
    h.model().unwrap().questions().len() + 1
}

#[test]
fn every_tab_of_every_fixture_draws_at_every_small_size() {
    for payload in PAYLOADS {
        for state in STATES {
            let mut h = Harness::new(payload, 80, 24).unwrap();
            for tab in 0..tab_count(&h) {
                if tab > 0 {
                    h.press("esc").press("esc").press("tab");
                }
                h.keys(state);
                for width in 1..=40 {
                    for height in 1..=20 {
                        h.resize(width, height);
                        assert_shows_the_point(&mut h, width, height);
                    }
                }
                if h.is_done() {
                    break;
                }
            }
        }
    }
}

/// A narrow terminal says it is too small in whole words: the notice wrapped when there are rows
/// for it, a shorter one when not, never a cut word ("terminal too").
#[test]
fn the_too_small_notice_is_whole_words_at_any_width() {
    let mut h = Harness::new(PAYLOADS[0], 12, 1).unwrap();
    assert_eq!(h.screen()[0], "too small");
    h.resize(12, 3);
    let screen = h.screen();
    assert_eq!(screen[0], "terminal too");
    assert_eq!(screen[1], "small (need");
    assert!(
        screen[2].starts_with("20 x ") && screen[2].ends_with(')'),
        "{screen:?}"
    );
    h.resize(19, 1);
    assert!(
        h.screen()[0].starts_with("too small: 20x"),
        "{:?}",
        h.screen()
    );
    for width in 1..=19 {
        for height in 1..=3 {
            h.resize(width, height);
            let text = h.screen().join(" ");
            let words: Vec<&str> = text.split_whitespace().collect();
            assert!(
                width < 5 || text.contains("small"),
                "{width}x{height}: {text:?}"
            );
            // Below five columns not even "small" fits: as much of it as does.
            assert!(
                width < 5
                    || !words
                        .iter()
                        .any(|w| ["termina", "t", "to", "sma"].contains(w)),
                "{width}x{height}: a cut word in {text:?}"
            );
        }
    }
}

#[test]
fn a_tiny_terminal_shows_one_notice_and_keeps_the_answers() {
    let mut h = Harness::new(PAYLOADS[0], 80, 24).unwrap();
    h.press("2"); // answer the first question
    h.resize(10, 1);
    assert_eq!(h.screen()[0], "too small");
    h.resize(80, 1);
    assert!(
        h.screen()[0].starts_with("terminal too small (need 20 x "),
        "{:?}",
        h.screen()
    );
    h.resize(80, 2);
    assert!(
        h.screen()[1].starts_with("❯ 1."),
        "a prompt line and the cursor row fit"
    );
    h.resize(80, 24);
    let screen = h.screen_text();
    assert!(
        screen.contains("☒ Single"),
        "the answered tab shows again:\n{screen}"
    );
    assert_eq!(h.model().unwrap().answer(0).selected, [1]);
}

#[test]
fn short_terminals_drop_the_footer_and_title_before_options() {
    let mut h = Harness::new(PAYLOADS[0], 40, 12).unwrap();
    let screen = h.screen_text();
    assert!(
        screen.contains("❯ 1."),
        "an option shows at 40x12:\n{screen}"
    );
    let mut h = Harness::new(PAYLOADS[0], 60, 13).unwrap();
    let screen = h.screen_text();
    assert!(screen.contains("❯ 1."), "{screen}");
    assert!(
        screen.contains("4. Type your own") || screen.contains("more"),
        "every option, or hidden ones counted, at 60x13:\n{screen}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_larger_sizes_draw_every_tab(
        payload in 0..PAYLOADS.len(),
        width in 41u16..300,
        height in 21u16..120,
        keys in proptest::collection::vec(
            prop_oneof![
                Just("down"), Just("up"), Just("tab"), Just("shift+tab"), Just("enter"),
                Just("space"), Just("n"), Just("shift+n"), Just("esc"), Just("?"), Just("t"),
                Just("a"), Just("end"), Just("pageDown"), Just("shift+down"), Just("@"),
            ],
            0..24,
        ),
    ) {
        let mut h = Harness::new(PAYLOADS[payload], width, height).unwrap();
        for key in keys {
            h.press(key);
            if h.is_done() {
                break;
            }
            assert_shows_the_point(&mut h, width, height);
        }
    }
}

#[test]
fn the_file_popup_draws_at_every_small_size() {
    let tree = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/tree");
    // Each editor: the free-form answer (the custom row's digit), an option note, the question note.
    for (payload, custom_row) in [(PAYLOADS[0], "4"), (PAYLOADS[2], "3")] {
        for keys in [&[custom_row][..], &["n"][..], &["shift+n"][..]] {
            let mut h = Harness::with_files(payload, &tree, 80, 24).unwrap();
            h.keys(keys).type_text("see @s");
            assert!(
                h.popup().is_some(),
                "{keys:?} opens an editor with the popup"
            );
            for width in 1..=40 {
                for height in 1..=20 {
                    h.resize(width, height);
                    assert_shows_the_point(&mut h, width, height);
                    let screen = h.screen_text();
                    if width >= 20 && height >= 4 {
                        assert!(
                            screen.contains("see @s"),
                            "typed text hidden at {width}x{height}:\n{screen}"
                        );
                    }
                }
            }
            h.type_text("zzzz"); // no matching files
            for (width, height) in [(1, 1), (20, 3), (40, 8), (100, 6)] {
                h.resize(width, height);
                h.screen();
            }
        }
    }
}

/// A note taller than a height can count (more lines than a `u16` holds) lays out as the most,
/// not as a sum that overflows (a panic in a debug build, a wrong frame in a release one), on the
/// question tab and on the review.
#[test]
fn a_note_of_more_lines_than_a_height_holds_draws() {
    let mut h = Harness::new(PAYLOADS[0], 100, 30).unwrap();
    h.press("shift+n")
        .paste(&"x\n".repeat(65_530))
        .press("enter");
    let screen = h.screen_text();
    assert!(screen.contains("Note: x"), "{screen}");
    assert!(
        screen.contains("1. Move fast"),
        "the options still show: {screen}"
    );
    for _ in 1..tab_count(&h) {
        h.press("tab");
    }
    let review = h.screen_text();
    assert!(review.contains("Review answers"), "{review}");
}
