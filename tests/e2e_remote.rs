//! End to end: a form in a pty answered from another process over its socket.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::pty::Session;

const PAYLOAD: &str = r#"{"title":"Deploy","questions":[
  {"id":"env","label":"Env","prompt":"Where to?","options":[
    {"value":"staging","label":"Staging"},{"value":"prod","label":"Production"}]}
]}"#;

fn socket_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let path = dir.path().join("form.sock");
    (dir, path)
}

fn start(socket: &Path) -> Session {
    start_with_env(socket, &[])
}

fn start_with_env(socket: &Path, env: &[(&str, &str)]) -> Session {
    Session::start_with_env(
        &[
            "ask",
            "p.json",
            "--no-history",
            "--listen",
            socket.to_str().unwrap(),
        ],
        env,
        |dir| std::fs::write(dir.join("p.json"), PAYLOAD).unwrap(),
    )
}

fn wait_for_socket(path: &Path) {
    let start = Instant::now();
    while !path.exists() {
        assert!(start.elapsed() < Duration::from_secs(10), "no socket");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn pi_ask(args: &[&str]) -> (i32, serde_json::Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let json = serde_json::from_str(&stdout).unwrap_or(serde_json::Value::Null);
    (
        out.status.code().unwrap_or(-1),
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Line mode is the same form: another process answers it over the socket, and the lines say so.
#[test]
fn a_line_mode_form_is_answered_from_another_process() {
    let (_dir, socket) = socket_dir();
    let mut s = start_with_env(&socket, &[("TERM", "dumb")]);
    s.wait_for("Question 1 of 1");
    wait_for_socket(&socket);
    let (code, reply, stderr) = pi_ask(&[
        "submit",
        "--socket",
        socket.to_str().unwrap(),
        r#"{"kind":"answer","answers":{"env":{"values":["prod"]}}}"#,
    ]);
    assert_eq!(code, 0, "{reply} {stderr}");
    let (code, json) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(json["details"]["answers"]["env"]["values"][0], "prod");
    s.wait_for("Submitted.");
}

#[test]
fn a_form_is_answered_from_another_process_and_reports_it() {
    let (_dir, socket) = socket_dir();
    let mut s = start(&socket);
    s.wait_for("Where to?");
    wait_for_socket(&socket);
    let sock = socket.to_str().unwrap();
    // A wrong value is refused and the form stays open.
    let (code, reply, _) = pi_ask(&[
        "submit",
        "--socket",
        sock,
        r#"{"kind":"answer","answers":{"env":{"values":["Production"]}}}"#,
    ]);
    assert_eq!(code, 2);
    assert_eq!(reply["error"], "invalid_answer");
    assert_eq!(
        reply["message"],
        r#"Unknown option value "Production" for question "env"."#
    );
    let (code, reply, stderr) = pi_ask(&[
        "submit",
        "--socket",
        sock,
        r#"{"kind":"answer","answers":{"env":{"values":["prod"],"note":"after lunch"}}}"#,
    ]);
    assert_eq!(code, 0, "{reply} {stderr}");
    assert_eq!(reply["ok"], true);
    let (code, json) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(json["details"]["answers"]["env"]["values"][0], "prod");
    assert_eq!(json["details"]["answers"]["env"]["note"], "after lunch");
    s.wait_for("answered remotely (request cli-");
    assert!(!socket.exists(), "the socket is removed when the form ends");
    assert!(s.cooked());
}

#[test]
fn events_follow_the_form_and_sigterm_removes_the_socket() {
    let (_dir, socket) = socket_dir();
    let mut s = start(&socket);
    s.wait_for("Where to?");
    wait_for_socket(&socket);
    let events = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["events", "--socket", socket.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    unsafe { libc::kill(s.pid(), libc::SIGTERM) };
    let (code, json) = s.finish();
    assert_eq!(code, 1);
    assert_eq!(json["details"]["cancelled"], true);
    let out = events.wait_with_output().unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["type"], "started");
    assert_eq!(lines[0]["title"], "Deploy");
    assert_eq!(lines[1]["type"], "completed");
    assert_eq!(lines[1]["result"]["cancelled"], true);
    assert!(out.status.success());
    assert!(!socket.exists());
}

#[test]
fn a_socket_in_a_shared_folder_is_refused_before_the_form_opens() {
    let open = tempfile::tempdir().unwrap();
    std::fs::set_permissions(open.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let socket = open.path().join("form.sock");
    let mut s = start(&socket);
    assert_eq!(s.wait_exit(), 2);
    s.wait_for("must be yours and private (0700)");
    assert!(!socket.exists());
}

/// A misspelled field (`value` for `values`) used to be accepted and wipe the person's choice;
/// it is refused, naming the key, and the form keeps what was chosen.
#[test]
fn a_misspelled_remote_answer_is_refused_and_the_choice_kept() {
    let (_dir, socket) = socket_dir();
    let mut s = start(&socket);
    s.wait_for("Where to?");
    wait_for_socket(&socket);
    s.send("\x1b[B"); // highlight Production
    s.send(" "); // choose it, staying on the question
    s.wait_for("☒ Env");
    let (code, reply, _) = pi_ask(&[
        "submit",
        "--socket",
        socket.to_str().unwrap(),
        r#"{"kind":"answer","answers":{"env":{"value":"prod"}}}"#,
    ]);
    assert_eq!(code, 2);
    assert_eq!(reply["error"], "invalid_answer");
    assert!(
        reply["message"]
            .as_str()
            .unwrap()
            .starts_with(r#"Unknown key "value" in the answer for question "env""#),
        "{reply}"
    );
    s.send("\t"); // to the review
    s.wait_for("Submit");
    s.send("\r");
    let (code, json) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(json["details"]["answers"]["env"]["values"][0], "prod");
}

/// With few descriptors left (the trial: `ulimit -n 1024` and 600 idle socket clients), the form
/// still reads its keys and delivers the answer: clients beyond the cap are turned away.
#[test]
fn idle_socket_clients_cannot_exhaust_the_forms_descriptors() {
    let (_dir, socket) = socket_dir();
    let mut s = start(&socket);
    s.wait_for("Where to?");
    wait_for_socket(&socket);
    let limit = libc::rlimit {
        rlim_cur: 64,
        rlim_max: 64,
    };
    // SAFETY: setting a resource limit of our own child.
    assert_eq!(
        unsafe { libc::prlimit(s.pid(), libc::RLIMIT_NOFILE, &limit, std::ptr::null_mut()) },
        0
    );
    let idle: Vec<std::os::unix::net::UnixStream> = (0..200)
        .filter_map(|_| std::os::unix::net::UnixStream::connect(&socket).ok())
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    s.send("2"); // Production, then the review
    s.wait_for("Submit");
    s.send("\r");
    let (code, json) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(json["details"]["answers"]["env"]["values"][0], "prod");
    drop(idle);
}

/// An interactive bash (job control on) in a pty, `pi-ask` on its PATH and `deploy.json` in its
/// folder, at its first prompt.
fn interactive_bash(env: &[(&str, &str)]) -> Session {
    let bin = Path::new(env!("CARGO_BIN_EXE_pi-ask")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut vars = vec![("PATH", path.as_str()), ("PS1", "$ ")];
    vars.extend_from_slice(env);
    let s = Session::start_script(
        |_| "exec bash --norc --noprofile -i".to_owned(),
        &vars,
        |dir| std::fs::write(dir.join("deploy.json"), PAYLOAD).unwrap(),
    );
    s.wait_for("$ ");
    s
}

/// The commands of docs/remote.md's example, as written, typed into an interactive bash (job
/// control on, `XDG_RUNTIME_DIR` unset): the form started with `&` waits in the background
/// instead of being stopped for taking the terminal, `events` and `submit` wait for its socket,
/// and the result and the events land in their files.
#[test]
fn the_remote_docs_example_runs_as_written_in_an_interactive_shell() {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/remote.md"))
            .unwrap();
    let block = docs
        .split("```sh\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the example's sh block");
    let mut s = interactive_bash(&[("XDG_RUNTIME_DIR", "")]);
    // One command a line as a person types them (a continued line goes with the next).
    for line in block.replace("\\\n", "").lines() {
        s.send(&format!("{line}\r"));
    }
    s.send("echo \"jobs-ended-$(jobs -p | wc -l)\"\r");
    s.wait_for("jobs-ended-0");
    assert!(
        !s.contents().contains("Stopped"),
        "no job was stopped:\n{}",
        s.contents()
    );
    let answer: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(s.dir.path().join("answer.json")).unwrap())
            .unwrap();
    assert_eq!(
        answer["details"]["answers"]["env"]["values"],
        serde_json::json!(["staging"])
    );
    assert_eq!(
        answer["details"]["answers"]["env"]["note"],
        "prod after lunch"
    );
    let events = std::fs::read_to_string(s.dir.path().join("events.jsonl")).unwrap();
    let types: Vec<String> = events
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["type"].to_string())
        .collect();
    assert_eq!(types, ["\"started\"", "\"completed\""]);
    // The socket fell back to ~/.cache/pi-ask, made private.
    let folder = s.dir.path().join(".cache/pi-ask");
    let mode = std::fs::metadata(&folder).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700);
    s.send("exit\r");
}

/// A form started in the background and then brought to the foreground shows and is answered
/// as usual.
#[test]
fn a_form_started_in_the_background_shows_once_brought_to_the_foreground() {
    let mut s = interactive_bash(&[]);
    s.send("pi-ask ask deploy.json > answer.json &\r");
    s.wait_for("[1]");
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !s.contents().contains("Where to?"),
        "nothing drawn in the background"
    );
    s.send("fg\r");
    s.wait_for("Where to?");
    s.send("2");
    s.wait_for("Review answers");
    s.send("1");
    s.send("1");
    s.send("echo \"done-$?\"\r");
    s.wait_for("done-0");
    let answer: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(s.dir.path().join("answer.json")).unwrap())
            .unwrap();
    assert_eq!(
        answer["details"]["answers"]["env"]["values"],
        serde_json::json!(["prod"])
    );
    s.send("exit\r");
}
