//! The checks the fuzz targets run (`fuzz/`), one function per target, so the same code also runs
//! on stable in `cargo test` over the seeds and every crash kept in `fuzz/regressions/`
//! (`tests/fuzz_regressions.rs`). Each takes any bytes and panics only when a promise is broken.

use std::path::Path;

use serde_json::Value;

use crate::keymap::{KeymapSource, keymaps_from_value};
use crate::keys::KeyId;
use crate::model::{Cmd, External, Intent, Model, Msg, ReviewAction, update};
use crate::remote::{RemoteMode, RemoteResponse, validate_submit};
use crate::settings::{Setting, Settings};
use crate::stores::config::{ConfigPaths, ConfigSource, load, save_setting};

/// Every target, by its name in `fuzz/`.
pub const TARGETS: [&str; 22] = [
    "payload",
    "keymaps",
    "config_toml",
    "config_json",
    "terminal_bytes",
    "rpc_reply",
    "remote_submit",
    "session_file",
    "history_file",
    "extraction",
    "editing",
    "queue_entry",
    "draft",
    "mcp_line",
    "line_command",
    "embed_session",
    "markdown",
    "web_press",
    "hook_event",
    "host_form_reply",
    "json_edit",
    "hook_command",
];

/// Runs target `name` on `data` (`dir`: a scratch folder for the targets that write files).
pub fn run(name: &str, data: &[u8], dir: &Path) {
    match name {
        "payload" => payload(data),
        "keymaps" => keymaps(data),
        "config_toml" => config_toml(data, dir),
        "config_json" => config_json(data),
        "terminal_bytes" => terminal_bytes(data),
        "rpc_reply" => rpc_reply(data),
        "remote_submit" => remote_submit(data),
        "session_file" => session_file(data),
        "history_file" => history_file(data),
        "extraction" => extraction(data),
        "editing" => editing(data),
        "queue_entry" => queue_entry(data, dir),
        "draft" => draft(data),
        "mcp_line" => mcp_line(data),
        "line_command" => line_command(data),
        "embed_session" => embed_session(data, dir),
        "markdown" => markdown(data),
        "web_press" => web_press(data),
        "json_edit" => json_edit(data),
        "hook_command" => hook_command(data),
        "hook_event" => hook_event(data),
        "host_form_reply" => host_form_reply(data),
        other => panic!("no fuzz target {other}"),
    }
}

/// A payload: validation never panics; a valid form opens, answers and builds every result.
pub fn payload(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(value) = serde_json::from_str::<Value>(&text) {
        let _ = crate::input::validate_extracted_payload(&value);
        // Every ignored field is named on one line of its own, made printable where it is said.
        for field in crate::input::ignored_fields(&value) {
            assert!(!field.is_empty());
        }
    }
    let Ok(form) = crate::input::parse_payload(&text) else {
        return;
    };
    let _ = crate::result::needs_input_result(&form);
    let mut model = Model::new(form, Settings::defaults());
    for msg in [
        Msg::Intent(Intent::Number(1)),
        Msg::Intent(Intent::NextTab),
        Msg::Intent(Intent::Toggle),
        Msg::Intent(Intent::Review(ReviewAction::Elaborate)),
    ] {
        let _ = update(&mut model, msg);
    }
}

/// Key ids (one per line) and keymap sections: parsed or refused; a parsed id round-trips; the
/// entries a config applies always make a sound set.
pub fn keymaps(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        if let Ok(key) = KeyId::parse(line) {
            let _ = key.label();
            let again = KeyId::parse(&key.to_string());
            assert_eq!(
                again.as_ref().ok(),
                Some(&key),
                "a key id round-trips: {key}"
            );
        }
    }
    let toml_tree = toml::from_str::<toml::Value>(&text)
        .ok()
        .and_then(|v| serde_json::to_value(v).ok());
    let json_tree = serde_json::from_str::<Value>(&text).ok();
    for tree in [toml_tree, json_tree].into_iter().flatten() {
        for source in [KeymapSource::Toml, KeymapSource::LegacyJson] {
            let _ = keymaps_from_value(Some(&tree), source);
            // What a config applies entry by entry is always a sound keymap set.
            let (applied, _) = crate::keymap::keymaps_applying_valid(Some(&tree), source);
            let problems = crate::keymap::check_keymaps(&applied);
            assert!(
                problems.is_empty(),
                "applied keymaps have problems: {problems:?}"
            );
        }
    }
}

/// A TOML config: loading never writes; a toggle save leaves a file that loads and differs in that
/// one value only; a failed save leaves the file byte-identical.
pub fn config_toml(data: &[u8], dir: &Path) {
    let path = dir.join("pi-ask.toml");
    std::fs::write(&path, data).expect("scratch folder is writable");
    let paths = ConfigPaths::resolve(Some(&path), |_| None);
    let loaded = load(&paths);
    assert_eq!(std::fs::read(&path).unwrap(), data, "loading never writes");
    if !matches!(loaded.source, ConfigSource::Toml(_)) {
        return;
    }
    let before = loaded.config;
    let on = !before.behaviour.auto_submit_when_answered_without_notes;
    match save_setting(&path, Setting::AutoSubmit, on, &before) {
        Ok(()) => {
            let after = load(&paths);
            assert!(
                matches!(after.source, ConfigSource::Toml(_)),
                "the saved file still loads: {:?}",
                after.notices
            );
            let mut expected = before.clone();
            expected.behaviour.auto_submit_when_answered_without_notes = on;
            assert_eq!(after.config, expected, "one value changed, nothing else");
        }
        Err(_) => assert_eq!(
            std::fs::read(&path).unwrap(),
            data,
            "a failed save leaves the file"
        ),
    }
}

/// The original's JSON config, any nesting: read, migrated in memory, or refused.
pub fn config_json(data: &[u8]) {
    if let Ok(tree) = serde_json::from_slice::<Value>(data) {
        let _ = crate::stores::config::config_from_tree(tree.clone(), KeymapSource::LegacyJson);
        let _ = crate::stores::config::config_from_tree(tree.clone(), KeymapSource::Toml);
        let mut migrated = tree;
        let _ = crate::stores::config::migrate(&mut migrated);
    }
}

/// Terminal input bytes into key events.
pub fn terminal_bytes(data: &[u8]) {
    let _ = crate::tui::bytes::decode(data);
}

/// An RPC host's response line.
/// Any text as Markdown (the first byte picks the width): every rendering stays within its line
/// limit; rendered Markdown stays within its width and holds no character a terminal would act
/// on (plain text is drawn as before, made printable where it is written to the screen).
pub fn markdown(data: &[u8]) {
    use pi_ask_components::markdown::{render, render_preformatted, renders, to_plain};
    use pi_ask_components::text::{is_unsafe_char, width};
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let cols = usize::from(first % 120) + 1;
    let theme = pi_ask_components::Theme::default();
    let rendered = renders(&text, cols, 64, &theme);
    for lines in [
        render(&text, cols, 64, theme.text(), &theme),
        render_preformatted(&text, cols, 64, theme.text(), &theme),
    ] {
        assert!(lines.len() <= 64, "{} lines", lines.len());
        if !rendered {
            continue;
        }
        for line in lines {
            let shown: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
            assert!(width(&shown) <= cols, "{shown:?} is wider than {cols}");
            assert!(!shown.chars().any(is_unsafe_char), "{shown:?}");
        }
    }
    let _ = to_plain(&text);
}

/// RPC mode's reply parser: any line gives a reply or a reason, never a panic.
pub fn rpc_reply(data: &[u8]) {
    let line = String::from_utf8_lossy(data);
    let _ = crate::drivers::rpc::parse_reply("req-1", &["req-0".to_owned()], &line);
    // The same text as a multi question's typed answer: option numbers read only when every one
    // names one of `options`.
    let options = data.len() % 12;
    if let Some((chosen, _)) = crate::drivers::rpc::numbered(&line, options) {
        assert!(!chosen.is_empty() && chosen.iter().all(|&o| o < options));
    }
}

const SUBMIT_FORM: &str = r#"{"questions":[
 {"id":"env","prompt":"Where?","options":[{"value":"staging","label":"Staging"},{"value":"prod","label":"Production"}]},
 {"id":"checks","prompt":"Checks?","type":"multi","options":[{"value":"lint","label":"Lint"},{"value":"test","label":"Test"}]}]}"#;

/// A remote `submit`: refused, or accepted and applied, after which the flow is finished.
pub fn remote_submit(data: &[u8]) {
    let form = crate::input::parse_payload(SUBMIT_FORM).expect("a valid form");
    let value: Value = serde_json::from_slice(data).unwrap_or_default();
    let Ok(submit) = validate_submit(&value, "flow:1:a", &form.questions) else {
        return;
    };
    let mut model = Model::new(form, Settings::defaults());
    let msg = match submit.response {
        RemoteResponse::Cancel => Msg::External(External::RemoteCancel),
        RemoteResponse::Answer { answers, mode } => Msg::External(External::RemoteAnswer {
            answers,
            elaborate: mode == RemoteMode::Elaborate,
        }),
    };
    let cmds = update(&mut model, msg);
    assert!(
        matches!(cmds.as_slice(), [Cmd::Finish(_)]),
        "an accepted submit finishes the flow"
    );
}

/// A pi session file: read or refused; the branch and every lookup never panic.
pub fn session_file(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(file) = crate::stores::pi_session::parse_session(&text, Path::new("s.jsonl")) {
        let branch = file.branch();
        assert!(branch.len() <= file.entries.len());
        let _ = crate::stores::pi_session::latest_tool_form(&branch);
        let _ = crate::stores::pi_session::latest_extracted_form(&branch);
        let _ = crate::stores::pi_session::pending_call(&branch, &|_| false);
        let _ = crate::stores::pi_session::latest_assistant_turn(&branch);
    }
}

/// pi-ask's history file: read, bad lines skipped, lookups safe.
pub fn history_file(data: &[u8]) {
    use crate::stores::history::Source;
    let history = crate::stores::history::parse_history(data);
    let _ = history.resumable(&|p| p.pid % 2 == 0);
    let _ = history.latest(&[Source::Tool, Source::Answer]);
    let _ = history.unhinted_interrupted_in("/", &|_| false);
    for ask in &history.asks {
        let _ = ask.headline();
        let _ = history.find(&ask.opened.id);
    }
}

/// A model's reply is read or refused; the built-in extractor's form always validates.
pub fn extraction(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(candidate) = crate::extract::candidate_from_output(&text) {
        let _ = crate::extract::check_candidate(&candidate);
        let _ = crate::extract::repair(&candidate);
    }
    let payload = crate::extract::builtin::extract(&text);
    if let Err(refused) = crate::extract::check_candidate(&payload) {
        panic!(
            "built-in extraction made an invalid form: {:?}\n{payload}",
            refused.issues
        );
    }
}

/// Editing operations from bytes on a one-line and a multi-line editor, at a width from the first
/// byte: the caret stays on a character boundary, a one-line editor never holds a line break, the
/// rows shown fit the width and hold the caret, and the rows kept between edits are exactly the
/// rows of the same text laid out afresh.
pub fn editing(data: &[u8]) {
    use pi_ask_components::{EditOp, TextEdit};
    let Some((&first, mut rest)) = data.split_first() else {
        return;
    };
    let width = u16::from(first % 40) + 1;
    let height = usize::from(first / 40) % 6 + 1;
    let mut edits = [TextEdit::new(""), TextEdit::new("").single_line()];
    while let Some((&b, tail)) = rest.split_first() {
        rest = tail;
        let op = match b % 18 {
            0 | 1 => {
                let n = usize::from(b / 18) % 8;
                let (text, tail) = rest.split_at(n.min(rest.len()));
                rest = tail;
                let text = String::from_utf8_lossy(text).into_owned();
                if b % 18 == 0 {
                    EditOp::Insert(text)
                } else {
                    EditOp::Paste(text)
                }
            }
            2 => EditOp::NewLine,
            3 => EditOp::DeleteCharBackward,
            4 => EditOp::DeleteCharForward,
            5 => EditOp::DeleteWordBackward,
            6 => EditOp::DeleteWordForward,
            7 => EditOp::DeleteToLineStart,
            8 => EditOp::DeleteToLineEnd,
            9 => EditOp::CursorLeft,
            10 => EditOp::CursorRight,
            11 => EditOp::CursorWordLeft,
            12 => EditOp::CursorWordRight,
            13 => EditOp::CursorLineStart,
            14 => EditOp::CursorLineEnd,
            15 => EditOp::CursorUp,
            16 => EditOp::CursorDown,
            _ => EditOp::Insert(" ".into()),
        };
        for edit in &mut edits {
            edit.apply(op.clone());
            let text = edit.text();
            assert!(text.is_char_boundary(edit.cursor()));
            if edit.is_single_line() {
                assert!(
                    !text.contains('\n'),
                    "a one-line editor holds no line break"
                );
            }
            let shown = edit.visible_rows(width, height);
            assert!(shown.ranges.len() <= height && !shown.ranges.is_empty());
            assert!(
                shown.caret.0 < shown.ranges.len(),
                "the caret's row is shown"
            );
            for &(start, end) in &shown.ranges {
                let row = &text[start..end];
                let w = pi_ask_components::text_edit::display_width(row);
                assert!(
                    w <= usize::from(width) || row.chars().count() == 1,
                    "a row wider than the editor: {row:?}"
                );
            }
            let mut fresh = TextEdit::new(text);
            if edit.is_single_line() {
                fresh = fresh.single_line();
            }
            assert_eq!(
                edit.row_count(width, usize::MAX),
                fresh.row_count(width, usize::MAX),
                "the kept rows are the rows of the text"
            );
        }
    }
}

/// A file planted in the queue (any bytes, under an ask's name): looking at the queue and
/// claiming never panics, offers only an ask whose id is its name's, and sets anything else
/// aside, so it is never read again.
pub fn queue_entry(data: &[u8], dir: &Path) {
    use crate::stores::queue::AskQueue;
    let Ok(queue) = crate::stores::queue::Queue::open(dir.join("queue")) else {
        return;
    };
    let name = "fuzzentry.ask.json";
    let path = queue.dir().join(name);
    let _ = std::fs::remove_file(queue.dir().join(format!("{name}.bad")));
    if std::fs::write(&path, data).is_err() {
        return;
    }
    // Every ask read, its asker alive or not (one whose asker is gone is a good entry that is
    // not offered; the sweep removes it after a day).
    let waiting = queue.waiting();
    assert!(waiting.iter().all(|a| a.id == "fuzzentry"), "{waiting:?}");
    if waiting.is_empty() {
        assert!(
            !path.exists(),
            "a bad entry is set aside, not left to be read again"
        );
    } else if let Ok(Some(claim)) = queue.claim("fuzzentry") {
        let _ = queue.release(claim);
    }
    let _ = std::fs::remove_file(&path);
}

/// A recorded draft (any bytes as JSON): restoring it on a form never panics, and a form that
/// took it keeps the model's invariants (cursors in range, one choice on single questions).
pub fn draft(data: &[u8]) {
    let Ok(draft) = serde_json::from_slice::<crate::model::Draft>(data) else {
        return;
    };
    let form = crate::input::validate_payload(&serde_json::json!({"questions": [
        {"id": "a", "prompt": "A?", "options": [{"value": "x", "label": "X"}, {"value": "y", "label": "Y"}]},
        {"id": "b", "prompt": "B?", "type": "multi", "options": [{"value": "x", "label": "X"}]},
        {"id": "c", "prompt": "C?", "type": "preview", "options": [{"value": "x", "label": "X", "preview": "p"}]}
    ]}))
    .expect("a valid form");
    let mut model = Model::new(form, Settings::defaults());
    if model.restore(&draft) {
        for (q, question) in model.questions().iter().enumerate() {
            assert!(model.cursor(q) < question.row_count());
            let answer = model.answer(q);
            assert!(answer.selected.iter().all(|&o| o < question.options.len()));
            assert!(question.presented_type.is_multi() || answer.committed_count() <= 1);
        }
        // And the flow goes on from there.
        for msg in [
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::Confirm),
            Msg::Intent(Intent::NextTab),
            Msg::Intent(Intent::Toggle),
        ] {
            let _ = update(&mut model, msg);
        }
        let _ = update(
            &mut model,
            Msg::Intent(Intent::Review(ReviewAction::Submit)),
        );
    }
}

/// What an MCP client writes (any bytes; the first byte picks where the stream is cut into
/// reads): every line within the limit passes unchanged and whole, nothing longer is held, and
/// the request id found in a well-formed line is the one serde_json reads.
pub fn mcp_line(data: &[u8]) {
    use crate::drivers::mcp::{IdScanner, LineGuard, Piece};
    let Some((&cut, stream)) = data.split_first() else {
        return;
    };
    let limit = 64;
    let mut guard = LineGuard::new(limit);
    let mut pieces = Vec::new();
    for chunk in stream.chunks(usize::from(cut).max(1)) {
        guard.feed(chunk, &mut pieces);
    }
    let lines: Vec<&[u8]> = stream.split_inclusive(|&b| b == b'\n').collect();
    let whole = lines.iter().filter(|l| l.ends_with(b"\n"));
    assert_eq!(pieces.len(), whole.clone().count());
    for (piece, line) in pieces.iter().zip(whole) {
        // Every line is either read as rmcp reads it (repaired) or answered with a parse error.
        match crate::drivers::mcp::line_check::check(line.to_vec()) {
            crate::drivers::mcp::line_check::Checked::Pass(passed) => assert!(
                passed.iter().all(u8::is_ascii_whitespace)
                    || serde_json::from_slice::<Value>(&passed).is_ok(),
                "{}",
                String::from_utf8_lossy(&passed)
            ),
            crate::drivers::mcp::line_check::Checked::Refuse {
                line: given, reply, ..
            } => {
                let reply: Value = serde_json::from_slice(&reply).expect("the reply is JSON");
                assert_eq!(reply["error"]["code"], -32700);
                // The line comes back as read (a repair changes escapes' digits only).
                assert_eq!(given.len(), line.len());
            }
            // A response that does not read: rmcp gets an error response for the same id.
            crate::drivers::mcp::line_check::Checked::Unanswerable { instead, .. } => {
                let instead: Value = serde_json::from_slice(&instead).expect("it is JSON");
                let error: rmcp::ErrorData =
                    serde_json::from_value(instead["error"].clone()).expect("an error");
                assert!(crate::drivers::mcp::line_check::unreadable_reply_cause(&error).is_some());
                // Its id: the response's (read after lone surrogates are repaired, so an id that
                // held one reads as U+FFFD).
                assert!(instead["id"].is_string() || instead["id"].is_number());
                let mut scanner = IdScanner::default();
                scanner.feed(line);
                if let Some(id) = scanner.response_id() {
                    assert_eq!(instead["id"], id);
                }
            }
        }
        match piece {
            Piece::Line(kept) => assert!(kept.as_slice() == *line && line.len() <= limit),
            Piece::Oversized { bytes, .. } => {
                assert!(*bytes == line.len() as u64 && line.len() > limit)
            }
        }
        let mut scanner = IdScanner::default();
        scanner.feed(line);
        let Ok(Value::Object(message)) = serde_json::from_slice::<Value>(line) else {
            continue;
        };
        let expected = message
            .get("id")
            .filter(|id| message.contains_key("method") && (id.is_number() || id.is_string()));
        // An id longer than any real one is not kept (then nothing is found).
        if let Some(found) = scanner.request_id() {
            assert_eq!(Some(&found), expected, "{}", String::from_utf8_lossy(line));
        }
        let answered = message
            .get("id")
            .filter(|id| !message.contains_key("method") && (id.is_number() || id.is_string()));
        if let Some(found) = scanner.response_id() {
            assert_eq!(Some(&found), answered, "{}", String::from_utf8_lossy(line));
        }
    }
}

/// Typed lines in line mode (any bytes; a line each): each is read or refused in a sentence, the
/// form goes on, and nothing but text and line breaks is said.
pub fn line_command(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let lines: Vec<&str> = text.lines().take(64).collect();
    let payload = serde_json::json!({"questions": [
        {"id": "a", "prompt": "A?", "options": [{"value": "x", "label": "X"}, {"value": "y", "label": "Y", "preview": "p"}]},
        {"id": "b", "prompt": "B?", "type": "multi", "options": [{"value": "x", "label": "X"}, {"value": "y", "label": "Y"}]}
    ]})
    .to_string();
    let mut harness = crate::testing::LineHarness::new(&payload).expect("a valid form");
    let transcript = harness.type_lines(&lines);
    let said = transcript.lines().filter(|l| !l.starts_with("> "));
    for line in said {
        assert!(line.chars().all(|c| !c.is_control()), "{line:?}");
    }
}

/// A host talking to `pi-ask embed` (any bytes; a host line each, after an `open` the target
/// makes with its config in `dir`): every engine line is a JSON object, no frame line is wider
/// than the host's width or carries a control character but escape sequences, and the engine
/// ends with a result once the host's input ends.
pub fn embed_session(data: &[u8], dir: &Path) {
    use crate::lines::Line;
    let text = String::from_utf8_lossy(data);
    let mut lines = text.lines();
    // The first line picks the flow and the width; `open` lines later are refused as such.
    let first = lines.next().unwrap_or("");
    let width = 1 + first.len() % 120;
    let flow = ["ask", "dialogs", "fallback"][first.len() % 3];
    let open = serde_json::json!({
        "type": "open", "flow": flow, "width": width, "height": 1 + first.len() % 40,
        "config": dir.join("embed.toml"), "cwd": dir,
        "payload": {"title": "T", "questions": [
            {"id": "a", "prompt": "A?", "options": [{"value": "x", "label": "X"},
             {"value": "y", "label": "Y", "description": "d"}]},
            {"id": "b", "prompt": "B?", "type": "preview", "options": [
             {"value": "x", "label": "X", "preview": "p"}]}]},
    });
    let (tx, rx) = std::sync::mpsc::channel();
    let _ = tx.send(Line::Text(open.to_string().into_bytes()));
    for line in lines.take(64) {
        let is_open = serde_json::from_str::<Value>(line)
            .ok()
            .is_some_and(|v| v.get("type").and_then(Value::as_str) == Some("open"));
        if !is_open {
            let _ = tx.send(Line::Text(line.as_bytes().to_vec()));
        }
    }
    drop(tx);
    let mut out = Vec::new();
    crate::drivers::embed::run(rx, &mut out).expect("writing to memory");
    let out = String::from_utf8(out).expect("the engine writes UTF-8");
    let mut ended = false;
    for line in out.lines() {
        let value: Value = serde_json::from_str(line).expect("every engine line is JSON");
        let kind = value["type"]
            .as_str()
            .expect("every engine line has a type");
        ended |= kind == "result";
        if kind == "frame" {
            let width = value["width"].as_u64().expect("a frame's width") as usize;
            for l in value["lines"].as_array().expect("a frame's lines") {
                let l = l.as_str().expect("lines are text");
                assert!(
                    crate::drivers::embed::visible_width(l) <= width,
                    "{l:?} at {width}"
                );
                assert!(l.chars().all(|c| c == '\x1b' || !c.is_control()), "{l:?}");
            }
        }
    }
    assert!(ended, "the engine ended without a result:\n{out}");
}

/// What a web page posts (any bytes; a posted body each line, `%0A` for a line break inside a
/// field): each is read or refused, what is read steps the form through the engine, and the page
/// drawn after every press holds no tag but the page's own (a note or an own answer carrying
/// markup is text, or Markdown cleaned to the allow-list) and no control character.
pub fn web_press(data: &[u8]) {
    use crate::engine::{Engine, Input, Viewport};
    use crate::engine::{Screen, Session};
    use crate::tui::App;
    let payload = serde_json::json!({"questions": [
        {"id": "a", "prompt": "A?", "options": [{"value": "x", "label": "X"}, {"value": "y", "label": "Y", "preview": "p"}]},
        {"id": "b", "prompt": "B?", "type": "multi", "options": [{"value": "x", "label": "X"}, {"value": "y", "label": "Y"}]}
    ]});
    let form = crate::input::validate_payload(&payload).expect("a valid form");
    let app = App::new(
        form,
        Settings::defaults(),
        crate::keymap::BindingTable::default(),
        String::new(),
        None,
    );
    let session = Session::new(Screen::Flow(Box::new(app)), None, Box::new(|_, _| {}));
    let mut engine = Engine::new(session, Viewport::Headless);
    let asker = crate::drivers::web::page::Asker {
        id: "fuzz",
        client: "fuzz",
        cwd: "/",
    };
    let now = std::time::Instant::now();
    for body in data.split(|&b| b == b'\n').take(64) {
        let Ok(posted) = crate::drivers::web::action::parse(body) else {
            continue;
        };
        engine.step(posted.msgs().into_iter().map(Input::Msg), now);
        let Some(app) = engine.session().app() else {
            return;
        };
        let html = crate::drivers::web::page::form_main(&asker, app.model(), "{}", 0, None);
        assert!(
            html.chars()
                .all(|c| !c.is_control() || c == '\n' || c == '\t'),
            "a control character on the page"
        );
        let lower = html.to_ascii_lowercase();
        let mut rest = lower.as_str();
        while let Some(start) = rest.find('<') {
            let end = rest[start..]
                .find('>')
                .map_or(rest.len(), |e| start + e + 1);
            let tag = &rest[start..end];
            for bad in ["<script", "<img", "<iframe", "<style", "javascript:"] {
                assert!(!tag.contains(bad), "{bad} in the tag {tag}");
            }
            // No event handler attribute (` onerror=`), whatever else a text in the tag says.
            for (at, _) in tag.match_indices(" on") {
                let name: String = tag[at + 1..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .collect();
                let after = tag[at + 1 + name.len()..].trim_start();
                assert!(
                    !after.starts_with('='),
                    "the handler {name} in the tag {tag}"
                );
            }
            rest = &rest[end..];
        }
        if engine.is_done() {
            return;
        }
    }
}

/// A host's hook event (any bytes): read as Claude Code's `AskUserQuestion` or `Elicitation`, as
/// Codex's `request_user_input` and as Gemini CLI's `ask_user`, it becomes a valid ask or is
/// refused with a reason, and the answer to a valid one (submitted as it opens, and cancelled) is
/// the hook's output: for Claude an allow with the original questions or a deny, for Codex and
/// Gemini always a deny whose reason is what the model reads, for an MCP server's form an accept
/// or a decline (a cancel always declines).
pub fn hook_event(data: &[u8]) {
    let Ok(event) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    for host in [
        crate::drivers::hooks::Host::Claude,
        crate::drivers::hooks::Host::Codex,
        crate::drivers::hooks::Host::Gemini,
    ] {
        hook_event_for(host, &event);
    }
}

fn hook_event_for(host: crate::drivers::hooks::Host, event: &Value) {
    let Ok(payload) = host.payload(event) else {
        return;
    };
    let form =
        crate::input::validate_payload(&payload).expect("the ask made from a hook event is valid");
    for action in [ReviewAction::Submit, ReviewAction::Cancel] {
        let mut model = Model::new(form.clone(), Settings::defaults());
        let result = update(&mut model, Msg::Intent(Intent::Review(action)))
            .into_iter()
            .find_map(|cmd| match cmd {
                Cmd::Finish(result) => Some(*result),
                _ => None,
            });
        let Some(result) = result else {
            continue;
        };
        let out = host.output(event, &result);
        if host.is_server_form(event) {
            // An MCP server's form: accepted with content, or declined; a cancel never accepts.
            let action = &out["hookSpecificOutput"]["action"];
            assert!(action == "accept" || action == "decline", "{out}");
            if result.details.cancelled {
                assert_eq!(action, "decline", "{out}");
            }
            continue;
        }
        if host == crate::drivers::hooks::Host::Gemini {
            assert_eq!(out["decision"], "deny", "{out}");
            assert!(out["reason"].is_string());
            continue;
        }
        let decision = &out["hookSpecificOutput"]["permissionDecision"];
        assert!(decision == "allow" || decision == "deny", "{out}");
        if host == crate::drivers::hooks::Host::Codex {
            assert_eq!(decision, "deny", "{out}");
            assert!(out["hookSpecificOutput"]["permissionDecisionReason"].is_string());
        }
        if decision == "allow" {
            assert_eq!(
                out["hookSpecificOutput"]["updatedInput"]["questions"],
                event["tool_input"]["questions"]
            );
        }
    }
}

/// A host form's reply (any bytes: the first says the dialect and the action, the rest is the
/// reply's `content` as JSON) to a fixed form of every question type: read into a result whose
/// choices are the form's options (anything else is the person's own words), never a panic.
pub fn host_form_reply(data: &[u8]) {
    use crate::drivers::mcp::{Dialect, ElicitReply, elicitation};
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let form = crate::input::validate_payload(&serde_json::json!({"title": "Fuzz", "questions": [
        {"id": "one", "prompt": "One?", "options": [{"value": "a", "label": "A, with a comma"}, {"value": "b", "label": "B", "recommended": true}]},
        {"id": "many", "type": "multi", "prompt": "Many?", "options": [{"value": "x", "label": "X"}, {"value": "y", "label": "Y"}]},
        {"id": "look", "type": "preview", "prompt": "Look?", "options": [{"value": "p", "label": "P", "preview": "p"}, {"value": "q", "label": "Q", "preview": "q"}]}
    ]}))
    .expect("the fuzz form is valid");
    let dialect = if head & 1 == 0 {
        Dialect::Titled
    } else {
        Dialect::Legacy
    };
    let reply = match (head >> 1) % 3 {
        0 => ElicitReply::Accept,
        1 => ElicitReply::Decline,
        _ => ElicitReply::Cancel,
    };
    let content = serde_json::from_slice::<Value>(rest).ok();
    let asked = elicitation(&form, dialect);
    let read = asked.result(&form, reply, content.as_ref());
    let details = &read.result.details;
    assert_eq!(details.cancelled, reply != ElicitReply::Accept);
    for (question, answer) in form
        .questions
        .iter()
        .zip(form.questions.iter().map(|q| details.answers.get(&q.id)))
    {
        let Some(answer) = answer else { continue };
        for value in &answer.values {
            let an_option = question.options.iter().any(|o| &o.value == value);
            assert!(
                an_option || answer.custom_text.as_deref() == Some(value.as_str()),
                "{value:?} of {}",
                question.id
            );
        }
    }
    serde_json::to_string(&read.result).expect("the result is JSON");
}

/// A host's JSON settings (any text) edited in place the way `pi-ask setup` edits them: a key put
/// in, an element appended and taken out again. Either the text reads back as exactly the value
/// meant, or the edit is refused; what pi-ask does not own is never changed in value.
pub fn json_edit(data: &[u8]) {
    use crate::drivers::hooks::json_text::edited;
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(old) = serde_json::from_str::<Value>(text) else {
        return;
    };
    let mut new = old.clone();
    if let Some(map) = new.as_object_mut() {
        map.insert(
            "piAskFuzz".to_owned(),
            serde_json::json!({"hooks": [1, "two"]}),
        );
        for value in map.values_mut() {
            if let Some(items) = value.as_array_mut() {
                items.push(serde_json::json!("added"));
                if items.len() > 1 {
                    items.remove(0);
                }
            }
        }
    } else {
        new = serde_json::json!({"replaced": true});
    }
    if let Ok(out) = edited(text, &old, &new) {
        let back: Value = serde_json::from_str(&out).expect("an edit reads as JSON");
        assert_eq!(back, new, "an edit gives the value meant");
        let again = edited(&out, &new, &old);
        if let Ok(undone) = again {
            let back: Value = serde_json::from_str(&undone).expect("an undo reads as JSON");
            assert_eq!(back, old, "the undo gives the value back");
        }
    }
}

/// A hook's shell command as `doctor` reads its program: any text reads without a panic, and a
/// program quoted as `setup` writes it reads back as itself.
pub fn hook_command(data: &[u8]) {
    use crate::drivers::hooks::setup::command_program;
    let text = String::from_utf8_lossy(data);
    if let Some(program) = command_program(&text) {
        assert!(
            program.len() <= text.len(),
            "a program is part of its command"
        );
    }
    let quoted = format!("'{}' hook claude", text.replace('\'', r"'\''"));
    assert_eq!(
        command_program(&quoted).as_deref(),
        Some(&*text),
        "setup's quoting reads back"
    );
}
