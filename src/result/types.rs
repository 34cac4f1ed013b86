//! The tool result `{content, details}` with the contract's camelCase field names.
//!
//! Optional fields are omitted when absent, as the original's `JSON.stringify` drops `undefined`.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::form::{Question, QuestionOption, QuestionType};
use crate::input::Issue;

/// The whole tool result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AskResult {
    /// `content[0].text`: the answers as text for the model.
    pub content: Vec<Content>,
    /// The structured result.
    pub details: Details,
}

impl AskResult {
    /// `content[0].text`.
    pub fn text(&self) -> &str {
        self.content.first().map(|c| c.text.as_str()).unwrap_or("")
    }

    /// The result as pretty JSON (what the CLI prints).
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("results contain only strings, numbers and maps")
    }
}

/// One content block; always `type: "text"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Content {
    #[serde(rename = "type")]
    /// Always `text`.
    pub kind: String,
    /// The text.
    pub text: String,
}

impl Content {
    /// A text content block.
    pub fn text(text: impl Into<String>) -> Content {
        Content {
            kind: "text".into(),
            text: text.into(),
        }
    }
}

/// How a flow ended when it was not cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The person submitted the answers.
    Submit,
    /// The person asked the agent to elaborate on their notes.
    Elaborate,
}

/// `details`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Details {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// The form's title, if it had one.
    pub title: Option<String>,
    /// Whether the form was cancelled (or refused as invalid).
    pub cancelled: bool,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// Why the payload was refused (invalid input only).
    pub error: Option<ErrorDetails>,
    /// Submit or elaborate.
    pub mode: Mode,
    /// Every question, in the payload's order.
    pub questions: Vec<QuestionSummary>,
    /// The answers by question id, in the payload's order.
    pub answers: IndexMap<String, Answer>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// What the agent should ask again (elaborate only).
    pub continuation: Option<Continuation>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// The notes to elaborate on (elaborate only).
    pub elaboration: Option<Elaboration>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// What happened to the ask, for readers that see only `details` (MCP hosts hand the model
    /// `structuredContent` alone): not in the original's results, set by pi-ask's MCP server and
    /// by a decline in an inbox.
    pub outcome: Option<Resolution>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// What the agent should do next when the ask was not answered (with `outcome`).
    pub next: Option<String>,
}

/// What happened to an ask (`details.outcome`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    /// The person submitted answers.
    Answered,
    /// The person asked the agent to explain first.
    Elaborate,
    /// The person dismissed the form.
    Cancelled,
    /// The person declined the ask (in an inbox's list, or the host's form).
    Declined,
    /// Nobody answered within the time allowed.
    TimedOut,
    /// The call was cancelled, or the client went, before an answer.
    Withdrawn,
    /// The payload was refused before any form opened.
    InvalidInput,
}

impl Resolution {
    /// What the agent should do next, when the ask was not answered.
    pub fn next(self) -> Option<&'static str> {
        Some(match self {
            Resolution::Answered => return None,
            Resolution::Elaborate => {
                "Explain what the person's notes ask about, then ask again (details.continuation holds the questions)."
            }
            Resolution::Cancelled => {
                "The person dismissed the questions: do not assume answers or take this as approval; go on only with what needs no answer, or stop and say what you need."
            }
            Resolution::Declined => {
                "The person declined to answer: do not assume answers, and do not ask the same again right away; go on only with what needs no answer, or stop and say what you need."
            }
            Resolution::TimedOut => {
                "Nobody answered in time (the person may be away): do not assume answers; ask again later, or go on with work that needs no answer."
            }
            Resolution::Withdrawn => {
                "The call was cancelled before anyone answered: nothing was answered."
            }
            Resolution::InvalidInput => {
                "Fix the payload as details.error.issues say, then call again."
            }
        })
    }

    /// What `details` says of itself when nobody set an outcome: refused, cancelled, elaborate
    /// or answered.
    pub fn read_from(details: &Details) -> Resolution {
        if details.error.is_some() {
            Resolution::InvalidInput
        } else if details.cancelled {
            Resolution::Cancelled
        } else if details.mode == Mode::Elaborate {
            Resolution::Elaborate
        } else {
            Resolution::Answered
        }
    }
}

/// `details.error` for a payload rejected before any UI opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorDetails {
    /// `invalid_input`.
    pub kind: String,
    /// Every problem found, each with its path.
    pub issues: Vec<Issue>,
}

/// A question as listed in `details.questions`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QuestionSummary {
    /// The question's id.
    pub id: String,
    /// Its short label (`Q1`, or its own).
    pub label: String,
    /// Its prompt.
    pub prompt: String,
    #[serde(rename = "type")]
    /// Its type as asked.
    pub kind: QuestionType,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// The type the person answered it as, when they changed it.
    pub presented_type: Option<QuestionType>,
}

impl From<&Question> for QuestionSummary {
    fn from(q: &Question) -> Self {
        QuestionSummary {
            id: q.id.clone(),
            label: q.label.clone(),
            prompt: q.prompt.clone(),
            kind: q.requested_type,
            presented_type: q.presented_type_if_different(),
        }
    }
}

/// A question with its full option list, as carried by elaboration items.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QuestionContext {
    /// The question's id.
    pub id: String,
    /// Its short label.
    pub label: String,
    /// Its prompt.
    pub prompt: String,
    #[serde(rename = "type")]
    /// Its type as asked.
    pub kind: QuestionType,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// The type the person answered it as, when they changed it.
    pub presented_type: Option<QuestionType>,
    /// Its options.
    pub options: Vec<QuestionOption>,
}

impl From<&Question> for QuestionContext {
    fn from(q: &Question) -> Self {
        QuestionContext {
            id: q.id.clone(),
            label: q.label.clone(),
            prompt: q.prompt.clone(),
            kind: q.requested_type,
            presented_type: q.presented_type_if_different(),
            options: q.options.clone(),
        }
    }
}

/// One answer in `details.answers` (and in continuation and elaboration items).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    /// The chosen options' values, in the options' order.
    pub values: Vec<String>,
    /// The chosen options' labels.
    pub labels: Vec<String>,
    /// 1-based positions of the selected real options.
    pub indices: Vec<usize>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// The person's own words (`Type your own`), if any.
    pub custom_text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// A note on the question, if any.
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// Notes on options by option value, if any.
    pub option_notes: Option<IndexMap<String, String>>,
}

impl Answer {
    /// A committed answer has at least one selected option or selected free-form text.
    pub fn is_committed(&self) -> bool {
        !self.values.is_empty()
    }

    /// Whether the entry carries anything at all (a committed answer or a note).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty() && self.note.is_none() && self.option_notes.is_none()
    }
}

/// `details.continuation` (elaborate only).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Continuation {
    /// How the agent should go on (`ask_again`).
    pub strategy: String,
    /// The questions to ask again.
    pub affected_question_ids: Vec<String>,
    /// Answers to keep as they are.
    pub preserved_answers: IndexMap<String, Answer>,
    /// Each question's state by id.
    pub question_states: IndexMap<String, QuestionState>,
}

/// One entry of `continuation.questionStates`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionState {
    /// Whether the question is answered, needs clarification or has no answer.
    pub status: QuestionStatus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
/// A question's state after an elaborate.
pub enum QuestionStatus {
    /// Answered, nothing to clarify.
    Answered,
    /// Has a note the agent should clarify.
    NeedsClarification,
    /// Has no answer.
    Unanswered,
}

/// `details.elaboration` (elaborate only).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Elaboration {
    /// What the agent should do with the items.
    pub instruction: String,
    /// The action the agent should take next.
    pub next_action: String,
    /// The notes to elaborate on.
    pub items: Vec<ElaborationItem>,
}

/// What an elaboration item's note is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Target {
    /// A note on the question.
    Question,
    /// A note on one of its options.
    Option {
        #[serde(rename = "optionValue")]
        /// The option's value.
        option_value: String,
    },
}

/// One note the agent is asked to elaborate on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElaborationItem {
    /// What the note is about.
    pub target: Target,
    /// The question the note belongs to.
    pub question: QuestionContext,
    /// The noted option (option-targeted items only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub option: Option<QuestionOption>,
    /// Whether the noted option is selected (option-targeted items only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub selected: Option<bool>,
    /// Whether the question is answered.
    pub answered: bool,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// Its answer, if any.
    pub answer: Option<Answer>,
    /// The person's note.
    pub note: String,
}
