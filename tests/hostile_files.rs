//! Files and folders another user could plant or share: temp files with random exclusive names,
//! leftovers removed, queue and history folders others can write refused (docs/reliability.md).

mod common;

use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, SystemTime};

use pi_ask::atomic::{self, Permissions};
use pi_ask::private_dir::UnsafeFolder;
use pi_ask::stores::history::HistoryStore;
use pi_ask::stores::queue::AskQueue;
use pi_ask::stores::queue::Queue;

fn folder(mode: u32) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    std::fs::create_dir(&path).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    (dir, path)
}

/// The trial's attack: links planted at the temp names an atomic write used to use
/// (`.<name>.<pid>.tmp`, for the next pids) made root's save write through them. Temp names are
/// now random and created exclusively: the links are never followed, and the save still works.
#[test]
fn planted_temp_names_neither_redirect_nor_block_a_save() {
    let (_keep, dir) = folder(0o700);
    let victim = dir.join("victim");
    std::fs::write(&victim, "root's file").unwrap();
    let me = std::process::id();
    for pid in me..me + 200 {
        std::os::unix::fs::symlink(&victim, dir.join(format!(".team.toml.{pid}.tmp"))).unwrap();
    }
    let target = dir.join("team.toml");
    atomic::write(&target, b"x = 1\n", Permissions::KeepExisting).unwrap();
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "x = 1\n");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "root's file");
    let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let temps = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(atomic::TEMP_PREFIX)
        })
        .count();
    assert_eq!(temps, 0, "no temp file left");
}

/// A save killed midway leaves its temp file; the next start removes it, and nothing else:
/// not a fresh one (a save in progress), not a file pi-ask did not name.
#[test]
fn leftover_temp_files_are_removed_and_nothing_else() {
    let (_keep, dir) = folder(0o700);
    let old = dir.join(".pi-ask-abc123.tmp");
    let fresh = dir.join(".pi-ask-def456.tmp");
    let foreign = dir.join(".editor-save.tmp");
    for f in [&old, &fresh, &foreign] {
        std::fs::write(f, "x").unwrap();
    }
    let an_hour_ago = SystemTime::now() - Duration::from_secs(3600);
    for f in [&old, &foreign] {
        std::fs::File::options()
            .write(true)
            .open(f)
            .unwrap()
            .set_modified(an_hour_ago)
            .unwrap();
    }
    atomic::remove_leftovers(&dir);
    assert!(!old.exists());
    assert!(fresh.exists(), "a save in progress is left alone");
    assert!(foreign.exists(), "not pi-ask's");
}

#[test]
fn a_queue_folder_others_can_write_is_refused_with_the_fix() {
    let (_keep, shared) = folder(0o777);
    let err = Queue::open(&shared).unwrap_err();
    assert!(matches!(err, UnsafeFolder::Shared { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("can be written by others") && text.contains("chmod 700"),
        "{text}"
    );

    let (_keep2, real) = folder(0o700);
    let link = real.parent().unwrap().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    assert!(matches!(
        Queue::open(&link).unwrap_err(),
        UnsafeFolder::Link(_)
    ));
    assert!(Queue::open(&real).is_ok());
    assert!(Queue::open(real.join("new/queue")).is_ok(), "created 0700");
    let mode = std::fs::metadata(real.join("new/queue"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o700);
}

/// Another user's folder (made by chown when running as root; skipped otherwise).
#[test]
fn a_queue_or_history_folder_of_another_user_is_refused() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        common::not_run("needs root to make a folder another user owns");
        return;
    }
    let (_keep, theirs) = folder(0o700);
    let c = std::ffi::CString::new(theirs.to_str().unwrap()).unwrap();
    // SAFETY: a valid path; 65534 is `nobody`.
    assert_eq!(unsafe { libc::chown(c.as_ptr(), 65534, 65534) }, 0);
    assert!(matches!(
        Queue::open(&theirs).unwrap_err(),
        UnsafeFolder::NotOwned { owner: 65534, .. }
    ));
    let history = HistoryStore::new(theirs.join("history.jsonl"));
    let err = history.read().unwrap_err();
    assert!(err.to_string().contains("belongs to another user"), "{err}");
}

#[test]
fn a_history_in_a_folder_others_can_write_is_neither_read_nor_written() {
    let (_keep, shared) = folder(0o777);
    let history = HistoryStore::new(shared.join("history.jsonl"));
    std::fs::write(shared.join("history.jsonl"), "").unwrap();
    let err = history.read().unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::PermissionDenied);
    assert!(
        err.to_string().contains("can be written by others"),
        "{err}"
    );
    let event = pi_ask::stores::history::Event::Hinted {
        id: "aaaa0001".into(),
        at: "2026-12-03T10:00:00.000Z".into(),
    };
    assert!(history.append(&event).is_err());
    assert_eq!(
        std::fs::read_to_string(shared.join("history.jsonl")).unwrap(),
        ""
    );
}

fn queued(id: &str, asker: pi_ask::stores::history::ProcessId) -> pi_ask::stores::queue::QueuedAsk {
    pi_ask::stores::queue::QueuedAsk {
        id: id.into(),
        created_at: 1,
        client: "test".into(),
        cwd: "/proj".into(),
        asker,
        payload: serde_json::json!({"questions":[{"id":"q","prompt":"P?","options":[{"value":"a","label":"A"}]}]}),
    }
}

fn alive() -> pi_ask::stores::history::ProcessId {
    pi_ask::stores::history::ProcessId::current()
}

/// The trial's planted entries: an ask whose `id` is not its name's (the inbox spun on it), an
/// id that climbs out of the folder, a FIFO (the inbox blocked), a 1 GB sparse file (re-read
/// every 40 ms), a link. Each is set aside once, unread where it could hurt, never offered.
#[test]
fn planted_queue_entries_are_set_aside_once_and_never_offered() {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    let q = queue.dir().to_path_buf();
    let write = |name: &str, ask: &pi_ask::stores::queue::QueuedAsk| {
        std::fs::write(q.join(name), serde_json::to_vec(ask).unwrap()).unwrap()
    };
    write("aaaa.ask.json", &queued("zzzz", alive()));
    write("bbbb.ask.json", &queued("../../outside", alive()));
    let fifo = std::ffi::CString::new(q.join("cccc.ask.json").to_str().unwrap()).unwrap();
    // SAFETY: a valid path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let big = std::fs::File::create(q.join("dddd.ask.json")).unwrap();
    big.set_len(1 << 30).unwrap();
    let elsewhere = dir.path().join("elsewhere.json");
    std::fs::write(
        &elsewhere,
        serde_json::to_vec(&queued("eeee", alive())).unwrap(),
    )
    .unwrap();
    std::os::unix::fs::symlink(&elsewhere, q.join("eeee.ask.json")).unwrap();
    queue.submit(&queued("good", alive())).unwrap();

    let started = std::time::Instant::now();
    let ids: Vec<String> = queue.pending().into_iter().map(|a| a.id).collect();
    assert_eq!(ids, ["good"]);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "nothing blocked or was read whole"
    );
    for name in ["aaaa", "bbbb", "cccc", "dddd", "eeee"] {
        assert!(
            std::fs::symlink_metadata(q.join(format!("{name}.ask.json.bad"))).is_ok(),
            "{name} set aside"
        );
    }
    assert!(!dir.path().join("outside.ask.json").exists());
    assert_eq!(queue.pending().len(), 1, "and not looked at again");
    assert!(queue.claim("../../outside").unwrap().is_none());
    assert!(elsewhere.exists(), "the link's target is left alone");
}

/// An ask whose asker is gone (its MCP server died without withdrawing it) is not offered, and
/// housekeeping removes it; files in the folder that pi-ask did not name are never touched.
#[test]
fn orphaned_asks_are_not_offered_and_sweeping_touches_only_pi_asks_names() {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    let dead = pi_ask::stores::history::ProcessId {
        pid: i32::MAX as u32 - 1,
        start: Some(1),
        boot: None,
    };
    let orphan = pi_ask::stores::queue::new_id();
    queue.submit(&queued(&orphan, dead)).unwrap();
    let live = pi_ask::stores::queue::new_id();
    queue.submit(&queued(&live, alive())).unwrap();
    let ids: Vec<String> = queue.pending().into_iter().map(|a| a.id).collect();
    assert_eq!(ids, std::slice::from_ref(&live));

    let q = queue.dir().to_path_buf();
    for name in [
        "photo.tmp",
        "notes.result.json",
        "report.withdrawn",
        "x.settled",
    ] {
        std::fs::write(q.join(name), "not pi-ask's").unwrap();
    }
    std::fs::write(q.join(format!("{live}.withdrawn")), "").unwrap();
    queue.sweep(Duration::ZERO);
    assert!(
        !q.join(format!("{orphan}.ask.json")).exists(),
        "the orphan is swept"
    );
    assert!(!q.join(format!("{live}.withdrawn")).exists());
    assert!(q.join(format!("{live}.ask.json")).exists());
    for name in [
        "photo.tmp",
        "notes.result.json",
        "report.withdrawn",
        "x.settled",
    ] {
        assert!(q.join(name).exists(), "{name} is not pi-ask's");
    }
}

/// An ask file changed behind the queue's back without its size or time changing is not read
/// again: a look at the queue reads only new or changed files.
#[test]
fn unchanged_ask_files_are_not_read_again() {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("q")).unwrap();
    let id = pi_ask::stores::queue::new_id();
    queue.submit(&queued(&id, alive())).unwrap();
    assert_eq!(queue.pending()[0].client, "test");
    let path = queue.dir().join(format!("{id}.ask.json"));
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("\"test\"", "\"TEST\"");
    std::fs::write(&path, text).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    assert_eq!(
        queue.pending()[0].client,
        "test",
        "served from what was read"
    );
}

/// A FIFO at the history's name hung `pi-ask history`: it is refused at once, read or written.
#[test]
fn a_fifo_history_neither_hangs_a_reader_nor_a_writer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.jsonl");
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let store = HistoryStore::new(&path);
    let started = std::time::Instant::now();
    assert!(store.read().is_err());
    let event = pi_ask::stores::history::Event::Hinted {
        id: "aaaa0001".into(),
        at: "2026-12-03T10:00:00.000Z".into(),
    };
    assert!(store.append(&event).is_err());
    assert!(started.elapsed() < Duration::from_secs(2));
}
