//! The normalized form: what a valid `ask_user` payload becomes after validation.
//!
//! Every string here is trimmed, blank optional fields are `None`, labels are filled in,
//! and each question knows both the type the agent requested and the type it is presented as.

use serde::{Deserialize, Serialize};

/// Label of the internal free-form row.
pub const CUSTOM_ROW_LABEL: &str = "Type your own";
/// Label of the only row of a freeform question (extracted forms).
pub const FREEFORM_ROW_LABEL: &str = "Type your answer:";

/// A question's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum QuestionType {
    /// One option.
    Single,
    /// Any number of options.
    Multi,
    /// One option, each with a preview shown beside the list.
    Preview,
}

impl QuestionType {
    /// Every type, in the order the settings and docs list them.
    pub const ALL: [QuestionType; 3] = [
        QuestionType::Single,
        QuestionType::Multi,
        QuestionType::Preview,
    ];

    /// The wire name: `single`, `multi` or `preview`.
    pub fn as_str(self) -> &'static str {
        match self {
            QuestionType::Single => "single",
            QuestionType::Multi => "multi",
            QuestionType::Preview => "preview",
        }
    }

    /// Parses a wire name.
    pub fn from_wire(name: &str) -> Option<QuestionType> {
        QuestionType::ALL.into_iter().find(|t| t.as_str() == name)
    }

    /// Whether answers are a set of toggled options (as opposed to one choice).
    pub fn is_multi(self) -> bool {
        self == QuestionType::Multi
    }

    /// How the type is named in user-facing notices (`single-select`, `multi-select`, `preview`).
    pub fn display_name(self) -> &'static str {
        match self {
            QuestionType::Single => "single-select",
            QuestionType::Multi => "multi-select",
            QuestionType::Preview => "preview",
        }
    }
}

/// One option of a question, normalized.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionOption {
    /// What the result reports when chosen.
    pub value: String,
    /// What the person reads.
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// A line or more under the label (Markdown).
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    /// Shown in the preview pane while highlighted (preview questions; Markdown).
    pub preview: Option<String>,
    /// Kept exactly as given: `Some(false)` stays in the output, absent stays absent.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub recommended: Option<bool>,
}

impl QuestionOption {
    /// Whether the option is recommended (marked `(recommended)`).
    pub fn is_recommended(&self) -> bool {
        self.recommended == Some(true)
    }
}

/// One question, normalized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    /// The question's id, the key of its answer.
    pub id: String,
    /// Its short label (`Q1`, or its own): the tab and the review show it.
    pub label: String,
    /// The question itself (Markdown).
    pub prompt: String,
    /// The type the payload asked for.
    pub requested_type: QuestionType,
    /// The type the question is shown and handled as (settings or a live type change may differ).
    pub presented_type: QuestionType,
    /// Whether it must be answered before submitting.
    pub required: bool,
    /// Its options, in the payload's order.
    pub options: Vec<QuestionOption>,
    /// An open question from prose extraction: no options, only the answer editor (labelled
    /// `Type your answer:`, with no number and no caret).
    pub freeform: bool,
}

impl Question {
    /// Number of rows in the option list: the real options plus the `Type your own` row.
    pub fn row_count(&self) -> usize {
        self.options.len() + 1
    }

    /// Row index of the `Type your own` row.
    pub fn custom_row(&self) -> usize {
        self.options.len()
    }

    /// The presented type, but only when it differs from the requested one.
    pub fn presented_type_if_different(&self) -> Option<QuestionType> {
        (self.presented_type != self.requested_type).then_some(self.presented_type)
    }

    /// Index of the option with this value.
    pub fn option_index(&self, value: &str) -> Option<usize> {
        self.options.iter().position(|o| o.value == value)
    }
}

/// A whole validated payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Form {
    /// The form's title, if it has one.
    pub title: Option<String>,
    /// The questions, in the payload's order.
    pub questions: Vec<Question>,
}

impl Form {
    /// Applies the `presentSingleAsMulti` policy: requested single questions are presented as multi.
    /// Only done when a flow is created; an open flow changes types through the type hotkey.
    pub fn with_single_presented_as_multi(mut self) -> Form {
        for q in &mut self.questions {
            if q.requested_type == QuestionType::Single {
                q.presented_type = QuestionType::Multi;
            }
        }
        self
    }
}
