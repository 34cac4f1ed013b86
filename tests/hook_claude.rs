//! `pi-ask hook claude` in the real Claude Code (`@anthropic-ai/claude-code`, pinned in
//! `hosts/package-lock.json`), headless (`-p` with `--permission-prompt-tool stdio`, where its
//! `AskUserQuestion` tool is offered), against a scripted model of the test's own on 127.0.0.1
//! (`ANTHROPIC_BASE_URL`; the Messages API with streaming). The model asks its question with
//! `AskUserQuestion`; the hook queues it; the person answers on the web page (`pi-ask serve`);
//! Claude Code hands the model the answer as the tool's result.
//!
//! Needs the npm package (`npm ci --prefix hosts`), installed first when npm is there; without
//! it the tests say NOT RUN, and fail under `CI=true` (where `.ci/run` installs it).

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::web::Served;
use pi_ask::queue::Queue;
use serde_json::{Value, json};

/// Claude Code's native binary, installed from the committed lock when missing.
fn claude() -> Option<PathBuf> {
    common::npm::installed("hosts", &["@anthropic-ai/claude-code-linux-x64/claude"])
        .map(|mut paths| paths.remove(0))
}

/// The question the scripted model asks with `AskUserQuestion`.
fn questions() -> Value {
    json!({"questions": [
        {"question": "Which database should we use?", "header": "Database", "multiSelect": false,
         "options": [{"label": "PostgreSQL", "description": "Solid"}, {"label": "SQLite", "description": "One file"}]},
        {"question": "Which checks should run?", "header": "Checks", "multiSelect": true,
         "options": [{"label": "Lint", "description": "Style and mistakes"}, {"label": "Tests", "description": "The whole suite"}]}
    ]})
}

/// A scripted Anthropic Messages API on a free loopback port: while the conversation has no tool
/// result, a request offering `AskUserQuestion` is answered with a call of it; then with text.
/// Every tool result it was sent comes out of the receiver.
fn model() -> (String, Receiver<Value>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = channel();
    let tx = Arc::new(Mutex::new(tx));
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { break };
            let tx = Arc::clone(&tx);
            std::thread::spawn(move || answer_request(stream, &tx));
        }
    });
    (url, rx)
}

fn answer_request(stream: std::net::TcpStream, results: &Mutex<std::sync::mpsc::Sender<Value>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let mut length = 0;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).is_err() {
            return;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let mut stream = stream;
    let offers_ask = request["tools"]
        .as_array()
        .is_some_and(|t| t.iter().any(|t| t["name"] == "AskUserQuestion"));
    let tool_results: Vec<Value> = request["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "user")
        .filter_map(|m| m["content"].as_array())
        .flatten()
        .filter(|c| c["type"] == "tool_result")
        .cloned()
        .collect();
    // Each tool result, with what else the model was told beside it (a hook's context).
    let told = String::from_utf8_lossy(&body).into_owned();
    for result in &tool_results {
        let _ = results
            .lock()
            .unwrap()
            .send(json!({"result": result, "told": told}));
    }
    if request["stream"] != true {
        let reply =
            json!({"id":"msg_1","type":"message","role":"assistant","model":request["model"],
            "content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,
            "usage":{"input_tokens":1,"output_tokens":1}})
            .to_string();
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{reply}",
            reply.len()
        );
        return;
    }
    let (block, delta, stop) = if offers_ask && tool_results.is_empty() {
        (
            json!({"type":"tool_use","id":"toolu_01","name":"AskUserQuestion","input":{}}),
            json!({"type":"input_json_delta","partial_json":questions().to_string()}),
            "tool_use",
        )
    } else {
        (
            json!({"type":"text","text":""}),
            json!({"type":"text_delta","text":"done"}),
            "end_turn",
        )
    };
    let events = [
        (
            "message_start",
            json!({"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":request["model"],"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}),
        ),
        (
            "content_block_start",
            json!({"type":"content_block_start","index":0,"content_block":block}),
        ),
        (
            "content_block_delta",
            json!({"type":"content_block_delta","index":0,"delta":delta}),
        ),
        (
            "content_block_stop",
            json!({"type":"content_block_stop","index":0}),
        ),
        (
            "message_delta",
            json!({"type":"message_delta","delta":{"stop_reason":stop,"stop_sequence":null},"usage":{"output_tokens":1}}),
        ),
        ("message_stop", json!({"type":"message_stop"})),
    ];
    let mut out = String::from(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n",
    );
    for (name, data) in events {
        out.push_str(&format!("event: {name}\ndata: {data}\n\n"));
    }
    let _ = stream.write_all(out.as_bytes());
}

/// Claude Code's settings in `home` with the hook registered as docs/hosts.md writes it.
fn register_hook(home: &Path, queue: &Path) {
    let dir = home.join(".claude");
    std::fs::create_dir_all(&dir).unwrap();
    let command = format!(
        "'{}' hook claude --queue '{}'",
        env!("CARGO_BIN_EXE_pi-ask"),
        queue.display()
    );
    let settings = json!({"hooks": {"PreToolUse": [
        {"matcher": "AskUserQuestion", "hooks": [{"type": "command", "command": command, "timeout": 600}]}
    ]}});
    std::fs::write(dir.join("settings.json"), settings.to_string()).unwrap();
}

/// Claude Code headless in `home` with one prompt; its stream-json lines when it ends.
fn run_claude(binary: &Path, home: &Path, model: &str) -> std::thread::JoinHandle<String> {
    let binary = binary.to_path_buf();
    let home = home.to_path_buf();
    let model = model.to_owned();
    std::thread::spawn(move || {
        let mut child = Command::new(binary)
            .args([
                "-p",
                "--permission-prompt-tool",
                "stdio",
                "--input-format",
                "stream-json",
                "--output-format",
                "stream-json",
                "--verbose",
            ])
            .current_dir(&home)
            .env("HOME", &home)
            .env("ANTHROPIC_BASE_URL", &model)
            .env("ANTHROPIC_API_KEY", "sk-test")
            .env("DISABLE_TELEMETRY", "1")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env_remove("PI_ASK_QUEUE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Claude Code starts");
        let mut stdin = child.stdin.take().unwrap();
        writeln!(
            stdin,
            "{}",
            json!({"type":"user","message":{"role":"user","content":"Set the project up; ask me what you need."}})
        )
        .unwrap();
        drop(stdin);
        let mut out = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        let _ = child.wait();
        out
    })
}

#[test]
fn claudes_ask_user_question_is_answered_on_the_web_page() {
    let Some(binary) = claude() else {
        return common::not_run("Claude Code is not installed (npm ci --prefix hosts)");
    };
    let home = tempfile::tempdir().unwrap();
    // Registered as a person does it (`pi-ask setup claude`), with the queue where it goes by
    // default.
    let queue = Queue::open(home.path().join(".pi/agent/pi-ask/queue")).unwrap();
    let setup = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["setup", "claude"])
        .env("HOME", home.path())
        .output()
        .unwrap();
    assert!(
        setup.status.success(),
        "{}",
        String::from_utf8_lossy(&setup.stderr)
    );
    let served = Served::start(home.path(), queue.dir(), &[]);
    let (model, tool_results) = model();
    let running = run_claude(&binary, home.path(), &model);
    let ask = common::wait_pending(&queue);
    assert_eq!(ask.client, "Claude Code");
    assert_eq!(ask.payload["questions"][0]["label"], "Database");
    let cookie = served.sign_in();
    served.press(&cookie, &ask.id, "tab=0&act=note:1&note1=keep+it+simple");
    served.press(&cookie, &ask.id, "tab=0&act=pick:1");
    served.press(&cookie, &ask.id, "tab=1&act=toggle:0");
    served.press(&cookie, &ask.id, "tab=1&act=toggle:1");
    served.press(&cookie, &ask.id, "tab=1&act=next");
    let done = served.press(&cookie, &ask.id, "tab=2&act=submit");
    assert!(
        done.body.contains("The agent has your answer"),
        "{}",
        done.body
    );
    let seen = tool_results
        .recv_timeout(Duration::from_secs(60))
        .expect("the model was sent the tool's result");
    let result = &seen["result"];
    let text = result["content"].to_string();
    assert!(
        text.contains(r#"\"Which database should we use?\"=\"SQLite\""#),
        "{result}"
    );
    // The note on the option reached the model beside the answer (the hook's context).
    assert!(
        seen["told"].as_str().unwrap().contains("keep it simple"),
        "the note: {}",
        seen["told"]
    );
    assert!(
        text.contains(r#"\"Which checks should run?\"=\"Lint, Tests\""#),
        "{result}"
    );
    assert_ne!(result["is_error"], true, "{result}");
    let out = running.join().unwrap();
    assert!(out.contains("\"subtype\":\"success\""), "{out}");
}

#[test]
fn a_cancel_in_pi_ask_is_claudes_own_deny() {
    let Some(binary) = claude() else {
        return common::not_run("Claude Code is not installed (npm ci --prefix hosts)");
    };
    let home = tempfile::tempdir().unwrap();
    let queue = Queue::open(home.path().join("queue")).unwrap();
    register_hook(home.path(), queue.dir());
    let served = Served::start(home.path(), queue.dir(), &[]);
    let (model, tool_results) = model();
    let running = run_claude(&binary, home.path(), &model);
    let ask = common::wait_pending(&queue);
    let cookie = served.sign_in();
    served.press(&cookie, &ask.id, "tab=2&act=cancel");
    let seen = tool_results
        .recv_timeout(Duration::from_secs(60))
        .expect("the model was sent the tool's result");
    let result = &seen["result"];
    let text = result["content"].to_string();
    assert!(text.contains("declined to answer"), "{result}");
    assert!(!text.contains("=\\\"SQLite"), "no made-up answer: {result}");
    running.join().unwrap();
}

#[test]
fn with_nothing_watching_the_hook_is_silent_and_claude_asks_itself() {
    let Some(binary) = claude() else {
        return common::not_run("Claude Code is not installed (npm ci --prefix hosts)");
    };
    let home = tempfile::tempdir().unwrap();
    let queue = Queue::open(home.path().join("queue")).unwrap();
    // The hook alone: exit 0, nothing on stdout, at once.
    let event = json!({"hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","cwd":"/",
        "tool_input": questions()});
    let started = Instant::now();
    let mut hook = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["hook", "claude", "--queue"])
        .arg(queue.dir())
        .env("HOME", home.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    hook.stdin
        .take()
        .unwrap()
        .write_all(event.to_string().as_bytes())
        .unwrap();
    let out = hook.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("no pi-ask inbox or web page"));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(queue.pending().is_empty(), "nothing was left queued");
    // In Claude Code: its own way of asking takes over (headless, its permission prompt on
    // stdio, which this test does not answer).
    register_hook(home.path(), queue.dir());
    let (model, tool_results) = model();
    let running = run_claude(&binary, home.path(), &model);
    let seen = tool_results
        .recv_timeout(Duration::from_secs(60))
        .expect("the model was sent the tool's result");
    let result = &seen["result"];
    assert!(
        result["content"].to_string().contains("permission"),
        "{result}"
    );
    assert!(queue.pending().is_empty());
    running.join().unwrap();
}

#[test]
fn setup_registers_once_keeps_the_rest_and_undoes() {
    let home = tempfile::tempdir().unwrap();
    // The settings live in a dotfiles folder; ~/.claude/settings.json is a link to them.
    let dotfiles = home.path().join("dotfiles");
    std::fs::create_dir_all(&dotfiles).unwrap();
    std::fs::create_dir_all(home.path().join(".claude")).unwrap();
    let real = dotfiles.join("claude-settings.json");
    let before = json!({"model": "opus", "hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit-bash"}]}]},
        "permissions": {"allow": ["Read"]}});
    std::fs::write(&real, serde_json::to_string_pretty(&before).unwrap()).unwrap();
    let link = home.path().join(".claude/settings.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let setup = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
            .arg("setup")
            .arg("claude")
            .args(args)
            .env("HOME", home.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let read =
        || -> Value { serde_json::from_str(&std::fs::read_to_string(&real).unwrap()).unwrap() };
    // --print shows and writes nothing.
    let (shown, _) = setup(&["--print"]);
    assert!(
        shown.contains("AskUserQuestion") && shown.contains("hook claude"),
        "{shown}"
    );
    assert_eq!(read(), before);
    setup(&[]);
    let after = read();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link stays"
    );
    assert_eq!(
        after["hooks"]["PreToolUse"][0],
        before["hooks"]["PreToolUse"][0]
    );
    assert_eq!(
        after["hooks"]["PreToolUse"][1]["matcher"],
        "AskUserQuestion"
    );
    assert_eq!(after["permissions"], before["permissions"]);
    let (_, said) = setup(&[]);
    assert!(said.contains("already runs"), "{said}");
    assert_eq!(read(), after, "registered once");
    setup(&["--remove"]);
    assert_eq!(read(), before, "undone, the rest as it was");
    // Settings that are not JSON are left alone, with the reason.
    std::fs::write(&real, "{ not json").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["setup", "claude"])
        .env("HOME", home.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not JSON"));
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "{ not json");
}
