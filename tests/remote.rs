//! Remote events: validating `submit` against a flow exactly as the original does, and the local
//! socket (permissions, stale sockets, several clients, malformed lines, cleanup).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use common::form;
use pi_ask::model::{External, Intent, Msg};
use pi_ask::remote::RemoteServer;
use pi_ask::remote::protocol::{self, FlowInfo, RemoteResponse, SubmitError, validate_submit};
use serde_json::{Value, json};

fn payload() -> Value {
    json!({"title": "Deploy", "questions": [
        {"id": "env", "label": "Env", "prompt": "Where to?", "options": [
            {"value": "staging", "label": "Staging"},
            {"value": "prod", "label": "Production", "recommended": true}]},
        {"id": "checks", "prompt": "Which checks?", "type": "multi", "options": [
            {"value": "lint", "label": "Lint"}, {"value": "test", "label": "Test"}]}
    ]})
}

const FLOW: &str = "flow:1:abc";

fn submit(response: Value) -> Value {
    json!({"version": 1, "requestId": "r1", "flowId": FLOW, "response": response})
}

fn refused(value: Value) -> SubmitError {
    let form = form(payload());
    validate_submit(&value, FLOW, &form.questions).unwrap_err()
}

fn answer(answers: Value) -> SubmitError {
    refused(submit(json!({"kind": "answer", "answers": answers})))
}

#[test]
fn requests_are_checked_in_the_originals_order_with_its_messages() {
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            json!([1]),
            "invalid_request",
            "Submit event must be an object.",
        ),
        (
            json!({"version": 2}),
            "invalid_request",
            "Submit event version must be 1.",
        ),
        (
            json!({"version": 1, "flowId": FLOW}),
            "invalid_request",
            "Submit event requestId is required.",
        ),
        (
            json!({"version": 1, "requestId": "r"}),
            "invalid_request",
            "Submit event flowId is required.",
        ),
        (
            json!({"version": 1, "requestId": "r", "flowId": "flow:other"}),
            "flow_not_found",
            "Ask flow is not active.",
        ),
        (
            json!({"version": 1, "requestId": "r", "flowId": FLOW}),
            "invalid_request",
            "Submit response must be an object.",
        ),
        (
            submit(json!({"kind": "approve"})),
            "invalid_request",
            r#"Submit response kind must be "answer" or "cancel"."#,
        ),
        (
            submit(json!({"kind": "answer"})),
            "invalid_answer",
            "Answer response must include an answers object.",
        ),
        (
            submit(json!({"kind": "answer", "answers": {}, "mode": "later"})),
            "invalid_answer",
            r#"Answer mode must be "submit" or "elaborate"."#,
        ),
    ];
    for (value, kind, message) in cases {
        let err = refused(value.clone());
        assert_eq!((err.kind(), err.message()), (kind, message), "{value}");
    }
}

#[test]
fn answers_use_ids_and_values_never_labels() {
    let cases: Vec<(Value, &str)> = vec![
        (json!({"nope": {}}), r#"Unknown question id "nope"."#),
        (
            json!({"env": "staging"}),
            r#"Answer for question "env" must be an object."#,
        ),
        (
            json!({"env": {"values": [1]}}),
            r#"Answer values for question "env" must be strings."#,
        ),
        (
            json!({"checks": {"values": ["lint", "lint"]}}),
            r#"Answer values for question "checks" must be unique."#,
        ),
        (
            json!({"env": {"values": ["staging", "prod"]}}),
            r#"Question "env" accepts only one selected value."#,
        ),
        (
            json!({"env": {"values": ["Staging"]}}),
            r#"Unknown option value "Staging" for question "env"."#,
        ),
        (
            json!({"env": {"values": ["approve"]}}),
            r#"Unknown option value "approve" for question "env"."#,
        ),
        (
            json!({"env": {"customText": 5}}),
            r#"Custom text for question "env" must be a string."#,
        ),
        (
            json!({"env": {"values": ["prod"], "customText": "x"}}),
            r#"Question "env" cannot combine a selected value and custom text."#,
        ),
        (
            json!({"env": {"note": []}}),
            r#"Note for question "env" must be a string."#,
        ),
        (
            json!({"env": {"optionNotes": {"prod": 1}}}),
            r#"Option notes for question "env" must be string values."#,
        ),
        (
            json!({"env": {"optionNotes": {"dev": "x"}}}),
            r#"Unknown option note value "dev" for question "env"."#,
        ),
    ];
    for (answers, message) in cases {
        let err = answer(answers.clone());
        assert_eq!(
            (err.kind(), err.message()),
            ("invalid_answer", message),
            "{answers}"
        );
    }
}

#[test]
fn an_accepted_answer_replaces_every_answer_and_recomputes_labels_and_indices() {
    let form = form(payload());
    let value = submit(json!({"kind": "answer", "mode": "elaborate", "answers": {
        "checks": {"values": ["test", "lint"], "customText": "fuzz", "optionNotes": {"lint": "fast"}}
    }}));
    let accepted = validate_submit(&value, FLOW, &form.questions).unwrap();
    let RemoteResponse::Answer { mode, answers } = accepted.response else {
        panic!("an answer")
    };
    assert_eq!(mode, pi_ask::remote::RemoteMode::Elaborate);
    assert!(
        answers[0].selected.is_empty(),
        "env was not answered remotely, so it is empty"
    );
    assert_eq!(answers[1].selected, [1, 0]);
    assert_eq!(answers[1].custom_answer(), Some("fuzz"));

    let mut model = pi_ask::model::Model::new(form, pi_ask::settings::Settings::defaults());
    // Something entered in the UI first: the remote answer replaces it.
    pi_ask::model::update(&mut model, Msg::Intent(Intent::Number(2)));
    let cmds = pi_ask::model::update(
        &mut model,
        Msg::External(External::RemoteAnswer {
            answers,
            elaborate: true,
        }),
    );
    let Some(pi_ask::model::Cmd::Finish(result)) = cmds.into_iter().next() else {
        panic!("finished")
    };
    let details = serde_json::to_value(&result.details).unwrap();
    assert_eq!(details["mode"], "elaborate");
    assert!(details["answers"].get("env").is_none(), "{details}");
    assert_eq!(
        details["answers"]["checks"]["labels"],
        json!(["Test", "Lint", "fuzz"])
    );
    assert_eq!(details["answers"]["checks"]["indices"], json!([2, 1]));

    let cancel =
        validate_submit(&submit(json!({"kind": "cancel"})), FLOW, &form_questions()).unwrap();
    assert_eq!(cancel.response, RemoteResponse::Cancel);
}

fn form_questions() -> Vec<pi_ask::form::Question> {
    form(payload()).questions
}

/// A flow serving its socket, announced, and one client that has read the started event.
fn open_flow() -> (
    tempfile::TempDir,
    RemoteServer,
    Vec<pi_ask::form::Question>,
    Client,
) {
    let dir = private_dir();
    let path = dir.path().join("form.sock");
    let questions = form_questions();
    let server = RemoteServer::bind(&path, flow()).unwrap();
    server.announce(&questions);
    let mut client = Client::connect(&path);
    assert_eq!(client.next()["type"], "started");
    (dir, server, questions, client)
}

fn private_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    dir
}

fn flow() -> FlowInfo {
    FlowInfo {
        flow_id: FLOW.into(),
        tool_call_id: None,
        source: "tool".into(),
        title: Some("Deploy".into()),
    }
}

struct Client {
    reader: BufReader<UnixStream>,
    writer: UnixStream,
}

impl Client {
    fn connect(path: &std::path::Path) -> Client {
        let stream = UnixStream::connect(path).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        Client {
            writer: stream.try_clone().unwrap(),
            reader: BufReader::new(stream),
        }
    }
    fn next(&mut self) -> Value {
        let mut line = String::new();
        self.reader.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
    }
    fn send(&mut self, line: &str) {
        self.writer.write_all(line.as_bytes()).unwrap();
        self.writer.write_all(b"\n").unwrap();
    }
}

/// Polls the server as the form's loop does, until the client has read `replies` replies (or a
/// few seconds pass); returns the messages for the form and the replies.
fn poll_until(
    server: &RemoteServer,
    questions: &[pi_ask::form::Question],
    replies: usize,
    client: &mut Client,
) -> (Vec<Msg>, Vec<Value>) {
    let start = Instant::now();
    let mut msgs = Vec::new();
    let mut seen = Vec::new();
    client
        .reader
        .get_ref()
        .set_read_timeout(Some(Duration::from_millis(20)))
        .unwrap();
    while seen.len() < replies && start.elapsed() < Duration::from_secs(5) {
        msgs.extend(server.poll(questions));
        let mut line = String::new();
        if client.reader.read_line(&mut line).is_ok() && !line.is_empty() {
            seen.push(serde_json::from_str(&line).unwrap());
        }
    }
    (msgs, seen)
}

#[test]
fn two_clients_see_started_and_completed_and_the_socket_is_private_and_removed() {
    let dir = private_dir();
    let path = dir.path().join("form.sock");
    let questions = form_questions();
    let server = RemoteServer::bind(&path, flow()).unwrap();
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let mut early = Client::connect(&path);
    server.announce(&questions);
    let mut late = Client::connect(&path);
    for client in [&mut early, &mut late] {
        let started = client.next();
        assert_eq!(started["type"], "started");
        assert_eq!(started["flowId"], FLOW);
        assert_eq!(started["questions"][0]["options"][1]["recommended"], true);
    }
    // A malformed line, then a valid answer, from the late client.
    late.send("this is not json");
    late.send(
        &submit(json!({"kind": "answer", "answers": {"env": {"values": ["staging"]}}})).to_string(),
    );
    let (msgs, replies) = poll_until(&server, &questions, 2, &mut late);
    assert_eq!(replies[0]["type"], "submit-result");
    assert_eq!(replies[0]["error"], "invalid_request");
    assert_eq!(replies[0]["message"], "Submit event must be an object.");
    assert_eq!(replies[1]["ok"], true);
    assert_eq!(replies[1]["requestId"], "r1");
    assert!(matches!(
        msgs.as_slice(),
        [Msg::External(External::RemoteAnswer {
            elaborate: false,
            ..
        })]
    ));
    assert_eq!(server.accepted_request().as_deref(), Some("r1"));

    let result: pi_ask::result::AskResult = serde_json::from_value(json!({
        "content": [{"type": "text", "text": "Env: Staging"}],
        "details": {"cancelled": false, "mode": "submit", "questions": [], "answers": {}}
    }))
    .unwrap();
    server.complete(&result);
    for client in [&mut early, &mut late] {
        let completed = client.next();
        assert_eq!(completed["type"], "completed");
        assert_eq!(completed["result"]["mode"], "submit", "{completed}");
        assert_eq!(completed["result"]["answers"], json!({}));
    }
    assert!(!path.exists(), "the socket is removed");
}

#[test]
fn a_stale_socket_is_reused_and_anything_else_at_the_path_is_refused() {
    let dir = private_dir();
    let path = dir.path().join("form.sock");
    // A socket whose server died: bound, then its listener dropped without removing the file.
    drop(std::os::unix::net::UnixListener::bind(&path).unwrap());
    assert!(path.exists());
    let server = RemoteServer::bind(&path, flow()).expect("a stale socket is replaced");
    let err = RemoteServer::bind(&path, flow()).err().unwrap().to_string();
    assert!(err.ends_with("another form is listening there"), "{err}");
    drop(server);

    let file = dir.path().join("notes.txt");
    std::fs::write(&file, "keep me").unwrap();
    let err = RemoteServer::bind(&file, flow()).err().unwrap().to_string();
    assert!(err.ends_with("something else is already there"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me");

    let open = tempfile::tempdir().unwrap();
    std::fs::set_permissions(open.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let err = RemoteServer::bind(&open.path().join("s.sock"), flow())
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("must be yours and private (0700)"), "{err}");
}

#[test]
fn a_second_answer_after_the_first_finds_the_flow_finishing() {
    let (_dir, server, questions, mut client) = open_flow();
    client.send(&submit(json!({"kind": "cancel"})).to_string());
    client.send(
        &json!({"version": 1, "requestId": "r2", "flowId": FLOW, "response": {"kind": "cancel"}})
            .to_string(),
    );
    let (msgs, replies) = poll_until(&server, &questions, 2, &mut client);
    assert_eq!(msgs, [Msg::External(External::RemoteCancel)]);
    assert_eq!(replies[0]["ok"], true);
    assert_eq!(replies[1]["error"], "flow_not_found");
}

#[test]
fn started_events_name_the_flow_and_normalized_questions() {
    let event = protocol::started(&flow(), &form_questions(), 42);
    assert_eq!(event["type"], "started");
    assert_eq!(event["version"], 1);
    assert_eq!(event["createdAt"], 42);
    assert_eq!(event["questions"][1]["type"], "multi");
    assert_eq!(event["questions"][1]["label"], "Q2");
    assert_eq!(event["questions"][0]["required"], false);
}

/// Held by the tests that move the process's memory by megabytes, so the flood test, which
/// measures the process's resident memory, never counts another test's buffers as its own.
static MEMORY: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn a_hostile_client_with_a_huge_line_and_invalid_utf8_gets_refusals_and_the_form_stays_open() {
    let _memory = MEMORY.lock().unwrap_or_else(|e| e.into_inner());
    let (_dir, server, questions, mut client) = open_flow();
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..10 {
        client.writer.write_all(&chunk).unwrap();
    }
    client.writer.write_all(b"\n\xff\xfe\x80\n").unwrap();
    client.send(&submit(json!({"kind": "cancel"})).to_string());
    let (msgs, replies) = poll_until(&server, &questions, 3, &mut client);
    assert_eq!(
        replies[0]["message"],
        "Submit event is longer than 1048576 bytes."
    );
    assert_eq!(replies[1]["message"], "Submit event must be an object.");
    assert_eq!(replies[2]["ok"], true, "the form still answers after both");
    assert_eq!(msgs, [Msg::External(External::RemoteCancel)]);
}

/// A misspelled field (`value` for `values`, or `labels`, which pi-ask recomputes) used to be
/// skipped: the submit was accepted and the answer it carried lost. Every level refuses unknown keys.
#[test]
fn unknown_keys_are_refused_at_every_level_naming_the_known_ones() {
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            submit(json!({"kind": "answer", "answers": {"env": {"value": "prod"}}})),
            "invalid_answer",
            r#"Unknown key "value" in the answer for question "env"; known keys: values, customText, note, optionNotes."#,
        ),
        (
            submit(json!({"kind": "answer", "answers": {"env": {"labels": ["Production"]}}})),
            "invalid_answer",
            r#"Unknown key "labels" in the answer for question "env"; known keys: values, customText, note, optionNotes."#,
        ),
        (
            submit(json!({"kind": "answer", "answer": {}, "answers": {}})),
            "invalid_answer",
            r#"Unknown key "answer" in an answer response; known keys: kind, mode, answers."#,
        ),
        (
            submit(json!({"kind": "cancel", "reason": "later"})),
            "invalid_request",
            r#"Unknown key "reason" in a cancel response; known keys: kind."#,
        ),
        (
            json!({"version": 1, "requestId": "r1", "flowId": FLOW, "respones": {},
                   "response": {"kind": "cancel"}}),
            "invalid_request",
            r#"Unknown key "respones" in the submit event; known keys: type, version, requestId, flowId, response."#,
        ),
    ];
    for (value, kind, message) in cases {
        let err = refused(value.clone());
        assert_eq!((err.kind(), err.message()), (kind, message), "{value}");
    }
    // The socket's framing key is part of the envelope.
    let framed = json!({"type": "submit", "version": 1, "requestId": "r1", "flowId": FLOW,
                        "response": {"kind": "cancel"}});
    assert!(validate_submit(&framed, FLOW, &form_questions()).is_ok());
}

fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

/// The trial's flood: a same-user client sending 900 KB lines without reading grew the form to
/// 2.5 GB, and 20 clients that never read delayed a good client's `started` by 20 s. Requests
/// beyond a bound are refused with `busy`, clients beyond a cap are turned away, a client that
/// does not read is disconnected, and a good client is served at once throughout.
#[test]
fn a_flood_of_big_lines_and_non_reading_clients_stays_bounded_and_a_good_client_is_served() {
    use pi_ask::remote::socket::{MAX_CLIENTS, MAX_WAITING_REQUESTS};
    let _memory = MEMORY.lock().unwrap_or_else(|e| e.into_inner());
    let (dir, server, questions, _first) = open_flow();
    let path = dir.path().join("form.sock");
    let before = resident_bytes();
    // Non-reading clients: they connect and never read (up to the cap, with room for two more).
    let idle: Vec<UnixStream> = (0..MAX_CLIENTS - 3)
        .map(|_| UnixStream::connect(&path).unwrap())
        .collect();
    // A flooder: 300 lines of 900 KB, never reading its replies.
    let flooder = {
        let path = path.clone();
        std::thread::spawn(move || {
            let mut stream = UnixStream::connect(&path).unwrap();
            stream
                .set_write_timeout(Some(Duration::from_secs(2)))
                .unwrap();
            let line = format!(
                "{{\"version\":1,\"requestId\":\"{}\",\"flowId\":\"x\"}}\n",
                "r".repeat(900_000)
            );
            let mut sent = 0;
            for _ in 0..300 {
                if stream.write_all(line.as_bytes()).is_err() {
                    break;
                }
                sent += 1;
            }
            sent
        })
    };
    // The form's loop keeps polling meanwhile, as it does on every wake-up.
    let started = Instant::now();
    let mut peak = 0;
    while started.elapsed() < Duration::from_secs(3) {
        let _ = server.poll(&questions);
        peak = peak.max(resident_bytes().saturating_sub(before));
        std::thread::sleep(Duration::from_millis(5));
    }
    // A good client still connects, gets `started` at once and is answered.
    let connected = Instant::now();
    let mut good = Client::connect(&path);
    assert_eq!(good.next()["type"], "started");
    assert!(
        connected.elapsed() < Duration::from_secs(1),
        "{:?}",
        connected.elapsed()
    );
    good.send(&submit(json!({"kind": "cancel"})).to_string());
    let (msgs, replies) = poll_until(&server, &questions, 1, &mut good);
    assert_eq!(replies[0]["ok"], true, "{replies:?}");
    assert_eq!(msgs, [Msg::External(External::RemoteCancel)]);
    let sent = flooder.join().unwrap();
    eprintln!("flooder sent {sent} lines; peak growth {} MB", peak >> 20);
    // Bounded: the waiting requests (32 lines of 900 KB) and buffers, not 300 lines.
    assert!(
        peak < (MAX_WAITING_REQUESTS as u64 * 900_000) * 3,
        "memory grew {} MB",
        peak >> 20
    );
    // Over the cap, a client gets one refusal line and is closed.
    let _more: Vec<UnixStream> = (0..4)
        .map(|_| UnixStream::connect(&path).unwrap())
        .collect();
    let mut refused = Client::connect(&path);
    let line = refused.next();
    assert_eq!(line["error"], "busy", "{line}");
    drop(idle);
}
