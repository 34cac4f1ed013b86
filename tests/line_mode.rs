//! Line mode as a screen-reader user meets it: the transcript of a whole session (every command,
//! every error), the same JSON a sighted user gets for the same choices, any lines at all, and
//! in a pseudo-terminal with `TERM=dumb`: only text and line breaks, for every question type.

mod common;

use common::pty::Session;
use pi_ask::settings::Settings;
use pi_ask::stores::queue::AskQueue;
use pi_ask::testing::{Harness, LineHarness};
use proptest::prelude::*;
use serde_json::{Value, json};

fn payload() -> String {
    json!({"title": "Deploy plan", "questions": [
        {"id": "env", "label": "Environment", "prompt": "Where should it deploy?", "options": [
            {"value": "staging", "label": "Staging", "description": "safe to break"},
            {"value": "prod", "label": "Production", "recommended": true}]},
        {"id": "checks", "label": "Checks", "type": "multi", "prompt": "Which checks run first?", "options": [
            {"value": "lint", "label": "Lint"}, {"value": "test", "label": "Tests"}, {"value": "e2e", "label": "End to end"}]},
        {"id": "layout", "label": "Layout", "type": "preview", "prompt": "Which layout?", "options": [
            {"value": "compact", "label": "Compact", "preview": "┌ compact ┐\n│ a b c   │\n└─────────┘"},
            {"value": "wide", "label": "Wide", "preview": "wide layout"}]}
    ]})
    .to_string()
}

#[test]
fn a_whole_session_with_every_command_and_every_error() {
    let mut h = LineHarness::new(&payload()).unwrap();
    let transcript = h.type_lines(&[
        "?",
        "7",
        "1,2",
        "2 words",
        "hello",
        "s",
        "n 1 only on weekdays",
        "2",
        "t",
        "b",
        "f",
        "3 1",
        "p 1",
        "p 9",
        "n",
        "keep it narrow",
        "and readable",
        ".",
        "o something in between",
        "",
        "1",
        "c",
        "s",
        "s",
    ]);
    insta::assert_snapshot!("line_mode_session", transcript);
    let result = h.result().expect("submitted");
    assert!(!result.details.cancelled);
}

/// The same choices typed as lines and pressed as keys give the same JSON.
#[test]
fn line_mode_gives_exactly_the_json_a_sighted_user_gets() {
    let mut lines = LineHarness::new(&payload()).unwrap();
    let transcript = lines.type_lines(&["2", "1 3", "n one column", "o a third layout", "s", "s"]);
    let mut keys = Harness::new(&payload(), 100, 30).unwrap();
    keys.keys(&["2", "1", "3", "enter"]);
    keys.keys(&["shift+n"])
        .type_text("one column")
        .keys(&["enter"]);
    keys.keys(&["3"])
        .type_text("a third layout")
        .keys(&["enter"]);
    keys.keys(&["enter"]);
    let by_keys = serde_json::to_value(keys.result().expect("submitted by keys")).unwrap();
    let by_lines = serde_json::to_value(lines.result().expect(&transcript)).unwrap();
    assert_eq!(by_lines, by_keys);
    assert_eq!(
        by_lines["details"]["answers"]["layout"]["customText"],
        "a third layout"
    );
}

#[test]
fn the_double_press_setting_is_a_confirmation_line() {
    let mut settings = Settings::defaults();
    settings.behaviour.double_press_review_shortcuts = true;
    let mut h = LineHarness::with_settings(&payload(), settings).unwrap();
    let transcript = h.type_lines(&["1", "1", "1", "s", "s"]);
    assert!(
        transcript.contains("Type s again to submit."),
        "{transcript}"
    );
    assert!(h.result().is_some());
    let mut settings = Settings::defaults();
    settings.behaviour.double_press_review_shortcuts = false;
    let mut h = LineHarness::with_settings(&payload(), settings).unwrap();
    let transcript = h.type_lines(&["1", "1", "1", "s"]);
    assert!(!transcript.contains("again"), "{transcript}");
    assert!(h.result().is_some(), "{transcript}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]
    /// Any lines from the commands' vocabulary and beyond: no panic, nothing but text and line
    /// breaks said, and a form that ended has a result.
    #[test]
    fn any_lines_are_read_or_refused_in_words(lines in proptest::collection::vec(
        prop_oneof![
            "[0-9]{1,2}", "[0-9],[0-9]", "[onptbfrsec?]", "n [0-9] [a-z ]{0,8}", "o [a-z ]{1,8}",
            "p [0-9]", "\\.", "[ -~]{0,12}", "\\PC{0,6}",
            // Control characters typed (a tab, an escape, C1): never said back raw.
            "[a-z\t\u{1b}\u{7f}\u{9b}\u{202e}]{1,6}",
        ],
        0..30,
    )) {
        let mut h = LineHarness::new(&payload()).unwrap();
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let transcript = h.type_lines(&refs);
        let said: String = transcript
            .lines()
            .filter(|l| !l.starts_with("> "))
            .collect::<Vec<_>>()
            .join("\n");
        prop_assert!(said.chars().all(|c| c == '\n' || !c.is_control()), "{said:?}");
    }
}

fn payload_file(dir: &std::path::Path, payload: &Value) -> String {
    let path = dir.join("payload.json");
    std::fs::write(&path, payload.to_string()).unwrap();
    path.to_str().unwrap().to_owned()
}

/// Every byte pi-ask writes to a dumb terminal is text or a line break (the terminal's echo of
/// what is typed is text too).
fn assert_only_text(raw: &[u8]) {
    let text = String::from_utf8_lossy(raw);
    if let Some(bad) = text
        .chars()
        .find(|c| c.is_control() && *c != '\n' && *c != '\r')
    {
        panic!("{bad:?} written to a dumb terminal: {text:?}");
    }
}

/// One question of each type, answered in a pty with `TERM=dumb`.
#[test]
fn every_question_type_in_a_dumb_terminal_writes_only_text() {
    let cases: [(&str, Value, &[&str], Value); 4] = [
        (
            "single",
            json!({"id": "q", "prompt": "Pick one?", "options": [
            {"value": "a", "label": "Alpha"}, {"value": "b", "label": "Beta"}]}),
            &["2", "s", "s"],
            json!(["b"]),
        ),
        (
            "multi",
            json!({"id": "q", "type": "multi", "prompt": "Pick some?", "options": [
            {"value": "a", "label": "Alpha"}, {"value": "b", "label": "Beta"}, {"value": "c", "label": "Gamma"}]}),
            &["1,3", "s", "s"],
            json!(["a", "c"]),
        ),
        (
            "preview",
            json!({"id": "q", "type": "preview", "prompt": "Pick a look?", "options": [
            {"value": "a", "label": "Alpha", "preview": "╭─╮\n╰─╯"}, {"value": "b", "label": "Beta", "preview": "b"}]}),
            &["p 1", "1", "s", "s"],
            json!(["a"]),
        ),
        (
            "own words",
            json!({"id": "q", "prompt": "Pick one?", "options": [
            {"value": "a", "label": "Alpha"}]}),
            &["o my own", "s", "s"],
            json!(["my own"]),
        ),
    ];
    for (name, question, typed, values) in cases {
        let mut s = Session::start_with_env(
            &["ask", "--no-history", "PAYLOAD"],
            &[("TERM", "dumb")],
            |dir| {
                let file = payload_file(dir, &json!({"questions": [question]}));
                std::fs::rename(&file, dir.join("PAYLOAD")).unwrap();
            },
        );
        s.wait_for("pi-ask line mode (TERM=dumb)");
        // Each line once the one before it was answered (its echo and what followed).
        let mut said = 0;
        for line in typed {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
            while s.contents().matches("Type ").count() <= said {
                assert!(
                    std::time::Instant::now() < deadline,
                    "{name}: {}",
                    s.contents()
                );
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            said = s.contents().matches("Type ").count();
            s.send(&format!("{line}\r"));
        }
        s.wait_for("Submitted.");
        let (code, result) = s.finish();
        assert_eq!(code, 0, "{name}");
        assert_eq!(
            result["details"]["answers"]["q"]["values"], values,
            "{name}"
        );
        assert_only_text(&s.raw.lock().unwrap());
    }
}

/// A queue (in a temp folder, kept alive by the first value) with two asks waiting.
fn two_waiting_asks() -> (tempfile::TempDir, pi_ask::stores::queue::Queue) {
    let dir = tempfile::tempdir().unwrap();
    let queue = pi_ask::stores::queue::Queue::open(dir.path().join("q")).unwrap();
    queue
        .submit(&common::queued_ask("a1", "Where should it deploy?", 1))
        .unwrap();
    queue
        .submit(&common::queued_ask("a2", "Which database?", 2))
        .unwrap();
    (dir, queue)
}

/// The inbox in line mode: its list as numbered lines, an ask opened by its number and answered
/// in lines, and nothing but text on a dumb terminal.
#[test]
fn the_inbox_in_line_mode_lists_asks_as_lines_and_answers_one() {
    let (_dir, queue) = two_waiting_asks();
    let q = queue.dir().to_str().unwrap().to_owned();
    let mut s = Session::start_with_env(
        &["inbox", "--no-history", "--once", "--queue", &q],
        &[("TERM", "dumb")],
        |_| {},
    );
    s.wait_for("2 asks waiting:");
    s.wait_for("2. Which database? (from claude-code, in /home/u/proj,");
    s.send("3\r");
    s.wait_for("There is no ask 3; the asks are 1 to 2.");
    s.send("2\r");
    s.wait_for("Question 1 of 1");
    s.send("2\r");
    s.wait_for("Review your answers:");
    s.send("s\r");
    s.wait_for("Type s again to submit.");
    s.send("s\r");
    assert_eq!(s.wait_exit(), 0);
    let result = common::wait_answer(&queue, "a2");
    assert_eq!(
        result["details"]["answers"]["env"]["values"],
        json!(["prod"])
    );
    assert_eq!(queue.pending().len(), 1, "the other ask still waits");
    assert_only_text(&s.raw.lock().unwrap());
}

/// A signal in line mode ends the form as interrupted with the answers so far, as in the full
/// form; the history records it, so `pi-ask resume` (in line mode too) reopens it with them.
#[test]
fn a_signal_in_line_mode_delivers_the_answers_so_far_and_resume_restores_them() {
    let home = tempfile::tempdir().unwrap();
    let history = home.path().join("history.jsonl");
    let payload = json!({"questions": [
        {"id": "env", "prompt": "Where should it deploy?", "options": [
            {"value": "staging", "label": "Staging"}, {"value": "prod", "label": "Production"}]},
        {"id": "when", "prompt": "When?", "options": [
            {"value": "now", "label": "Now"}, {"value": "later", "label": "Later"}]}]});
    let env = [
        ("PI_ASK_HISTORY", history.to_str().unwrap()),
        ("PI_ASK_ACCESSIBLE", "1"),
    ];
    let mut s = Session::start_with_env(&["ask", "PAYLOAD"], &env, |dir| {
        let file = payload_file(dir, &payload);
        std::fs::rename(&file, dir.join("PAYLOAD")).unwrap();
    });
    s.wait_for("pi-ask line mode (PI_ASK_ACCESSIBLE or ACCESSIBLE is set)");
    s.send("2\r");
    s.wait_for("Question 2 of 2");
    unsafe { libc::kill(s.pid(), libc::SIGTERM) };
    let (code, result) = s.finish();
    assert_eq!(code, 1);
    assert_eq!(
        result["details"]["answers"]["env"]["values"],
        json!(["prod"])
    );
    assert!(
        result["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("interrupted"),
        "{result}"
    );
    assert_only_text(&s.raw.lock().unwrap());

    let mut resumed = Session::start_with_env(&["resume"], &env, |_| {});
    resumed.wait_for("Question 2 of 2");
    resumed.send("b\r");
    resumed.wait_for("Answered: 2. Production.");
    resumed.send("c\r");
    resumed.wait_for("again");
    resumed.send("c\r");
    assert_eq!(resumed.wait_exit(), 1);
}

/// `pi-ask answer` in line mode: the model command's progress is one plain line (no spinner
/// redrawn in place), then the extracted form in lines.
#[test]
fn answer_in_line_mode_says_its_progress_in_plain_lines() {
    let reply = "Which database should the cache use: Postgres or Redis?";
    let form = json!({"questions": [{"id": "db", "prompt": "Which database should the cache use?",
        "options": [{"value": "postgres", "label": "Postgres"}, {"value": "redis", "label": "Redis"}]}]});
    let mut s = Session::start_with_env(
        &["answer", "--no-history", "reply.md"],
        &[("TERM", "dumb")],
        |dir| {
            std::fs::write(dir.join("reply.md"), reply).unwrap();
            common::model_command_in(
                dir,
                "model.sh",
                &format!("cat > /dev/null\nsleep 0.3\necho '{form}'\n"),
            );
        },
    );
    s.wait_for("Extracting the questions using model.sh; this can take a while. Ctrl+C cancels.");
    s.wait_for("Question 1 of 1");
    s.send("2\r");
    s.wait_for("Review your answers:");
    s.send("s\r");
    s.wait_for("Type s again");
    s.send("s\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result["details"]["answers"]["db"]["values"],
        json!(["redis"])
    );
    assert_only_text(&s.raw.lock().unwrap());
}

/// The settings modal is full-screen only: in line mode its file is named instead of drawing
/// escape codes on a dumb terminal.
#[test]
fn settings_in_line_mode_name_the_file_instead_of_drawing() {
    let mut s = Session::start_with_env(&["settings"], &[("TERM", "dumb")], |_| {});
    assert_eq!(s.wait_exit(), 2);
    s.wait_for("line mode does not use: edit");
    assert_only_text(&s.raw.lock().unwrap());
    assert!(
        s.dir
            .path()
            .join(".pi/agent/extensions/pi-ask.toml")
            .is_file(),
        "the file it names exists to be edited"
    );
}

/// A default config that cannot be created is said in line mode too, with the first lines (it is
/// written once they are out).
#[test]
fn line_mode_says_a_default_config_that_cannot_be_created() {
    let mut s = Session::start_with_env(&["demo"], &[("TERM", "dumb")], |dir| {
        std::fs::write(dir.join(".pi"), "not a folder").unwrap();
    });
    s.wait_for("Could not create the default config");
    s.send("\x03");
    s.send("\x03");
    s.wait_exit();
    assert_only_text(&s.raw.lock().unwrap());
}

/// Long lists: any options by number, in any order, on a multi question; option 173 of 200 on
/// a single one (the cursor walks from where it is, up or down).
#[test]
fn numbers_reach_any_option_of_a_long_list() {
    let options: Vec<Value> = (1..=200)
        .map(|i| json!({"value": format!("v{i}"), "label": format!("Option {i}")}))
        .collect();
    let payload = json!({"questions": [
        {"id": "many", "type": "multi", "prompt": "Which?", "options": options},
        {"id": "one", "prompt": "Which one?", "options": options}]})
    .to_string();
    let mut h = LineHarness::new(&payload).unwrap();
    let transcript = h.type_lines(&["199,3 150", "b", "1,150", "173", "s", "s"]);
    let answers =
        &serde_json::to_value(h.result().expect(&transcript)).unwrap()["details"]["answers"];
    // 150 stayed chosen, 1 was added: values in the order chosen, as toggling gives them.
    assert_eq!(answers["many"]["values"], json!(["v150", "v1"]));
    assert_eq!(answers["one"]["values"], json!(["v173"]));
}

/// In the line-mode inbox, an ask that goes away (answered elsewhere) makes the list be said
/// again, so a number typed next names the ask it says; a new ask is announced on its own.
#[test]
fn the_line_mode_inbox_says_the_list_again_when_an_ask_goes_away() {
    let (_dir, queue) = two_waiting_asks();
    let q = queue.dir().to_str().unwrap().to_owned();
    let mut s = Session::start_with_env(
        &["inbox", "--no-history", "--queue", &q],
        &[("TERM", "dumb")],
        |_| {},
    );
    s.wait_for("2 asks waiting:");
    let claim = queue.claim("a1").unwrap().unwrap();
    queue.answer(claim, &json!({})).unwrap();
    s.wait_for("The list changed:");
    s.wait_for("1. Which database?");
    queue
        .submit(&common::queued_ask("a3", "Which region?", 3))
        .unwrap();
    s.wait_for("New ask: 2. Which region?");
    s.send("q\r");
    assert_eq!(s.wait_exit(), 0);
    assert_only_text(&s.raw.lock().unwrap());
}

/// Bytes that are not UTF-8 (a terminal in another encoding, a stray key) are a line like any
/// other: refused in a sentence, and the form goes on (they once ended the input for good).
#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_form_goes_on() {
    use std::io::Write;
    let mut s = Session::start_with_env(
        &["ask", "--no-history", "PAYLOAD"],
        &[("TERM", "dumb")],
        |dir| {
            let question = json!({"id": "q", "prompt": "Pick one?", "options": [
                {"value": "a", "label": "Alpha"}, {"value": "b", "label": "Beta"}]});
            let file = payload_file(dir, &json!({"questions": [question]}));
            std::fs::rename(&file, dir.join("PAYLOAD")).unwrap();
        },
    );
    s.wait_for("pi-ask line mode (TERM=dumb)");
    s.wait_for("Type ");
    {
        let mut writer = s.writer.lock().unwrap();
        writer.write_all(b"\xff\xfe\r").unwrap();
        writer.flush().unwrap();
    }
    for line in ["2", "s", "s"] {
        std::thread::sleep(std::time::Duration::from_millis(300));
        s.send(&format!("{line}\r"));
    }
    s.wait_for("Submitted.");
    assert!(
        s.contents().contains("is not a command"),
        "{}",
        s.contents()
    );
    let (code, result) = s.finish();
    assert_eq!(code, 0, "{}", s.contents());
    assert_eq!(result["details"]["answers"]["q"]["values"], json!(["b"]));
    assert_only_text(&s.raw.lock().unwrap());
}
