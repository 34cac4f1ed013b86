//! The history of asks: appends, torn lines, compaction, concurrent writers, and the lookups
//! replay and resume use.

use pi_ask::stores::history::{
    Dismissal, Event, History, HistoryStore, KEEP_ASKS, OpenAsk, Opened, Origin, ProcessId,
    Recorder, SessionCall, Source, Status,
};
use serde_json::json;

fn opened(id: &str, source: Source, pid: u32) -> Event {
    Event::Open(Box::new(Opened {
        id: id.into(),
        source,
        at: "2026-12-03T10:00:00.000Z".into(),
        cwd: "/proj".into(),
        title: None,
        payload: json!({"questions":[{"id":"q","prompt":format!("Prompt {id}"),"options":[{"value":"a","label":"A"}]}]}),
        process: ProcessId {
            pid,
            start: None,
            boot: None,
        },
        origin: Origin::default(),
    }))
}

fn ended(id: &str) -> Event {
    Event::End(pi_ask::stores::history::Ended {
        id: id.into(),
        at: "2026-12-03T10:01:00.000Z".into(),
        status: Status::Submitted,
        result: json!({}),
    })
}

fn resume_of(id: &str, root: &str, pid: u32) -> Event {
    let Event::Open(mut o) = opened(id, Source::Resume, pid) else {
        unreachable!()
    };
    o.origin.reopens = Some(root.into());
    Event::Open(o)
}

/// Every recorded process is dead except pid 1.
fn alive(p: &ProcessId) -> bool {
    p.pid == 1
}

fn store() -> (tempfile::TempDir, HistoryStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = HistoryStore::new(dir.path().join("state/history.jsonl"));
    (dir, store)
}

#[test]
fn appended_events_read_back_in_order_and_the_file_is_private() {
    let (_dir, store) = store();
    store.append(&opened("aaaa0001", Source::Tool, 7)).unwrap();
    store.append(&ended("aaaa0001")).unwrap();
    let history = store.read().unwrap();
    assert_eq!(history.asks.len(), 1);
    assert_eq!(
        history.asks[0].ended.as_ref().unwrap().status,
        Status::Submitted
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(store.path())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    let dir_mode = std::fs::metadata(store.path().parent().unwrap())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(dir_mode & 0o777, 0o700);
}

#[test]
fn a_torn_last_line_is_skipped_and_the_next_append_is_not_swallowed() {
    let (_dir, store) = store();
    store.append(&opened("aaaa0001", Source::Tool, 7)).unwrap();
    // A crash mid-write leaves half a line with no newline.
    let mut bytes = std::fs::read(store.path()).unwrap();
    bytes.extend_from_slice(br#"{"event":"open","id":"torn","sou"#);
    std::fs::write(store.path(), &bytes).unwrap();
    let history = store.read().unwrap();
    assert_eq!(history.asks.len(), 1);
    assert_eq!(history.skipped_lines, 1);

    store.append(&ended("aaaa0001")).unwrap();
    let history = store.read().unwrap();
    assert!(
        history.asks[0].ended.is_some(),
        "the end after a torn line is read"
    );
    assert_eq!(
        history.skipped_lines, 1,
        "the torn fragment stays one bad line"
    );
}

#[test]
fn unknown_and_garbage_lines_are_skipped_not_fatal() {
    let (_dir, store) = store();
    std::fs::create_dir_all(store.path().parent().unwrap()).unwrap();
    let good = serde_json::to_string(&opened("aaaa0001", Source::Tool, 7)).unwrap();
    std::fs::write(
        store.path(),
        format!("not json\n{{\"event\":\"fromTheFuture\"}}\n\n{good}\n"),
    )
    .unwrap();
    let history = store.read().unwrap();
    assert_eq!(history.asks.len(), 1);
    assert_eq!(history.skipped_lines, 2);
}

#[test]
fn a_missing_file_is_an_empty_history() {
    let (_dir, store) = store();
    assert_eq!(store.read().unwrap(), History::default());
}

#[test]
fn compaction_keeps_the_newest_asks_with_all_their_events() {
    let (_dir, store) = store();
    let total = KEEP_ASKS + KEEP_ASKS / 4;
    for i in 0..total {
        let id = format!("{i:08x}");
        store.append(&opened(&id, Source::Tool, 7)).unwrap();
        if i.is_multiple_of(2) {
            store.append(&ended(&id)).unwrap();
        }
    }
    assert!(store.compact_if_large().unwrap());
    let history = store.read().unwrap();
    assert_eq!(history.asks.len(), KEEP_ASKS);
    let first_kept = total - KEEP_ASKS;
    assert_eq!(history.asks[0].opened.id, format!("{first_kept:08x}"));
    for (i, ask) in history.asks.iter().enumerate() {
        let n = first_kept + i;
        assert_eq!(
            ask.ended.is_some(),
            n.is_multiple_of(2),
            "ask {n} keeps its end"
        );
    }
    assert!(
        !store.compact_if_large().unwrap(),
        "a compacted file is small again"
    );
    let leftovers: Vec<_> = std::fs::read_dir(store.path().parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn the_recorder_compacts_after_a_form_ends_not_before_it_opens() {
    let (_dir, store) = store();
    for i in 0..(KEEP_ASKS + KEEP_ASKS / 4 - 1) {
        store
            .append(&opened(&format!("{i:08x}"), Source::Tool, 7))
            .unwrap();
    }
    let payload = json!({"questions": []});
    let recorder = Recorder::open(
        &store,
        OpenAsk {
            source: Source::Tool,
            cwd: "/proj".into(),
            title: None,
            payload: &payload,
            origin: Origin::default(),
        },
    )
    .unwrap();
    let id = recorder.id().to_owned();
    assert_eq!(
        store.read().unwrap().asks.len(),
        KEEP_ASKS + KEEP_ASKS / 4,
        "opening a form does not compact"
    );
    let result: pi_ask::result::AskResult = serde_json::from_value(json!({
        "content": [{"type": "text", "text": "User cancelled."}],
        "details": {"cancelled": true, "mode": "submit", "questions": [], "answers": {}}
    }))
    .unwrap();
    recorder.end(&result, false).unwrap();
    let history = store.read().unwrap();
    assert_eq!(history.asks.len(), KEEP_ASKS);
    let last = history.asks.last().unwrap();
    assert_eq!(last.opened.id, id);
    assert!(last.ended.is_some(), "the ended ask is kept with its end");
}

/// The child half of the two-process test: appends when asked to through the environment.
#[test]
fn child_appender() {
    let (Ok(path), Ok(tag)) = (
        std::env::var("PI_ASK_TEST_HISTORY"),
        std::env::var("PI_ASK_TEST_TAG"),
    ) else {
        return;
    };
    let store = HistoryStore::new(path);
    for i in 0..200 {
        store
            .append(&opened(&format!("{tag}{i:04}"), Source::Tool, 7))
            .unwrap();
    }
}

#[test]
fn two_processes_appending_at_once_lose_nothing() {
    let (_dir, store) = store();
    let spawn = |tag: &str| {
        std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "child_appender",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("PI_ASK_TEST_HISTORY", store.path())
            .env("PI_ASK_TEST_TAG", tag)
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap()
    };
    let mut a = spawn("a");
    let mut b = spawn("b");
    assert!(a.wait().unwrap().success());
    assert!(b.wait().unwrap().success());
    let history = store.read().unwrap();
    assert_eq!(history.skipped_lines, 0);
    assert_eq!(history.asks.len(), 400);
    for tag in ["a", "b"] {
        let ids: Vec<String> = history
            .asks
            .iter()
            .map(|a| a.opened.id.clone())
            .filter(|id| id.starts_with(tag))
            .collect();
        let expected: Vec<String> = (0..200).map(|i| format!("{tag}{i:04}")).collect();
        assert_eq!(
            ids, expected,
            "each process's lines arrive whole and in order"
        );
    }
}

#[test]
fn lookups_find_by_id_or_unique_prefix() {
    let history = History::from_events([
        opened("abcd0001", Source::Tool, 7),
        opened("abce0002", Source::Tool, 7),
    ]);
    assert_eq!(history.find("abcd").unwrap().opened.id, "abcd0001");
    assert_eq!(history.find("abce0002").unwrap().opened.id, "abce0002");
    assert_eq!(
        history.find("abc").unwrap_err().to_string(),
        "2 asks in the history start with abc; give more characters"
    );
    assert_eq!(
        history.find("zz").unwrap_err().to_string(),
        "no ask zz in the history"
    );
}

#[test]
fn replay_takes_the_newest_real_form_and_answer_again_the_newest_extracted_one() {
    let history = History::from_events([
        opened("00000001", Source::Tool, 7),
        opened("00000002", Source::Answer, 7),
        opened("00000003", Source::Replay, 7),
        opened("00000004", Source::Tool, 7),
        opened("00000005", Source::Resume, 7),
    ]);
    assert_eq!(
        history.latest(&[Source::Tool]).unwrap().opened.id,
        "00000004"
    );
    assert_eq!(
        history
            .latest(&[Source::Answer, Source::AnswerAgain])
            .unwrap()
            .opened
            .id,
        "00000002"
    );
}

#[test]
fn resume_offers_the_newest_interrupted_ask_but_not_running_ended_or_dismissed_ones() {
    let history = History::from_events([
        opened("00000001", Source::Tool, 7),
        opened("00000002", Source::Tool, 7),
        ended("00000002"),
        opened("00000003", Source::Tool, 1), // still running (pid 1 is alive here)
    ]);
    assert_eq!(history.resumable(&alive).unwrap().opened.id, "00000001");

    let dismissed = History::from_events([
        opened("00000001", Source::Tool, 7),
        Event::Dismiss(Dismissal {
            at: String::new(),
            id: Some("00000001".into()),
            session_id: None,
            tool_call_id: None,
        }),
    ]);
    assert!(dismissed.resumable(&alive).is_none());
}

#[test]
fn a_killed_resume_is_offered_instead_of_its_ask_and_its_end_dismisses_the_chain() {
    let mut events = vec![
        opened("00000001", Source::Tool, 7),
        resume_of("00000002", "00000001", 7), // killed too
    ];
    let history = History::from_events(events.clone());
    assert_eq!(history.resumable(&alive).unwrap().opened.id, "00000002");
    assert!(history.asks[0].superseded);

    events.push(resume_of("00000003", "00000001", 7));
    events.push(ended("00000003"));
    events.push(Event::Dismiss(Dismissal {
        at: String::new(),
        id: Some("00000001".into()),
        session_id: None,
        tool_call_id: None,
    }));
    let history = History::from_events(events);
    assert!(
        history.resumable(&alive).is_none(),
        "{:?}",
        history.resumable(&alive)
    );
    // Replay still finds the real form.
    assert_eq!(
        history.latest(&[Source::Tool]).unwrap().opened.id,
        "00000001"
    );
}

#[test]
fn a_resumed_recorder_dismisses_its_root_or_its_session_call_on_end() {
    let (_dir, store) = store();
    store.append(&opened("00000001", Source::Tool, 7)).unwrap();
    let payload = json!({});
    let result: pi_ask::result::AskResult = serde_json::from_value(json!({
        "content": [{"type": "text", "text": "User cancelled."}],
        "details": {"cancelled": true, "mode": "submit", "questions": [], "answers": {}}
    }))
    .unwrap();
    let resume = |origin: Origin| {
        Recorder::open(
            &store,
            OpenAsk {
                source: Source::Resume,
                cwd: "/proj".into(),
                title: None,
                payload: &payload,
                origin,
            },
        )
        .unwrap()
    };
    resume(Origin {
        reopens: Some("00000001".into()),
        session: None,
        queue_id: None,
    })
    .end(&result, false)
    .unwrap();
    resume(Origin {
        reopens: None,
        session: Some(SessionCall {
            file: "s.jsonl".into(),
            session_id: "sess".into(),
            tool_call_id: Some("call-1".into()),
            entry_id: None,
        }),
        queue_id: None,
    })
    .end(&result, false)
    .unwrap();
    let history = store.read().unwrap();
    assert!(history.asks[0].dismissed);
    assert!(history.session_call_dismissed("sess", "call-1"));
    assert!(!history.session_call_dismissed("sess", "call-2"));
    assert!(history.resumable(&alive).is_none());
}

#[test]
fn the_interrupted_hint_is_given_once_per_chain_and_only_for_the_same_directory() {
    let mut events = vec![opened("00000001", Source::Tool, 7)];
    let history = History::from_events(events.clone());
    assert!(history.unhinted_interrupted_in("/proj", &alive).is_some());
    assert!(
        history
            .unhinted_interrupted_in("/elsewhere", &alive)
            .is_none()
    );
    events.push(Event::Hinted {
        id: "00000001".into(),
        at: String::new(),
    });
    let history = History::from_events(events);
    assert!(history.unhinted_interrupted_in("/proj", &alive).is_none());
}

#[test]
fn the_default_path_follows_the_environment() {
    let env = |vars: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| (*v).to_owned())
        }
    };
    assert_eq!(
        pi_ask::stores::history::default_history_path(env(&[("HOME", "/home/u")])).unwrap(),
        std::path::PathBuf::from("/home/u/.pi/agent/pi-ask/history.jsonl")
    );
    assert_eq!(
        pi_ask::stores::history::default_history_path(env(&[
            ("HOME", "/home/u"),
            ("PI_CODING_AGENT_DIR", "~/agent")
        ]))
        .unwrap(),
        std::path::PathBuf::from("/home/u/agent/pi-ask/history.jsonl")
    );
    assert_eq!(
        pi_ask::stores::history::default_history_path(env(&[("PI_ASK_HISTORY", "/tmp/h.jsonl")]))
            .unwrap(),
        std::path::PathBuf::from("/tmp/h.jsonl")
    );
}

#[test]
fn an_ask_ended_by_a_signal_keeps_its_result_and_stays_resumable_without_dismissing() {
    let (_dir, store) = store();
    let payload = json!({});
    let result: pi_ask::result::AskResult = serde_json::from_value(json!({
        "content": [{"type": "text", "text": "User cancelled."}],
        "details": {"cancelled": true, "mode": "submit", "questions": [], "answers": {}}
    }))
    .unwrap();
    let open = |source, origin| {
        Recorder::open(
            &store,
            OpenAsk {
                source,
                cwd: "/proj".into(),
                title: None,
                payload: &payload,
                origin,
            },
        )
        .unwrap()
    };
    let first = open(Source::Tool, Origin::default());
    let id = first.id().to_owned();
    first.end(&result, true).unwrap();
    let history = store.read().unwrap();
    assert_eq!(
        history.asks[0].ended.as_ref().unwrap().status,
        Status::Interrupted
    );
    assert_eq!(
        history.resumable(&|_| true).unwrap().opened.id,
        id,
        "even while its pid lives on"
    );

    // A resume that is itself interrupted dismisses nothing.
    open(
        Source::Resume,
        Origin {
            reopens: Some(id.clone()),
            session: None,
            queue_id: None,
        },
    )
    .end(&result, true)
    .unwrap();
    let history = store.read().unwrap();
    assert!(!history.asks[0].dismissed);
    assert_eq!(
        history.resumable(&alive).unwrap().opened.source,
        Source::Resume
    );
}

fn progress(id: &str, text: &str) -> Event {
    Event::Progress {
        id: id.into(),
        at: "2026-12-03T10:00:30.000Z".into(),
        draft: json!({"text": text}),
    }
}

fn from_queue(id: &str, queue_id: &str, pid: u32) -> Event {
    let Event::Open(mut o) = opened(id, Source::Tool, pid) else {
        unreachable!()
    };
    o.origin.queue_id = Some(queue_id.into());
    Event::Open(o)
}

#[test]
fn the_newest_draft_of_an_ask_is_what_it_keeps() {
    let history = History::from_events([
        opened("aaaa0001", Source::Tool, 7),
        progress("aaaa0001", "one"),
        progress("aaaa0001", "two"),
    ]);
    assert_eq!(history.asks[0].draft, Some(json!({"text": "two"})));
    assert_eq!(
        history.resumable(&alive).map(|a| a.opened.id.as_str()),
        Some("aaaa0001")
    );
}

/// An inbox killed mid-form gives its ask back to the queue; a second inbox answers it. The first
/// record is then answered too: not offered by `resume`, not hinted, and listed as such.
#[test]
fn a_queued_ask_answered_by_another_inbox_is_answered_in_every_record() {
    let history = History::from_events([
        from_queue("aaaa0001", "q-1", 7),
        from_queue("aaaa0002", "q-1", 8),
        ended("aaaa0002"),
    ]);
    assert!(history.asks[0].answered_elsewhere);
    assert!(!history.asks[0].is_interrupted(&alive));
    assert_eq!(history.asks[0].status_label(&alive), "answered elsewhere");
    assert_eq!(history.resumable(&alive), None);

    // Not answered anywhere yet: still not `pi-ask resume`'s (the queue gives it back, and its
    // answer belongs to the agent), though it shows as interrupted.
    let history = History::from_events([from_queue("aaaa0001", "q-2", 7)]);
    assert_eq!(history.asks[0].status_label(&alive), "interrupted");
    assert_eq!(history.resumable(&alive), None);
    assert_eq!(history.unhinted_interrupted_in("/proj", &alive), None);
}

#[test]
fn compaction_keeps_only_the_newest_draft_of_asks_still_open() {
    let (_dir, store) = store();
    // Enough drafts to compact: an ended ask's drafts all go, an open ask keeps its newest.
    store.append(&opened("aaaa0001", Source::Tool, 7)).unwrap();
    store.append(&opened("aaaa0002", Source::Tool, 8)).unwrap();
    let mut text = std::fs::read_to_string(store.path()).unwrap();
    for i in 0..300 {
        for id in ["aaaa0001", "aaaa0002"] {
            text.push_str(&serde_json::to_string(&progress(id, &format!("{id} {i}"))).unwrap());
            text.push('\n');
        }
    }
    text.push_str(&serde_json::to_string(&ended("aaaa0001")).unwrap());
    text.push('\n');
    std::fs::write(store.path(), text).unwrap();
    assert!(store.compact_if_large().unwrap());
    let left = std::fs::read_to_string(store.path()).unwrap();
    let drafts: Vec<&str> = left
        .lines()
        .filter(|l| l.contains("\"progress\""))
        .collect();
    assert_eq!(drafts.len(), 1, "{drafts:?}");
    assert!(drafts[0].contains("aaaa0002 299"));
    let history = store.read().unwrap();
    assert_eq!(history.asks.len(), 2);
    assert_eq!(history.asks[1].draft, Some(json!({"text": "aaaa0002 299"})));
}

/// The trial: one ask with a 50 MB prompt made a 168 MB history that every start read. A big
/// payload or result is kept in a file of its own beside the history, which stays small, and is
/// read back whole when the ask is reopened or shown.
#[test]
fn big_payloads_and_results_are_kept_beside_the_history_and_read_back_whole() {
    let (_dir, store) = store();
    let prompt = "why ".repeat(600_000); // 2.4 MB
    let payload =
        json!({"questions":[{"id":"q","prompt":prompt,"options":[{"value":"a","label":"A"}]}]});
    let recorder = Recorder::open(
        &store,
        OpenAsk {
            source: Source::Tool,
            cwd: "/proj".into(),
            title: None,
            payload: &payload,
            origin: Origin::default(),
        },
    )
    .unwrap();
    let id = recorder.id().to_owned();
    let form = pi_ask::input::validate_payload(&payload).unwrap();
    let result = pi_ask::result::needs_input_result(&form);
    recorder.end(&result, false).unwrap();
    let size = std::fs::metadata(store.path()).unwrap().len();
    assert!(
        size < 4096,
        "the history line holds only references: {size} bytes"
    );
    let history = store.read().unwrap();
    let ask = &history.asks[0];
    assert_eq!(ask.opened.id, id);
    assert!(pi_ask::stores::history::blob_name(&ask.opened.payload, &id, "payload").is_some());
    assert_eq!(
        store.resolve(&ask.opened.payload, &id, "payload").unwrap(),
        payload
    );
    let ended = store
        .resolve(&ask.ended.as_ref().unwrap().result, &id, "result")
        .unwrap();
    assert_eq!(ended, serde_json::to_value(&result).unwrap());
}

/// Compaction drops the blobs of the asks it drops, and rewrites a history that is a link where
/// it points (it used to replace the link with a file).
#[test]
fn compaction_removes_dropped_blobs_and_keeps_a_linked_history_linked() {
    let (dir, store) = store();
    let big = json!({"questions":[{"id":"q","prompt":"x".repeat(300_000),"options":[{"value":"a","label":"A"}]}]});
    // One big ask first, then enough small ones to compact it away.
    let first = Recorder::open(
        &store,
        OpenAsk {
            source: Source::Tool,
            cwd: "/proj".into(),
            title: None,
            payload: &big,
            origin: Origin::default(),
        },
    )
    .unwrap();
    let first_id = first.id().to_owned();
    drop(first);
    let blobs = store.path().parent().unwrap().join("blobs");
    assert!(blobs.join(format!("{first_id}.payload.json")).exists());
    let mut text = std::fs::read_to_string(store.path()).unwrap();
    for i in 0..KEEP_ASKS + KEEP_ASKS / 4 {
        text.push_str(
            &serde_json::to_string(&opened(&format!("{i:08x}"), Source::Tool, 7)).unwrap(),
        );
        text.push('\n');
    }
    // The history lives elsewhere, linked from its usual name.
    let real = dir.path().join("real-history.jsonl");
    std::fs::write(&real, text).unwrap();
    std::fs::remove_file(store.path()).unwrap();
    std::os::unix::fs::symlink(&real, store.path()).unwrap();
    assert!(store.compact_if_large().unwrap());
    assert!(
        std::fs::symlink_metadata(store.path())
            .unwrap()
            .file_type()
            .is_symlink(),
        "still a link"
    );
    assert_eq!(store.read().unwrap().asks.len(), KEEP_ASKS);
    assert!(
        !blobs.join(format!("{first_id}.payload.json")).exists(),
        "its blob went with it"
    );
}

/// A payload key is never a blob reference: a valid payload with an extra top-level
/// `"piAskBlob": "<another ask's blob>"` showed (and reopened) that other ask's form.
#[test]
fn a_piaskblob_key_in_a_payload_never_shows_another_asks_form() {
    let (_dir, store) = store();
    let open = |payload: &serde_json::Value| {
        Recorder::open(
            &store,
            OpenAsk {
                source: Source::Tool,
                cwd: "/proj".into(),
                title: None,
                payload,
                origin: Origin::default(),
            },
        )
        .unwrap()
        .id()
        .to_owned()
    };
    let secret = json!({"questions":[{"id":"q","prompt":"secret ".repeat(100_000),"options":[{"value":"a","label":"A"}]}]});
    let secret_id = open(&secret);
    let planted = json!({"questions":[{"id":"q","prompt":"Mine?","options":[{"value":"a","label":"A"}]}],
        "piAskBlob": format!("{secret_id}.payload.json"), "bytes": 10});
    let planted_id = open(&planted);
    let history = store.read().unwrap();
    let recorded = &history
        .asks
        .iter()
        .find(|a| a.opened.id == planted_id)
        .unwrap()
        .opened
        .payload;
    assert_eq!(
        store.resolve(recorded, &planted_id, "payload").unwrap(),
        planted
    );
    // Even a value shaped exactly as a reference names only its own ask's blob.
    let shaped = json!({"piAskBlob": format!("{secret_id}.payload.json"), "bytes": 10});
    assert_eq!(
        store.resolve(&shaped, &planted_id, "payload").unwrap(),
        shaped
    );
}
