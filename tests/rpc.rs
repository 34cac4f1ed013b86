//! RPC mode with a scripted host, and the print/json fallback.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(10);

fn fixture(name: &str) -> String {
    format!("{}/fixtures/payloads/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The program in rpc mode, seen from the host's side.
struct Host {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
    _home: tempfile::TempDir,
}

impl Host {
    fn start(payload: &str, extra: &[&str]) -> Host {
        Host::start_with_home(payload, extra, tempfile::tempdir().unwrap())
    }

    fn start_with_home(payload: &str, extra: &[&str], home: tempfile::TempDir) -> Host {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
            .args(["ask", "--mode", "rpc", "--payload", payload])
            .args(extra)
            .env("HOME", home.path())
            .env_remove("PI_ASK_CONFIG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let line = line.unwrap();
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Host {
            child,
            stdin,
            lines: rx,
            _home: home,
        }
    }

    fn next(&self) -> Value {
        self.lines.recv_timeout(WAIT).expect("a line from pi-ask")
    }

    fn write(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    fn reply(&mut self, request: &Value, body: Value) {
        let mut response = json!({ "type": "extension_ui_response", "id": request["id"] });
        for (k, v) in body.as_object().unwrap() {
            response[k] = v.clone();
        }
        self.write(&response.to_string());
    }

    fn choose(&mut self, request: &Value, option: &str) {
        self.reply(request, json!({ "value": option }));
    }

    /// Reads the final result line and the exit code.
    fn result(&mut self) -> (Value, i32, String) {
        let line = self.next();
        assert_eq!(line["type"], "ask_result", "{line}");
        let out = std::mem::replace(&mut self.child, Command::new("true").spawn().unwrap())
            .wait_with_output()
            .unwrap();
        (
            line["result"].clone(),
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

#[test]
fn a_three_question_flow_has_progress_titles_and_the_originals_flattened_strings() {
    let mut host = Host::start(&fixture("planning.json"), &[]);
    let first = host.next();
    assert_eq!(first["type"], "extension_ui_request");
    assert_eq!(first["method"], "select");
    assert_eq!(first["id"].as_str().unwrap().len(), 36);
    assert_eq!(
        first["title"],
        "[1/3] Development planning demo (ask_user) — Goal: What should this change optimize for first?"
    );
    assert_eq!(
        first["options"],
        json!([
            "1. Speed — Ship the smallest working slice this week.",
            "2. Quality (recommended) — Take the time to harden edge cases and tests.",
            "3. Learning — Prototype to learn what users need.",
            "Type something…",
            "Add a note…"
        ])
    );
    host.choose(
        &first,
        "2. Quality (recommended) — Take the time to harden edge cases and tests.",
    );
    let second = host.next();
    assert!(second["title"].as_str().unwrap().starts_with("[2/3] "));
    host.choose(&second, "Type something…");
    let input = host.next();
    assert_eq!(input["method"], "input");
    assert_eq!(
        input["title"],
        format!("{} — Type something…", second["title"].as_str().unwrap())
    );
    assert_eq!(input["placeholder"], "Enter one or more answers");
    host.reply(
        &input,
        json!({ "value": "No new dependencies, behind a feature flag" }),
    );
    let third = host.next();
    assert!(third["title"].as_str().unwrap().starts_with("[3/3] "));
    assert!(third["options"][0].as_str().unwrap().starts_with(
        "1. Quick adapter in existing service — Lowest initial effort. — Preview: Approach: Add a thin adapter layer directly in the current service. Pros: - Fastest"
    ));
    host.choose(&third, third["options"][1].as_str().unwrap());
    let (result, code, _) = host.result();
    assert_eq!(code, 0);
    assert_eq!(result["details"]["mode"], "submit");
    assert_eq!(
        result["details"]["answers"]["goal"],
        json!({ "values": ["quality"], "labels": ["Quality"], "indices": [2] })
    );
    assert_eq!(
        result["details"]["answers"]["constraints"],
        json!({
            "values": ["No new dependencies, behind a feature flag"],
            "labels": ["No new dependencies, behind a feature flag"],
            "indices": [],
            "customText": "No new dependencies, behind a feature flag"
        })
    );
    assert_eq!(
        result["details"]["answers"]["direction"]["values"],
        json!(["plugin"])
    );
}

/// Issue 39: a multi question answered over RPC by option numbers, with text of the person's own
/// after a `;` (`1,3; something else`); text that is not all option numbers stays the person's own
/// answer, as in the original. A note is written in pi's `editor` dialog, and the card comes back.
#[test]
fn a_multi_question_takes_option_numbers_and_own_text_and_notes_come_through_the_editor() {
    let mut host = Host::start(&fixture("planning.json"), &[]);
    let first = host.next();
    host.choose(&first, "Add a note…");
    let editor = host.next();
    assert_eq!(editor["method"], "editor", "{editor}");
    assert_eq!(
        editor["title"],
        format!("{} — Note", first["title"].as_str().unwrap())
    );
    assert_eq!(editor["prefill"], "");
    host.reply(&editor, json!({ "value": "ship by Friday" }));
    let again = host.next();
    assert_eq!(again["title"], first["title"], "the same question again");
    host.choose(&again, again["options"][0].as_str().unwrap());
    let second = host.next();
    host.choose(&second, "Type something…");
    let input = host.next();
    host.reply(&input, json!({ "value": "1, 3; and a changelog" }));
    let third = host.next();
    assert!(third["title"].as_str().unwrap().starts_with("[3/3] "));
    host.choose(&third, third["options"][0].as_str().unwrap());
    let (result, code, _) = host.result();
    assert_eq!(code, 0);
    let answers = &result["details"]["answers"];
    assert_eq!(answers["goal"]["note"], "ship by Friday");
    assert_eq!(
        answers["constraints"]["indices"],
        json!([1, 3]),
        "{answers}"
    );
    assert_eq!(answers["constraints"]["customText"], "and a changelog");
}

#[test]
fn option_numbers_are_read_only_when_every_one_names_an_option() {
    use pi_ask::drivers::rpc::numbered;
    assert_eq!(numbered("1,3", 4), Some((vec![0, 2], None)));
    assert_eq!(
        numbered(" 2 4 ; mine ", 4),
        Some((vec![1, 3], Some("mine".into())))
    );
    assert_eq!(numbered("2,2;", 4), Some((vec![1], None)));
    for own in ["5", "0", "1, two", "Redis 7", "", "; only text"] {
        assert_eq!(numbered(own, 4), None, "{own:?} is the person's own answer");
    }
}

#[test]
fn the_rpc_result_matches_the_terminal_ui_for_the_same_choices() {
    let payload = std::fs::read_to_string(fixture("planning.json")).unwrap();
    let mut host = Host::start(&fixture("planning.json"), &[]);
    let first = host.next();
    host.choose(&first, first["options"][1].as_str().unwrap());
    let second = host.next();
    host.choose(&second, "Type something…");
    let input = host.next();
    host.reply(&input, json!({ "value": "Only metrics" }));
    let third = host.next();
    host.reply(&third, json!({ "cancelled": true }));
    let (rpc, _, _) = host.result();

    let mut tui = pi_ask::testing::Harness::new(&payload, 100, 30).unwrap();
    tui.press("2"); // Quality, advance
    tui.press("5").type_text("Only metrics").press("enter"); // custom text on multi (stays on the tab)
    tui.press("tab").press("tab"); // on past the preview question to the review tab
    tui.press("1").press("1"); // submit (a double press by default)
    let tui = serde_json::to_value(tui.result().unwrap()).unwrap();
    assert_eq!(rpc, tui);
}

#[test]
fn a_real_option_on_a_multi_question_records_one_choice() {
    let mut host = Host::start(&fixture("planning.json"), &[]);
    let first = host.next();
    host.reply(&first, json!({ "cancelled": true }));
    let second = host.next();
    host.choose(&second, "3. Behind a feature flag");
    let third = host.next();
    host.reply(&third, json!({ "cancelled": true }));
    let (result, code, _) = host.result();
    assert_eq!(code, 0);
    assert_eq!(
        result["details"]["answers"],
        json!({ "constraints": { "values": ["feature-flag"], "labels": ["Behind a feature flag"], "indices": [3] } })
    );
    assert_eq!(
        result["content"][0]["text"],
        "Goal: (no answer)\nConstraints: Behind a feature flag\nDirection: (no answer)"
    );
}

#[test]
fn dismissing_a_select_or_its_input_skips_the_question_and_blank_input_is_unanswered() {
    let mut host = Host::start(&fixture("planning.json"), &[]);
    let first = host.next();
    host.choose(&first, "Type something…");
    let input = host.next();
    host.reply(&input, json!({ "cancelled": true }));
    let second = host.next();
    host.choose(&second, "Type something…");
    let input = host.next();
    host.reply(&input, json!({ "value": "   " }));
    let third = host.next();
    host.reply(&third, json!({ "cancelled": true }));
    let (result, code, _) = host.result();
    assert_eq!(code, 0);
    assert_eq!(result["details"]["cancelled"], false);
    assert_eq!(result["details"]["answers"], json!({}));
}

#[test]
fn an_abort_mid_flow_cancels() {
    let mut host = Host::start(&fixture("planning.json"), &[]);
    let first = host.next();
    host.choose(&first, first["options"][0].as_str().unwrap());
    let _second = host.next();
    host.write(r#"{"type":"abort"}"#);
    let (result, code, _) = host.result();
    assert_eq!(code, 1);
    assert_eq!(result["details"]["cancelled"], true);
    assert_eq!(result["content"][0]["text"], "User cancelled the ask flow");
    assert_eq!(
        result["details"]["answers"]["goal"]["values"],
        json!(["speed"]),
        "answers so far are kept in details"
    );
}

#[test]
fn end_of_input_cancels() {
    let mut host = Host::start(&fixture("preview.json"), &[]);
    let _first = host.next();
    host.stdin.take();
    let (result, code, _) = host.result();
    assert_eq!(code, 1);
    assert_eq!(result["details"]["cancelled"], true);
}

#[test]
fn malformed_unknown_and_repeated_lines_are_reported_and_ignored() {
    let mut host = Host::start(&fixture("planning.json"), &[]);
    let first = host.next();
    host.write("this is not json");
    host.write(r#"{"type":"extension_ui_response","id":"00000000-0000-4000-8000-000000000000","value":"x"}"#);
    host.write(r#"{"type":"get_state"}"#);
    host.write("");
    host.choose(&first, first["options"][0].as_str().unwrap());
    let second = host.next();
    host.choose(&first, first["options"][1].as_str().unwrap()); // a second answer to the first card
    host.reply(&second, json!({ "cancelled": true }));
    let third = host.next();
    host.reply(&third, json!({ "cancelled": true }));
    let (result, code, stderr) = host.result();
    assert_eq!(code, 0);
    assert_eq!(
        result["details"]["answers"]["goal"]["values"],
        json!(["speed"])
    );
    assert!(
        stderr.contains("ignored a line that is not JSON"),
        "{stderr}"
    );
    assert!(stderr.contains("an unknown request id"), "{stderr}");
    assert!(stderr.contains("unknown type get_state"), "{stderr}");
    assert!(
        stderr.contains("an already answered request id"),
        "{stderr}"
    );
}

#[test]
fn a_select_reply_naming_no_offered_option_cancels_the_flow_as_the_original_does() {
    let mut host = Host::start(&fixture("preview.json"), &[]);
    let first = host.next();
    host.choose(&first, "Compact");
    let (result, code, _) = host.result();
    assert_eq!(code, 1);
    assert_eq!(result["details"]["cancelled"], true);
}

#[test]
fn a_dialog_timeout_counts_as_a_dismissal() {
    let mut host = Host::start(&fixture("preview.json"), &["--dialog-timeout", "0.2"]);
    let first = host.next();
    assert_eq!(first["timeout"], 200);
    let (result, code, _) = host.result();
    assert_eq!(code, 0);
    assert_eq!(result["details"]["answers"], json!({}));
    assert_eq!(result["details"]["cancelled"], false);
}

#[test]
fn present_single_as_multi_keeps_requested_and_presented_types() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join(".pi/agent/extensions");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("pi-ask.toml"),
        "schemaVersion = 5\n[behaviour]\npresentSingleAsMulti = true\n",
    )
    .unwrap();
    let mut host = Host::start_with_home(&fixture("preview.json"), &[], home);
    let first = host.next();
    host.choose(&first, "Type something…");
    let input = host.next();
    assert_eq!(
        input["placeholder"], "Enter your answer",
        "preview questions are not single ones"
    );
    host.reply(&input, json!({ "value": "Both" }));
    let (result, _, _) = host.result();
    assert_eq!(result["details"]["questions"][0]["type"], "preview");
    assert!(
        result["details"]["questions"][0]
            .get("presentedType")
            .is_none()
    );
}

#[test]
fn a_payload_on_stdin_is_refused_in_rpc_mode() {
    let out = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["ask", "--mode", "rpc", "-"])
        .env("HOME", std::env::temp_dir())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--payload FILE"));
}

#[test]
fn print_and_json_modes_return_the_pending_questions_at_once() {
    for (name, first_line) in [
        (
            "showcase.json",
            "1. Single: Single-select demo: pick exactly one primary goal.",
        ),
        (
            "planning.json",
            "1. Goal: What should this change optimize for first?",
        ),
        (
            "preview.json",
            "1. Q1: Which dashboard layout should we build?",
        ),
    ] {
        for mode in ["print", "json"] {
            let home = tempfile::tempdir().unwrap();
            let out = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
                .args(["ask", "--mode", mode, &fixture(name)])
                .env("HOME", home.path())
                .stdin(Stdio::null())
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(1), "{name} {mode}");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains(
                    "pi-ask: this mode opens no form: the pending questions are on stdout"
                ),
                "exit 1 with no form says why on stderr: {stderr}"
            );
            let v: Value = serde_json::from_slice(&out.stdout).unwrap();
            let text = v["content"][0]["text"].as_str().unwrap();
            assert!(
                text.starts_with("Needs user input: ask_user requires interactive TUI mode.\n"),
                "{text}"
            );
            assert!(text.contains(first_line), "{text}");
            assert!(text.contains("   - Type your own [custom]"), "{text}");
            assert_eq!(v["details"]["cancelled"], true);
            assert_eq!(v["details"]["answers"], json!({}));
            assert!(!v["details"]["questions"].as_array().unwrap().is_empty());
        }
    }
}

#[test]
fn ask_without_a_terminal_falls_back_to_the_pending_questions() {
    // setsid detaches from any controlling terminal, so /dev/tty cannot be opened.
    let out = Command::new("setsid")
        .args([
            "-w",
            env!("CARGO_BIN_EXE_pi-ask"),
            "ask",
            &fixture("preview.json"),
        ])
        .env("HOME", std::env::temp_dir())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("pi-ask: no terminal to ask on"),
        "exit 1 with no form says why on stderr: {stderr}"
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Needs user input")
    );
}

#[test]
fn a_termination_signal_ends_rpc_mode_with_the_answers_so_far() {
    for (signal, name) in [
        (libc::SIGTERM, "SIGTERM"),
        (libc::SIGINT, "SIGINT"),
        (libc::SIGHUP, "SIGHUP"),
    ] {
        let mut host = Host::start(&fixture("planning.json"), &[]);
        let first = host.next();
        host.choose(&first, first["options"][0].as_str().unwrap());
        let _second = host.next();
        // SAFETY: signalling our own child.
        assert_eq!(unsafe { libc::kill(host.child.id() as i32, signal) }, 0);
        let (result, code, _) = host.result();
        assert_eq!(code, 1, "signal {signal}");
        assert_eq!(result["details"]["cancelled"], true);
        // Not the person's cancel: the text says what ended it.
        assert_eq!(
            result["content"][0]["text"],
            format!(
                "The ask was interrupted before the user answered ({name}); nothing was chosen. \
                 What was entered so far is in details.answers for context; it was not submitted."
            )
        );
        assert_eq!(
            result["details"]["answers"]["goal"]["values"],
            json!(["speed"]),
            "signal {signal}: the given answer is kept"
        );
    }
}

#[test]
fn rpc_mode_honours_output_and_keeps_stdout_for_the_dialogs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("result.json");
    let mut host = Host::start(
        &fixture("preview.json"),
        &["--output", out.to_str().unwrap()],
    );
    let first = host.next();
    host.choose(&first, first["options"][0].as_str().unwrap());
    let status = std::mem::replace(&mut host.child, Command::new("true").spawn().unwrap())
        .wait_with_output()
        .unwrap();
    assert_eq!(status.status.code(), Some(0));
    assert!(
        host.lines.recv_timeout(Duration::from_millis(200)).is_err(),
        "no ask_result line on stdout when the result goes to the file"
    );
    let result: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(result["details"]["cancelled"], false);
}

#[test]
fn a_non_string_value_is_reported_as_invalid_never_skipped_silently() {
    let mut host = Host::start(&fixture("planning.json"), &[]);
    let first = host.next();
    host.reply(&first, json!({ "value": 3 }));
    let second = host.next();
    host.reply(&second, json!({ "confirmed": true }));
    let third = host.next();
    host.reply(&third, json!({ "cancelled": true }));
    let (result, code, stderr) = host.result();
    assert_eq!(code, 0);
    assert_eq!(result["details"]["answers"], json!({}));
    assert!(
        stderr
            .contains("\"value\" must be a string, got a number; the question is left unanswered"),
        "{stderr}"
    );
    assert!(
        stderr.contains("\"confirmed\" answers a confirm dialog"),
        "{stderr}"
    );
}

#[test]
fn a_hostile_host_with_huge_lines_invalid_utf8_and_late_answers_gets_a_well_formed_result() {
    // The dialog timeout is long enough that writing 10 MB never runs the first card out, and
    // short enough that the second card times out before its late answer.
    let mut host = Host::start(&fixture("planning.json"), &["--dialog-timeout", "2.5"]);
    let first = host.next();
    // Ten megabytes without a newline, then its end: dropped, not read into memory.
    let stdin = host.stdin.as_mut().unwrap();
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..10 {
        stdin.write_all(&chunk).unwrap();
    }
    stdin.write_all(b"\n").unwrap();
    // Invalid UTF-8.
    stdin.write_all(b"\xff\xfe{\"type\":\x80}\n").unwrap();
    stdin.flush().unwrap();
    host.choose(&first, first["options"][0].as_str().unwrap());
    // The second card times out; its answer comes late, after the third card was sent.
    let second = host.next();
    let third = host.next();
    host.choose(&second, second["options"][0].as_str().unwrap());
    host.reply(&third, json!({ "cancelled": true }));
    let (result, code, stderr) = host.result();
    assert_eq!(code, 0);
    assert_eq!(
        result["details"]["answers"]["goal"]["values"],
        json!(["speed"])
    );
    assert!(
        result["details"]["answers"].get("constraints").is_none(),
        "a late answer counts for nothing"
    );
    assert!(
        stderr.contains("ignored a line longer than 1048576 bytes"),
        "{stderr}"
    );
    assert!(
        stderr.contains("ignored a line that is not JSON"),
        "{stderr}"
    );
    assert!(
        stderr.contains("an already answered request id"),
        "{stderr}"
    );
    assert!(
        stderr.len() < 10_000,
        "no huge line echoed: {} bytes",
        stderr.len()
    );
}

#[test]
fn a_host_that_closes_stdin_mid_dialog_gets_the_cancelled_result_of_the_answers_so_far() {
    let mut host = Host::start(&fixture("planning.json"), &[]);
    let first = host.next();
    host.choose(&first, first["options"][0].as_str().unwrap());
    let _second = host.next();
    host.stdin = None;
    let (result, code, _) = host.result();
    assert_eq!(code, 1);
    assert_eq!(result["details"]["cancelled"], true);
    assert_eq!(
        result["details"]["answers"]["goal"]["values"],
        json!(["speed"])
    );
}

#[test]
fn a_select_reply_that_names_no_option_cancels_and_says_why_on_stderr() {
    let mut host = Host::start(&fixture("planning.json"), &[]);
    let first = host.next();
    host.choose(&first, "Speed\u{1b}]2;x\u{7}");
    let (result, code, stderr) = host.result();
    assert_eq!(code, 1);
    assert_eq!(result["details"]["cancelled"], true);
    assert!(
        stderr.contains("the host's reply \"Speed?]2;x?\" to question 1 names none of its options"),
        "{stderr}"
    );
    assert!(!stderr.contains('\u{1b}'), "{stderr}");
}
