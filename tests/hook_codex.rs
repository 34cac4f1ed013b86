//! pi-ask in the real Codex (`@openai/codex`, pinned in `hosts/package-lock.json`), headless
//! (`codex exec`), against a scripted model of the test's own on 127.0.0.1 (a `model_providers`
//! entry with `base_url`; the Responses API with streaming), each test with a fresh HOME set up by
//! `pi-ask setup codex` as a person does it. The model calls `request_user_input` (answered by
//! `pi-ask hook codex`, which hands the model the answers as the reason it denies the tool: Codex's
//! only way for a hook to answer) or pi-ask's own MCP tool; the person answers on the web page.
//!
//! `codex exec` runs only trusted hooks, and trust is given in Codex's TUI (`/hooks`): these runs
//! pass `--dangerously-bypass-hook-trust`, which stands in for that one step (docs/hosts.md).
//!
//! Needs the npm package (`npm ci --prefix hosts`), installed first when npm is there; without it
//! the tests say NOT RUN, and fail under `CI=true` (where `.ci/run` installs it).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use common::scripted::{Reply, Request};
use common::web::Served;
use pi_ask::stores::queue::AskQueue;
use pi_ask::stores::queue::Queue;
use serde_json::{Value, json};

/// Codex's native binary, installed from the committed lock when missing.
fn codex() -> Option<PathBuf> {
    common::npm::installed(
        "hosts",
        &["@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"],
    )
    .map(|mut paths| paths.remove(0))
}

/// The questions the scripted model asks with `request_user_input`.
fn questions() -> Value {
    json!({"questions": [
        {"id": "db", "header": "Database", "question": "Which database should we use?",
         "options": [{"label": "PostgreSQL (Recommended)", "description": "Solid"},
                     {"label": "SQLite", "description": "One file"}]},
        {"id": "ci", "header": "CI", "question": "Where should checks run?",
         "options": [{"label": "GitHub", "description": "Hosted"},
                     {"label": "Locally", "description": "On this machine"}]}
    ]})
}

/// A tool call of `request_user_input`.
fn request_user_input() -> Value {
    json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "status": "completed",
           "name": "request_user_input", "arguments": questions().to_string()})
}

/// A tool call of pi-ask's MCP tool (Codex offers an MCP server's tools in a namespace).
fn mcp_ask_user() -> Value {
    let payload = json!({"title": "Setup", "questions": [{"id": "db", "prompt": "Which database?",
        "options": [{"value": "pg", "label": "PostgreSQL"}, {"value": "sqlite", "label": "SQLite"}]}]});
    json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "status": "completed",
           "namespace": "mcp__pi_ask", "name": "ask_user", "arguments": payload.to_string()})
}

/// A scripted Responses API: until the conversation has a tool's output, the model makes `call`;
/// then it says it is done.
fn model(call: Value) -> (String, Receiver<Request>) {
    common::scripted::serve(move |request| {
        let answered = outputs(&request.body).next().is_some();
        let item = if answered {
            json!({"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                   "content": [{"type": "output_text", "text": "done", "annotations": []}]})
        } else {
            call.clone()
        };
        let usage = json!({"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
            "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}});
        Reply::events(&[
            (
                "response.created",
                json!({"type": "response.created", "response": {"id": "resp_1"}}),
            ),
            (
                "response.output_item.added",
                json!({"type": "response.output_item.added", "output_index": 0, "item": item}),
            ),
            (
                "response.output_item.done",
                json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
            ),
            (
                "response.completed",
                json!({"type": "response.completed", "response": {"id": "resp_1", "output": [item], "usage": usage}}),
            ),
        ])
    })
}

/// The tool outputs in a request's input, as text.
fn outputs(request: &Value) -> impl Iterator<Item = String> + '_ {
    request["input"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|i| i["type"] == "function_call_output")
        .map(|i| match &i["output"] {
            Value::String(text) => text.clone(),
            Value::Array(parts) => parts
                .iter()
                .filter_map(|p| p["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            other => other.to_string(),
        })
}

/// The first tool output the model is sent.
fn first_output(requests: &Receiver<Request>) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let request = requests
            .recv_timeout(left)
            .expect("the model was sent the tool's output");
        if let Some(output) = outputs(&request.body).next() {
            return output;
        }
    }
}

/// A fresh HOME whose Codex talks to the scripted model at `url`, set up by `pi-ask setup codex`.
fn home_for(url: &str) -> common::reap::SweptHome {
    let home = common::reap::SweptHome::new();
    let dir = home.path().join(".codex");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("config.toml"),
        format!(
            "# The scripted model of the test.\nmodel = \"gpt-test\"\nmodel_provider = \"scripted\"\n\n[model_providers.scripted]\nname = \"scripted\"\nbase_url = \"{url}/v1\"\nwire_api = \"responses\"\n"
        ),
    )
    .unwrap();
    let setup = pi_ask(home.path(), &["setup", "codex"]);
    assert!(setup.status.success(), "{setup:?}");
    log_mcp_stderr(home.path());
    home
}

/// Where `pi-ask mcp`'s standard error goes in a HOME of [`home_for`] (Codex shows none of it).
fn mcp_stderr(home: &Path) -> PathBuf {
    home.join("mcp-stderr.log")
}

/// Points the MCP server `setup` registered at a shell that runs the same program with the same
/// arguments, its standard error appended to [`mcp_stderr`], so a test can wait for what pi-ask
/// said instead of sleeping past it.
fn log_mcp_stderr(home: &Path) {
    let config = home.join(".codex/config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    let registered = format!(
        "command = \"{}\"\nargs = [\"mcp\"]\n",
        env!("CARGO_BIN_EXE_pi-ask")
    );
    assert!(text.contains(&registered), "{text}");
    let wrapped = format!(
        "command = \"/bin/sh\"\nargs = [\"-c\", \"exec \\\"$0\\\" mcp 2>>\\\"$1\\\"\", \"{}\", \"{}\"]\n",
        env!("CARGO_BIN_EXE_pi-ask"),
        mcp_stderr(home).display()
    );
    std::fs::write(&config, text.replace(&registered, &wrapped)).unwrap();
}

fn pi_ask(home: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(args)
        .env("HOME", home)
        .env_remove("CODEX_HOME")
        .env_remove("PI_ASK_QUEUE")
        .output()
        .unwrap()
}

/// The queue `pi-ask setup`'s entries use (the default under HOME).
fn queue_in(home: &Path) -> Queue {
    Queue::open(home.join(".pi/agent/pi-ask/queue")).unwrap()
}

/// `codex exec` in `home` with one prompt; what it printed when it ends.
fn run_codex(binary: &Path, home: &Path) -> std::thread::JoinHandle<String> {
    let binary = binary.to_path_buf();
    let home = home.to_path_buf();
    std::thread::spawn(move || {
        let out = Command::new(binary)
            .args([
                "exec",
                "--skip-git-repo-check",
                "--dangerously-bypass-hook-trust",
                "Set the project up; ask me what you need.",
            ])
            .current_dir(&home)
            .env("HOME", &home)
            .env_remove("CODEX_HOME")
            .env_remove("PI_ASK_QUEUE")
            .stdin(Stdio::null())
            .output()
            .expect("Codex starts");
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// `codex exec` in a HOME set up by `pi-ask setup codex`, its model making `call`, with the web
/// page open on the queue, once the ask is there.
struct Asking {
    requests: Receiver<Request>,
    running: std::thread::JoinHandle<String>,
    served: Served,
    ask: pi_ask::stores::queue::QueuedAsk,
    _home: common::reap::SweptHome,
}

fn codex_asking(binary: &Path, call: Value) -> Asking {
    let (url, requests) = model(call);
    let home = home_for(&url);
    let queue = queue_in(home.path());
    let served = Served::start(home.path(), queue.dir(), &[]);
    let running = run_codex(binary, home.path());
    let ask = common::wait_pending(&queue);
    Asking {
        requests,
        running,
        served,
        ask,
        _home: home,
    }
}

/// The answers JSON a deny reason carries.
fn answers_in(output: &str) -> Value {
    let start = output
        .find("{\"answers\"")
        .unwrap_or_else(|| panic!("{output}"));
    let mut stream = serde_json::Deserializer::from_str(&output[start..]).into_iter::<Value>();
    stream.next().unwrap().unwrap()
}

#[test]
fn codexs_request_user_input_is_answered_on_the_web_page() {
    let Some(binary) = codex() else {
        return common::not_run("Codex is not installed (npm ci --prefix hosts)");
    };
    let Asking {
        requests,
        running,
        served,
        ask,
        _home,
    } = codex_asking(&binary, request_user_input());
    assert_eq!(ask.client, "Codex");
    assert_eq!(ask.payload["questions"][0]["label"], "Database");
    let first = &ask.payload["questions"][0]["options"][0];
    assert_eq!(
        (&first["label"], &first["recommended"]),
        (&json!("PostgreSQL"), &json!(true))
    );
    let cookie = served.sign_in();
    served.answer(
        &cookie,
        &ask.id,
        &[
            "tab=0&act=note:1&note1=one+file+is+enough",
            "tab=0&act=pick:1",
            "tab=1&act=pick:0",
            "tab=2&act=submit",
        ],
    );
    let output = first_output(&requests);
    assert!(
        output.contains("the user answered these questions in pi-ask"),
        "{output}"
    );
    assert_eq!(
        answers_in(&output),
        json!({"answers": {
            "db": {"answers": ["SQLite", "user_note on \"SQLite\": one file is enough"]},
            "ci": {"answers": ["GitHub"]}
        }})
    );
    let out = running.join().unwrap();
    assert!(out.contains("done"), "{out}");
}

#[test]
fn a_cancel_in_pi_ask_reaches_codexs_model_as_no_answer() {
    let Some(binary) = codex() else {
        return common::not_run("Codex is not installed (npm ci --prefix hosts)");
    };
    let Asking {
        requests,
        running,
        served,
        ask,
        _home,
    } = codex_asking(&binary, request_user_input());
    let cookie = served.sign_in();
    served.press(&cookie, &ask.id, "tab=2&act=cancel");
    let output = first_output(&requests);
    assert!(output.contains("declined to answer"), "{output}");
    assert!(
        !output.contains("\"answers\""),
        "no made-up answer: {output}"
    );
    running.join().unwrap();
}

#[test]
fn with_nothing_watching_the_hook_is_silent_and_codex_answers_itself() {
    let Some(binary) = codex() else {
        return common::not_run("Codex is not installed (npm ci --prefix hosts)");
    };
    let (url, requests) = model(request_user_input());
    let home = home_for(&url);
    let queue = queue_in(home.path());
    // The hook alone: exit 0, nothing on stdout, at once.
    let event = json!({"hook_event_name": "PreToolUse", "tool_name": "request_user_input",
        "cwd": "/", "tool_input": questions()});
    common::hooks::assert_silent("codex", home.path(), &[], &event, "Codex asks itself");
    // In Codex: its own tool runs (in exec, outside Plan mode, it says it cannot ask).
    let running = run_codex(&binary, home.path());
    let output = first_output(&requests);
    assert!(
        output.contains("request_user_input is unavailable"),
        "{output}"
    );
    assert!(queue.pending().is_empty(), "nothing was left queued");
    running.join().unwrap();
}

/// Codex's MCP call of pi-ask's `ask_user`: headless Codex declines the elicitation form at once,
/// which leaves the ask waiting for an inbox (it used to end as a cancel after five seconds); the
/// person answers on the web page, and the model gets the structured result saying so.
#[test]
fn codexs_mcp_call_is_answered_on_the_web_page_though_codex_declines_forms() {
    let Some(binary) = codex() else {
        return common::not_run("Codex is not installed (npm ci --prefix hosts)");
    };
    let Asking {
        requests,
        running,
        served,
        ask,
        _home: home,
    } = codex_asking(&binary, mcp_ask_user());
    assert_eq!(ask.client, "Codex 0.171.0", "named by its title");
    // Codex is sent its form once the grace period is over (no inbox watches), and declines it
    // at once: the ask waits on.
    common::wait_file_holds(
        &mcp_stderr(home.path()),
        "the host declined its form at once",
    );
    assert!(
        queue_in(home.path())
            .pending()
            .iter()
            .any(|a| a.id == ask.id),
        "the decline left the ask waiting"
    );
    let cookie = served.sign_in();
    served.answer(&cookie, &ask.id, &["tab=0&act=pick:1", "tab=1&act=submit"]);
    let output = first_output(&requests);
    let start = output.find('{').unwrap_or_else(|| panic!("{output}"));
    let details: Value = serde_json::from_str(&output[start..]).unwrap();
    assert_eq!(details["outcome"], "answered", "{output}");
    assert_eq!(details["answers"]["db"]["values"], json!(["sqlite"]));
    running.join().unwrap();
}

#[test]
fn setup_codex_keeps_the_persons_config_and_undoes_byte_for_byte() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join(".codex");
    std::fs::create_dir_all(&dir).unwrap();
    let config =
        "# my Codex\nmodel = \"o4\" # keep\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n";
    let hooks = serde_json::to_string_pretty(&json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit"}]}]}}))
    .unwrap()
        + "\n";
    std::fs::write(dir.join("config.toml"), config).unwrap();
    std::fs::write(dir.join("hooks.json"), &hooks).unwrap();
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let shown = pi_ask(home.path(), &["setup", "codex", "--print"]);
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(
        shown.contains("hook codex") && shown.contains("[mcp_servers.pi-ask]"),
        "{shown}"
    );
    assert_eq!(
        (read("config.toml"), read("hooks.json")),
        (config.to_owned(), hooks.clone())
    );
    let first = pi_ask(home.path(), &["setup", "codex"]);
    let said = String::from_utf8_lossy(&first.stderr);
    assert!(said.contains("/hooks"), "the trust step is said: {said}");
    let after = read("config.toml");
    assert!(after.starts_with(config), "{after}");
    let parsed: toml::Table = toml::from_str(&after).unwrap();
    assert_eq!(
        parsed["mcp_servers"]["pi-ask"]["args"][0].as_str(),
        Some("mcp")
    );
    let registered: Value = serde_json::from_str(&read("hooks.json")).unwrap();
    assert_eq!(
        registered["hooks"]["PreToolUse"][1]["matcher"],
        "request_user_input"
    );
    let again = pi_ask(home.path(), &["setup", "codex"]);
    assert!(String::from_utf8_lossy(&again.stderr).contains("already in"));
    assert_eq!(read("config.toml"), after, "registered once");
    let removed = pi_ask(home.path(), &["setup", "codex", "--remove"]);
    assert!(removed.status.success());
    assert_eq!(
        (read("config.toml"), read("hooks.json")),
        (config.to_owned(), hooks)
    );
    // A config that is not TOML is left alone, with the reason.
    std::fs::write(dir.join("config.toml"), "model = [").unwrap();
    let refused = pi_ask(home.path(), &["setup", "codex"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not TOML"));
    assert_eq!(read("config.toml"), "model = [");
}

/// Types `text` into a TUI's composer as one bracketed paste (so no paste-burst heuristic takes
/// the Enter after it for part of the text) and submits it, until the screen shows one of
/// `started`. Neither the text nor the Enter is sent again once the screen shows any effect of it:
/// a second Enter would choose in whatever the first one opened.
fn submit(tui: &mut common::pty::Session, text: &str, started: &[&str]) {
    // The screen may still show the text in an earlier turn: typed, it shows once more.
    let shown: String = text.chars().take(12).collect();
    let before = settled(tui, |_| false).matches(&shown).count();
    let pasted = format!("\x1b[200~{text}\x1b[201~");
    send_once_until(tui, pasted.as_bytes(), |screen| {
        screen.matches(&shown).count() > before
    });
    send_once_until(tui, b"\r", |screen| {
        started.iter().any(|s| screen.contains(s))
    });
}

/// Presses `key` until the screen shows `text`: sent again only when the screen did not change
/// at all (a TUI still starting drops keys), never after it took effect (Shift+Tab cycles modes,
/// Down moves on).
fn press_until(tui: &mut common::pty::Session, key: &[u8], text: &str) {
    send_once_until(tui, key, |screen| screen.contains(text));
}

/// Sends `bytes` to a settled screen and waits up to 30 s for `done`. When the screen settles
/// again unchanged, the bytes were dropped (a TUI still starting drops keys) and are sent again
/// (three times at most); once they changed it, they are never sent again, and a screen that
/// settled without `done` fails the test, shown. The TUI's own updates (a warning, the session
/// starting) settle before a key is sent, so they are not taken for the key's effect.
fn send_once_until(tui: &mut common::pty::Session, bytes: &[u8], done: impl Fn(&str) -> bool) {
    for _ in 0..3 {
        let before = settled(tui, &done);
        if done(&before) {
            return;
        }
        tui.write_raw(bytes);
        let after = settled(tui, &done);
        if done(&after) {
            return;
        }
        if after != before {
            panic!("{bytes:?} changed the screen, which never showed what was awaited:\n{after}");
        }
    }
    panic!("{bytes:?} was dropped three times:\n{}", tui.contents());
}

/// The screen once it has not changed for a second, or shows `done` (30 s at most).
fn settled(tui: &common::pty::Session, done: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut last = tui.contents();
    let mut since = Instant::now();
    while since.elapsed() < Duration::from_secs(1) && Instant::now() < deadline && !done(&last) {
        std::thread::sleep(Duration::from_millis(100));
        let screen = tui.contents();
        if screen != last {
            last = screen;
            since = Instant::now();
        }
    }
    last
}

/// Waits up to 30 s for `text` on a session's screen.
fn wait_screen(session: &common::pty::Session, text: &str) {
    session.wait_long(text);
}

/// Codex's own interface (its TUI in a pseudo-terminal, read through a terminal emulator) after
/// `pi-ask setup codex`: Codex asks the person to trust the new hook (what `setup` says), then,
/// with nothing watching, Codex's own picker asks in Plan mode; with `pi-ask inbox` running (in a
/// pseudo-terminal of its own), the question is answered there with keys and Codex shows the
/// answers the model is given.
#[test]
fn in_codexs_tui_the_hook_is_trusted_its_picker_asks_alone_and_pi_ask_inbox_answers() {
    let Some(binary) = codex() else {
        return common::not_run("Codex is not installed (npm ci --prefix hosts)");
    };
    let (url, _requests) = model(request_user_input());
    let codex_home = std::sync::Mutex::new(PathBuf::new());
    let mut tui = common::pty::Session::start_script(
        |_| format!("exec '{}'", binary.display()),
        &[],
        |home| {
            let dir = home.join(".codex");
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(
                dir.join("config.toml"),
                format!("model = \"gpt-test\"\nmodel_provider = \"scripted\"\n\n[model_providers.scripted]\nname = \"scripted\"\nbase_url = \"{url}/v1\"\nwire_api = \"responses\"\n"),
            )
            .unwrap();
            let setup = pi_ask(home, &["setup", "codex", "--no-mcp"]);
            assert!(setup.status.success());
            *codex_home.lock().unwrap() = home.to_path_buf();
        },
    );
    let home = codex_home.into_inner().unwrap();
    wait_screen(&tui, "Hooks need review");
    // Down to "Trust all and continue" (a key sent while the screen is still starting may be
    // dropped: pressed until the marker is on it), then Enter.
    press_until(&mut tui, b"\x1b[B", "\u{203a} 2. Trust all and continue");
    tui.write_raw(b"\r");
    wait_screen(&tui, "OpenAI Codex (v0.171.0)");
    // Codex writes the trust to its config as the screen goes.
    let config = home.join(".codex/config.toml");
    common::wait_file_holds(&config, "trusted_hash");
    // Plan mode, where Codex's own request_user_input asks; nothing watches the queue.
    press_until(&mut tui, b"\x1b[Z", "Plan mode");
    submit(
        &mut tui,
        "Set the project up; ask me what you need.",
        &["Question 1/"],
    );
    wait_screen(&tui, "None of the above");
    tui.write_raw(b"\x1b");
    wait_screen(&tui, "interrupted");
    // pi-ask inbox runs: a new conversation's question goes there.
    let queue = home.join(".pi/agent/pi-ask/queue");
    let mut inbox =
        common::pty::Session::start(&["inbox", "--queue", queue.to_str().unwrap()], |_| {});
    wait_screen(&inbox, "waiting for asks");
    submit(&mut tui, "/new", &["Ask Codex to do anything"]);
    submit(
        &mut tui,
        "Set the project up; ask me what you need.",
        &["Running hook", "Working"],
    );
    wait_screen(&inbox, "Which database should we use?");
    inbox.send("\r");
    wait_screen(&inbox, "PostgreSQL");
    inbox.send("\x1b[B");
    inbox.send("\r");
    wait_screen(&inbox, "Where should checks run?");
    inbox.send("\r");
    wait_screen(&inbox, "Submit");
    inbox.send("\r");
    wait_screen(&tui, "the user answered these questions in pi-ask");
    let screen = tui.contents().replace('\n', "");
    assert!(
        screen.contains(r#"{"answers":{"db":{"answers":["SQLite"]},"ci":{"answers":["GitHub"]}}}"#),
        "{}",
        tui.contents()
    );
    // Codex's TUI leaves its app-server daemon running from this HOME (in a session of its own);
    // the session takes it down with Codex.
    drop(inbox);
    drop(tui);
    assert!(
        common::reap::processes_under(&home).is_empty(),
        "a process Codex started outlived the test"
    );
}
