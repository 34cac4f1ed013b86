//! Scripting where gum and fzf users expect it: `ask --timeout`, `--format text`, `--quick`,
//! select all / none, and a payload file that cannot be read said on stderr. The real binary in
//! a pseudo-terminal.

mod common;

use std::process::Command;

use common::pty::Session;

const MULTI: &str = r#"{"questions":[{"id":"pick","prompt":"Which?","type":"multi","options":[
 {"value":"a","label":"Alpha"},{"value":"b","label":"Beta"},{"value":"c","label":"Gamma"}]}]}"#;

const SINGLE: &str = r#"{"questions":[{"id":"go","prompt":"Ship it?","options":[
 {"value":"yes","label":"Yes"},{"value":"no","label":"No"}]}]}"#;

fn with_payload(text: &'static str) -> impl FnOnce(&std::path::Path) {
    move |dir| std::fs::write(dir.join("payload.json"), text).unwrap()
}

/// Goes to the review and submits there (its `1` pressed twice).
fn submit_from_review(s: &mut Session) {
    s.wait_for("Review answers");
    s.send("1");
    s.send("1");
}

#[test]
fn a_form_nobody_answers_ends_at_its_timeout_with_exit_124_and_says_so() {
    let mut s = Session::start(
        &["ask", "--timeout", "0.6", "payload.json"],
        with_payload(SINGLE),
    );
    s.wait_for("Ship it?");
    // Something entered but not submitted stays in the result for context.
    s.send("2");
    s.wait_for("Review answers");
    let (code, json) = s.finish();
    assert_eq!(code, 124);
    assert_eq!(json["details"]["cancelled"], true);
    assert_eq!(
        json["details"]["answers"]["go"]["values"],
        serde_json::json!(["no"])
    );
    assert!(
        json["content"][0]["text"].as_str().unwrap().ends_with(
            "What was entered so far is in details.answers for context; it was not submitted."
        ),
        "{json}"
    );
    let text = json["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with(
            "No answer within 0.6 s: the ask timed out before the user answered; nothing was chosen."
        ),
        "{text}"
    );
    assert!(s.cooked(), "the terminal is restored");
}

#[test]
fn a_bad_timeout_is_refused_before_the_form_opens() {
    for bad in ["0", "-1", "nan", "999999999"] {
        let out = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
            .args(["ask", &format!("--timeout={bad}"), "-"])
            .stdin(std::process::Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--timeout"), "{bad}: {err}");
    }
}

#[test]
fn format_text_prints_the_chosen_labels_one_a_line() {
    let mut s = Session::start(
        &["ask", "--format", "text", "payload.json"],
        with_payload(MULTI),
    );
    s.wait_for("Which?");
    s.send("1");
    s.send("3");
    s.send("\r");
    submit_from_review(&mut s);
    let (code, out) = s.finish_text();
    assert_eq!(code, 0);
    assert_eq!(out, "Alpha\nGamma\n");
}

#[test]
fn format_text_prints_nothing_for_a_cancelled_form() {
    let mut s = Session::start(
        &["ask", "--format", "text", "payload.json"],
        with_payload(SINGLE),
    );
    s.wait_for("Ship it?");
    s.send("\x1b");
    let (code, out) = s.finish_text();
    assert_eq!(code, 1);
    assert_eq!(out, "");
}

#[test]
fn quick_submits_a_single_choice_at_once() {
    let mut s = Session::start(
        &["ask", "--quick", "--format", "text", "payload.json"],
        with_payload(SINGLE),
    );
    s.wait_for("Ship it?");
    s.send("2");
    let (code, out) = s.finish_text();
    assert_eq!(code, 0, "{}", s.contents());
    assert_eq!(out, "No\n");
    assert!(!s.contents().contains("Review answers"));
}

#[test]
fn a_chooses_every_option_of_a_multi_question_and_again_none() {
    let mut s = Session::start(
        &["ask", "--format", "text", "payload.json"],
        with_payload(MULTI),
    );
    s.wait_for("Which?");
    assert!(s.contents().contains("A all/none"), "{}", s.contents());
    s.send("2");
    s.send("a");
    s.wait_for("3. [x] Gamma");
    s.send("a");
    s.wait_for("2. [ ] Beta");
    assert!(!s.contents().contains("[x]"), "{}", s.contents());
    s.send("a");
    s.send("\r");
    submit_from_review(&mut s);
    let (code, out) = s.finish_text();
    assert_eq!(code, 0);
    assert_eq!(out, "Alpha\nBeta\nGamma\n");
}

#[test]
fn a_payload_file_that_cannot_be_read_is_said_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    for (path, said) in [
        (dir.path().join("missing.json"), "No such file or directory"),
        (
            dir.path().to_path_buf(),
            "it is a folder, not a regular file",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
            .arg("ask")
            .arg(&path)
            .env("HOME", dir.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with(&format!("pi-ask: Cannot read {}", path.display()))
                && err.contains(said),
            "{err}"
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["details"]["error"]["kind"], "invalid_input");
    }
    // An invalid payload names its first issue and counts the rest.
    let mut child = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["ask", "-"])
        .env("HOME", dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(br#"{"questions":[{"id":"","prompt":"","options":[]}]}"#)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("pi-ask: invalid payload: questions[0]") && err.contains("more issue"),
        "{err}"
    );
}

#[test]
fn line_mode_ends_at_the_timeout_too() {
    let mut s = Session::start(
        &["ask", "--accessible", "--timeout", "0.5", "payload.json"],
        with_payload(SINGLE),
    );
    s.wait_for("Ship it?");
    let (code, json) = s.finish();
    assert_eq!(code, 124);
    assert!(s.contents().contains("No answer in time: the form ended."));
    assert!(
        json["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("No answer within 0.5 s")
    );
}
