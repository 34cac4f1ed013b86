//! Building the tool result from a finished flow, an invalid payload, or a host without a terminal.

mod text;
mod types;

pub use text::{interrupted_summary, render_transcript, summary_text, timed_out_summary};
pub use types::*;

use indexmap::IndexMap;

use crate::answer_state::AnswerState;
use crate::form::{Form, Question};
use crate::input::InvalidInput;

/// The instruction every elaborate result carries.
pub const ELABORATION_INSTRUCTION: &str = "First answer the user's noted clarification directly and concisely using the provided question and option context. Do not treat these notes as final answers. Then re-ask only the affected questions if a choice is still needed afterward. Do not jump straight to a follow-up question unless the note is already resolved.";

/// How a flow ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The answers were submitted.
    Submit,
    /// The person asked to elaborate.
    Elaborate,
    /// The form was cancelled.
    Cancelled,
}

/// The result for given questions and their entered state (shared by every driver).
pub fn build_from_state(
    title: Option<&str>,
    questions: &[Question],
    states: &[AnswerState],
    outcome: Outcome,
) -> AskResult {
    let all: IndexMap<String, Answer> = questions
        .iter()
        .zip(states)
        .map(|(q, s)| (q.id.clone(), s.to_answer(q)))
        .filter(|(_, a)| !a.is_empty())
        .collect();
    let mut details = Details {
        title: title.map(str::to_owned),
        cancelled: outcome == Outcome::Cancelled,
        error: None,
        mode: if outcome == Outcome::Elaborate {
            Mode::Elaborate
        } else {
            Mode::Submit
        },
        questions: questions.iter().map(QuestionSummary::from).collect(),
        answers: all,
        continuation: None,
        elaboration: None,
        outcome: None,
        next: None,
    };
    if outcome == Outcome::Elaborate {
        details.continuation = Some(continuation(questions, states, &details.answers));
        details.elaboration = Some(elaboration(questions, states, &details.answers));
        details.answers.retain(|_, a| a.is_committed());
    }
    let text = summary_text(&details);
    AskResult {
        content: vec![Content::text(text)],
        details,
    }
}

fn committed<'a>(answers: &'a IndexMap<String, Answer>, id: &str) -> Option<&'a Answer> {
    answers.get(id).filter(|a| a.is_committed())
}

fn continuation(
    questions: &[Question],
    states: &[AnswerState],
    answers: &IndexMap<String, Answer>,
) -> Continuation {
    let mut affected = Vec::new();
    let mut preserved = IndexMap::new();
    let mut question_states = IndexMap::new();
    for (q, s) in questions.iter().zip(states) {
        let answer = committed(answers, &q.id);
        let status = if s.has_notes() {
            affected.push(q.id.clone());
            QuestionStatus::NeedsClarification
        } else if let Some(a) = answer {
            preserved.insert(q.id.clone(), a.clone());
            QuestionStatus::Answered
        } else {
            QuestionStatus::Unanswered
        };
        question_states.insert(q.id.clone(), QuestionState { status });
    }
    Continuation {
        strategy: "refine_only".into(),
        affected_question_ids: affected,
        preserved_answers: preserved,
        question_states,
    }
}

fn elaboration(
    questions: &[Question],
    states: &[AnswerState],
    answers: &IndexMap<String, Answer>,
) -> Elaboration {
    let mut items = Vec::new();
    for (q, s) in questions.iter().zip(states) {
        let answer = committed(answers, &q.id).cloned();
        if let Some(note) = &s.note {
            items.push(ElaborationItem {
                target: Target::Question,
                question: QuestionContext::from(q),
                option: None,
                selected: None,
                answered: answer.is_some(),
                answer: answer.clone(),
                note: note.clone(),
            });
        }
        for (value, note) in &s.option_notes {
            let Some(index) = q.option_index(value) else {
                continue;
            };
            items.push(ElaborationItem {
                target: Target::Option {
                    option_value: value.clone(),
                },
                question: QuestionContext::from(q),
                option: Some(q.options[index].clone()),
                selected: Some(s.is_selected(index)),
                answered: answer.is_some(),
                answer: answer.clone(),
                note: note.clone(),
            });
        }
    }
    Elaboration {
        instruction: ELABORATION_INSTRUCTION.into(),
        next_action: "clarify_then_reask".into(),
        items,
    }
}

/// Marks a cancelled result as interrupted (a signal, a closed terminal): `cancelled` stays true
/// and the answers so far stay in `details`, but the text says the person never answered.
pub fn mark_interrupted(result: &mut AskResult, cause: &str) {
    let text = interrupted_summary(cause, !result.details.answers.is_empty());
    result.content = vec![Content::text(text)];
}

/// Says why a cancelled result was cancelled when the person did it some other way than the
/// form's own cancel (declined in the inbox's list, the host's form declined or closed):
/// `User cancelled the ask flow: <why>.`, so the model can tell which. The form's own cancel
/// keeps the original's text.
pub fn mark_cancelled_because(result: &mut AskResult, why: &str) {
    result.content = vec![Content::text(format!(
        "{}: {why}.",
        text::CANCELLED_SUMMARY
    ))];
}

/// Says in `details` what happened to the ask (`outcome`, kept when already set, else read from
/// the result) and, when it was not answered, what the agent should do next, in `details.next`
/// and as the text's last paragraph. For readers that may see only `details` (MCP hosts).
pub fn state_outcome(result: &mut AskResult, happened: Option<Resolution>) {
    let happened = result
        .details
        .outcome
        .or(happened)
        .unwrap_or_else(|| Resolution::read_from(&result.details));
    result.details.outcome = Some(happened);
    let Some(next) = happened.next() else {
        return;
    };
    if result.details.next.is_none() {
        result.details.next = Some(next.to_owned());
        let text = format!("{}\n\nNext: {next}", result.text());
        result.content = vec![Content::text(text)];
    }
}

/// Marks a cancelled result as given up after `limit` with no answer (`ask --timeout`):
/// `cancelled` stays true and the answers so far stay in `details`, but the text says nobody
/// answered in time.
pub fn mark_timed_out(result: &mut AskResult, limit: std::time::Duration) {
    let text = timed_out_summary(limit, !result.details.answers.is_empty());
    result.content = vec![Content::text(text)];
}

/// The result for a payload rejected before any UI opened.
pub fn invalid_input_result(invalid: &InvalidInput) -> AskResult {
    let text = crate::input::invalid_input_text(&invalid.issues);
    AskResult {
        content: vec![Content::text(text)],
        details: Details {
            title: invalid.raw_title.clone(),
            cancelled: true,
            error: Some(ErrorDetails {
                kind: "invalid_input".into(),
                issues: invalid.issues.clone(),
            }),
            mode: Mode::Submit,
            questions: Vec::new(),
            answers: IndexMap::new(),
            continuation: None,
            elaboration: None,
            outcome: None,
            next: None,
        },
    }
}

/// The result when no interactive UI can be shown: the pending questions, listed for the caller.
pub fn needs_input_result(form: &Form) -> AskResult {
    let mut text = String::from(
        "Needs user input: ask_user requires interactive TUI mode.\nRun same tool call in interactive TUI mode, or ask user these questions manually:",
    );
    for (i, q) in form.questions.iter().enumerate() {
        text.push_str(&format!("\n{}. {}: {}", i + 1, q.label, q.prompt));
        for o in &q.options {
            text.push_str(&format!("\n   - {} [{}]", o.label, o.value));
        }
        text.push_str("\n   - Type your own [custom]");
    }
    text.push_str(
        "\ndetails.questions contains normalized pending questions. details.answers stays empty until user responds.",
    );
    AskResult {
        content: vec![Content::text(text)],
        details: Details {
            title: form.title.clone(),
            cancelled: true,
            error: None,
            mode: Mode::Submit,
            questions: form.questions.iter().map(QuestionSummary::from).collect(),
            answers: IndexMap::new(),
            continuation: None,
            elaboration: None,
            outcome: None,
            next: None,
        },
    }
}

impl AnswerState {
    /// The answer as it appears in a result.
    pub fn to_answer(&self, question: &Question) -> Answer {
        let mut answer = Answer::default();
        for &i in &self.selected {
            let option = &question.options[i];
            answer.values.push(option.value.clone());
            answer.labels.push(option.label.clone());
            answer.indices.push(i + 1);
        }
        if let Some(text) = self.custom_answer() {
            answer.values.push(text.to_owned());
            answer.labels.push(text.to_owned());
            answer.custom_text = Some(text.to_owned());
        }
        answer.note = self.note.clone();
        let notes: IndexMap<String, String> = self
            .selected
            .iter()
            .filter_map(|&i| {
                let value = &question.options[i].value;
                self.option_notes
                    .get(value)
                    .map(|n| (value.clone(), n.clone()))
            })
            .collect();
        answer.option_notes = (!notes.is_empty()).then_some(notes);
        answer
    }
}
