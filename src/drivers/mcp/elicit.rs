//! The host's own form when no inbox is there: an ask as one MCP `elicitation/create` request in
//! form mode, and the person's reply turned into the contract's result.
//!
//! An elicitation form is flat (strings, numbers, booleans, enums), so each question becomes up
//! to three fields: its choice (a titled enum, or an array of them for multi-select), `Type your
//! own`, and a note. What the form cannot carry: the review tab, elaborate, option notes, and
//! previews beyond the excerpt folded into the message.

use serde_json::{Map, Value, json};

use super::client::Dialect;
use crate::form::{Form, Question, QuestionType};
use crate::model::AnswerState;
use crate::result::{AskResult, Outcome, build_from_state};

/// How much of a preview the message shows, in characters.
const PREVIEW_EXCERPT_CHARS: usize = 600;
/// The most characters of the whole message.
const MAX_MESSAGE_CHARS: usize = 16_000;

/// The names of one question's fields in the form.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Fields {
    /// The choice field; `None` for a question without options (free-form).
    choice: Option<String>,
    own: String,
    note: String,
}

impl Fields {
    /// Whether `name` is one of this question's fields.
    fn names(&self, name: &str) -> bool {
        self.choice.as_deref() == Some(name) || self.own == name || self.note == name
    }
}

/// An ask as an elicitation: the request's message and schema, and how to read the reply.
#[derive(Debug, Clone)]
pub struct Elicitation {
    /// The text the host shows above its form.
    pub message: String,
    /// The form as a flat JSON Schema.
    pub schema: Value,
    fields: Vec<Fields>,
    dialect: Dialect,
}

/// A field name not yet taken: `base`, else `base_2`, `base_3`, …
fn unique(base: String, taken: &mut Vec<String>) -> String {
    let mut name = base.clone();
    let mut n = 1;
    while taken.contains(&name) {
        n += 1;
        name = format!("{base}_{n}");
    }
    taken.push(name.clone());
    name
}

fn option_title(question: &Question, index: usize) -> String {
    let option = &question.options[index];
    if option.is_recommended() {
        format!("{} (recommended)", option.label)
    } else {
        option.label.clone()
    }
}

fn excerpt(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(chars).collect();
    cut.push('…');
    cut
}

/// The elicitation for a form, in the schema dialect of the client's protocol version.
pub fn elicitation(form: &Form, dialect: Dialect) -> Elicitation {
    let mut taken: Vec<String> = form.questions.iter().map(|q| q.id.clone()).collect();
    let mut properties = Map::new();
    let mut fields = Vec::new();
    let mut message = form
        .title
        .clone()
        .unwrap_or_else(|| "Questions for you".to_owned());
    message.push('\n');
    for (n, question) in form.questions.iter().enumerate() {
        let number = n + 1;
        message.push_str(&format!("\n{number}. {}\n", question.prompt));
        for (i, option) in question.options.iter().enumerate() {
            match &option.description {
                Some(d) => message.push_str(&format!("   - {}: {d}\n", option_title(question, i))),
                None => message.push_str(&format!("   - {}\n", option_title(question, i))),
            }
            if let Some(preview) = &option.preview {
                message.push_str(&format!(
                    "     Preview of {}:\n{}\n",
                    option.label,
                    excerpt(preview, PREVIEW_EXCERPT_CHARS)
                ));
            }
        }
        let choices: Vec<Value> = (0..question.options.len())
            .map(
                |i| json!({"const": question.options[i].value, "title": option_title(question, i)}),
            )
            .collect();
        let choice = (!question.options.is_empty()).then(|| {
            let multi = question.presented_type == QuestionType::Multi;
            let title = format!("{number}. {}", question.label);
            let field = match (dialect, multi) {
                (Dialect::Titled, true) => json!({"type": "array", "title": title,
                    "description": question.prompt, "items": {"anyOf": choices}}),
                (Dialect::Titled, false) => json!({"type": "string", "title": title,
                    "description": question.prompt, "oneOf": choices}),
                // 2025-06-18 has no arrays: the choices are named in a text, read back by name.
                (Dialect::Legacy, true) => {
                    let titles: Vec<String> = (0..question.options.len())
                        .map(|i| option_title(question, i))
                        .collect();
                    json!({"type": "string", "title": title, "description": format!(
                        "{} Any of: {} (separate them with commas)", question.prompt, titles.join(", "))})
                }
                (Dialect::Legacy, false) => json!({"type": "string", "title": title,
                    "description": question.prompt,
                    "enum": question.options.iter().map(|o| o.value.clone()).collect::<Vec<_>>(),
                    "enumNames": (0..question.options.len()).map(|i| option_title(question, i)).collect::<Vec<_>>()}),
            };
            properties.insert(question.id.clone(), field);
            question.id.clone()
        });
        let own = unique(format!("{}_own", question.id), &mut taken);
        let own_help = match (&choice, question.presented_type) {
            (None, _) => question.prompt.clone(),
            (Some(_), QuestionType::Multi) => "Your own answer, besides the choices".to_owned(),
            (Some(_), _) => "Your own answer, instead of a choice".to_owned(),
        };
        let own_title = if choice.is_some() {
            format!("{number}. Type your own")
        } else {
            format!("{number}. {}", question.label)
        };
        properties.insert(
            own.clone(),
            json!({"type": "string", "title": own_title, "description": own_help}),
        );
        let note = unique(format!("{}_note", question.id), &mut taken);
        properties.insert(
            note.clone(),
            json!({"type": "string", "title": format!("{number}. Note"), "description": "Optional: anything to add"}),
        );
        fields.push(Fields { choice, own, note });
    }
    message.push_str("\nAnswer each question with a choice or your own words; notes are optional.");
    Elicitation {
        message: excerpt(&message, MAX_MESSAGE_CHARS),
        schema: json!({"type": "object", "properties": properties}),
        fields,
        dialect,
    }
}

/// What the person did with the host's form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElicitReply {
    /// The person filled in the host's form.
    Accept,
    /// The person declined to answer.
    Decline,
    /// The person closed the host's form.
    Cancel,
}

/// The person's reply read into a result, with what in it matched no option.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadReply {
    /// The contract's result.
    pub result: AskResult,
    /// Each choice that was neither an option's value nor its label (`env: "Prod-ish"`): kept
    /// as the person's own words, and said on standard error.
    pub unmatched: Vec<String>,
    /// Each field whose value was not what its schema asks (`env: an object`): left out, and
    /// said on standard error.
    pub ignored: Vec<String>,
}

/// The option a host's form gave back: its value, else its label or the title the form showed
/// (`Production (recommended)`), case and surrounding spaces aside; hosts and models are seen
/// sending either.
fn option_given(question: &Question, given: &str) -> Option<usize> {
    let given = given.trim();
    (0..question.options.len())
        .find(|&i| question.options[i].value == given)
        .or_else(|| {
            (0..question.options.len()).find(|&i| {
                question.options[i].label.trim().eq_ignore_ascii_case(given)
                    || option_title(question, i).eq_ignore_ascii_case(given)
            })
        })
}

/// The cancelled result for a reply from the host's form that could not be read (`why`): the
/// person may have answered there, but nothing of it can be known, so nothing counts as answered.
pub fn unreadable_reply_result(form: &Form, why: &str) -> AskResult {
    let states = vec![AnswerState::default(); form.questions.len()];
    let mut result = build_from_state(
        form.title.as_deref(),
        &form.questions,
        &states,
        Outcome::Cancelled,
    );
    let why = crate::printable::one_line(why);
    crate::result::mark_cancelled_because(
        &mut result,
        &format!("the host's form replied, but its reply could not be read ({why})"),
    );
    result
}

impl Elicitation {
    /// The result for the person's reply: accept is a submit with what the fields hold (a
    /// choice is matched by value, else by label; one that matches neither is kept as the
    /// person's own words; for a single-choice question, own words replace the choice), decline
    /// and cancel a cancelled result that says which it was.
    pub fn result(&self, form: &Form, reply: ElicitReply, content: Option<&Value>) -> ReadReply {
        let mut states = vec![AnswerState::default(); form.questions.len()];
        if reply != ElicitReply::Accept {
            let mut result = build_from_state(
                form.title.as_deref(),
                &form.questions,
                &states,
                Outcome::Cancelled,
            );
            let why = match reply {
                ElicitReply::Decline => "they declined the host's form",
                _ => "they closed the host's form without answering",
            };
            crate::result::mark_cancelled_because(&mut result, why);
            if reply == ElicitReply::Decline {
                result.details.outcome = Some(crate::result::Resolution::Declined);
            }
            return ReadReply {
                result,
                unmatched: Vec::new(),
                ignored: Vec::new(),
            };
        }
        let mut unmatched = Vec::new();
        let mut ignored = Vec::new();
        let empty = Map::new();
        let content = content.and_then(Value::as_object).unwrap_or(&empty);
        let text = |name: &str| content.get(name).and_then(Value::as_str).unwrap_or("");
        // What a field holds that its schema does not allow (text, or a list of texts for a
        // choice) is left out; each such field is named once.
        for (name, value) in content {
            let Some(field) = self.fields.iter().find(|f| f.names(name)) else {
                continue;
            };
            let wrong = match value {
                Value::String(_) => None,
                Value::Array(items) if field.choice.as_deref() == Some(name) => {
                    (!items.iter().all(Value::is_string)).then_some("a list that is not all text")
                }
                other => Some(kind_of(other)),
            };
            if let Some(kind) = wrong {
                ignored.push(format!("{}: {kind}", excerpt(name, 40)));
            }
        }
        for ((question, fields), state) in form.questions.iter().zip(&self.fields).zip(&mut states)
        {
            let mut strays: Vec<&str> = Vec::new();
            if let Some(choice) = &fields.choice {
                let legacy_multi = self.dialect == Dialect::Legacy
                    && question.presented_type == QuestionType::Multi;
                let given: Vec<&str> = match content.get(choice) {
                    Some(Value::String(v)) if legacy_multi => v.split(',').collect(),
                    Some(Value::String(v)) => vec![v.as_str()],
                    Some(Value::Array(vs)) => vs.iter().filter_map(Value::as_str).collect(),
                    _ => Vec::new(),
                };
                let mut chosen = Vec::new();
                for g in given.into_iter().filter(|g| !g.trim().is_empty()) {
                    match option_given(question, g) {
                        Some(i) => chosen.push(i),
                        None => strays.push(g.trim()),
                    }
                }
                // In option order, each once, as the form selects them.
                state.selected = (0..question.options.len())
                    .filter(|i| chosen.contains(i))
                    .collect();
            }
            for stray in &strays {
                unmatched.push(format!("{}: {:?}", question.id, excerpt(stray, 80)));
            }
            // A choice that matched nothing is not lost: it joins the person's own words.
            let own: Vec<&str> = strays
                .into_iter()
                .chain(Some(text(&fields.own).trim()))
                .filter(|t| !t.is_empty())
                .collect();
            let own = own.join(", ");
            if !own.is_empty() {
                state.set_custom_text(&own);
                state.custom_selected = true;
                if question.presented_type != QuestionType::Multi {
                    state.selected.clear();
                }
            }
            state.set_note(text(&fields.note).trim());
        }
        ReadReply {
            result: build_from_state(
                form.title.as_deref(),
                &form.questions,
                &states,
                Outcome::Submit,
            ),
            unmatched,
            ignored,
        }
    }
}

/// What kind of JSON value `value` is, for a sentence.
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> Form {
        crate::input::validate_payload(&json!({"title": "Deploy", "questions": [
            {"id": "env", "prompt": "Where should it deploy?", "options": [
                {"value": "staging", "label": "Staging", "description": "safe"},
                {"value": "prod", "label": "Production", "recommended": true, "preview": "p".repeat(2000)}]},
            {"id": "checks", "type": "multi", "prompt": "Which checks?", "options": [
                {"value": "lint", "label": "Lint"}, {"value": "test", "label": "Tests"}, {"value": "e2e", "label": "E2E"}]},
            {"id": "env_own", "prompt": "A question whose id looks like a field", "options": [
                {"value": "a", "label": "A"}]}
        ]}))
        .unwrap()
    }

    #[test]
    fn every_question_becomes_a_choice_own_words_and_a_note_and_rmcp_accepts_the_schema() {
        let e = elicitation(&form(), Dialect::Titled);
        let names: Vec<&String> = e.schema["properties"].as_object().unwrap().keys().collect();
        assert_eq!(
            names,
            [
                "env",
                "env_own_2",
                "env_note",
                "checks",
                "checks_own",
                "checks_note",
                "env_own",
                "env_own_own",
                "env_own_note"
            ]
        );
        let env = &e.schema["properties"]["env"];
        assert_eq!(
            env["oneOf"][1],
            json!({"const": "prod", "title": "Production (recommended)"})
        );
        assert_eq!(
            e.schema["properties"]["checks"]["items"]["anyOf"][2]["const"],
            "e2e"
        );
        assert!(
            e.message
                .starts_with("Deploy\n\n1. Where should it deploy?\n   - Staging: safe\n")
        );
        assert!(e.message.contains("Preview of Production:\n"));
        assert!(
            !e.message.contains(&"p".repeat(601)),
            "previews are excerpts"
        );
        let params = json!({"mode": "form", "message": e.message, "requestedSchema": e.schema});
        serde_json::from_value::<rmcp::model::ElicitRequestParams>(params).expect("rmcp reads it");
    }

    #[test]
    fn accept_is_a_submit_with_values_labels_indices_own_words_and_notes() {
        let form = form();
        let e = elicitation(&form, Dialect::Titled);
        let content = json!({"env": "prod", "env_note": " watch the logs ", "checks": ["e2e", "lint", "nope"],
            "checks_own": "fuzz", "env_own_own": "my own", "env_own": "a"});
        let result = e.result(&form, ElicitReply::Accept, Some(&content)).result;
        let answers = &serde_json::to_value(&result.details).unwrap()["answers"];
        assert_eq!(answers["env"]["values"], json!(["prod"]));
        assert_eq!(answers["env"]["labels"], json!(["Production"]));
        assert_eq!(answers["env"]["indices"], json!([2]));
        assert_eq!(answers["env"]["note"], "watch the logs");
        // `nope` matched no option: kept as the person's words, beside theirs.
        assert_eq!(
            answers["checks"]["values"],
            json!(["lint", "e2e", "nope, fuzz"])
        );
        assert_eq!(answers["checks"]["customText"], "nope, fuzz");
        // Own words replace a single choice.
        assert_eq!(answers["env_own"]["values"], json!(["my own"]));
        assert!(!result.details.cancelled);
    }

    #[test]
    fn decline_and_cancel_are_cancelled_results_with_nothing_chosen() {
        let form = form();
        let e = elicitation(&form, Dialect::Titled);
        for (reply, said) in [
            (
                ElicitReply::Decline,
                "User cancelled the ask flow: they declined the host's form.",
            ),
            (
                ElicitReply::Cancel,
                "User cancelled the ask flow: they closed the host's form without answering.",
            ),
        ] {
            let result = e.result(&form, reply, Some(&json!({"env": "prod"}))).result;
            assert!(result.details.cancelled);
            assert!(result.details.answers.is_empty());
            assert_eq!(result.text(), said);
        }
    }

    #[test]
    fn labels_and_titles_are_read_as_their_options_and_the_rest_is_kept_and_named() {
        let form = form();
        let e = elicitation(&form, Dialect::Titled);
        let content =
            json!({"env": " production (Recommended) ", "checks": ["Lint", "tests", "Smoke"]});
        let read = e.result(&form, ElicitReply::Accept, Some(&content));
        let answers = &serde_json::to_value(&read.result.details).unwrap()["answers"];
        assert_eq!(answers["env"]["values"], json!(["prod"]));
        assert_eq!(
            answers["checks"]["values"],
            json!(["lint", "test", "Smoke"])
        );
        assert_eq!(read.unmatched, ["checks: \"Smoke\""]);
        // A single choice that matches nothing becomes the answer in the person's words.
        let read = e.result(&form, ElicitReply::Accept, Some(&json!({"env": "Canary"})));
        let answers = &serde_json::to_value(&read.result.details).unwrap()["answers"];
        assert_eq!(answers["env"]["values"], json!(["Canary"]));
        assert_eq!(answers["env"]["customText"], "Canary");
    }

    /// A 2025-06-18 host rejects titled enums and arrays: its form has `enum` + `enumNames`, and a
    /// multi question as a text naming its choices, read back by name.
    #[test]
    fn the_legacy_dialect_has_no_titled_enums_or_arrays_and_reads_named_choices() {
        let form = form();
        let e = elicitation(&form, Dialect::Legacy);
        let env = &e.schema["properties"]["env"];
        assert_eq!(env["enum"], json!(["staging", "prod"]));
        assert_eq!(
            env["enumNames"],
            json!(["Staging", "Production (recommended)"])
        );
        assert!(env.get("oneOf").is_none());
        let checks = &e.schema["properties"]["checks"];
        assert_eq!(checks["type"], "string");
        assert!(
            checks["description"]
                .as_str()
                .unwrap()
                .contains("Any of: Lint, Tests, E2E")
        );
        let schema = e.schema.to_string();
        assert!(
            !schema.contains("oneOf") && !schema.contains("anyOf") && !schema.contains("array")
        );
        let params = json!({"mode": "form", "message": e.message, "requestedSchema": e.schema});
        serde_json::from_value::<rmcp::model::ElicitRequestParams>(params).expect("rmcp reads it");
        let content = json!({"env": "prod", "checks": "Lint, e2e ,smoke"});
        let read = e.result(&form, ElicitReply::Accept, Some(&content));
        let answers = &serde_json::to_value(&read.result.details).unwrap()["answers"];
        assert_eq!(answers["env"]["values"], json!(["prod"]));
        assert_eq!(answers["checks"]["values"], json!(["lint", "e2e", "smoke"]));
    }
}
