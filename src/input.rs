//! Turning a raw `ask_user` payload into a [`Form`], or into every issue that stops it.
//!
//! The payload is read as a `serde_json::Value` rather than through derived structs so that a
//! wrong field reports *all* problems with their paths (`questions[1].options[0].value`) instead of
//! serde's first error. Label derivation (the original's `prepareArguments`) runs first.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::HashSet;

use crate::form::{Form, Question, QuestionOption, QuestionType};

/// One problem found in a payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Issue {
    /// Where in the payload (`questions[0].options[1]`).
    pub path: String,
    /// What is wrong there, in the original's words.
    pub message: String,
}

impl Issue {
    fn new(path: impl Into<String>, message: impl Into<String>) -> Issue {
        Issue {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// Why a payload was rejected: every issue, in payload order. Displays as the result's text
/// (`Invalid ask_user payload:` and a line per issue).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", invalid_input_text(.issues))]
pub struct InvalidInput {
    /// The payload's `title` exactly as given when it was a string (the result echoes it).
    pub raw_title: Option<String>,
    /// Every problem found, in payload order.
    pub issues: Vec<Issue>,
}

/// The text of an invalid payload's result: `Invalid ask_user payload:`, then `- path: message`
/// for each issue.
pub fn invalid_input_text(issues: &[Issue]) -> String {
    let mut text = String::from("Invalid ask_user payload:");
    for issue in issues {
        text.push_str(&format!("\n- {}: {}", issue.path, issue.message));
    }
    text
}

/// Parses payload text (JSON) and validates it.
pub fn parse_payload(text: &str) -> Result<Form, InvalidInput> {
    match serde_json::from_str::<Value>(text) {
        Ok(value) => validate_payload(&value),
        Err(err) => Err(InvalidInput {
            raw_title: None,
            issues: vec![Issue::new(
                "payload",
                format!("Payload is not valid JSON: {err}"),
            )],
        }),
    }
}

/// Parses payload text and validates it, returning the parsed value beside the form (the
/// history keeps the payload as given).
pub fn parse_payload_value(text: &str) -> Result<(Value, Form), InvalidInput> {
    let form = parse_payload(text)?;
    let value = serde_json::from_str(text).expect("parse_payload accepted it as JSON");
    Ok((value, form))
}

/// Parses a payload given to pi-ask's own commands (`pi-ask ask`, `pi-ask validate`) and
/// validates it as a tool payload, except that a question may be open (one `freeform: true`
/// option), as `pi-ask answer --print` writes them for the person to fix and pass on. A tool call
/// (MCP, pi) still may not carry `freeform`, as in the original.
pub fn parse_command_payload(text: &str) -> Result<(Value, Form), InvalidInput> {
    let value: Value = serde_json::from_str(text).map_err(|err| InvalidInput {
        raw_title: None,
        issues: vec![Issue::new(
            "payload",
            format!("Payload is not valid JSON: {err}"),
        )],
    })?;
    let form = validate_extracted_payload(&value)?;
    Ok((value, form))
}

/// Validates a payload value, deriving missing option labels first.
pub fn validate_payload(payload: &Value) -> Result<Form, InvalidInput> {
    validate(payload, Freeform::Refused)
}

/// Validates a form extracted from prose (`pi-ask answer`), where a question may have one
/// `freeform: true` option: an open question answered only by typing.
pub fn validate_extracted_payload(payload: &Value) -> Result<Form, InvalidInput> {
    validate(payload, Freeform::Allowed)
}

/// Whether `freeform` options are accepted (only in extracted forms, as in the original).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Freeform {
    Refused,
    Allowed,
}

fn validate(payload: &Value, freeform: Freeform) -> Result<Form, InvalidInput> {
    let Some(root) = payload.as_object() else {
        return Err(InvalidInput {
            raw_title: None,
            issues: vec![Issue::new("payload", "Payload must be a JSON object")],
        });
    };
    let raw_title = root.get("title").and_then(Value::as_str).map(str::to_owned);
    let mut issues = Vec::new();
    let title = optional_text(root, "title", "title", "title", &mut issues);

    let questions = match root.get("questions") {
        None | Some(Value::Null) => {
            issues.push(Issue::new("questions", "At least one question is required"));
            Vec::new()
        }
        Some(Value::Array(items)) if items.is_empty() => {
            issues.push(Issue::new("questions", "At least one question is required"));
            Vec::new()
        }
        Some(Value::Array(items)) => validate_questions(items, freeform, &mut issues),
        Some(_) => {
            issues.push(Issue::new(
                "questions",
                "questions must be an array of questions",
            ));
            Vec::new()
        }
    };

    if issues.is_empty() {
        Ok(Form { title, questions })
    } else {
        Err(InvalidInput { raw_title, issues })
    }
}

/// The fields of a payload's questions and options.
const QUESTION_FIELDS: &[&str] = &["id", "label", "prompt", "type", "required", "options"];
const OPTION_FIELDS: &[&str] = &[
    "value",
    "label",
    "description",
    "preview",
    "recommended",
    "freeform",
];
/// Fields of other hosts' question tools (Claude Code's `AskUserQuestion`) and what they are here.
const OTHER_HOSTS: &[(&str, &str)] = &[
    ("question", "prompt"),
    ("header", "label"),
    ("multiSelect", "\"type\": \"multi\""),
];

/// The fields of `payload` the contract does not read, each with its path and the field meant
/// where one is close or another host's name for it (`questions[0].lable (did you mean label?)`,
/// `questions[0].header (did you mean label?)`). Validation ignores them, as the original does;
/// a command says them, so a typo is not lost in silence.
pub fn ignored_fields(payload: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(root) = payload.as_object() else {
        return out;
    };
    // The fields of `object` (at `path`) that are not `known`, each named with the field meant.
    let mut unknown_in = |object: &serde_json::Map<String, Value>, path: &str, known: &[&str]| {
        for field in object.keys().filter(|k| !known.contains(&k.as_str())) {
            let meant = OTHER_HOSTS
                .iter()
                .find(|(other, _)| other == field)
                .map(|(_, ours)| (*ours).to_owned())
                .or_else(|| {
                    crate::did_you_mean::nearest(field, known.iter().copied()).map(str::to_owned)
                });
            // An empty key is still named: said bare it would be an empty line.
            let name = if field.is_empty() { "\"\"" } else { field };
            let at = if path.is_empty() {
                name.to_owned()
            } else {
                format!("{path}.{name}")
            };
            out.push(match meant {
                Some(meant) => format!("{at} (did you mean {meant}?)"),
                None => at,
            });
        }
    };
    unknown_in(root, "", &["title", "questions"]);
    let questions = root.get("questions").and_then(Value::as_array);
    for (q, question) in questions.into_iter().flatten().enumerate() {
        let Some(question) = question.as_object() else {
            continue;
        };
        unknown_in(question, &format!("questions[{q}]"), QUESTION_FIELDS);
        let options = question.get("options").and_then(Value::as_array);
        for (o, option) in options.into_iter().flatten().enumerate() {
            if let Some(option) = option.as_object() {
                unknown_in(
                    option,
                    &format!("questions[{q}].options[{o}]"),
                    OPTION_FIELDS,
                );
            }
        }
    }
    out
}

/// Fills in the label of every option that has none (missing, null or blank) from its value, as
/// the original's `prepareArguments` does before pi checks the tool's schema. Everything else is
/// left as it is (validation still reports what is wrong).
pub fn prepare_arguments(payload: &mut Value) {
    let Some(questions) = payload.get_mut("questions").and_then(Value::as_array_mut) else {
        return;
    };
    for question in questions {
        let Some(options) = question.get_mut("options").and_then(Value::as_array_mut) else {
            continue;
        };
        for option in options.iter_mut().filter_map(Value::as_object_mut) {
            let blank = match option.get("label") {
                None | Some(Value::Null) => true,
                Some(Value::String(s)) => s.trim().is_empty(),
                Some(_) => false,
            };
            let derived = option
                .get("value")
                .and_then(Value::as_str)
                .and_then(derive_label);
            if let (true, Some(label)) = (blank, derived) {
                option.insert("label".into(), Value::String(label));
            }
        }
    }
}

/// The label the original derives for an option with a missing or blank label:
/// hyphen/underscore runs become spaces, whitespace collapses, the first character is capitalised.
pub fn derive_label(value: &str) -> Option<String> {
    let spaced: String = value
        .chars()
        .map(|c| if c == '-' || c == '_' { ' ' } else { c })
        .collect();
    let collapsed = spaced.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut chars = collapsed.chars();
    let first = chars.next()?;
    Some(first.to_uppercase().chain(chars).collect())
}

fn validate_questions(
    items: &[Value],
    freeform: Freeform,
    issues: &mut Vec<Issue>,
) -> Vec<Question> {
    let mut seen_ids = HashSet::new();
    let mut questions = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        if let Some(q) = validate_question(i, item, freeform, &mut seen_ids, issues) {
            questions.push(q);
        }
    }
    questions
}

fn validate_question(
    i: usize,
    item: &Value,
    freeform: Freeform,
    seen_ids: &mut HashSet<String>,
    issues: &mut Vec<Issue>,
) -> Option<Question> {
    let n = i + 1;
    let path = format!("questions[{i}]");
    let Some(obj) = item.as_object() else {
        issues.push(Issue::new(path, format!("Question {n} must be an object")));
        return None;
    };
    let before = issues.len();
    let who = format!("Question {n}");

    let requested_type = match obj.get("type") {
        None | Some(Value::Null) => Some(QuestionType::Single),
        Some(Value::String(s)) if QuestionType::from_wire(s).is_some() => {
            QuestionType::from_wire(s)
        }
        Some(other) => {
            issues.push(Issue::new(
                format!("{path}.type"),
                format!(r#"{who}: invalid type {other}; expected "single", "multi", or "preview""#),
            ));
            None
        }
    };

    let id = required_text(obj, "id", &format!("{path}.id"), &who, issues);
    if let Some(id) = &id
        && !seen_ids.insert(id.clone())
    {
        issues.push(Issue::new(
            format!("{path}.id"),
            format!(r#"{who}: duplicate question id "{id}""#),
        ));
    }
    let prompt = required_text(obj, "prompt", &format!("{path}.prompt"), &who, issues);
    let label = optional_text(obj, "label", &format!("{path}.label"), &who, issues)
        .unwrap_or_else(|| format!("Q{n}"));
    let required = match obj.get("required") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            issues.push(Issue::new(
                format!("{path}.required"),
                format!("{who}: required must be true or false"),
            ));
            false
        }
    };

    let mut is_freeform = false;
    let options = match obj.get("options") {
        Some(Value::Array(items)) if !items.is_empty() => {
            let freeform_options = items
                .iter()
                .filter(|o| o.get("freeform") == Some(&Value::Bool(true)))
                .count();
            if freeform_options > 0 && freeform == Freeform::Refused {
                issues.push(Issue::new(
                    format!("{path}.options"),
                    format!("{who}: freeform options are only supported for /answer forms"),
                ));
            } else if freeform_options > 0 && items.len() > 1 {
                issues.push(Issue::new(
                    format!("{path}.options"),
                    format!("{who}: freeform options must be the only option"),
                ));
            }
            is_freeform = freeform_options == 1 && items.len() == 1;
            let options = validate_options(&path, n, requested_type, items, issues);
            // The freeform option is a marker, not a choice: the question has only its editor.
            if is_freeform { Vec::new() } else { options }
        }
        Some(Value::Array(_)) | None | Some(Value::Null) => {
            issues.push(Issue::new(
                format!("{path}.options"),
                format!("{who}: at least one option is required"),
            ));
            Vec::new()
        }
        Some(_) => {
            issues.push(Issue::new(
                format!("{path}.options"),
                format!("{who}: options must be an array of options"),
            ));
            Vec::new()
        }
    };

    if issues.len() != before {
        return None;
    }
    let requested_type = requested_type?;
    Some(Question {
        id: id?,
        label,
        prompt: prompt?,
        requested_type,
        presented_type: requested_type,
        required,
        options,
        freeform: is_freeform,
    })
}

fn validate_options(
    qpath: &str,
    n: usize,
    qtype: Option<QuestionType>,
    items: &[Value],
    issues: &mut Vec<Issue>,
) -> Vec<QuestionOption> {
    let mut seen_values = HashSet::new();
    let mut options = Vec::with_capacity(items.len());
    for (j, item) in items.iter().enumerate() {
        let m = j + 1;
        let path = format!("{qpath}.options[{j}]");
        let who = format!("Question {n}, option {m}");
        let Some(obj) = item.as_object() else {
            issues.push(Issue::new(path, format!("{who} must be an object")));
            continue;
        };
        let value = required_text(obj, "value", &format!("{path}.value"), &who, issues);
        if let Some(v) = &value
            && !seen_values.insert(v.clone())
        {
            issues.push(Issue::new(
                format!("{path}.value"),
                format!(r#"{who}: duplicate option value "{v}""#),
            ));
        }
        let label = option_label(obj, &format!("{path}.label"), &who, issues);
        let description = optional_text(
            obj,
            "description",
            &format!("{path}.description"),
            &who,
            issues,
        );
        let preview = optional_text(obj, "preview", &format!("{path}.preview"), &who, issues);
        if qtype == Some(QuestionType::Preview)
            && preview.is_none()
            && !matches!(obj.get("preview"), Some(v) if !v.is_string() && !v.is_null())
        {
            issues.push(Issue::new(
                format!("{path}.preview"),
                format!(
                    r#"{who}: preview questions require preview text for every option; add preview text or use type "single" instead"#
                ),
            ));
        }
        let recommended = match obj.get("recommended") {
            None | Some(Value::Null) => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(_) => {
                issues.push(Issue::new(
                    format!("{path}.recommended"),
                    format!("{who}: recommended must be true or false"),
                ));
                None
            }
        };
        if let (Some(value), Some(label)) = (value, label) {
            options.push(QuestionOption {
                value,
                label,
                description,
                preview,
                recommended,
            });
        }
    }
    options
}

/// The label of an option: given and non-blank, else derived from the value.
fn option_label(
    obj: &Map<String, Value>,
    path: &str,
    who: &str,
    issues: &mut Vec<Issue>,
) -> Option<String> {
    match obj.get("label") {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        None | Some(Value::Null) | Some(Value::String(_)) => {
            let derived = obj
                .get("value")
                .and_then(Value::as_str)
                .and_then(derive_label);
            if derived.is_none() {
                issues.push(Issue::new(path, format!("{who}: label is required")));
            }
            derived
        }
        Some(_) => {
            issues.push(Issue::new(path, format!("{who}: label must be a string")));
            None
        }
    }
}

/// A required string field: present, a string, not blank. Returns it trimmed.
fn required_text(
    obj: &Map<String, Value>,
    key: &str,
    path: &str,
    who: &str,
    issues: &mut Vec<Issue>,
) -> Option<String> {
    match obj.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        Some(Value::String(_)) | None | Some(Value::Null) => {
            issues.push(Issue::new(path, format!("{who}: {key} is required")));
            None
        }
        Some(_) => {
            issues.push(Issue::new(path, format!("{who}: {key} must be a string")));
            None
        }
    }
}

/// An optional string field: absent, null or blank are all `None`; a non-string is an issue.
fn optional_text(
    obj: &Map<String, Value>,
    key: &str,
    path: &str,
    who: &str,
    issues: &mut Vec<Issue>,
) -> Option<String> {
    match obj.get(key) {
        Some(Value::String(s)) => Some(s.trim()).filter(|s| !s.is_empty()).map(str::to_owned),
        None | Some(Value::Null) => None,
        Some(_) => {
            let message = if who == key {
                format!("{key} must be a string")
            } else {
                format!("{who}: {key} must be a string")
            };
            issues.push(Issue::new(path, message));
            None
        }
    }
}
