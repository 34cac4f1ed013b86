//! End to end: asks recorded in the history, killed, resumed, replayed; pi session files.

mod common;

use std::path::{Path, PathBuf};

use common::pty::Session;

const ENTER: &str = "\r";

const PAYLOAD: &str = r#"{"title":"Deploy","questions":[
  {"id":"target","prompt":"Where should it deploy?","options":[
    {"value":"staging","label":"Staging"},{"value":"prod","label":"Production"}]},
  {"id":"when","prompt":"When?","options":[{"value":"now","label":"Now"},{"value":"later","label":"Later"}]}
]}"#;

fn write_payload(dir: &Path) {
    std::fs::write(dir.join("p.json"), PAYLOAD).unwrap();
}

/// A history file shared by several sessions (each has its own HOME).
fn shared_history() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.jsonl");
    (dir, path)
}

fn start(args: &[&str], history: &Path) -> Session {
    Session::start_with_env(
        args,
        &[("PI_ASK_HISTORY", history.to_str().unwrap())],
        write_payload,
    )
}

fn history_lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn an_ask_killed_with_sigkill_is_resumed_with_its_payload_intact_and_then_dismissed() {
    let (_keep, history) = shared_history();
    let mut killed = start(&["ask", "p.json"], &history);
    killed.wait_for("Where should it deploy?");
    killed.send("2"); // an answer given, then the process dies without a word
    unsafe { libc::kill(killed.pid(), libc::SIGKILL) };
    killed.wait_exit();
    let lines = history_lines(&history);
    assert!(
        lines[1..].iter().all(|l| l["event"] == "progress"),
        "only the opening (and maybe a draft) was recorded: {lines:?}"
    );
    assert_eq!(lines[0]["event"], "open");
    assert_eq!(lines[0]["source"], "tool");
    assert_eq!(
        lines[0]["payload"],
        serde_json::from_str::<serde_json::Value>(PAYLOAD).unwrap()
    );

    let mut resumed = start(&["resume"], &history);
    resumed.wait_for("Reopening unanswered ask_user form: 2 question(s).");
    resumed.wait_for("Where should it deploy?");
    resumed.send("1");
    resumed.wait_for("When?");
    resumed.send("2");
    resumed.wait_for("Review");
    resumed.send(ENTER);
    let (code, json) = resumed.finish();
    assert_eq!(code, 0);
    assert_eq!(json["details"]["answers"]["target"]["values"][0], "staging");
    assert_eq!(json["details"]["answers"]["when"]["values"][0], "later");
    assert_eq!(json["details"]["title"], "Deploy");

    let lines: Vec<serde_json::Value> = history_lines(&history)
        .into_iter()
        .filter(|l| l["event"] != "progress")
        .collect();
    let events: Vec<&str> = lines.iter().map(|l| l["event"].as_str().unwrap()).collect();
    assert_eq!(events, ["open", "open", "end", "dismiss"]);
    assert_eq!(lines[1]["source"], "ask:resume");
    assert_eq!(lines[1]["origin"]["reopens"], lines[0]["id"]);
    assert_eq!(lines[3]["id"], lines[0]["id"]);

    let mut again = start(&["resume"], &history);
    assert_eq!(again.wait_exit(), 1);
    again.wait_for("No interrupted ask to resume.");
}

#[test]
fn replay_reopens_the_latest_real_form_and_records_it_as_a_replay() {
    let (_keep, history) = shared_history();
    let mut first = start(&["ask", "p.json"], &history);
    first.wait_for("Where should it deploy?");
    first.send("2");
    first.wait_for("When?");
    first.send("1");
    first.wait_for("Review");
    first.send(ENTER);
    assert_eq!(first.finish().0, 0);

    let mut replay = start(&["replay"], &history);
    replay.wait_for("Replaying ask_user form");
    replay.wait_for("Where should it deploy?");
    replay.send("1");
    replay.wait_for("When?");
    replay.send("1");
    replay.wait_for("Review");
    replay.send(ENTER);
    let (code, json) = replay.finish();
    assert_eq!(code, 0);
    assert_eq!(json["details"]["answers"]["target"]["values"][0], "staging");
    let lines = history_lines(&history);
    let sources: Vec<&str> = lines
        .iter()
        .filter(|l| l["event"] == "open")
        .map(|l| l["source"].as_str().unwrap())
        .collect();
    assert_eq!(sources, ["tool", "ask:replay"]);
}

#[test]
fn ask_says_once_that_an_interrupted_ask_in_the_same_directory_can_be_resumed() {
    let (keep, history) = shared_history();
    // Each session runs in its own directory, so all three name the same one with --cwd.
    let cwd = keep.path().to_str().unwrap();
    let mut killed = start(&["ask", "p.json", "--cwd", cwd], &history);
    killed.wait_for("Where should it deploy?");
    unsafe { libc::kill(killed.pid(), libc::SIGKILL) };
    killed.wait_exit();

    let mut next = start(&["ask", "p.json", "--cwd", cwd], &history);
    next.wait_for("`pi-ask resume` reopens it");
    // The notice is printed before the form takes the terminal: a Ctrl+C sent before raw mode
    // would be the line discipline's, not a key. Wait for the form itself.
    next.wait_for("Where should it deploy?");
    next.send("\x03"); // ctrl+c cancels
    next.wait_exit();
    let third = start(&["ask", "p.json", "--cwd", cwd], &history);
    third.wait_for("Where should it deploy?");
    assert!(
        !third.contents().contains("pi-ask resume"),
        "said only once:\n{}",
        third.contents()
    );
}

#[test]
fn no_history_records_nothing() {
    let (_keep, history) = shared_history();
    let mut s = start(&["ask", "p.json", "--no-history"], &history);
    s.wait_for("Where should it deploy?");
    s.send("\x03");
    s.wait_exit();
    assert!(!history.exists());
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/sessions")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn resume_on_a_session_with_two_branches_opens_only_the_current_branchs_call() {
    let (_keep, history) = shared_history();
    let file = fixture("two-branches.jsonl");
    let before = std::fs::read(&file).unwrap();
    let mut s = start(&["resume", "--session", &file], &history);
    s.wait_for("Deploy now?");
    assert!(!s.contents().contains("Which auth?"));
    s.send("1");
    s.wait_for("Review");
    s.send(ENTER);
    let (code, json) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(json["details"]["answers"]["deploy"]["values"][0], "yes");
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "pi's file is untouched"
    );
    // The dismissal lives in pi-ask's history, so the call is not offered again.
    let mut again = start(&["resume", "--session", &file], &history);
    assert_eq!(again.wait_exit(), 1);
    again.wait_for("No unanswered ask_user form on this branch.");
}

const REPLY: &str = "I can set this up two ways.\n\n1. Which database should we use: Postgres or SQLite?\n2. What should the service be called?\n";

#[test]
fn answer_extracts_the_questions_of_a_message_and_again_reopens_them() {
    let (_keep, history) = shared_history();
    let mut s = Session::start_with_env(
        &["answer", "reply.md", "--extractor", "builtin"],
        &[("PI_ASK_HISTORY", history.to_str().unwrap())],
        |dir| std::fs::write(dir.join("reply.md"), REPLY).unwrap(),
    );
    s.wait_for("Which database should we use?");
    s.wait_for("SQLite");
    s.send("1");
    s.wait_for("What should the service be called?");
    s.wait_for("Type your answer:");
    s.send("ledger");
    s.send(ENTER);
    s.wait_for("Review");
    s.send(ENTER);
    let (code, json) = s.finish();
    assert_eq!(code, 0);
    let answers = &json["details"]["answers"];
    let ids: Vec<&String> = answers.as_object().unwrap().keys().collect();
    assert_eq!(ids.len(), 2, "{answers}");
    assert_eq!(answers[ids[0]]["labels"][0], "Postgres");
    assert_eq!(answers[ids[1]]["customText"], "ledger");

    let mut again = start(&["answer", "--again"], &history);
    again.wait_for("Reopening previous /answer form: 2 question(s).");
    again.wait_for("Which database should we use?");
    again.send("\x03");
    assert_eq!(again.wait_exit(), 1);
    again.wait_for("Ask form cancelled.");
    let sources: Vec<String> = history_lines(&history)
        .iter()
        .filter(|l| l["event"] == "open")
        .map(|l| l["source"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(sources, ["answer", "answer:again"]);
}

#[test]
fn answer_on_a_session_reads_its_latest_finished_assistant_message() {
    let (_keep, history) = shared_history();
    let file = fixture("answer.jsonl");
    let mut s = start(
        &["answer", "--session", &file, "--extractor", "builtin"],
        &history,
    );
    s.wait_for("Which database should we use?");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 1);
    let incomplete = fixture("incomplete.jsonl");
    let mut s = start(&["answer", "--session", &incomplete], &history);
    assert_eq!(s.wait_exit(), 2);
    s.wait_for("Latest assistant message is incomplete (length)");
}

#[test]
fn a_message_with_no_questions_says_so_and_exits_1() {
    let (_keep, history) = shared_history();
    let mut s = Session::start_with_env(
        &["answer", "done.md"],
        &[("PI_ASK_HISTORY", history.to_str().unwrap())],
        |dir| std::fs::write(dir.join("done.md"), "All tests pass. Shipped.").unwrap(),
    );
    assert_eq!(s.wait_exit(), 1);
    s.wait_for("No questions found in the latest assistant message.");
    assert!(!history.exists(), "nothing was opened, nothing recorded");
}

#[test]
fn a_slow_model_command_shows_progress_and_esc_aborts_it() {
    let (_keep, history) = shared_history();
    let mut s = Session::start_with_env(
        &["answer", "reply.md"],
        &[("PI_ASK_HISTORY", history.to_str().unwrap())],
        |dir| {
            std::fs::write(dir.join("reply.md"), REPLY).unwrap();
            common::model_command_in(dir, "slow-model.sh", "cat > /dev/null\nsleep 30\n");
        },
    );
    s.wait_for("Extracting questions using");
    s.wait_for("Extracting questions using slow-model.sh (attempt 1/2,");
    s.send("\x1b");
    assert_eq!(s.wait_exit(), 1);
    s.wait_for("Question extraction cancelled.");
    assert!(s.cooked(), "raw mode is off again");
}

#[test]
fn an_ask_ended_by_sigterm_prints_its_cancelled_result_and_can_still_be_resumed() {
    let (_keep, history) = shared_history();
    let mut s = start(&["ask", "p.json"], &history);
    s.wait_for("Where should it deploy?");
    s.send("2");
    s.wait_for("When?");
    unsafe { libc::kill(s.pid(), libc::SIGTERM) };
    let (code, json) = s.finish();
    assert_eq!(code, 1);
    assert_eq!(json["details"]["cancelled"], true);
    assert_eq!(
        json["details"]["answers"]["target"]["values"][0], "prod",
        "the answer so far"
    );
    let lines = history_lines(&history);
    let end = lines.iter().find(|l| l["event"] == "end").unwrap();
    assert_eq!(end["status"], "interrupted");

    let mut resumed = start(&["resume"], &history);
    resumed.wait_for("Reopening unanswered ask_user form: 2 question(s).");
    resumed.wait_for("When?"); // on the tab it was left on
    // Its restored answer makes the form dirty: a second Ctrl+C confirms.
    resumed.send("\x03");
    resumed.wait_for("Press cancel/dismiss again");
    resumed.send("\x03");
    assert_eq!(resumed.wait_exit(), 1);
    resumed.wait_for("Unanswered ask_user form dismissed; use pi-ask replay to reopen it.");
}

/// Waits until the history holds a draft whose JSON contains `text`.
fn wait_for_draft(history: &Path, text: &str) {
    let start = std::time::Instant::now();
    loop {
        let found = std::fs::read_to_string(history)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.contains("\"event\":\"progress\""))
            .any(|l| l.contains(text));
        if found {
            return;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "no draft with {text:?} in the history"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Killed with SIGKILL or ended with SIGTERM or SIGHUP, an ask is resumed with what was entered:
/// the answers, notes, the half-typed text, the tab and the cursor.
#[test]
fn a_resumed_ask_puts_back_the_answers_notes_and_half_typed_text() {
    for signal in [libc::SIGKILL, libc::SIGTERM, libc::SIGHUP] {
        let (_keep, history) = shared_history();
        let mut s = start(&["ask", "p.json"], &history);
        s.wait_for("Where should it deploy?");
        s.send("N"); // a question note
        s.send("check the canary");
        s.send(ENTER);
        s.send("2"); // Production, on to the next question
        s.wait_for("When?");
        s.send("3"); // Type your own
        s.send("after lun");
        wait_for_draft(&history, "after lun");
        unsafe { libc::kill(s.pid(), signal) };
        s.wait_exit();

        let mut resumed = start(&["resume"], &history);
        resumed.wait_for("Reopening unanswered ask_user form: 2 question(s).");
        resumed.wait_for("after lun"); // the editor open with its draft, on the second tab
        resumed.send("ch");
        resumed.send(ENTER); // submits "after lunch", on to the review
        resumed.wait_for("Submit");
        resumed.send(ENTER);
        let (code, json) = resumed.finish();
        assert_eq!(code, 0, "signal {signal}");
        let answers = &json["details"]["answers"];
        assert_eq!(answers["target"]["values"][0], "prod", "signal {signal}");
        assert_eq!(answers["target"]["note"], "check the canary");
        assert_eq!(answers["when"]["customText"], "after lunch");
    }
}

#[test]
fn session_latest_finds_the_newest_session_of_the_working_directory() {
    let (_keep, history) = shared_history();
    let mut s = Session::start_with_env(
        &["replay", "--session", "latest"],
        &[("PI_ASK_HISTORY", history.to_str().unwrap())],
        |dir| {
            // pi's folder for this directory under HOME's agent directory.
            let cwd = dir.canonicalize().unwrap();
            let sessions =
                dir.join(".pi/agent/sessions")
                    .join(pi_ask::stores::pi_session::encode_cwd(
                        cwd.to_str().unwrap(),
                    ));
            std::fs::create_dir_all(&sessions).unwrap();
            std::fs::copy(
                fixture("two-branches.jsonl"),
                sessions.join("2026-03-15T10-00-00-000Z_a.jsonl"),
            )
            .unwrap();
        },
    );
    s.wait_for("Replaying previous ask_user form on this branch: 1 question(s).");
    s.wait_for("Which billing provider?");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 1);
}

#[test]
fn history_lists_asks_newest_first_and_shows_one_whole() {
    let (_keep, history) = shared_history();
    let mut first = start(&["ask", "p.json"], &history);
    first.wait_for("Where should it deploy?");
    unsafe { libc::kill(first.pid(), libc::SIGKILL) };
    first.wait_exit();
    let mut second = start(&["ask", "p.json"], &history);
    second.wait_for("Where should it deploy?");
    second.send("\x03");
    second.wait_exit();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
            .args(args)
            .arg("--history")
            .arg(&history)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let (code, list) = run(&["history"]);
    assert_eq!(code, Some(0));
    let rows: Vec<&str> = list.lines().collect();
    assert!(rows[0].starts_with("ID"), "{list}");
    assert_eq!(rows.len(), 3, "{list}");
    assert!(
        rows[1].contains("cancelled") && rows[1].contains("Deploy"),
        "newest first: {list}"
    );
    assert!(rows[2].contains("interrupted"), "{list}");
    let id = rows[2].split_whitespace().next().unwrap();
    let (code, shown) = run(&["history", "show", &id[..4]]);
    assert_eq!(code, Some(0));
    let shown: serde_json::Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(shown["id"], id);
    assert_eq!(shown["status"], "interrupted");
    assert_eq!(
        shown["payload"],
        serde_json::from_str::<serde_json::Value>(PAYLOAD).unwrap()
    );
    assert!(
        shown.get("result").is_none(),
        "an interrupted ask has no result"
    );
    let (code, _) = run(&["history", "show", "zzzz"]);
    assert_eq!(code, Some(2));
}

/// A form refused before it showed (a `--cwd` that does not exist, a socket in a folder others
/// can write) is not an interrupted ask: nothing is recorded, and nothing is offered to resume.
#[test]
fn forms_that_never_opened_are_not_recorded_as_interrupted() {
    use std::os::unix::fs::PermissionsExt;
    let (keep, history) = shared_history();
    let shared = keep.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
    let socket = shared.join("s.sock");
    for args in [
        vec!["ask", "p.json", "--cwd", "/no/such/folder"],
        vec!["ask", "p.json", "--listen", socket.to_str().unwrap()],
    ] {
        let mut s = start(&args, &history);
        assert_eq!(s.wait_exit(), 2, "{args:?}");
    }
    let lines = if history.exists() {
        history_lines(&history)
    } else {
        Vec::new()
    };
    assert!(lines.is_empty(), "{lines:?}");
    let mut resume = start(&["resume"], &history);
    assert_eq!(resume.wait_exit(), 1);
    resume.wait_for("No interrupted ask to resume.");
}
