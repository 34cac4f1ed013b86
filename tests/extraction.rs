//! Extraction: the built-in extractor on a corpus of assistant messages, reading model replies,
//! the business rules and repair, and a configured command (a fake model script).

use std::path::Path;
use std::time::Duration;

use pi_ask::extract::command::{CommandExtractor, ExtractError, Silent, retry_notice};
use pi_ask::extract::{Extracted, builtin, candidate_from_output, check_candidate, repair};
use pi_ask::stores::pi_session::AssistantTurn;
use serde_json::{Value, json};

/// What a question is compared on: prompt, type, option labels, or freeform.
fn shape(payload: &Value) -> Vec<Value> {
    payload["questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            let options = q["options"].as_array().unwrap();
            if options.len() == 1 && options[0]["freeform"] == true {
                json!({"prompt": q["prompt"], "freeform": true})
            } else {
                json!({
                    "prompt": q["prompt"],
                    "type": q["type"].as_str().unwrap_or("single"),
                    "options": options.iter().map(|o| o["label"].clone()).collect::<Vec<_>>(),
                })
            }
        })
        .collect()
}

fn corpus(name: &str) -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/answer")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Runs the built-in extractor over a corpus; returns (exact, total) and prints the misses.
fn score(name: &str) -> (usize, usize) {
    let corpus = corpus(name);
    let mut exact = 0;
    let mut misses = Vec::new();
    for case in &corpus {
        let payload = builtin::extract(case["message"].as_str().unwrap());
        // Whatever it finds must be a form the UI opens (or "no questions").
        match check_candidate(&payload) {
            Ok(_) => {}
            Err(refused) => panic!("{}: {:?}\n{payload:#}", case["name"], refused.issues),
        }
        let got = shape(&payload);
        if got == case["expected"].as_array().unwrap().clone() {
            exact += 1;
        } else {
            misses.push(format!(
                "{}:\n  expected {}\n  got      {}",
                case["name"],
                serde_json::to_string(&case["expected"]).unwrap(),
                serde_json::to_string(&got).unwrap()
            ));
        }
    }
    eprintln!(
        "built-in extractor on {name}: {exact}/{} exact\n{}",
        corpus.len(),
        misses.join("\n")
    );
    (exact, corpus.len())
}

#[test]
fn the_builtin_extractor_gets_most_of_the_corpus_exactly_and_every_form_validates() {
    let (exact, total) = score("corpus.json");
    assert!(total >= 25);
    // The figure in docs/history.md (27/28); a drop is a regression.
    assert!(exact >= 27, "{exact}/{total} exact");
}

#[test]
fn the_builtin_extractor_on_messages_written_after_it_was_tuned() {
    // held-out.json was written after the extractor and never tuned against; its figure
    // (in docs/history.md) is the honest estimate of how it does on new prose.
    let (exact, total) = score("held-out.json");
    assert!(exact * 2 >= total, "{exact}/{total} exact");
}

#[test]
fn the_builtin_extractor_on_inline_alternatives_lead_ins_and_everyday_shapes() {
    // trial.json: 20 messages of the shapes a trial found missing (inline `A, B or C`, `A/B`,
    // `A vs B` after a dash or colon, lead-ins such as `Also,`) beside numbered lists, bullets,
    // a lone yes/no question and prose with no question. Written with the fix, so every one is
    // expected exactly.
    let (exact, total) = score("trial.json");
    assert_eq!((exact, total), (20, 20));
}

#[test]
fn extracted_questions_get_a_short_label_from_their_prompt() {
    let payload = builtin::extract(
        "Also, what TTL should entries have — 5 minutes, 1 hour or 1 day?\n\
         **Storage:** Which database should the new service use: Postgres or SQLite?",
    );
    let labels: Vec<&str> = payload["questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["label"].as_str().unwrap_or("(none)"))
        .collect();
    assert_eq!(labels, ["TTL entries", "Storage"]);
}

fn q(options: Value) -> Value {
    json!({"questions": [{"id": "db", "prompt": "Which database?", "options": options}]})
}

#[test]
fn replies_are_read_as_one_tool_call_raw_json_or_fenced_json() {
    let args = q(json!([{"value": "pg", "label": "Postgres"}]));
    let pi_call = json!({"type": "toolCall", "name": "ask_user", "arguments": args});
    assert_eq!(candidate_from_output(&pi_call.to_string()).unwrap(), args);
    let openai =
        json!({"tool_calls": [{"function": {"name": "ask_user", "arguments": args.to_string()}}]});
    assert_eq!(candidate_from_output(&openai.to_string()).unwrap(), args);
    let anthropic = json!({"content": [{"type": "text", "text": "not JSON"}, {"type": "tool_use", "name": "ask_user", "input": args}]});
    assert_eq!(candidate_from_output(&anthropic.to_string()).unwrap(), args);
    assert_eq!(candidate_from_output(&args.to_string()).unwrap(), args);
    let fenced = "Here you go:\n```json\n{\"questions\":[]}\n```\n";
    assert_eq!(
        candidate_from_output(fenced).unwrap(),
        json!({"questions": []})
    );
    let two = json!([pi_call, pi_call]);
    assert_eq!(
        candidate_from_output(&two.to_string())
            .unwrap_err()
            .to_string(),
        "Expected exactly one ask_user tool call; received 2."
    );
    assert_eq!(
        candidate_from_output("  \n").unwrap_err().to_string(),
        "model returned no text content"
    );
}

#[test]
fn business_rules_flag_option_spam_generic_prompts_and_invented_recommendations() {
    let five = q(json!(
        ["a", "b", "c", "d", "other"]
            .iter()
            .map(|v| json!({"value": v, "label": v}))
            .collect::<Vec<_>>()
    ));
    let refused = check_candidate(&five).unwrap_err();
    assert_eq!(
        refused.issues,
        ["questions[0].options has 5 items; max is 4"]
    );
    let repaired = repair(&five);
    let values: Vec<&str> = repaired["questions"][0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["value"].as_str().unwrap())
        .collect();
    assert_eq!(values, ["a", "b", "c", "other"], "the other option is kept");

    let generic = json!({"questions": [{"id": "h", "prompt": "How can I help you today?", "options": [{"value": "freeform", "label": "Type answer", "freeform": true}]}]});
    assert!(check_candidate(&generic).is_err());
    assert_eq!(repair(&generic), json!({"questions": []}));

    let recommended = q(
        json!([{"value": "pg", "label": "Postgres", "recommended": true}, {"value": "lite", "label": "SQLite"}]),
    );
    let refused = check_candidate(&recommended).unwrap_err();
    assert!(
        refused.issues[0].contains("recommendation"),
        "{:?}",
        refused.issues
    );

    let duplicate = json!({"questions": [
        {"id": "a", "prompt": "One?", "options": [{"value": "x", "label": "X"}, {"value": "y", "label": "Y"}]},
        {"id": "a", "prompt": "Two?", "options": [{"value": "x", "label": "X"}, {"value": "y", "label": "Y"}]}
    ]});
    let refused = check_candidate(&duplicate).unwrap_err();
    assert!(
        refused.issues.iter().any(|i| i.contains("duplicate")),
        "{:?}",
        refused.issues
    );
    assert_eq!(
        check_candidate(&json!({"questions": []})).unwrap(),
        Extracted::NoQuestions
    );
}

/// Records the attempts an extraction announces.
struct Attempts(Vec<(u32, u32)>);

impl pi_ask::extract::command::Progress for Attempts {
    fn attempt(&mut self, attempt: u32, of: u32) {
        self.0.push((attempt, of));
    }
    fn tick(&mut self, _: Duration) -> bool {
        false
    }
}

/// A fake model: a shell script that answers each attempt from a numbered reply file.
fn fake_extractor(dir: &Path, replies: &[&str], timeout_ms: u64, retries: u8) -> CommandExtractor {
    for (n, reply) in replies.iter().enumerate() {
        std::fs::write(dir.join(format!("reply{}", n + 1)), reply).unwrap();
    }
    let script = dir.join("model.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nd=$(dirname \"$0\")\ncat > \"$d/request.$$\"\nn=$(ls \"$d\" | grep -c '^request\\.')\ncp \"$d/request.$$\" \"$d/seen$n\"\nif [ -f \"$d/sleep$n\" ]; then sleep 5; fi\ncat \"$d/reply$n\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    CommandExtractor {
        argv: vec![script.display().to_string()],
        retries,
        timeout: Duration::from_millis(timeout_ms),
    }
}

fn turn() -> AssistantTurn {
    AssistantTurn {
        entry_id: None,
        text: "Which database: Postgres or SQLite?".into(),
        previous_user: Some("Plan the storage".into()),
    }
}

/// A script written a moment ago can be "busy" (ETXTBSY) while a process being started elsewhere
/// still holds it open for writing; starting it is tried again for a moment, not refused (the
/// test suite's own threads made this happen now and then).
#[test]
fn an_extractor_busy_for_a_moment_is_started_once_it_is_free() {
    let dir = tempfile::tempdir().unwrap();
    let args = q(json!([{"value": "a", "label": "A"}, {"value": "b", "label": "B"}]));
    let call = json!({"name": "ask_user", "arguments": args}).to_string();
    let extractor = fake_extractor(dir.path(), &[&call], 5000, 1);
    let writer = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.path().join("model.sh"))
        .unwrap();
    let freed = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        drop(writer);
    });
    let found = extractor.extract(&turn(), &mut Silent);
    freed.join().unwrap();
    assert!(
        matches!(found, Ok(Extracted::Form { .. })),
        "{:?}",
        found.err()
    );
}

#[test]
fn a_model_command_gets_the_request_on_stdin_and_its_tool_call_becomes_the_form() {
    let dir = tempfile::tempdir().unwrap();
    let args =
        q(json!([{"value": "pg", "label": "Postgres"}, {"value": "lite", "label": "SQLite"}]));
    let call = json!({"name": "ask_user", "arguments": args}).to_string();
    let extractor = fake_extractor(dir.path(), &[&call], 5000, 1);
    let found = extractor.extract(&turn(), &mut Silent).unwrap();
    let Extracted::Form { payload, form } = found else {
        panic!("a form")
    };
    assert_eq!(payload, args);
    assert_eq!(form.questions[0].options.len(), 2);
    let request = std::fs::read_to_string(dir.path().join("seen1")).unwrap();
    assert!(request.contains("Never add recommendation metadata."));
    assert!(
        request.contains("<previous_user_message>\nPlan the storage\n</previous_user_message>")
    );
    assert!(request.contains(
        "<assistant_message>\nWhich database: Postgres or SQLite?\n</assistant_message>"
    ));
    assert!(request.contains("\"questions\""), "the schema is included");
}

#[test]
fn garbage_is_retried_with_the_problem_fed_back_and_fenced_json_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let fenced = format!(
        "Sure!\n```json\n{}\n```",
        q(json!([{"value": "pg", "label": "Postgres"}, {"value": "lite", "label": "SQLite"}]))
    );
    let extractor = fake_extractor(
        dir.path(),
        &["I could not find any JSON, sorry.", &fenced],
        5000,
        1,
    );
    let mut seen = Attempts(Vec::new());
    let found = extractor.extract(&turn(), &mut seen).unwrap();
    assert_eq!(seen.0, [(1, 2), (2, 2)], "two attempts announced");
    let notices: Vec<Option<String>> = seen.0.iter().map(|&(a, n)| retry_notice(a, n)).collect();
    assert_eq!(
        notices,
        [None, Some("Retrying question extraction (1/1)...".into())]
    );
    assert!(matches!(found, Extracted::Form { .. }));
    let retry = std::fs::read_to_string(dir.path().join("seen2")).unwrap();
    assert!(retry.contains("The previous extraction was invalid. Fix this issue:\nthe reply is neither an ask_user tool call nor JSON"), "{retry}");
    assert!(retry.contains("Previous extraction output:\nI could not find any JSON, sorry."));
}

#[test]
fn when_retries_run_out_the_last_well_shaped_reply_is_repaired() {
    let dir = tempfile::tempdir().unwrap();
    let five = q(json!(
        ["a", "b", "c", "d", "e"]
            .iter()
            .map(|v| json!({"value": v, "label": v}))
            .collect::<Vec<_>>()
    ))
    .to_string();
    let extractor = fake_extractor(dir.path(), &[&five, &five], 5000, 1);
    let Extracted::Form { form, .. } = extractor.extract(&turn(), &mut Silent).unwrap() else {
        panic!("repaired into a form")
    };
    assert_eq!(form.questions[0].options.len(), 4);
    let garbage = fake_extractor(dir.path(), &["nope", "still nope"], 5000, 1);
    let err = garbage.extract(&turn(), &mut Silent).unwrap_err();
    assert!(matches!(err, ExtractError::Invalid(_)));
    assert!(err.to_string().starts_with("Question extraction did not return a valid ask_user tool call or JSON fallback after retries."));
}

#[test]
fn a_command_past_its_timeout_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("sleep1"), "").unwrap();
    let extractor = fake_extractor(dir.path(), &["{}"], 300, 0);
    let start = std::time::Instant::now();
    let err = extractor.extract(&turn(), &mut Silent).unwrap_err();
    assert_eq!(err, ExtractError::TimedOut);
    assert_eq!(
        err.to_string(),
        "Question extraction timed out. Try again or configure a faster extraction model."
    );
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "killed, not waited for"
    );
}

#[test]
fn a_command_that_cannot_start_is_named() {
    let extractor = CommandExtractor {
        argv: vec!["/nonexistent/model".into()],
        retries: 1,
        timeout: Duration::from_secs(1),
    };
    let err = extractor.extract(&turn(), &mut Silent).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("cannot run the extractor /nonexistent/model:"),
        "{err}"
    );
}

#[test]
fn the_builtin_extractor_on_everyday_phrasings() {
    // everyday.json: the phrasings a trial found missed (`Want me to…?`, `OK to proceed?`,
    // `Okay if…?`, `Sound good?`, `A) … B) … C)` and `1) … 2)` choices, code in choices), in
    // realistic messages. Written with the fix, so every one is expected exactly.
    let (exact, total) = score("everyday.json");
    assert_eq!((exact, total), (11, 11));
}

#[test]
fn labels_leave_out_fillers_and_how_measures() {
    let label = |message: &str| builtin::extract(message)["questions"][0]["label"].clone();
    assert_eq!(
        label("How long should cache entries live?"),
        "Cache entries live"
    );
    assert_eq!(
        label("Want me to also add a regression test?"),
        "Add regression test"
    );
    assert_eq!(label("OK to proceed?"), "Proceed");
    assert_eq!(label("Which one?"), "Question");
}
