//! What a person has entered so far in an open flow, as a small serializable record: the answers,
//! notes, the open editor's unsaved text, the tab and the cursors. The history keeps the newest
//! one of each ask (debounced while the form is open), so `pi-ask resume` reopens an interrupted
//! ask where it was left, even after a SIGKILL. The payload is not in it: the history has it.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::{AnswerState, EditorTarget, Model, OpenEditor};
use crate::form::QuestionType;

/// An unsaved editor text longer than this is kept cut to it (at a character boundary): a draft
/// is written often, and a megabyte paste would make every write a megabyte.
pub const MAX_DRAFT_EDITOR_BYTES: usize = 64 * 1024;

/// The flow's entered state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Draft {
    /// The tab index (questions, then the review tab).
    pub tab: usize,
    /// The highlighted row of each question.
    pub cursors: Vec<usize>,
    /// Each question's presented type (`t` changes it while the form is open).
    pub presented: Vec<String>,
    /// Every question's answer, in the form's order.
    pub answers: Vec<DraftAnswer>,
    /// The editor open at the time, with its unsaved text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub editor: Option<DraftEditor>,
}

/// One question's [`AnswerState`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DraftAnswer {
    /// The chosen options (indices).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selected: Vec<usize>,
    /// The person's own words, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_text: Option<String>,
    /// Whether the own words count as chosen.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub custom_selected: bool,
    /// The note on the question, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Notes on options, by option value.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub option_notes: IndexMap<String, String>,
}

/// The open editor: what it edits and its unsaved text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DraftEditor {
    /// `answer`, `questionNote` or `optionNote`.
    pub kind: String,
    /// The question it belongs to.
    pub question: usize,
    /// The option whose note it edits; `None` for the question's note or answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<usize>,
    /// The unsaved text.
    pub text: String,
}

impl From<&AnswerState> for DraftAnswer {
    fn from(a: &AnswerState) -> Self {
        DraftAnswer {
            selected: a.selected.clone(),
            custom_text: a.custom_text.clone(),
            custom_selected: a.custom_selected,
            note: a.note.clone(),
            option_notes: a.option_notes.clone(),
        }
    }
}

fn cut(text: &str) -> String {
    if text.len() <= MAX_DRAFT_EDITOR_BYTES {
        return text.to_owned();
    }
    let mut end = MAX_DRAFT_EDITOR_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

impl Model {
    /// What has been entered so far.
    pub fn draft(&self) -> Draft {
        Draft {
            tab: self.tab,
            cursors: self.cursors.clone(),
            presented: self
                .questions
                .iter()
                .map(|q| q.presented_type.as_str().to_owned())
                .collect(),
            answers: self.answers.iter().map(DraftAnswer::from).collect(),
            editor: self.editor.as_ref().map(|e| {
                let (kind, option) = match e.target {
                    EditorTarget::Answer { .. } => ("answer", None),
                    EditorTarget::QuestionNote { .. } => ("questionNote", None),
                    EditorTarget::OptionNote { option, .. } => ("optionNote", Some(option)),
                };
                DraftEditor {
                    kind: kind.to_owned(),
                    question: e.target.question(),
                    option,
                    text: cut(e.text()),
                }
            }),
        }
    }

    /// Puts a draft back: answers, notes, types, tab, cursors and the open editor. A draft that
    /// does not fit this form (another number of questions, an option out of range, a type the
    /// question cannot take) changes nothing and returns false, so a stale record never breaks a
    /// form.
    pub fn restore(&mut self, draft: &Draft) -> bool {
        let n = self.questions.len();
        let types: Option<Vec<QuestionType>> = draft
            .presented
            .iter()
            .map(|t| QuestionType::from_wire(t))
            .collect();
        let Some(types) = types else { return false };
        let fits = draft.answers.len() == n
            && draft.cursors.len() == n
            && types.len() == n
            && draft.tab <= n
            && self.questions.iter().enumerate().all(|(i, q)| {
                let a = &draft.answers[i];
                let allowed = match q.requested_type {
                    QuestionType::Preview => types[i] != QuestionType::Single,
                    _ => types[i] != QuestionType::Preview,
                };
                let committed = a.selected.len() + usize::from(a.custom_selected);
                allowed
                    && draft.cursors[i] < q.row_count()
                    && a.selected.iter().all(|&o| o < q.options.len())
                    && (types[i].is_multi() || committed <= 1)
                    && (!a.custom_selected || a.custom_text.is_some())
                    && a.option_notes.keys().all(|v| q.option_index(v).is_some())
            })
            && draft.editor.as_ref().is_none_or(|e| {
                e.question < n
                    && e.question == draft.tab
                    && match (e.kind.as_str(), e.option) {
                        ("answer" | "questionNote", None) => true,
                        ("optionNote", Some(o)) => o < self.questions[e.question].options.len(),
                        _ => false,
                    }
            });
        if !fits {
            return false;
        }
        for (q, t) in self.questions.iter_mut().zip(types) {
            q.presented_type = t;
        }
        self.answers = draft
            .answers
            .iter()
            .map(|a| {
                let custom_text = a.custom_text.clone().filter(|t| !t.trim().is_empty());
                AnswerState {
                    selected: a.selected.clone(),
                    custom_selected: a.custom_selected && custom_text.is_some(),
                    custom_text,
                    note: a.note.clone().filter(|t| !t.trim().is_empty()),
                    option_notes: a.option_notes.clone(),
                }
            })
            .collect();
        self.tab = draft.tab;
        self.cursors = draft.cursors.clone();
        self.editor = draft.editor.as_ref().map(|e| {
            let target = match (e.kind.as_str(), e.option) {
                ("optionNote", Some(option)) => EditorTarget::OptionNote {
                    question: e.question,
                    option,
                },
                ("questionNote", _) => EditorTarget::QuestionNote {
                    question: e.question,
                },
                _ => EditorTarget::Answer {
                    question: e.question,
                },
            };
            OpenEditor::new(target, &e.text)
        });
        // Nothing was open: an empty custom row under the cursor opens its editor as usual.
        self.suppress_auto_open = false;
        self.sync_editor_to_cursor();
        self.revision = self.revision.wrapping_add(1);
        true
    }
}
