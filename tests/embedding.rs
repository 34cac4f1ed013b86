//! What an embedder writes: the docs' harness snippet (docs/testing.md) with `?` on every error,
//! and every public error type usable as `Box<dyn Error>` with a message.

use std::error::Error;

use pi_ask::model::{EditOp, Intent, Model, Msg, update};
use pi_ask::settings::Settings;
use pi_ask::testing::Harness;

const PAYLOAD: &str = r#"{"questions":[{"id":"db","prompt":"Which database?",
  "options":[{"value":"pg","label":"Postgres"},{"value":"sqlite","label":"SQLite"}]}]}"#;

/// docs/testing.md's snippet, line for line (the next test checks they have not drifted).
fn check() -> Result<(), Box<dyn std::error::Error>> {
    let payload_json = r#"{"questions":[{"id":"db","prompt":"Which database?",
      "options":[{"value":"pg","label":"Postgres"},{"value":"sqlite","label":"SQLite"}]}]}"#;
    let mut form = Harness::new(payload_json, 80, 24)?; // an invalid payload is an Error
    assert!(form.screen_text().contains("❯ 1. Postgres"));
    form.press("down").press("enter"); // key ids, as in keymaps
    form.type_text("free text"); // typed characters
    form.send_bytes(b"\x1b[B"); // raw terminal bytes (legacy or Kitty), one read
    form.press_together(&["down", "up"]); // keys arriving in one read act as one at a time
    form.paste("pasted text"); // bracketed paste
    form.advance(2500); // let timers fire
    let cell = form.cell(5, 10); // styled cells: cell.fg, cell.bg, cell.modifier
    let result = form.result(); // Some(AskResult) once finished
    let _ = (cell, result);
    Ok(())
}

#[test]
fn the_docs_harness_snippet_runs_with_question_marks() -> Result<(), Box<dyn Error>> {
    check()
}

#[test]
fn the_docs_snippet_is_the_code_this_file_runs() {
    let docs = include_str!("../docs/testing.md");
    let start = docs
        .find("fn check()")
        .expect("the snippet in docs/testing.md");
    let end = start + docs[start..].find("\n}\n").expect("its end");
    // Compared as code: comments dropped and spaces collapsed (rustfmt aligns them here).
    let code = |line: &str| {
        let code = line.split("//").next().unwrap_or_default();
        code.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let this: Vec<String> = include_str!("embedding.rs").lines().map(code).collect();
    for line in docs[start..end].lines().map(code).filter(|l| !l.is_empty()) {
        assert!(this.contains(&line), "docs line not run here: {line}");
    }
}

/// `EditOp` comes from `pi_ask::model`: a model-only test needs no other crate.
#[test]
fn a_model_only_test_needs_only_pi_ask() -> Result<(), Box<dyn Error>> {
    let form = pi_ask::input::parse_payload(PAYLOAD)?;
    let mut model = Model::new(form, Settings::defaults());
    update(&mut model, Msg::Intent(Intent::Number(3)));
    update(&mut model, Msg::Edit(EditOp::Insert("x".into())));
    assert_eq!(
        model.editor().map(|e| e.text().to_owned()),
        Some("x".into())
    );
    Ok(())
}

fn boxed<E: Error + 'static>(e: E) -> Box<dyn Error> {
    Box::new(e)
}

/// Every public error converts to `Box<dyn Error>` and says what went wrong.
#[test]
fn every_public_error_is_an_error_with_a_message() {
    let invalid = pi_ask::input::parse_payload("{").unwrap_err();
    let errors: Vec<Box<dyn Error>> = vec![
        boxed(invalid),
        boxed(pi_ask::stores::history::LookupError::NotFound("abc".into())),
        boxed(pi_ask::extract::command::ExtractError::Cancelled),
        boxed(pi_ask::stores::pi_session::TurnError::NoAssistant),
        boxed(pi_ask::stores::pi_session::SessionError::Unreadable {
            path: "x".into(),
            source: std::io::Error::from(std::io::ErrorKind::NotFound).into(),
        }),
        boxed(pi_ask::remote::protocol::SubmitError::FlowNotFound),
        boxed(pi_ask::stores::config::InvalidConfig(
            "mcp must be a table".into(),
        )),
        boxed(pi_ask::stores::config::MigrationError(
            "Ask config must be an object".into(),
        )),
    ];
    let said: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(
        said[0].starts_with("Invalid ask_user payload:\n- payload: Payload is not valid JSON"),
        "{}",
        said[0]
    );
    assert_eq!(said[1], "no ask abc in the history");
    assert_eq!(said[2], "Question extraction cancelled.");
    assert_eq!(said[5], "flow_not_found: Ask flow is not active.");
    assert!(said.iter().all(|s| !s.is_empty()));
}
