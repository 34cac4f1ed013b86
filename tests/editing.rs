//! Editors and the `@` popup inside the model: editing operations as `Msg`s, searches and
//! folder listings as `Cmd`s answered with generations, remappable editing keys, and the keymap
//! docs generated from the action table.

mod common;

use common::*;
use pi_ask::files::{Matches, Request, Suggestion};
use pi_ask::keymap::{
    Action, BindingTable, EditorKind, Focus, KeymapSource, PopupFocus, Resolution,
    keymaps_from_value,
};
use pi_ask::keys::KeyId;
use pi_ask::model::{Cmd, Intent, Model, Msg, PopupAction, PopupKind, Report, SettingsIntent};
use pi_ask::testing::Harness;
use pi_ask_components::EditOp;
use serde_json::json;

/// One question with only two options; moving past them opens the free-form editor.
fn free_form() -> Model {
    let mut m = flow(payload(vec![single("q")])).with_file_suggestions();
    send(&mut m, [Msg::Intent(Intent::LastOption)]);
    assert!(m.editor().is_some(), "the answer editor is open");
    m
}

fn insert(text: &str) -> Msg {
    Msg::Edit(EditOp::Insert(text.to_owned()))
}

fn file(path: &str) -> Suggestion {
    Suggestion {
        path: path.to_owned(),
        is_dir: path.ends_with('/'),
    }
}

fn answer(generation: u64, paths: &[&str]) -> Msg {
    Msg::Report(Report::Suggestions {
        generation,
        matches: Matches {
            items: paths.iter().map(|p| file(p)).collect(),
            total: paths.len(),
        },
        truncated: false,
    })
}

fn search(cmds: &[Cmd]) -> Option<(String, u64)> {
    cmds.iter().find_map(|c| match c {
        Cmd::Files(Request::Search { query, generation }) => Some((query.clone(), *generation)),
        _ => None,
    })
}

#[test]
fn every_edit_is_a_message_on_the_models_own_text() {
    let mut m = free_form();
    send(
        &mut m,
        [
            insert("hello world"),
            Msg::Edit(EditOp::CursorWordLeft),
            insert("big "),
            Msg::Edit(EditOp::CursorLineEnd),
            Msg::Edit(EditOp::DeleteWordBackward),
            Msg::Edit(EditOp::Paste("there\r\nfriend".into())),
        ],
    );
    // A pasted line break is kept (the answer takes new lines), a CRLF as one.
    assert_eq!(m.editor().unwrap().text(), "hello big there\nfriend");
    send(&mut m, [Msg::Edit(EditOp::DeleteToLineStart)]);
    assert_eq!(m.editor().unwrap().text(), "hello big there\n");
    send(
        &mut m,
        [
            Msg::Edit(EditOp::DeleteCharBackward),
            Msg::Edit(EditOp::DeleteToLineStart),
        ],
    );
    assert!(m.editor_is_empty(), "the model's text is the only text");
}

#[test]
fn typing_an_at_asks_for_a_search_and_only_the_newest_answer_counts() {
    let mut m = free_form();
    let (query, first) = search(&send(&mut m, [insert("see @")])).expect("a search");
    assert_eq!(query, "");
    assert!(m.popup().is_none(), "nothing to show before the answer");
    let (query, second) = search(&send(&mut m, [insert("sr")])).expect("a refined search");
    assert_eq!(query, "sr");
    assert!(second > first);
    send(&mut m, [answer(first, &["stale.md"])]);
    assert!(m.popup().is_none(), "a stale answer is dropped");
    send(&mut m, [answer(second, &["src/", "src/main.rs"])]);
    let popup = m.popup().expect("the popup opens with the answer");
    assert_eq!(popup.items.len(), 2);
    assert_eq!(popup.kind, PopupKind::At { quoted: false });
    send(
        &mut m,
        [
            Msg::Popup(PopupAction::Next),
            Msg::Popup(PopupAction::Accept),
        ],
    );
    assert_eq!(m.editor().unwrap().text(), "see @src/main.rs ");
    assert!(m.popup().is_none(), "a space ends the token");
}

#[test]
fn an_answer_that_arrives_under_the_settings_modal_is_kept_for_the_editor() {
    let mut m = free_form();
    let (_, generation) = search(&send(&mut m, [insert("see @sr")])).expect("a search");
    send(&mut m, [Msg::Settings(SettingsIntent::Open)]);
    send(&mut m, [answer(generation, &["src/main.rs"])]);
    send(&mut m, [Msg::Settings(SettingsIntent::Close)]);
    let popup = m
        .popup()
        .expect("the answer was taken while the modal was open");
    assert_eq!(popup.items, [file("src/main.rs")]);
    assert_eq!(m.editor().unwrap().text(), "see @sr");
}

#[test]
fn a_whole_text_set_at_once_replaces_the_editor_and_asks_for_no_search() {
    let mut m = free_form();
    send(&mut m, [insert("old")]);
    let cmds = send(
        &mut m,
        [Msg::Edit(EditOp::ReplaceAll("new @src\nline".into()))],
    );
    assert_eq!(search(&cmds), None, "a line-by-line answer is not typing");
    assert_eq!(
        m.editor().unwrap().text(),
        "new @src\nline",
        "the answer editor keeps line breaks"
    );
    send(&mut m, [insert("!")]);
    assert_eq!(
        m.editor().unwrap().text(),
        "new @src\nline!",
        "the caret is at the end"
    );
}

#[test]
fn a_closed_popup_stays_closed_until_the_text_before_the_caret_changes() {
    let mut m = free_form();
    let (_, g) = search(&send(&mut m, [insert("@a")])).unwrap();
    send(
        &mut m,
        [answer(g, &["a.md"]), Msg::Popup(PopupAction::Close)],
    );
    assert!(m.popup().is_none());
    let cmds = send(
        &mut m,
        [
            Msg::Edit(EditOp::CursorRight),
            Msg::Popup(PopupAction::Next),
            Msg::Edit(EditOp::CursorLineEnd),
        ],
    );
    assert!(search(&cmds).is_none(), "nothing before the caret changed");
    assert!(m.popup().is_none());
    assert!(search(&send(&mut m, [insert("b")])).is_some());
}

#[test]
fn a_paste_never_opens_the_popup_and_an_editor_closing_takes_it_along() {
    let mut m = free_form();
    assert!(search(&send(&mut m, [Msg::Edit(EditOp::Paste("@src".into()))])).is_none());
    let (_, g) = search(&send(&mut m, [insert("x @")])).unwrap();
    send(&mut m, [answer(g, &["a.md"])]);
    assert!(m.popup().is_some());
    send(&mut m, [Msg::Intent(Intent::EditorClose)]);
    assert!(m.popup().is_none());
    send(&mut m, [answer(g, &["a.md"])]);
    assert!(
        m.popup().is_none(),
        "an answer for a closed editor is dropped"
    );
}

#[test]
fn tab_lists_the_folder_and_one_candidate_is_inserted_at_once() {
    let mut m = free_form();
    let cmds = send(
        &mut m,
        [insert("open sr"), Msg::Popup(PopupAction::Complete)],
    );
    let (word, g) = cmds
        .iter()
        .find_map(|c| match c {
            Cmd::Files(Request::ListDir { word, generation }) => Some((word.clone(), *generation)),
            _ => None,
        })
        .expect("a listing");
    assert_eq!(word, "sr");
    send(&mut m, [answer(g, &["src/"])]);
    assert_eq!(m.editor().unwrap().text(), "open src/");
    let cmds = send(&mut m, [Msg::Popup(PopupAction::Complete)]);
    let g = cmds
        .iter()
        .find_map(|c| match c {
            Cmd::Files(Request::ListDir { generation, .. }) => Some(*generation),
            _ => None,
        })
        .unwrap();
    send(&mut m, [answer(g, &["src/a.rs", "src/b.rs"])]);
    let popup = m.popup().expect("several candidates open the popup");
    assert!(matches!(popup.kind, PopupKind::Word { .. }));
}

#[test]
fn tab_on_no_matching_files_completes_the_path_word_as_with_the_popup_closed() {
    let mut m = free_form();
    let (_, g) = search(&send(&mut m, [insert("@zz")])).unwrap();
    send(&mut m, [answer(g, &[])]);
    assert!(
        m.popup().is_some_and(|p| p.items.is_empty()),
        "no matching files"
    );
    let cmds = send(&mut m, [Msg::Popup(PopupAction::Complete)]);
    assert!(
        cmds.iter()
            .any(|c| matches!(c, Cmd::Files(Request::ListDir { word, .. }) if word == "zz")),
        "{cmds:?}"
    );
}

#[test]
fn without_file_suggestions_an_at_is_just_text() {
    let mut m = flow(payload(vec![single("q")]));
    send(&mut m, [Msg::Intent(Intent::LastOption)]);
    assert!(search(&send(&mut m, [insert("@")])).is_none());
    assert_eq!(m.editor().unwrap().text(), "@");
}

#[test]
fn a_megabyte_of_pasted_text_is_edited_in_place() {
    let mut m = free_form();
    let big = "lorem ipsum ".repeat(90_000);
    send(&mut m, [Msg::Edit(EditOp::Paste(big.clone()))]);
    send(&mut m, [insert("x"), Msg::Edit(EditOp::DeleteCharBackward)]);
    assert_eq!(m.editor().unwrap().text(), big);
    send(&mut m, [Msg::Intent(Intent::EditorSubmit)]);
    assert_eq!(m.answer(0).custom_text.as_deref(), Some(big.trim()));
}

fn key(id: &str) -> KeyId {
    KeyId::parse(id).unwrap()
}

#[test]
fn editing_keys_are_actions_that_can_be_remapped() {
    let keymaps = keymaps_from_value(
        Some(&json!({ "editor": { "deleteWordBackward": ["alt+w"], "cursorLineStart": [] } })),
        KeymapSource::Toml,
    )
    .unwrap();
    let table = BindingTable::new(keymaps);
    let focus = Focus::Editor {
        kind: EditorKind::Note,
        empty: false,
        popup: PopupFocus::Closed,
    };
    assert_eq!(
        table.resolve(focus, &key("alt+w")),
        Resolution::Msg(Msg::Edit(EditOp::DeleteWordBackward))
    );
    assert_eq!(table.resolve(focus, &key("ctrl+w")), Resolution::Ignored);
    assert_eq!(table.resolve(focus, &key("home")), Resolution::Ignored);
    assert_eq!(
        table.resolve(focus, &key("ctrl+a")),
        Resolution::Ignored,
        "an empty list unbinds every key of the action"
    );
}

#[test]
fn a_remapped_editing_key_works_in_the_form() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pi-ask.toml");
    std::fs::write(
        &config,
        "schemaVersion = 5\n[keymaps.editor]\ndeleteWordBackward = [\"alt+w\"]\n",
    )
    .unwrap();
    let mut h =
        Harness::with_config(&payload(vec![single("q")]).to_string(), &config, 80, 20).unwrap();
    h.press("end").type_text("one two").press("ctrl+w");
    assert_eq!(h.model().unwrap().editor().unwrap().text(), "one two");
    h.press("alt+w");
    assert_eq!(h.model().unwrap().editor().unwrap().text(), "one ");
    assert!(
        h.screen_text().contains("Alt+W delete word"),
        "the footer hints the remapped key:\n{}",
        h.screen_text()
    );
}

#[test]
fn keys_a_config_for_the_original_binds_take_precedence_over_added_editing_defaults() {
    let keymaps = keymaps_from_value(
        Some(&json!({ "global": { "dismiss": "ctrl+d" }, "editor": { "submit": "ctrl+k" } })),
        KeymapSource::Toml,
    )
    .expect("valid: the added editing actions give those keys up");
    let table = BindingTable::new(keymaps);
    let focus = Focus::Editor {
        kind: EditorKind::Answer,
        empty: false,
        popup: PopupFocus::Closed,
    };
    assert_eq!(
        table.resolve(focus, &key("ctrl+k")),
        Resolution::Msg(Msg::Intent(Intent::EditorSubmit))
    );
    assert_eq!(
        table.resolve(focus, &key("ctrl+d")),
        Resolution::Msg(Msg::Intent(Intent::Dismiss))
    );
    assert!(table.keys(Action::EditorDeleteToLineEnd).is_empty());
    assert_eq!(
        table.keys(Action::EditorDeleteCharForward),
        &[key("delete")]
    );
}

#[test]
fn the_keymap_docs_table_is_generated_from_the_action_table() {
    let doc = include_str!("../docs/keymaps.md");
    let committed = pi_ask::keymap::docs::generated_part(doc).expect("the markers are in the docs");
    // `PI_ASK_BLESS=1 cargo test --test editing` writes the generated table into the docs.
    if std::env::var_os("PI_ASK_BLESS").is_some() {
        let table = pi_ask::keymap::docs::actions_table();
        let fresh = doc.replacen(committed, table.trim_end(), 1);
        std::fs::write(
            concat!(env!("CARGO_MANIFEST_DIR"), "/docs/keymaps.md"),
            fresh,
        )
        .unwrap();
        return;
    }
    assert_eq!(
        committed,
        pi_ask::keymap::docs::actions_table().trim_end(),
        "regenerate the table in docs/keymaps.md from pi_ask::keymap::docs::actions_table()"
    );
    for action in Action::ALL {
        assert!(
            !action.spec().description.is_empty(),
            "{action} has a description"
        );
    }
}

/// Issue 39: the `Type your own` answer takes new lines as the note editors do (`ctrl+j` and
/// `alt+enter` everywhere), and the answer keeps them.
#[test]
fn the_type_your_own_answer_takes_new_lines() {
    let mut h = Harness::new(&payload(vec![single("q")]).to_string(), 80, 20).unwrap();
    h.press("end").press("enter");
    h.type_text("first").press("ctrl+j").type_text("second");
    h.press("alt+enter").type_text("third");
    assert_eq!(
        h.model().unwrap().editor().unwrap().text(),
        "first\nsecond\nthird"
    );
    h.press("enter").press("enter");
    let answer = &h.result().expect("submitted").details.answers["q"];
    assert_eq!(answer.custom_text.as_deref(), Some("first\nsecond\nthird"));
}

/// Issue 42: the footer named `Shift+Enter new line`, which saves on a terminal without the kitty
/// keyboard protocol. It names the first key of `newLine` the terminal delivers: Shift+Enter only
/// where the terminal reports it apart from Enter.
#[test]
fn the_new_line_hint_names_a_key_the_terminal_delivers() {
    let mut h = Harness::new(&payload(vec![single("q")]).to_string(), 120, 20).unwrap();
    h.press("shift+n").type_text("a note");
    let screen = h.screen_text();
    assert!(screen.contains("Alt+Enter new line"), "{screen}");
    assert!(!screen.contains("Shift+Enter new line"), "{screen}");
    h.shift_enter_reported(true);
    let screen = h.screen_text();
    assert!(screen.contains("Shift+Enter new line"), "{screen}");
    // The answer editor names it too, now that it takes new lines.
    let mut h = Harness::new(&payload(vec![single("q")]).to_string(), 120, 20).unwrap();
    h.press("end").press("enter").type_text("text");
    let screen = h.screen_text();
    assert!(screen.contains("Alt+Enter new line"), "{screen}");
}
