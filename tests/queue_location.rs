//! Where asks go: one queue for every pi-ask process of a user, whatever the environment an MCP
//! host leaves a server (the official SDKs keep only HOME, LOGNAME, PATH, SHELL, TERM and USER),
//! and asks earlier versions queued elsewhere still answered.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::mcp::Mcp;
use common::pty::Session;
use pi_ask::stores::queue::AskQueue;
use pi_ask::stores::queue::{Queue, default_queue_dir, earlier_queue_dirs};
use serde_json::{Value, json};

const ENTER: &str = "\r";

fn payload() -> Value {
    json!({"questions":[{"id":"env","prompt":"Where should it deploy?","options":[
        {"value":"staging","label":"Staging"},{"value":"prod","label":"Production"}]}]})
}

/// `pi-ask mcp` started as the official SDKs start a server: a stripped environment, no flags.
/// `queue` is where the ask should land (the test's view of it).
fn stripped_server(home: &Path, queue: Queue) -> Mcp {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pi-ask"));
    command
        .arg("mcp")
        .env_clear()
        .env("HOME", home)
        .env("LOGNAME", "someone")
        .env("USER", "someone")
        .env("PATH", "/usr/bin:/bin")
        .env("SHELL", "/bin/sh")
        .env("TERM", "xterm-256color")
        .stderr(Stdio::piped());
    Mcp::spawn(command, queue, None, json!({}))
}

/// `pi-ask inbox --status` as a person's shell runs it (with `XDG_RUNTIME_DIR`).
fn status(home: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["inbox", "--status"])
        .env("HOME", home)
        .env("XDG_RUNTIME_DIR", home.join("run"))
        .env_remove("PI_ASK_QUEUE")
        .env_remove("PI_CODING_AGENT_DIR")
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

fn shell_inbox(home: &Path) -> Session {
    Session::start_with_env(
        &["inbox", "--no-history", "--once"],
        &[
            ("HOME", home.to_str().unwrap()),
            ("XDG_RUNTIME_DIR", home.join("run").to_str().unwrap()),
        ],
        |_| {},
    )
}

fn home() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir(home.path().join("run")).unwrap();
    home
}

/// The trial's failure: the server queued under the home folder, the inbox watched
/// `$XDG_RUNTIME_DIR`, and the ask was never seen. Now both use the one queue.
#[test]
fn a_server_with_the_sdks_environment_and_an_inbox_in_a_shell_share_one_queue() {
    let home = home();
    let queue_dir = home.path().join(".pi/agent/pi-ask/queue");
    let queue = Queue::open(&queue_dir).unwrap();
    let mut server = stripped_server(home.path(), queue);
    server.call(1, payload());
    server.queued(1);
    let (code, text) = status(home.path());
    assert!(
        text.contains(&format!("asks go to: {}", queue_dir.display())),
        "{text}"
    );
    assert!(text.contains("1 waiting"), "{text}");
    assert!(text.contains("none is watching"), "{text}");
    assert_eq!(code, 1, "no inbox watches: {text}");

    let mut inbox = shell_inbox(home.path());
    inbox.wait_for("Where should it deploy?");
    inbox.send(ENTER);
    inbox.wait_for("Type your own");
    let (code, text) = status(home.path());
    assert!(text.contains("inbox: watching"), "{text}");
    assert_eq!(code, 0, "{text}");
    inbox.send("2");
    inbox.wait_for("Review");
    inbox.send(ENTER);
    let reply = server.response(1);
    assert_eq!(
        reply["result"]["structuredContent"]["answers"]["env"]["values"][0], "prod",
        "{reply}"
    );
    assert_eq!(inbox.wait_exit(), 0);
    // The inbox said it watched while it ran, and says nothing once it has ended.
    assert_eq!(status(home.path()).0, 1);
    let said = server.stderr_after_exit();
    assert!(
        said.contains(&format!("asks go to {}", queue_dir.display())),
        "{said}"
    );
}

/// An ask an earlier version queued in `$XDG_RUNTIME_DIR/pi-ask/queue` is offered by an inbox
/// started without `--queue`, and its answer goes back to that folder, where its asker waits.
#[test]
fn an_ask_queued_where_earlier_versions_put_it_is_still_answered() {
    let home = home();
    let earlier = Queue::open(home.path().join("run/pi-ask/queue")).unwrap();
    earlier
        .submit(&common::queued_ask(
            "0123456789abcdef",
            "Where should it deploy?",
            1,
        ))
        .unwrap();
    let (_, text) = status(home.path());
    assert!(
        text.contains("also watched (earlier versions queued asks here)"),
        "{text}"
    );
    let mut inbox = shell_inbox(home.path());
    inbox.wait_for("Where should it deploy?");
    inbox.send(ENTER);
    inbox.wait_for("Type your own");
    inbox.send("1");
    inbox.wait_for("Review");
    inbox.send(ENTER);
    let result = common::wait_answer(&earlier, "0123456789abcdef");
    assert_eq!(result["details"]["answers"]["env"]["values"][0], "staging");
    assert_eq!(inbox.wait_exit(), 0);
}

#[test]
fn the_default_queue_depends_on_nothing_a_host_strips() {
    let env = |vars: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            vars.iter()
                .find(|(name, _)| *name == k)
                .map(|(_, v)| v.to_string())
        }
    };
    let home = Path::new("/home/u/.pi/agent/pi-ask/queue");
    assert_eq!(
        default_queue_dir(env(&[("HOME", "/home/u")])).as_deref(),
        Some(home)
    );
    assert_eq!(
        default_queue_dir(env(&[
            ("HOME", "/home/u"),
            ("XDG_RUNTIME_DIR", "/run/user/1000"),
            ("PI_CODING_AGENT_DIR", "/elsewhere")
        ]))
        .as_deref(),
        Some(home)
    );
    assert_eq!(
        default_queue_dir(env(&[("HOME", "/home/u"), ("PI_ASK_QUEUE", "/q")])).as_deref(),
        Some(Path::new("/q"))
    );
    // Earlier versions' folders are named only when they exist, never the primary twice.
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("pi-ask/queue");
    std::fs::create_dir_all(&run).unwrap();
    let root = dir.path().to_str().unwrap().to_owned();
    let lookup = move |k: &str| (k == "XDG_RUNTIME_DIR").then(|| root.clone());
    assert_eq!(
        earlier_queue_dirs(&lookup, home),
        std::slice::from_ref(&run)
    );
    assert!(earlier_queue_dirs(&lookup, &run).is_empty());
}
