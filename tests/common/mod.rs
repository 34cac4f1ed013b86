//! Helpers shared by the integration tests: build flows from JSON and drive them with messages.
#![allow(dead_code)]

pub mod batches;
pub mod embed_host;
pub mod flood;
pub mod hooks;
pub mod mcp;
pub mod npm;
pub mod pty;
pub mod reap;
pub mod registry;
pub mod scripted;
pub mod ssh;
pub mod web;

use std::time::Duration;

use pi_ask::form::Form;
use pi_ask::input::validate_payload;
use pi_ask::model::{Cmd, Intent, Model, Msg, ReviewAction, Tab, update};
use pi_ask::result::AskResult;
use pi_ask::settings::Settings;
use pi_ask::stores::history::ProcessId;
use pi_ask::stores::queue::AskQueue;
use pi_ask::stores::queue::{Queue, QueuedAsk, Waited};
use serde_json::{Value, json};

/// Writes an executable shell script at `path` (a stand-in editor, an old engine).
pub fn write_executable(path: &std::path::Path, script: &str) {
    std::fs::write(path, script).unwrap();
    let mut permissions = std::fs::metadata(path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(path, permissions).unwrap();
}

/// A stand-in for the person's editor (`$VISUAL`) in `dir`: it appends ` and more from the
/// editor` to the file it is given, and saves.
pub fn appending_editor(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("editor.sh");
    write_executable(
        &path,
        "#!/bin/sh\nprintf '%s' \"$(cat \"$1\") and more from the editor\" > \"$1\"\n",
    );
    path
}

/// A test's prerequisite (root, strace, a tmpfs) is missing here: under `CI=true`, where `.ci/run`
/// provides every one, that fails the test; elsewhere the test says NOT RUN and returns (the
/// built-in harness has no way to report a test as ignored once it started).
pub fn not_run(why: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("a prerequisite CI provides is missing: {why}");
    }
    eprintln!("NOT RUN: {why}");
}

/// A validated form; panics with the issues when the payload is invalid (a test bug).
pub fn form(payload: Value) -> Form {
    validate_payload(&payload).unwrap_or_else(|e| panic!("test payload is invalid: {:?}", e.issues))
}

pub fn flow(payload: Value) -> Model {
    Model::new(form(payload), Settings::defaults())
}

pub fn flow_with(payload: Value, edit: impl FnOnce(&mut Settings)) -> Model {
    let mut settings = Settings::defaults();
    edit(&mut settings);
    Model::new(form(payload), settings)
}

/// Sends messages in order and returns every command produced.
pub fn send(model: &mut Model, msgs: impl IntoIterator<Item = Msg>) -> Vec<Cmd> {
    msgs.into_iter().flat_map(|m| update(model, m)).collect()
}

/// Types text into the open editor (replacing its content).
pub fn typed(text: &str) -> Msg {
    Msg::Edit(pi_ask::model::EditOp::ReplaceAll(text.to_owned()))
}

/// The result of the first `Finish` command, if any.
pub fn finished(cmds: &[Cmd]) -> Option<AskResult> {
    cmds.iter().find_map(|c| match c {
        Cmd::Finish(r) => Some((**r).clone()),
        _ => None,
    })
}

/// Runs a review action and returns the result.
pub fn finish_with(model: &mut Model, action: ReviewAction) -> AskResult {
    finished(&update(model, Msg::Intent(Intent::Review(action))))
        .expect("review action finishes the flow")
}

pub fn submit(model: &mut Model) -> AskResult {
    finish_with(model, ReviewAction::Submit)
}

pub fn elaborate(model: &mut Model) -> AskResult {
    finish_with(model, ReviewAction::Elaborate)
}

/// The result serialized as a JSON value (what a host receives).
pub fn json(result: &AskResult) -> Value {
    serde_json::to_value(result).expect("serializable")
}

/// A single-select question with options a, b, c labelled A, B, C.
pub fn single(id: &str) -> Value {
    serde_json::json!({
        "id": id,
        "label": id.to_uppercase(),
        "prompt": format!("Pick {id}"),
        "options": [
            { "value": "a", "label": "A" },
            { "value": "b", "label": "B" },
            { "value": "c", "label": "C" }
        ]
    })
}

/// A multi-select question with options a, b, c labelled A, B, C.
pub fn multi(id: &str) -> Value {
    let mut q = single(id);
    q["type"] = "multi".into();
    q
}

pub fn payload(questions: Vec<Value>) -> Value {
    serde_json::json!({ "questions": questions })
}

/// The model's invariants (docs/architecture.md): cursors in range, one choice on single-choice
/// questions, the tab in range, an open editor on the current question tab.
pub fn check_invariants(m: &Model) {
    for (q, question) in m.questions().iter().enumerate() {
        assert!(m.cursor(q) < question.row_count(), "cursor out of range");
        for &o in &m.answer(q).selected {
            assert!(o < question.options.len(), "selected option out of range");
        }
        if !question.presented_type.is_multi() {
            assert!(
                m.answer(q).committed_count() <= 1,
                "a single-choice question holds one answer"
            );
        }
    }
    assert!(m.tab_index() < m.tab_count());
    if let Some(editor) = m.editor() {
        assert!(matches!(m.tab(), Tab::Question(q) if q == editor.target.question()));
        let caret = editor.edit.cursor();
        assert!(
            editor.text().is_char_boundary(caret),
            "the caret is inside the text"
        );
    }
    if let Some(filter) = m.filter() {
        assert_eq!(
            m.tab(),
            Tab::Question(filter.question),
            "a filter is on its tab"
        );
        assert!(m.editor().is_none() && m.settings_modal().is_none());
        let options = m.questions()[filter.question].options.len();
        let mut seen = vec![false; options];
        for &found in filter.matches.rows() {
            assert!(found < options, "a match is an option");
            assert!(
                !std::mem::replace(&mut seen[found], true),
                "each option once"
            );
        }
        match filter.matches.rows().get(filter.selected) {
            Some(&found) => assert_eq!(m.cursor(filter.question), found, "cursor follows"),
            None => assert!(filter.matches.is_empty(), "the highlight is a match"),
        }
    }
    if let Some(popup) = m.popup() {
        assert!(m.editor().is_some(), "the popup belongs to an open editor");
        assert!(
            popup.items.is_empty() || popup.selected < popup.items.len(),
            "the popup's selection is one of its items"
        );
    }
}

/// What every frame must show: the cursor row (`❯`, or the settings modal's reset button, which
/// is focused by its colour), or, when not even that fits, the start of the one-line notice.
pub fn assert_shows_the_point(h: &mut pi_ask::testing::Harness, width: u16, height: u16) {
    let screen = h.screen();
    assert_eq!(screen.len(), height as usize);
    // The notice in whole words (a shorter one on a narrow screen, "small" at the least).
    let notice = screen.iter().any(|line| line.contains("small"))
        || (width < 5 && screen[0].trim_end() == &"small"[..width as usize]);
    let text = screen.join("\n");
    assert!(
        text.contains('❯')
            || text.contains("no matching")
            || text.contains("[reset all]")
            || text.contains("[confirm reset]")
            || notice,
        "neither the cursor row nor the notice at {width}x{height}:\n{text}"
    );
}

/// A queued ask of a live asker (the test itself): `claude-code` in `/home/u/proj`, one question
/// `env` with Staging and Production.
pub fn queued_ask(id: &str, prompt: &str, at: u64) -> QueuedAsk {
    QueuedAsk {
        id: id.into(),
        created_at: at,
        client: "claude-code".into(),
        cwd: "/home/u/proj".into(),
        asker: ProcessId::current(),
        payload: json!({"questions":[{"id":"env","prompt":prompt,"options":[
            {"value":"staging","label":"Staging"},{"value":"prod","label":"Production"}]}]}),
    }
}

/// The first ask waiting in `queue`, waited for up to 60 s (a panic otherwise).
pub fn wait_pending(queue: &Queue) -> QueuedAsk {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(ask) = queue.pending().into_iter().next() {
            return ask;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no ask reached the queue"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits up to 10 s until the file at `path` holds `text` (another program writes it); a panic
/// with what it holds otherwise.
pub fn wait_file_holds(path: &std::path::Path, text: &str) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !std::fs::read_to_string(path).is_ok_and(|held| held.contains(text)) {
        assert!(
            std::time::Instant::now() < deadline,
            "{} never held {text:?}: {:?}",
            path.display(),
            std::fs::read_to_string(path)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The answer to ask `id` in `queue`, waited for up to 10 s (a panic otherwise).
pub fn wait_answer(queue: &Queue, id: &str) -> Value {
    let ten_seconds = Some(Duration::from_secs(10));
    match pi_ask::stores::queue::waiter::wait_blocking(
        std::sync::Arc::new(queue.clone()),
        id,
        ten_seconds,
        None,
    )
    .unwrap()
    {
        Waited::Answered(result) => result,
        other => panic!("{id}: {other:?}"),
    }
}

/// Writes an executable shell script `name` in `home` with `body` (after `#!/bin/sh`), and the
/// config in `home` that makes it `pi-ask answer`'s model command. Returns the script's path.
pub fn model_command_in(home: &std::path::Path, name: &str, body: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = home.join(name);
    std::fs::write(&script, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let config = home.join(".pi/agent/extensions");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(
        config.join("pi-ask.toml"),
        format!(
            "schemaVersion = 5\n[answer]\nextractor = [\"{}\"]\n",
            script.display()
        ),
    )
    .unwrap();
    script
}
