//! Every component as a tui-realm component: `perform` then `state`, attributes set with `attr`
//! and read back with `query`, and rendering through `Component::view` (tui-realm's own
//! `render_to_string`), with the editor's caret placed only when focused.

use std::sync::Arc;

use pi_ask_components::{
    Editor, Footer, OptionList, OptionRow, PreviewPane, ReviewTab, SettingsItem, SettingsModal,
    TabBar, TabItem,
};
use tuirealm::command::{Cmd, CmdResult, Direction, Position};
use tuirealm::component::Component;
use tuirealm::props::{AttrValue, Attribute, PropPayload, PropValue, QueryResult};
use tuirealm::ratatui::layout::Size;
use tuirealm::state::{State, StateValue};
use tuirealm::terminal::{TerminalAdapter, TestTerminalAdapter};
use tuirealm::testing::render_to_string;

fn rows() -> Arc<Vec<OptionRow>> {
    Arc::new(
        ["Postgres", "SQLite", "DuckDB"]
            .iter()
            .map(|l| OptionRow {
                label: (*l).into(),
                description: None,
                recommended: false,
            })
            .collect(),
    )
}

fn usize_state(c: &dyn Component) -> usize {
    match c.state() {
        State::Single(StateValue::Usize(n)) => n,
        other => panic!("not a row: {other:?}"),
    }
}

fn queried(c: &dyn Component, attr: Attribute) -> Option<AttrValue> {
    c.query(attr).map(|q| match q {
        QueryResult::Owned(v) => v,
        QueryResult::Borrowed(_) => panic!("components answer with owned values"),
    })
}

#[test]
fn option_list_moves_with_perform_and_reports_the_cursor() {
    let mut list = OptionList::new(rows());
    assert!(matches!(
        list.perform(Cmd::Move(Direction::Down)),
        CmdResult::Changed(State::Single(StateValue::Usize(1)))
    ));
    list.perform(Cmd::Move(Direction::Down));
    list.perform(Cmd::Move(Direction::Down));
    assert_eq!(usize_state(&list), 2, "clamped at the last row");
    list.attr(Attribute::Value, AttrValue::Length(0));
    assert_eq!(usize_state(&list), 0);
    list.attr(
        Attribute::Content,
        AttrValue::Payload(PropPayload::Vec(vec![
            PropValue::Str("One".into()),
            PropValue::Str("Two".into()),
        ])),
    );
    assert_eq!(list.rows().len(), 2);
    let screen = render_to_string(&mut list, Size::new(20, 3));
    assert!(screen.starts_with("❯ 1. One\n  2. Two"), "{screen}");
}

#[test]
fn focus_is_an_attribute_every_component_keeps() {
    let mut components: Vec<Box<dyn Component>> = vec![
        Box::new(OptionList::new(rows())),
        Box::new(PreviewPane::new("P", None, None)),
        Box::new(Editor::new("", "")),
        Box::new(ReviewTab::default()),
        Box::new(TabBar::new(Vec::new(), 0)),
        Box::new(SettingsModal::default()),
        Box::new(Footer::default()),
    ];
    for c in &mut components {
        c.attr(Attribute::Focus, AttrValue::Flag(true));
        assert_eq!(
            queried(c.as_ref(), Attribute::Focus),
            Some(AttrValue::Flag(true))
        );
        c.attr(Attribute::Focus, AttrValue::Flag(false));
        assert_eq!(
            queried(c.as_ref(), Attribute::Focus),
            Some(AttrValue::Flag(false))
        );
        c.attr(
            Attribute::Custom("host"),
            AttrValue::String("anything".into()),
        );
        assert_eq!(
            queried(c.as_ref(), Attribute::Custom("host")),
            Some(AttrValue::String("anything".into())),
            "an attribute a component does not use is kept for query"
        );
    }
}

#[test]
fn the_editor_edits_with_perform_and_places_its_caret_only_when_focused() {
    let mut editor = Editor::new("", "Add a note...");
    for c in "hi there".chars() {
        editor.perform(Cmd::Type(c));
    }
    editor.perform(Cmd::GoTo(Position::Begin));
    editor.perform(Cmd::Delete);
    editor.perform(Cmd::Cancel);
    assert_eq!(
        editor.state(),
        State::Single(StateValue::String("i there".into()))
    );
    assert_eq!(
        editor.perform(Cmd::Move(Direction::Right)),
        CmdResult::Visual,
        "the caret moved, the text did not"
    );
    editor.perform(Cmd::GoTo(Position::End));
    assert_eq!(
        editor.perform(Cmd::Move(Direction::Right)),
        CmdResult::NoChange,
        "nothing to move past"
    );
    assert_eq!(
        editor.perform(Cmd::Submit),
        CmdResult::Submit(State::Single(StateValue::String("i there".into())))
    );
    assert!(matches!(
        editor.perform(Cmd::Scroll(Direction::Up)),
        CmdResult::Invalid(_)
    ));
    editor.attr(Attribute::Text, AttrValue::String("new".into()));
    assert_eq!(
        queried(&editor, Attribute::Text),
        Some(AttrValue::String("new".into()))
    );

    let mut terminal = TestTerminalAdapter::new(Size::new(20, 1)).unwrap();
    terminal
        .raw_mut()
        .draw(|f| editor.view(f, f.area()))
        .unwrap();
    assert_eq!(
        terminal.raw_mut().get_cursor_position().unwrap(),
        tuirealm::ratatui::layout::Position::new(4, 0),
        "the caret is after `new`"
    );
    editor.attr(Attribute::Focus, AttrValue::Flag(false));
    editor.render(
        tuirealm::ratatui::layout::Rect::new(0, 0, 20, 1),
        &mut tuirealm::ratatui::buffer::Buffer::empty(tuirealm::ratatui::layout::Rect::new(
            0, 0, 20, 1,
        )),
    );
    assert_eq!(editor.cursor_position(), None, "no caret without focus");
}

#[test]
fn preview_pane_takes_its_content_as_attributes_and_scrolls() {
    let mut pane = PreviewPane::new("A", None, None);
    pane.attr(Attribute::Title, AttrValue::String("SQLite".into()));
    pane.attr(Attribute::Text, AttrValue::String("one\ntwo\nthree".into()));
    pane.attr(
        Attribute::Custom(pi_ask_components::preview_pane::DESCRIPTION),
        AttrValue::String("One file".into()),
    );
    let screen = render_to_string(&mut pane, Size::new(24, 8));
    assert!(
        screen.contains("SQLite") && screen.contains("One file"),
        "{screen}"
    );
    assert!(screen.contains("three"), "{screen}");
    assert_eq!(
        pane.perform(Cmd::Scroll(Direction::Down)),
        CmdResult::NoChange,
        "three lines fit: nothing to scroll"
    );
    let long: String = (1..=30).map(|n| format!("line {n}\n")).collect();
    pane.attr(Attribute::Text, AttrValue::String(long));
    render_to_string(&mut pane, Size::new(24, 8));
    assert_eq!(
        pane.perform(Cmd::Scroll(Direction::Down)),
        CmdResult::Changed(State::Single(StateValue::U16(1)))
    );
    assert_eq!(pane.state(), State::Single(StateValue::U16(1)));
    assert_eq!(
        queried(&pane, Attribute::Scroll),
        Some(AttrValue::Length(1))
    );
}

#[test]
fn review_tab_chooses_with_perform_and_reports_the_action() {
    let mut review = ReviewTab::default();
    review.perform(Cmd::Move(Direction::Down));
    assert_eq!(usize_state(&review), 1);
    review.attr(Attribute::Value, AttrValue::Length(2));
    assert_eq!(
        review.perform(Cmd::Move(Direction::Down)),
        CmdResult::NoChange,
        "Cancel is the last action"
    );
    assert_eq!(
        review.perform(Cmd::Submit),
        CmdResult::Submit(State::Single(StateValue::Usize(2))),
        "Submit says which action was chosen"
    );
    review.attr(Attribute::Text, AttrValue::String("Press 3 again".into()));
    let screen = render_to_string(&mut review, Size::new(30, 8));
    assert!(screen.contains("❯ 3. Cancel"), "{screen}");
    assert!(screen.contains("Press 3 again"), "{screen}");
}

#[test]
fn tab_bar_settings_modal_and_footer_answer_their_attributes() {
    let mut tabs = TabBar::new(
        vec![TabItem {
            label: "DB".into(),
            answered: false,
            required: false,
        }],
        0,
    );
    tabs.perform(Cmd::Move(Direction::Right));
    assert_eq!(queried(&tabs, Attribute::Value), Some(AttrValue::Length(1)));
    tabs.attr(Attribute::Value, AttrValue::Length(0));
    assert!(render_to_string(&mut tabs, Size::new(30, 1)).contains("DB"));

    let mut modal = SettingsModal {
        items: vec![SettingsItem::Reset {
            armed: false,
            description: "Reset".into(),
        }],
        ..SettingsModal::default()
    };
    modal.attr(Attribute::Title, AttrValue::String("my tool".into()));
    modal.attr(Attribute::Text, AttrValue::String("/etc/my.toml".into()));
    assert_eq!(
        queried(&modal, Attribute::Title),
        Some(AttrValue::String("my tool".into()))
    );
    let screen = render_to_string(&mut modal, Size::new(60, 14));
    assert!(
        screen.contains("my tool") && screen.contains("/etc/my.toml"),
        "{screen}"
    );

    let mut footer = Footer {
        hints: vec![vec!["Enter confirm".into()]],
        ..Footer::default()
    };
    footer.attr(Attribute::Text, AttrValue::String("Saved.".into()));
    let screen = render_to_string(&mut footer, Size::new(30, 4));
    assert!(
        screen.contains("Saved.") && screen.contains("Enter confirm"),
        "{screen}"
    );
}

/// Rich content reaches the option list by attribute, and setting it keeps what the person did.
#[test]
fn option_list_content_and_state_by_attribute_keep_the_cursor_and_choices() {
    use pi_ask_components::OptionListState;
    use pi_ask_components::option_list::TOGGLED;
    use pi_ask_components::realm::{attr, payload};

    let mut list = OptionList::new(rows());
    list.attr(
        Attribute::Custom(attr::STATE),
        payload(OptionListState {
            checkboxes: true,
            ..OptionListState::default()
        }),
    );
    list.perform(Cmd::Move(Direction::Down));
    assert_eq!(
        list.perform(Cmd::Toggle),
        CmdResult::Custom(TOGGLED, State::Vec(vec![StateValue::Usize(1)]))
    );
    let described = |label: &str, description: &str, recommended| OptionRow {
        label: label.into(),
        description: Some(description.into()),
        recommended,
    };
    let richer = vec![
        described("Postgres", "A server", true),
        described("SQLite", "One file", false),
        described("DuckDB", "Columnar", false),
        described("MySQL", "Also a server", false),
    ];
    list.attr(Attribute::Content, payload(richer.clone()));
    assert_eq!(usize_state(&list), 1, "the cursor stays where it was");
    let screen = render_to_string(&mut list, Size::new(40, 9));
    assert!(screen.contains("(recommended) | A server"), "{screen}");
    assert!(screen.contains("❯ 2. [x] SQLite"), "{screen}");
    assert_eq!(
        queried(&list, Attribute::Content),
        Some(payload(Arc::new(richer)))
    );

    // Plain labels keep the state too (they used to reset the list).
    list.attr(
        Attribute::Content,
        AttrValue::Payload(PropPayload::Vec(vec![PropValue::Str("Only".into())])),
    );
    assert_eq!(usize_state(&list), 0, "clamped to the one row left");
    let state = queried(&list, Attribute::Custom(attr::STATE));
    let Some(state) = state
        .as_ref()
        .and_then(pi_ask_components::realm::payload_ref::<OptionListState>)
    else {
        panic!("the state is answered back: {state:?}");
    };
    assert!(state.checkboxes);
    assert!(state.selected.is_empty(), "row 1 is gone, so is its choice");
    assert_eq!(
        list.perform(Cmd::Submit),
        CmdResult::Submit(State::Single(StateValue::Usize(0)))
    );
    assert_eq!(
        list.perform(Cmd::Custom("nothing")),
        CmdResult::Invalid(Cmd::Custom("nothing"))
    );
}

/// The theme is an attribute of every component, answered back by `query`.
#[test]
fn the_theme_is_an_attribute_of_every_component() {
    use pi_ask_components::Theme;
    use pi_ask_components::realm::{attr, payload, payload_ref};
    use pi_ask_components::theme::{ColorDepth, ThemeName};

    let light = Theme::new(ThemeName::Light, &[], ColorDepth::Ansi256);
    assert_ne!(light, Theme::default());
    let mut components: Vec<Box<dyn Component>> = vec![
        Box::new(OptionList::new(rows())),
        Box::new(PreviewPane::default()),
        Box::new(Editor::new("", "")),
        Box::new(ReviewTab::default()),
        Box::new(TabBar::default()),
        Box::new(SettingsModal::default()),
        Box::new(Footer::default()),
    ];
    for c in &mut components {
        c.attr(Attribute::Custom(attr::THEME), payload(light));
        let theme = queried(c.as_ref(), Attribute::Custom(attr::THEME));
        assert_eq!(theme.as_ref().and_then(payload_ref::<Theme>), Some(&light));
    }
}

/// The review's entries and its actions' labels, the tab bar's tabs and review label, the
/// settings modal's rows, notice and hints, the footer's hints: all by attribute.
#[test]
fn review_tabs_settings_and_footer_take_all_their_content_by_attribute() {
    use pi_ask_components::realm::{attr, payload};
    use pi_ask_components::{ReviewEntry, ReviewLine, SettingsNotice};

    let mut review = ReviewTab::default();
    review.perform(Cmd::Move(Direction::Down));
    let entries = vec![ReviewEntry {
        label: "Language".into(),
        lines: vec![
            ReviewLine::Answer {
                text: "Rust".into(),
                custom: false,
            },
            ReviewLine::Note("fast".into()),
        ],
    }];
    review.attr(Attribute::Content, payload(entries));
    let labels = ["Senden", "Erklären", "Abbrechen"].map(|l| PropValue::Str(l.into()));
    review.attr(
        Attribute::Custom(attr::ACTIONS),
        AttrValue::Payload(PropPayload::Vec(labels.into())),
    );
    let screen = render_to_string(&mut review, Size::new(30, 10));
    assert!(
        screen.contains("Language") && screen.contains("Rust"),
        "{screen}"
    );
    assert!(
        screen.contains("❯ 2. Erklären"),
        "the highlight stays: {screen}"
    );

    let mut tabs = TabBar::default();
    let tab = |label: &str, answered| TabItem {
        label: label.into(),
        answered,
        required: false,
    };
    tabs.attr(
        Attribute::Content,
        payload(vec![tab("Lang", true), tab("DB", false)]),
    );
    tabs.attr(
        Attribute::Custom(attr::REVIEW_LABEL),
        AttrValue::String("Prüfen".into()),
    );
    let screen = render_to_string(&mut tabs, Size::new(40, 1));
    assert!(
        screen.contains("☒ Lang") && screen.contains("☐ DB"),
        "{screen}"
    );
    assert!(screen.contains("Prüfen"), "{screen}");
    assert_eq!(
        tabs.perform(Cmd::Move(Direction::Left)),
        CmdResult::Changed(State::Single(StateValue::Usize(2))),
        "left from the first tab wraps to the review"
    );

    let mut settings = SettingsModal::default();
    settings.attr(
        Attribute::Content,
        payload(vec![
            SettingsItem::Section("Live".into()),
            SettingsItem::Toggle {
                label: "Show hints".into(),
                on: true,
                description: "Key hints in the footer.".into(),
            },
        ]),
    );
    settings.attr(
        Attribute::Custom(attr::NOTICE),
        payload(SettingsNotice::Error("Could not save".into())),
    );
    settings.attr(
        Attribute::Custom(attr::FOOTER),
        AttrValue::String("Enter toggle".into()),
    );
    let screen = render_to_string(&mut settings, Size::new(50, 16));
    for text in ["Show hints", "Could not save", "Enter toggle"] {
        assert!(screen.contains(text), "{text} in {screen}");
    }
    assert_eq!(
        settings.perform(Cmd::Move(Direction::Down)),
        CmdResult::NoChange,
        "one focusable row: nowhere to go"
    );
    settings.attr(
        Attribute::Custom(attr::NOTICE),
        AttrValue::Payload(PropPayload::None),
    );
    assert!(!render_to_string(&mut settings, Size::new(50, 16)).contains("Could not save"));

    let mut footer = Footer::default();
    footer.attr(
        Attribute::Content,
        AttrValue::Payload(PropPayload::Vec(vec![
            PropValue::Str("↑↓ select".into()),
            PropValue::Str("Enter confirm".into()),
        ])),
    );
    footer.attr(Attribute::Text, AttrValue::String("Saved.".into()));
    let screen = render_to_string(&mut footer, Size::new(40, 4));
    assert!(
        screen.contains("Saved.") && screen.contains("↑↓ select · Enter confirm"),
        "{screen}"
    );
    footer.attr(Attribute::Text, AttrValue::Payload(PropPayload::None));
    assert!(!render_to_string(&mut footer, Size::new(40, 4)).contains("Saved."));
}

#[test]
fn footer_hint_groups_are_an_attribute_and_one_group_reads_back_as_strings() {
    use pi_ask_components::realm::{payload, payload_ref};
    let mut footer = Footer::default();
    let groups = vec![
        vec!["Enter submit".to_owned(), "Esc close".to_owned()],
        vec!["Ctrl+W delete word".to_owned()],
    ];
    footer.attr(Attribute::Content, payload(groups.clone()));
    let back = queried(&footer, Attribute::Content).unwrap();
    assert_eq!(payload_ref::<Vec<Vec<String>>>(&back), Some(&groups));
    let screen = render_to_string(&mut footer, Size::new(40, 4));
    assert!(
        screen.contains("Enter submit · Esc close") && screen.contains("Ctrl+W delete word"),
        "{screen}"
    );
    let one = ["↑↓ select", "Enter confirm"].map(|h| PropValue::Str(h.into()));
    footer.attr(
        Attribute::Content,
        AttrValue::Payload(PropPayload::Vec(one.to_vec())),
    );
    assert_eq!(
        queried(&footer, Attribute::Content),
        Some(AttrValue::Payload(PropPayload::Vec(one.to_vec())))
    );
}

/// `realm::view_in` (how pi-ask draws every component but the editor, into a plain buffer) is
/// tui-realm's `view`: each component drawn through it at an offset area gives exactly the cells
/// a terminal frame gets when the component's `view` draws it, as an `Application` does.
#[test]
fn view_in_a_buffer_draws_what_view_draws_in_a_terminal_frame() {
    use pi_ask_components::realm::view_in;
    use pi_ask_components::{OptionListState, ReviewEntry, ReviewLine};
    use tuirealm::ratatui::buffer::Buffer;
    use tuirealm::ratatui::layout::Rect;

    let screen = Rect::new(0, 0, 50, 12);
    let area = Rect::new(3, 2, 40, 8);
    let check = |name: &str, component: &mut dyn Component| {
        let mut terminal =
            TestTerminalAdapter::new(Size::new(screen.width, screen.height)).unwrap();
        terminal
            .raw_mut()
            .draw(|f| component.view(f, area))
            .unwrap();
        let in_frame = terminal.raw_mut().backend().buffer().clone();
        let mut in_buffer = Buffer::empty(screen);
        view_in(component, area, &mut in_buffer);
        assert_eq!(in_buffer, in_frame, "{name}");
        assert!(
            (0..screen.height)
                .any(|y| (0..screen.width).any(|x| in_buffer[(x, y)].symbol() != " ")),
            "{name} drew something"
        );
    };

    let mut list = OptionList::new(rows());
    list.state = OptionListState {
        cursor: 1,
        checkboxes: true,
        selected: vec![0],
        notes: vec![(2, "maybe later".into())],
        ..OptionListState::default()
    };
    check("option list", &mut list);
    let mut pane = PreviewPane::new(
        "SQLite",
        Some("embedded".into()),
        Some("# Notes\n\n- one file\n- no server".into()),
    );
    check("preview pane", &mut pane);
    let mut review = ReviewTab {
        entries: vec![ReviewEntry {
            label: "Database".into(),
            lines: vec![ReviewLine::Answer {
                text: "SQLite".into(),
                custom: false,
            }],
        }],
        ..ReviewTab::default()
    };
    check("review tab", &mut review);
    let tab = |label: &str| TabItem {
        label: label.into(),
        answered: false,
        required: false,
    };
    check(
        "tab bar",
        &mut TabBar::new(vec![tab("Database"), tab("Cache")], 1),
    );
    let mut settings = SettingsModal {
        items: vec![SettingsItem::Toggle {
            label: "Show footer hints".into(),
            description: "Key hints under the form".into(),
            on: true,
        }],
        ..SettingsModal::default()
    };
    check("settings modal", &mut settings);
    let mut footer = Footer {
        hints: vec![vec!["↑↓ select".into(), "Enter confirm".into()]],
        ..Footer::default()
    };
    check("footer", &mut footer);
    check("editor", &mut Editor::new("draft answer", "Type here"));
}
