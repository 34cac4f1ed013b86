//! `pi-ask mcp` driven as an MCP client drives it: raw JSON-RPC lines over pipes.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use pi_ask::stores::queue::AskQueue;
use pi_ask::stores::queue::Queue;
use serde_json::{Value, json};

/// A running `pi-ask mcp` and the client side of its pipes.
pub struct Mcp {
    pub child: Child,
    /// The client's end of the server's standard input (`None` once closed).
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<Value>,
    /// Responses read while waiting for another id.
    early: Vec<Value>,
    _dir: Option<tempfile::TempDir>,
    pub queue: Queue,
}

impl Drop for Mcp {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

impl Mcp {
    pub fn start(extra: &[&str]) -> Mcp {
        Mcp::start_with(extra, json!({}))
    }

    /// A server for a client declaring these capabilities.
    pub fn start_with(extra: &[&str], capabilities: Value) -> Mcp {
        let dir = tempfile::tempdir().unwrap();
        let queue = Queue::open(dir.path().join("queue")).unwrap();
        Mcp::start_on(dir, queue, extra, capabilities)
    }

    /// A server on this queue (several servers may share one).
    pub fn start_on(
        dir: tempfile::TempDir,
        queue: Queue,
        extra: &[&str],
        capabilities: Value,
    ) -> Mcp {
        let mut command = Command::new(env!("CARGO_BIN_EXE_pi-ask"));
        command
            .args(["mcp", "--queue", queue.dir().to_str().unwrap()])
            .args(extra)
            .env("HOME", dir.path())
            .stderr(Stdio::null());
        Mcp::spawn(command, queue, Some(dir), capabilities)
    }

    /// A server started by `command` (arguments, environment and standard error as the caller
    /// set them), whose asks go to `queue`; initialized for a client with `capabilities` on
    /// protocol 2025-11-25.
    pub fn spawn(
        command: Command,
        queue: Queue,
        dir: Option<tempfile::TempDir>,
        capabilities: Value,
    ) -> Mcp {
        Mcp::spawn_as(command, queue, dir, capabilities, Some("2025-11-25"))
    }

    /// As [`Mcp::spawn`], initialized on protocol `version`; with `None`, not initialized (a
    /// 2026-07-28 client sends its identity and capabilities in each request's `_meta`).
    pub fn spawn_as(
        mut command: Command,
        queue: Queue,
        dir: Option<tempfile::TempDir>,
        capabilities: Value,
        version: Option<&str>,
    ) -> Mcp {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("stdout carries only JSON-RPC: {e}: {line}"));
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        let mut mcp = Mcp {
            child,
            stdin: Some(stdin),
            lines: rx,
            early: Vec::new(),
            _dir: dir,
            queue,
        };
        let Some(version) = version else {
            return mcp;
        };
        mcp.send(json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
            "protocolVersion":version,"capabilities":capabilities,"clientInfo":{"name":"test-host","version":"9"}}}));
        let init = mcp.response(0);
        assert_eq!(init["result"]["serverInfo"]["name"], "pi-ask");
        mcp.send(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
        mcp
    }

    /// A server whose standard error is kept ([`Mcp::stderr_after_close`]), on a queue of its own.
    pub fn start_logged(extra: &[&str], capabilities: Value) -> Mcp {
        Mcp::start_logged_as(Some("2025-11-25"), extra, capabilities)
    }

    /// As [`Mcp::start_logged`], for a client of protocol `version` ([`Mcp::spawn_as`]).
    pub fn start_logged_as(version: Option<&str>, extra: &[&str], capabilities: Value) -> Mcp {
        let dir = tempfile::tempdir().unwrap();
        let queue = Queue::open(dir.path().join("queue")).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_pi-ask"));
        command
            .args(["mcp", "--queue", queue.dir().to_str().unwrap()])
            .args(extra)
            .env("HOME", dir.path())
            .stderr(Stdio::piped());
        Mcp::spawn_as(command, queue, Some(dir), capabilities, version)
    }

    /// Closes the server's input as a host that quits does, waits for it to end (everything
    /// sent before is handled first), and returns what it said on standard error.
    pub fn stderr_after_close(mut self) -> String {
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.child.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        self.stderr_after_exit()
    }

    /// Ends the server and returns what it said on standard error (when the caller piped it).
    pub fn stderr_after_exit(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut text = String::new();
        if let Some(mut stderr) = self.child.stderr.take() {
            stderr.read_to_string(&mut text).unwrap();
        }
        text
    }

    /// Sends one line as it is (bytes that need not be JSON at all).
    pub fn send_raw(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().expect("standard input is open");
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, value: Value) {
        let stdin = self.stdin.as_mut().expect("standard input is open");
        writeln!(stdin, "{value}").unwrap();
        stdin.flush().unwrap();
    }

    /// The response with this id (other messages are kept for later).
    pub fn response(&mut self, id: u64) -> Value {
        let is_it = |v: &Value| v["id"] == id && v.get("method").is_none();
        if let Some(at) = self.early.iter().position(is_it) {
            return self.early.remove(at);
        }
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let value = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no response {id}"));
            if is_it(&value) {
                return value;
            }
            self.early.push(value);
        }
    }

    /// The next request the server sends with this method, if one comes within `wait`.
    pub fn server_request(&mut self, method: &str, wait: Duration) -> Option<Value> {
        self.next(|v| v["method"] == method && v.get("id").is_some(), wait)
    }

    /// The next notification the server sends with this method, if one comes within `wait`.
    pub fn notification(&mut self, method: &str, wait: Duration) -> Option<Value> {
        self.next(|v| v["method"] == method && v.get("id").is_none(), wait)
    }

    /// The next message that `is_it`, kept earlier or coming within `wait` (the others are kept
    /// for later).
    fn next(&mut self, is_it: impl Fn(&Value) -> bool, wait: Duration) -> Option<Value> {
        if let Some(at) = self.early.iter().position(&is_it) {
            return Some(self.early.remove(at));
        }
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.checked_duration_since(Instant::now())?;
            let value = self.lines.recv_timeout(left).ok()?;
            if is_it(&value) {
                return Some(value);
            }
            self.early.push(value);
        }
    }

    /// The host's form (`elicitation/create`) the server sends, within 10 s.
    pub fn host_form(&mut self) -> Value {
        self.server_request("elicitation/create", Duration::from_secs(10))
            .expect("the host is sent its form")
    }

    /// Replies to the server's `request` with `result`, as the host does.
    pub fn reply(&mut self, request: &Value, result: Value) {
        self.send(json!({"jsonrpc": "2.0", "id": request["id"], "result": result}));
    }

    pub fn call(&mut self, id: u64, arguments: Value) {
        self.send(json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":"ask_user","arguments":arguments}}));
    }

    /// Waits until `n` asks are queued.
    pub fn queued(&self, n: usize) -> Vec<pi_ask::stores::queue::QueuedAsk> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let pending = self.queue.pending();
            if pending.len() >= n {
                return pending;
            }
            assert!(Instant::now() < deadline, "only {} queued", pending.len());
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
