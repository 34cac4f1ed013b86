//! The original's business rules for extracted forms, and the repair used when retries run out.

use serde_json::{Value, json};

/// At most this many options per extracted question.
pub const MAX_OPTIONS: usize = 4;

/// Prompts that invite conversation rather than ask for a decision.
const GENERIC_PROMPTS: &[&str] = &[
    "how can i help",
    "could you clarify",
    "let me know what you need",
    "what else is on your mind",
    "anything on your mind i can help with",
    "anything else i can help with",
    "anything else you would like",
    "anything else you d like",
    "do you have any questions",
    "any other questions",
];

/// Lower case, every run of non-alphanumerics a single space.
fn simplify(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    out.trim().to_owned()
}

/// Whether a prompt is a generic conversational one ("How can I help you today?").
pub fn is_generic_prompt(prompt: &str) -> bool {
    let simple = simplify(prompt);
    GENERIC_PROMPTS.iter().any(|p| simple.contains(p))
}

fn options_of(question: &Value) -> &[Value] {
    question
        .get("options")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn text_of<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A question whose only (non-freeform) option just repeats the prompt.
fn restates_prompt(question: &Value) -> bool {
    let options = options_of(question);
    let [only] = options else { return false };
    if only.get("freeform") == Some(&Value::Bool(true)) {
        return false;
    }
    let prompt = simplify(text_of(question, "prompt"));
    let label = simplify(text_of(only, "label"));
    !label.is_empty()
        && (prompt == label || prompt.contains(&label) && label.len() * 2 > prompt.len())
}

/// Issues of the business rules: generic prompts, too many options, a lone option restating
/// the prompt (the original's texts where it has them).
pub fn business_issues(payload: &Value) -> Vec<String> {
    let mut issues = Vec::new();
    let questions = payload
        .get("questions")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    for (i, q) in questions.iter().enumerate() {
        if is_generic_prompt(text_of(q, "prompt")) {
            issues.push(format!(
                "questions[{i}].prompt is a generic conversational prompt; drop it"
            ));
        }
        let n = options_of(q).len();
        if n > MAX_OPTIONS {
            issues.push(format!(
                "questions[{i}].options has {n} items; max is {MAX_OPTIONS}"
            ));
        }
        if restates_prompt(q) {
            issues.push(format!(
                "questions[{i}].options has one option that restates the prompt; use a freeform option instead"
            ));
        }
    }
    issues
}

/// An "other"-ish option: label `other`, a label containing `something else`, or value `other`.
fn is_other(option: &Value) -> bool {
    let label = simplify(text_of(option, "label"));
    label == "other"
        || label.contains("something else")
        || simplify(text_of(option, "value")) == "other"
}

/// The last shape-valid candidate made to fit: generic and restating questions dropped, options
/// capped at `MAX_OPTIONS` keeping an "other" option, recommendation metadata removed.
pub fn repair(payload: &Value) -> Value {
    let mut out = payload.clone();
    let questions: Vec<Value> = payload
        .get("questions")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter(|q| !is_generic_prompt(text_of(q, "prompt")) && !restates_prompt(q))
        .map(|q| {
            let mut q = q.clone();
            let mut options: Vec<Value> = options_of(&q).to_vec();
            if options.len() > MAX_OPTIONS {
                let other = options.iter().position(is_other);
                let mut kept: Vec<Value> = options
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| Some(*i) != other)
                    .map(|(_, o)| o.clone())
                    .take(MAX_OPTIONS - usize::from(other.is_some()))
                    .collect();
                if let Some(i) = other {
                    kept.push(options[i].clone());
                }
                options = kept;
            }
            for o in &mut options {
                if let Some(map) = o.as_object_mut() {
                    map.remove("recommended");
                }
            }
            q["options"] = json!(options);
            q
        })
        .collect();
    out["questions"] = json!(questions);
    out
}
