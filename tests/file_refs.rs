//! `@` file references: the index's ignore rules, ranking, insertion, the popup in editors, and
//! Tab path completion.

use std::path::{Path, PathBuf};

use pi_ask::files::{FileIndex, IndexOptions, Searcher, Suggestion, insertion};
use pi_ask::keys::{KeyId, Mods, Named, RawKey, TerminalInput};
use pi_ask::testing::Harness;

fn tree() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/tree")
}

fn index_with(exclude: &[&str]) -> FileIndex {
    let options = IndexOptions {
        exclude: exclude.iter().map(|s| s.to_string()).collect(),
        git_global: false,
        threads: 2,
        ..IndexOptions::default()
    };
    let index = FileIndex::build(&tree(), options).unwrap();
    index.wait();
    index
}

/// The index of `root`, walked to the end (without the user's global excludes).
fn complete_index(root: &Path) -> FileIndex {
    let index = FileIndex::build(
        root,
        IndexOptions {
            git_global: false,
            ..IndexOptions::default()
        },
    )
    .unwrap();
    index.wait();
    index
}

fn paths(index: &FileIndex) -> Vec<String> {
    let mut p: Vec<String> = index
        .entries()
        .iter()
        .map(|e| {
            if e.is_dir {
                format!("{}/", e.path)
            } else {
                e.path.to_string()
            }
        })
        .collect();
    p.sort();
    p
}

#[test]
fn the_index_honours_gitignore_and_ignore_files_and_keeps_hidden_entries() {
    let all = paths(&index_with(&[]));
    for present in [
        ".env",
        ".hidden/",
        ".hidden/config.toml",
        ".gitignore",
        "src/lib/deep/nested/file.rs",
        "docs/my notes.md",
        "docs/café.md",
        "docs/日本語.txt",
    ] {
        assert!(
            all.iter().any(|p| p == present),
            "{present} missing from {all:?}"
        );
    }
    for absent in ["debug.log", "build/", "build/output.bin", "secret.txt"] {
        assert!(
            !all.iter().any(|p| p == absent),
            "{absent} should be ignored: {all:?}"
        );
    }
    assert!(!all.iter().any(|p| p.starts_with(".git/") || p == ".git/"));
}

#[test]
fn extra_exclude_globs_from_the_config_apply() {
    let all = paths(&index_with(&["docs", "*.toml"]));
    assert!(!all.iter().any(|p| p.starts_with("docs")), "{all:?}");
    assert!(!all.iter().any(|p| p.ends_with(".toml")), "{all:?}");
    assert!(all.iter().any(|p| p == "src/main.rs"));
    assert!(
        FileIndex::build(
            &tree(),
            IndexOptions {
                exclude: vec!["[".into()],
                ..IndexOptions::default()
            }
        )
        .is_err()
    );
}

#[test]
fn unreadable_roots_and_symlink_loops_do_not_fail() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("a")).unwrap();
    std::os::unix::fs::symlink(dir.path(), dir.path().join("a/loop")).unwrap();
    std::fs::write(dir.path().join("a/file.txt"), "x").unwrap();
    let index = complete_index(dir.path());
    assert!(paths(&index).contains(&"a/file.txt".to_owned()));
    let missing = FileIndex::build(&dir.path().join("nope"), IndexOptions::default()).unwrap();
    missing.wait();
    assert!(missing.is_empty());
}

fn search(query: &str) -> Vec<String> {
    let index = index_with(&[]);
    Searcher::default()
        .search(&index, query, 20)
        .items
        .into_iter()
        .map(|s| s.path)
        .collect()
}

#[test]
fn basename_and_prefix_matches_rank_first_and_shorter_paths_win_ties() {
    let main = search("main");
    assert_eq!(main[0], "src/main.rs", "{main:?}");
    assert!(
        main.iter().position(|p| p == "src/lib/domain.rs") > Some(0),
        "{main:?}"
    );
    let ma = search("ma");
    assert_eq!(&ma[..2], ["src/main.rs", "src/mapping.rs"], "{ma:?}");
    let fuzzy = search("snf");
    assert!(
        fuzzy.contains(&"src/lib/deep/nested/file.rs".to_owned()),
        "fuzzy subsequence: {fuzzy:?}"
    );
}

#[test]
fn smart_case_matches_case_insensitively_until_an_uppercase_letter() {
    assert!(search("readme").contains(&"README.md".to_owned()));
    assert!(search("README").contains(&"README.md".to_owned()));
    assert!(!search("ReadMe").contains(&"README.md".to_owned()));
}

#[test]
fn a_query_ending_in_a_slash_lists_that_folder_folders_first() {
    assert_eq!(
        search("src/"),
        ["src/lib/", "src/main.rs", "src/mapping.rs"]
    );
    assert_eq!(search("src/ma")[0], "src/main.rs");
    assert_eq!(search("src/lib/de")[0], "src/lib/deep/");
}

#[test]
fn results_are_capped_with_the_total_kept() {
    let index = index_with(&[]);
    let m = Searcher::default().search(&index, "s", 3);
    assert_eq!(m.items.len(), 3);
    assert!(m.total > 3, "{}", m.total);
}

#[test]
fn typing_more_refines_the_previous_matches_to_the_same_answer_as_a_fresh_search() {
    let index = index_with(&[]);
    let mut incremental = Searcher::default();
    for q in ["s", "sr", "src", "src/l", "src/li", "src/lib/d"] {
        let a = incremental.search(&index, q, 20);
        let b = Searcher::default().search(&index, q, 20);
        assert_eq!(a, b, "{q}");
    }
}

#[test]
fn insertion_follows_pis_format() {
    let file = Suggestion {
        path: "docs/my notes.md".into(),
        is_dir: false,
    };
    assert_eq!(insertion(&file, false), "@\"docs/my notes.md\" ");
    assert_eq!(
        insertion(
            &Suggestion {
                path: "src/".into(),
                is_dir: true
            },
            false
        ),
        "@src/"
    );
}

const ONE: &str =
    r#"{"questions":[{"id":"q","prompt":"Which file?","options":[{"value":"a","label":"A"}]}]}"#;

#[test]
fn typing_at_in_an_editor_opens_suggestions_and_accepting_inserts_the_reference() {
    let mut h = Harness::with_files(ONE, &tree(), 100, 30).unwrap();
    h.press("2"); // the custom answer editor
    h.type_text("see @src/ma");
    let popup = h.popup().expect("popup open");
    assert_eq!(popup.items[0].path, "src/main.rs");
    let screen = h.screen_text();
    assert!(
        screen.contains("main.rs") && screen.contains("1-3 of 3"),
        "{screen}"
    );
    h.press("enter"); // accepts, does not submit
    assert_eq!(
        h.model().unwrap().editor().unwrap().text(),
        "see @src/main.rs "
    );
    assert!(h.popup().is_none());
    h.press("enter");
    h.press("1").press("1");
    assert_eq!(
        h.result().unwrap().details.answers["q"]
            .custom_text
            .as_deref(),
        Some("see @src/main.rs"),
        "the saved answer is trimmed"
    );
}

#[test]
fn folders_keep_completing_and_escape_closes_only_the_popup() {
    let mut h = Harness::with_files(ONE, &tree(), 100, 30).unwrap();
    h.press("2").type_text("@sr");
    h.press("tab");
    assert_eq!(h.model().unwrap().editor().unwrap().text(), "@src/");
    assert_eq!(
        h.popup().unwrap().items[0].path,
        "src/lib/",
        "the folder's contents follow"
    );
    h.press("down").press("down");
    assert_eq!(h.popup().unwrap().selected, 2);
    h.press("esc");
    assert!(h.popup().is_none());
    assert!(
        h.model().unwrap().editor().is_some(),
        "the editor stays open"
    );
    h.type_text(" ");
    assert!(h.popup().is_none(), "a space ends the reference");
}

#[test]
fn note_editors_offer_suggestions_too_and_paths_with_spaces_are_quoted() {
    let mut h = Harness::with_files(ONE, &tree(), 100, 30).unwrap();
    h.press("shift+n").type_text("@notes");
    assert_eq!(h.popup().unwrap().items[0].path, "docs/my notes.md");
    h.press("tab");
    assert_eq!(
        h.model().unwrap().editor().unwrap().text(),
        "@\"docs/my notes.md\" "
    );
}

/// Issue 39: the `@` popup of a note editor drew over the option rows after it; its rows are
/// its own, and every option stays on screen under it (an option note's popup in the list, a
/// question note's above the list).
#[test]
fn the_popup_of_a_note_editor_moves_the_options_down_instead_of_covering_them() {
    const THREE: &str = r#"{"questions":[{"id":"q","prompt":"Which file?","options":[
        {"value":"a","label":"Alpha"},{"value":"b","label":"Bravo"},{"value":"c","label":"Charlie"}]}]}"#;
    for note in ["n", "shift+n"] {
        let mut h = Harness::with_files(THREE, &tree(), 100, 40).unwrap();
        h.press(note).type_text("@");
        let popup = h.popup().expect("popup open").items.len();
        assert!(popup > 2, "{note}: a popup of several rows");
        let screen = h.screen();
        let row = |text: &str| {
            screen
                .iter()
                .position(|l| l.contains(text))
                .unwrap_or_else(|| panic!("{note}: {text} on screen:\n{}", screen.join("\n")))
        };
        let count = row(" of ");
        for option in ["2. Bravo", "3. Charlie", "4. Type your own"] {
            assert!(
                row(option) > count,
                "{note}: {option} under the popup:\n{}",
                screen.join("\n")
            );
        }
    }
}

#[test]
fn tab_completes_a_path_word_without_at() {
    let mut h = Harness::with_files(ONE, &tree(), 100, 30).unwrap();
    h.press("2").type_text("see sr").press("tab");
    assert_eq!(h.model().unwrap().editor().unwrap().text(), "see src/");
    h.type_text("m").press("tab");
    assert_eq!(
        h.popup()
            .unwrap()
            .items
            .iter()
            .map(|s| s.path.as_str())
            .collect::<Vec<_>>(),
        ["src/main.rs", "src/mapping.rs"]
    );
    h.press("tab");
    assert_eq!(
        h.model().unwrap().editor().unwrap().text(),
        "see src/main.rs "
    );
}

#[test]
fn suggestion_keys_come_from_the_binding_table() {
    use pi_ask::keymap::{
        BindingTable, EditorKind, Focus, KeymapSource, PopupAction, PopupFocus, Resolution,
        keymaps_from_value,
    };
    use pi_ask::keys::KeyId;
    use pi_ask::model::{Intent, Msg};
    use pi_ask_components::EditOp;
    let keymaps = keymaps_from_value(
        Some(&serde_json::json!({ "autocomplete": { "next": "ctrl+n", "accept": ["ctrl+y"] } })),
        KeymapSource::Toml,
    )
    .unwrap();
    let table = BindingTable::new(keymaps);
    let popup = Focus::Editor {
        kind: EditorKind::Answer,
        empty: false,
        popup: PopupFocus::Suggestions,
    };
    let key = |id: &str| KeyId::parse(id).unwrap();
    assert_eq!(
        table.resolve(popup, &key("ctrl+n")),
        Resolution::Msg(Msg::Popup(PopupAction::Next))
    );
    assert_eq!(
        table.resolve(popup, &key("ctrl+y")),
        Resolution::Msg(Msg::Popup(PopupAction::Accept))
    );
    assert_eq!(
        table.resolve(popup, &key("down")),
        Resolution::Msg(Msg::Edit(EditOp::CursorDown)),
        "down is no longer bound in the popup"
    );
    assert_eq!(
        table.resolve(popup, &key("enter")),
        Resolution::Msg(pi_ask::model::Msg::Intent(Intent::EditorSubmit))
    );
    // With the default table, the popup follows `down` on screen.
    let mut h = Harness::with_files(ONE, &tree(), 100, 30).unwrap();
    h.press("2").type_text("@s");
    h.press("down");
    assert_eq!(h.popup().unwrap().selected, 1);
}

#[test]
fn tab_completion_quotes_paths_with_spaces_and_keeps_completing_inside_quotes() {
    let mut h = Harness::with_files(ONE, &tree(), 100, 30).unwrap();
    h.press("2").type_text("read docs/my").press("tab");
    assert_eq!(
        h.model().unwrap().editor().unwrap().text(),
        "read \"docs/my notes.md\" "
    );
    // A quoted word that is still open keeps completing, and stays quoted.
    let mut h = Harness::with_files(ONE, &tree(), 100, 30).unwrap();
    h.press("2").type_text("read \"docs/my").press("tab");
    assert_eq!(
        h.model().unwrap().editor().unwrap().text(),
        "read \"docs/my notes.md\" "
    );
}

#[test]
fn escape_on_an_empty_popup_closes_only_the_popup() {
    let mut h = Harness::with_files(ONE, &tree(), 100, 30).unwrap();
    h.press("2").type_text("x @zzzzqqq");
    assert!(h.screen_text().contains("no matching files"));
    h.press("esc");
    assert!(!h.screen_text().contains("no matching files"));
    assert!(
        h.model().unwrap().editor().is_some(),
        "the editor stays open"
    );
    h.type_text(" 1t");
    assert_eq!(h.model().unwrap().editor().unwrap().text(), "x @zzzzqqq 1t");
}

#[test]
fn the_popup_sits_below_the_typed_text_at_every_size_and_counts_the_visible_rows() {
    for height in [6u16, 8, 10, 14, 30] {
        let mut h = Harness::with_files(ONE, &tree(), 80, height).unwrap();
        h.press("2").type_text("see @");
        let screen = h.screen();
        let typed = screen
            .iter()
            .position(|l| l.contains("see @"))
            .unwrap_or_else(|| panic!("typed text hidden at 80x{height}:\n{}", screen.join("\n")));
        let first_suggestion = screen.iter().position(|l| l.contains("→ "));
        if let Some(row) = first_suggestion {
            assert!(row > typed, "the popup is below the editor at 80x{height}");
        }
    }
    let many = tempfile::tempdir().unwrap();
    for i in 1..=14 {
        std::fs::write(many.path().join(format!("note{i:02}.md")), "").unwrap();
    }
    let mut h = Harness::with_files(ONE, many.path(), 80, 30).unwrap();
    h.press("2").type_text("@note");
    let total = h.popup().unwrap().total;
    assert_eq!(total, 14);
    // Two columns, as the original: the name, then the path, each starting at one column.
    let screen = h.screen();
    let rows: Vec<&String> = screen
        .iter()
        .filter(|l| l.matches("note").count() == 2)
        .collect();
    assert_eq!(rows.len(), 8, "{}", screen.join("\n"));
    let columns = |line: &str| {
        let mut at = line
            .match_indices("note")
            .map(|(i, _)| line[..i].chars().count());
        (at.next().unwrap(), at.next().unwrap())
    };
    let first = columns(rows[0]);
    for row in &rows {
        assert_eq!(columns(row), first, "{row}");
    }
    let shown = h.popup().unwrap().items.len().min(8);
    assert!(
        h.screen_text().contains(&format!("1-{shown} of {total}")),
        "{}",
        h.screen_text()
    );
    for _ in 0..9 {
        h.press("down");
    }
    let screen = h.screen_text();
    assert!(screen.contains(&format!("3-10 of {total}")), "{screen}");
}

#[test]
fn accents_are_folded_so_cafe_finds_cafe_with_an_accent() {
    let found = search("cafe");
    assert_eq!(
        found.first().map(String::as_str),
        Some("docs/café.md"),
        "{found:?}"
    );
    // And the other way round: typing the accent finds it too.
    assert_eq!(
        search("café").first().map(String::as_str),
        Some("docs/café.md")
    );
    assert!(search("docs/cafe").contains(&"docs/café.md".to_owned()));
}

/// A session on the one-question form offering files from `files`, driven event by event.
fn session_with_files(files: impl Into<pi_ask::files::FileSource>) -> pi_ask::engine::Session {
    let form = pi_ask::input::parse_payload(ONE).unwrap();
    let app = pi_ask::tui::App::new(
        form,
        pi_ask::settings::Settings::defaults(),
        pi_ask::keymap::BindingTable::default(),
        String::new(),
        None,
    )
    .with_files(files);
    pi_ask::engine::Session::new(
        pi_ask::engine::Screen::Flow(Box::new(app)),
        None,
        Box::new(|_, _| {}),
    )
}

fn key(code: RawKey) -> TerminalInput {
    TerminalInput::Key(KeyId::from_raw(code, Mods::NONE).expect("a key with an id"))
}

#[test]
fn the_index_stops_at_its_cap_and_says_so() {
    let options = IndexOptions {
        git_global: false,
        max_entries: 3,
        ..IndexOptions::default()
    };
    let index = FileIndex::build(&tree(), options).unwrap();
    index.wait();
    assert_eq!(index.len(), 3);
    assert!(index.is_truncated());
    let full = index_with(&[]);
    assert!(!full.is_truncated());
    assert!(full.len() > 3);
}

#[test]
fn a_truncated_index_is_named_in_the_popup() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..40 {
        std::fs::write(dir.path().join(format!("note{i}.md")), "").unwrap();
    }
    let index = FileIndex::build(
        dir.path(),
        IndexOptions {
            git_global: false,
            max_entries: 10,
            ..IndexOptions::default()
        },
    )
    .unwrap();
    index.wait();
    let mut session = session_with_files(index);
    let now = std::time::Instant::now();

    for code in [
        RawKey::Named(Named::End),
        RawKey::Char('@'),
        RawKey::Char('n'),
    ] {
        session.handle_input(&key(code), now);
        session.settle_files(std::time::Duration::from_secs(10), now);
    }
    let popup = session.app().unwrap().popup().expect("the popup is open");
    assert!(popup.truncated);
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 30)).unwrap();
    let frame = terminal.draw(|f| session.draw(f)).unwrap();
    let screen: String = frame
        .buffer
        .content()
        .chunks(80)
        .map(|row| row.iter().map(|c| c.symbol()).collect::<String>() + "\n")
        .collect();
    assert!(screen.contains("(index truncated)"), "{screen}");
}

#[test]
fn the_index_walks_only_when_a_search_first_asks_for_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("late.md"), "").unwrap();
    let mut session = session_with_files(pi_ask::files::FileSource::Walk {
        root: dir.path().to_path_buf(),
        options: IndexOptions {
            git_global: false,
            ..IndexOptions::default()
        },
    });
    let now = std::time::Instant::now();

    session.handle_input(&key(RawKey::Named(Named::End)), now);
    session.handle_input(&key(RawKey::Char('x')), now);
    assert!(!session.files_started(), "typing without `@` walks nothing");
    session.handle_input(&key(RawKey::Char(' ')), now);
    session.handle_input(&key(RawKey::Char('@')), now);
    assert!(session.files_started());
    // The walk streams in: the popup fills once `late.md` is found.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while session
        .app()
        .unwrap()
        .popup()
        .is_none_or(|p| p.items.is_empty())
    {
        assert!(std::time::Instant::now() < deadline, "no suggestion came");
        std::thread::sleep(std::time::Duration::from_millis(5));
        session.tick(std::time::Instant::now());
    }
    assert_eq!(
        session.app().unwrap().popup().unwrap().items[0].path,
        "late.md"
    );
    // Once the walk is over, the last answer says so and the loop stops waking up for files.
    while session.awaits_files() {
        assert!(
            std::time::Instant::now() < deadline,
            "the worker never said the walk was over"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
        session.tick(std::time::Instant::now());
    }
}

#[test]
fn index_entries_take_less_than_half_the_bytes_of_one_allocation_per_path() {
    let dir = tempfile::tempdir().unwrap();
    for d in 0..40 {
        let folder = format!("src/module_{d}/nested");
        std::fs::create_dir_all(dir.path().join(&folder)).unwrap();
        for f in 0..25 {
            let path = format!("{folder}/file_number_{f}.rs");
            std::fs::write(dir.path().join(&path), "").unwrap();
        }
    }
    let index = complete_index(dir.path());
    let n = index.len();
    assert!(n >= 1000);
    // The layout before: a 32-byte entry (boxed path, bag, name offset, kind) plus the path.
    let one_allocation_per_path: usize = index.entries().iter().map(|e| 32 + e.path.len()).sum();
    assert!(
        index.heap_bytes() * 2 <= one_allocation_per_path,
        "{} bytes for {n} entries, against {one_allocation_per_path}",
        index.heap_bytes()
    );
}

#[test]
fn the_last_answer_of_a_streaming_walk_says_it_is_over() {
    // A walk long enough to stream: the worker searches again while it runs, and once more after.
    let dir = tempfile::tempdir().unwrap();
    for d in 0..60 {
        let folder = dir.path().join(format!("folder{d}"));
        std::fs::create_dir(&folder).unwrap();
        for f in 0..60 {
            std::fs::write(folder.join(format!("note{f}.md")), "").unwrap();
        }
    }
    let mut session = session_with_files(pi_ask::files::FileSource::Walk {
        root: dir.path().to_path_buf(),
        options: IndexOptions {
            git_global: false,
            threads: 1,
            ..IndexOptions::default()
        },
    });
    let now = std::time::Instant::now();

    for code in [
        RawKey::Named(Named::End),
        RawKey::Char('@'),
        RawKey::Char('n'),
    ] {
        session.handle_input(&key(code), now);
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while session.awaits_files() {
        assert!(
            std::time::Instant::now() < deadline,
            "the worker never said the walk was over"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
        session.tick(std::time::Instant::now());
    }
    let popup = session.app().unwrap().popup().expect("the popup is open");
    assert_eq!(
        popup.total, 3600,
        "every note matches `n`, found to the end of the walk"
    );
}
