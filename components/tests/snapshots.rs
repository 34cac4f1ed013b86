//! Snapshot tests of every component at 40, 100 and 200 columns, including CJK, emoji and very
//! long labels. The snapshots are committed; a change in rendering shows up as a diff.

use std::sync::Arc;

use pi_ask_components::text::buffer_rows;
use pi_ask_components::{
    Editor, Footer, OptionList, OptionListState, OptionRow, PreviewPane, ReviewEntry, ReviewLine,
    ReviewTab, SettingsItem, SettingsModal, SettingsNotice, TabBar, TabItem,
};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

const WIDTHS: [u16; 3] = [40, 100, 200];

/// The buffer as text, trailing blank rows dropped.
fn text(buf: &Buffer) -> String {
    let mut rows = buffer_rows(buf);
    while rows.last().is_some_and(String::is_empty) {
        rows.pop();
    }
    rows.join("\n")
}

fn render(w: u16, h: u16, draw: impl FnOnce(Rect, &mut Buffer)) -> String {
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    draw(area, &mut buf);
    text(&buf)
}

fn rows() -> Arc<Vec<OptionRow>> {
    Arc::new(vec![
        OptionRow { label: "Move fast".into(), description: Some("Optimize for the quickest path.".into()), recommended: true },
        OptionRow { label: "日本語のラベル（とても長い説明付き）".into(), description: Some("説明文も日本語で書かれています。".into()), recommended: false },
        OptionRow { label: "Emoji 🎉 and family 👨‍👩‍👧 and café".into(), description: None, recommended: false },
        OptionRow {
            label: "A very long label that keeps going well past the edge of a narrow terminal so it must wrap onto following lines".into(),
            description: Some("And a description that is also quite long, to show how descriptions wrap under their option.".into()),
            recommended: true,
        },
        OptionRow { label: "Type your own".into(), description: None, recommended: false },
    ])
}

#[test]
fn tab_bar() {
    for w in WIDTHS {
        let tabs = (1..=6)
            .map(|i| TabItem {
                label: format!("Question {i}"),
                answered: i % 2 == 0,
                required: i == 3 || i == 4,
            })
            .collect();
        let mut bar = TabBar::new(tabs, 3);
        let cjk = TabBar::new(
            vec![
                TabItem {
                    label: "言語".into(),
                    answered: true,
                    required: false,
                },
                TabItem {
                    label: "🎉 Party".into(),
                    answered: false,
                    required: false,
                },
            ],
            2,
        );
        let out = render(w, 3, |a, b| {
            bar.render(Rect::new(0, 0, a.width, 1), b);
            let mut c = cjk;
            c.render(Rect::new(0, 2, a.width, 1), b);
        });
        insta::assert_snapshot!(format!("tab_bar_{w}"), out);
    }
}

#[test]
fn option_list_single_and_multi() {
    for w in WIDTHS {
        let mut single = OptionList::new(rows());
        single.state = OptionListState {
            cursor: 1,
            selected: vec![0],
            notes: vec![(0, "Team knows this well".into())],
            ..Default::default()
        };
        let mut multi = OptionList::new(rows());
        multi.state = OptionListState {
            cursor: 4,
            checkboxes: true,
            selected: vec![2, 4],
            texts: vec![(4, "Something else entirely".into())],
            ..Default::default()
        };
        let out = render(w, 40, |a, b| {
            single.render(Rect::new(0, 0, a.width, 20), b);
            multi.render(Rect::new(0, 20, a.width, 20), b);
        });
        insta::assert_snapshot!(format!("option_list_{w}"), out);
    }
}

#[test]
fn option_list_scrolls_a_long_list_and_reserves_an_editor_slot() {
    for w in WIDTHS {
        let many: Vec<OptionRow> = (1..=300)
            .map(|i| OptionRow {
                label: format!("Option {i:03}"),
                description: Some(format!("Description {i:03}")),
                recommended: i == 42,
            })
            .collect();
        let mut list = OptionList::new(Arc::new(many));
        list.state = OptionListState {
            cursor: 41,
            editor: Some((41, 2)),
            ..Default::default()
        };
        let mut slot = None;
        let out = render(w, 12, |a, b| slot = list.render(a, b));
        assert_eq!(
            slot,
            Some(Rect::new(6, 9, w - 6, 2)),
            "the slot sits under the cursor row's label (`❯ 42. `), above the more marker"
        );
        insta::assert_snapshot!(format!("option_list_scrolled_{w}"), out);
    }
}

#[test]
fn preview_pane() {
    for w in WIDTHS {
        let mut pane = PreviewPane::new(
            "Compact 日本語",
            Some("Dense controls, fewer scrolls.".into()),
            Some("┌ Settings ─────┐\n│ Theme [dark]  │\n└───────────────┘\n\n  indented   spacing kept 🎉".into()),
        );
        let mut empty = PreviewPane::new("No preview", None, None);
        let out = render(w, 18, |a, b| {
            pane.render(Rect::new(0, 0, a.width, 12), b);
            empty.render(Rect::new(0, 12, a.width, 6), b);
        });
        insta::assert_snapshot!(format!("preview_pane_{w}"), out);
    }
}

/// A preview far longer than anyone pages through is laid out only to `MAX_PREVIEW_LINES`:
/// its end says so, and the scroll stops there.
#[test]
fn a_preview_past_the_line_cap_ends_with_a_note_and_scrolls_no_further() {
    use pi_ask_components::preview_pane::{MAX_PREVIEW_LINES, PREVIEW_CUT_TEXT};
    let preview: String = (0..MAX_PREVIEW_LINES + 500)
        .map(|i| format!("line {i}\n"))
        .collect();
    let mut pane = PreviewPane::new("Long", None, Some(preview));
    pane.scroll = u16::MAX;
    let out = render(60, 8, |a, b| pane.render(a, b));
    assert!(out.contains(PREVIEW_CUT_TEXT), "{out}");
    assert!(
        out.contains(&format!("line {}", MAX_PREVIEW_LINES - 1)),
        "{out}"
    );
    assert!(
        !out.contains(&format!("line {}", MAX_PREVIEW_LINES)),
        "{out}"
    );
    // Compact layout (the preview alone): the cap's lines plus the note, 6 rows shown.
    assert_eq!(pane.max_scroll() as usize, MAX_PREVIEW_LINES + 1 - 6);
}

#[test]
fn editor() {
    for w in WIDTHS {
        let mut empty = Editor::new("", "Type answer...");
        let mut text = Editor::new(
            "first line\nsecond line with 日本語 and 🎉 that goes on for a while to wrap at forty",
            "Add a note...",
        );
        let h = text.height(w);
        let out = render(w, 1 + h + 1, |a, b| {
            empty.render(Rect::new(0, 0, a.width, 1), b);
            text.render(Rect::new(0, 2, a.width, h), b);
        });
        assert!(text.cursor_position().is_some());
        insta::assert_snapshot!(format!("editor_{w}"), out);
    }
}

#[test]
fn review_tab() {
    for w in WIDTHS {
        let mut review = ReviewTab {
            entries: vec![
                ReviewEntry {
                    label: "Single".into(),
                    lines: vec![
                        ReviewLine::Note("Prefer speed".into()),
                        ReviewLine::Answer {
                            text: "Move fast".into(),
                            custom: false,
                        },
                    ],
                },
                ReviewEntry {
                    label: "Multi 多".into(),
                    lines: vec![
                        ReviewLine::Answer {
                            text: "UX notes".into(),
                            custom: false,
                        },
                        ReviewLine::Note("🎉 great".into()),
                        ReviewLine::Answer {
                            text: "My own answer".into(),
                            custom: false,
                        },
                        ReviewLine::OptionNote {
                            option: "Best practices".into(),
                            note: "maybe later".into(),
                        },
                    ],
                },
                ReviewEntry {
                    label: "Preview".into(),
                    lines: vec![ReviewLine::Unanswered],
                },
                ReviewEntry {
                    label: "Deadline".into(),
                    lines: vec![ReviewLine::UnansweredRequired],
                },
            ],
            selected: 1,
            hint: Some("Press 2 again to Elaborate.".into()),
            ..ReviewTab::default()
        };
        let out = render(w, 20, |a, b| review.render(a, b));
        insta::assert_snapshot!(format!("review_tab_{w}"), out);
    }
}

#[test]
fn settings_modal() {
    for w in WIDTHS {
        let toggle = |label: &str, on: bool| SettingsItem::Toggle {
            label: label.into(),
            on,
            description: format!("What {label} does."),
        };
        let mut modal = SettingsModal {
            title: "pi-ask".into(),
            path: "/home/someone/.pi/agent/extensions/pi-ask.toml".into(),
            items: vec![
                SettingsItem::Section("Live settings".into()),
                toggle("Auto-submit when answered without notes", false),
                toggle("Confirm dismiss when dirty", true),
                SettingsItem::Section("Defaults for future asks".into()),
                toggle("Present single-select as multi-select", false),
                SettingsItem::Section("Actions".into()),
                SettingsItem::Reset {
                    armed: true,
                    description: "Reset everything. Press twice quickly to confirm.".into(),
                },
            ],
            focus: 1,
            notice: Some(SettingsNotice::Error("Unable to save ask config.".into())),
            footer: "Enter / Space to change · Esc / Ctrl+C / ? to close".into(),
            ..SettingsModal::default()
        };
        let out = render(w, 30, |a, b| modal.render(a, b));
        insta::assert_snapshot!(format!("settings_modal_{w}"), out);
    }
}

/// The original's footer hints for a multi question.
fn multi_hints() -> Vec<Vec<String>> {
    vec![
        [
            "Space toggle",
            "t question type",
            "Enter continue",
            "N/Shift+N note",
            "Esc dismiss",
            "? settings",
        ]
        .map(String::from)
        .to_vec(),
    ]
}

#[test]
fn footer() {
    for w in WIDTHS {
        let mut footer = Footer {
            notice: Some(
                "Unsaved ask answers or drafts. Press cancel/dismiss again to discard.".into(),
            ),
            hints: multi_hints(),
            ..Footer::default()
        };
        let h = footer.height(w);
        let out = render(w, h, |a, b| footer.render(a, b));
        insta::assert_snapshot!(format!("footer_{w}"), out);
    }
}

#[test]
fn each_hint_group_starts_a_line_of_its_own_and_empty_hints_are_skipped() {
    let footer = Footer {
        hints: vec![
            vec!["Enter submit".into(), String::new(), "Esc close".into()],
            vec!["Ctrl+W delete word".into()],
            vec![],
        ],
        ..Footer::default()
    };
    assert_eq!(
        footer.hint_lines(80),
        [" Enter submit · Esc close", " Ctrl+W delete word"]
    );
}

#[test]
fn footer_wraps_hints_at_chunk_boundaries_with_every_line_indented() {
    let footer = Footer {
        hints: multi_hints(),
        ..Footer::default()
    };
    assert_eq!(
        footer.hint_lines(26),
        [
            " Space toggle",
            " t question type",
            " Enter continue",
            " N/Shift+N note",
            " Esc dismiss · ? settings"
        ]
    );
    let footer = Footer {
        hints: vec![
            [
                "Enter confirm",
                "N/Shift+N note",
                "Esc dismiss",
                "? settings",
            ]
            .map(String::from)
            .to_vec(),
        ],
        ..Footer::default()
    };
    assert_eq!(
        footer.hint_lines(22),
        [
            " Enter confirm",
            " N/Shift+N note",
            " Esc dismiss",
            " ? settings"
        ]
    );
}

#[test]
fn tab_strip_keeps_the_active_tab_visible_at_narrow_widths() {
    let tabs: Vec<TabItem> = ["One", "Two", "Three", "Four", "Five"]
        .iter()
        .map(|l| TabItem {
            label: (*l).into(),
            answered: false,
            required: false,
        })
        .collect();
    let line =
        |w: u16, active: usize| render(w, 1, |a, b| TabBar::new(tabs.clone(), active).render(a, b));
    assert_eq!(line(28, 2), " ←  ☐ Three   ☐ Four  →");
    assert_eq!(line(30, 2), " ←  ☐ Three   ☐ Four  →");
    assert_eq!(line(31, 2), " ←  ☐ Two   ☐ Three   ☐ Four  →");
    assert_eq!(line(24, 5), " ←  ☐ Five   ≡ Review  →");
    assert_eq!(line(22, 5), " ←  ≡ Review  →");
}
