//! pi session files, read-only: the current branch, and what replay, resume and answer find on it.

use std::path::{Path, PathBuf};

use pi_ask::stores::pi_session::{
    self, SessionFile, TurnError, latest_assistant_turn, latest_extracted_form, latest_tool_form,
    pending_call,
};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/sessions")
        .join(name)
}

fn read(name: &str) -> SessionFile {
    pi_session::read_session(&fixture(name)).unwrap()
}

fn ids(file: &SessionFile) -> Vec<String> {
    file.branch()
        .iter()
        .map(|e| e.id.clone().unwrap_or_default())
        .collect()
}

#[test]
fn the_branch_is_the_path_from_the_last_entry_and_skips_bad_lines() {
    let file = read("two-branches.jsonl");
    assert_eq!(file.id, "0d6f2c1e-branches");
    assert_eq!(file.version, 3);
    assert_eq!(file.skipped_lines, 2, "a garbage line and a torn last line");
    assert_eq!(ids(&file), ["m1", "u2", "a2", "p2", "r2", "k1", "a3", "c1"]);
}

#[test]
fn resume_finds_only_the_current_branchs_unresolved_call() {
    let file = read("two-branches.jsonl");
    let branch = file.branch();
    let pending = pending_call(&branch, &|_| false).expect("call-3 is unresolved");
    assert_eq!(
        pending.tool_call_id, "call-3",
        "call-1 is on a sibling branch"
    );
    assert!(
        !pending.form.stored,
        "no stored payload: the call's arguments"
    );
    assert_eq!(pending.form.form.questions[0].id, "deploy");
    // Dismissed in pi-ask's history: nothing else is pending (call-2 has its result).
    assert!(pending_call(&branch, &|id| id == "call-3").is_none());
}

#[test]
fn replay_takes_the_newest_valid_stored_payload_on_the_branch() {
    let file = read("two-branches.jsonl");
    let found = latest_tool_form(&file.branch()).unwrap();
    assert!(found.stored);
    assert_eq!(found.tool_call_id.as_deref(), Some("call-2"));
    assert_eq!(found.form.title.as_deref(), Some("Billing"));
}

#[test]
fn stored_payloads_win_invalid_or_unknown_versions_fall_back_and_dismissals_hide_from_resume() {
    let file = read("dismissed.jsonl");
    let branch = file.branch();
    // call-3: its payload is invalid, a version-99 one is ignored, and it was dismissed in pi.
    // call-2: its arguments are invalid and it has no payload. call-1 remains, from its payload.
    let pending = pending_call(&branch, &|_| false).unwrap();
    assert_eq!(pending.tool_call_id, "call-1");
    assert!(pending.form.stored);
    // Replay still works on dismissed calls: the newest valid stored tool payload is call-1's
    // (call-3's is invalid), so the branch's newest real form is the auth one.
    let replay = latest_tool_form(&branch).unwrap();
    assert_eq!(replay.form.questions[0].id, "auth");
}

#[test]
fn an_incompatible_stored_form_is_reported_as_such() {
    let text = concat!(
        r#"{"type":"session","version":3,"id":"s"}"#,
        "\n",
        r#"{"type":"custom","id":"p1","parentId":null,"customType":"ask:payload","data":{"version":1,"source":"tool","params":{"questions":[]},"sourceEntryId":"c"}}"#,
        "\n"
    );
    let file = pi_session::parse_session(text, Path::new("s.jsonl")).unwrap();
    let missing = latest_tool_form(&file.branch()).unwrap_err();
    assert!(missing.incompatible);
    let empty =
        pi_session::parse_session(r#"{"type":"session","id":"s"}"#, Path::new("e.jsonl")).unwrap();
    assert!(!latest_tool_form(&empty.branch()).unwrap_err().incompatible);
}

#[test]
fn version_1_files_are_one_linear_branch() {
    let file = read("v1-linear.jsonl");
    assert_eq!(file.version, 1);
    assert_eq!(file.branch().len(), 2);
    let pending = pending_call(&file.branch(), &|_| false).unwrap();
    assert_eq!(pending.tool_call_id, "call-1");
}

#[test]
fn answer_reads_the_latest_finished_assistant_message_with_its_user_context() {
    let file = read("answer.jsonl");
    let turn = latest_assistant_turn(&file.branch()).unwrap();
    assert_eq!(turn.entry_id.as_deref(), Some("a1"));
    assert!(turn.text.starts_with("I can set this up two ways."));
    assert!(!turn.text.contains("hmm"), "thinking is not text");
    assert_eq!(
        turn.previous_user.as_deref(),
        Some("Plan the storage layer")
    );
    let again = latest_extracted_form(&file.branch()).unwrap();
    assert!(again.form.questions[0].freeform);

    let incomplete = read("incomplete.jsonl");
    let err = latest_assistant_turn(&incomplete.branch()).unwrap_err();
    assert_eq!(err, TurnError::Incomplete("length".into()));
    assert_eq!(
        err.to_string(),
        "Latest assistant message is incomplete (length); wait for it to finish, then run pi-ask answer again."
    );
    let none = read("v1-linear.jsonl");
    let err = latest_assistant_turn(&none.branch()[..1]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "No assistant message found to extract questions from."
    );
}

#[test]
fn a_file_that_is_not_a_session_gets_a_clear_error() {
    let err = pi_session::read_session(&fixture("not-a-session.jsonl")).unwrap_err();
    assert!(
        err.to_string()
            .contains("is not a pi session file: its first line is not a session header"),
        "{err}"
    );
    let err = pi_session::read_session(&fixture("missing.jsonl")).unwrap_err();
    assert!(err.to_string().starts_with("cannot read "), "{err}");
}

#[test]
fn reading_never_changes_the_file() {
    let path = fixture("two-branches.jsonl");
    let before = std::fs::read(&path).unwrap();
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    let file = pi_session::read_session(&path).unwrap();
    let _ = pending_call(&file.branch(), &|_| false);
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(
        std::fs::metadata(&path).unwrap().modified().unwrap(),
        modified
    );
}

#[test]
fn latest_picks_the_newest_session_of_the_directory_by_modification_time() {
    assert_eq!(pi_session::encode_cwd("/home/u/proj"), "--home-u-proj--");
    assert_eq!(pi_session::encode_cwd("C:\\work\\x"), "--C--work-x--");
    let agent = tempfile::tempdir().unwrap();
    let dir = pi_session::sessions_dir(agent.path(), "/home/u/proj");
    std::fs::create_dir_all(&dir).unwrap();
    let old = dir.join("2026-01-01T00-00-00-000Z_a.jsonl");
    let new = dir.join("2026-01-02T00-00-00-000Z_b.jsonl");
    let bad = dir.join("2026-01-03T00-00-00-000Z_c.jsonl");
    std::fs::write(&old, "{\"type\":\"session\",\"id\":\"a\"}\n").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&new, "{\"type\":\"session\",\"id\":\"b\"}\n").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&bad, "not a header\n").unwrap();
    assert_eq!(pi_session::latest_session_in(&dir).unwrap(), new);
    let err = pi_session::latest_session_in(&agent.path().join("nope"))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("no pi sessions for this directory in "),
        "{err}"
    );
}

#[test]
fn version_2_files_are_trees_like_version_3() {
    let text = concat!(
        r#"{"type":"session","version":2,"id":"v2"}"#,
        "\n",
        r#"{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"x"}}"#,
        "\n",
        r#"{"type":"message","id":"b","parentId":"a","message":{"role":"user","content":"abandoned"}}"#,
        "\n",
        r#"{"type":"message","id":"c","parentId":"a","message":{"role":"user","content":"current"}}"#,
        "\n"
    );
    let file = pi_session::parse_session(text, Path::new("v2.jsonl")).unwrap();
    assert_eq!(file.version, 2);
    assert_eq!(ids(&file), ["a", "c"]);
}
