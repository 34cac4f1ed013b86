//! The second hostile trial's attacks (issue 43), each as a test that failed before its fix:
//! special and oversized files, locks others can hold, paths others can swap, a config others
//! can write, a full disk while answering, and a run as root with the user's HOME
//! (docs/reliability.md, "The security model").

mod common;

use pi_ask::stores::queue::AskQueue;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `pi-ask args` with HOME at `home` and `env`, failing the test when it has not ended
/// within ten seconds (a hang is what several attacks caused).
fn run_bounded(home: &Path, args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut command = pi_ask_in(home, args);
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("pi-ask {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// `pi-ask args` with HOME at `home` and none of pi-ask's variables from the test's own
/// environment.
fn pi_ask_in(home: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pi-ask"));
    command
        .args(args)
        .env("HOME", home)
        .env_remove("PI_ASK_QUEUE")
        .env_remove("PI_ASK_HISTORY")
        .env_remove("PI_ASK_CONFIG")
        .env_remove("PI_CODING_AGENT_DIR");
    command
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

fn payload_file(dir: &Path) -> PathBuf {
    let path = dir.join("payload.json");
    std::fs::write(
        &path,
        serde_json::to_string(&common::payload(vec![common::single("pick")])).unwrap(),
    )
    .unwrap();
    path
}

/// Item 5: a FIFO at the config path hung `ask`, `doctor` and `mcp`; a link to /dev/zero read
/// until memory ran out. Each is refused at once and named; the defaults apply.
#[test]
fn a_fifo_or_a_device_at_the_config_path_is_named_not_waited_on() {
    let home = tempfile::tempdir().unwrap();
    let fifo = home.path().join("fifo.toml");
    mkfifo(&fifo);
    let zero = home.path().join("zero.toml");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let payload = payload_file(home.path());
    for (config, named) in [(&fifo, "named pipe (FIFO)"), (&zero, "a device")] {
        let out = run_bounded(home.path(), &["doctor"], &[("PI_ASK_CONFIG", config)]);
        let said = text(&out.stdout);
        assert!(said.contains(named), "doctor names it: {said}");
        let out = run_bounded(
            home.path(),
            &["validate", payload.to_str().unwrap()],
            &[("PI_ASK_CONFIG", config)],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    // `mcp` answers `initialize` (the helper fails the test after 15 s without it).
    let queue = pi_ask::stores::queue::Queue::open(home.path().join("queue")).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_pi-ask"));
    command
        .args(["mcp", "--queue", queue.dir().to_str().unwrap()])
        .env("HOME", home.path())
        .env("PI_ASK_CONFIG", &fifo)
        .stderr(Stdio::null());
    let mcp = common::mcp::Mcp::spawn(command, queue, None, serde_json::json!({}));
    drop(mcp);
}

/// Item 5: a payload or message file that is a FIFO is refused with its kind, at once.
#[test]
fn a_fifo_payload_or_message_is_refused_at_once() {
    let home = tempfile::tempdir().unwrap();
    let fifo = home.path().join("payload.json");
    mkfifo(&fifo);
    let out = run_bounded(home.path(), &["validate", fifo.to_str().unwrap()], &[]);
    assert!(!out.status.success());
    assert!(
        text(&out.stdout).contains("named pipe") || text(&out.stderr).contains("named pipe"),
        "{} {}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let out = run_bounded(
        home.path(),
        &["answer", "--print", fifo.to_str().unwrap()],
        &[],
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("named pipe"),
        "{}",
        text(&out.stderr)
    );
}

/// Item 5: a history over its cap (2 GB in the trial) is named, not loaded; the next compaction
/// keeps its newest part, so the bound holds again.
#[test]
fn a_history_over_its_cap_is_named_and_compaction_keeps_its_newest_part() {
    use pi_ask::bounded_read::HISTORY_CAP;
    use pi_ask::stores::history::HistoryStore;
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("state");
    pi_ask::private_dir::ensure_private_dir(&dir).unwrap();
    let path = dir.join("history.jsonl");
    // A recent ask's lines, after a long run of lines that are not history.
    let recent = tempfile::tempdir().unwrap();
    let small = HistoryStore::new(recent.path().join("h.jsonl"));
    let payload = common::payload(vec![common::single("pick")]);
    let recorder = pi_ask::stores::history::Recorder::open(
        &small,
        pi_ask::stores::history::OpenAsk {
            source: pi_ask::stores::history::Source::Tool,
            cwd: "/proj".into(),
            title: None,
            payload: &payload,
            origin: Default::default(),
        },
    )
    .unwrap();
    let recent_id = recorder.id().to_owned();
    let recent_lines = std::fs::read(recent.path().join("h.jsonl")).unwrap();
    {
        use std::io::Write;
        let mut file = std::fs::File::create(&path).unwrap();
        let junk = vec![b'x'; 1024 * 1024 - 1];
        for _ in 0..(HISTORY_CAP / (1024 * 1024) + 1) {
            file.write_all(&junk).unwrap();
            file.write_all(b"\n").unwrap();
        }
        file.write_all(&recent_lines).unwrap();
    }
    let out = run_bounded(
        home.path(),
        &["doctor"],
        &[("PI_ASK_HISTORY", path.as_path())],
    );
    let said = text(&out.stdout);
    assert!(
        said.contains("over pi-ask's limit"),
        "doctor names it: {said}"
    );
    let store = HistoryStore::new(&path);
    assert!(store.read().is_err(), "not loaded");
    assert!(store.compact_if_large().unwrap());
    let len = std::fs::metadata(&path).unwrap().len();
    assert!(len < HISTORY_CAP, "{len} bytes");
    let history = store.read().unwrap();
    assert!(
        history.asks.iter().any(|a| a.opened.id == recent_id),
        "the newest ask is kept"
    );
}

/// A small tmpfs mounted for one test (root only), unmounted when dropped.
struct Tmpfs {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl Tmpfs {
    /// `None` (the test says why it did not run) without root or `mount`.
    fn mount(size: &str) -> Option<Tmpfs> {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            common::not_run("needs root to mount a small tmpfs");
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("disk");
        std::fs::create_dir(&path).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size},mode=0700")])
            .arg("tmpfs")
            .arg(&path)
            .status()
            .is_ok_and(|s| s.success());
        if !mounted {
            common::not_run("cannot mount a tmpfs here");
            return None;
        }
        Some(Tmpfs { path, _dir: dir })
    }

    /// Fills the disk: writes until there is no room left; the filler's path.
    fn fill(&self) -> PathBuf {
        use std::io::Write;
        let filler = self.path.join("filler");
        let mut file = std::fs::File::create(&filler).unwrap();
        let block = vec![0u8; 4096];
        while file.write_all(&block).is_ok() {}
        let _ = file.sync_all();
        filler
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.path).status();
    }
}

/// Item 7: a full disk when the person answers. The answer is written before anything is
/// decided, so the failure leaves the ask undecided and back in the queue (before, `.settled`
/// was made first, the answer failed, and the asker waited its whole timeout to be told nobody
/// answered). Once there is room, it is answered and delivered.
#[test]
fn a_full_disk_when_answering_puts_the_ask_back_undecided() {
    let Some(disk) = Tmpfs::mount("64k") else {
        return;
    };
    let queue = pi_ask::stores::queue::Queue::open(disk.path.join("q")).unwrap();
    let ask = common::queued_ask("0123456789abcdef", "Deploy?", 1);
    queue.submit(&ask).unwrap();
    let claim = queue.claim(&ask.id).unwrap().expect("claimed");
    let filler = disk.fill();
    let answer = serde_json::json!({"content": "x".repeat(16 * 1024), "details": {}});
    let failed = queue.answer(claim, &answer).unwrap_err();
    assert!(failed.released, "{failed}");
    assert!(
        !queue.dir().join(format!("{}.settled", ask.id)).exists(),
        "nothing was decided"
    );
    let waiting: Vec<String> = queue.pending().into_iter().map(|a| a.id).collect();
    assert_eq!(
        waiting,
        std::slice::from_ref(&ask.id),
        "the ask waits again"
    );
    let leftovers: Vec<String> = std::fs::read_dir(queue.dir())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "no temp file left: {leftovers:?}");

    std::fs::remove_file(filler).unwrap();
    let claim = queue.claim(&ask.id).unwrap().expect("claimed again");
    assert_eq!(
        queue.answer(claim, &answer).unwrap(),
        pi_ask::stores::queue::Delivery::Delivered
    );
    assert_eq!(queue.take_result(&ask.id), Some(answer));
}

fn folder_with_mode(parent: &Path, name: &str, mode: u32) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = parent.join(name);
    std::fs::create_dir(&path).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    path
}

/// Item 1: a queue below a folder others can write (`/shared` 0777, a group-writable HOME) was
/// checked on its last component only; another user renamed it away and put their own in its
/// place, and the agent took their forged answer. Every folder above is now checked as OpenSSH
/// checks them; a sticky one (`/tmp`) is safe, as only an entry's owner can rename it there.
#[test]
fn a_queue_history_or_socket_below_a_folder_others_can_write_is_refused() {
    use pi_ask::private_dir::UnsafeFolder;
    let root = tempfile::tempdir().unwrap();
    for (mode, refused) in [
        (0o777, true),
        (0o770, true),
        (0o1777, false),
        (0o755, false),
    ] {
        let shared = folder_with_mode(root.path(), &format!("shared-{mode:o}"), mode);
        let queue = shared.join("q");
        match pi_ask::stores::queue::Queue::open(&queue) {
            Err(UnsafeFolder::SwappableAncestor { ancestor, .. }) if refused => {
                assert_eq!(ancestor, std::fs::canonicalize(&shared).unwrap());
            }
            Ok(_) if !refused => {}
            other => panic!("mode {mode:o}: {other:?}"),
        }
        // A private history folder made (by anyone) below it is not trusted either.
        let state = folder_with_mode(&shared, "state", 0o700);
        std::fs::write(state.join("history.jsonl"), "").unwrap();
        let history = pi_ask::stores::history::HistoryStore::new(state.join("history.jsonl"));
        assert_eq!(history.read().is_err(), refused, "history below {mode:o}");
    }
    // The message names the folder and the fix; `pi-ask mcp` on such a queue refuses to start.
    let shared = root.path().join("shared-777");
    let err = pi_ask::stores::queue::Queue::open(shared.join("other")).unwrap_err();
    assert!(err.to_string().contains("chmod go-w"), "{err}");
    let out = run_bounded(
        root.path(),
        &["mcp", "--queue", shared.join("q").to_str().unwrap()],
        &[],
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("could swap"),
        "{}",
        text(&out.stderr)
    );
    // A form's socket below such a folder is refused too.
    let socket = shared.join("sock").join("form.sock");
    let err = pi_ask::remote::socket::check_socket_folder(&socket).unwrap_err();
    assert!(err.to_string().contains("could swap"), "{err}");
    assert!(!shared.join("sock").exists(), "nothing is created there");
    assert!(!shared.join("other").exists(), "nothing is created there");
}

fn chown_to_nobody(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid path; 65534 is `nobody`.
    assert_eq!(unsafe { libc::lchown(c.as_ptr(), 65534, 65534) }, 0);
}

/// Item 1, as root: a folder above owned by another user could be swapped by them; an ask
/// planted in the queue by another user is never offered (an inbox opened one as a normal
/// form from "claude-code"), and an answer file of theirs is never taken as the person's.
#[test]
fn another_users_folder_above_or_files_inside_are_refused() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        common::not_run("needs root to make files another user owns");
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let theirs = folder_with_mode(root.path(), "theirs", 0o755);
    chown_to_nobody(&theirs);
    // Made by root (as root, pi-ask would create nothing there at all).
    folder_with_mode(&theirs, "q", 0o700);
    assert!(matches!(
        pi_ask::stores::queue::Queue::open(theirs.join("q")),
        Err(pi_ask::private_dir::UnsafeFolder::ForeignAncestor { owner: 65534, .. })
    ));

    let queue = pi_ask::stores::queue::Queue::open(root.path().join("q")).unwrap();
    let planted = common::queued_ask("feedfacefeedface", "Planted?", 1);
    let path = queue.dir().join("feedfacefeedface.ask.json");
    std::fs::write(&path, serde_json::to_vec(&planted).unwrap()).unwrap();
    chown_to_nobody(&path);
    assert!(queue.pending().is_empty(), "a planted ask is not offered");

    let mine = common::queued_ask("0123456789abcdef", "Mine?", 2);
    queue.submit(&mine).unwrap();
    let forged = queue.dir().join("0123456789abcdef.result.json");
    std::fs::write(&forged, br#"{"content":"forged","details":{}}"#).unwrap();
    chown_to_nobody(&forged);
    assert_eq!(
        queue.take_result(&mine.id),
        None,
        "a forged answer is not taken"
    );
}

/// Item 3: anyone who can read the config can hold a lock on it; a settings save took a
/// blocking exclusive lock on the form's loop, and the form froze until SIGKILL. The lock is
/// now only tried, for a short budget: the save gives up with "Unable to save", the file as it
/// was, and saves again once the lock is free.
#[test]
fn a_lock_held_on_the_config_by_a_reader_costs_one_save_not_the_form() {
    use std::os::unix::io::AsRawFd;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pi-ask.toml");
    std::fs::write(&path, "schemaVersion = 5\n").unwrap();
    let mut store = pi_ask::stores::config::ConfigStore::open(
        pi_ask::stores::config::ConfigPaths::resolve(Some(&path), |_| None),
    );
    let reader = std::fs::File::open(&path).unwrap();
    // SAFETY: flock on a descriptor the test owns.
    assert_eq!(unsafe { libc::flock(reader.as_raw_fd(), libc::LOCK_SH) }, 0);
    let started = Instant::now();
    let err = store
        .set_setting(pi_ask::settings::Setting::AutoSubmit, true)
        .unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "gave up, did not wait"
    );
    assert!(err.to_string().starts_with("Unable to save"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "schemaVersion = 5\n"
    );
    drop(reader);
    store
        .set_setting(pi_ask::settings::Setting::AutoSubmit, true)
        .unwrap();
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("autoSubmitWhenAnsweredWithoutNotes = true")
    );
}

/// Item 2: a shared team config (0666, or in a folder others can write) ran another user's
/// command as the person, and `doctor` said ok. It still applies, without its commands; the
/// notice and `doctor` say why and how to fix it. The same file, private, runs them.
#[test]
fn a_config_others_can_write_applies_without_its_commands() {
    use std::os::unix::fs::PermissionsExt;
    let home = tempfile::tempdir().unwrap();
    let team = folder_with_mode(home.path(), "team", 0o755);
    let path = team.join("pi-ask.toml");
    std::fs::write(
        &path,
        "schemaVersion = 5\n[notifications]\nchannels = [\"bell\", { type = \"command\", command = \"touch planted\" }]\n[answer]\nextractor = [\"sh\", \"-c\", \"touch planted\"]\n[behaviour]\nautoSubmitWhenAnsweredWithoutNotes = true\n",
    )
    .unwrap();
    let load = || {
        pi_ask::stores::config::load(&pi_ask::stores::config::ConfigPaths::resolve(
            Some(&path),
            |_| None,
        ))
    };
    let private = load();
    assert_eq!(
        private.config.answer.extractor.len(),
        3,
        "{:?}",
        private.problems
    );
    assert!(private.problems.is_empty(), "{:?}", private.problems);

    for (file_mode, folder_mode) in [(0o666, 0o755), (0o644, 0o777)] {
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(file_mode)).unwrap();
        std::fs::set_permissions(&team, std::fs::Permissions::from_mode(folder_mode)).unwrap();
        let shared = load();
        assert!(shared.config.answer.extractor.is_empty());
        assert_eq!(
            shared.config.notifications.channels,
            [pi_ask::stores::config::Channel::Bell]
        );
        assert!(
            shared
                .config
                .behaviour
                .auto_submit_when_answered_without_notes,
            "the rest applies"
        );
        let notice = shared.notices.join(" ");
        assert!(
            notice.contains("can be written by others") && notice.contains("chmod go-w"),
            "{notice}"
        );
        let out = run_bounded(
            home.path(),
            &["doctor"],
            &[("PI_ASK_CONFIG", path.as_path())],
        );
        assert_eq!(out.status.code(), Some(1), "doctor flags it");
        assert!(
            text(&out.stdout).contains("can be written by others"),
            "{}",
            text(&out.stdout)
        );
    }
}

/// Item 9: `sudo -E pi-ask …` left `~/.pi`, pi's own `~/.pi/agent`, the queue and the history
/// owned by root, locking the user out, and `doctor` said ok. As root with another user's HOME,
/// pi-ask creates nothing there and says so; `doctor` tests access, not existence.
#[test]
fn root_with_a_users_home_creates_nothing_there() {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        common::not_run("needs root");
        return;
    }
    let keep = tempfile::tempdir().unwrap();
    let home = folder_with_mode(keep.path(), "user", 0o755);
    chown_to_nobody(&home);
    let payload = payload_file(keep.path());
    let payload = payload.to_str().unwrap();
    let doctor = run_bounded(&home, &["doctor"], &[]);
    let said = text(&doctor.stdout);
    assert_eq!(doctor.status.code(), Some(1), "{said}");
    assert!(said.contains("runs as root"), "{said}");
    run_bounded(&home, &["validate", payload], &[]);
    run_bounded(&home, &["ask", payload], &[]);
    let mcp = run_bounded(&home, &["mcp"], &[]);
    assert!(
        text(&mcp.stderr).contains("creates nothing there"),
        "{}",
        text(&mcp.stderr)
    );
    let mut made = Vec::new();
    let mut folders = vec![home.clone()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let meta = entry.metadata().unwrap();
            if meta.uid() == 0 {
                made.push(entry.path());
            }
            if meta.is_dir() {
                folders.push(entry.path());
            }
        }
    }
    assert!(made.is_empty(), "root made {made:?}");

    // A folder a run as root left behind is found by what it denies, not by being there.
    let user = folder_with_mode(keep.path(), "other", 0o755);
    chown_to_nobody(&user);
    let state = user.join(".pi/agent/pi-ask");
    std::fs::create_dir_all(&state).unwrap();
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    std::fs::set_permissions(keep.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = pi_ask_in(&user, &["doctor"]).uid(65534).gid(65534).output();
    let Ok(out) = out else {
        common::not_run("the pi-ask binary is not reachable by user nobody here");
        return;
    };
    let said = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("is not writable by you"), "{said}");
}

/// Item 4: each draft held every saved text, so changes beside a 4.6 MB note wrote it whole into
/// every fsynced record (192 MB of history in the trial). A long saved text is now kept once,
/// by its content, and every draft refers to it; a resumed form reads it back.
#[test]
fn a_long_saved_note_is_written_once_however_often_the_draft_changes() {
    use pi_ask::stores::history::{HistoryStore, JournalHandle, PendingAsk, Source};
    let dir = tempfile::tempdir().unwrap();
    let store = HistoryStore::new(dir.path().join("state/history.jsonl"));
    let payload = common::payload(vec![common::single("a"), common::single("b")]);
    let journal = JournalHandle::new(
        store.clone(),
        PendingAsk {
            source: Source::Tool,
            cwd: "/proj".into(),
            title: None,
            payload,
            origin: Default::default(),
        },
        |_| {},
    );
    journal.shown();
    let big = "note ".repeat(1_000_000);
    let draft = |small: usize| {
        serde_json::json!({"tab": 1, "cursors": [0, 0], "presented": ["single", "single"],
            "answers": [{"selected": [0], "note": big}, {"selected": [], "note": format!("draft {small}")}]})
    };
    for small in 0..20 {
        journal.draft(draft(small));
        // Apart, as a person types: each draft reaches the writer on its own.
        std::thread::sleep(Duration::from_millis(30));
    }
    journal.abandon();
    let history_bytes = std::fs::metadata(store.path()).unwrap().len();
    assert!(
        history_bytes < 64 * 1024,
        "the note is not in the records: {history_bytes} bytes"
    );
    let read = store.read().unwrap();
    let ask = &read.asks[0];
    let restored = store
        .draft_resolved(ask.draft.as_ref().unwrap(), &ask.opened.id)
        .unwrap();
    assert_eq!(restored, draft(19), "the newest draft, note and all");
}
