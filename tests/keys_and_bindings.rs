//! Key ids and the binding table: parsing, display, event matching, resolution, validation.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers};
use pi_ask::keymap::{
    Action, BindingTable, Context, EditorKind, Focus, KeymapSource, Keymaps, PopupAction,
    PopupFocus, Resolution, keymaps_from_value,
};
use pi_ask::keys::{KeyId, KeyIdError, Mods, all_plain_keys};
use pi_ask::model::{Intent, Msg, SettingsIntent};
use pi_ask_components::EditOp;
use serde_json::json;

fn key(id: &str) -> KeyId {
    KeyId::parse(id).unwrap_or_else(|e| panic!("{id}: {e}"))
}

fn event(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
    KeyEvent {
        code,
        modifiers,
        kind: KeyEventKind::Press,
        state: KeyEventState::NONE,
    }
}

#[test]
fn every_default_key_id_round_trips() {
    for action in Action::ALL {
        for id in action.default_keys() {
            let k = key(id);
            assert_eq!(k.to_string(), *id, "{action}");
            assert_eq!(key(&k.to_string()), k);
        }
    }
}

#[test]
fn parse_of_display_is_identity_for_every_key_and_modifier_set() {
    for base in all_plain_keys() {
        for bits in 0..16u8 {
            let k = KeyId {
                mods: Mods {
                    ctrl: bits & 1 != 0,
                    shift: bits & 2 != 0,
                    alt: bits & 4 != 0,
                    super_: bits & 8 != 0,
                },
                base: base.base,
            };
            assert_eq!(KeyId::parse(&k.to_string()), Ok(k), "{k}");
        }
    }
}

#[test]
fn aliases_and_case_are_normalized() {
    for (given, canonical) in [
        ("escape", "esc"),
        ("Return", "enter"),
        ("control+c", "ctrl+c"),
        ("Shift+N", "shift+n"),
        ("pageup", "pageUp"),
        ("PgDown", "pageDown"),
        ("alt+shift+ctrl+x", "ctrl+shift+alt+x"),
        ("cmd+k", "super+k"),
        ("option+left", "alt+left"),
        ("spacebar", "space"),
        ("del", "delete"),
        ("ArrowUp", "up"),
        (" ctrl+k ", "ctrl+k"),
        ("+", "+"),
        ("ctrl++", "ctrl++"),
        ("F12", "f12"),
    ] {
        assert_eq!(key(given).to_string(), canonical, "{given}");
    }
}

#[test]
fn bad_key_ids_give_clear_errors() {
    assert_eq!(KeyId::parse("  "), Err(KeyIdError::Empty));
    assert_eq!(
        KeyId::parse("ctrl+"),
        Err(KeyIdError::DanglingPlus("ctrl+".into()))
    );
    assert_eq!(
        KeyId::parse("ctrl++k"),
        Err(KeyIdError::DanglingPlus("ctrl++k".into()))
    );
    assert_eq!(
        KeyId::parse("ctrl+ctrl+k"),
        Err(KeyIdError::RepeatedModifier("ctrl".into()))
    );
    assert_eq!(
        KeyId::parse("hyper+k"),
        Err(KeyIdError::UnsupportedModifier("hyper".into()))
    );
    assert_eq!(
        KeyId::parse("ctrl+banana"),
        Err(KeyIdError::UnsupportedKey("banana".into()))
    );
    assert_eq!(
        KeyId::parse("f13"),
        Err(KeyIdError::UnsupportedKey("f13".into()))
    );
    assert_eq!(KeyId::parse("ctrl+k").unwrap().to_string(), "ctrl+k");
    assert_eq!(
        KeyIdError::UnsupportedKey("x".into()).to_string(),
        "unsupported key x"
    );
}

#[test]
fn shift_n_matches_legacy_and_kitty_encodings() {
    let shift_n = key("shift+n");
    // Legacy: the terminal sends `N`; crossterm may or may not add the shift flag.
    assert_eq!(
        KeyId::from_event(&event(KeyCode::Char('N'), KeyModifiers::SHIFT)),
        Some(shift_n)
    );
    assert_eq!(
        KeyId::from_event(&event(KeyCode::Char('N'), KeyModifiers::NONE)),
        Some(shift_n)
    );
    // Kitty: `CSI 110;2u` is the base key `n` with the shift flag.
    assert_eq!(
        KeyId::from_event(&event(KeyCode::Char('n'), KeyModifiers::SHIFT)),
        Some(shift_n)
    );
    assert_eq!(
        KeyId::from_event(&event(KeyCode::Char('n'), KeyModifiers::NONE)),
        Some(key("n"))
    );
}

#[test]
fn terminal_events_map_to_key_ids() {
    let cases = [
        (event(KeyCode::BackTab, KeyModifiers::SHIFT), "shift+tab"),
        (event(KeyCode::BackTab, KeyModifiers::NONE), "shift+tab"),
        (event(KeyCode::Char('?'), KeyModifiers::SHIFT), "?"),
        (event(KeyCode::Char('c'), KeyModifiers::CONTROL), "ctrl+c"),
        (event(KeyCode::Char(' '), KeyModifiers::NONE), "space"),
        (event(KeyCode::Char('['), KeyModifiers::CONTROL), "ctrl+["),
        (event(KeyCode::Enter, KeyModifiers::SHIFT), "shift+enter"),
        (event(KeyCode::Char('x'), KeyModifiers::ALT), "alt+x"),
        (event(KeyCode::Char('k'), KeyModifiers::SUPER), "super+k"),
        (event(KeyCode::PageDown, KeyModifiers::NONE), "pageDown"),
        (event(KeyCode::F(5), KeyModifiers::NONE), "f5"),
    ];
    for (ev, id) in cases {
        assert_eq!(KeyId::from_event(&ev), Some(key(id)), "{ev:?}");
    }
    let release = KeyEvent {
        kind: KeyEventKind::Release,
        ..event(KeyCode::Char('a'), KeyModifiers::NONE)
    };
    assert_eq!(
        KeyId::from_event(&release),
        None,
        "releases are not key presses"
    );
}

#[test]
fn key_labels_follow_the_hint_format() {
    for (id, label) in [
        ("ctrl+k", "Ctrl+K"),
        ("shift+tab", "Shift+Tab"),
        ("q", "Q"),
        ("up", "↑"),
        ("pageUp", "pageUp"),
        ("esc", "Esc"),
        ("?", "?"),
    ] {
        assert_eq!(key(id).label(), label);
    }
}

fn main_focus() -> Focus {
    Focus::Main
}

fn editor(empty: bool) -> Focus {
    Focus::Editor {
        kind: EditorKind::Answer,
        empty,
        popup: PopupFocus::Closed,
    }
}

fn note(empty: bool) -> Focus {
    Focus::Editor {
        kind: EditorKind::Note,
        empty,
        popup: PopupFocus::Closed,
    }
}

#[test]
fn empty_editors_use_arrows_and_tab_for_navigation() {
    let t = BindingTable::default();
    for focus in [editor(true), note(true)] {
        assert_eq!(
            t.resolve(focus, &key("up")),
            Resolution::Msg(Msg::Intent(Intent::PreviousOption))
        );
        assert_eq!(
            t.resolve(focus, &key("down")),
            Resolution::Msg(Msg::Intent(Intent::NextOption))
        );
        assert_eq!(
            t.resolve(focus, &key("right")),
            Resolution::Msg(Msg::Intent(Intent::NextTab))
        );
        assert_eq!(
            t.resolve(focus, &key("left")),
            Resolution::Msg(Msg::Intent(Intent::PreviousTab))
        );
        assert_eq!(
            t.resolve(focus, &key("tab")),
            Resolution::Msg(Msg::Intent(Intent::NextTab))
        );
        assert_eq!(
            t.resolve(focus, &key("shift+tab")),
            Resolution::Msg(Msg::Intent(Intent::PreviousTab))
        );
    }
}

#[test]
fn non_empty_editors_keep_arrows_tab_and_question_mark() {
    let t = BindingTable::default();
    for focus in [editor(false), note(false)] {
        let edit = |op| Resolution::Msg(Msg::Edit(op));
        for (k, meaning) in [
            ("up", edit(EditOp::CursorUp)),
            ("down", edit(EditOp::CursorDown)),
            ("left", edit(EditOp::CursorLeft)),
            ("right", edit(EditOp::CursorRight)),
            ("shift+tab", Resolution::Ignored),
            ("?", edit(EditOp::Insert("?".into()))),
            ("x", edit(EditOp::Insert("x".into()))),
            ("1", edit(EditOp::Insert("1".into()))),
        ] {
            assert_eq!(t.resolve(focus, &key(k)), meaning, "{k}");
        }
    }
}

#[test]
fn tab_in_a_non_empty_editor_completes_the_path_word() {
    let t = BindingTable::default();
    assert_eq!(
        t.resolve(editor(false), &key("tab")),
        Resolution::Msg(Msg::Popup(PopupAction::Complete))
    );
    assert_eq!(
        t.resolve(editor(true), &key("tab")),
        Resolution::Msg(Msg::Intent(Intent::NextTab)),
        "an empty editor navigates"
    );
}

#[test]
fn ctrl_c_dismisses_from_every_mode_and_question_mark_opens_settings_outside_non_empty_editors() {
    let t = BindingTable::default();
    for focus in [main_focus(), editor(true), editor(false), note(false)] {
        assert_eq!(
            t.resolve(focus, &key("ctrl+c")),
            Resolution::Msg(Msg::Intent(Intent::Dismiss))
        );
    }
    assert_eq!(
        t.resolve(main_focus(), &key("?")),
        Resolution::Msg(Msg::Settings(SettingsIntent::Open))
    );
    assert_eq!(
        t.resolve(editor(true), &key("?")),
        Resolution::Msg(Msg::Settings(SettingsIntent::Open))
    );
}

#[test]
fn main_context_maps_actions_and_fixed_digits() {
    let t = BindingTable::default();
    let cases = [
        ("t", Msg::Intent(Intent::ChangeQuestionType)),
        ("n", Msg::Intent(Intent::OptionNote)),
        ("shift+n", Msg::Intent(Intent::QuestionNote)),
        ("enter", Msg::Intent(Intent::Confirm)),
        ("esc", Msg::Intent(Intent::Cancel)),
        ("space", Msg::Intent(Intent::Toggle)),
        ("1", Msg::Intent(Intent::Number(1))),
        ("9", Msg::Intent(Intent::Number(9))),
    ];
    for (k, msg) in cases {
        assert_eq!(
            t.resolve(main_focus(), &key(k)),
            Resolution::Msg(msg),
            "{k}"
        );
    }
    assert_eq!(t.resolve(main_focus(), &key("0")), Resolution::Ignored);
    assert_eq!(t.resolve(main_focus(), &key("z")), Resolution::Ignored);
}

#[test]
fn editor_submit_and_close_use_their_own_contexts() {
    let t = BindingTable::default();
    assert_eq!(
        t.resolve(editor(false), &key("enter")),
        Resolution::Msg(Msg::Intent(Intent::EditorSubmit))
    );
    assert_eq!(
        t.resolve(note(false), &key("esc")),
        Resolution::Msg(Msg::Intent(Intent::EditorClose))
    );
}

#[test]
fn settings_modal_blocks_every_other_context() {
    let t = BindingTable::default();
    let modal = Focus::SettingsModal;
    assert_eq!(
        t.resolve(modal, &key("ctrl+c")),
        Resolution::Msg(Msg::Settings(SettingsIntent::Close))
    );
    assert_eq!(
        t.resolve(modal, &key("?")),
        Resolution::Msg(Msg::Settings(SettingsIntent::Close))
    );
    assert_eq!(
        t.resolve(modal, &key("space")),
        Resolution::Msg(Msg::Settings(SettingsIntent::Toggle))
    );
    assert_eq!(
        t.resolve(modal, &key("down")),
        Resolution::Msg(Msg::Settings(SettingsIntent::Next))
    );
    assert_eq!(t.resolve(modal, &key("1")), Resolution::Ignored);
    assert_eq!(t.resolve(modal, &key("tab")), Resolution::Ignored);
}

#[test]
fn the_popup_sees_keys_first_when_open() {
    let t = BindingTable::default();
    let popup = Focus::Editor {
        kind: EditorKind::Answer,
        empty: false,
        popup: PopupFocus::Suggestions,
    };
    assert_eq!(
        t.resolve(popup, &key("enter")),
        Resolution::Msg(Msg::Popup(PopupAction::Accept))
    );
    assert_eq!(
        t.resolve(popup, &key("tab")),
        Resolution::Msg(Msg::Popup(PopupAction::Complete))
    );
    assert_eq!(
        t.resolve(popup, &key("esc")),
        Resolution::Msg(Msg::Popup(PopupAction::Close))
    );
    assert_eq!(
        t.resolve(popup, &key("down")),
        Resolution::Msg(Msg::Popup(PopupAction::Next))
    );
    assert_eq!(
        t.resolve(popup, &key("ctrl+c")),
        Resolution::Msg(Msg::Intent(Intent::Dismiss))
    );
}

#[test]
fn remapped_keys_show_in_hints_and_resolve() {
    let keymaps = keymaps_from_value(Some(&json!({ "main": { "changeQuestionType": ["ctrl+t"] }, "editor": { "submit": "ctrl+k" } })), KeymapSource::Toml).unwrap();
    let t = BindingTable::new(keymaps);
    assert_eq!(
        t.resolve(main_focus(), &key("ctrl+t")),
        Resolution::Msg(Msg::Intent(Intent::ChangeQuestionType))
    );
    assert_eq!(t.resolve(main_focus(), &key("t")), Resolution::Ignored);
    assert_eq!(
        t.resolve(editor(false), &key("ctrl+k")),
        Resolution::Msg(Msg::Intent(Intent::EditorSubmit))
    );
    assert_eq!(t.resolve(editor(false), &key("enter")), Resolution::Ignored);
    assert_eq!(t.label(Action::EditorSubmit), "Ctrl+K");
    assert_eq!(t.label(Action::SettingsModalClose), "Esc / Ctrl+C / ?");
    assert_eq!(t.keys(Action::MainChangeQuestionType), &[key("ctrl+t")]);
}

#[test]
fn toml_keymaps_replace_listed_actions_unbind_empty_lists_and_keep_the_rest() {
    let keymaps = keymaps_from_value(
        Some(&json!({ "main": { "toggle": "x", "optionNote": [] } })),
        KeymapSource::Toml,
    )
    .unwrap();
    assert_eq!(keymaps.keys(Action::MainToggle), &[key("x")]);
    assert!(keymaps.keys(Action::MainOptionNote).is_empty());
    assert_eq!(keymaps.keys(Action::MainConfirm), &[key("enter")]);
    assert_eq!(
        keymaps_from_value(None, KeymapSource::Toml).unwrap(),
        Keymaps::default()
    );
}

fn problems(value: serde_json::Value, source: KeymapSource) -> Vec<String> {
    keymaps_from_value(Some(&value), source).expect_err("should be invalid")
}

#[test]
fn a_duplicate_binding_is_reported_with_both_actions() {
    assert_eq!(
        problems(json!({ "main": { "toggle": "n" } }), KeymapSource::Toml),
        ["Duplicate keymap N for main.toggle and main.optionNote."]
    );
}

#[test]
fn global_keys_may_not_be_bound_again_in_main_or_editors() {
    assert_eq!(
        problems(json!({ "main": { "cancel": "?" } }), KeymapSource::Toml),
        ["Duplicate global keymap ? for global.settings and main.cancel."]
    );
    // The settings modal has its own keys: `?` closing it is not a conflict.
    assert!(keymaps_from_value(Some(&json!({})), KeymapSource::Toml).is_ok());
}

#[test]
fn digits_one_to_nine_are_reserved() {
    assert_eq!(
        problems(
            json!({ "main": { "toggle": ["space", "5"] } }),
            KeymapSource::Toml
        ),
        ["Reserved keymap for main.toggle: 5."]
    );
    assert!(
        keymaps_from_value(
            Some(&json!({ "main": { "toggle": "0" } })),
            KeymapSource::Toml
        )
        .is_ok(),
        "0 is not reserved"
    );
}

#[test]
fn unknown_contexts_actions_and_bad_syntax_are_named() {
    let got = problems(
        json!({ "mian": {}, "main": { "jump": "j", "toggle": "ctrl+ctrl+x", "confirm": 5, "cancel": ["esc", 1] } }),
        KeymapSource::Toml,
    );
    assert_eq!(
        got,
        [
            "Unknown keymap context mian (did you mean main?).",
            "Unknown keymap action main.jump.",
            "Invalid keymap for main.toggle: \"ctrl+ctrl+x\": repeated modifier ctrl.",
            "Invalid keymap for main.confirm: binding must be a string or array of strings.",
            "Invalid keymap for main.cancel: binding list must contain only strings.",
        ]
    );
}

#[test]
fn every_problem_of_a_binding_is_listed_and_dead_shift_keys_are_refused() {
    let got = problems(
        json!({ "main": { "toggle": ["ctrl+ctrl+x", "5"], "confirm": ["shift+?", "shift+1", "enter"] } }),
        KeymapSource::Toml,
    );
    assert_eq!(
        got,
        [
            "Invalid keymap for main.toggle: \"ctrl+ctrl+x\": repeated modifier ctrl.",
            "Invalid keymap for main.confirm: \"shift+?\": shift+? can never be pressed (shift is already part of the character; bind \"?\" instead).",
            "Invalid keymap for main.confirm: \"shift+1\": shift+1 can never be pressed (shift is already part of the character; bind \"1\" instead).",
            "Reserved keymap for main.toggle: 5.",
        ]
    );
    assert!(
        keymaps_from_value(
            Some(&json!({ "main": { "toggle": "shift+t" } })),
            KeymapSource::Toml
        )
        .is_ok(),
        "shift with a letter is fine"
    );
}

#[test]
fn a_long_list_of_keymap_problems_is_shortened_with_a_count() {
    let problems: Vec<String> = (1..=7).map(|i| format!("Problem {i}.")).collect();
    let notice = pi_ask::stores::config::keymap_notice(&problems);
    assert_eq!(
        notice,
        "Problem 1. · Problem 2. · Problem 3. · … and 4 more keymap problems. Using default ask keymaps for this session. Edit the config and start pi-ask again."
    );
}

#[test]
fn the_originals_json_keymaps_need_no_actions_it_never_had() {
    let mut keymaps = serde_json::Map::new();
    for context in Context::ORIGINAL {
        let actions: serde_json::Map<String, serde_json::Value> = context
            .actions()
            .filter(|a| a.in_original())
            .map(|a| (a.name().to_owned(), json!(a.default_keys())))
            .collect();
        keymaps.insert(
            context.name().to_owned(),
            serde_json::Value::Object(actions),
        );
    }
    let got = keymaps_from_value(
        Some(&serde_json::Value::Object(keymaps)),
        KeymapSource::LegacyJson,
    );
    assert!(got.is_ok(), "{got:?}");
}

#[test]
fn legacy_json_keymaps_must_be_complete() {
    let got = problems(
        json!({ "global": { "dismiss": ["ctrl+c"] } }),
        KeymapSource::LegacyJson,
    );
    assert!(
        got.contains(&"Missing keymap for global.settings.".to_owned()),
        "{got:?}"
    );
    assert!(
        got.contains(&"Missing keymap context main.".to_owned()),
        "{got:?}"
    );
    let got = problems(
        json!({ "main": { "toggle": [] } }),
        KeymapSource::LegacyJson,
    );
    assert!(
        got.contains(&"Invalid keymap for main.toggle: empty binding list.".to_owned()),
        "{got:?}"
    );
}

#[test]
fn every_context_and_action_has_a_name_and_defaults() {
    assert_eq!(
        Context::ALL.iter().map(|c| c.name()).collect::<Vec<_>>(),
        [
            "global",
            "main",
            "editor",
            "noteEditor",
            "settingsModal",
            "autocomplete",
            "inbox",
            "filter"
        ]
    );
    for action in Action::ALL {
        assert_eq!(
            Action::from_name(action.context(), action.name()),
            Some(*action)
        );
        assert!(!action.default_keys().is_empty(), "{action}");
    }
}
