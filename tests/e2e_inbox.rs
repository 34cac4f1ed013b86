//! End to end: `pi-ask inbox` in a pty answering queued asks; a killed inbox loses nothing.

mod common;

use std::time::{Duration, Instant};

use common::pty::Session;
use common::{queued_ask as ask, wait_answer};
use pi_ask::stores::history::ProcessId;
use pi_ask::stores::queue::AskQueue;
use pi_ask::stores::queue::Queue;

const ENTER: &str = "\r";
const DOWN: &str = "\x1b[B";
const ESC: &str = "\x1b";

/// Opens the highlighted ask from the inbox's list once `heading` shows, and waits for its form.
fn open_from_list(s: &mut Session, heading: &str) {
    s.wait_for(heading);
    s.send(ENTER);
    s.wait_for("Type your own");
}

fn inbox(queue: &Queue, extra: &[&str]) -> Session {
    let mut args = vec![
        "inbox",
        "--no-history",
        "--queue",
        queue.dir().to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    Session::start(&args, |_| {})
}

#[test]
fn the_inbox_shows_a_queued_ask_within_moments_and_delivers_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    let s = inbox(&queue, &[]);
    s.wait_for("waiting for asks");
    let queued = Instant::now();
    queue
        .submit(&ask("a1", "Where should it deploy?", 1))
        .unwrap();
    s.wait_for("1 ask waiting");
    let shown = queued.elapsed();
    let mut s = s;
    s.wait_for("Where should it deploy?");
    s.wait_for("claude-code · /home/u/proj");
    open_from_list(&mut s, "1 ask waiting");
    assert!(
        s.contents()
            .contains("ask from claude-code in /home/u/proj")
    );
    s.send("2");
    s.wait_for("Review");
    s.send(ENTER);
    let result = wait_answer(&queue, "a1");
    assert_eq!(result["details"]["answers"]["env"]["values"][0], "prod");
    s.wait_for("waiting for asks");
    eprintln!("shown after {shown:?}");
}

#[test]
fn several_waiting_asks_are_offered_in_a_list_oldest_first() {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    queue.submit(&ask("new", "Second question?", 2)).unwrap();
    queue.submit(&ask("old", "First question?", 1)).unwrap();
    let mut s = inbox(&queue, &["--once"]);
    s.wait_for("pi-ask inbox · 2 asks waiting");
    let screen = s.contents();
    let first = screen.find("First question?").unwrap();
    let second = screen.find("Second question?").unwrap();
    assert!(first < second, "oldest first:\n{screen}");
    s.send(DOWN); // the newer one
    open_from_list(&mut s, "› Second question?");
    s.send("1");
    s.wait_for("Review");
    s.send(ENTER);
    let result = wait_answer(&queue, "new");
    assert_eq!(result["details"]["answers"]["env"]["values"][0], "staging");
    assert_eq!(s.wait_exit(), 0, "--once stops after one");
    assert_eq!(queue.pending().len(), 1, "the other still waits");
}

#[test]
fn an_inbox_killed_mid_form_returns_the_ask_and_another_inbox_answers_it() {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    queue
        .submit(&ask("a1", "Where should it deploy?", 1))
        .unwrap();
    let mut first = inbox(&queue, &[]);
    open_from_list(&mut first, "1 ask waiting");
    assert!(queue.pending().is_empty(), "claimed by the first inbox");
    unsafe { libc::kill(first.pid(), libc::SIGKILL) };
    first.wait_exit();
    let mut second = inbox(&queue, &["--once"]);
    open_from_list(&mut second, "1 ask waiting");
    second.send("1");
    second.wait_for("Review");
    second.send(ENTER);
    let result = wait_answer(&queue, "a1");
    assert_eq!(result["details"]["answers"]["env"]["values"][0], "staging");
}

#[test]
fn a_withdrawn_ask_closes_its_form() {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    queue
        .submit(&ask("a1", "Where should it deploy?", 1))
        .unwrap();
    let mut s = inbox(&queue, &["--once"]);
    open_from_list(&mut s, "1 ask waiting");
    queue.withdraw("a1").unwrap();
    assert_eq!(s.wait_exit(), 0);
    s.wait_for("the asker withdrew the ask");
    assert!(queue.take_result("a1").is_none());
    assert!(s.cooked());
}

/// Killed mid-form, an inbox leaves an unfinished record; once a second inbox answers the ask,
/// that record is answered too: `pi-ask resume` does not offer it and `history` says so.
#[test]
fn an_ask_answered_by_another_inbox_is_answered_in_the_history_too() {
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("history.jsonl");
    let queue = Queue::open(dir.path().join("q")).unwrap();
    queue
        .submit(&ask("a1", "Where should it deploy?", 1))
        .unwrap();
    let env = [("PI_ASK_HISTORY", history.to_str().unwrap())];
    let run = |args: &[&str]| Session::start_with_env(args, &env, |_| {});
    let q = queue.dir().to_str().unwrap();
    let mut first = run(&["inbox", "--queue", q]);
    open_from_list(&mut first, "1 ask waiting");
    // Killed once its form is on record (the record is written just after the first frame).
    let start = std::time::Instant::now();
    while !std::fs::read_to_string(&history).is_ok_and(|h| h.contains("\"event\":\"open\"")) {
        assert!(
            start.elapsed() < common::pty::WAIT,
            "the form was never recorded"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    unsafe { libc::kill(first.pid(), libc::SIGKILL) };
    first.wait_exit();
    let mut second = run(&["inbox", "--once", "--queue", q]);
    open_from_list(&mut second, "1 ask waiting");
    second.send("1");
    second.wait_for("Review");
    second.send(ENTER);
    wait_answer(&queue, "a1");
    assert_eq!(second.wait_exit(), 0);

    let mut resume = run(&["resume"]);
    assert_eq!(resume.wait_exit(), 1);
    resume.wait_for("No interrupted ask to resume.");
    let listing = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .arg("history")
        .env("PI_ASK_HISTORY", &history)
        .env("HOME", dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&listing.stdout);
    assert!(text.contains("answered elsewhere"), "{text}");
    assert!(!text.contains("interrupted"), "{text}");
}

/// The trial's escape set: ESC (OSC 0/2/8/52, CSI), DCS, C1 CSI, bidi overrides, U+2028.
const HOSTILE: &str = "\u{1b}]2;PWNED\u{7}\u{1b}[2J\u{1b}]52;c;aGk=\u{7}\u{1b}]8;;http://x\u{7}\u{1b}P1$r\u{1b}\\\u{9b}31m\u{202e}evil\u{2028}x";

fn assert_clean(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    for bad in [
        "\u{1b}]2;PWNED",
        "\u{1b}]52;",
        "\u{1b}]8;;http://x",
        "\u{1b}P1$r",
        "\u{9b}31m",
        "\u{202e}",
        "\u{2028}",
    ] {
        if let Some(at) = text.find(bad) {
            let from = text[..at]
                .char_indices()
                .rev()
                .nth(60)
                .map_or(0, |(i, _)| i);
            panic!(
                "{what}: {bad:?} reached the terminal: {:?}",
                &text[from..at + bad.len()]
            );
        }
    }
}

/// Text chosen by a peer (the MCP client's name, the asker's folder) is printed made safe in
/// the inbox's lines, and a payload's title in `pi-ask history`.
#[test]
fn peer_and_payload_text_never_reaches_the_terminal_raw() {
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("history.jsonl");
    let queue = Queue::open(dir.path().join("q")).unwrap();
    let mut hostile = ask("a1", "Where should it deploy?", 1);
    hostile.client = HOSTILE.into();
    hostile.cwd = format!("/home/{HOSTILE}");
    hostile.payload["title"] = HOSTILE.into();
    queue.submit(&hostile).unwrap();
    let env = [("PI_ASK_HISTORY", history.to_str().unwrap())];
    let mut s = Session::start_with_env(
        &["inbox", "--once", "--queue", queue.dir().to_str().unwrap()],
        &env,
        |_| {},
    );
    s.wait_for("?]2;PWNED?");
    open_from_list(&mut s, "1 ask waiting");
    s.wait_for("ask from ?]2;PWNED?");
    s.send("1");
    s.wait_for("Review");
    s.send(ENTER);
    wait_answer(&queue, "a1");
    assert_eq!(s.wait_exit(), 0);
    let raw = s.raw.lock().unwrap().clone();
    assert_clean("the inbox", &raw);

    let listing = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .arg("history")
        .env("PI_ASK_HISTORY", &history)
        .env("HOME", dir.path())
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&listing.stdout).contains("?]2;PWNED?"));
    assert_clean("history", &listing.stdout);
    assert_clean("history's stderr", &listing.stderr);
}

/// The list's keys: `l` leaves an ask for later (it moves to the end, marked), `d` declines one
/// (its asker gets a cancelled result), Esc quits with the rest queued.
#[test]
fn the_list_leaves_asks_for_later_declines_them_and_quits_leaving_them_queued() {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    queue.submit(&ask("old", "First question?", 1)).unwrap();
    queue.submit(&ask("new", "Second question?", 2)).unwrap();
    let mut s = inbox(&queue, &[]);
    s.wait_for("› First question?");
    s.send("l");
    s.wait_for("› Second question?");
    s.wait_for("First question?  (later)");
    s.send("d");
    let declined = wait_answer(&queue, "new");
    assert_eq!(declined["details"]["cancelled"], true);
    assert_eq!(declined["details"]["outcome"], "declined");
    assert_eq!(
        declined["content"][0]["text"],
        "User cancelled the ask flow: they declined it in pi-ask inbox."
    );
    // The ask left for later is still listed, and can be opened from the list.
    s.wait_for("1 ask waiting");
    s.wait_for("› First question?  (later)");
    assert_eq!(queue.pending().len(), 1);
    // A new ask comes before it.
    queue.submit(&ask("third", "Third question?", 3)).unwrap();
    s.wait_for("2 asks waiting");
    let screen = s.contents();
    assert!(
        screen.find("Third question?").unwrap() < screen.find("First question?").unwrap(),
        "{screen}"
    );
    s.send(ESC);
    assert_eq!(s.wait_exit(), 0);
    let ids: Vec<String> = queue.pending().into_iter().map(|a| a.id).collect();
    assert_eq!(ids, ["old", "third"], "quitting leaves every ask queued");
    assert!(s.cooked());
}

/// Ctrl+C inside an ask puts it back in the queue (it is not cancelled for the agent), and `@`
/// lists the asker's folder.
#[test]
fn ctrl_c_in_an_ask_puts_it_back_and_at_lists_the_askers_folder() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(project.join("src/deploy_plan.md"), "plan").unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    let mut a = ask("a1", "Where should it deploy?", 1);
    a.cwd = project.to_str().unwrap().into();
    queue.submit(&a).unwrap();
    let mut s = inbox(&queue, &[]);
    open_from_list(&mut s, "1 ask waiting");
    s.send("3"); // Type your own
    s.send("@deploy_pl");
    s.wait_for("src/deploy_plan.md");
    s.send("\u{3}");
    assert_eq!(s.wait_exit(), 0);
    s.wait_for("the ask is back in the queue");
    assert_eq!(queue.pending().len(), 1, "put back, not cancelled");
    assert!(queue.take_result("a1").is_none());
    assert!(s.cooked());
}

/// A termination signal while the list shows: the inbox ends cleanly, the terminal restored,
/// every ask still queued.
#[test]
fn a_signal_while_the_list_shows_leaves_every_ask_queued_and_the_terminal_restored() {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    queue
        .submit(&ask("a1", "Where should it deploy?", 1))
        .unwrap();
    for signal in [libc::SIGTERM, libc::SIGHUP, libc::SIGINT] {
        let mut s = inbox(&queue, &[]);
        s.wait_for("1 ask waiting");
        unsafe { libc::kill(s.pid(), signal) };
        assert_eq!(s.wait_exit(), 0, "signal {signal}");
        assert!(s.cooked(), "signal {signal}");
        assert_eq!(queue.pending().len(), 1, "signal {signal}");
    }
}

/// An ask whose asker has gone (its server died without withdrawing it) is marked in the list.
#[test]
fn an_ask_whose_asker_has_gone_is_marked_in_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    let mut gone = ask("a1", "Where should it deploy?", 1);
    let mut child = std::process::Command::new("true").spawn().unwrap();
    child.wait().unwrap();
    gone.asker = ProcessId {
        pid: child.id(),
        start: Some(1),
        boot: None,
    };
    queue.submit(&gone).unwrap();
    queue.submit(&ask("a2", "Which database?", 2)).unwrap();
    let mut s = inbox(&queue, &[]);
    s.wait_for("its asker has gone");
    let screen = s.contents();
    let marked = screen.find("its asker has gone").unwrap();
    assert!(screen.find("Where should it deploy?").unwrap() < marked);
    assert!(marked < screen.find("Which database?").unwrap(), "{screen}");
    s.send(ESC);
    assert_eq!(s.wait_exit(), 0);
}

#[test]
fn the_inbox_list_filters_its_asks_and_enter_opens_the_match() {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    queue.submit(&ask("db", "Which database?", 1)).unwrap();
    queue
        .submit(&ask("dep", "Where should it deploy?", 2))
        .unwrap();
    queue.submit(&ask("cache", "Which cache?", 3)).unwrap();
    let mut s = inbox(&queue, &["--once"]);
    s.wait_for("pi-ask inbox · 3 asks waiting");
    assert!(s.contents().contains("/ filter"), "{}", s.contents());
    s.send("/");
    s.wait_for("3 of 3");
    s.send("dploy");
    s.wait_for("1 of 3");
    assert!(
        !s.contents().contains("Which database?"),
        "{}",
        s.contents()
    );
    open_from_list(&mut s, "› Where should it deploy?");
    s.send("2");
    s.wait_for("Review");
    s.send(ENTER);
    let result = wait_answer(&queue, "dep");
    assert_eq!(result["details"]["answers"]["env"]["values"][0], "prod");
    assert_eq!(s.wait_exit(), 0);
    assert_eq!(queue.pending().len(), 2, "the others still wait");
}

/// Issue 42: an inbox stopped by Ctrl+Z counted as watching: `inbox --status` said so, and servers
/// neither warned nor notified while their asks went unseen. A stopped inbox is not watching, and
/// the status and `doctor` say it is stopped and how to bring it back.
#[test]
fn a_stopped_inbox_is_not_watching_and_the_status_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    let s = inbox(&queue, &[]);
    s.wait_for("waiting for asks");
    assert_eq!(queue.inboxes_watching().len(), 1);
    let status = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
            .args([
                "inbox",
                "--status",
                "--queue",
                queue.dir().to_str().unwrap(),
            ])
            .env("HOME", dir.path())
            .output()
            .unwrap()
    };
    unsafe { libc::kill(s.pid(), libc::SIGSTOP) };
    let deadline = Instant::now() + Duration::from_secs(5);
    while !queue.inboxes_watching().is_empty() {
        assert!(
            Instant::now() < deadline,
            "a stopped inbox still counts as watching"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = status();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("is stopped"), "{text}");
    unsafe { libc::kill(s.pid(), libc::SIGCONT) };
    let deadline = Instant::now() + Duration::from_secs(5);
    while queue.inboxes_watching().is_empty() {
        assert!(Instant::now() < deadline, "a continued inbox watches again");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(status().status.code(), Some(0));
}

/// Issue 42: an inbox in a background tab or over SSH never told anyone an agent was blocked: the
/// channels fired only when a form opened. An ask arriving at a watching inbox is told once through
/// the configured channels (the bell by default), and the terminal's title says how many wait.
#[test]
fn an_arriving_ask_is_told_once_and_the_title_counts_the_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    let s = inbox(&queue, &[]);
    s.wait_for("waiting for asks");
    let raw_len = || s.raw.lock().unwrap().len();
    let before = raw_len();
    queue
        .submit(&ask("a1", "Where should it deploy?", 1))
        .unwrap();
    s.wait_for("Where should it deploy?");
    queue.submit(&ask("a2", "Which region?", 1)).unwrap();
    s.wait_for("Which region?");
    // Two more looks at the queues: nothing new, so nothing more is told.
    std::thread::sleep(Duration::from_millis(600));
    let raw = s.raw.lock().unwrap()[before..].to_vec();
    let text = String::from_utf8_lossy(&raw);
    let bells = text.matches('\x07').count() - text.matches("\x1b]0;").count();
    assert_eq!(bells, 2, "one bell per arriving ask: {text:?}");
    assert!(
        text.contains("\x1b]0;pi-ask inbox: 1 waiting\x07"),
        "{text:?}"
    );
    assert!(
        text.contains("\x1b]0;pi-ask inbox: 2 waiting\x07"),
        "{text:?}"
    );
}

/// An ask left for later stays so when the inbox is quit and started again (it was listed first
/// again), and its mark goes once the ask is answered.
#[test]
fn asks_left_for_later_stay_so_after_the_inbox_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    let (old, new) = ("00000000000000aa", "00000000000000bb");
    queue.submit(&ask(old, "First question?", 1)).unwrap();
    queue.submit(&ask(new, "Second question?", 2)).unwrap();
    let mut s = inbox(&queue, &[]);
    s.wait_for("› First question?");
    s.send("l");
    s.wait_for("First question?  (later)");
    s.send(ESC);
    assert_eq!(s.wait_exit(), 0);
    assert!(queue.dir().join(format!("{old}.later")).exists());

    let mut s = inbox(&queue, &[]);
    s.wait_for("First question?  (later)");
    let screen = s.contents();
    assert!(
        screen.find("Second question?").unwrap() < screen.find("First question?").unwrap(),
        "{screen}"
    );
    assert!(screen.contains("› Second question?"), "{screen}");
    // Opened and answered, its mark goes with it.
    s.send(DOWN);
    s.send(ENTER);
    s.wait_for("Type your own");
    s.send("1");
    s.wait_for("Review answers");
    s.send("1");
    s.send("1");
    assert_eq!(wait_answer(&queue, old)["details"]["cancelled"], false);
    s.send(ESC);
    assert_eq!(s.wait_exit(), 0);
    assert!(!queue.dir().join(format!("{old}.later")).exists());
}

/// The asker of an open ask dies (its MCP server killed): the form says so at once, not only
/// when it is submitted.
#[test]
fn an_open_ask_whose_asker_dies_says_so_on_the_form_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    let mut asker = std::process::Command::new("sleep")
        .arg("30")
        .spawn()
        .unwrap();
    let mut a = ask("a1", "Where should it deploy?", 1);
    a.asker = ProcessId {
        pid: asker.id(),
        start: None,
        boot: None,
    };
    queue.submit(&a).unwrap();
    let mut s = inbox(&queue, &[]);
    open_from_list(&mut s, "1 ask waiting");
    assert!(!s.contents().contains("has gone"), "{}", s.contents());
    asker.kill().unwrap();
    asker.wait().unwrap();
    s.wait_for("The agent that asked this has gone");
    // Moving around keeps it said.
    s.send("\t");
    s.wait_for("Review answers");
    assert!(s.contents().contains("The agent that asked this has gone"));
    s.send("\u{3}");
    assert_eq!(s.wait_exit(), 0);
}

#[test]
fn an_ask_answered_here_is_not_counted_as_answered_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    queue.submit(&ask("one", "First question?", 1)).unwrap();
    queue.submit(&ask("two", "Second question?", 2)).unwrap();
    let mut s = inbox(&queue, &[]);
    open_from_list(&mut s, "pi-ask inbox · 2 asks waiting");
    s.send("1");
    s.wait_for("Review");
    s.send(ENTER);
    wait_answer(&queue, "one");
    s.wait_for("pi-ask inbox · 1 ask waiting");
    assert!(
        !s.contents().contains("answered elsewhere"),
        "{}",
        s.contents()
    );
    // One taken by another inbox is counted.
    let claim = queue.claim("two").unwrap().unwrap();
    queue.submit(&ask("three", "Third question?", 3)).unwrap();
    s.wait_for("Third question?");
    s.wait_for("1 answered elsewhere or withdrawn");
    queue.release(claim).unwrap();
}
