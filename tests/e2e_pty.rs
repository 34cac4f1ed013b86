//! End to end: the real binary in a pseudo-terminal, keys typed as a person would, the screen read
//! through a terminal emulator (vt100), and the JSON it prints checked.

use std::io::Write;
use std::process::Command;
use std::time::{Duration, Instant};

mod common;

use common::pty::{COLS, ROWS, Session, WAIT};

const DOWN: &str = "\x1b[B";
const ESC: &str = "\x1b";
const ENTER: &str = "\r";

#[test]
fn the_demo_flow_answers_all_three_questions_and_submits() {
    let mut s = Session::start(&["demo"], |_| {});
    s.wait_for("Single-select demo");
    assert!(!s.cooked(), "raw mode while the form is open");
    s.send("1");
    s.wait_for("Multi-select demo");
    s.send("2");
    s.send("3");
    s.wait_for("[x] Best practices");
    s.send(ENTER);
    s.wait_for("Preview demo");
    s.send(DOWN);
    s.wait_for("Appearance");
    s.send("n");
    s.send("why this one?");
    s.send(ENTER);
    s.send(ENTER);
    s.wait_for("Review answers");
    s.send(ENTER);
    let (code, json) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        json["content"][0]["text"],
        "Single: Move fast\nMulti: UX notes, Best practices\nPreview: Spacious\nPreview / Spacious note: why this one?"
    );
    assert_eq!(
        json["details"]["answers"]["layout"]["optionNotes"]["spacious"],
        "why this one?"
    );
    assert!(s.cooked(), "terminal modes restored");
    assert!(
        !s.screen.lock().unwrap().screen().hide_cursor(),
        "cursor shown again"
    );
}

#[test]
fn free_form_answer_question_note_and_elaborate() {
    let mut s = Session::start(&["demo"], |_| {});
    s.wait_for("Single-select demo");
    s.send("N");
    s.send("What is fastest?");
    s.send(ENTER);
    s.wait_for("Note: What is fastest?");
    s.send("4");
    s.send("Something custom");
    s.send(ENTER);
    s.wait_for("Multi-select demo");
    s.send("\x1b[Z"); // shift+tab back to check, then straight to review
    s.send("\x1b[Z");
    s.wait_for("Review answers");
    s.send("2"); // review shortcuts need a double press by default, as in the original
    s.send("2");
    let (code, json) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(json["details"]["mode"], "elaborate");
    assert_eq!(
        json["content"][0]["text"],
        "User asked to elaborate on question \"Single-select demo: pick exactly one primary goal.\" after current answer \"Something custom\" with note \"What is fastest?\""
    );
}

#[test]
fn a_resized_terminal_is_redrawn_at_the_new_size() {
    let mut s = Session::start(&["demo", "--fullscreen"], |_| {});
    s.wait_for("Single-select demo");
    // Growing the terminal: a 120-column rule can only come from a redraw at the new size.
    s.resize(30, 120);
    s.wait_for(&"─".repeat(120));
    s.send(DOWN);
    s.wait_for("❯ 2. Higher quality");
    s.send("\x03");
    s.send("\x03");
    let (code, _) = s.finish();
    assert_eq!(code, 1);
}

#[test]
fn dirty_dismiss_needs_a_second_escape() {
    let mut s = Session::start(&["demo"], |_| {});
    s.wait_for("Single-select demo");
    s.send(" ");
    s.send(ESC);
    s.wait_for("Unsaved ask answers or drafts");
    s.send(ESC);
    let (code, json) = s.finish();
    assert_eq!(code, 1);
    assert_eq!(json["details"]["cancelled"], true);
    assert_eq!(json["content"][0]["text"], "User cancelled the ask flow");
}

#[test]
fn the_settings_modal_toggles_a_behaviour_and_updates_the_file() {
    let mut s = Session::start(&["demo"], |_| {});
    s.wait_for("Single-select demo");
    s.send("?");
    s.wait_for("Live settings");
    s.send(DOWN);
    s.send(" ");
    s.send(ESC);
    s.send(" ");
    s.send(ESC);
    let (code, json) = s.finish();
    assert_eq!(
        code, 1,
        "confirm-dismiss was turned off, so one Esc discards"
    );
    assert_eq!(json["details"]["cancelled"], true);
    let path = s.dir.path().join(".pi/agent/extensions/pi-ask.toml");
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains("confirmDismissWhenDirty = false"), "{text}");
    assert!(
        text.contains("# Ask for a second cancel/dismiss"),
        "comments kept: {text}"
    );
}

#[test]
fn a_custom_keymap_from_a_config_file_is_used() {
    let mut s = Session::start(&["demo", "--config", "keys.toml"], |dir| {
        std::fs::write(
            dir.join("keys.toml"),
            "schemaVersion = 5\n[keymaps.main]\nnextOption = [\"j\"]\nconfirm = [\"l\"]\n",
        )
        .unwrap();
    });
    s.wait_for("L confirm");
    s.send("j");
    s.send("l");
    s.wait_for("Multi-select demo");
    s.send("\x03"); // ctrl+c
    s.wait_for("Unsaved ask answers");
    s.send("\x03");
    let (_, json) = s.finish();
    assert_eq!(
        json["details"]["answers"]["goal"]["values"],
        serde_json::json!(["quality"])
    );
}

#[test]
fn a_process_killed_mid_flow_restores_the_terminal() {
    let mut s = Session::start(&["demo", "--fullscreen"], |_| {});
    s.wait_for("Single-select demo");
    assert!(s.screen.lock().unwrap().screen().alternate_screen());
    let pid = s.child.process_id().unwrap() as i32;
    unsafe { libc::kill(pid, libc::SIGTERM) };
    let (code, json) = s.finish();
    assert_eq!(code, 1);
    assert_eq!(json["details"]["cancelled"], true);
    let screen = s.screen.lock().unwrap();
    assert!(
        !screen.screen().alternate_screen(),
        "left the alternate screen"
    );
    assert!(!screen.screen().hide_cursor(), "cursor visible");
    drop(screen);
    assert!(s.cooked(), "raw mode off");
}

#[test]
fn stdout_carries_only_the_json_while_the_form_draws_on_the_terminal() {
    let mut s = Session::start(&["ask", "payload.json"], |dir| {
        std::fs::write(dir.join("payload.json"), r#"{"questions":[{"id":"go","prompt":"Ship it?","options":[{"value":"yes"},{"value":"no"}]}]}"#).unwrap();
    });
    s.wait_for("Ship it?");
    s.send("1");
    s.wait_for("Review answers");
    s.send("1");
    s.send("1");
    let (code, json) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        json["details"]["answers"]["go"]["labels"],
        serde_json::json!(["Yes"])
    );
    assert!(
        !s.contents().contains("Ship it?"),
        "the inline form is cleared away"
    );
}

#[test]
fn an_at_reference_is_suggested_accepted_and_printed() {
    let tree = format!("{}/fixtures/tree", env!("CARGO_MANIFEST_DIR"));
    let mut s = Session::start(&["ask", "--cwd", &tree, "payload.json"], |dir| {
        std::fs::write(dir.join("payload.json"), r#"{"questions":[{"id":"file","prompt":"Which file?","options":[{"value":"none","label":"None"}]}]}"#).unwrap();
    });
    s.wait_for("Which file?");
    s.send("2");
    s.send("@src/ma");
    s.wait_for("main.rs");
    s.send(ENTER); // accept the suggestion
    s.wait_for("@src/main.rs");
    s.send(ENTER); // submit the answer
    s.wait_for("Review answers");
    s.send("1");
    s.send("1");
    let (code, json) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        json["details"]["answers"]["file"]["customText"], "@src/main.rs",
        "saved answers are trimmed"
    );
}

#[test]
fn closing_the_terminal_mid_flow_ends_the_process_with_a_cancelled_result() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty fills two descriptors; no name/termios/winsize requested.
    assert_eq!(
        unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        },
        0
    );
    // Neither end may leak into the child: only its own duplicates of the slave.
    unsafe {
        libc::fcntl(master, libc::F_SETFD, libc::FD_CLOEXEC);
        libc::fcntl(slave, libc::F_SETFD, libc::FD_CLOEXEC);
    }
    let ws = libc::winsize {
        ws_row: ROWS,
        ws_col: COLS,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    unsafe { libc::ioctl(master, libc::TIOCSWINSZ, &ws) };
    let out = dir.path().join("out.json");
    let stdio = || {
        use std::os::fd::FromRawFd;
        // SAFETY: a fresh duplicate of the open slave descriptor, owned by the Stdio.
        unsafe { std::process::Stdio::from_raw_fd(libc::dup(slave)) }
    };
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pi-ask"));
    cmd.arg("demo")
        .env("HOME", dir.path())
        .env("TERM", "xterm-256color");
    cmd.stdin(stdio())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(dir.path().join("err.txt")).unwrap());
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            libc::setsid();
            libc::ioctl(0, libc::TIOCSCTTY, 0);
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    unsafe { libc::close(slave) };
    // Wait for the first frame, then close the terminal.
    let mut seen = Vec::new();
    let start = Instant::now();
    while !String::from_utf8_lossy(&seen).contains("Single-select") && start.elapsed() < WAIT {
        let mut buf = [0u8; 4096];
        let n = unsafe { libc::read(master, buf.as_mut_ptr().cast(), buf.len()) };
        if n > 0 {
            seen.extend_from_slice(&buf[..n as usize]);
        }
    }
    unsafe { libc::close(master) };
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "still running after the terminal closed"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let stderr = std::fs::read_to_string(dir.path().join("err.txt")).unwrap();
    assert_eq!(status.code(), Some(1), "{stderr}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(json["details"]["cancelled"], true);
}

#[test]
fn ask_with_a_terminal_on_stdin_and_no_payload_says_how_to_pass_one() {
    let mut s = Session::start(&["ask"], |_| {});
    s.wait_for("no payload: pipe one in");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = s.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < WAIT,
            "ask kept waiting:\n{}",
            s.contents()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.exit_code(), 2);
}

#[test]
fn a_form_shrunk_to_five_rows_mid_flow_and_grown_back_keeps_its_answers() {
    let mut s = Session::start(&["demo"], |_| {});
    s.wait_for("Single-select demo");
    s.send("2"); // Higher quality, on to the multi question
    s.wait_for("Multi-select demo");
    for (rows, cols) in [(5u16, 80u16), (ROWS, COLS)] {
        s.resize(rows, cols);
        s.wait_for("❯ 1. [ ] Returned JSON shape");
    }
    s.send(" "); // toggle the first output
    s.send("\t");
    s.send("\t"); // past the preview question to the review
    s.wait_for("Review answers");
    s.send("1");
    s.send("1");
    let (code, json) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        json["details"]["answers"]["goal"]["values"],
        serde_json::json!(["quality"])
    );
    assert_eq!(
        json["details"]["answers"]["outputs"]["values"],
        serde_json::json!(["json"])
    );
}

#[test]
fn the_inline_form_starts_on_the_cursor_row_and_is_tight_to_its_content() {
    let mut s = Session::start(&["demo"], |_| {});
    s.wait_for("Single-select demo");
    // The whole first frame (it may arrive in several reads on a busy machine).
    s.wait_for("Esc dismiss");
    let screen = s.contents();
    let lines: Vec<&str> = screen.lines().collect();
    assert!(
        lines[0].starts_with("────"),
        "starts at the top row:\n{screen}"
    );
    let footer = lines
        .iter()
        .position(|l| l.contains("Esc dismiss"))
        .unwrap();
    assert!(
        !lines[footer - 2].trim().is_empty(),
        "no blank rows above the footer's gap:\n{screen}"
    );
    s.send("\x03");
    let (code, _) = s.finish();
    assert_eq!(code, 1);
}

/// Byte sequences a terminal sends, decoded by the real runtime (crossterm, through `pi-ask keys`)
/// and by the harness's decoder: both must agree.
#[test]
fn the_harness_decodes_terminal_bytes_exactly_as_the_runtime_does() {
    let table: &[&[u8]] = &[
        b"a",
        b"Z",
        b"?",
        b"1",
        b" ",
        b"\r",
        b"\n",
        b"\t",
        b"\x7f",
        b"\x08",
        b"\x01",
        b"\x15",
        b"\x17",
        b"\x0b",
        b"\x00",
        b"\x1c",
        b"\x1f",
        b"\x1b[A",
        b"\x1b[B",
        b"\x1b[C",
        b"\x1b[D",
        b"\x1b[H",
        b"\x1b[F",
        b"\x1bOA",
        b"\x1bOH",
        b"\x1b[1;5C",
        b"\x1b[1;2B",
        b"\x1b[Z",
        b"\x1b[3~",
        b"\x1b[5~",
        b"\x1b[6~",
        b"\x1b[2~",
        b"\x1b[15~",
        b"\x1bb",
        b"\x1bB",
        b"\x1b\x7f",
        b"\x1b\r",
        b"\x1b\x1b",
        b"\x1b[200~pasted\ntext\x1b[201~",
        "é".as_bytes(),
        "日".as_bytes(),
        b"\x1b[97;5u",
        b"\x1b[13;2u",
        b"\x1b[27u",
    ];
    let mut s = Session::start(&["keys"], |_| {});
    std::thread::sleep(Duration::from_millis(300));
    for bytes in table {
        let mut w = s.writer.lock().unwrap();
        w.write_all(bytes).unwrap();
        w.flush().unwrap();
        drop(w);
        std::thread::sleep(Duration::from_millis(40));
    }
    s.send("\x1b[24~"); // F12 ends `pi-ask keys`
    let start = Instant::now();
    while s.child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < WAIT, "pi-ask keys did not end");
        std::thread::sleep(Duration::from_millis(20));
    }
    let printed = std::fs::read_to_string(&s.out).unwrap();
    let runtime: Vec<&str> = printed.lines().collect();
    let harness: Vec<String> = table
        .iter()
        .flat_map(|b| pi_ask::tui::bytes::decode(b))
        .map(|e| format!("{e:?}"))
        .collect();
    for (i, (r, h)) in runtime.iter().zip(&harness).enumerate() {
        assert_eq!(r, h, "sequence {i}: {:?}", table.get(i));
    }
    assert_eq!(runtime.len(), harness.len(), "{runtime:#?}\n{harness:#?}");
}

#[test]
fn the_inline_form_grows_and_shrinks_with_its_tab_and_leaves_no_lines_behind() {
    let mut s = Session::start(&["demo"], |_| {});
    s.wait_for("Single-select demo");
    let rule = "─".repeat(COLS as usize);
    let bottom_rule = |screen: &str| {
        screen
            .lines()
            .collect::<Vec<_>>()
            .iter()
            .rposition(|l| **l == rule)
            .unwrap()
    };
    let short = bottom_rule(&s.contents());
    s.send("\t");
    s.send("\t"); // the preview question is taller
    s.wait_for("Preview demo");
    let tall = bottom_rule(&s.contents());
    assert!(tall > short, "the area grew: {short} -> {tall}");
    s.send("\x1b[Z");
    s.send("\x1b[Z"); // back to the first question
    s.wait_for("Single-select demo");
    let screen = s.contents();
    assert_eq!(
        bottom_rule(&screen),
        short,
        "the area shrank back:\n{screen}"
    );
    let below: Vec<&str> = screen
        .lines()
        .skip(short + 1)
        .filter(|l| !l.trim().is_empty())
        .collect();
    assert!(below.is_empty(), "rows given back are cleared: {below:?}");
    s.send("\x03");
    let (code, _) = s.finish();
    assert_eq!(code, 1);
}

/// The SGR parameter lists the program wrote (`\x1b[…m`).
fn sgr_codes(raw: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(raw);
    let mut codes = Vec::new();
    let mut rest = text.as_ref();
    while let Some(at) = rest.find("\x1b[") {
        rest = &rest[at + 2..];
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == ';' || c == ':'))
            .unwrap_or(rest.len());
        if rest[end..].starts_with('m') {
            codes.push(rest[..end].to_owned());
        }
        rest = &rest[end..];
    }
    codes
}

/// Whether an SGR parameter list sets or resets a colour (30–49, 90–107).
fn sets_a_colour(code: &str) -> bool {
    code.split([';', ':'])
        .filter_map(|p| p.parse::<u16>().ok())
        .any(|p| (30..=49).contains(&p) || (90..=107).contains(&p))
}

#[test]
fn no_color_draws_without_a_single_colour_escape_and_keeps_cursor_and_focus_visible() {
    let mut s = Session::start_with_env(
        &["demo"],
        &[("NO_COLOR", "1"), ("COLORTERM", "truecolor")],
        |_| {},
    );
    s.wait_for("❯ 1. Move fast");
    // Through the settings modal and back, then down a row, as a person would.
    s.send("?");
    s.wait_for("no colour");
    s.send(ESC);
    s.send(DOWN);
    s.wait_for("❯ 2. Higher quality");
    {
        let parser = s.screen.lock().unwrap();
        let screen = parser.screen();
        let contents = screen.contents();
        let (row, line) = contents
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains("❯ 2. Higher quality"))
            .unwrap();
        let col = line.find('❯').unwrap() as u16;
        let cursor = screen.cell(row as u16, col).unwrap();
        assert!(cursor.bold(), "the cursor row is bold:\n{contents}");
        let (tab_row, tab_line) = contents
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains("Single") && l.contains("Review"))
            .unwrap();
        let tab_col = tab_line[..tab_line.find("Single").unwrap()].chars().count() as u16;
        assert!(
            screen.cell(tab_row as u16, tab_col).unwrap().inverse(),
            "the active tab is in reverse video:\n{contents}"
        );
    }
    let codes = sgr_codes(&s.raw.lock().unwrap());
    assert!(codes.len() > 5, "modifiers were drawn: {codes:?}");
    let coloured: Vec<&String> = codes.iter().filter(|c| sets_a_colour(c)).collect();
    assert!(
        coloured.is_empty(),
        "colour escapes under NO_COLOR: {coloured:?}"
    );
    s.send(ESC);
    s.send(ESC);
    let (code, json) = s.finish();
    assert_eq!(code, 1);
    assert_eq!(json["details"]["cancelled"], true);
}

#[test]
fn the_demo_in_the_light_theme_draws_pis_light_values_in_24_bit_colour() {
    let mut s = Session::start_with_env(
        &["demo", "--theme", "light"],
        &[("COLORTERM", "truecolor"), ("COLORFGBG", "15;0")],
        |_| {},
    );
    s.wait_for("❯ 1. Move fast");
    let codes = sgr_codes(&s.raw.lock().unwrap());
    // accent #5a8080 and selectedBg #d0d0e0 of pi's light theme; no dark-theme accent.
    assert!(
        codes.iter().any(|c| c.contains("38;2;90;128;128")),
        "{codes:?}"
    );
    assert!(
        codes.iter().any(|c| c.contains("48;2;208;208;224")),
        "{codes:?}"
    );
    assert!(
        !codes.iter().any(|c| c.contains("38;2;138;190;183")),
        "{codes:?}"
    );
    s.send("?");
    s.wait_for("light (--theme) · 24-bit colour");
    s.send(ESC);
    s.send(ESC);
    let (code, _) = s.finish();
    assert_eq!(code, 1);
}

#[test]
fn without_colorterm_the_theme_is_drawn_from_the_256_colour_palette() {
    let mut s = Session::start_with_env(&["demo"], &[], |_| {});
    s.wait_for("❯ 1. Move fast");
    let codes = sgr_codes(&s.raw.lock().unwrap());
    assert!(codes.iter().any(|c| c.contains("38;5;109")), "{codes:?}");
    assert!(!codes.iter().any(|c| c.contains("38;2;")), "{codes:?}");
    s.send(ESC);
    let (code, _) = s.finish();
    assert_eq!(code, 1);
}

#[test]
fn a_bad_pi_ask_theme_is_named_on_screen_and_the_form_still_opens() {
    let mut s = Session::start_with_env(&["demo"], &[("PI_ASK_THEME", "sepia")], |_| {});
    s.wait_for("PI_ASK_THEME=\"sepia\" is not auto, dark or light; ignored.");
    s.wait_for("❯ 1. Move fast");
    s.send(ESC);
    let (code, json) = s.finish();
    assert_eq!(code, 1);
    assert_eq!(json["details"]["cancelled"], true);
}

#[test]
fn a_key_bound_to_nothing_writes_nothing_to_the_terminal() {
    let mut s = Session::start(&["demo"], |_| {});
    s.wait_for("Esc dismiss");
    std::thread::sleep(Duration::from_millis(300));
    let before = s.raw.lock().unwrap().len();
    // `z` and F9 mean nothing on a question tab.
    s.send("z");
    s.send("\x1b[20~");
    std::thread::sleep(Duration::from_secs(1));
    let after = s.raw.lock().unwrap().len();
    assert_eq!(
        after - before,
        0,
        "bytes written for keys that mean nothing"
    );
    s.send("\x1b[B");
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        s.raw.lock().unwrap().len() > after,
        "a key that means something is drawn"
    );
    s.send("\x03");
    s.send("\x03");
    assert_eq!(s.finish().0, 1);
}

#[test]
fn an_idle_form_writes_nothing_to_the_terminal() {
    let mut s = Session::start(&["demo"], |_| {});
    s.wait_for("Esc dismiss");
    std::thread::sleep(Duration::from_millis(500));
    let before = s.raw.lock().unwrap().len();
    std::thread::sleep(Duration::from_secs(5));
    let after = s.raw.lock().unwrap().len();
    assert_eq!(after - before, 0, "bytes written in 5 idle seconds");
    s.send("\x03");
    assert_eq!(s.finish().0, 1);
}

/// The writes pi-ask made to the terminal so far (standard output and error left out), from an
/// `strace -e trace=write` log.
fn terminal_writes(trace: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(trace)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains("write(") && !l.contains("write(1,") && !l.contains("write(2,"))
        .map(str::to_owned)
        .collect()
}

/// A frame reaches the terminal in one or two writes (the frame with the synchronized-update
/// begin marker, then the end marker), not one per escape fragment (about 640 for the first frame
/// before the writer was buffered). Counted with strace, which `.ci/run` installs.
#[test]
fn a_frame_goes_out_in_one_or_two_writes() {
    let traced = std::process::Command::new("strace")
        .args(["-f", "-o", "/dev/null", "true"])
        .output();
    if !traced.is_ok_and(|o| o.status.success()) {
        common::not_run("strace is not installed or cannot trace here");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace");
    let wrapper = format!("strace -f -e trace=write -o '{}'", trace.display());
    let mut s = Session::start_wrapped(&wrapper, &["demo"], &[], |_| {});
    s.wait_for("Single-select demo");
    // The opening ends with the bell (the form's one notification, after the first frame): waited
    // for, so that a slow machine's late bell is not counted as a key's write.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !terminal_writes(&trace)
        .iter()
        .any(|w| w.contains(r#""\7""#))
    {
        assert!(
            std::time::Instant::now() < deadline,
            "no bell after the first frame"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let opening = terminal_writes(&trace).len();
    // Taking the terminal (modes, the cursor query), the first frame and its end marker, the bell.
    assert!(
        opening <= 6,
        "{opening} writes to open:\n{}",
        terminal_writes(&trace).join("\n")
    );
    for (key, shown) in [("\x1b[B", "❯ 2."), ("\x1b[B", "❯ 3."), ("\x1b[A", "❯ 2.")] {
        let before = terminal_writes(&trace).len();
        s.send(key);
        s.wait_for(shown);
        std::thread::sleep(Duration::from_millis(100));
        let writes = terminal_writes(&trace);
        assert!(
            writes.len() - before <= 2,
            "a key's frame took {} writes:\n{}",
            writes.len() - before,
            writes[before..].join("\n")
        );
    }
    s.send("\x1b");
    s.send("\x1b");
    s.wait_exit();
}

/// The first frame waits for no disk sync: on a first run the commented default config is
/// created and the history records the opening, each synced, but both after the frame is on the
/// screen. Traced with strace, which `.ci/run` installs.
#[test]
fn the_first_frame_waits_for_no_disk_sync() {
    let traced = std::process::Command::new("strace")
        .args(["-f", "-o", "/dev/null", "true"])
        .output();
    if !traced.is_ok_and(|o| o.status.success()) {
        common::not_run("strace is not installed or cannot trace here");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace");
    let wrapper = format!(
        "strace -f -e trace=write,fsync,fdatasync -o '{}'",
        trace.display()
    );
    let mut s = Session::start_wrapped(&wrapper, &["demo"], &[], |_| {});
    s.wait_for("Single-select demo");
    let config = s.dir.path().join(".pi/agent/extensions/pi-ask.toml");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !config.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(config.exists(), "the default config is still created");
    std::thread::sleep(Duration::from_millis(200));
    let lines: Vec<String> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let frame_end = lines
        .iter()
        .position(|l| l.contains("write(") && l.contains("\\33[?2026l"))
        .expect("the first frame's end marker was written");
    let first_sync = lines
        .iter()
        .position(|l| l.contains("fsync(") || l.contains("fdatasync("))
        .expect("the config file is synced");
    assert!(
        first_sync > frame_end,
        "a sync before the first frame:\n{}",
        lines[..=frame_end.max(first_sync)].join("\n")
    );
    s.send("\x1b");
    s.send("\x1b");
    s.wait_exit();
}

#[test]
fn filtering_a_thousand_options_picks_the_match_by_its_original_position() {
    let options: Vec<serde_json::Value> = (1..=1000)
        .map(|i| {
            let label = if i == 737 {
                "Wombat crossing".to_owned()
            } else {
                format!("Option {i}")
            };
            serde_json::json!({"value": format!("o{i}"), "label": label})
        })
        .collect();
    let payload = serde_json::json!({"questions": [{"id": "pick", "prompt": "Which one?", "options": options}]});
    let mut s = Session::start(&["ask", "payload.json"], |dir| {
        std::fs::write(dir.join("payload.json"), payload.to_string()).unwrap();
    });
    s.wait_for("/ filter");
    s.send("/");
    s.wait_for("1000 of 1000");
    s.send("wmb");
    s.wait_for("1 of 1000");
    assert!(
        s.contents().contains("❯ 1. Wombat crossing"),
        "{}",
        s.contents()
    );
    s.send(ESC);
    s.wait_for("↑ ");
    assert!(
        s.contents().contains("❯ 737. Wombat crossing"),
        "{}",
        s.contents()
    );
    s.send("/");
    s.send("wmb");
    s.wait_for("1 of 1000");
    s.send(ENTER);
    s.wait_for("Review answers");
    s.send(ENTER);
    let (code, json) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        json["details"]["answers"]["pick"]["indices"],
        serde_json::json!([737])
    );
    assert_eq!(
        json["details"]["answers"]["pick"]["values"],
        serde_json::json!(["o737"])
    );
}

/// Issue 39: Ctrl+G in an editor gives the terminal to the person's editor (`$VISUAL`) on the
/// editor's text, takes it back when it ends, and the saved text is the answer.
#[test]
fn ctrl_g_edits_the_answer_in_the_persons_editor_and_the_form_comes_back() {
    let dir = tempfile::tempdir().unwrap();
    let editor = common::appending_editor(dir.path()).display().to_string();
    let mut s = Session::start_with_env(&["demo"], &[("VISUAL", editor.as_str())], |_| {});
    s.wait_for("❯ 1. Move fast");
    s.send("4");
    s.send("typed");
    s.wait_for("typed");
    s.send("\x07");
    s.wait_for("typed and more from the editor");
    s.send("\r");
    s.wait_for("Multi-select demo");
    s.send("\x03");
    s.send("\x03");
    let (_, json) = s.finish();
    assert_eq!(
        json["details"]["answers"]["goal"]["customText"], "typed and more from the editor",
        "{json}"
    );
}

/// Bytes of a storm: invalid UTF-8 (lone continuation bytes, cut sequences, overlongs), stray
/// escapes and cut CSI sequences, printable text; from a fixed seed, so a failure replays.
fn byte_storm(seed: u64, len: usize, with_escapes: bool) -> Vec<u8> {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as u32
    };
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        match next() % 8 {
            0 => out.push(0x80 + (next() % 0x40) as u8),
            1 => out.extend_from_slice(&[0xe2, 0x82]),
            2 => out.extend_from_slice(&[0xc0, 0xaf, 0xf8, 0xff]),
            3 if with_escapes => out.extend_from_slice(b"\x1b["),
            4 if with_escapes => out.extend_from_slice(b"\x1b[9"),
            5 if with_escapes => out.extend_from_slice(b"\x1bO"),
            _ => out.push(b' ' + (next() % 94) as u8),
        }
    }
    out
}

/// A storm of invalid UTF-8 and stray escape bytes typed into the filter of a 100,000-option
/// form and into a note editor: each byte sequence is a key or ignored, the form keeps drawing,
/// and it ends with valid JSON.
#[test]
fn a_storm_of_invalid_bytes_in_the_filter_and_a_note_of_a_huge_form_ends_in_valid_json() {
    let options: Vec<serde_json::Value> = (0..100_000)
        .map(|i| serde_json::json!({"value": format!("v{i}"), "label": format!("Option {i}")}))
        .collect();
    let payload = serde_json::json!({"questions": [
        {"id": "many", "prompt": "Which one?", "options": options},
        {"id": "why", "type": "multi", "prompt": "Why?", "options": [{"value": "a"}, {"value": "b"}]}]});
    let mut s = Session::start(&["ask", "payload.json"], |dir| {
        std::fs::write(dir.join("payload.json"), payload.to_string()).unwrap();
    });
    s.wait_for("Which one?");
    s.send("/");
    for round in 0..4 {
        s.write_raw(&byte_storm(round, 1_000, false));
    }
    s.send("\x1b");
    s.send("n");
    for round in 0..4 {
        s.write_raw(&byte_storm(100 + round, 1_000, true));
    }
    // Whatever the storm did (it may have moved on, or ended the form), the form still
    // answers: Ctrl+C ends it at once, cancelled.
    if s.child.try_wait().unwrap().is_none() {
        s.write_raw(b"\x03");
    }
    // A debug build works through the storm slowly (each key is a frame's measure); the
    // release build's speed is benches/filter.rs's.
    let deadline = Instant::now() + Duration::from_secs(90);
    while s.child.try_wait().unwrap().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let (code, json) = s.finish();
    assert!(code == 0 || code == 1, "exit code {code}");
    assert!(json["details"]["cancelled"].is_boolean(), "{json}");
}
