//! Style-aware snapshots: every component's focus and selection states, with each run of cells
//! written as `«style»text` where the style changes (theme token names for colours, then
//! modifiers). An active tab, the cursor row, the focused setting or the editor caret that lost
//! its style shows up as a diff even when the text stays the same.

use std::sync::Arc;

use pi_ask_components::styled::MODIFIER_WORDS;
use pi_ask_components::{
    Editor, Footer, OptionList, OptionListState, OptionRow, PreviewPane, ReviewEntry, ReviewLine,
    ReviewTab, SettingsItem, SettingsModal, SettingsNotice, TabBar, TabItem, Theme,
};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};

/// A colour by its theme token, so snapshots read as intent (`accent on selectedBg`).
fn token(color: Option<Color>, theme: &Theme) -> Option<&'static str> {
    let c = color.filter(|c| *c != Color::Reset)?;
    let named = [
        (theme.accent, "accent"),
        (theme.success, "success"),
        (theme.warning, "warning"),
        (theme.error, "error"),
        (theme.muted, "muted"),
        (theme.dim, "dim"),
        (theme.text, "text"),
        (theme.selected_bg, "selectedBg"),
        (theme.border, "border"),
        (theme.border_muted, "borderMuted"),
    ];
    Some(
        named
            .iter()
            .find(|(t, _)| *t == c)
            .map(|(_, n)| *n)
            .unwrap_or("other"),
    )
}

/// `(foreground, background and modifiers)` of a style, as words.
fn describe(style: Style, theme: &Theme) -> (String, String) {
    let fg = token(style.fg, theme).unwrap_or("").to_owned();
    let mut parts = Vec::new();
    if let Some(bg) = token(style.bg, theme) {
        parts.push(format!("on {bg}"));
    }
    for (m, name) in MODIFIER_WORDS {
        if style.add_modifier.contains(m) {
            parts.push(name.to_owned());
        }
    }
    (fg, parts.join(" "))
}

/// Each row as text with `«style»` marks where the style changes.
fn styled(buf: &Buffer) -> String {
    let theme = Theme::default();
    pi_ask_components::styled::styled(buf, |style| describe(style, &theme))
}

fn render(w: u16, h: u16, draw: impl FnOnce(Rect, &mut Buffer)) -> String {
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    draw(area, &mut buf);
    styled(&buf)
}

fn rows() -> Arc<Vec<OptionRow>> {
    Arc::new(vec![
        OptionRow {
            label: "Move fast".into(),
            description: Some("Quickest path.".into()),
            recommended: true,
        },
        OptionRow {
            label: "Higher quality".into(),
            description: None,
            recommended: false,
        },
        OptionRow {
            label: "Type your own".into(),
            description: None,
            recommended: false,
        },
    ])
}

#[test]
fn tab_bar_active_answered_and_unanswered_tabs() {
    let tabs = vec![
        TabItem {
            label: "One".into(),
            answered: true,
            required: false,
        },
        TabItem {
            label: "Two".into(),
            answered: false,
            required: false,
        },
    ];
    for active in 0..=2 {
        let mut bar = TabBar::new(tabs.clone(), active);
        insta::assert_snapshot!(
            format!("styled_tab_bar_active_{active}"),
            render(60, 1, |a, b| bar.render(a, b))
        );
    }
}

#[test]
fn option_list_cursor_selection_checkboxes_and_notes() {
    let mut list = OptionList::new(rows());
    list.state = OptionListState {
        cursor: 1,
        selected: vec![0],
        notes: vec![(0, "why not".into())],
        custom_row: Some(2),
        ..Default::default()
    };
    insta::assert_snapshot!(
        "styled_option_list_single",
        render(50, 8, |a, b| {
            list.render(a, b);
        })
    );
    list.state.checkboxes = true;
    list.state.texts = vec![(2, "mine".into())];
    list.state.selected = vec![0, 2];
    list.state.cursor = 2;
    insta::assert_snapshot!(
        "styled_option_list_multi",
        render(50, 8, |a, b| {
            list.render(a, b);
        })
    );
}

#[test]
fn editor_text_placeholder_and_caret() {
    let mut empty = Editor::new("", "Type answer...");
    insta::assert_snapshot!(
        "styled_editor_empty",
        render(30, 1, |a, b| empty.render(a, b))
    );
    let mut typed = Editor::new("hello", "Type answer...");
    insta::assert_snapshot!(
        "styled_editor_typed",
        render(30, 1, |a, b| typed.render(a, b))
    );
    assert_eq!(
        typed.cursor_position(),
        Some(ratatui::layout::Position::new(6, 0))
    );
}

#[test]
fn review_tab_highlighted_action_and_pending_hint() {
    for selected in 0..3 {
        let mut review = ReviewTab {
            entries: vec![ReviewEntry {
                label: "One".into(),
                lines: vec![
                    ReviewLine::Note("careful".into()),
                    ReviewLine::Answer {
                        text: "Move fast".into(),
                        custom: false,
                    },
                ],
            }],
            selected,
            hint: (selected == 1).then(|| "Press 2 again to Elaborate.".into()),
            ..ReviewTab::default()
        };
        insta::assert_snapshot!(
            format!("styled_review_{selected}"),
            render(40, 12, |a, b| review.render(a, b))
        );
    }
}

#[test]
fn settings_modal_focused_toggle_reset_and_error() {
    let items = vec![
        SettingsItem::Section("Live settings".into()),
        SettingsItem::Toggle {
            label: "Notifications".into(),
            on: true,
            description: "One bell.".into(),
        },
        SettingsItem::Toggle {
            label: "Show footer hints".into(),
            on: false,
            description: "Hints.".into(),
        },
        SettingsItem::Reset {
            armed: false,
            description: "Reset all.".into(),
        },
    ];
    for focus in 0..3 {
        let mut modal = SettingsModal {
            title: "pi-ask".into(),
            path: "/home/u/.pi/agent/extensions/pi-ask.toml".into(),
            items: items.clone(),
            focus,
            notice: (focus == 2).then(|| SettingsNotice::Error("Unable to save.".into())),
            footer: "Enter / Space to change · Esc to close".into(),
            theme: Theme::default(),
            ..SettingsModal::default()
        };
        insta::assert_snapshot!(
            format!("styled_settings_focus_{focus}"),
            render(50, 20, |a, b| modal.render(a, b))
        );
    }
}

#[test]
fn footer_notice_and_hints_and_preview_pane() {
    let mut footer = Footer {
        notice: Some("Unsaved ask answers or drafts.".into()),
        hints: vec![vec!["Enter confirm".into(), "Esc dismiss".into()]],
        theme: Theme::default(),
        ..Footer::default()
    };
    insta::assert_snapshot!("styled_footer", render(40, 4, |a, b| footer.render(a, b)));
    let mut pane = PreviewPane::new(
        "Compact",
        Some("Dense.".into()),
        Some("line one\nline two\nline three".into()),
    );
    insta::assert_snapshot!("styled_preview", render(30, 8, |a, b| pane.render(a, b)));
    let mut short = PreviewPane::new(
        "Compact",
        Some("Dense.".into()),
        Some("1\n2\n3\n4\n5\n6".into()),
    );
    insta::assert_snapshot!(
        "styled_preview_scrolling",
        render(30, 5, |a, b| short.render(a, b))
    );
}
