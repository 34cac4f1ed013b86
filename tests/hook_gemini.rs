//! pi-ask in the real Gemini CLI (`@google/gemini-cli`, pinned in `hosts/package-lock.json`, run
//! on `pi-extension/`'s Node 22), headless (`gemini -p`) and in its TUI, against a scripted
//! Gemini API of the test's own on 127.0.0.1 (`GOOGLE_GEMINI_BASE_URL`), each test with a fresh
//! HOME set up by `pi-ask setup gemini`.
//!
//! What Gemini CLI 0.61.0 allows headless: it does not offer its own `ask_user` (so
//! `pi-ask hook gemini` is for its interactive mode), and it hides MCP tools named `ask_user`;
//! pi-ask's MCP server, registered with `--tool-name ask_person`, is offered as
//! `mcp_pi-ask_ask_person`, and its asks are answered in the inbox or on the web page.
//!
//! Needs the npm packages (`npm ci --prefix hosts`, `npm ci --prefix pi-extension`), installed
//! first when npm is there; without them the tests say NOT RUN, and fail under `CI=true`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use common::scripted::{Reply, Request};
use common::web::Served;
use pi_ask::stores::queue::Queue;
use serde_json::{Value, json};

/// Gemini CLI's script, installed from the committed lock when missing.
fn gemini() -> Option<PathBuf> {
    common::npm::installed("hosts", &["@google/gemini-cli/bundle/gemini.js"])
        .map(|mut paths| paths.remove(0))
}

/// pi-ask's MCP tool as Gemini CLI names it (`mcp_<server>_<tool>`).
const MCP_TOOL: &str = "mcp_pi-ask_ask_person";

/// A scripted Gemini API: until the conversation has a function's response, the model calls
/// `tool` with `args`; then it says it is done. Gemini CLI's side requests for JSON (its
/// router) get a JSON answer, token counts a count.
fn model(tool: &'static str, args: Value) -> (String, Receiver<Request>) {
    common::scripted::serve(move |request| {
        if request.line.contains("countTokens") {
            return Reply::json(&json!({"totalTokens": 1}));
        }
        let body = &request.body;
        let parts = if body.pointer("/generationConfig/responseMimeType")
            == Some(&json!("application/json"))
        {
            json!([{"text": "{\"complexity_reasoning\": \"simple\", \"complexity_score\": 10}"}])
        } else if responses(body).next().is_none() {
            json!([{"functionCall": {"name": tool, "args": args}}])
        } else {
            json!([{"text": "done"}])
        };
        let chunk = json!({"candidates": [{"content": {"role": "model", "parts": parts},
            "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2}});
        if request.line.contains("alt=sse") {
            Reply::data(&[chunk])
        } else {
            Reply::json(&chunk)
        }
    })
}

/// The function responses in a request's conversation.
fn responses(body: &Value) -> impl Iterator<Item = &Value> {
    body["contents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["parts"].as_array())
        .flatten()
        .filter_map(|p| p.get("functionResponse"))
}

/// The first function response the model is sent.
fn first_response(requests: &Receiver<Request>) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let request = requests
            .recv_timeout(left)
            .expect("the model was sent the tool's response");
        if let Some(response) = responses(&request.body).next() {
            return response.clone();
        }
    }
}

fn pi_ask(home: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(args)
        .env("HOME", home)
        .env_remove("PI_ASK_QUEUE")
        .output()
        .unwrap()
}

/// A fresh HOME whose Gemini CLI uses an API key, set up by `pi-ask setup gemini`.
fn fresh_home() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join(".gemini")).unwrap();
    std::fs::write(
        home.path().join(".gemini/settings.json"),
        json!({"security": {"auth": {"selectedType": "gemini-api-key"}}}).to_string(),
    )
    .unwrap();
    let setup = pi_ask(home.path(), &["setup", "gemini"]);
    assert!(setup.status.success(), "{setup:?}");
    home
}

/// `gemini -p` in `home` (on Node 22) with one prompt; what it printed when it ends.
fn run_gemini(script: &Path, home: &Path, url: &str) -> std::thread::JoinHandle<String> {
    let node = common::npm::node_with_sdk();
    let script = script.to_path_buf();
    let home = home.to_path_buf();
    let url = url.to_owned();
    std::thread::spawn(move || {
        let out = Command::new(node)
            .arg(script)
            .args([
                "-m",
                "gemini-2.5-flash",
                "-p",
                "Set the project up; ask me what you need.",
            ])
            .current_dir(&home)
            .env("HOME", &home)
            .env("GEMINI_API_KEY", "test")
            .env("GOOGLE_GEMINI_BASE_URL", &url)
            .env("GEMINI_CLI_TRUST_WORKSPACE", "true")
            .env_remove("PI_ASK_QUEUE")
            .stdin(Stdio::null())
            .output()
            .expect("Gemini CLI starts");
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Gemini CLI headless calls pi-ask's MCP tool under the name `setup gemini` gave it; the ask is
/// answered on the web page and the model gets the answer.
#[test]
fn geminis_mcp_call_is_answered_on_the_web_page() {
    let Some(script) = gemini() else {
        return common::not_run("Gemini CLI is not installed (npm ci --prefix hosts)");
    };
    let payload = json!({"questions": [{"id": "db", "prompt": "Which database?", "options": [
        {"value": "pg", "label": "PostgreSQL"}, {"value": "sqlite", "label": "SQLite"}]}]});
    let (url, requests) = model(MCP_TOOL, payload);
    let home = fresh_home();
    let queue = Queue::open(home.path().join(".pi/agent/pi-ask/queue")).unwrap();
    let served = Served::start(home.path(), queue.dir(), &[]);
    let running = run_gemini(&script, home.path(), &url);
    let ask = common::wait_pending(&queue);
    assert!(ask.client.contains("0.61.0"), "{}", ask.client);
    let cookie = served.sign_in();
    served.answer(&cookie, &ask.id, &["tab=0&act=pick:1", "tab=1&act=submit"]);
    // Gemini CLI hands the model the result's text (Claude Code and Codex, the structured one).
    let response = first_response(&requests);
    let output = response["response"]["output"].as_str().unwrap_or_default();
    assert!(output.contains("Q1: SQLite"), "{response}");
    let out = running.join().unwrap();
    assert!(out.contains("done"), "{out}");
}

/// Headless, Gemini CLI does not offer its own `ask_user` (a call of it is "not found"), so the
/// hook cannot run there; the hook alone answers a `BeforeTool` event as the interactive mode
/// sends it: silent with nothing watching, and a deny carrying the answers when one answers.
#[test]
fn the_hook_answers_geminis_event_and_headless_gemini_has_no_ask_user() {
    let Some(script) = gemini() else {
        return common::not_run("Gemini CLI is not installed (npm ci --prefix hosts)");
    };
    let questions = json!({"questions": [{"question": "Which database?", "header": "Database",
        "type": "choice", "options": [{"label": "PostgreSQL", "description": "Solid"},
        {"label": "SQLite", "description": "One file"}]}]});
    let (url, requests) = model("ask_user", questions.clone());
    let home = fresh_home();
    let running = run_gemini(&script, home.path(), &url);
    let response = first_response(&requests).to_string();
    assert!(response.contains("not found"), "{response}");
    running.join().unwrap();

    let queue = Queue::open(home.path().join(".pi/agent/pi-ask/queue")).unwrap();
    let event = json!({"hook_event_name": "BeforeTool", "tool_name": "ask_user", "cwd": "/",
        "tool_input": questions});
    common::hooks::assert_silent("gemini", home.path(), &[], &event, "Gemini CLI asks itself");
    let served = Served::start(home.path(), queue.dir(), &[]);
    let running = common::hooks::start("gemini", home.path(), &[], &event);
    let ask = common::wait_pending(&queue);
    assert_eq!(ask.client, "Gemini CLI");
    let cookie = served.sign_in();
    served.answer(&cookie, &ask.id, &["tab=0&act=pick:1", "tab=1&act=submit"]);
    let out = running.wait_with_output().unwrap();
    let said: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(said["decision"], "deny");
    assert!(
        said["reason"]
            .as_str()
            .unwrap()
            .contains(r#"{"answers":{"0":"SQLite"}}"#),
        "{said}"
    );
}

#[test]
fn setup_gemini_shares_one_file_and_undoes_it() {
    let home = tempfile::tempdir().unwrap();
    let settings = home.path().join(".gemini/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let before = json!({"theme": "Dracula", "mcpServers": {"docs": {"command": "docs-mcp"}}});
    std::fs::write(&settings, serde_json::to_string_pretty(&before).unwrap()).unwrap();
    let read =
        || -> Value { serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap() };
    // --print shows the one file once, as it would be with both entries.
    let shown = pi_ask(home.path(), &["setup", "gemini", "--print"]);
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert_eq!(shown.matches("# ").count(), 1, "{shown}");
    assert!(
        shown.contains("hook gemini") && shown.contains("ask_person"),
        "{shown}"
    );
    assert_eq!(read(), before, "--print writes nothing");
    assert!(pi_ask(home.path(), &["setup", "gemini"]).status.success());
    let after = read();
    assert_eq!(after["theme"], "Dracula");
    assert_eq!(after["mcpServers"]["docs"], before["mcpServers"]["docs"]);
    let ours = &after["mcpServers"]["pi-ask"];
    assert_eq!(ours["args"], json!(["mcp", "--tool-name", "ask_person"]));
    assert_eq!(ours["trust"], true);
    let hook = &after["hooks"]["BeforeTool"][0];
    assert_eq!(hook["matcher"], "ask_user");
    assert_eq!(
        hook["hooks"][0]["timeout"], 600_000,
        "Gemini CLI counts milliseconds"
    );
    assert!(
        pi_ask(home.path(), &["setup", "gemini", "--remove"])
            .status
            .success()
    );
    assert_eq!(read(), before);
}

/// Gemini CLI's own interface (its TUI in a pseudo-terminal, read through a terminal emulator)
/// with `pi-ask setup gemini` done, where it offers `ask_user`: with nothing watching, the hook
/// is silent and Gemini CLI's own dialog asks; with `pi-ask inbox` running (in a pseudo-terminal
/// of its own), the question is answered there with keys and Gemini CLI hands the model the
/// answers (the hook's deny reason).
#[test]
fn in_geminis_tui_its_dialog_asks_alone_and_pi_ask_inbox_answers_when_it_runs() {
    let Some(script) = gemini() else {
        return common::not_run("Gemini CLI is not installed (npm ci --prefix hosts)");
    };
    let questions = json!({"questions": [{"question": "Which database?", "header": "Database",
        "type": "choice", "options": [{"label": "PostgreSQL", "description": "Solid"},
        {"label": "SQLite", "description": "One file"}]}]});
    let (url, requests) = model("ask_user", questions);
    let node = common::npm::node_with_sdk();
    let home = std::sync::Mutex::new(PathBuf::new());
    let mut tui = common::pty::Session::start_script(
        |_| {
            // Gemini CLI runs headless wherever CI=true (as under `.ci/run`), TTY or not.
            format!(
                "unset CI GITHUB_ACTIONS; exec '{}' '{}' -m gemini-2.5-flash",
                node.display(),
                script.display()
            )
        },
        &[
            ("GEMINI_API_KEY", "test"),
            ("GOOGLE_GEMINI_BASE_URL", &url),
            ("GEMINI_CLI_TRUST_WORKSPACE", "true"),
        ],
        |dir| {
            std::fs::create_dir_all(dir.join(".gemini")).unwrap();
            std::fs::write(
                dir.join(".gemini/settings.json"),
                json!({"security": {"auth": {"selectedType": "gemini-api-key"}}}).to_string(),
            )
            .unwrap();
            assert!(pi_ask(dir, &["setup", "gemini"]).status.success());
            *home.lock().unwrap() = dir.to_path_buf();
        },
    );
    let home = home.into_inner().unwrap();
    let prompt = |tui: &mut common::pty::Session, text: &str| {
        tui.write_raw(text.as_bytes());
        std::thread::sleep(Duration::from_millis(300));
        tui.write_raw(b"\r");
    };
    tui.wait_long("Type your message");
    prompt(&mut tui, "Set the project up; ask me what you need.");
    // Nothing watches the queue: the hook is silent and Gemini CLI's own dialog asks.
    tui.wait_long("Answer Questions");
    assert!(tui.contents().contains("Which database?"));
    tui.write_raw(b"\x1b");

    // pi-ask inbox runs: the question goes there, and Gemini CLI waits for the hook.
    let queue = home.join(".pi/agent/pi-ask/queue");
    let mut inbox =
        common::pty::Session::start(&["inbox", "--queue", queue.to_str().unwrap()], |_| {});
    inbox.wait_long("waiting for asks");
    tui.wait_long("Request cancelled.");
    prompt(&mut tui, "/clear");
    tui.wait_long_gone("Request cancelled.");
    prompt(&mut tui, "Set the project up; ask me what you need.");
    inbox.wait_long("Which database?");
    inbox.send("\r");
    inbox.wait_long("PostgreSQL");
    inbox.send("\x1b[B");
    inbox.send("\r");
    inbox.wait_long("Submit");
    inbox.send("\r");
    let deadline = Instant::now() + Duration::from_secs(60);
    let answered = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let request = requests
            .recv_timeout(left)
            .expect("the model was sent the answer");
        if let Some(r) = responses(&request.body).find(|r| r.to_string().contains("pi-ask")) {
            break r.to_string();
        }
    };
    assert!(
        answered.contains(r#"{\"answers\":{\"0\":\"SQLite\"}}"#),
        "{answered}"
    );
    assert!(
        !tui.contents().contains("Answer Questions"),
        "Gemini CLI's dialog never showed again:\n{}",
        tui.contents()
    );
    // The model, given the answers, goes on.
    tui.wait_long("✦ done");
}
