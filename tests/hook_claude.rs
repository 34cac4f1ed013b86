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

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use common::scripted::{Reply, Request};
use common::web::Served;
use pi_ask::stores::queue::AskQueue;
use pi_ask::stores::queue::Queue;
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
fn model() -> (String, Receiver<Request>) {
    common::scripted::serve(reply)
}

/// The tool results in a request's conversation.
fn tool_results(request: &Value) -> Vec<Value> {
    request["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "user")
        .filter_map(|m| m["content"].as_array())
        .flatten()
        .filter(|c| c["type"] == "tool_result")
        .cloned()
        .collect()
}

/// The first tool result the model is sent, and the whole request it came in (what else the
/// model was told beside it: a hook's context).
fn first_tool_result(requests: &Receiver<Request>) -> (Value, String) {
    tool_result_of(requests, |_| true)
}

/// The first tool result the model is sent that `wanted` picks, and its request's body.
fn tool_result_of(
    requests: &Receiver<Request>,
    wanted: impl Fn(&Value) -> bool,
) -> (Value, String) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let request = requests
            .recv_timeout(left)
            .expect("the model was sent the tool's result");
        if let Some(result) = tool_results(&request.body).into_iter().find(|r| wanted(r)) {
            return (result, request.raw);
        }
    }
}

fn reply(request: &Request) -> Reply {
    let request = &request.body;
    if request["stream"] != true {
        return not_streamed(request);
    }
    if offers(request, "AskUserQuestion") && tool_results(request).is_empty() {
        tool_call(request, "toolu_01", "AskUserQuestion", &questions())
    } else {
        said_done(request)
    }
}

/// The MCP ask the scripted model makes with pi-ask's `ask_user`.
fn mcp_payload() -> Value {
    json!({"title": "Setup", "questions": [{"id": "db", "prompt": "Which database?", "options": [
        {"value": "pg", "label": "PostgreSQL"}, {"value": "sqlite", "label": "SQLite"}]}]})
}

/// A scripted model calling pi-ask's MCP tool (see [`calling`]).
fn mcp_reply(request: &Request) -> Reply {
    calling(request, MCP_TOOL, &mcp_payload())
}

/// A scripted model calling the MCP tool `tool` with `input`: Claude Code defers MCP tools, so it
/// first finds the tool with `ToolSearch`, then calls it (as `toolu_02`), then says it is done.
fn calling(request: &Request, tool: &str, input: &Value) -> Reply {
    let request = &request.body;
    if request["stream"] != true {
        return not_streamed(request);
    }
    let results = tool_results(request);
    let asked = results.iter().any(|r| r["tool_use_id"] == "toolu_02");
    if !offers(request, tool) && results.is_empty() {
        let search = json!({"query": format!("select:{tool}"), "max_results": 1});
        tool_call(request, "toolu_01", "ToolSearch", &search)
    } else if offers(request, tool) && !asked {
        tool_call(request, "toolu_02", tool, input)
    } else {
        said_done(request)
    }
}

/// pi-ask's tool as Claude Code names it.
const MCP_TOOL: &str = "mcp__pi-ask__ask_user";

fn offers(request: &Value, tool: &str) -> bool {
    request["tools"]
        .as_array()
        .is_some_and(|t| t.iter().any(|t| t["name"] == tool))
}

/// The reply to a request that does not stream (Claude Code's side requests).
fn not_streamed(request: &Value) -> Reply {
    Reply::json(
        &json!({"id":"msg_1","type":"message","role":"assistant","model":request["model"],
        "content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,
        "usage":{"input_tokens":1,"output_tokens":1}}),
    )
}

fn tool_call(request: &Value, id: &str, name: &str, input: &Value) -> Reply {
    streamed(
        request,
        json!({"type":"tool_use","id":id,"name":name,"input":{}}),
        json!({"type":"input_json_delta","partial_json":input.to_string()}),
        "tool_use",
    )
}

fn said_done(request: &Value) -> Reply {
    streamed(
        request,
        json!({"type":"text","text":""}),
        json!({"type":"text_delta","text":"done"}),
        "end_turn",
    )
}

/// One streamed message of one content block.
fn streamed(request: &Value, block: Value, delta: Value, stop: &str) -> Reply {
    Reply::events(&[
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
    ])
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
    setup_claude(home.path(), &[]);
    let served = Served::start(home.path(), queue.dir(), &[]);
    let (model, requests) = model();
    let running = run_claude(&binary, home.path(), &model);
    let ask = common::wait_pending(&queue);
    assert_eq!(ask.client, "Claude Code");
    assert_eq!(ask.payload["questions"][0]["label"], "Database");
    let cookie = served.sign_in();
    served.answer(
        &cookie,
        &ask.id,
        &[
            "tab=0&act=note:1&note1=keep+it+simple",
            "tab=0&act=pick:1",
            "tab=1&act=toggle:0",
            "tab=1&act=toggle:1",
            "tab=1&act=next",
            "tab=2&act=submit",
        ],
    );
    let (result, told) = first_tool_result(&requests);
    let text = result["content"].to_string();
    assert!(
        text.contains(r#"\"Which database should we use?\"=\"SQLite\""#),
        "{result}"
    );
    // The note on the option reached the model beside the answer (the hook's context).
    assert!(told.contains("keep it simple"), "the note: {told}");
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
    let (model, requests) = model();
    let running = run_claude(&binary, home.path(), &model);
    let ask = common::wait_pending(&queue);
    let cookie = served.sign_in();
    served.press(&cookie, &ask.id, "tab=2&act=cancel");
    let (result, _) = first_tool_result(&requests);
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
    common::hooks::assert_silent(
        "claude",
        home.path(),
        &["--queue", queue.dir().to_str().unwrap()],
        &event,
        "no pi-ask inbox or web page",
    );
    assert!(queue.pending().is_empty(), "nothing was left queued");
    // In Claude Code: its own way of asking takes over (headless, its permission prompt on
    // stdio, which this test does not answer).
    register_hook(home.path(), queue.dir());
    let (model, requests) = model();
    let running = run_claude(&binary, home.path(), &model);
    let (result, _) = first_tool_result(&requests);
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
    // Claude Code's own state file, where its MCP servers are (kept as it is but for pi-ask's).
    let state = home.path().join(".claude.json");
    let state_before = json!({"numStartups": 4, "projects": {"/src": {"allowedTools": []}}});
    std::fs::write(&state, serde_json::to_string_pretty(&state_before).unwrap()).unwrap();
    let read_state =
        || -> Value { serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap() };
    let read =
        || -> Value { serde_json::from_str(&std::fs::read_to_string(&real).unwrap()).unwrap() };
    // --print shows and writes nothing.
    let (shown, _) = setup(&["--print"]);
    assert!(
        shown.contains("AskUserQuestion") && shown.contains("hook claude"),
        "{shown}"
    );
    assert!(shown.contains("\"mcpServers\""), "{shown}");
    assert_eq!(read(), before);
    assert_eq!(read_state(), state_before);
    setup(&[]);
    let after = read();
    let state_after = read_state();
    assert_eq!(state_after["numStartups"], 4);
    assert_eq!(state_after["projects"], state_before["projects"]);
    assert_eq!(state_after["mcpServers"]["pi-ask"]["args"], json!(["mcp"]));
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
    // The person's rules stay; pi-ask's MCP tool is allowed beside them.
    assert_eq!(after["permissions"]["allow"], json!(["Read", MCP_TOOL]));
    let (_, said) = setup(&[]);
    assert!(said.contains("is already in"), "{said}");
    assert_eq!(read(), after, "registered once");
    assert_eq!(read_state(), state_after);
    setup(&["--remove"]);
    assert_eq!(read(), before, "undone, the rest as it was");
    assert_eq!(read_state(), state_before);
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

/// Claude Code 2.1.332 speaks MCP 2026-07-28: no `initialize`, its name and capabilities in each
/// request's `_meta`. pi-ask's MCP server (registered by `pi-ask setup claude`) names it in the
/// queue, asks through its form by a round trip (`input_required`), and headless Claude Code
/// declines that at once: the ask goes on waiting, is answered on the web page, and the model
/// gets the structured result saying it was answered.
#[test]
fn claudes_mcp_call_over_the_current_protocol_is_answered_on_the_web_page() {
    let Some(binary) = claude() else {
        return common::not_run("Claude Code is not installed (npm ci --prefix hosts)");
    };
    let home = tempfile::tempdir().unwrap();
    let queue = Queue::open(home.path().join(".pi/agent/pi-ask/queue")).unwrap();
    setup_claude(home.path(), &[]);
    let settings = std::fs::read_to_string(home.path().join(".claude/settings.json")).unwrap();
    assert!(
        settings.contains(MCP_TOOL),
        "the tool is allowed: {settings}"
    );
    // The MCP server as `setup` registers it, run through a script that keeps its standard error
    // (the form's round trip is said there) and sends forms at once.
    let log = home.path().join("mcp.log");
    let wrapper = home.path().join("pi-ask-mcp.sh");
    common::write_executable(
        &wrapper,
        &format!(
            "#!/bin/sh\nexec '{}' mcp --elicit always \"$@\" 2>>'{}'\n",
            env!("CARGO_BIN_EXE_pi-ask"),
            log.display()
        ),
    );
    let state = home.path().join(".claude.json");
    let mut config: Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(config["mcpServers"]["pi-ask"]["args"], json!(["mcp"]));
    config["mcpServers"]["pi-ask"] = json!({"type": "stdio", "command": wrapper, "args": []});
    std::fs::write(&state, config.to_string()).unwrap();
    let served = Served::start(home.path(), queue.dir(), &[]);
    let (model, requests) = common::scripted::serve(mcp_reply);
    let running = run_claude(&binary, home.path(), &model);
    let ask = common::wait_pending(&queue);
    assert_eq!(ask.client, "Claude Code 2.1.332");
    // The form's round trip is over (declined at once) before the person answers.
    common::wait_file_holds(&log, "declined its form at once");
    let cookie = served.sign_in();
    served.answer(&cookie, &ask.id, &["tab=0&act=pick:1", "tab=1&act=submit"]);
    let (result, _) = tool_result_of(&requests, |r| r["tool_use_id"] == "toolu_02");
    let text = match &result["content"] {
        Value::String(text) => text.clone(),
        other => other[0]["text"].as_str().unwrap_or_default().to_owned(),
    };
    let details: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {result}"));
    assert_eq!(details["outcome"], "answered", "{details}");
    assert_eq!(details["answers"]["db"]["values"], json!(["sqlite"]));
    running.join().unwrap();
}

/// What [`release_scene`] sets up: the web page, the queue's ask, the model's requests and
/// Claude Code's run.
struct ReleaseScene {
    _home: tempfile::TempDir,
    served: Served,
    ask: pi_ask::stores::queue::QueuedAsk,
    requests: Receiver<Request>,
    running: std::thread::JoinHandle<String>,
}

/// Claude Code headless with `pi-ask setup claude` done and the person's other MCP server
/// (`release`: the official SDK's `elicitInput`, every field a choice) beside pi-ask's, its tool
/// allowed as pi-ask's is; the model calls it, and the form is waiting in the queue.
fn release_scene(binary: &Path) -> ReleaseScene {
    let node = common::npm::node_with_sdk();
    let home = tempfile::tempdir().unwrap();
    let queue = Queue::open(home.path().join(".pi/agent/pi-ask/queue")).unwrap();
    setup_claude(home.path(), &[]);
    let server =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("pi-extension/mcp-host/eliciting-server.mjs");
    let state = home.path().join(".claude.json");
    let mut config: Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    config["mcpServers"]["release"] = json!({"type": "stdio", "command": node, "args": [server]});
    std::fs::write(&state, config.to_string()).unwrap();
    let settings_file = home.path().join(".claude/settings.json");
    let mut settings: Value =
        serde_json::from_str(&std::fs::read_to_string(&settings_file).unwrap()).unwrap();
    assert!(
        settings["hooks"]["Elicitation"][0]["hooks"][0]["command"]
            .as_str()
            .is_some_and(|c| c.ends_with("hook claude")),
        "{settings}"
    );
    settings["permissions"]["allow"]
        .as_array_mut()
        .unwrap()
        .push(RELEASE_TOOL.into());
    std::fs::write(&settings_file, settings.to_string()).unwrap();
    let served = Served::start(home.path(), queue.dir(), &[]);
    let (model, requests) =
        common::scripted::serve(|request| calling(request, RELEASE_TOOL, &json!({})));
    let running = run_claude(binary, home.path(), &model);
    let ask = common::wait_pending(&queue);
    ReleaseScene {
        _home: home,
        served,
        ask,
        requests,
        running,
    }
}

impl ReleaseScene {
    /// What the `release` tool told the model (the server's form reply, as it got it).
    fn told(self) -> String {
        let (result, _) = tool_result_of(&self.requests, |r| r["tool_use_id"] == "toolu_02");
        self.running.join().unwrap();
        result["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{result}"))
            .to_owned()
    }
}

/// Claude Code's `Elicitation` hook: the other server's form is asked in pi-ask instead of
/// Claude Code's dialog (which headless Claude Code would decline at once), answered on the web
/// page, and the server is handed the content in its own values.
#[test]
fn another_servers_form_is_asked_in_pi_ask_through_the_elicitation_hook() {
    let Some(binary) = claude() else {
        return common::not_run("Claude Code is not installed (npm ci --prefix hosts)");
    };
    let scene = release_scene(&binary);
    assert_eq!(scene.ask.client, "Claude Code (MCP server release)");
    assert_eq!(scene.ask.payload["title"], "How should the release go?");
    assert_eq!(
        scene.ask.payload["questions"][2]["options"][0]["label"],
        "Yes"
    );
    let (served, id) = (&scene.served, &scene.ask.id);
    let cookie = served.sign_in();
    served.answer(
        &cookie,
        id,
        &[
            "tab=0&act=pick:1",
            "tab=1&act=toggle:0",
            "tab=1&act=toggle:1",
            "tab=1&act=next",
            "tab=2&act=pick:1",
            "tab=3&act=submit",
        ],
    );
    assert_eq!(
        scene.told(),
        r#"release form: {"action":"accept","content":{"channel":"stable","targets":["linux","mac"],"notify":false}}"#
    );
}

/// A cancel in pi-ask is the form's decline, never an answer.
#[test]
fn a_cancel_in_pi_ask_declines_another_servers_form() {
    let Some(binary) = claude() else {
        return common::not_run("Claude Code is not installed (npm ci --prefix hosts)");
    };
    let scene = release_scene(&binary);
    let (served, id) = (&scene.served, &scene.ask.id);
    let cookie = served.sign_in();
    served.press(&cookie, id, "tab=3&act=cancel");
    assert_eq!(scene.told(), r#"release form: {"action":"decline"}"#);
}

/// A form pi-ask does not ask (a free-text field; pi-ask's own, whose ask is in the queue
/// already) is left to Claude Code's dialog at once, even with a web page watching the queue.
#[test]
fn forms_with_free_text_are_left_to_claudes_own_dialog() {
    let home = tempfile::tempdir().unwrap();
    let queue = Queue::open(home.path().join("queue")).unwrap();
    let _served = Served::start(home.path(), queue.dir(), &[]);
    assert!(!queue.inboxes_watching().is_empty());
    let free = json!({"hook_event_name": "Elicitation", "mcp_server_name": "accounts",
        "mode": "form", "message": "Who are you?", "requested_schema": {"type": "object",
            "properties": {"name": {"type": "string", "title": "Name"}}}});
    let form = pi_ask::input::validate_payload(&mcp_payload()).unwrap();
    let own = pi_ask::drivers::mcp::elicitation(&form, pi_ask::drivers::mcp::Dialect::Titled);
    let pi_asks = json!({"hook_event_name": "Elicitation", "mcp_server_name": "pi-ask",
        "mode": "form", "message": own.message, "requested_schema": own.schema});
    for event in [free, pi_asks] {
        common::hooks::assert_silent(
            "claude",
            home.path(),
            &["--queue", queue.dir().to_str().unwrap()],
            &event,
            "is not a choice",
        );
    }
    assert!(queue.pending().is_empty(), "nothing was queued");
}

/// The test's own MCP server's tool, as Claude Code names it.
const RELEASE_TOOL: &str = "mcp__release__release";

/// Claude Code's TUI in a pty (HOME its temp dir, past its first-run screens: onboarding done,
/// the API key approved, the folder trusted), talking to the scripted model at `model`, after
/// `setup` ran in its HOME; the session and its HOME.
fn claude_tui(
    binary: &Path,
    model: &str,
    setup: impl FnOnce(&Path),
) -> (common::pty::Session, PathBuf) {
    const KEY: &str = "sk-test-0000000000000000000000";
    let claude_home = std::sync::Mutex::new(PathBuf::new());
    let tui = common::pty::Session::start_script(
        |_| format!("exec '{}'", binary.display()),
        &[
            ("ANTHROPIC_BASE_URL", model),
            ("ANTHROPIC_API_KEY", KEY),
            ("DISABLE_TELEMETRY", "1"),
            ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
        ],
        |home| {
            let state = json!({"hasCompletedOnboarding": true, "theme": "dark",
                "customApiKeyResponses": {"approved": [&KEY[KEY.len() - 20..]], "rejected": []},
                "projects": {home.to_str().unwrap(): {"hasTrustDialogAccepted": true, "allowedTools": []}}});
            std::fs::write(home.join(".claude.json"), state.to_string()).unwrap();
            setup(home);
            *claude_home.lock().unwrap() = home.to_path_buf();
        },
    );
    tui.wait_long("Claude Code v2.1.332");
    let home = claude_home.into_inner().unwrap();
    (tui, home)
}

/// `pi-ask setup claude` with `args` in `home`.
fn setup_claude(home: &Path, args: &[&str]) {
    let setup = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["setup", "claude"])
        .args(args)
        .env("HOME", home)
        .output()
        .unwrap();
    assert!(setup.status.success(), "{setup:?}");
}

/// Claude Code's own interface (its TUI in a pseudo-terminal, read through a terminal emulator)
/// with `pi-ask setup claude` done: with nothing watching, Claude Code's own picker asks; with
/// `pi-ask inbox` running (in a pseudo-terminal of its own), the question is answered there with
/// keys and Claude Code shows the answer.
#[test]
fn in_claudes_tui_its_picker_asks_alone_and_pi_ask_inbox_answers_when_it_runs() {
    let Some(binary) = claude() else {
        return common::not_run("Claude Code is not installed (npm ci --prefix hosts)");
    };
    let (model, _requests) = model();
    let (mut tui, home) = claude_tui(&binary, &model, |home| setup_claude(home, &["--no-mcp"]));
    let wait = |session: &common::pty::Session, text: &str| session.wait_long(text);
    let prompt = |tui: &mut common::pty::Session, text: &str| {
        tui.write_raw(text.as_bytes());
        std::thread::sleep(Duration::from_millis(300));
        tui.write_raw(b"\r");
    };
    prompt(&mut tui, "Set the project up; ask me what you need.");
    // Nothing watches the queue: the hook is silent and Claude Code's own picker asks.
    wait(&tui, "Type something.");
    assert!(tui.contents().contains("Which database should we use?"));
    tui.write_raw(b"\x1b");
    wait(&tui, "Declined to answer");
    // pi-ask inbox runs: the same question goes there, and Claude Code waits for the hook.
    let queue = home.join(".pi/agent/pi-ask/queue");
    let mut inbox =
        common::pty::Session::start(&["inbox", "--queue", queue.to_str().unwrap()], |_| {});
    wait(&inbox, "waiting for asks");
    prompt(&mut tui, "/clear");
    wait(&tui, "❯ /clear");
    prompt(&mut tui, "Set the project up; ask me what you need.");
    wait(&inbox, "Which database should we use?");
    inbox.send("\r");
    wait(&inbox, "PostgreSQL");
    inbox.send("\x1b[B");
    inbox.send("\r");
    wait(&inbox, "Which checks should run?");
    inbox.send(" ");
    inbox.send("\x1b[B");
    inbox.send(" ");
    inbox.send("\t");
    wait(&inbox, "Submit");
    inbox.send("\r");
    wait(&tui, "Answered Claude's questions:");
    wait(&tui, "Which database should we use? → SQLite");
    wait(&tui, "Which checks should run? → Lint, Tests");
    assert!(
        !tui.contents().contains("Type something."),
        "Claude's picker never showed"
    );
}

/// A person answers pi-ask's MCP ask in Claude Code's own form, in its TUI (in a pty, read
/// through a terminal emulator), over MCP 2026-07-28's round trip: the call returns
/// `input_required`, Claude Code shows the form, and calls again with the reply.
#[test]
fn in_claudes_tui_its_own_form_answers_pi_asks_mcp_call_by_a_round_trip() {
    let Some(binary) = claude() else {
        return common::not_run("Claude Code is not installed (npm ci --prefix hosts)");
    };
    let (model, requests) = common::scripted::serve(mcp_reply);
    let (mut tui, _home) = claude_tui(&binary, &model, |home| {
        setup_claude(home, &[]);
        // The host's form at once (no inbox to wait for first).
        let path = home.join(".claude.json");
        let mut config: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        config["mcpServers"]["pi-ask"]["args"] = json!(["mcp", "--elicit", "always"]);
        std::fs::write(&path, config.to_string()).unwrap();
    });
    tui.write_raw(b"ask me");
    std::thread::sleep(Duration::from_millis(300));
    tui.write_raw(b"\r");
    tui.wait_long("requests your input");
    tui.wait_long("Accept");
    // Open the first question's choices, pick the second, then down to Accept.
    for (key, then) in [
        (&b"\x1b[C"[..], "PostgreSQL"),
        (b"\x1b[B", "SQLite"),
        (b" ", "Q1: \u{25b8} SQLite"),
    ] {
        tui.write_raw(key);
        tui.wait_long(then);
        std::thread::sleep(Duration::from_millis(200));
    }
    for _ in 0..3 {
        tui.write_raw(b"\x1b[B");
        std::thread::sleep(Duration::from_millis(200));
    }
    tui.wait_long("\u{276f} Accept");
    tui.write_raw(b"\r");
    let (result, _) = tool_result_of(&requests, |r| r["tool_use_id"] == "toolu_02");
    let text = match &result["content"] {
        Value::String(text) => text.clone(),
        other => other[0]["text"].as_str().unwrap_or_default().to_owned(),
    };
    let details: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {result}"));
    assert_eq!(details["outcome"], "answered", "{details}");
    assert_eq!(details["answers"]["db"]["values"], json!(["sqlite"]));
    tui.wait_long("Called pi-ask");
}

/// `pi-ask setup claude` on files as people have them: compact settings with numbers serde would
/// rewrite and a key twice, a 5 MB `~/.claude.json`. Only pi-ask's keys change and `--remove`
/// gives back the bytes; a read-only file stops setup before any file is written; a program in a
/// folder others can write is never put in a hook; as root in a user's home nothing is written.
#[test]
fn setup_edits_only_its_own_keys_writes_all_or_nothing_and_registers_only_a_safe_program() {
    use std::os::unix::fs::PermissionsExt;
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join(".claude")).unwrap();
    let settings = home.path().join(".claude/settings.json");
    let settings_text = "{\"model\":\"opus\",\"big\":12345678901234567890,\"ratio\":1.10,\"zero\":-0,\"dup\":1,\"dup\":2,\"permissions\":{\"allow\":[\"Read\"]}}";
    std::fs::write(&settings, settings_text).unwrap();
    let state = home.path().join(".claude.json");
    let projects: serde_json::Map<String, Value> = (0..20_000)
        .map(|n| {
            (
                format!("/src/p{n}"),
                json!({"allowedTools": [], "history": "x".repeat(200)}),
            )
        })
        .collect();
    let state_text = serde_json::to_string_pretty(&json!({"numStartups": 4, "projects": projects}))
        .unwrap()
        + "\n";
    assert!(state_text.len() > 5_000_000);
    std::fs::write(&state, &state_text).unwrap();
    let setup = |program: &Path, args: &[&str], home: &Path| {
        Command::new(program)
            .arg("setup")
            .arg("claude")
            .args(args)
            .env_clear()
            .env("HOME", home)
            .env("PATH", "/usr/bin:/bin")
            .output()
            .unwrap()
    };
    let own = Path::new(env!("CARGO_BIN_EXE_pi-ask"));
    let out = setup(own, &[], home.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = std::fs::read_to_string(&settings).unwrap();
    // Every member pi-ask does not own keeps its text (a one-line object that takes an object
    // member spans lines, one member a line, as the syntax tree lays it out).
    let members = [
        "\"model\":\"opus\"",
        "\"big\":12345678901234567890",
        "\"ratio\":1.10",
        "\"zero\":-0",
        "\"dup\":1",
        "\"dup\":2",
        "\"Read\"",
    ];
    for member in members {
        assert!(after.contains(member), "{member} kept: {after}");
    }
    assert!(
        after.contains("AskUserQuestion") && after.contains(MCP_TOOL),
        "{after}"
    );
    let state_after = std::fs::read_to_string(&state).unwrap();
    assert!(state_after.contains("\"pi-ask\""));
    let out = setup(own, &["--remove"], home.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let removed = std::fs::read_to_string(&settings).unwrap();
    for member in members {
        assert!(removed.contains(member), "{member} kept: {removed}");
    }
    assert!(
        !removed.contains("pi-ask") && !removed.contains("hooks"),
        "{removed}"
    );
    assert_eq!(
        std::fs::read_to_string(&state).unwrap(),
        state_text,
        "byte for byte"
    );
    let settings_text = removed;

    // A read-only ~/.claude.json: setup stops before writing either file.
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = setup(own, &[], home.path());
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("read-only (mode 444)"), "{said}");
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        settings_text,
        "nothing written"
    );
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o644)).unwrap();

    // The same program in a folder others can write: refused, nothing written.
    let shared = tempfile::tempdir().unwrap();
    std::fs::set_permissions(shared.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let planted = shared.path().join("pi-ask");
    std::fs::copy(own, &planted).unwrap();
    let out = setup(&planted, &[], home.path());
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("can be written by others (mode 777)"),
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        settings_text,
        "nothing written"
    );

    // As root with another user's HOME (`sudo -E`): nothing is written, the reason said.
    if unsafe { libc::geteuid() } != 0 {
        return common::not_run("the root half needs root (it runs under CI=true as root)");
    }
    let theirs = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(theirs.path().join(".claude")).unwrap();
    for path in [theirs.path().to_path_buf(), theirs.path().join(".claude")] {
        std::os::unix::fs::chown(&path, Some(65534), Some(65534)).unwrap();
    }
    let out = setup(own, &[], theirs.path());
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("runs as root") && said.contains("belongs to user 65534"),
        "{said}"
    );
    assert!(!theirs.path().join(".claude/settings.json").exists());
    assert!(!theirs.path().join(".claude.json").exists());
}
