//! The `pi-ask validate` and `pi-ask schema` commands, run as a user would.

use std::io::Write;
use std::process::{Command, Stdio};

fn pi_ask(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(args)
        .env("HOME", std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn fixture(name: &str) -> String {
    format!("{}/fixtures/payloads/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn validate_shows_derived_labels_from_stdin() {
    let (code, out, _) = pi_ask(
        &["validate", "-"],
        r#"{"questions":[{"id":"a","prompt":"P","options":[{"value":"my-option_x"}]}]}"#,
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["questions"][0]["options"][0]["label"], "My option x");
    assert_eq!(v["questions"][0]["label"], "Q1");
}

#[test]
fn validate_prints_every_issue_of_each_invalid_fixture_and_exits_2() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/payloads/invalid");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.to_string_lossy().ends_with(".issues.json") {
            continue;
        }
        // An open question is refused in a tool call (tests/input_rules.rs) but taken by pi-ask's
        // own commands, as `answer --print` writes it (below).
        if path.ends_with("freeform-option.json") {
            let (code, _, err) = pi_ask(&["validate", path.to_str().unwrap()], "");
            assert_eq!(code, 0, "{err}");
            assert!(err.contains("a tool call (MCP, pi) does not"), "{err}");
            continue;
        }
        let (code, out, _) = pi_ask(&["validate", path.to_str().unwrap()], "");
        assert_eq!(code, 2, "{}", path.display());
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let expected: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(path.with_extension("issues.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(
            v["details"]["error"]["issues"],
            expected,
            "{}",
            path.display()
        );
        assert_eq!(v["details"]["cancelled"], true);
        for issue in expected.as_array().unwrap() {
            assert!(
                v["content"][0]["text"]
                    .as_str()
                    .unwrap()
                    .contains(issue["message"].as_str().unwrap())
            );
        }
    }
}

#[test]
fn validate_reports_a_missing_file_as_invalid_input() {
    let (code, out, _) = pi_ask(&["validate", "/nonexistent/payload.json"], "");
    assert_eq!(code, 2);
    assert!(
        out.contains("Cannot read /nonexistent/payload.json"),
        "{out}"
    );
}

#[test]
fn validate_accepts_the_valid_fixtures() {
    for name in [
        "showcase.json",
        "planning.json",
        "preview.json",
        "unicode-long.json",
        "many-options.json",
    ] {
        let (code, out, err) = pi_ask(&["validate", &fixture(name)], "");
        assert_eq!(code, 0, "{name}: {err}");
        assert!(out.contains("\"questions\""));
    }
}

#[test]
fn schema_restricts_types_and_requires_identifiers_and_labels() {
    let (code, out, _) = pi_ask(&["schema"], "");
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["required"], serde_json::json!(["questions"]));
    let q = &v["properties"]["questions"]["items"];
    assert_eq!(
        q["required"],
        serde_json::json!(["id", "prompt", "options"])
    );
    assert_eq!(
        q["properties"]["type"]["enum"],
        serde_json::json!(["single", "multi", "preview"])
    );
    assert_eq!(
        q["properties"]["options"]["items"]["required"],
        serde_json::json!(["value", "label"])
    );
}

/// `pi-ask answer --print` shows what the extractor made, with no form and no terminal, as a
/// payload `pi-ask validate` (and so `pi-ask ask`) accepts; its questions have real labels.
#[test]
fn answer_print_shows_the_extracted_payload_without_a_form() {
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str], stdin: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
            .args(args)
            .env("HOME", home.path())
            .env_remove("PI_ASK_CONFIG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let message = "Cache is in. Also, what TTL should entries have — 5 minutes, 1 hour or 1 day?";
    let (code, out, err) = run(
        &["answer", "--print", "--extractor", "builtin", "-"],
        message,
    );
    assert_eq!(code, 0, "{err}");
    let payload: serde_json::Value = serde_json::from_str(&out).unwrap();
    let question = &payload["questions"][0];
    assert_eq!(question["label"], "TTL entries");
    assert_eq!(question["prompt"], "What TTL should entries have?");
    assert_eq!(question["options"].as_array().unwrap().len(), 3);
    let (code, _, err) = run(&["validate", "-"], &out);
    assert_eq!(code, 0, "the printed payload validates: {err}");

    let (code, out, err) = run(
        &["answer", "--print", "--extractor", "builtin", "-"],
        "All tests pass.",
    );
    assert_eq!(code, 1);
    assert_eq!(out.trim(), r#"{"questions":[]}"#);
    assert!(err.contains("No questions found"), "{err}");
}

/// Issue 42: `pi-ask doctor | true` and `inbox --status | head -1` panicked on the closed pipe
/// (`failed printing to stdout`). Every command whose output a reader may stop reading ends
/// quietly instead: no panic, its own exit status.
#[test]
fn a_closed_standard_output_ends_every_command_quietly() {
    let home = tempfile::tempdir().unwrap();
    let payload = fixture("planning.json");
    let commands: &[&[&str]] = &[
        &["doctor"],
        &["inbox", "--status"],
        &["schema"],
        &["schema", "--pi"],
        &["validate", &payload],
        &["history"],
        &["--help"],
        &["ask", "--mode", "print", &payload],
    ];
    for args in commands {
        // A pipe whose reading end is closed before the command starts: every write fails.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
            .args(*args)
            .env("HOME", home.path())
            .env_remove("PI_ASK_CONFIG")
            .env_remove("PI_ASK_QUEUE")
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {stderr}");
        assert!(out.status.code().is_some(), "{args:?} ended by a signal");
    }
}

/// Issue 42: a misspelled field (`lable`) was taken silently, and a payload in Claude Code's
/// `AskUserQuestion` shape got bare "is required" errors. What was ignored is named on standard
/// error, with the field meant; the result on standard output is unchanged.
#[test]
fn ignored_payload_fields_are_named_with_the_field_meant() {
    let (code, out, err) = pi_ask(
        &["validate", "-"],
        r#"{"questions":[{"id":"a","prompt":"P","lable":"Env","options":[{"value":"x","labl":"X","decription":"d"}]}]}"#,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"prompt\": \"P\""), "{out}");
    assert!(
        err.contains("questions[0].lable (did you mean label?)"),
        "{err}"
    );
    assert!(
        err.contains("questions[0].options[0].labl (did you mean label?)"),
        "{err}"
    );
    assert!(
        err.contains("questions[0].options[0].decription (did you mean description?)"),
        "{err}"
    );
    let (code, _, err) = pi_ask(
        &["validate", "-"],
        r#"{"questions":[{"question":"Which?","header":"Env","multiSelect":true,"options":[{"label":"A","description":"a"}]}]}"#,
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("questions[0].question (did you mean prompt?)"),
        "{err}"
    );
    assert!(
        err.contains("questions[0].header (did you mean label?)"),
        "{err}"
    );
    assert!(
        err.contains("questions[0].multiSelect (did you mean \"type\": \"multi\"?)"),
        "{err}"
    );
    let (_, _, err) = pi_ask(
        &["validate", "-"],
        r#"{"titel":"T","questions":[{"id":"a","prompt":"P","options":[{"value":"x"}]}]}"#,
    );
    assert!(err.contains("ignored titel (did you mean title?)"), "{err}");
    let (_, _, err) = pi_ask(
        &["validate", "-"],
        r#"{"questions":[{"id":"a","prompt":"P","options":[{"value":"x"}]}]}"#,
    );
    assert!(
        !err.contains("ignored"),
        "a clean payload says nothing: {err}"
    );
    // Thousands of stray fields are said in a few lines.
    let options: Vec<String> = (0..500)
        .map(|i| format!(r#"{{"value":"v{i}","stray":1,"odd":2}}"#))
        .collect();
    let (_, _, err) = pi_ask(
        &["validate", "-"],
        &format!(
            r#"{{"questions":[{{"id":"a","prompt":"P","options":[{}]}}]}}"#,
            options.join(",")
        ),
    );
    assert_eq!(
        err.lines().filter(|l| l.contains("ignored")).count(),
        21,
        "{err}"
    );
    assert!(err.contains("ignored 980 more fields"), "{err}");
}

/// Issue 42: `pi-ask answer --print` says its output goes to `pi-ask ask`, but `ask` and `validate`
/// refused its open questions (`freeform options are only supported for /answer forms`). They take
/// what it prints; a tool call's payload (MCP, pi) still may not carry `freeform`.
#[test]
fn what_answer_print_prints_is_taken_by_validate_and_ask() {
    let (code, printed, err) = pi_ask(
        &["answer", "--print", "--extractor", "builtin", "-"],
        "Which database should I use?\n1. Postgres\n2. SQLite\nAnd what should we name it?",
    );
    assert_eq!(code, 0, "{err}");
    assert!(printed.contains("\"freeform\": true"), "{printed}");
    let (code, out, err) = pi_ask(&["validate", "-"], &printed);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = pi_ask(&["ask", "--mode", "print", "-"], &printed);
    assert_eq!(
        code, 1,
        "the pending questions, as without a terminal: {out}{err}"
    );
    assert!(out.contains("What should we name it?"), "{out}");
    let tool = pi_ask::input::validate_payload(&serde_json::from_str(&printed).unwrap());
    assert!(
        tool.is_err(),
        "a tool call's payload still may not carry freeform"
    );
}
