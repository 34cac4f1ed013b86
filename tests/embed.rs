//! The embed protocol (`pi-ask embed`): every message kind, refused lines, frames no wider than
//! the host's width at every size, and the same results and screens as the test harness.

mod common;

use common::embed_host::{exchange, last_frame, of_type, plain, strip};
use pi_ask::drivers::embed::visible_width;
use pi_ask::testing::Harness;
use serde_json::{Value, json};

fn config_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn open(payload: &Value, width: u16, height: u16, dir: &tempfile::TempDir) -> Value {
    json!({
        "type": "open", "flow": "ask", "payload": payload, "width": width, "height": height,
        "config": dir.path().join("pi-ask.toml"), "cwd": dir.path(), "toolCallId": "call_7",
    })
}

fn input(data: &str) -> Value {
    json!({"type": "input", "data": data})
}

fn deploy() -> Value {
    json!({"title": "Deploy", "questions": [
        {"id": "env", "label": "Env", "prompt": "Where to?", "options": [
            {"value": "staging", "label": "Staging"},
            {"value": "prod", "label": "Production", "recommended": true,
             "description": "the live cluster"}]},
        {"id": "checks", "type": "multi", "prompt": "Which checks?", "options": [
            {"value": "lint", "label": "Lint"}, {"value": "test", "label": "Tests"},
            {"value": "bench", "label": "Benchmarks"}]}]})
}

#[test]
fn hello_comes_first_and_names_the_protocol() {
    let out = exchange(&[]);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0]["type"], "hello");
    assert_eq!(out[0]["protocol"], 1);
}

#[test]
fn the_same_keys_give_the_same_result_and_screen_as_the_harness() {
    let dir = config_dir();
    // Down, Enter (Production); Space on Lint, Down, Space on Tests, Tab to the review; Enter.
    let keys = ["\x1b[B", "\r", " ", "\x1b[B", " ", "\t"];
    let mut lines = vec![open(&deploy(), 72, 30, &dir)];
    lines.extend(keys.iter().map(|k| input(k)));
    let before_submit = exchange(&lines);
    lines.push(input("\r"));
    let out = exchange(&lines);

    let frame = last_frame(&before_submit);
    let shown = plain(frame);
    let mut harness = Harness::new(&deploy().to_string(), 72, shown.len() as u16).unwrap();
    harness.inside_a_host();
    for key in keys {
        harness.send_bytes(key.as_bytes());
    }
    assert_eq!(
        shown,
        harness.screen(),
        "the embedded review tab is the harness's"
    );
    harness.send_bytes(b"\r");

    let result = &of_type(&out, "result")[0]["result"];
    let expected = serde_json::to_value(harness.result().unwrap()).unwrap();
    assert_eq!(result, &expected);
    assert_eq!(
        result["details"]["answers"]["env"]["values"],
        json!(["prod"])
    );
    assert_eq!(
        result["details"]["answers"]["checks"]["values"],
        json!(["lint", "test"])
    );
    // The payload is stored on the branch before the form opens (for `/ask:replay`), then the
    // lifecycle events come around the form: started, completed with the same result.
    assert_eq!(out[1]["type"], "store");
    assert_eq!(out[1]["customType"], "ask:payload");
    assert_eq!(out[1]["data"]["source"], "tool");
    assert_eq!(out[1]["data"]["sourceEntryId"], "call_7");
    assert_eq!(out[1]["data"]["params"], deploy());
    assert_eq!(out[2]["type"], "started");
    assert_eq!(out[2]["flowId"], "tool:call_7");
    let completed = &of_type(&out, "completed")[0];
    assert_eq!(&completed["result"], &result["details"]);
    assert_eq!(out.last().unwrap()["type"], "result");
    assert_eq!(
        out.last().unwrap()["transcript"],
        "✓ Env: Production\n✓ Q2: Lint, Tests"
    );
}

#[test]
fn frames_are_never_wider_than_the_host_at_any_width() {
    let dir = config_dir();
    let payload = json!({"title": "日本語のタイトル 👩‍👩‍👧 ❤️", "questions": [
        {"id": "a", "type": "preview", "prompt": "絵文字 🇯🇵 と 漢字 ✔️ を選ぶ", "options": [
            {"value": "x", "label": "中文选项 👍🏽", "description": "說明 ⚠️ text",
             "preview": "预览 👨‍💻 line\nsecond 行"},
            {"value": "y", "label": "한국어 옵션", "preview": "미리보기"}]}]});
    let mut lines = vec![open(&payload, 1, 40, &dir)];
    for width in 1..=130u16 {
        lines.push(json!({"type": "resize", "width": width, "height": 40}));
        if width % 7 == 0 {
            lines.push(input("\x1b[B"));
        }
    }
    let out = exchange(&lines);
    let frames = of_type(&out, "frame");
    assert!(frames.len() >= 100, "a frame per size: {}", frames.len());
    for frame in frames {
        let width = frame["width"].as_u64().unwrap() as usize;
        for line in frame["lines"].as_array().unwrap() {
            let line = line.as_str().unwrap();
            assert!(
                visible_width(line) <= width,
                "{} columns at width {width}: {line:?}",
                visible_width(line)
            );
            assert!(
                line.chars().all(|c| c == '\x1b' || !c.is_control()),
                "{line:?}"
            );
        }
    }
}

#[test]
fn refused_lines_are_named_and_the_flow_goes_on() {
    let dir = config_dir();
    let out = exchange(&[
        json!({"type": "input", "data": "1"}),
        open(&deploy(), 60, 20, &dir),
        json!("just a string"),
        json!({"type": "dance"}),
        json!({"type": "input", "data": "x", "extra": true}),
        json!({"type": "resize", "width": -1, "height": 3}),
        json!({"type": "reply", "id": "step-1", "value": "x"}),
        open(&deploy(), 60, 20, &dir),
        input("\x1b"),
        input("\x1b"),
    ]);
    let errors: Vec<&str> = of_type(&out, "error")
        .iter()
        .map(|e| e["message"].as_str().unwrap())
        .collect();
    assert_eq!(errors.len(), 7, "{errors:#?}");
    assert!(errors[0].contains("open a flow first"));
    assert!(errors[1].contains("not a JSON object"));
    assert!(errors[2].contains("unknown message type \"dance\""));
    assert!(errors[3].contains("unknown field `extra`"));
    assert!(errors[4].starts_with("invalid resize message"));
    assert!(errors[5].contains("no dialog step is waiting"));
    assert!(errors[6].contains("already open"));
    // Esc, Esc: the form was dismissed (cancelled), its result delivered.
    let result = &of_type(&out, "result")[0]["result"];
    assert_eq!(result["details"]["cancelled"], true);
}

#[test]
fn an_invalid_payload_gets_the_invalid_input_result_and_no_events() {
    let dir = config_dir();
    let out = exchange(&[open(&json!({"questions": []}), 60, 20, &dir)]);
    assert!(of_type(&out, "started").is_empty());
    assert!(of_type(&out, "frame").is_empty());
    let result = &of_type(&out, "result")[0];
    assert_eq!(
        result["result"]["details"]["error"]["kind"],
        "invalid_input"
    );
    assert_eq!(result["transcript"], "Invalid tool payload");
}

#[test]
fn the_fallback_flow_returns_the_pending_questions() {
    let out = exchange(&[json!({"type": "open", "flow": "fallback", "payload": deploy()})]);
    let result = &of_type(&out, "result")[0]["result"];
    assert!(
        result["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Needs user input: ask_user requires interactive TUI mode.")
    );
    assert_eq!(result["details"]["cancelled"], true);
}

#[test]
fn an_abort_ends_the_form_cancelled_with_what_was_entered() {
    let dir = config_dir();
    let out = exchange(&[
        open(&deploy(), 60, 20, &dir),
        input("\x1b[B"),
        input("\r"),
        json!({"type": "abort"}),
    ]);
    let result = &of_type(&out, "result")[0]["result"];
    assert_eq!(result["details"]["cancelled"], true);
    assert!(of_type(&out, "completed").len() == 1);
}

#[test]
fn the_host_going_away_ends_the_form_as_interrupted() {
    let dir = config_dir();
    let out = exchange(&[open(&deploy(), 60, 20, &dir), input("\x1b[B"), input("\r")]);
    let result = &of_type(&out, "result")[0]["result"];
    assert_eq!(result["details"]["cancelled"], true);
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("the host closed the connection"), "{text}");
}

#[test]
fn remote_submits_are_validated_by_the_engine() {
    let dir = config_dir();
    let submit = |id: &str, answers: Value| {
        json!({"type": "submit", "version": 1, "requestId": id, "flowId": "tool:call_7",
               "response": {"kind": "answer", "answers": answers}})
    };
    let out = exchange(&[
        open(&deploy(), 60, 20, &dir),
        submit("r1", json!({"env": {"values": ["approve"]}})),
        submit(
            "r2",
            json!({"env": {"values": ["staging"], "note": "after lunch"}}),
        ),
        submit("r3", json!({"env": {"values": ["prod"]}})),
    ]);
    let replies = of_type(&out, "submit-result");
    assert_eq!(replies[0]["ok"], false);
    assert_eq!(
        replies[0]["message"],
        "Unknown option value \"approve\" for question \"env\"."
    );
    assert_eq!(replies[1]["ok"], true);
    assert_eq!(replies[1]["requestId"], "r2");
    let result = &of_type(&out, "result")[0]["result"];
    assert_eq!(
        result["details"]["answers"]["env"]["values"],
        json!(["staging"])
    );
    assert_eq!(result["details"]["answers"]["env"]["note"], "after lunch");
    // The form ended with r2: r3 never reached an open flow.
    assert_eq!(replies.len(), 2);
}

#[test]
fn the_cursor_marker_sits_in_the_open_editor() {
    let dir = config_dir();
    let mut first = open(&deploy(), 60, 20, &dir);
    first["cursorMarker"] = json!("\x1b_pi:c\x07");
    // Down twice reaches `Type your own`; typing opens its editor.
    let out = exchange(&[first, input("\x1b[B\x1b[B"), input("hi")]);
    let frame = last_frame(&out);
    let cursor = &frame["cursor"];
    assert!(cursor.is_object(), "{frame:#}");
    let row = cursor["row"].as_u64().unwrap() as usize;
    let line = frame["lines"][row].as_str().unwrap();
    let marker_at = line
        .find("\x1b_pi:c\x07")
        .expect("the marker is on the cursor's row");
    assert!(strip(&line[..marker_at]).ends_with("hi"), "{line:?}");
    let others = frame["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l.as_str().unwrap().contains("\x1b_pi:c"))
        .count();
    assert_eq!(others, 1);
}

/// Issue 42: the footer names Shift+Enter for a new line only when the host says its terminal
/// reports it (pi: the kitty keyboard protocol); otherwise a key every terminal delivers.
#[test]
fn the_new_line_hint_follows_what_the_hosts_terminal_reports() {
    let dir = config_dir();
    let hint = |keyboard: Option<bool>| {
        let mut lines = vec![open(&deploy(), 100, 20, &dir)];
        if let Some(shift_enter) = keyboard {
            lines.push(json!({"type": "keyboard", "shiftEnter": shift_enter}));
        }
        lines.extend([input("\x1b[B\x1b[B"), input("two\nlines")]);
        let out = exchange(&lines);
        plain(last_frame(&out))
            .into_iter()
            .find(|l| l.contains("new line"))
            .unwrap_or_default()
    };
    assert!(hint(None).contains("Alt+Enter new line"), "{}", hint(None));
    assert!(hint(Some(false)).contains("Alt+Enter new line"));
    assert!(
        hint(Some(true)).contains("Shift+Enter new line"),
        "{}",
        hint(Some(true))
    );
}

/// Issue 39: inside a host the form hides to one line (the host's conversation above it can be
/// read) with the key the footer names, and comes back as it was.
#[test]
fn the_form_hides_to_one_line_inside_a_host_and_comes_back() {
    let dir = config_dir();
    let out = exchange(&[open(&deploy(), 100, 20, &dir)]);
    let footer = plain(last_frame(&out)).join("\n");
    assert!(footer.contains("Ctrl+] hide"), "{footer}");
    let out = exchange(&[
        open(&deploy(), 100, 20, &dir),
        input("\x1b[B"),
        input("\x1d"),
    ]);
    let hidden = plain(last_frame(&out));
    assert_eq!(hidden.len(), 1, "{hidden:?}");
    assert_eq!(hidden[0].trim(), "Deploy (hidden) · Ctrl+] show");
    let out = exchange(&[
        open(&deploy(), 100, 20, &dir),
        input("\x1b[B"),
        input("\x1d"),
        input("\r"),
        input("\x1d"),
        input("\r"),
        input("\r"),
    ]);
    let result = &of_type(&out, "result")[0]["result"];
    assert_eq!(
        result["details"]["answers"]["env"]["values"],
        json!(["prod"]),
        "the Enter pressed while hidden did nothing; the cursor stayed on Production"
    );
}

/// Issue 39: Ctrl+G in an editor asks the host to open the person's own editor on its text (pi
/// lends its terminal); the text saved there replaces the form editor's. An edit quit without
/// saving leaves the text as it was.
#[test]
fn ctrl_g_edits_the_text_in_the_persons_editor_through_the_host() {
    let dir = config_dir();
    let out = exchange(&[
        open(&deploy(), 100, 20, &dir),
        input("\x1b[B\x1b[B"),
        input("draft"),
        input("\x07"),
        json!({"type": "edited", "id": "edit-1", "text": "draft\nfrom my editor"}),
        input("\x07"),
        json!({"type": "edited", "id": "edit-2"}),
        input("\r"),
    ]);
    let edits = of_type(&out, "edit");
    assert_eq!(edits.len(), 2, "{out:#?}");
    assert_eq!(edits[0]["text"], "draft");
    assert_eq!(edits[1]["text"], "draft\nfrom my editor");
    assert!(of_type(&out, "error").is_empty(), "{out:#?}");
    let out2 = exchange(&[
        open(&deploy(), 100, 20, &dir),
        input("\x1b[B\x1b[B"),
        input("draft"),
        input("\x07"),
        json!({"type": "edited", "id": "edit-1", "text": "mine"}),
        input("\r\r\r"),
    ]);
    let result = &of_type(&out2, "result")[0]["result"];
    assert_eq!(result["details"]["answers"]["env"]["customText"], "mine");
}

#[test]
fn the_dialog_flow_is_served_as_steps() {
    let dir = config_dir();
    let out = exchange(&[
        json!({"type": "open", "flow": "dialogs", "payload": deploy(), "config": dir.path().join("pi-ask.toml")}),
        json!({"type": "reply", "id": "step-1", "value": "2. Production (recommended) — the live cluster"}),
        json!({"type": "reply", "id": "step-9", "value": "nope"}),
        json!({"type": "reply", "id": "step-2", "value": "Type something…"}),
        json!({"type": "reply", "id": "step-3", "value": " lint and tests "}),
    ]);
    let steps = of_type(&out, "step");
    assert_eq!(steps.len(), 3);
    assert_eq!(steps[0]["dialog"], "select");
    assert_eq!(steps[0]["title"], "[1/2] Deploy — Env: Where to?");
    assert_eq!(steps[0]["options"][2], "Type something…");
    assert_eq!(steps[2]["dialog"], "input");
    assert!(
        of_type(&out, "error")[0]["message"]
            .as_str()
            .unwrap()
            .contains("step-9")
    );
    let result = &of_type(&out, "result")[0]["result"];
    assert_eq!(result["details"]["mode"], "submit");
    assert_eq!(
        result["details"]["answers"]["env"]["values"],
        json!(["prod"])
    );
    assert_eq!(
        result["details"]["answers"]["checks"]["customText"],
        "lint and tests"
    );
}

#[test]
fn a_dialog_abort_cancels() {
    let dir = config_dir();
    let out = exchange(&[
        json!({"type": "open", "flow": "dialogs", "payload": deploy(), "config": dir.path().join("pi-ask.toml")}),
        json!({"type": "reply", "id": "step-1", "cancelled": true}),
        json!({"type": "abort"}),
    ]);
    assert_eq!(of_type(&out, "step").len(), 2);
    assert_eq!(
        of_type(&out, "result")[0]["result"]["details"]["cancelled"],
        true
    );
}

#[test]
fn the_settings_modal_opens_alone_and_closes() {
    let dir = config_dir();
    let config = dir.path().join("pi-ask.toml");
    let out = exchange(&[
        json!({"type": "open", "flow": "settings", "width": 80, "height": 30, "config": config}),
        input("\x1b"),
    ]);
    let frame = plain(last_frame(&out)).join("\n");
    assert!(frame.contains("Live settings"), "{frame}");
    assert!(frame.contains(&config.display().to_string()), "{frame}");
    assert_eq!(out.last().unwrap()["type"], "closed");
}

#[test]
fn the_host_theme_colours_the_frame_and_bad_colours_are_named() {
    let dir = config_dir();
    let mut first = open(&deploy(), 60, 20, &dir);
    first["theme"] = json!({"name": "light", "colors": {"accent": "#123456", "muted": "nope"}});
    let out = exchange(&[first]);
    let errors = of_type(&out, "error");
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0]["message"]
            .as_str()
            .unwrap()
            .contains("theme.colors.muted")
    );
    // The rule across the top is drawn in the accent colour.
    let rule = last_frame(&out)["lines"][0].as_str().unwrap().to_owned();
    assert!(rule.contains("38;2;18;52;86"), "{rule:?}");
}

#[test]
fn the_binary_serves_the_protocol() {
    use std::io::Write;
    let dir = config_dir();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .arg("embed")
        .env("HOME", dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in [
        open(&deploy(), 60, 20, &dir),
        input("\r"),
        input("\r"),
        input("\r"),
    ] {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let out: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let result = &of_type(&out, "result")[0]["result"];
    assert_eq!(
        result["details"]["answers"]["env"]["values"],
        json!(["staging"])
    );
}

/// A session branch as pi's `getBranch()` gives it: a user message, an assistant message with an
/// `ask_user` call, its stored payload, and (when `answered`) the tool result.
fn branch(answered: bool) -> Vec<Value> {
    let mut entries = vec![
        json!({"type": "message", "id": "u1", "parentId": null,
               "message": {"role": "user", "content": "deploy please"}}),
        json!({"type": "message", "id": "a1", "parentId": "u1",
               "message": {"role": "assistant", "stopReason": "toolUse", "content": [
                   {"type": "toolCall", "id": "call_9", "name": "ask_user", "arguments": deploy()}]}}),
        json!({"type": "custom", "id": "p1", "parentId": "a1", "customType": "ask:payload",
               "data": {"version": 1, "source": "tool", "params": deploy(), "sourceEntryId": "call_9"}}),
    ];
    if answered {
        entries.push(json!({"type": "message", "id": "r1", "parentId": "p1",
            "message": {"role": "toolResult", "toolCallId": "call_9", "content": []}}));
    }
    entries
}

fn find(kind: &str, entries: Vec<Value>, dir: &tempfile::TempDir) -> Value {
    json!({"type": "open", "flow": "ask", "find": kind, "branch": entries, "width": 60,
           "height": 20, "config": dir.path().join("pi-ask.toml")})
}

#[test]
fn replay_reopens_the_newest_form_on_the_branch_and_sends_the_answer_on() {
    let dir = config_dir();
    let out = exchange(&[
        find("replay", branch(true), &dir),
        input("\r"),
        input("\r"),
        input("\r"),
    ]);
    assert_eq!(
        of_type(&out, "notice")[0]["message"],
        "Replaying previous ask_user form on this branch: 2 question(s)."
    );
    assert!(of_type(&out, "store").is_empty(), "a replay stores nothing");
    let started = &of_type(&out, "started")[0];
    assert_eq!(started["source"], "ask:replay");
    assert!(
        started["flowId"].as_str().unwrap().starts_with("flow:"),
        "a replay is a flow of its own, not tool:call_9: {started}"
    );
    assert!(started.get("toolCallId").is_none(), "{started}");
    let delivered = &of_type(&out, "deliver")[0]["text"];
    let result = &of_type(&out, "result")[0]["result"];
    assert_eq!(delivered, &result["content"][0]["text"]);
}

#[test]
fn replay_with_nothing_on_the_branch_says_so() {
    let dir = config_dir();
    let out = exchange(&[find("replay", Vec::new(), &dir)]);
    assert_eq!(
        of_type(&out, "notice")[0]["message"],
        "No previous ask_user form found on this branch."
    );
    assert_eq!(out.last().unwrap()["type"], "closed");
}

#[test]
fn recovery_never_reopens_a_call_the_host_is_running() {
    let dir = config_dir();
    let mut open = find("resume", branch(false), &dir);
    open["running"] = json!(["call_9"]);
    let out = exchange(&[open]);
    assert_eq!(
        out.iter()
            .map(|v| v["type"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["hello", "closed"]
    );
}

#[test]
fn recovery_reopens_an_unanswered_call_once_and_marks_it_dismissed() {
    let dir = config_dir();
    // Answered calls are not recovered.
    let none = exchange(&[find("resume", branch(true), &dir)]);
    assert_eq!(
        none.iter()
            .map(|v| v["type"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["hello", "closed"]
    );
    // An interrupted one is, and its cancel marks it dismissed.
    let out = exchange(&[
        find("resume", branch(false), &dir),
        input("\x1b"),
        input("\x1b"),
    ]);
    assert_eq!(
        of_type(&out, "notice")[0]["message"],
        "Reopening unanswered ask_user form: 2 question(s)."
    );
    let started = &of_type(&out, "started")[0];
    assert_eq!(started["source"], "ask:resume");
    assert_eq!(started["flowId"], "tool:call_9");
    let stored = of_type(&out, "store");
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0]["customType"], "ask:pending-dismissed");
    assert_eq!(stored[0]["data"]["toolCallId"], "call_9");
    assert_eq!(
        of_type(&out, "notice")[1]["message"],
        "Unanswered ask_user form dismissed; use /ask:replay to reopen it."
    );
    // With that dismissal on the branch, the next start reopens nothing.
    let mut later = branch(false);
    later.push(json!({"type": "custom", "id": "d1", "parentId": "p1",
        "customType": "ask:pending-dismissed", "data": stored[0]["data"].clone()}));
    let again = exchange(&[find("resume", later, &dir)]);
    assert!(of_type(&again, "started").is_empty());
}

/// A branch whose latest assistant message asks something.
fn asked(text: &str) -> Vec<Value> {
    vec![
        json!({"type": "message", "id": "u1", "parentId": null,
               "message": {"role": "user", "content": "set up the database"}}),
        json!({"type": "message", "id": "a1", "parentId": "u1",
               "message": {"role": "assistant", "stopReason": "stop",
                           "content": [{"type": "text", "text": text}]}}),
    ]
}

fn answer_open(extractor: &str, entries: Vec<Value>, dir: &tempfile::TempDir) -> Value {
    let mut open = find("answer", entries, dir);
    open["extractor"] = json!(extractor);
    open["source"] = json!("answer");
    open
}

#[test]
fn answer_asks_the_hosts_model_retries_an_invalid_answer_and_opens_the_form() {
    let dir = config_dir();
    let good = json!({"name": "ask_user", "arguments": {"questions": [
        {"id": "db", "prompt": "Which database?", "options": [
            {"value": "pg", "label": "Postgres"}, {"value": "sqlite", "label": "SQLite"}]}]}});
    let out = exchange(&[
        answer_open("host", asked("Which database: Postgres or SQLite?"), &dir),
        json!({"type": "extracted", "id": "extract-1", "output": "I am not sure"}),
        json!({"type": "extracted", "id": "extract-2", "output": good.to_string()}),
        input("\x1b[B"),
        input("\r"),
        input("\r"),
    ]);
    let requests = of_type(&out, "extract");
    assert_eq!(requests.len(), 2);
    let prompt = requests[1]["prompt"].as_str().unwrap();
    assert!(
        prompt.contains("<previous_user_message>\nset up the database"),
        "{prompt}"
    );
    assert!(
        prompt.contains("The previous extraction was invalid."),
        "{prompt}"
    );
    assert_eq!(requests[0]["tool"]["name"], "ask_user");
    assert_eq!(
        of_type(&out, "notice")[0]["message"],
        "Retrying question extraction (1/1)..."
    );
    let stored = &of_type(&out, "store")[0];
    assert_eq!(stored["data"]["source"], "answer-extraction");
    assert_eq!(stored["data"]["sourceEntryId"], "a1");
    assert_eq!(of_type(&out, "started")[0]["source"], "answer");
    let result = &of_type(&out, "result")[0]["result"];
    assert_eq!(
        result["details"]["answers"]["db"]["values"],
        json!(["sqlite"])
    );
    assert_eq!(
        of_type(&out, "deliver")[0]["text"],
        result["content"][0]["text"]
    );
}

#[test]
fn answer_with_the_engines_extractor_and_with_nothing_to_extract() {
    let dir = config_dir();
    let out = exchange(&[
        answer_open(
            "engine",
            asked("Which database should I use?\n1. Postgres\n2. SQLite"),
            &dir,
        ),
        input("\r"),
        input("\r"),
    ]);
    let result = &of_type(&out, "result")[0]["result"];
    assert_eq!(
        result["details"]["answers"]["database"]["labels"],
        json!(["Postgres"]),
        "{result:#}"
    );
    let none = exchange(&[answer_open("host", Vec::new(), &dir)]);
    assert_eq!(
        of_type(&none, "notice")[0]["message"],
        "No assistant message found to extract questions from."
    );
    let empty = exchange(&[
        answer_open("host", asked("All done."), &dir),
        json!({"type": "extracted", "id": "extract-1", "output": "{\"questions\":[]}"}),
    ]);
    assert_eq!(
        of_type(&empty, "notice")[0]["message"],
        "No questions found in the latest assistant message."
    );
}

/// Issue 39: with the config's extractor command (not the host's model), a retry was silent
/// inside pi; the original names it.
#[test]
fn the_configured_extractors_retry_is_named_in_a_notice() {
    let dir = config_dir();
    let script = dir.path().join("extract.sh");
    let count = dir.path().join("count");
    let good = json!({"questions": [{"id": "db", "prompt": "Which database?", "options": [
        {"value": "pg", "label": "Postgres"}, {"value": "sqlite", "label": "SQLite"}]}]});
    std::fs::write(
        &script,
        format!(
            "cat >/dev/null\nif [ -e '{count}' ]; then printf '%s' '{good}'; else : > '{count}'; echo 'not sure'; fi\n",
            count = count.display()
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("pi-ask.toml"),
        format!(
            "schemaVersion = 5\n[answer]\nextractor = [\"sh\", {:?}]\nextractionRetries = 1\n",
            script.display().to_string()
        ),
    )
    .unwrap();
    let out = exchange(&[
        answer_open("engine", asked("Which database: Postgres or SQLite?"), &dir),
        input("\r"),
        input("\r"),
    ]);
    let notices: Vec<&Value> = of_type(&out, "notice")
        .into_iter()
        .map(|n| &n["message"])
        .collect();
    assert_eq!(
        notices,
        [&json!("Retrying question extraction (1/1)...")],
        "{out:#?}"
    );
    let result = &of_type(&out, "result")[0]["result"];
    assert_eq!(result["details"]["answers"]["db"]["values"], json!(["pg"]));
}

#[test]
fn a_cwd_that_is_not_a_folder_is_named_and_the_form_still_opens() {
    let dir = config_dir();
    let mut first = open(&deploy(), 60, 20, &dir);
    first["cwd"] = json!(dir.path().join("missing\u{1b}[31m"));
    let out = exchange(&[first, input("\r"), input("\r"), input("\r")]);
    let errors = of_type(&out, "error");
    assert_eq!(errors.len(), 1);
    let message = errors[0]["message"].as_str().unwrap();
    assert!(message.contains("is not a directory"), "{message}");
    assert!(!message.contains('\x1b'), "made printable: {message:?}");
    let result = &of_type(&out, "result")[0]["result"];
    assert_eq!(
        result["details"]["answers"]["env"]["values"],
        json!(["staging"])
    );
}
