//! Where asks go: one queue for every pi-ask process of a user, whatever the environment an MCP
//! host leaves a server (the official SDKs keep only HOME, LOGNAME, PATH, SHELL, TERM and USER),
//! and asks earlier versions queued elsewhere still answered.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use common::pty::Session;
use pi_ask::queue::{Queue, default_queue_dir, earlier_queue_dirs};
use serde_json::{Value, json};

const ENTER: &str = "\r";

fn payload() -> Value {
    json!({"questions":[{"id":"env","prompt":"Where should it deploy?","options":[
        {"value":"staging","label":"Staging"},{"value":"prod","label":"Production"}]}]})
}

/// `pi-ask mcp` started as the official SDKs start a server: a stripped environment, no flags.
struct StrippedServer {
    child: Child,
    lines: Receiver<Value>,
    stderr: std::process::ChildStderr,
}

impl StrippedServer {
    fn start(home: &Path) -> StrippedServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
            .arg("mcp")
            .env_clear()
            .env("HOME", home)
            .env("LOGNAME", "someone")
            .env("USER", "someone")
            .env("PATH", "/usr/bin:/bin")
            .env("SHELL", "/bin/sh")
            .env("TERM", "xterm-256color")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(serde_json::from_str(&line).unwrap()).is_err() {
                    break;
                }
            }
        });
        let mut server = StrippedServer {
            child,
            lines: rx,
            stderr,
        };
        server.send(json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
            "protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sdk-defaults","version":"1"}}}));
        assert_eq!(server.response(0)["result"]["serverInfo"]["name"], "pi-ask");
        server.send(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
        server
    }

    fn send(&mut self, value: Value) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{value}").unwrap();
        stdin.flush().unwrap();
    }

    fn response(&self, id: u64) -> Value {
        loop {
            let value = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("no response {id}"));
            if value["id"] == id {
                return value;
            }
        }
    }

    /// Everything the server said on standard error, once it has ended.
    fn stderr_after_exit(mut self) -> String {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
        let mut text = String::new();
        self.stderr.read_to_string(&mut text).unwrap();
        text
    }
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
    let mut server = StrippedServer::start(home.path());
    server.send(json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_user","arguments":payload()}}));
    let queue = Queue::open(&queue_dir).unwrap();
    for _ in 0..500 {
        if !queue.pending().is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
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
