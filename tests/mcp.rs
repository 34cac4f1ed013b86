//! `pi-ask mcp` as an MCP client sees it: raw JSON-RPC lines over pipes. The inbox side is played
//! by the queue API here, and by the real `pi-ask inbox` in a pty in the last test.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::mcp::Mcp;
use pi_ask::model::{Cmd, Intent, Model, Msg, ReviewAction, update};
use pi_ask::stores::queue::AskQueue;
use pi_ask::stores::queue::Queue;
use serde_json::{Value, json};

fn payload(prompt: &str) -> Value {
    json!({"questions":[{"id":"env","prompt":prompt,"options":[
        {"value":"staging","label":"Staging"},{"value":"prod","label":"Production"}]}]})
}

/// What a person picking option `n` and submitting would produce.
fn answered(payload: &Value, n: u8) -> Value {
    let form = pi_ask::input::validate_payload(payload).unwrap();
    let mut model = Model::new(form, pi_ask::settings::Settings::defaults());
    update(&mut model, Msg::Intent(Intent::Number(n)));
    let cmds = update(
        &mut model,
        Msg::Intent(Intent::Review(ReviewAction::Submit)),
    );
    let Some(Cmd::Finish(result)) = cmds.into_iter().next() else {
        panic!("finished")
    };
    serde_json::to_value(*result).unwrap()
}

#[test]
fn tools_list_offers_ask_user_with_its_schema_and_guidance() {
    let mut mcp = Mcp::start(&[]);
    mcp.send(json!({"jsonrpc":"2.0","id":1,"method":"tools/list"}));
    let list = mcp.response(1);
    let tools = list["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0]["name"], "ask_user");
    assert_eq!(tools[0]["inputSchema"]["type"], "object");
    assert!(tools[0]["inputSchema"]["properties"]["questions"].is_object());
    let description = tools[0]["description"].as_str().unwrap();
    assert!(
        description.contains("Do not ask when"),
        "the skill's guidance is included"
    );
    // Written for a model calling it over MCP: its answers are in structuredContent, and the
    // skill authors' evaluation section is not a model's business.
    assert!(
        description.contains("`structuredContent.cancelled: true`"),
        "{description}"
    );
    assert!(!description.contains("`details."), "{description}");
    assert!(!description.contains("Evaluation cases"), "{description}");
}

/// `--tool-name` lists the tool under another name and answers calls of that name only; a name
/// hosts would not accept is refused before the server starts.
#[test]
fn the_tool_can_go_by_another_name() {
    let mut mcp = Mcp::start(&["--tool-name", "ask_person"]);
    mcp.send(json!({"jsonrpc":"2.0","id":1,"method":"tools/list"}));
    assert_eq!(mcp.response(1)["result"]["tools"][0]["name"], "ask_person");
    mcp.send(json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask_user","arguments":payload("Where to?")}}));
    assert!(mcp.response(2)["error"].is_object(), "only its own name");
    mcp.send(json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ask_person","arguments":payload("Where to?")}}));
    let ask = mcp.queued(1).remove(0);
    let claim = mcp.queue.claim(&ask.id).unwrap().unwrap();
    mcp.queue.answer(claim, &answered(&ask.payload, 1)).unwrap();
    assert_eq!(
        mcp.response(3)["result"]["structuredContent"]["outcome"],
        "answered"
    );
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["mcp", "--tool-name", "ask user"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("a tool name is 1 to 64"));
}

/// `pi-ask mcp --help` says the timeout's default as it is (1800 s from the config's default).
#[test]
fn mcp_help_says_the_timeout_default() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["mcp", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("1800"), "{help}");
    assert!(!help.contains("; none)"), "{help}");
}

#[test]
fn a_call_is_queued_answered_by_the_inbox_and_returned_with_its_details() {
    let mut mcp = Mcp::start(&[]);
    let p = payload("Where to?");
    mcp.call(1, p.clone());
    let queued = mcp.queued(1);
    assert_eq!(queued[0].client, "test-host 9");
    let claim = mcp.queue.claim(&queued[0].id).unwrap().unwrap();
    mcp.queue.answer(claim, &answered(&p, 2)).unwrap();
    let response = mcp.response(1);
    let result = &response["result"];
    assert_eq!(result["isError"], false);
    assert_eq!(result["content"][0]["text"], "Q1: Production");
    assert_eq!(
        result["structuredContent"]["answers"]["env"]["values"][0],
        "prod"
    );
    assert_eq!(result["structuredContent"]["cancelled"], false);
}

#[test]
fn an_invalid_payload_is_an_error_result_with_the_invalid_input_details() {
    let mut mcp = Mcp::start(&[]);
    mcp.call(1, json!({"questions": []}));
    let result = &mcp.response(1)["result"];
    assert_eq!(result["isError"], true);
    assert!(
        result["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Invalid ask_user payload:")
    );
    assert_eq!(
        result["structuredContent"]["error"]["kind"],
        "invalid_input"
    );
    assert!(mcp.queue.pending().is_empty(), "nothing queued");
}

#[test]
fn a_cancelled_call_withdraws_its_ask() {
    let mut mcp = Mcp::start(&[]);
    mcp.call(7, payload("Where to?"));
    let id = mcp.queued(1)[0].id.clone();
    mcp.send(json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}));
    let deadline = Instant::now() + Duration::from_secs(10);
    while !mcp.queue.is_withdrawn(&id) {
        assert!(Instant::now() < deadline, "not withdrawn");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(mcp.queue.pending().is_empty());
}

/// Issue 42: the official SDKs end a server by closing its standard input, then SIGTERM two
/// seconds later. The ask stayed queued (and an inbox kept showing it) after its asker was gone.
/// Closed input and SIGTERM, SIGINT or SIGHUP withdraw the server's asks at once.
#[test]
fn a_host_that_quits_takes_its_waiting_asks_back_at_once() {
    let withdrawn_soon = |mcp: &Mcp, id: &str, how: &str| {
        let deadline = Instant::now() + Duration::from_secs(1);
        while !mcp.queue.is_withdrawn(id) {
            assert!(Instant::now() < deadline, "{how}: still queued after 1 s");
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(mcp.queue.pending().is_empty(), "{how}");
    };
    let mut mcp = Mcp::start(&[]);
    mcp.call(7, payload("Where to?"));
    let id = mcp.queued(1)[0].id.clone();
    mcp.stdin = None;
    withdrawn_soon(&mcp, &id, "standard input closed");
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        let mut mcp = Mcp::start(&[]);
        mcp.call(7, payload("Where to?"));
        let id = mcp.queued(1)[0].id.clone();
        unsafe { libc::kill(mcp.child.id() as i32, signal) };
        withdrawn_soon(&mcp, &id, &format!("signal {signal}"));
        let status = mcp.child.wait().unwrap();
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status)
                .or(status.code().map(|c| c - 128)),
            Some(signal),
            "ends as the signal said"
        );
    }
}

#[test]
fn an_unanswered_call_times_out_as_cancelled_with_a_clear_text() {
    let mut mcp = Mcp::start(&["--timeout", "1"]);
    mcp.call(1, payload("Where to?"));
    let result = &mcp.response(1)["result"];
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("No answer from pi-ask inbox within 1 s; the ask was withdrawn."),
        "{text}"
    );
    assert!(text.contains("Where to?"), "{text}");
    assert_eq!(result["structuredContent"]["cancelled"], true);
    // Told apart from a person's cancel in the structured result too (all some hosts pass on).
    assert_eq!(result["structuredContent"]["outcome"], "timed_out");
    assert!(text.ends_with(&format!(
        "\n\nNext: {}",
        result["structuredContent"]["next"].as_str().unwrap()
    )));
    assert!(mcp.queue.pending().is_empty());
}

#[test]
fn twenty_concurrent_calls_are_all_answered_none_lost() {
    let mut mcp = Mcp::start(&[]);
    for i in 0..20 {
        mcp.call(100 + i, payload(&format!("Question {i}?")));
    }
    let queued = mcp.queued(20);
    for ask in &queued {
        let n = if ask.payload["questions"][0]["prompt"]
            .as_str()
            .unwrap()
            .len()
            % 2
            == 0
        {
            1
        } else {
            2
        };
        let claim = mcp.queue.claim(&ask.id).unwrap().unwrap();
        mcp.queue.answer(claim, &answered(&ask.payload, n)).unwrap();
    }
    for i in 0..20 {
        let response = mcp.response(100 + i);
        let prompt = response["result"]["structuredContent"]["questions"][0]["prompt"].clone();
        assert_eq!(
            prompt,
            format!("Question {i}?"),
            "each call gets its own answer"
        );
    }
}

#[test]
fn the_real_inbox_in_a_pty_answers_an_mcp_call() {
    let mut mcp = Mcp::start(&[]);
    mcp.call(1, payload("Deploy where?"));
    let queue_dir = mcp.queue.dir().to_str().unwrap().to_owned();
    let mut inbox =
        common::pty::Session::start(&["inbox", "--once", "--queue", &queue_dir], |_| {});
    inbox.wait_for("test-host 9 · ");
    inbox.send("\r");
    inbox.wait_for("ask from test-host 9");
    inbox.wait_for("Type your own");
    inbox.send("1");
    inbox.wait_for("Review");
    inbox.send("\r");
    let result = &mcp.response(1)["result"];
    assert_eq!(
        result["structuredContent"]["answers"]["env"]["values"][0],
        "staging"
    );
    assert_eq!(inbox.wait_exit(), 0);
}

#[test]
fn a_hostile_client_with_huge_and_broken_lines_does_not_stop_the_server() {
    let mut mcp = Mcp::start(&[]);
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..10 {
        mcp.stdin.as_mut().unwrap().write_all(&chunk).unwrap();
    }
    mcp.stdin
        .as_mut()
        .unwrap()
        .write_all(b"\n\xff\xfe not json\n{\"jsonrpc\":\"2.0\",\"id\":5}\n")
        .unwrap();
    mcp.stdin.as_mut().unwrap().flush().unwrap();
    mcp.send(json!({"jsonrpc":"2.0","id":9,"method":"tools/list"}));
    let list = mcp.response(9);
    assert_eq!(
        list["result"]["tools"][0]["name"], "ask_user",
        "still serving: {list}"
    );
}

/// A call over the 16 MiB a message may be is not read, yet answered: an error with its id that
/// names the limit, so the agent's call ends instead of waiting forever. The official TypeScript
/// SDK writes the id last, after the params.
#[test]
fn a_call_too_long_to_read_is_answered_with_an_error_naming_the_limit() {
    let mut mcp = Mcp::start(&[]);
    let prompt = "p".repeat(17 * 1024 * 1024);
    let call = json!({"method":"tools/call","params":{"name":"ask_user","arguments":payload(&prompt)},"jsonrpc":"2.0","id":41});
    mcp.send(call);
    let reply = mcp.response(41);
    assert_eq!(reply["error"]["code"], -32600, "{reply}");
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(message.contains("maxAskBytes"), "{message}");
    assert!(message.contains("16777216 bytes"), "{message}");
    // Nothing was queued, and the server goes on serving.
    assert!(mcp.queue.pending().is_empty());
    mcp.send(json!({"jsonrpc":"2.0","id":42,"method":"tools/list"}));
    assert_eq!(mcp.response(42)["result"]["tools"][0]["name"], "ask_user");
}

/// Progress while the call waits says what is happening: no inbox running (and how to start
/// one), then, once an inbox watches, that the answer is awaited there.
#[test]
fn a_client_that_asks_for_progress_gets_it_while_the_call_waits() {
    let mut mcp = Mcp::start(&["--progress-every", "0.2"]);
    mcp.send(
        json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{
        "name":"ask_user","arguments":payload("Where to?"),"_meta":{"progressToken":"tok"}}}),
    );
    let next_progress = |mcp: &mut Mcp| {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let value = mcp
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
                .expect("progress");
            if value["method"] == "notifications/progress" {
                assert_eq!(value["params"]["progressToken"], "tok");
                return value["params"]["message"].as_str().unwrap().to_owned();
            }
        }
    };
    let message = next_progress(&mut mcp);
    assert!(
        message.starts_with("no inbox is running: start `pi-ask inbox` in a terminal"),
        "{message}"
    );
    // An inbox starts watching (this test process announces itself as one).
    let presence = mcp.queue.announce_inbox().unwrap();
    let message = loop {
        let message = next_progress(&mut mcp);
        if !message.starts_with("no inbox") {
            break message;
        }
    };
    assert!(
        message.starts_with("waiting for an answer in pi-ask inbox"),
        "{message}"
    );
    drop(presence);
    let ask = mcp.queued(1).remove(0);
    let claim = mcp.queue.claim(&ask.id).unwrap().unwrap();
    mcp.queue.answer(claim, &answered(&ask.payload, 1)).unwrap();
    assert_eq!(mcp.response(1)["result"]["isError"], false);
}

/// No inbox running: the notification command fires once for asks queued close together,
/// with the first question and what to do, and the server's log says where asks go.
#[test]
fn with_no_inbox_running_the_person_is_notified_once() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("notified");
    let config = dir.path().join("pi-ask.toml");
    let toml = format!(
        r#"schemaVersion = 5

[notifications]
channels = [{{ type = "command", command = "echo \"$ASK_NOTIFY_EVENT|$ASK_NOTIFY_TITLE|$ASK_NOTIFY_MESSAGE\" >> '{}'" }}]
"#,
        log.display()
    );
    std::fs::write(&config, toml).unwrap();
    let mut mcp = Mcp::start(&["--config", config.to_str().unwrap()]);
    mcp.call(1, payload("Where to deploy?"));
    mcp.call(2, payload("Which region?"));
    mcp.queued(2);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !log.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let said = std::fs::read_to_string(&log).expect("the command channel ran");
    assert_eq!(
        said.lines().collect::<Vec<_>>(),
        [
            "question.waiting|pi ask|Question waiting: Where to deploy? (no inbox is running: start `pi-ask inbox` in a terminal)"
        ],
        "{said}"
    );
}

fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    // utime and stime: fields 14 and 15 of stat, 12 and 13 after the command.
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// The trial's MCP floods: 15 MB calls (1.27 GB of memory), a thousand waiting calls (17.6% of a
/// core while idle, each polling every 20 ms). Calls over the size limit or the waiting limit get
/// an error result naming it; the calls that wait cost almost nothing while idle (one watcher).
#[test]
fn oversized_and_excess_calls_are_refused_by_name_and_waiting_calls_idle_cheaply() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pi-ask.toml");
    std::fs::write(&config, "schemaVersion = 5\n[mcp]\nmaxWaitingCalls = 40\n").unwrap();
    let mut mcp = Mcp::start(&["--config", config.to_str().unwrap()]);
    let huge = payload(&"x".repeat(5 * 1024 * 1024));
    mcp.call(1, huge);
    let result = &mcp.response(1)["result"];
    assert_eq!(result["isError"], true, "{result}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("over pi-ask's limit of 4194304 bytes ([mcp] maxAskBytes)"),
        "{text}"
    );

    for i in 0..40 {
        mcp.call(100 + i, payload(&format!("Question {i}?")));
    }
    mcp.queued(40);
    mcp.call(200, payload("One too many?"));
    let result = &mcp.response(200)["result"];
    assert_eq!(result["isError"], true, "{result}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("([mcp] maxWaitingCalls)"), "{text}");

    // Forty calls waiting: the server's CPU over two idle seconds.
    let pid = mcp.child.id();
    let before = cpu_ticks(pid);
    std::thread::sleep(Duration::from_secs(2));
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as u64;
    let used = cpu_ticks(pid) - before;
    eprintln!("idle CPU with 40 waiting calls: {used} ticks of {per_second}/s over 2 s");
    assert!(
        used * 100 < 2 * per_second * 5,
        "more than 5% of a core: {used} ticks"
    );

    // And each waiting call still gets its own answer.
    let asks = mcp.queue.pending();
    let first = asks
        .iter()
        .find(|a| a.payload["questions"][0]["prompt"] == "Question 0?")
        .unwrap();
    let claim = mcp.queue.claim(&first.id).unwrap().unwrap();
    mcp.queue
        .answer(claim, &answered(&first.payload, 2))
        .unwrap();
    let response = mcp.response(100);
    assert_eq!(
        response["result"]["structuredContent"]["answers"]["env"]["values"][0],
        "prod"
    );
}

fn two_questions() -> Value {
    json!({"title": "Deploy", "questions": [
        {"id": "env", "prompt": "Where to?", "options": [
            {"value": "staging", "label": "Staging"}, {"value": "prod", "label": "Production", "recommended": true}]},
        {"id": "checks", "type": "multi", "prompt": "Which checks?", "options": [
            {"value": "lint", "label": "Lint"}, {"value": "test", "label": "Tests"}]}]})
}

/// No inbox takes the ask within the grace period: a host that offers its own form gets one
/// `elicitation/create` request; the person's reply there is the call's answer, with `details`
/// as the contract builds them.
#[test]
fn a_host_with_its_own_form_answers_when_no_inbox_takes_the_ask() {
    let mut mcp = Mcp::start_with(&["--elicit-after", "0.2"], json!({"elicitation": {}}));
    mcp.call(1, two_questions());
    let request = mcp.host_form();
    let params = &request["params"];
    assert_eq!(params["mode"], "form");
    assert!(params["message"].as_str().unwrap().starts_with("Deploy\n"));
    let schema = &params["requestedSchema"]["properties"];
    assert_eq!(
        schema["env"]["oneOf"][1]["title"],
        "Production (recommended)"
    );
    assert_eq!(schema["checks"]["type"], "array");
    // While the host's form is open, an inbox is still offered the ask (first to claim wins).
    assert_eq!(mcp.queue.pending().len(), 1);
    mcp.reply(
        &request,
        json!({"action": "accept", "content": {
        "env": "prod", "env_note": "after 6pm", "checks": ["test"], "checks_own": "smoke"}}),
    );
    let reply = mcp.response(1);
    let details = &reply["result"]["structuredContent"];
    assert_eq!(details["cancelled"], false, "{reply}");
    assert_eq!(details["outcome"], "answered", "{reply}");
    assert!(details.get("next").is_none(), "{reply}");
    assert_eq!(details["answers"]["env"]["values"], json!(["prod"]));
    assert_eq!(details["answers"]["env"]["note"], "after 6pm");
    assert_eq!(
        details["answers"]["checks"]["values"],
        json!(["test", "smoke"])
    );
    // Only one request was sent, and nothing is left in the queue.
    assert!(
        mcp.server_request("elicitation/create", Duration::from_millis(300))
            .is_none()
    );
    assert!(mcp.queue.waiting().is_empty());
}

/// A host's form (or the model behind it) that answers with labels instead of values: the labels
/// are read as their options, and what matches none is kept as the person's words and named on
/// stderr (it became "(no answer)").
#[test]
fn a_hosts_form_answering_with_labels_is_read_and_the_rest_is_kept() {
    let mut mcp = Mcp::start_logged(&["--elicit", "always"], json!({"elicitation": {}}));
    mcp.call(1, two_questions());
    let request = mcp.host_form();
    mcp.reply(
        &request,
        json!({"action": "accept",
        "content": {"env": "Production", "checks": ["Lint", "fuzzing"]}}),
    );
    let details = mcp.response(1)["result"]["structuredContent"].clone();
    assert_eq!(details["cancelled"], false);
    assert_eq!(details["answers"]["env"]["values"], json!(["prod"]));
    assert_eq!(
        details["answers"]["checks"]["values"],
        json!(["lint", "fuzzing"])
    );
    assert_eq!(details["answers"]["checks"]["customText"], "fuzzing");
    let said = mcp.stderr_after_close();
    assert!(
        said.contains("the host's form gave checks: \"fuzzing\", no option's value or label"),
        "{said}"
    );
}

/// The ask ends while the host's form is open (here its time runs out): the form is cancelled
/// (`notifications/cancelled` for the elicitation request, it stayed open), and an answer the
/// host sends anyway is said on stderr instead of vanishing.
#[test]
fn the_hosts_form_is_cancelled_when_the_ask_ends_and_a_late_answer_is_said() {
    let mut mcp = Mcp::start_logged(
        &["--elicit", "always", "--timeout", "1"],
        json!({"elicitation": {}}),
    );
    mcp.call(1, two_questions());
    let request = mcp.host_form();
    let response = mcp.response(1);
    assert!(
        response["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("No answer from pi-ask inbox within 1 s"),
        "{response}"
    );
    let cancelled = mcp
        .notification("notifications/cancelled", Duration::from_secs(5))
        .expect("the host's form is cancelled");
    assert_eq!(cancelled["params"]["requestId"], request["id"]);
    mcp.reply(
        &request,
        json!({"action": "accept",
        "content": {"env": "prod"}}),
    );
    let said = mcp.stderr_after_close();
    assert!(
        said.contains("the host's form answered after the ask had ended; that answer was not used"),
        "{said}"
    );
}

#[test]
fn declining_or_cancelling_the_hosts_form_is_a_cancelled_result() {
    for action in ["decline", "cancel"] {
        let mut mcp = Mcp::start_with(&["--elicit", "always"], json!({"elicitation": {}}));
        mcp.call(1, two_questions());
        let request = mcp.host_form();
        // A person reads the form before declining it (one declined at once is the host's own).
        std::thread::sleep(Duration::from_millis(1100));
        mcp.reply(&request, json!({"action": action}));
        let response = mcp.response(1);
        let details = response["result"]["structuredContent"].clone();
        assert_eq!(details["cancelled"], true, "{action}: {details}");
        assert_eq!(details["answers"], json!({}), "{action}");
        // The model is told which it was (every cancel used to read the same), and what next,
        // in the text and in the structured result (all that some hosts hand the model).
        let text = response["result"]["content"][0]["text"].as_str().unwrap();
        let (said, outcome) = match action {
            "decline" => (
                "User cancelled the ask flow: they declined the host's form.",
                "declined",
            ),
            _ => (
                "User cancelled the ask flow: they closed the host's form without answering.",
                "cancelled",
            ),
        };
        let next = details["next"].as_str().expect("what next");
        assert_eq!(text, format!("{said}\n\nNext: {next}"));
        assert_eq!(details["outcome"], outcome);
        assert!(next.contains("do not assume answers"), "{next}");
    }
}

/// A host with nobody at its form (headless) declines it at once: the ask is not ended by that.
/// It waits in the queue, an inbox's answer is the call's answer, and the host is not sent a form
/// again.
#[test]
fn a_form_the_host_declines_at_once_leaves_the_ask_to_the_inbox() {
    let mut mcp = Mcp::start_logged(&["--elicit", "always"], json!({"elicitation": {}}));
    mcp.call(1, two_questions());
    let request = mcp.host_form();
    mcp.reply(&request, json!({"action": "decline"}));
    let ask = mcp.queued(1).remove(0);
    std::thread::sleep(Duration::from_millis(300));
    let claim = mcp
        .queue
        .claim(&ask.id)
        .unwrap()
        .expect("still waiting for an inbox");
    mcp.queue.answer(claim, &answered(&ask.payload, 1)).unwrap();
    let details = mcp.response(1)["result"]["structuredContent"].clone();
    assert_eq!(details["cancelled"], false, "{details}");
    assert_eq!(details["outcome"], "answered");
    mcp.call(2, two_questions());
    assert!(
        mcp.server_request("elicitation/create", Duration::from_millis(800))
            .is_none(),
        "no second form"
    );
    let ask = mcp.queued(1).remove(0);
    let claim = mcp.queue.claim(&ask.id).unwrap().unwrap();
    mcp.queue.answer(claim, &answered(&ask.payload, 2)).unwrap();
    assert_eq!(mcp.response(2)["result"]["isError"], false);
    let said = mcp.stderr_after_close();
    assert!(
        said.contains("the host declined its form at once"),
        "{said}"
    );
}

/// An inbox has the ask open (claimed, not answered) while the host's form shows it too: the
/// form's answer comes first and wins. The ask is taken back from the inbox with the reason, so
/// it closes saying so, and its late answer goes nowhere.
#[test]
fn the_hosts_form_answering_first_wins_over_an_inbox_that_has_the_ask_open() {
    let mut mcp = Mcp::start_logged(&["--elicit", "always"], json!({"elicitation": {}}));
    mcp.call(1, two_questions());
    let request = mcp.host_form();
    let ask = mcp.queued(1).remove(0);
    let claim = mcp
        .queue
        .claim(&ask.id)
        .unwrap()
        .expect("the inbox opens it");
    mcp.reply(
        &request,
        json!({"action": "accept", "content": {"env": "staging"}}),
    );
    let details = mcp.response(1)["result"]["structuredContent"].clone();
    assert_eq!(
        details["answers"]["env"]["values"],
        json!(["staging"]),
        "{details}"
    );
    assert!(mcp.queue.is_withdrawn(&ask.id));
    assert_eq!(
        mcp.queue.withdrawn_because(&ask.id),
        Some(pi_ask::stores::queue::WithdrawnBecause::AnsweredInHostForm)
    );
    assert_eq!(
        mcp.queue.answer(claim, &answered(&ask.payload, 2)).ok(),
        Some(pi_ask::stores::queue::Delivery::TooLate),
        "the inbox's late answer goes nowhere"
    );
    let said = mcp.stderr_after_close();
    assert!(said.contains("answered in the host's form first"), "{said}");
}

/// The real inbox in a pty has the ask open when the host's form answers: the inbox closes the
/// form and says the ask was answered in the host's own form.
#[test]
fn the_real_inbox_closes_an_ask_the_hosts_form_answered_first() {
    let mut mcp = Mcp::start_with(&["--elicit", "always"], json!({"elicitation": {}}));
    mcp.call(1, two_questions());
    let request = mcp.host_form();
    let queue_dir = mcp.queue.dir().to_str().unwrap().to_owned();
    let mut inbox =
        common::pty::Session::start(&["inbox", "--once", "--queue", &queue_dir], |_| {});
    inbox.wait_for("test-host 9 · ");
    inbox.send("\r");
    inbox.wait_for("Type your own");
    mcp.reply(
        &request,
        json!({"action": "accept", "content": {"env": "prod"}}),
    );
    let details = mcp.response(1)["result"]["structuredContent"].clone();
    assert_eq!(details["answers"]["env"]["values"], json!(["prod"]));
    inbox.wait_for("answered in the agent host's own form first");
    assert_eq!(inbox.wait_exit(), 0);
}

/// An inbox that takes the ask within the grace period wins: the host is never asked. A client
/// without the capability is never asked either, and its ask waits for the inbox as before.
#[test]
fn an_inbox_in_time_or_a_host_without_a_form_means_no_elicitation() {
    let mut mcp = Mcp::start_with(&["--elicit-after", "1.5"], json!({"elicitation": {}}));
    mcp.call(1, two_questions());
    let ask = mcp.queued(1).remove(0);
    let claim = mcp.queue.claim(&ask.id).unwrap().unwrap();
    std::thread::sleep(Duration::from_millis(1800));
    mcp.queue.answer(claim, &answered(&ask.payload, 1)).unwrap();
    assert_eq!(
        mcp.response(1)["result"]["structuredContent"]["cancelled"],
        false
    );
    assert!(
        mcp.server_request("elicitation/create", Duration::from_millis(300))
            .is_none()
    );

    let mut mcp = Mcp::start(&["--elicit", "always"]);
    mcp.call(1, two_questions());
    assert!(
        mcp.server_request("elicitation/create", Duration::from_millis(800))
            .is_none()
    );
    let ask = mcp.queued(1).remove(0);
    let claim = mcp.queue.claim(&ask.id).unwrap().unwrap();
    mcp.queue.answer(claim, &answered(&ask.payload, 2)).unwrap();
    assert_eq!(mcp.response(1)["result"]["isError"], false);
}

/// Many askers, one inbox: ten servers with two calls each. Every ask is shown once, in the
/// order the asks arrived, and each answer reaches its own caller.
#[test]
fn ten_servers_with_two_calls_each_are_answered_by_one_inbox_each_answer_to_its_caller() {
    let shared = tempfile::tempdir().unwrap();
    let queue = Queue::open(shared.path().join("queue")).unwrap();
    let mut servers: Vec<Mcp> = (0..10)
        .map(|_| {
            Mcp::start_on(
                tempfile::tempdir().unwrap(),
                queue.clone(),
                &["--elicit", "never"],
                json!({}),
            )
        })
        .collect();
    let ask_of = |s: usize, c: u64| {
        json!({"questions": [{"id": "pick", "prompt": format!("Ask {s}-{c}?"), "options": [
            {"value": format!("s{s}c{c}"), "label": format!("Mine {s}-{c}")},
            {"value": "other", "label": "Other"}]}]})
    };
    let mut order = Vec::new();
    for c in 1..=2u64 {
        for (s, server) in servers.iter_mut().enumerate() {
            server.call(c, ask_of(s, c));
            // Arrival order is the queue's: one at a time, so it is known.
            let n = order.len() + 1;
            let deadline = Instant::now() + Duration::from_secs(10);
            while queue.pending().len() < n {
                assert!(Instant::now() < deadline, "ask {s}-{c} queued");
                std::thread::sleep(Duration::from_millis(5));
            }
            order.push(format!("Ask {s}-{c}?"));
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    let queue_dir = queue.dir().to_str().unwrap().to_owned();
    let mut inbox = common::pty::Session::start(&["inbox", "--queue", &queue_dir], |_| {});
    for (i, prompt) in order.iter().enumerate() {
        inbox.wait_for(&format!("› {prompt}"));
        inbox.send("\r");
        inbox.wait_for(&format!("Mine {}", &prompt[4..prompt.len() - 1]));
        inbox.send("1");
        inbox.wait_for("Review");
        inbox.send("\r");
        let left = order.len() - i - 1;
        let deadline = Instant::now() + Duration::from_secs(10);
        while queue.pending().len() != left {
            assert!(Instant::now() < deadline, "{prompt} answered");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    for c in 1..=2u64 {
        for (s, server) in servers.iter_mut().enumerate() {
            let reply = server.response(c);
            assert_eq!(
                reply["result"]["structuredContent"]["answers"]["pick"]["values"],
                json!([format!("s{s}c{c}")]),
                "server {s} call {c}"
            );
        }
    }
    // Nothing waits now: the inbox says so, and Ctrl+C quits it.
    inbox.wait_for("waiting for asks");
    inbox.send("\u{3}");
    assert_eq!(inbox.wait_exit(), 0);
}

/// The wait limit comes from the config when no `--timeout` is given (the default is 30
/// minutes, too long for a test: a config of 1 s shows the same path).
#[test]
fn the_configured_wait_limit_applies_without_a_flag() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pi-ask.toml");
    std::fs::write(&config, "schemaVersion = 5\n\n[mcp]\ntimeoutSeconds = 1\n").unwrap();
    let mut mcp = Mcp::start(&["--config", config.to_str().unwrap()]);
    mcp.call(1, payload("Where to?"));
    let reply = mcp.response(1);
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("No answer from pi-ask inbox within 1 s"),
        "{text}"
    );
    assert_eq!(reply["result"]["structuredContent"]["cancelled"], true);
}

/// A config that does not apply is said on standard error (the host's MCP log): the server has
/// no form to show the notice in.
#[test]
fn a_config_that_does_not_apply_is_said_in_the_servers_log() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pi-ask.toml");
    std::fs::write(&config, "[notifications]\nchannels = [\"bell\"]\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["mcp", "--queue"])
        .arg(dir.path().join("q"))
        .arg("--config")
        .arg(&config)
        .env("HOME", dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("pi-ask: config: Config was invalid or unsupported (Ask config must include an integer schemaVersion)"),
        "{said}"
    );
}

/// PI_ASK_QUEUE set in the person's shell but not in the server's (hosts strip the environment):
/// the server, finding no inbox on its queue, names the folder the inbox watches instead.
#[test]
fn a_server_names_the_folder_an_inbox_with_another_queue_watches() {
    let other = tempfile::tempdir().unwrap();
    let other_queue = other.path().join("q");
    let inbox = common::pty::Session::start_with_env(
        &["inbox", "--no-history"],
        &[("PI_ASK_QUEUE", other_queue.to_str().unwrap())],
        |_| {},
    );
    inbox.wait_for("waiting for asks");
    let home = inbox.dir.path();
    let queue = Queue::open(home.join(".pi/agent/pi-ask/queue")).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_pi-ask"));
    command
        .args(["mcp", "--timeout", "1"])
        .env("HOME", home)
        .env_remove("PI_ASK_QUEUE")
        .stderr(Stdio::piped());
    let mut mcp = Mcp::spawn(command, queue, None, json!({}));
    mcp.call(1, payload("Where to?"));
    mcp.response(1);
    let said = mcp.stderr_after_exit();
    assert!(
        said.contains(&format!(
            "an inbox watches {} instead: PI_ASK_QUEUE differs",
            other_queue.display()
        )),
        "{said}"
    );
}

/// The other way round: the server has PI_ASK_QUEUE, the inbox (started without it) watches the
/// home's default, which the server names.
#[test]
fn a_server_with_its_own_queue_names_the_default_an_inbox_watches() {
    let inbox = common::pty::Session::start(&["inbox", "--no-history"], |_| {});
    inbox.wait_for("waiting for asks");
    let home = inbox.dir.path();
    let other = tempfile::tempdir().unwrap();
    let queue = Queue::open(other.path().join("q")).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_pi-ask"));
    command
        .args(["mcp", "--timeout", "1"])
        .env("HOME", home)
        .env("PI_ASK_QUEUE", queue.dir())
        .stderr(Stdio::piped());
    let mut mcp = Mcp::spawn(command, queue, None, json!({}));
    mcp.call(1, payload("Where to?"));
    mcp.response(1);
    let said = mcp.stderr_after_exit();
    let default = home.join(".pi/agent/pi-ask/queue");
    assert!(
        said.contains(&format!("an inbox watches {} instead", default.display())),
        "{said}"
    );
}

/// Every line gets an answer: a message rmcp cannot read (trailing garbage, nesting past the
/// limit, invalid UTF-8, a duplicate id key) is answered with a parse error by its id, and a
/// lone surrogate (Node's string cut inside an emoji) is repaired to U+FFFD and the call goes on.
#[test]
fn every_line_is_answered_and_a_lone_surrogate_is_repaired() {
    let mut mcp = Mcp::start(&["--timeout", "1"]);
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":11,"method":"tools/list","params":{{"x":{}{}}}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let lines: Vec<Vec<u8>> = vec![
        br#"{"jsonrpc":"2.0","id":10,"method":"tools/list"} trailing"#.to_vec(),
        deep.into_bytes(),
        b"{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/list\",\"params\":{\"x\":\"\xff\"}}"
            .to_vec(),
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","id":13}"#.to_vec(),
    ];
    for line in &lines {
        mcp.send_raw(line);
    }
    for id in 10..=13 {
        let reply = mcp.response(id);
        assert_eq!(reply["error"]["code"], -32700, "{id}: {reply}");
    }
    // The cut emoji: repaired, queued, answered (here by its timeout).
    mcp.send_raw(
        br#"{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"ask_user","arguments":{"questions":[{"id":"q","prompt":"cut \ud83d","options":[{"value":"a","label":"A"}]}]}}}"#,
    );
    let queued = mcp.queued(1);
    assert_eq!(queued[0].payload["questions"][0]["prompt"], "cut \u{fffd}");
    assert_eq!(
        mcp.response(14)["result"]["structuredContent"]["cancelled"],
        true
    );
}

/// A 2025-06-18 host rejects the titled enums and arrays of later protocols: its form has `enum`
/// with `enumNames`, and a multi question as a text of choices, read back by name.
#[test]
fn a_2025_06_18_host_gets_the_form_its_protocol_allows() {
    let mut mcp = Mcp::start_logged_as(
        Some("2025-06-18"),
        &["--elicit", "always"],
        json!({"elicitation": {}}),
    );
    mcp.call(1, two_questions());
    let request = mcp.host_form();
    let schema = &request["params"]["requestedSchema"]["properties"];
    assert_eq!(schema["env"]["enum"], json!(["staging", "prod"]));
    assert_eq!(
        schema["env"]["enumNames"],
        json!(["Staging", "Production (recommended)"])
    );
    assert_eq!(schema["checks"]["type"], "string");
    let text = request.to_string();
    assert!(!text.contains("oneOf") && !text.contains("anyOf") && !text.contains("\"array\""));
    mcp.reply(
        &request,
        json!({"action": "accept",
        "content": {"env": "prod", "checks": "Lint, Tests"}}),
    );
    let details = mcp.response(1)["result"]["structuredContent"].clone();
    assert_eq!(details["answers"]["env"]["values"], json!(["prod"]));
    assert_eq!(
        details["answers"]["checks"]["values"],
        json!(["lint", "test"])
    );
}

/// What a 2026-07-28 client (Claude Code 2.1.332) puts in each request's `_meta`: it never
/// sends `initialize`.
fn current_meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "claude-code", "title": "Claude Code", "version": "2.1.332"},
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}, "url": {}}}})
}

/// A `tools/call` of a 2026-07-28 client, again with the form's reply when `reply` is given.
fn current_call(mcp: &mut Mcp, id: u64, reply: Option<(&Value, Value)>) {
    let mut params =
        json!({"name": "ask_user", "arguments": two_questions(), "_meta": current_meta()});
    if let Some((state, response)) = reply {
        params["requestState"] = state.clone();
        params["inputResponses"] = json!({ "form": response });
    }
    mcp.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}));
}

/// A client of MCP 2026-07-28: named in the inbox from its requests' `_meta`, and asked through
/// its own form by a round trip (`input_required`, then the call again with the reply), the ask
/// staying in the queue meanwhile. A `requestState` naming no ask of this server is refused.
#[test]
fn a_2026_07_28_client_is_named_from_its_requests_and_asked_by_a_round_trip() {
    let mut mcp = Mcp::start_logged_as(None, &["--elicit", "always"], json!({}));
    current_call(&mut mcp, 1, None);
    let first = mcp.response(1)["result"].clone();
    assert_eq!(first["resultType"], "input_required", "{first}");
    let form = &first["inputRequests"]["form"];
    assert_eq!(form["method"], "elicitation/create", "{first}");
    assert_eq!(
        form["params"]["requestedSchema"]["properties"]["env"]["oneOf"][1]["title"],
        "Production (recommended)"
    );
    let state = first["requestState"].clone();
    let ask = mcp.queued(1).remove(0);
    assert_eq!(ask.client, "Claude Code 2.1.332");
    assert_eq!(
        state, ask.id,
        "the ask waits in the queue while the host's form shows it"
    );
    // A forged state is no ask of this server's.
    current_call(
        &mut mcp,
        2,
        Some((&json!("0123456789abcdef"), json!({"action": "accept"}))),
    );
    assert!(mcp.response(2)["error"].is_object());
    std::thread::sleep(Duration::from_millis(1100));
    current_call(
        &mut mcp,
        3,
        Some((
            &state,
            json!({"action": "accept", "content": {"env": "prod", "checks": ["lint"]}}),
        )),
    );
    let details = mcp.response(3)["result"]["structuredContent"].clone();
    assert_eq!(details["outcome"], "answered", "{details}");
    assert_eq!(details["answers"]["env"]["values"], json!(["prod"]));
    assert_eq!(details["answers"]["checks"]["values"], json!(["lint"]));
    assert!(mcp.queue.waiting().is_empty());
    assert!(
        mcp.queue.take_result(&ask.id).is_none(),
        "the answer was taken from the queue, not left there"
    );
}

/// A headless 2026-07-28 client declines the form at once: the call goes on waiting, the
/// inbox's answer is its answer, and its next ask gets no form. An inbox that answers while the
/// form shows the ask wins over the form's reply.
#[test]
fn a_round_trip_declined_at_once_or_answered_meanwhile_leaves_it_to_the_inbox() {
    let mut mcp = Mcp::start_logged_as(None, &["--elicit", "always"], json!({}));
    current_call(&mut mcp, 1, None);
    let state = mcp.response(1)["result"]["requestState"].clone();
    // Answered in an inbox while the host's form shows it: the form's reply is not used.
    let ask = mcp.queued(1).remove(0);
    let claim = mcp.queue.claim(&ask.id).unwrap().unwrap();
    mcp.queue.answer(claim, &answered(&ask.payload, 1)).unwrap();
    std::thread::sleep(Duration::from_millis(1100));
    current_call(
        &mut mcp,
        2,
        Some((
            &state,
            json!({"action": "accept", "content": {"env": "prod"}}),
        )),
    );
    let details = mcp.response(2)["result"]["structuredContent"].clone();
    assert_eq!(
        details["answers"]["env"]["values"],
        json!(["staging"]),
        "{details}"
    );

    current_call(&mut mcp, 3, None);
    let state = mcp.response(3)["result"]["requestState"].clone();
    current_call(&mut mcp, 4, Some((&state, json!({"action": "decline"}))));
    let ask = mcp.queued(1).remove(0);
    std::thread::sleep(Duration::from_millis(300));
    let claim = mcp
        .queue
        .claim(&ask.id)
        .unwrap()
        .expect("still waiting for an inbox");
    mcp.queue.answer(claim, &answered(&ask.payload, 2)).unwrap();
    let details = mcp.response(4)["result"]["structuredContent"].clone();
    assert_eq!(details["outcome"], "answered", "{details}");
    // The next ask gets no form: it waits for the inbox.
    current_call(&mut mcp, 5, None);
    let ask = mcp.queued(1).remove(0);
    let claim = mcp.queue.claim(&ask.id).unwrap().unwrap();
    mcp.queue.answer(claim, &answered(&ask.payload, 1)).unwrap();
    assert_eq!(
        mcp.response(5)["result"]["structuredContent"]["outcome"],
        "answered"
    );
    let said = mcp.stderr_after_close();
    assert!(said.contains("the form's reply was not used"), "{said}");
    assert!(
        said.contains("the host declined its form at once"),
        "{said}"
    );
}

/// An ask whose form a 2026-07-28 client shows still counts as a waiting call: a client that
/// never calls again cannot queue past the limit (`[mcp] maxWaitingCalls`).
#[test]
fn asks_in_a_round_trip_count_toward_the_waiting_limit() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pi-ask.toml");
    std::fs::write(&config, "schemaVersion = 5\n\n[mcp]\nmaxWaitingCalls = 1\n").unwrap();
    let mut mcp = Mcp::start_logged_as(
        None,
        &["--elicit", "always", "--config", config.to_str().unwrap()],
        json!({}),
    );
    current_call(&mut mcp, 1, None);
    assert_eq!(mcp.response(1)["result"]["resultType"], "input_required");
    current_call(&mut mcp, 2, None);
    let refused = mcp.response(2)["result"].clone();
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(refused.to_string().contains("maxWaitingCalls"), "{refused}");
}

/// A 2026-07-28 client that does not call again before the deadline: the ask is withdrawn from
/// the queue at the deadline (no inbox keeps showing it), and the late call is told it timed out.
#[test]
fn a_round_trip_past_its_deadline_is_withdrawn_and_the_late_call_timed_out() {
    let mut mcp = Mcp::start_logged_as(None, &["--elicit", "always", "--timeout", "1"], json!({}));
    current_call(&mut mcp, 1, None);
    let state = mcp.response(1)["result"]["requestState"].clone();
    let id = state.as_str().unwrap().to_owned();
    let deadline = Instant::now() + Duration::from_secs(5);
    while !mcp.queue.is_withdrawn(&id) {
        assert!(Instant::now() < deadline, "withdrawn at the deadline");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(mcp.queue.pending().is_empty());
    current_call(
        &mut mcp,
        2,
        Some((
            &state,
            json!({"action": "accept", "content": {"env": "prod"}}),
        )),
    );
    let details = mcp.response(2)["result"]["structuredContent"].clone();
    assert_eq!(details["outcome"], "timed_out", "{details}");
    assert_eq!(details["answers"], json!({}));
}

/// While the host's form shows the ask, progress says the ask can be answered there (and in the
/// inbox once one watches).
#[test]
fn progress_says_the_ask_can_be_answered_in_the_hosts_form() {
    let mut mcp = Mcp::start_with(
        &["--progress-every", "0.2", "--elicit", "always"],
        json!({"elicitation": {}}),
    );
    mcp.send(
        json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{
        "name":"ask_user","arguments":payload("Where to?"),"_meta":{"progressToken":"tok"}}}),
    );
    let request = mcp.host_form();
    let progress_until = |mcp: &mut Mcp, wanted: &str| {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let said = mcp
                .notification("notifications/progress", left)
                .unwrap_or_else(|| panic!("no progress saying {wanted:?}"));
            if said["params"]["message"]
                .as_str()
                .is_some_and(|m| m.starts_with(wanted))
            {
                return;
            }
        }
    };
    progress_until(
        &mut mcp,
        "waiting for an answer in this host's form; no pi-ask inbox is watching",
    );
    let presence = mcp.queue.announce_inbox().unwrap();
    progress_until(
        &mut mcp,
        "waiting for an answer in pi-ask inbox or this host's form",
    );
    drop(presence);
    mcp.reply(
        &request,
        json!({"action": "accept", "content": {"env": "prod"}}),
    );
    assert_eq!(
        mcp.response(1)["result"]["structuredContent"]["outcome"],
        "answered"
    );
}

/// A hostile host answers the form with what pi-ask cannot read: content nested past JSON's depth
/// limit, a reply over the longest message read, or content nested and huge that does read. The
/// call still ends at once with a result the contract allows (cancelled, with the cause in its
/// text), the ask leaves the queue, and the cause is said on stderr: never a call left waiting
/// for a reply that was dropped.
#[test]
fn a_hosts_unreadable_or_huge_form_reply_ends_the_call_with_the_cause() {
    let deep = |depth: usize| format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let too_deep = format!(r#"{{"action":"accept","content":{{"env":{}}}}}"#, deep(400));
    let oversized = format!(
        r#"{{"action":"accept","content":{{"env":"{}"}}}}"#,
        "x".repeat(17 * 1024 * 1024)
    );
    let nested_huge = format!(
        r#"{{"action":"accept","content":{{"env":{{"a":{}}},"checks":[{}],"env_note":"{}"}}}}"#,
        deep(100),
        vec![r#"{"b":[[[1]]]}"#; 20_000].join(","),
        "n".repeat(2 * 1024 * 1024)
    );
    for (name, result, cause) in [
        ("too deep", too_deep, "could not read the host's form reply"),
        (
            "over the limit",
            oversized,
            "could not read the host's form reply",
        ),
        (
            "nested and huge",
            nested_huge,
            "the host's form gave env: an object, which its form does not ask for",
        ),
    ] {
        let mut mcp = Mcp::start_logged(&["--elicit", "always"], json!({"elicitation": {}}));
        mcp.call(1, two_questions());
        let request = mcp.host_form();
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":{},"result":{result}}}"#,
            request["id"]
        );
        mcp.send_raw(line.as_bytes());
        let reply = mcp.response(1);
        let details = &reply["result"]["structuredContent"];
        assert!(details.is_object(), "{name}: {reply:.2000}");
        let text = reply["result"]["content"][0]["text"].as_str().unwrap_or("");
        if name == "nested and huge" {
            // It reads: values that are not text are no choice, and the note is the person's.
            assert_eq!(details["cancelled"], false, "{name}: {details:.2000}");
            assert_eq!(
                details["answers"]["env"]["values"],
                json!([]),
                "{details:.2000}"
            );
            // Unanswered without a note, so left out, as the contract says.
            assert!(
                details["answers"].get("checks").is_none(),
                "{details:.2000}"
            );
            let note = details["answers"]["env"]["note"].as_str().unwrap_or("");
            assert_eq!(note.len(), 2 * 1024 * 1024);
        } else {
            assert_eq!(details["cancelled"], true, "{name}: {reply:.2000}");
            assert!(details["answers"].is_object(), "{name}: {reply:.2000}");
            assert!(text.contains("could not be read"), "{name}: {text}");
        }
        assert!(mcp.queue.waiting().is_empty(), "{name}");
        let said = mcp.stderr_after_close();
        assert!(said.contains(cause), "{name}: {said}");
    }
}

/// A 2026-07-28 client calls again with a form reply that is no form's reply (here its content
/// is a list, nested deep): the call ends cancelled at once, saying the reply could not be read,
/// and the ask leaves the queue.
#[test]
fn a_2026_07_28_clients_unreadable_form_reply_ends_the_call_with_the_cause() {
    let mut mcp = Mcp::start_logged_as(None, &["--elicit", "always"], json!({}));
    current_call(&mut mcp, 1, None);
    let first = mcp.response(1)["result"].clone();
    let state = first["requestState"].clone();
    let nested: Value =
        serde_json::from_str(&format!("{}{}", "[".repeat(60), "]".repeat(60))).unwrap();
    current_call(
        &mut mcp,
        2,
        Some((&state, json!({"action": "accept", "content": nested}))),
    );
    let reply = mcp.response(2);
    let details = &reply["result"]["structuredContent"];
    assert_eq!(details["cancelled"], true, "{reply}");
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("its reply could not be read"), "{text}");
    assert!(mcp.queue.waiting().is_empty());
    let said = mcp.stderr_after_close();
    assert!(
        said.contains("could not read the host's form reply"),
        "{said}"
    );
}

/// Only an accepted form's content is read: a decline that carries stray content (a list) is
/// still the person's decline, not a reply that could not be read.
#[test]
fn a_decline_with_stray_content_is_still_a_decline() {
    let mut mcp = Mcp::start_logged(&["--elicit", "always"], json!({"elicitation": {}}));
    mcp.call(1, two_questions());
    let request = mcp.host_form();
    // Past the time in which a decline counts as a headless host's.
    std::thread::sleep(Duration::from_millis(1100));
    mcp.reply(&request, json!({"action": "decline", "content": [1, 2]}));
    let details = mcp.response(1)["result"]["structuredContent"].clone();
    assert_eq!(details["cancelled"], true, "{details}");
    assert_eq!(details["outcome"], "declined", "{details}");
    let said = mcp.stderr_after_close();
    assert!(!said.contains("could not read"), "{said}");
}
