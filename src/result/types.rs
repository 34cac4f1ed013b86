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
    pub content: Vec<Content>,
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
    pub kind: String,
    pub text: String,
}

impl Content {
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
    Submit,
    Elaborate,
}

/// `details`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Details {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub title: Option<String>,
    pub cancelled: bool,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub error: Option<ErrorDetails>,
    pub mode: Mode,
    pub questions: Vec<QuestionSummary>,
    pub answers: IndexMap<String, Answer>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub continuation: Option<Continuation>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub elaboration: Option<Elaboration>,
}

/// `details.error` for a payload rejected before any UI opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorDetails {
    pub kind: String,
    pub issues: Vec<Issue>,
}

/// A question as listed in `details.questions`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QuestionSummary {
    pub id: String,
    pub label: String,
    pub prompt: String,
    #[serde(rename = "type")]
    pub kind: QuestionType,
    #[serde(skip_serializing_if = "Option::is_none", default)]
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
    pub id: String,
    pub label: String,
    pub prompt: String,
    #[serde(rename = "type")]
    pub kind: QuestionType,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub presented_type: Option<QuestionType>,
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
    pub values: Vec<String>,
    pub labels: Vec<String>,
    /// 1-based positions of the selected real options.
    pub indices: Vec<usize>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub custom_text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
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
    pub strategy: String,
    pub affected_question_ids: Vec<String>,
    pub preserved_answers: IndexMap<String, Answer>,
    pub question_states: IndexMap<String, QuestionState>,
}

/// One entry of `continuation.questionStates`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionState {
    pub status: QuestionStatus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuestionStatus {
    Answered,
    NeedsClarification,
    Unanswered,
}

/// `details.elaboration` (elaborate only).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Elaboration {
    pub instruction: String,
    pub next_action: String,
    pub items: Vec<ElaborationItem>,
}

/// What an elaboration item's note is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Target {
    Question,
    Option {
        #[serde(rename = "optionValue")]
        option_value: String,
    },
}

/// One note the agent is asked to elaborate on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElaborationItem {
    pub target: Target,
    pub question: QuestionContext,
    /// The noted option (option-targeted items only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub option: Option<QuestionOption>,
    /// Whether the noted option is selected (option-targeted items only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub selected: Option<bool>,
    pub answered: bool,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub answer: Option<Answer>,
    pub note: String,
}
