//! The terminal UI through the public testing harness: what a person sees and the JSON they get.

use pi_ask::testing::Harness;

const TWO: &str = r#"{"title":"Demo","questions":[
  {"id":"one","label":"One","prompt":"First question?","options":[{"value":"a","label":"Alpha","description":"The first"},{"value":"b","label":"Beta","recommended":true}]},
  {"id":"two","label":"Two","prompt":"Second question?","type":"multi","options":[{"value":"x","label":"Ex"},{"value":"y","label":"Why"}]}
]}"#;

/// A config file with `text` in a fresh temp dir (kept alive by the returned guard).
fn config_file(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pi-ask.toml");
    std::fs::write(&config, text).unwrap();
    (dir, config)
}

fn showcase() -> &'static str {
    pi_ask::tui::DEMO_PAYLOAD
}

#[test]
fn first_screen_shows_title_tabs_prompt_options_and_hints() {
    let mut h = Harness::new(TWO, 80, 20).unwrap();
    let screen = h.screen();
    assert_eq!(screen[0], "─".repeat(80));
    assert_eq!(screen[1], " Demo");
    assert_eq!(screen[3], " ←  ☐ One   ☐ Two   ≡ Review  →");
    assert_eq!(screen[5], " First question?");
    assert_eq!(screen[7], "❯ 1. Alpha");
    assert_eq!(screen[8], "     The first");
    assert_eq!(screen[9], "  2. Beta");
    assert_eq!(screen[10], "     (recommended)");
    assert_eq!(screen[11], "  3. Type your own");
    assert_eq!(
        &screen[16..19],
        [
            "",
            " ⇆ tab · ↑↓ select · t question type · Enter confirm",
            " N/Shift+N note · Esc dismiss · ? settings"
        ],
        "the original's hints, wrapped lines indented and balanced (docs/contract.md)"
    );
    assert_eq!(screen[19], "─".repeat(80));
}

#[test]
fn recommended_marker_is_warning_coloured() {
    let mut h = Harness::new(TWO, 80, 20).unwrap();
    let cell = h.cell(5, 10);
    assert_eq!(cell.symbol(), "(");
    assert_eq!(cell.fg, pi_ask_components::Theme::default().warning);
}

#[test]
fn a_full_flow_with_free_form_answer_notes_and_review_submit() {
    let mut h = Harness::new(TWO, 80, 24).unwrap();
    // Question note on the first question, then a free-form answer.
    h.press("shift+n")
        .type_text("Prefer small steps")
        .press("enter");
    assert!(h.screen_text().contains(" Note: Prefer small steps"));
    h.press("3").type_text("Gamma").press("enter");
    // Second question: toggle Why, add an option note, continue.
    h.press("2")
        .press("n")
        .type_text("because")
        .press("enter")
        .press("enter");
    let review = h.screen_text();
    assert!(review.contains(" Review answers"), "{review}");
    assert!(review.contains("❯ 1. Submit"), "{review}");
    assert!(review.contains("→ Gamma"), "{review}");
    assert!(review.contains("Note: because"), "{review}");
    h.press("enter");
    let r = h.result().expect("submitted");
    assert_eq!(
        r.text(),
        "One: Gamma\nOne note: Prefer small steps\nTwo: Why\nTwo / Why note: because"
    );
    assert!(!r.details.cancelled);
}

#[test]
fn elaborate_from_the_review_tab() {
    let mut h = Harness::new(TWO, 80, 24).unwrap();
    h.press("n")
        .type_text("why alpha?")
        .press("enter")
        .press("shift+tab")
        .press("2")
        .press("2");
    let r = h.result().unwrap();
    assert_eq!(
        serde_json::to_value(r).unwrap()["details"]["mode"],
        "elaborate"
    );
    assert_eq!(
        r.text(),
        "User asked to elaborate on question \"First question?\" option \"Alpha\" with note \"why alpha?\""
    );
}

#[test]
fn dirty_dismiss_needs_a_second_escape_and_shows_the_warning() {
    let mut h = Harness::new(TWO, 80, 20).unwrap();
    h.press("space").press("esc");
    assert!(h.result().is_none());
    assert!(
        h.screen_text()
            .contains("Unsaved ask answers or drafts. Press cancel/dismiss again to discard.")
    );
    h.press("esc");
    assert!(h.result().unwrap().details.cancelled);
}

#[test]
fn review_layout_is_the_originals_at_100_and_50_columns() {
    let p = r#"{"questions":[{"id":"c","label":"Color","prompt":"P","options":[{"value":"r","label":"Red"}]}]}"#;
    // Wide: the actions beside the review (the original's render-submit test at 80 columns).
    let mut h = Harness::new(p, 100, 20).unwrap();
    h.press("tab");
    let s = h.screen();
    assert_eq!(
        &s[3..7],
        [
            "❯ 1. Submit      Review answers",
            "  2. Elaborate",
            "  3. Cancel      Color",
            "                   → unanswered",
        ]
    );
    // Narrow: stacked.
    let mut h = Harness::new(p, 50, 20).unwrap();
    h.press("tab");
    let s = h.screen();
    assert_eq!(
        &s[3..11],
        [
            " Review answers",
            "",
            " Color",
            "   → unanswered",
            "",
            "❯ 1. Submit",
            "  2. Elaborate",
            "  3. Cancel"
        ]
    );
}

#[test]
fn double_press_hint_shows_on_the_review_tab() {
    let (_dir, config) =
        config_file("schemaVersion = 5\n[behaviour]\ndoublePressReviewShortcuts = true\n");
    let mut h = Harness::with_config(TWO, &config, 80, 20).unwrap();
    h.press("shift+tab");
    assert!(
        h.screen_text()
            .contains("Press 1, 2, or 3 twice to confirm a review action.")
    );
    h.press("1");
    assert!(h.screen_text().contains("Press 1 again to Submit."));
    assert!(h.result().is_none());
    h.press("1");
    assert!(h.result().is_some());
}

#[test]
fn footer_hints_follow_remapped_keys_and_can_be_hidden() {
    let (_dir, config) =
        config_file("schemaVersion = 5\n[keymaps.main]\nconfirm = \"ctrl+k\"\ncancel = \"q\"\n");
    let mut h = Harness::with_config(TWO, &config, 120, 20).unwrap();
    assert!(
        h.screen_text().contains(
            " ⇆ tab · ↑↓ select · t question type · Ctrl+K confirm · N/Shift+N note · Q dismiss · ? settings"
        ),
        "{}",
        h.screen_text()
    );
    h.press("enter");
    assert_eq!(
        h.model().unwrap().answer(0).selected,
        Vec::<usize>::new(),
        "enter is no longer confirm"
    );
    h.press("ctrl+k");
    assert_eq!(h.model().unwrap().answer(0).selected, vec![0]);
    std::fs::write(
        &config,
        "schemaVersion = 5\n[behaviour]\nshowFooterHints = false\n",
    )
    .unwrap();
    let mut h = Harness::with_config(TWO, &config, 100, 20).unwrap();
    let s = h.screen();
    assert!(!s.join("\n").contains("settings"));
    assert_eq!(s[19], "─".repeat(100));
}

#[test]
fn the_settings_modal_toggles_a_behaviour_and_saves_the_file() {
    let (_dir, config) =
        config_file("# mine\nschemaVersion = 5\n\n[behaviour]\nshowFooterHints = true # keep\n");
    let mut h = Harness::with_config(TWO, &config, 80, 30).unwrap();
    h.press("?");
    let s = h.screen_text();
    assert!(
        s.contains("Live settings") && s.contains("Defaults for future asks"),
        "{s}"
    );
    assert!(
        s.contains(&config.display().to_string()[..20]),
        "the path is shown: {s}"
    );
    // Show footer hints is the fifth row.
    h.keys(&["down", "down", "down", "down", "space"]);
    assert_eq!(
        std::fs::read_to_string(&config).unwrap(),
        "# mine\nschemaVersion = 5\n\n[behaviour]\nshowFooterHints = false # keep\n"
    );
    h.press("esc");
    assert!(
        !h.screen_text().contains("Esc dismiss"),
        "hints hidden at once"
    );
}

/// The Theme row cycles auto, dark, light: each press saves `[theme] name` (comments kept) and
/// the form wears it at once; a config that cannot be saved keeps its theme and says why.
#[test]
fn the_theme_row_cycles_and_saves_the_theme() {
    let (_dir, config) = config_file("schemaVersion = 5\n[theme]\nname = \"auto\" # mine\n");
    let mut h = Harness::with_config(TWO, &config, 100, 40).unwrap();
    let pointer_colour = |h: &mut Harness| {
        // The highlighted option's pointer, in the accent colour of the theme worn.
        h.cell(0, 7).fg
    };
    let dark_accent = pointer_colour(&mut h);
    h.press("?");
    // The Theme row comes after the six toggles.
    h.keys(&["down", "down", "down", "down", "down", "down"]);
    assert!(h.screen_text().contains("❯ Theme"), "{}", h.screen_text());
    assert!(h.screen_text().contains("[auto]"));
    h.press("space");
    assert_eq!(
        std::fs::read_to_string(&config).unwrap(),
        "schemaVersion = 5\n[theme]\nname = \"dark\" # mine\n"
    );
    assert!(h.screen_text().contains("[dark]"), "{}", h.screen_text());
    h.press("space");
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .contains("name = \"light\" # mine"),
    );
    let screen = h.screen_text();
    assert!(
        screen.contains("[light]") && screen.contains("light (config)"),
        "{screen}"
    );
    h.press("esc");
    assert_ne!(
        pointer_colour(&mut h),
        dark_accent,
        "the light theme is worn"
    );
    h.press("?");
    h.keys(&["down", "down", "down", "down", "down", "down", "space"]);
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .contains("name = \"auto\" # mine"),
        "round to auto"
    );

    // A read-only config: the theme stays, the modal says why.
    let (_dir, config) = config_file("schemaVersion = 5\n");
    let mut perms = std::fs::metadata(&config).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&config, perms).unwrap();
    let mut h = Harness::with_config(TWO, &config, 100, 40).unwrap();
    h.press("?");
    h.keys(&["down", "down", "down", "down", "down", "down", "space"]);
    let screen = h.screen_text();
    assert!(screen.contains("Unable to save ask config"), "{screen}");
    assert!(screen.contains("[auto]"), "{screen}");
}

#[test]
fn a_read_only_config_reverts_the_toggle_with_the_manual_edit_message() {
    let (_dir, config) = config_file("schemaVersion = 5\n");
    let mut perms = std::fs::metadata(&config).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&config, perms).unwrap();
    let mut h = Harness::with_config(TWO, &config, 100, 40).unwrap();
    h.press("?").press("space");
    let s = h.screen_text();
    assert!(s.contains("Unable to save ask config"), "{s}");
    assert!(
        !h.model()
            .unwrap()
            .settings()
            .behaviour
            .auto_submit_when_answered_without_notes
    );
}

#[test]
fn reset_asks_twice_within_the_window() {
    let (_dir, config) = config_file("schemaVersion = 5\n[behaviour]\nshowFooterHints = false\n");
    let mut h = Harness::settings(&config, 80, 30);
    h.press("up").press("enter");
    assert!(h.screen_text().contains("[confirm reset]"));
    h.advance(2500);
    assert!(
        h.screen_text().contains("[reset all]"),
        "the window expired"
    );
    h.press("enter").advance(500).press("enter");
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .contains("showFooterHints = true")
    );
    h.press("esc");
    assert!(h.is_done());
}

#[test]
fn long_lists_scroll_to_keep_the_cursor_visible() {
    let p = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/payloads/many-options.json"
    ))
    .unwrap();
    let mut h = Harness::new(&p, 100, 24).unwrap();
    for _ in 0..40 {
        h.press("down");
    }
    let s = h.screen_text();
    assert!(s.contains("❯ 41. Option 041"), "{s}");
    assert!(s.contains("↑ ") && s.contains("↓ "), "{s}");
    h.press("enter");
    h.press("enter");
    assert_eq!(h.result().unwrap().details.answers["pick"].indices, [41]);
}

#[test]
fn preview_questions_show_the_pane_beside_or_below_the_list() {
    let mut h = Harness::new(showcase(), 120, 30).unwrap();
    h.keys(&["tab", "tab"]);
    let s = h.screen();
    let row = s.iter().find(|l| l.contains("❯ 1. Compact")).unwrap();
    assert!(
        row.contains("┌"),
        "pane beside the list at 120 columns: {row}"
    );
    assert!(
        s.iter().any(|l| l.contains("│ Theme   [dark ▾]")),
        "preformatted preview kept: {s:#?}"
    );
    let mut h = Harness::new(showcase(), 60, 40).unwrap();
    h.keys(&["tab", "tab"]);
    let s = h.screen();
    let list_row = s.iter().position(|l| l.contains("❯ 1. Compact")).unwrap();
    let pane_row = s.iter().position(|l| l.starts_with("┌")).unwrap();
    assert!(pane_row > list_row, "stacked below at 60 columns");
}

#[test]
fn tiny_terminals_do_not_panic_and_say_so() {
    let mut h = Harness::new(showcase(), 19, 6).unwrap();
    assert!(h.screen_text().starts_with("terminal too small"));
    h.press("down").press("enter").resize(10, 3);
    h.screen();
    h.resize(100, 30);
    assert!(
        h.screen_text().contains("Multi-select demo"),
        "keys still work while too small"
    );
}

#[test]
fn wide_and_combining_characters_and_emoji_render_without_panics() {
    let p = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/payloads/unicode-long.json"
    ))
    .unwrap();
    for width in [24, 40, 100, 200] {
        let mut h = Harness::new(&p, width, 30).unwrap();
        let s = h.screen_text();
        assert!(s.contains("言語"), "{s}");
        h.keys(&["down", "down", "tab"]);
        let s = h.screen_text();
        assert!(s.contains("🎉"), "{s}");
    }
}

#[test]
fn raw_terminal_bytes_drive_the_form() {
    let mut h = Harness::new(TWO, 80, 20).unwrap();
    // Down, Enter (Beta), then Kitty-encoded shift+n opens the question note.
    h.send_bytes(b"\x1b[B\r\x1b[110;2u");
    let m = h.model().unwrap();
    assert_eq!(m.answer(0).selected, vec![1]);
    assert!(m.editor().is_some_and(|e| e.target.is_note()));
    h.send_bytes(b"\x1b[200~pasted\ntext\x1b[201~");
    assert_eq!(h.model().unwrap().editor().unwrap().text(), "pasted\ntext");
}

#[test]
fn the_flow_notifies_once_when_opened() {
    let h = Harness::new(TWO, 80, 20).unwrap();
    let n = h.notifications();
    assert_eq!(n.len(), 1);
    assert_eq!(n[0].message, "Question waiting: One");
}

#[test]
fn the_notification_goes_through_the_configs_channels_or_the_bell_without_a_config() {
    use pi_ask::stores::config::Channel;
    let h = Harness::new(TWO, 80, 20).unwrap();
    assert_eq!(h.notification_channels(), [vec![Channel::Bell]]);
    let (_dir, config) =
        config_file("schemaVersion = 5\n[notifications]\nchannels = [\"osc777\", \"osc9\"]\n");
    let h = Harness::with_config(TWO, &config, 80, 20).unwrap();
    assert_eq!(
        h.notification_channels(),
        [vec![Channel::Osc777, Channel::Osc9]]
    );
}

#[test]
fn a_non_empty_editor_keeps_question_mark_and_arrows() {
    let mut h = Harness::new(TWO, 80, 20).unwrap();
    h.press("shift+n")
        .type_text("a?")
        .press("left")
        .type_text("b");
    assert_eq!(h.model().unwrap().editor().unwrap().text(), "ab?");
    assert!(h.model().unwrap().settings_modal().is_none());
}

#[test]
fn a_config_reset_applies_default_keymaps_to_the_open_flow_at_once() {
    let (_dir, config) = config_file("schemaVersion = 5\n[keymaps.main]\nnextOption = \"j\"\n");
    let mut h = Harness::with_config(TWO, &config, 100, 40).unwrap();
    h.press("down");
    assert_eq!(
        h.model().unwrap().cursor(0),
        0,
        "down is not bound while the file remaps it"
    );
    h.press("j");
    assert_eq!(h.model().unwrap().cursor(0), 1);
    // Settings: up wraps to the reset action; press it twice, then close.
    h.press("?")
        .press("up")
        .press("enter")
        .press("enter")
        .press("esc");
    h.press("down");
    assert_eq!(
        h.model().unwrap().cursor(0),
        2,
        "the default key works without restarting"
    );
}

const ONE_Q: &str = r#"{"questions":[{"id":"q","prompt":"Pick","options":[{"value":"a","label":"Alpha"},{"value":"b","label":"Beta"}]}]}"#;

#[test]
fn turning_on_auto_submit_in_the_modal_on_a_complete_review_finishes_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pi-ask.toml");
    let mut h = Harness::with_config(ONE_Q, &config, 80, 24).unwrap();
    h.press("enter"); // Alpha, then the review tab
    assert!(!h.is_done());
    h.press("?"); // the settings modal, cursor on auto-submit
    h.press("enter");
    assert!(h.is_done(), "auto-submit applies with the modal still open");
    let result = h.result().unwrap();
    assert!(!result.details.cancelled);
    assert_eq!(result.details.answers["q"].values, ["a"]);
    let saved = std::fs::read_to_string(&config).unwrap();
    assert!(
        saved.contains("autoSubmitWhenAnsweredWithoutNotes = true"),
        "the toggle is saved first:\n{saved}"
    );
}

#[test]
fn custom_answers_are_trimmed_when_submitted_and_a_draft_closed_with_esc_keeps_its_spaces() {
    let mut h = Harness::new(ONE_Q, 80, 24).unwrap();
    h.press("shift+n").type_text("  a note  ").press("enter");
    h.press("3").type_text(" padded ").press("esc");
    assert_eq!(
        h.model().unwrap().answer(0).custom_text.as_deref(),
        Some(" padded "),
        "Esc saves the draft verbatim, as the original 1.3.0 does"
    );
    h.press("3");
    assert_eq!(h.model().unwrap().editor().unwrap().text(), " padded ");
    h.type_text(" ").paste("more\n").press("enter");
    h.press("enter");
    let result = h.result().unwrap();
    assert_eq!(result.details.answers["q"].values, ["padded  more"]);
    assert_eq!(result.details.answers["q"].note.as_deref(), Some("a note"));
}

#[test]
fn up_and_down_in_a_single_line_editor_go_to_its_start_and_end() {
    let mut h = Harness::new(ONE_Q, 80, 24).unwrap();
    h.press("3").type_text("abc").press("up").type_text("X");
    h.press("down").type_text("Y");
    assert_eq!(h.model().unwrap().editor().unwrap().text(), "XabcY");
}

#[test]
fn up_and_down_in_a_multi_line_note_move_between_lines_then_to_the_ends() {
    let mut h = Harness::new(ONE_Q, 80, 24).unwrap();
    h.press("shift+n").paste("one\ntwo");
    h.press("up").type_text("<"); // from the end of `two` to the first line
    h.press("up").type_text("^"); // already on the first line: to its start
    h.press("down").press("down").type_text("$"); // to the last line, then its end
    assert_eq!(h.model().unwrap().editor().unwrap().text(), "^one<\ntwo$");
}

#[test]
fn readline_keys_edit_the_line_as_readline_does() {
    let text = |keys: &[&str]| {
        let mut h = Harness::new(ONE_Q, 80, 24).unwrap();
        h.press("3").type_text("alpha beta gamma");
        h.keys(keys);
        h.model().unwrap().editor().unwrap().text().to_owned()
    };
    assert_eq!(text(&["left", "left", "ctrl+u"]), "ma");
    assert_eq!(text(&["ctrl+a", "ctrl+k"]), "");
    assert_eq!(text(&["ctrl+a", "right", "ctrl+k"]), "a");
    assert_eq!(text(&["ctrl+w"]), "alpha beta ");
    assert_eq!(text(&["ctrl+a", "ctrl+e", "ctrl+w"]), "alpha beta ");
    assert_eq!(text(&["alt+b", "ctrl+k"]), "alpha beta ");
    assert_eq!(text(&["ctrl+a", "alt+f", "ctrl+k"]), "alpha");
    assert_eq!(text(&["ctrl+left", "ctrl+left", "ctrl+k"]), "alpha ");
    assert_eq!(text(&["ctrl+a", "ctrl+right", "ctrl+u"]), " beta gamma");
    // Ctrl+J starts a new line (the answer takes new lines, as the note editors).
    assert_eq!(text(&["ctrl+j"]), "alpha beta gamma\n");
    assert_eq!(text(&["ctrl+h"]), "alpha beta gamm");
}

#[test]
fn coming_back_to_a_question_lands_on_its_committed_answer_or_the_first_option() {
    let mut h = Harness::new(TWO, 80, 24).unwrap();
    h.press("down").press("enter"); // One = Beta, now on Two
    h.press("down"); // hover Why without choosing it
    h.press("shift+tab"); // back to One
    assert_eq!(h.model().unwrap().cursor(0), 1, "on the chosen Beta");
    h.press("tab");
    assert_eq!(
        h.model().unwrap().cursor(1),
        0,
        "a multi question starts at its first option"
    );
    h.press("n").type_text("why not").press("enter");
    h.press("shift+tab").press("tab");
    assert_eq!(h.model().unwrap().cursor(1), 0);
}

#[test]
fn home_end_page_down_and_page_up_move_through_a_long_list() {
    let payload = include_str!("../fixtures/payloads/many-options.json");
    let mut h = Harness::new(payload, 80, 24).unwrap();
    let rows = h.model().unwrap().questions()[0].row_count();
    h.press("end");
    assert_eq!(h.model().unwrap().cursor(0), rows - 1);
    assert!(h.screen_text().contains("Type your own"));
    h.press("home");
    assert_eq!(h.model().unwrap().cursor(0), 0);
    h.press("pageDown");
    let page = h.model().unwrap().cursor(0);
    assert!(page > 1, "a page is more than one row: {page}");
    h.press("pageDown").press("pageUp");
    assert_eq!(h.model().unwrap().cursor(0), page);
    // A page is what the list shows in the frame the key acts on: scrolled down, a row goes to
    // the `↑ more` line, so this page is no longer than the first (shorter when the lost row
    // held a whole option) and ends where the list's top is (the same whether or not the screen
    // was read before the key).
    h.screen();
    let rows = h.measures().unwrap().page_rows;
    assert!(
        rows <= page,
        "the scrolled list shows no more rows: {rows} <= {page}"
    );
    h.press("pageUp");
    assert_eq!(h.model().unwrap().cursor(0), page - rows);
    h.press("pageUp");
    assert_eq!(h.model().unwrap().cursor(0), 0);
}

#[test]
fn descriptions_align_with_their_label_at_every_number_width() {
    let payload = include_str!("../fixtures/payloads/many-options.json");
    let mut h = Harness::new(payload, 80, 50).unwrap();
    let screen = h.screen();
    let col = |line: &str, needle: &str| line[..line.find(needle).unwrap()].chars().count();
    for label in ["1. Option 001", "10. Option 010"] {
        let row = screen.iter().position(|l| l.contains(label)).unwrap();
        assert_eq!(
            col(&screen[row], "Option"),
            col(&screen[row + 1], "Description"),
            "{}\n{}",
            screen[row],
            screen[row + 1]
        );
    }
}

#[test]
fn wrapped_note_editors_show_all_their_text_at_80_and_120_columns() {
    let note = "a note that is long enough to wrap past the edge of the editor at eighty col";
    assert_eq!(note.chars().count(), 76);
    let mut h = Harness::new(TWO, 80, 24).unwrap();
    h.press("shift+n").type_text(note);
    let screen = h.screen_text();
    for word in note.split(' ') {
        assert!(screen.contains(word), "{word:?} hidden:\n{screen}");
    }

    let preview = include_str!("../fixtures/payloads/preview.json");
    let mut h = Harness::new(preview, 120, 30).unwrap();
    let text = "an option note in the wide preview layout wraps in its column";
    h.press("n").type_text(text);
    let screen = h.screen_text();
    for word in text.split(' ') {
        assert!(screen.contains(word), "{word:?} hidden:\n{screen}");
    }
}

#[test]
fn preview_text_shows_at_small_sizes_and_a_long_preview_scrolls_with_a_marker() {
    let preview = include_str!("../fixtures/payloads/preview.json");
    for (w, hh) in [(40u16, 24u16), (60, 20), (40, 14)] {
        let mut h = Harness::new(preview, w, hh).unwrap();
        let screen = h.screen_text();
        assert!(
            screen.contains("Line one"),
            "no preview text at {w}x{hh}:\n{screen}"
        );
    }
    let long: String = (1..=60_000)
        .map(|i| format!("preview line {i}\\n"))
        .collect();
    assert!(long.len() > 1_000_000);
    let payload = format!(
        r#"{{"questions":[{{"id":"p","prompt":"Pick","type":"preview","options":[
            {{"value":"a","label":"A","preview":"{long}"}},{{"value":"b","label":"B","preview":"short"}}]}}]}}"#
    );
    let mut h = Harness::new(&payload, 100, 30).unwrap();
    let screen = h.screen_text();
    assert!(
        screen.contains("preview line 1\n") || screen.contains("preview line 1 "),
        "{screen}"
    );
    assert!(
        screen.contains("more ─"),
        "a marker counts the hidden lines:\n{screen}"
    );
    h.press("shift+down").press("shift+down");
    let screen = h.screen_text();
    assert!(!screen.contains("preview line 2 "), "{screen}");
    assert!(screen.contains("preview line 3"), "{screen}");
    assert!(screen.contains("↑ 2 more"), "{screen}");
    h.press("down"); // another option: its preview starts at the top
    assert_eq!(h.model().unwrap().preview_scroll(), 0);
}

#[test]
fn the_settings_hint_shows_only_while_question_mark_opens_the_settings() {
    let mut h = Harness::new(TWO, 100, 24).unwrap();
    h.press("3");
    assert!(
        h.screen_text()
            .contains("Enter submit · Esc close · ? settings")
    );
    h.type_text("why?");
    let screen = h.screen_text();
    assert!(screen.contains(" Enter submit · Esc close\n"), "{screen}");
    assert!(!screen.contains("? settings"), "{screen}");
}

#[test]
fn remapped_navigation_keys_are_hinted_with_their_labels() {
    let (_dir, config) = config_file(
        "schemaVersion = 5\n[keymaps.main]\nnextOption = \"ctrl+n\"\npreviousOption = \"ctrl+p\"\nchangeQuestionType = \"ctrl+t\"\n",
    );
    let mut h = Harness::with_config(TWO, &config, 120, 20).unwrap();
    let screen = h.screen_text();
    assert!(
        screen.contains(" ⇆ tab · Ctrl+N/Ctrl+P select · ctrl+t question type ·"),
        "{screen}"
    );
}

#[test]
fn the_free_form_row_of_a_multi_question_gets_a_checkbox_only_once_it_has_text() {
    let mut h = Harness::new(TWO, 80, 24).unwrap();
    h.press("tab");
    let screen = h.screen_text();
    assert!(screen.contains("  3. Type your own"), "{screen}");
    assert!(!screen.contains("[ ] Type your own"), "{screen}");
    h.press("3").type_text("mine").press("enter");
    let screen = h.screen_text();
    assert!(screen.contains("3. [x] Type your own"), "{screen}");
}

#[test]
fn note_labels_are_warning_coloured_as_in_the_original() {
    let theme = pi_ask_components::Theme::default();
    let mut h = Harness::new(TWO, 80, 24).unwrap();
    h.press("shift+n").type_text("q note").press("enter");
    h.press("n").type_text("o note").press("enter");
    let screen = h.screen();
    for (y, line) in screen.iter().enumerate() {
        if let Some(x) = line.find("Note:") {
            let col = line[..x].chars().count() as u16;
            assert_eq!(h.cell(col, y as u16).fg, theme.warning, "{line}");
        }
    }
    assert!(screen.iter().filter(|l| l.contains("Note:")).count() >= 2);
}

#[test]
fn the_settings_modal_shows_its_whole_message_and_hint_and_keeps_the_file_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("blocker"), "a file, not a folder").unwrap();
    let config = dir.path().join("blocker/extensions/pi-ask.toml");
    let mut h = Harness::with_config(TWO, &config, 80, 20).unwrap();
    h.press("?").press("enter"); // toggling fails: the folder cannot be created
    let screen = h.screen_text();
    assert!(
        screen.contains("│ Unable to save ask config at"),
        "{screen}"
    );
    assert!(
        screen.contains("pi-ask again. Not a directory (os error 20)"),
        "the message ends on screen:\n{screen}"
    );
    assert!(
        screen.contains("Enter / Space to change"),
        "the hint stays:\n{screen}"
    );
    let mut h = Harness::with_config(TWO, &config, 40, 30).unwrap();
    h.press("?");
    let screen = h.screen_text();
    assert!(screen.contains("…/pi-ask.toml"), "{screen}");
}

#[test]
fn paths_are_elided_in_the_middle() {
    use pi_ask_components::settings_modal::elide_middle;
    assert_eq!(elide_middle("/a/b/c.toml", 40), "/a/b/c.toml");
    assert_eq!(
        elide_middle("/home/user/.pi/agent/extensions/pi-ask.toml", 24),
        "/home/user/…/pi-ask.toml"
    );
    assert_eq!(
        elide_middle("/x/a-very-long-file-name.toml", 10),
        "…name.toml"
    );
}

#[test]
fn editing_the_config_file_while_a_form_is_open_applies_at_once() {
    let (_dir, config) = config_file("schemaVersion = 5\n");
    let mut h = Harness::with_config(TWO, &config, 100, 24).unwrap();
    h.press("j");
    assert_eq!(h.model().unwrap().cursor(0), 0, "j is not bound yet");
    std::fs::write(
        &config,
        "schemaVersion = 5\n[keymaps.main]\nnextOption = [\"j\", \"down\"]\n[behaviour]\nshowFooterHints = false\n",
    )
    .unwrap();
    h.advance(0);
    h.press("j");
    assert_eq!(h.model().unwrap().cursor(0), 1, "the new keymap applies");
    assert!(
        !h.screen_text().contains("Enter confirm"),
        "hints are off now"
    );
    std::fs::write(&config, "schemaVersion = 5\n[behaviour\n").unwrap();
    h.advance(0);
    assert!(
        h.screen_text()
            .contains("Config was invalid or unsupported"),
        "{}",
        h.screen_text()
    );
}

#[test]
fn a_misspelt_section_is_named_on_screen_and_the_rest_of_the_file_applies() {
    let text = "schemaVersion = 5\n[behavior]\nshowFooterHints = false\n[behaviour]\ndoublePressReviewShortcuts = false\n";
    let (_dir, config) = config_file(text);
    let mut h = Harness::with_config(showcase(), &config, 100, 30).unwrap();
    let screen = h.screen_text();
    assert!(
        screen
            .contains("Unknown key behavior (did you mean behaviour?) in the config was ignored."),
        "{screen}"
    );
    // The correctly spelt section applied; the misspelt one did not (hints still shown).
    assert!(
        !h.model()
            .unwrap()
            .settings()
            .behaviour
            .double_press_review_shortcuts
    );
    assert!(screen.contains("? settings"), "{screen}");
    assert_eq!(
        std::fs::read_to_string(&config).unwrap(),
        text,
        "the file is not rewritten"
    );
}

/// The vim-style example of docs/keymaps.md, exactly as written there.
fn docs_vim_example() -> String {
    let docs = include_str!("../docs/keymaps.md");
    let section = &docs[docs.find("## Example: vim-style").expect("the vim example")..];
    let start = section.find("```toml\n").expect("its TOML block") + "```toml\n".len();
    section[start..start + section[start..].find("```").unwrap()].to_owned()
}

/// With `j`/`k` bound to the list (the docs' vim example), moving onto `Type your own` used to
/// open its editor and type every later `j`/`k`, so `k` could no longer move up and the review
/// showed `jk` as the answer.
#[test]
fn the_docs_vim_keys_pass_through_the_type_your_own_row_both_ways() {
    let (_dir, config) = config_file(&docs_vim_example());
    let mut h = Harness::with_config(TWO, &config, 100, 24).unwrap();
    let custom = h.model().unwrap().questions()[0].custom_row();
    h.send_bytes(b"jj"); // Alpha → Beta → Type your own (its editor opens, empty)
    assert_eq!(h.model().unwrap().cursor(0), custom);
    assert!(
        h.model().unwrap().editor().is_some(),
        "the row's editor opened"
    );
    h.send_bytes(b"j"); // the last row: stays, types nothing
    assert_eq!(h.model().unwrap().cursor(0), custom);
    assert_eq!(h.model().unwrap().editor().unwrap().text(), "");
    h.send_bytes(b"k"); // back up through the row
    assert_eq!(h.model().unwrap().cursor(0), custom - 1);
    assert!(h.model().unwrap().editor().is_none());
    h.send_bytes(b"jk"); // down into the row and up again
    assert_eq!(h.model().unwrap().cursor(0), custom - 1);
    assert_eq!(h.model().unwrap().answer(0).custom_text, None);

    // A word starting with another letter is typed, `j` and `k` inside it included.
    h.send_bytes(b"j").send_bytes(b"ok jk").send_bytes(b"\r");
    assert_eq!(
        h.model().unwrap().answer(0).custom_text.as_deref(),
        Some("ok jk")
    );
    // An editor asked for with a key types `j` from the first letter.
    h.send_bytes(b"h"); // back to the first question (vim's previous tab)
    assert_eq!(h.model().unwrap().tab(), pi_ask::model::Tab::Question(0));
    h.press("enter"); // on the row with saved text: opens its editor for typing
    h.press("ctrl+u").send_bytes(b"just").send_bytes(b"\r");
    assert_eq!(
        h.model().unwrap().answer(0).custom_text.as_deref(),
        Some("just")
    );
    h.send_bytes(b"\t"); // to the review
    let screen = h.screen_text();
    assert!(screen.contains("just"), "{screen}");
    assert!(!screen.contains("jk\n"), "{screen}");
}

/// The footer follows the original's construction: the question-type hint by its raw key ids,
/// every other key by its label (one-character keys upper-cased).
#[test]
fn footer_hints_match_the_originals_text_for_default_and_remapped_keys() {
    let mut h = Harness::new(TWO, 140, 20).unwrap();
    let screen = h.screen_text();
    assert!(
        screen.contains(
            " t question type · Enter confirm · N/Shift+N note · Esc dismiss · ? settings\n"
        ),
        "{screen}"
    );
    h.press("tab"); // the multi question
    let screen = h.screen_text();
    assert!(
        screen.contains(
            " Space toggle · A all/none · t question type · Enter continue · N/Shift+N note · Esc dismiss · ? settings\n"
        ),
        "{screen}"
    );

    let (_dir, config) = config_file(
        "schemaVersion = 5\n[keymaps.main]\nnextOption = \"j\"\npreviousOption = \"k\"\nchangeQuestionType = [\"t\", \"ctrl+t\"]\noptionNote = \"m\"\n",
    );
    let mut h = Harness::with_config(TWO, &config, 140, 20).unwrap();
    let screen = h.screen_text();
    assert!(
        screen.contains(
            "J/K select · t / ctrl+t question type · Enter confirm · M/Shift+N note · Esc dismiss"
        ),
        "{screen}"
    );
}

/// A preview taller than its pane: the footer says how to scroll it, Shift+PageDown/PageUp page
/// through it (remappable), and each option keeps its own position.
#[test]
fn a_long_preview_pages_names_its_scroll_keys_and_keeps_its_place_per_option() {
    let long: String = (1..=3000).map(|i| format!("line {i}\\n")).collect();
    let payload = format!(
        r#"{{"questions":[{{"id":"p","prompt":"Pick","type":"preview","options":[
            {{"value":"a","label":"A","preview":"{long}"}},{{"value":"b","label":"B","preview":"{long}"}},
            {{"value":"c","label":"C","preview":"short"}}]}}]}}"#
    );
    let mut h = Harness::new(&payload, 120, 30).unwrap();
    let screen = h.screen_text();
    assert!(
        screen.contains("Shift+↓↑ scroll preview · Shift+pageDown/pageUp page preview"),
        "the footer names the preview's scroll keys from the first frame:\n{screen}"
    );
    h.press("shift+pageDown");
    let page = h.model().unwrap().preview_scroll();
    assert!(page > 5, "a page is the pane's height, not a line: {page}");
    h.press("shift+pageDown")
        .press("shift+pageUp")
        .press("shift+down");
    assert_eq!(h.model().unwrap().preview_scroll(), page + 1);
    let screen = h.screen_text();
    assert!(screen.contains(&format!("↑ {} more", page + 1)), "{screen}");

    h.press("down"); // option B starts at its top
    assert_eq!(h.model().unwrap().preview_scroll(), 0);
    h.press("shift+down");
    h.press("down"); // option C: short, nothing to scroll, no scroll hint
    let screen = h.screen_text();
    assert!(!screen.contains("scroll preview"), "{screen}");
    h.press("up").press("up"); // back on A: where it was left
    assert_eq!(h.model().unwrap().preview_scroll(), page + 1);
    h.press("down");
    assert_eq!(
        h.model().unwrap().preview_scroll(),
        1,
        "B kept its line too"
    );

    // Remapped, the hint follows.
    let (_dir, config) = config_file(
        "schemaVersion = 5\n[keymaps.main]\npreviewPageDown = \"ctrl+f\"\npreviewPageUp = \"ctrl+b\"\n",
    );
    let mut h = Harness::with_config(&payload, &config, 120, 30).unwrap();
    assert!(
        h.screen_text().contains("Ctrl+F/Ctrl+B page preview"),
        "{}",
        h.screen_text()
    );
    h.press("ctrl+f");
    assert!(h.model().unwrap().preview_scroll() > 5);
}

/// Shift+End and Shift+Home take a long preview to its last and first lines (the list's cursor
/// stays where it is), and the bottom shows the preview's last line.
#[test]
fn shift_end_and_shift_home_jump_to_the_ends_of_a_long_preview() {
    let long: String = (1..=3000).map(|i| format!("line {i}\\n")).collect();
    let payload = format!(
        r#"{{"questions":[{{"id":"p","prompt":"Pick","type":"preview","options":[
            {{"value":"a","label":"A","preview":"{long}"}},{{"value":"b","label":"B","preview":"short"}}]}}]}}"#
    );
    let mut h = Harness::new(&payload, 120, 30).unwrap();
    h.press("shift+end");
    let bottom = h.model().unwrap().preview_scroll();
    assert!(bottom > 2900, "{bottom}");
    assert!(h.screen_text().contains("line 3000"), "{}", h.screen_text());
    assert_eq!(h.model().unwrap().cursor(0), 0, "the list did not move");
    h.press("shift+end");
    assert_eq!(
        h.model().unwrap().preview_scroll(),
        bottom,
        "already at the end"
    );
    h.press("shift+home");
    assert_eq!(h.model().unwrap().preview_scroll(), 0);
    assert!(h.screen_text().contains("line 1\n") || h.screen_text().contains("line 1 "));
    // In the filter, the preview keys still scroll the highlighted match's preview.
    h.press("/").press("shift+end");
    assert_eq!(h.model().unwrap().preview_scroll(), bottom);
}

/// Issue 39: `Down Down Enter` on a two-option question lands on `Type your own` (its editor opens
/// empty), Enter on the empty editor submits nothing, and what is typed next is the answer, the
/// `t` of `the` not a question-type switch.
#[test]
fn typing_after_enter_on_the_empty_type_your_own_editor_is_the_answer() {
    let payload = r#"{"questions":[{"id":"pick","prompt":"Which one?","options":[
        {"value":"a","label":"Alpha"},{"value":"b","label":"Beta"}]}]}"#;
    let mut h = pi_ask::testing::Harness::new(payload, 80, 24).unwrap();
    h.keys(&["down", "down", "enter"]);
    h.type_text("the new one");
    h.press("enter");
    let shown = h.screen_text();
    assert!(
        !shown.contains("☑"),
        "the question stayed single-select: {shown}"
    );
    assert!(shown.contains("Submit"), "on to the review: {shown}");
    h.keys(&["1", "1"]);
    let result = serde_json::to_value(h.result().expect("submitted")).unwrap();
    assert_eq!(
        result["details"]["answers"]["pick"]["customText"],
        "the new one"
    );
}

/// Two multi questions, for the rules of a saved `Type your own` answer.
const MULTIS: &str = r#"{"questions":[
  {"id":"one","label":"One","prompt":"First?","type":"multi","options":[{"value":"a","label":"Alpha"},{"value":"b","label":"Beta"}]},
  {"id":"two","label":"Two","prompt":"Second?","type":"multi","options":[{"value":"x","label":"Ex"}]}
]}"#;

/// Issue 42: Enter on the saved `Type your own` row of a multi question reopened its editor, and
/// Enter there saved and stayed, so Enter never went on. As in the original, Enter saves a new or
/// changed answer and stays (other options can still be ticked), and Enter on the saved row opens
/// it; Enter confirming it unchanged goes on. The footer names each.
#[test]
fn enter_goes_on_from_a_saved_type_your_own_answer_of_a_multi_question() {
    let mut h = Harness::new(MULTIS, 100, 24).unwrap();
    h.press("space").press("end").type_text("Gamma");
    assert!(
        h.screen_text().contains("Enter save"),
        "{}",
        h.screen_text()
    );
    h.press("enter");
    assert_eq!(
        h.model().unwrap().tab_index(),
        0,
        "a new answer is saved in place"
    );
    assert!(
        h.screen_text().contains("Enter edit"),
        "{}",
        h.screen_text()
    );
    h.press("enter");
    assert_eq!(h.model().unwrap().editor().unwrap().text(), "Gamma");
    assert!(
        h.screen_text().contains("Enter continue"),
        "{}",
        h.screen_text()
    );
    h.press("enter");
    assert_eq!(h.model().unwrap().tab_index(), 1, "confirmed unchanged: on");
    h.press("shift+tab")
        .press("end")
        .press("enter")
        .type_text("!");
    assert!(
        h.screen_text().contains("Enter save"),
        "{}",
        h.screen_text()
    );
    h.press("enter");
    assert_eq!(
        h.model().unwrap().tab_index(),
        0,
        "a changed answer is saved in place"
    );
    h.press("tab").press("tab").press("enter");
    let answer = &h.result().expect("submitted").details.answers["one"];
    assert_eq!(answer.labels, ["Alpha", "Gamma!"]);
}

/// Issue 42: Tab in an editor holding text tried a path completion even after a space, where there
/// is nothing to complete, and did nothing else. With no path word before the caret it goes to the
/// next tab (saving the draft), as it does in an empty editor; the footer says which.
#[test]
fn tab_in_an_editor_completes_a_path_word_or_goes_to_the_next_tab() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    let mut h = Harness::with_files(TWO, dir.path(), 100, 24).unwrap();
    h.press("end").press("enter").type_text("see sr");
    assert!(
        h.screen_text().contains("Tab complete"),
        "{}",
        h.screen_text()
    );
    h.press("tab");
    assert_eq!(h.model().unwrap().editor().unwrap().text(), "see src/");
    h.type_text(" then ");
    assert!(
        h.screen_text().contains("Tab next tab"),
        "{}",
        h.screen_text()
    );
    h.press("tab");
    assert_eq!(h.model().unwrap().tab_index(), 1, "on the next question");
    h.press("shift+tab");
    assert_eq!(
        h.model().unwrap().answer(0).custom_text.as_deref(),
        Some("see src/ then "),
        "the draft was saved"
    );
}

/// Issue 39: the form hides to show what is above it (the conversation, in pi), and comes back
/// with everything as it was. While hidden, keys other than the hide key and dismiss do nothing,
/// so nothing is answered unseen.
#[test]
fn the_form_hides_to_one_line_and_comes_back_as_it_was() {
    let mut h = Harness::new(TWO, 100, 24).unwrap();
    h.press("down");
    // On its own terminal nothing of another program is above the form: the key works, the
    // footer names it only inside a host (tests/embed.rs).
    assert!(
        !h.screen_text().contains("Ctrl+] hide"),
        "{}",
        h.screen_text()
    );
    h.press("ctrl+]");
    let screen = h.screen();
    let shown: Vec<&String> = screen.iter().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(shown.len(), 1, "{screen:#?}");
    assert_eq!(shown[0].trim(), "Demo (hidden) · Ctrl+] show");
    h.press("enter").press("1").press("tab");
    assert_eq!(
        h.model().unwrap().tab_index(),
        0,
        "nothing answered while hidden"
    );
    assert!(h.model().unwrap().answer(0).selected.is_empty());
    h.press("ctrl+]");
    assert!(
        h.screen_text().contains("First question?"),
        "{}",
        h.screen_text()
    );
    assert_eq!(h.model().unwrap().cursor(0), 1, "the cursor where it was");
    // The byte a legacy terminal sends for Ctrl+] (0x1d) is the same key.
    h.send_bytes(b"\x1d");
    assert!(!h.screen_text().contains("First question?"));
}
