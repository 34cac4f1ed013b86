//! The questions of a host's own question tool in pi-ask's terms, and back. Claude Code's
//! `AskUserQuestion`, Codex's `request_user_input` and Gemini CLI's `ask_user` all take a list of
//! `{question, header, options: [{label, description}]}` (Claude and Gemini add `multiSelect`);
//! each host's module reads its event and writes its answer, this one does what they share. Pure.
//!
//! The n-th question (counting from 1, blank ones included) becomes pi-ask's question `q<n>`, its
//! i-th option the value `o<i>`, so an answer maps back to the host's question and label by
//! position. A label ending in "(Recommended)" (the convention both Claude's and Codex's tool
//! descriptions teach the model) is shown without it and marked recommended; the answer names the
//! host's own label.

use serde_json::{Value, json};

use crate::result::{AskResult, Details, Mode};

/// Why a hook event is not one pi-ask answers (the hook then stays silent: the host asks).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotOurs {
    /// Another event or tool than the host's question tool.
    #[error("not the host's question tool")]
    OtherEvent,
    /// The tool input has no questions pi-ask can show.
    #[error("the tool's input has no questions with options")]
    NoQuestions,
    /// The questions break a rule of pi-ask's contract (the issues said).
    #[error("pi-ask cannot show these questions: {0}")]
    Invalid(String),
    /// An MCP server's form has a field that is not a choice (free text, a number).
    #[error("the form's field {0:?} is not a choice (pi-ask asks choices)")]
    OpenField(String),
    /// An MCP server asks the person to open a URL, not to fill a form.
    #[error("a URL elicitation, not a form")]
    NotAForm,
}

/// The longest tab label taken from a `header` (pi-ask's labels are short).
const LABEL_CHARS: usize = 24;

/// The suffix a model puts on the option it recommends.
const RECOMMENDED: &str = "(recommended)";

/// The `ask_user` payload for a host's `questions`, or why there is none. Questions or options
/// with a blank text are left out; what is left must be an ask pi-ask can show.
pub fn payload(questions: Option<&Value>) -> Result<Value, NotOurs> {
    let questions = questions
        .and_then(Value::as_array)
        .ok_or(NotOurs::NoQuestions)?;
    let mut asked = Vec::new();
    for (n, q) in questions.iter().enumerate() {
        let Some(prompt) = text_of(q, "question") else {
            continue;
        };
        let options: Vec<Value> = options_of(q)
            .iter()
            .enumerate()
            .filter_map(|(i, o)| {
                let label = text_of(o, "label")?;
                let (shown, recommended) = without_recommended(label);
                let mut option = json!({"value": format!("o{}", i + 1), "label": shown});
                if recommended {
                    option["recommended"] = true.into();
                }
                if let Some(d) = text_of(o, "description") {
                    option["description"] = d.into();
                }
                Some(option)
            })
            .collect();
        if options.is_empty() {
            continue;
        }
        let multi = q.get("multiSelect").and_then(Value::as_bool) == Some(true);
        let mut question = json!({
            "id": format!("q{}", n + 1),
            "prompt": prompt,
            "type": if multi { "multi" } else { "single" },
            "options": options,
        });
        if let Some(header) = text_of(q, "header") {
            question["label"] = header
                .trim()
                .chars()
                .take(LABEL_CHARS)
                .collect::<String>()
                .into();
        }
        asked.push(question);
    }
    if asked.is_empty() {
        return Err(NotOurs::NoQuestions);
    }
    let payload = json!({"questions": asked});
    // What pi-ask cannot show as it is (a rule of the contract the host does not have) is left
    // to the host.
    match crate::input::validate_payload(&payload) {
        Ok(_) => Ok(payload),
        Err(invalid) => Err(NotOurs::Invalid(invalid.to_string())),
    }
}

/// The answer to one host question, in the host's words.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HostAnswer {
    /// The chosen options' labels as the host wrote them, then the person's own words.
    pub chosen: Vec<String>,
    /// The question's note, if any.
    pub note: Option<String>,
    /// Notes on options: (the host's label, the note).
    pub option_notes: Vec<(String, String)>,
}

/// The answer `details` holds for the host's question at `index` (of `questions`), if any.
pub fn answer(details: &Details, questions: &Value, index: usize) -> Option<HostAnswer> {
    let question = questions.as_array()?.get(index)?;
    let answer = details.answers.get(&format!("q{}", index + 1))?;
    let options = options_of(question);
    let host_label = |value: &str| -> String {
        value
            .strip_prefix('o')
            .and_then(|i| i.parse::<usize>().ok())
            .and_then(|i| options.get(i.checked_sub(1)?))
            .and_then(|o| text_of(o, "label"))
            .map_or_else(|| value.to_owned(), str::to_owned)
    };
    // The person's own words are among the values too (multi): they stay words, even ones that
    // look like an option's value.
    let own = answer
        .custom_text
        .as_ref()
        .filter(|own| !own.trim().is_empty());
    let mut chosen: Vec<String> = answer
        .values
        .iter()
        .filter(|v| Some(*v) != own)
        .map(|v| host_label(v))
        .collect();
    if let Some(own) = own {
        chosen.push(own.clone());
    }
    let option_notes = answer
        .option_notes
        .iter()
        .flatten()
        .map(|(value, note)| (host_label(value), note.clone()))
        .collect();
    Some(HostAnswer {
        chosen,
        note: answer.note.clone(),
        option_notes,
    })
}

/// Why `result` gives the host no answers, said to the model (the host's deny reason): the person
/// cancelled (never made into an answer) or asked the model to explain first. `None` when answered.
pub fn not_answered(result: &AskResult) -> Option<String> {
    if result.details.cancelled {
        return Some(format!(
            "The user declined to answer these questions in pi-ask (cancelled). Do not assume answers. {}",
            result.text()
        ));
    }
    (result.details.mode == Mode::Elaborate).then(|| {
        format!(
            "The user wants you to explain before they answer: {} Ask again afterwards.",
            result.text()
        )
    })
}

/// The result of the form `payload` asks after `msgs` (the hooks' unit tests).
#[cfg(test)]
pub(super) fn result_after(payload: &Value, msgs: Vec<crate::model::Msg>) -> AskResult {
    let form = crate::input::validate_payload(payload).expect("a valid payload");
    let mut model = crate::model::Model::new(form, crate::settings::Settings::defaults());
    let mut result = None;
    for msg in msgs {
        for cmd in crate::model::update(&mut model, msg) {
            if let crate::model::Cmd::Finish(r) = cmd {
                result = Some(*r);
            }
        }
    }
    result.expect("finished")
}

/// The question's text (`question`) at `index`, if it has one.
pub fn question_text(questions: &Value, index: usize) -> Option<&str> {
    text_of(questions.as_array()?.get(index)?, "question")
}

fn options_of(question: &Value) -> &[Value] {
    question
        .get("options")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// A field's text, when it is a string with more than blanks.
pub(super) fn text_of<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value
        .get(key)
        .and_then(Value::as_str)
        .filter(|t| !t.trim().is_empty())
}

/// A label without a trailing "(Recommended)", and whether it had one (a label that is only the
/// suffix is kept as it is).
fn without_recommended(label: &str) -> (&str, bool) {
    let trimmed = label.trim_end();
    let cut = trimmed.len().saturating_sub(RECOMMENDED.len());
    match (trimmed.get(..cut), trimmed.get(cut..)) {
        (Some(rest), Some(suffix))
            if suffix.eq_ignore_ascii_case(RECOMMENDED) && !rest.trim().is_empty() =>
        {
            (rest.trim_end(), true)
        }
        _ => (label, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recommended_suffix_becomes_the_mark() {
        assert_eq!(
            without_recommended("SQLite (Recommended)"),
            ("SQLite", true)
        );
        assert_eq!(
            without_recommended("SQLite (recommended) "),
            ("SQLite", true)
        );
        assert_eq!(
            without_recommended("(Recommended)"),
            ("(Recommended)", false)
        );
        assert_eq!(without_recommended("Postgres"), ("Postgres", false));
        // Multi-byte text right before the suffix is cut on a character boundary or left alone.
        assert_eq!(without_recommended("é(Recommended)"), ("é", true));
        assert_eq!(without_recommended("日本"), ("日本", false));
    }

    #[test]
    fn own_words_that_look_like_an_option_value_stay_words() {
        let questions = json!([{"question": "Which?", "multiSelect": true,
            "options": [{"label": "A"}, {"label": "B"}]}]);
        use crate::model::{Direct, Intent, Msg, ReviewAction};
        let result = result_after(
            &payload(Some(&questions)).unwrap(),
            vec![
                Msg::Direct(Direct::Toggle(1)),
                Msg::Direct(Direct::Own("o1".into())),
                Msg::Intent(Intent::Review(ReviewAction::Submit)),
            ],
        );
        let answer = answer(&result.details, &questions, 0).unwrap();
        assert_eq!(answer.chosen, ["B", "o1"]);
    }

    #[test]
    fn blank_questions_and_options_are_left_out_and_the_rest_keeps_its_place() {
        let questions = json!([
            {"question": " ", "options": [{"label": "A"}]},
            {"question": "Which?", "header": "Pick", "options": [{"label": ""}, {"label": "B (Recommended)", "description": "best"}]}
        ]);
        let p = payload(Some(&questions)).unwrap();
        let asked = p["questions"].as_array().unwrap();
        assert_eq!(asked.len(), 1);
        assert_eq!(asked[0]["id"], "q2");
        assert_eq!(asked[0]["label"], "Pick");
        assert_eq!(asked[0]["options"][0]["value"], "o2");
        assert_eq!(asked[0]["options"][0]["label"], "B");
        assert_eq!(asked[0]["options"][0]["recommended"], true);
        assert_eq!(payload(Some(&json!([]))), Err(NotOurs::NoQuestions));
        assert_eq!(payload(None), Err(NotOurs::NoQuestions));
        assert_eq!(payload(Some(&json!("no"))), Err(NotOurs::NoQuestions));
    }
}
