//! Claude Code's `Elicitation` hook: an MCP server's form (`elicitation/create`, or a 2026-07-28
//! round trip) asked in pi-ask instead of Claude Code's own dialog, and answered back with
//! `action` and `content`. Pure.
//!
//! The event: `{hook_event_name: "Elicitation", mcp_server_name, message, mode, requested_schema}`.
//! pi-ask asks a form whose every field is a choice: a string with `enum` (named by `enumNames`)
//! or `oneOf` `{const, title}` is a single question, an array whose `items` have `enum` or
//! `anyOf` a multi question, a boolean a Yes/No question; a field's `default` is the recommended
//! option, and a field the form requires is marked required. A form with any other field (free text, a number: pi-ask's questions are choices, as the
//! contract says) or a URL elicitation is left to Claude Code's own dialog, and so are pi-ask's
//! own forms (they have free-text fields), whose ask is already in the queue.
//!
//! The n-th field becomes question `f<n>`, its i-th choice the value `o<i>`: the answer maps back
//! by position whatever the keys and values. The person's own words go back only when they name a
//! choice; other words, or a required field left unanswered, decline the form (the server's form
//! cannot hold them) with the reason said to Claude Code. A cancel in pi-ask is a decline too, never
//! a made-up answer. Notes have no place in a server's form and are not sent.

use serde_json::{Map, Value, json};

use super::questions::{NotOurs, text_of};
use crate::result::{Answer, AskResult, Mode};

/// The event's name.
pub const EVENT: &str = "Elicitation";

/// The longest tab label taken from a field's title (pi-ask's labels are short).
const LABEL_CHARS: usize = 24;

/// The longest title taken from the form's message.
const TITLE_CHARS: usize = 80;

/// A form field pi-ask can ask.
#[derive(Debug, Clone, PartialEq)]
struct Field {
    /// Its key in the form's `properties`.
    key: String,
    /// What it asks.
    kind: Kind,
    /// Whether the form requires it.
    required: bool,
}

/// The kinds of field that are choices.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// One of these (the value sent, its title).
    One(Vec<(Value, String)>),
    /// Any of these.
    Many(Vec<(Value, String)>),
    /// `true` or `false`.
    YesNo,
}

impl Kind {
    /// The choices: (what goes back, what the person reads).
    fn choices(&self) -> Vec<(Value, String)> {
        match self {
            Kind::One(choices) | Kind::Many(choices) => choices.clone(),
            Kind::YesNo => vec![(true.into(), "Yes".into()), (false.into(), "No".into())],
        }
    }
}

/// Whether `event` is Claude Code's `Elicitation` event.
pub fn is_elicitation(event: &Value) -> bool {
    event.get("hook_event_name").and_then(Value::as_str) == Some(EVENT)
}

/// The MCP server asking, as the event names it.
pub fn server(event: &Value) -> &str {
    event
        .get("mcp_server_name")
        .and_then(Value::as_str)
        .unwrap_or("an MCP server")
}

/// The `ask_user` payload for the form in `event`, or why pi-ask leaves it to Claude Code.
pub fn payload(event: &Value) -> Result<Value, NotOurs> {
    let fields = fields(event)?;
    let schema = &event["requested_schema"];
    let mut questions = Vec::new();
    for (n, field) in fields.iter().enumerate() {
        let property = &schema["properties"][&field.key];
        let title = text_of(property, "title").unwrap_or(&field.key);
        let prompt = text_of(property, "description").unwrap_or(title);
        let default = property.get("default");
        let recommended = |value: &Value| match default {
            Some(Value::Array(items)) => items.contains(value),
            Some(one) => one == value,
            None => false,
        };
        let options: Vec<Value> = field
            .kind
            .choices()
            .iter()
            .enumerate()
            .map(|(i, (value, shown))| {
                let mut option = json!({"value": format!("o{}", i + 1), "label": shown});
                if recommended(value) {
                    option["recommended"] = true.into();
                }
                option
            })
            .collect();
        questions.push(json!({
            "id": format!("f{}", n + 1),
            "label": title.trim().chars().take(LABEL_CHARS).collect::<String>(),
            "prompt": prompt,
            "type": if matches!(field.kind, Kind::Many(_)) { "multi" } else { "single" },
            "required": field.required,
            "options": options,
        }));
    }
    let mut payload = json!({"questions": questions});
    let message = event.get("message").and_then(Value::as_str).unwrap_or("");
    if let Some(first) = message.lines().find(|l| !l.trim().is_empty()) {
        let first = first.trim();
        let title: String = first.chars().take(TITLE_CHARS).collect();
        payload["title"] = title.clone().into();
        // A message longer than its first line is read before the first question.
        if title.len() < message.trim().len() {
            let prompt = payload["questions"][0]["prompt"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            payload["questions"][0]["prompt"] = format!("{}\n\n{prompt}", message.trim()).into();
        }
    }
    match crate::input::validate_payload(&payload) {
        Ok(_) => Ok(payload),
        Err(invalid) => Err(NotOurs::Invalid(invalid.to_string())),
    }
}

/// The hook's output for pi-ask's `result` of the ask made from `event`: accept with the form's
/// content, or decline with the reason.
pub fn output(event: &Value, result: &AskResult) -> Value {
    let decline = |reason: String| json!({"reason": reason, "hookSpecificOutput": {"hookEventName": EVENT, "action": "decline"}});
    if result.details.cancelled {
        return decline("The user declined this form in pi-ask.".into());
    }
    if result.details.mode == Mode::Elaborate {
        return decline(format!(
            "The user wants it explained before they answer: {}",
            result.text()
        ));
    }
    let Ok(fields) = fields(event) else {
        return decline("pi-ask could not read this form again.".into());
    };
    let mut content = Map::new();
    for (n, field) in fields.iter().enumerate() {
        let answer = result.details.answers.get(&format!("f{}", n + 1));
        match answer.map_or(FieldAnswer::Nothing, |a| field_answer(field, a)) {
            FieldAnswer::Given(value) => {
                content.insert(field.key.clone(), value);
            }
            FieldAnswer::OwnWords(words) => {
                return decline(format!(
                    "The user answered \"{}\" in their own words, which this form cannot take: {words}",
                    field.key
                ));
            }
            FieldAnswer::Nothing if field.required => {
                return decline(format!(
                    "The user left \"{}\", which this form requires, unanswered.",
                    field.key
                ));
            }
            FieldAnswer::Nothing => {}
        }
    }
    json!({"hookSpecificOutput": {"hookEventName": EVENT, "action": "accept", "content": content}})
}

/// What an answer gives a field of the server's form.
#[derive(Debug, Clone, PartialEq)]
enum FieldAnswer {
    /// The field's value, in the form's own terms.
    Given(Value),
    /// Nothing chosen.
    Nothing,
    /// The person's own words, naming none of the field's choices (the form cannot take them).
    OwnWords(String),
}

/// What `answer` gives `field`.
fn field_answer(field: &Field, answer: &Answer) -> FieldAnswer {
    let choices = field.kind.choices();
    let own = answer.custom_text.as_deref();
    let mut chosen: Vec<Value> = answer
        .values
        .iter()
        .filter(|v| Some(v.as_str()) != own)
        .filter_map(|v| {
            let i: usize = v.strip_prefix('o')?.parse().ok()?;
            choices
                .get(i.checked_sub(1)?)
                .map(|(value, _)| value.clone())
        })
        .collect();
    if let Some(words) = own.map(str::trim).filter(|w| !w.is_empty()) {
        // Own words that name a choice (its title or its value) are that choice.
        let named = choices.iter().find(|(value, shown)| {
            shown.eq_ignore_ascii_case(words)
                || value
                    .as_str()
                    .is_some_and(|v| v.eq_ignore_ascii_case(words))
                || value.as_bool().map(|b| b.to_string()) == Some(words.to_ascii_lowercase())
        });
        match named {
            Some((value, _)) if !chosen.contains(value) => chosen.push(value.clone()),
            Some(_) => {}
            None => return FieldAnswer::OwnWords(words.to_owned()),
        }
    }
    let value = match &field.kind {
        Kind::Many(_) if chosen.is_empty() => None,
        Kind::Many(_) => Some(Value::Array(chosen)),
        Kind::One(_) | Kind::YesNo => chosen.into_iter().next_back(),
    };
    value.map_or(FieldAnswer::Nothing, FieldAnswer::Given)
}

/// The form's fields, or why pi-ask does not ask it.
fn fields(event: &Value) -> Result<Vec<Field>, NotOurs> {
    if !is_elicitation(event) {
        return Err(NotOurs::OtherEvent);
    }
    if event.get("mode").and_then(Value::as_str) == Some("url") {
        return Err(NotOurs::NotAForm);
    }
    let schema = event.get("requested_schema").ok_or(NotOurs::NoQuestions)?;
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .filter(|p| !p.is_empty())
        .ok_or(NotOurs::NoQuestions)?;
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    properties
        .iter()
        .map(|(key, property)| {
            let kind = kind_of(property).ok_or_else(|| NotOurs::OpenField(key.clone()))?;
            Ok(Field {
                key: key.clone(),
                kind,
                required: required.contains(&key.as_str()),
            })
        })
        .collect()
}

/// What a field asks, when it is a choice.
fn kind_of(property: &Value) -> Option<Kind> {
    match property.get("type").and_then(Value::as_str)? {
        "boolean" => Some(Kind::YesNo),
        "string" => string_choices(property).map(Kind::One),
        "array" => string_choices(property.get("items")?).map(Kind::Many),
        _ => None,
    }
}

/// The choices of a string schema: `enum` (titled by `enumNames` when it names each), or
/// `oneOf`/`anyOf` of `{const, title}`; `None` when it has none (free text).
fn string_choices(schema: &Value) -> Option<Vec<(Value, String)>> {
    let choices: Vec<(Value, String)> = if let Some(values) = schema.get("enum") {
        let values = values.as_array()?;
        let names = schema
            .get("enumNames")
            .and_then(Value::as_array)
            .filter(|n| n.len() == values.len());
        values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let value = v.as_str()?;
                let name = names.and_then(|n| n[i].as_str()).unwrap_or(value);
                Some((v.clone(), name.to_owned()))
            })
            .collect::<Option<_>>()?
    } else {
        let titled = schema.get("oneOf").or_else(|| schema.get("anyOf"))?;
        titled
            .as_array()?
            .iter()
            .map(|c| {
                let value = c.get("const")?;
                let shown = text_of(c, "title").or(value.as_str())?;
                value.is_string().then(|| (value.clone(), shown.to_owned()))
            })
            .collect::<Option<_>>()?
    };
    (!choices.is_empty()).then_some(choices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Direct, Intent, Msg, ReviewAction};

    fn event() -> Value {
        json!({"hook_event_name": "Elicitation", "mcp_server_name": "release", "mode": "form",
            "message": "How should the release go?\nIt ships tonight.",
            "requested_schema": {"type": "object", "required": ["channel"], "properties": {
                "channel": {"type": "string", "title": "Channel", "description": "Where to publish?",
                    "oneOf": [{"const": "beta", "title": "Beta"}, {"const": "stable", "title": "Stable"}],
                    "default": "beta"},
                "targets": {"type": "array", "title": "Targets",
                    "items": {"anyOf": [{"const": "linux", "title": "Linux"}, {"const": "mac", "title": "macOS"}]}},
                "notify": {"type": "boolean", "description": "Tell the team?", "default": true},
                "region": {"type": "string", "enum": ["eu", "us"], "enumNames": ["Europe", "America"]}}}})
    }

    fn answered(msgs: Vec<Msg>) -> AskResult {
        crate::drivers::hooks::questions::result_after(&payload(&event()).unwrap(), msgs)
    }

    fn submit() -> Msg {
        Msg::Intent(Intent::Review(ReviewAction::Submit))
    }

    #[test]
    fn every_choice_field_becomes_a_question_with_its_default_recommended() {
        let p = payload(&event()).unwrap();
        assert_eq!(p["title"], "How should the release go?");
        let q = p["questions"].as_array().unwrap();
        assert_eq!(q.len(), 4);
        assert_eq!(q[0]["label"], "Channel");
        assert_eq!(q[0]["required"], true);
        assert_eq!(q[1]["required"], false);
        assert_eq!(
            q[0]["prompt"],
            "How should the release go?\nIt ships tonight.\n\nWhere to publish?"
        );
        assert_eq!(q[0]["options"][0]["recommended"], true);
        assert_eq!(q[1]["type"], "multi");
        assert_eq!(q[1]["options"][1]["label"], "macOS");
        assert_eq!(q[2]["label"], "notify");
        assert_eq!(q[2]["prompt"], "Tell the team?");
        assert_eq!(q[2]["options"][0]["label"], "Yes");
        assert_eq!(q[2]["options"][0]["recommended"], true);
        assert_eq!(q[3]["options"][0]["label"], "Europe");
    }

    #[test]
    fn the_answer_is_the_forms_content_in_its_own_values() {
        let result = answered(vec![
            Msg::Direct(Direct::Choose(vec![1])),
            Msg::Direct(Direct::Choose(vec![0, 1])),
            Msg::Direct(Direct::Choose(vec![1])),
            Msg::Direct(Direct::Choose(vec![0])),
            submit(),
        ]);
        let out = output(&event(), &result);
        let specific = &out["hookSpecificOutput"];
        assert_eq!(specific["hookEventName"], "Elicitation");
        assert_eq!(specific["action"], "accept");
        assert_eq!(
            specific["content"],
            json!({"channel": "stable", "targets": ["linux", "mac"], "notify": false, "region": "eu"})
        );
    }

    #[test]
    fn own_words_naming_a_choice_are_it_and_other_words_decline() {
        let named = answered(vec![Msg::Direct(Direct::Own("STABLE".into())), submit()]);
        assert_eq!(
            output(&event(), &named)["hookSpecificOutput"]["content"],
            json!({"channel": "stable"})
        );
        let words = answered(vec![Msg::Direct(Direct::Own("nightly".into())), submit()]);
        let out = output(&event(), &words);
        assert_eq!(out["hookSpecificOutput"]["action"], "decline");
        assert!(out["reason"].as_str().unwrap().contains("nightly"), "{out}");
    }

    #[test]
    fn a_required_field_unanswered_or_a_cancel_declines() {
        let skipped = answered(vec![submit()]);
        let out = output(&event(), &skipped);
        assert_eq!(out["hookSpecificOutput"]["action"], "decline");
        assert!(out["reason"].as_str().unwrap().contains("channel"), "{out}");
        let cancelled = answered(vec![Msg::Intent(Intent::Review(ReviewAction::Cancel))]);
        let out = output(&event(), &cancelled);
        assert_eq!(out["hookSpecificOutput"]["action"], "decline");
        assert!(out["hookSpecificOutput"].get("content").is_none());
    }

    #[test]
    fn free_text_url_forms_other_events_and_pi_asks_own_forms_are_left_to_claude() {
        let mut free = event();
        free["requested_schema"]["properties"]["name"] = json!({"type": "string"});
        assert_eq!(payload(&free), Err(NotOurs::OpenField("name".into())));
        let mut number = event();
        number["requested_schema"]["properties"]["count"] = json!({"type": "integer"});
        assert_eq!(payload(&number), Err(NotOurs::OpenField("count".into())));
        let mut url = event();
        url["mode"] = "url".into();
        assert_eq!(payload(&url), Err(NotOurs::NotAForm));
        let mut other = event();
        other["hook_event_name"] = "PreToolUse".into();
        assert_eq!(payload(&other), Err(NotOurs::OtherEvent));
        let mut empty = event();
        empty["requested_schema"]["properties"] = json!({});
        assert_eq!(payload(&empty), Err(NotOurs::NoQuestions));
        // pi-ask's own form (its ask is already in the queue) has free-text fields.
        let form = crate::input::validate_payload(&json!({"questions": [{"id": "db",
            "prompt": "Which?", "options": [{"value": "pg", "label": "PostgreSQL"}]}]}))
        .unwrap();
        let own = crate::drivers::mcp::elicitation(&form, crate::drivers::mcp::Dialect::Titled);
        let event = json!({"hook_event_name": "Elicitation", "mcp_server_name": "pi-ask",
            "message": own.message, "requested_schema": own.schema});
        assert!(matches!(payload(&event), Err(NotOurs::OpenField(_))));
    }
}
