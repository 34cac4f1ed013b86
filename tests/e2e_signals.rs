//! Signals in every state of a form, in a pty: the terminal comes back (cooked mode, cursor shown,
//! bracketed paste off, Kitty flags popped, no form lines left), the answers so far come out as
//! a cancelled result, and SIGTSTP suspends to the shell and redraws on SIGCONT.

mod common;

use std::time::{Duration, Instant};

use common::pty::Session;

const DOWN: &str = "\x1b[B";

/// Ways to reach a state of the demo form, with something answered on the way.
fn reach(s: &mut Session, state: &str) {
    s.wait_for("Single-select demo");
    s.send("2"); // "Higher quality" on the first question, then the multi question shows
    s.wait_for("Multi-select demo");
    match state {
        "question" => {}
        "editor" => {
            s.send("\x1b[F"); // end: the last row, "Type your own", opens its editor
            s.send("half-typed");
            s.wait_for("half-typed");
        }
        "popup" => {
            s.send("\x1b[F");
            s.send("see @");
            s.wait_for("out.json");
        }
        "settings" => {
            s.send("?");
            s.wait_for("Auto-submit");
        }
        "hidden" => {
            s.send("\x1d"); // Ctrl+]: the form hidden to one line
            s.wait_for("(hidden)");
        }
        "review" => {
            s.send("\t");
            s.send("\t");
            s.wait_for("Review answers");
        }
        "double-press" => {
            s.send("\t");
            s.send("\t");
            s.wait_for("Review answers");
            s.send("1");
            s.wait_for("again");
        }
        other => panic!("no state {other}"),
    }
}

fn check_restored(s: &mut Session, what: &str) {
    let (code, json) = s.finish();
    assert_eq!(code, 1, "{what}: cancelled");
    assert_eq!(json["details"]["cancelled"], true, "{what}");
    // A signal is not the person's cancel: the text names it (every caller's `what` starts with
    // the signal, or is a suspend ended by SIGTERM).
    let signal = what.split(' ').next().filter(|w| w.starts_with("SIG"));
    let text = json["content"][0]["text"].as_str().unwrap_or_default();
    assert!(
        text.starts_with(&format!(
            "The ask was interrupted before the user answered ({}); nothing was chosen.",
            signal.unwrap_or("SIGTERM")
        )),
        "{what}: {text}"
    );
    assert_eq!(
        json["details"]["answers"]["goal"]["values"][0], "quality",
        "{what}: the answer given before the signal is in the result"
    );
    assert!(s.cooked(), "{what}: cooked mode");
    // The process has exited, but the pty reader may still be feeding its last bytes to the
    // emulator: the screen is looked at until they are in (or 5 s pass).
    let start = Instant::now();
    let contents = loop {
        let (contents, hidden) = {
            let parser = s.screen.lock().unwrap();
            (parser.screen().contents(), parser.screen().hide_cursor())
        };
        let restored = !contents.contains("Multi-select demo") && !hidden;
        if restored || start.elapsed() > Duration::from_secs(5) {
            break contents;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        !contents.contains("Multi-select demo"),
        "{what}: no form lines left:\n{contents}"
    );
    assert!(
        !s.screen.lock().unwrap().screen().hide_cursor(),
        "{what}: cursor shown"
    );
    let raw = s.raw.lock().unwrap().clone();
    let tail = String::from_utf8_lossy(&raw[raw.len().saturating_sub(400)..]).into_owned();
    assert!(tail.contains("\x1b[?2004l"), "{what}: bracketed paste off");
    assert!(tail.contains("\x1b[<1u"), "{what}: Kitty flags popped");
}

#[test]
fn every_termination_signal_in_every_state_restores_the_terminal_and_keeps_the_answers() {
    let signals = [
        ("SIGINT", libc::SIGINT),
        ("SIGTERM", libc::SIGTERM),
        ("SIGHUP", libc::SIGHUP),
        ("SIGQUIT", libc::SIGQUIT),
    ];
    for state in [
        "question",
        "editor",
        "popup",
        "settings",
        "hidden",
        "review",
        "double-press",
    ] {
        for (name, signal) in signals {
            let mut s = Session::start(&["demo"], |_| {});
            reach(&mut s, state);
            unsafe { libc::kill(s.pid(), signal) };
            check_restored(&mut s, &format!("{name} in {state}"));
        }
    }
}

fn process_state(pid: i32) -> char {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    stat.rsplit(')')
        .next()
        .and_then(|r| r.trim().chars().next())
        .unwrap_or('?')
}

fn wait_until(what: &str, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(start.elapsed() < Duration::from_secs(10), "{what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn sigtstp_gives_the_terminal_back_and_sigcont_redraws_the_form_with_its_answers() {
    for state in ["question", "editor", "settings", "hidden"] {
        let mut s = Session::start(&["demo"], |_| {});
        reach(&mut s, state);
        let pid = s.pid();
        unsafe { libc::kill(pid, libc::SIGTSTP) };
        wait_until("stopped", || process_state(pid) == 'T');
        assert!(
            s.cooked(),
            "{state}: the shell gets a cooked terminal while stopped"
        );
        s.screen.lock().unwrap().process(b"\x1b[2J\x1b[H$ "); // the shell draws its prompt
        unsafe { libc::kill(pid, libc::SIGCONT) };
        s.wait_for(match state {
            "settings" => "Auto-submit",
            "hidden" => "(hidden)",
            _ => "Multi-select demo",
        });
        assert!(!s.cooked(), "{state}: raw again");
        if state == "settings" {
            s.send("\x1b"); // close the settings
        }
        if state == "hidden" {
            s.send("\x1d"); // show the form again
            s.wait_for("Multi-select demo");
        }
        if state == "editor" {
            s.wait_for("half-typed");
            s.send("\r");
        }
        s.send("\x1b[Z"); // back to the first question: its answer survived
        s.wait_for("Single-select demo");
        unsafe { libc::kill(pid, libc::SIGTERM) };
        check_restored(&mut s, &format!("after a suspend in {state}"));
    }
}

#[test]
fn a_storm_of_100_resizes_in_a_second_leaves_a_working_form() {
    let mut s = Session::start(&["demo"], |_| {});
    s.wait_for("Single-select demo");
    let start = Instant::now();
    for i in 0..100u16 {
        let (rows, cols) = if i % 2 == 0 {
            (12 + i % 20, 40 + i)
        } else {
            (30, 100)
        };
        s.resize(rows, cols);
        std::thread::sleep(Duration::from_millis(8));
    }
    assert!(start.elapsed() < Duration::from_secs(3));
    s.resize(30, 100);
    s.wait_for("Single-select demo");
    s.send("1");
    s.wait_for("Multi-select demo");
    s.send("1");
    s.send("\r");
    s.wait_for("Preview demo");
    s.send("1");
    s.wait_for("Review answers");
    s.send("\r");
    let (code, json) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(json["details"]["answers"]["goal"]["values"][0], "fast");
}

#[test]
fn stdin_at_end_of_file_does_not_end_a_form_that_reads_the_terminal() {
    let mut s = Session::start_with_env(&["ask", "p.json"], &[], |dir| {
        std::fs::write(
                dir.join("p.json"),
                r#"{"questions":[{"id":"q","prompt":"Still here?","options":[{"value":"y","label":"Yes"}]}]}"#,
            )
            .unwrap()
    });
    s.wait_for("Still here?");
    s.send(DOWN);
    s.send("\x1b[A");
    s.send("1");
    s.wait_for("Review");
    s.send("\r");
    assert_eq!(s.finish().0, 0);
}

#[test]
fn a_signal_during_a_save_leaves_the_old_file_or_the_new_one_and_the_answers() {
    // A config padded to 20 MB makes a save take long enough to signal in the middle of one.
    let padding = format!("# {}\n", "p".repeat(20 << 20));
    let mut s = Session::start(&["demo"], |home| {
        let dir = home.join(".pi/agent/extensions");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("pi-ask.toml"),
            format!("schemaVersion = 5\n{padding}[behaviour]\nconfirmDismissWhenDirty = true\n"),
        )
        .unwrap();
    });
    reach(&mut s, "settings");
    s.send(DOWN);
    // Toggle, and signal while the save runs.
    {
        let mut w = s.writer.lock().unwrap();
        std::io::Write::write_all(&mut *w, b" ").unwrap();
        std::io::Write::flush(&mut *w).unwrap();
    }
    std::thread::sleep(Duration::from_millis(15));
    unsafe { libc::kill(s.pid(), libc::SIGTERM) };
    check_restored(&mut s, "SIGTERM during a save");
    let dir = s.dir.path().join(".pi/agent/extensions");
    let text = std::fs::read_to_string(dir.join("pi-ask.toml")).unwrap();
    assert!(
        text.starts_with("schemaVersion = 5\n# ppp"),
        "the file is whole"
    );
    assert!(
        text.ends_with("confirmDismissWhenDirty = true\n")
            || text.ends_with("confirmDismissWhenDirty = false\n"),
        "the old value or the new one: {}",
        &text[text.len() - 60..]
    );
    let temp: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(temp.is_empty(), "no temp file left");
}
