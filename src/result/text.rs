//! The result texts: `content[0].text` (the summary the agent reads) and the transcript rendering.

use super::{Answer, Details, ElaborationItem, Mode, QuestionSummary, Target};
use crate::form::QuestionType;

pub const CANCELLED_SUMMARY: &str = "User cancelled the ask flow";
/// `content[0].text` of a form ended by a signal or a lost terminal: the person did not decline,
/// so the agent must not read it as a cancel. `cause` names what ended it (`SIGTERM`).
pub fn interrupted_summary(cause: &str, answers_so_far: bool) -> String {
    let mut text =
        format!("The ask was interrupted before the user answered ({cause}); nothing was chosen.");
    if answers_so_far {
        text.push_str(
            " What was entered so far is in details.answers for context; it was not submitted.",
        );
    }
    text
}

/// `content[0].text` of a form nobody answered within its time limit (`ask --timeout`).
pub fn timed_out_summary(limit: std::time::Duration, answers_so_far: bool) -> String {
    let seconds = limit.as_secs_f64();
    let mut text = format!(
        "No answer within {} s: the ask timed out before the user answered; nothing was chosen.",
        if seconds.fract() == 0.0 {
            format!("{seconds:.0}")
        } else {
            format!("{seconds}")
        }
    );
    if answers_so_far {
        text.push_str(
            " What was entered so far is in details.answers for context; it was not submitted.",
        );
    }
    text
}

pub const ELABORATED_SUMMARY: &str = "User asked for elaboration based on notes";

/// `content[0].text` for a finished flow.
pub fn summary_text(details: &Details) -> String {
    if details.cancelled {
        return CANCELLED_SUMMARY.to_owned();
    }
    if details.mode == Mode::Elaborate {
        return elaboration_lines(details).join("\n");
    }
    let mut lines = Vec::new();
    for q in &details.questions {
        let answer = details.answers.get(&q.id);
        match answer.filter(|a| !a.labels.is_empty()) {
            Some(a) => lines.push(format!("{}: {}", q.label, a.labels.join(", "))),
            None => lines.push(format!("{}: (no answer)", q.label)),
        }
        if let Some(a) = answer {
            if let Some(note) = &a.note {
                lines.push(format!("{} note: {note}", q.label));
            }
            for (label, note) in option_notes(a) {
                lines.push(format!("{} / {label} note: {note}", q.label));
            }
        }
    }
    if let Some(note) = presentation_note(details) {
        lines.push(note);
    }
    lines.join("\n")
}

/// The transcript rendering of a result (what a host shows under the tool call).
pub fn render_transcript(details: &Details) -> String {
    if details.error.is_some() {
        return "Invalid tool payload".to_owned();
    }
    if details.cancelled {
        return "Cancelled".to_owned();
    }
    if details.mode == Mode::Elaborate {
        return elaboration_lines(details).join("\n");
    }
    let mut lines = Vec::new();
    for q in &details.questions {
        let answer = details.answers.get(&q.id);
        match answer.filter(|a| !a.labels.is_empty()) {
            Some(a) if a.indices.is_empty() && a.custom_text.is_some() => lines.push(format!(
                "✓ {}: (wrote) {}",
                q.label,
                a.custom_text.as_deref().unwrap_or_default()
            )),
            Some(a) => lines.push(format!("✓ {}: {}", q.label, a.labels.join(", "))),
            None => lines.push(format!("? {}: (no answer)", q.label)),
        }
        if let Some(a) = answer {
            if let Some(note) = &a.note {
                lines.push(format!("  note: {note}"));
            }
            for (label, note) in option_notes(a) {
                lines.push(format!("  {label} note: {note}"));
            }
        }
    }
    if let Some(note) = presentation_note(details) {
        lines.push(format!("  {note}"));
    }
    lines.join("\n")
}

/// `(option label, note)` for each selected option with a note, in answer order.
fn option_notes(answer: &Answer) -> Vec<(&str, &str)> {
    let Some(notes) = &answer.option_notes else {
        return Vec::new();
    };
    answer
        .values
        .iter()
        .zip(&answer.labels)
        .filter_map(|(value, label)| notes.get(value).map(|n| (label.as_str(), n.as_str())))
        .collect()
}

/// One compact note when any question with an entry was presented as another type than requested.
/// It names the type actually presented, so a live change to single-select is not called multi-select.
fn presentation_note(details: &Details) -> Option<String> {
    let mut presented: Vec<QuestionType> = details
        .questions
        .iter()
        .filter(|q| details.answers.contains_key(&q.id))
        .filter_map(|q| q.presented_type.filter(|&t| t != q.kind))
        .collect();
    presented.dedup();
    presented.sort_by_key(|t| t.as_str());
    presented.dedup();
    let kind = match presented.as_slice() {
        [] => return None,
        [only] => only.display_name(),
        _ => "a different question type",
    };
    Some(format!(
        "Note: Some questions were presented as {kind} by user preference."
    ))
}

fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| format!("\"{text}\""))
}

fn current_answer(answer: Option<&Answer>) -> String {
    answer
        .filter(|a| a.is_committed())
        .map(|a| format!(" after current answer {}", quoted(&a.labels.join(", "))))
        .unwrap_or_default()
}

fn question_by_id<'a>(details: &'a Details, id: &str) -> Option<&'a QuestionSummary> {
    details.questions.iter().find(|q| q.id == id)
}

fn elaboration_lines(details: &Details) -> Vec<String> {
    let items: &[ElaborationItem] = details
        .elaboration
        .as_ref()
        .map(|e| e.items.as_slice())
        .unwrap_or(&[]);
    if items.is_empty() {
        let lines: Vec<String> = details
            .questions
            .iter()
            .filter_map(|q| {
                let answer = details.answers.get(&q.id).filter(|a| a.is_committed())?;
                Some(format!(
                    "User asked to elaborate on question {}{}",
                    quoted(&q.prompt),
                    current_answer(Some(answer))
                ))
            })
            .collect();
        return if lines.is_empty() {
            vec![ELABORATED_SUMMARY.to_owned()]
        } else {
            lines
        };
    }
    items
        .iter()
        .map(|item| {
            let prompt = question_by_id(details, &item.question.id)
                .map_or(&item.question.prompt, |q| &q.prompt);
            let context = current_answer(item.answer.as_ref());
            match (&item.target, &item.option) {
                (Target::Option { .. }, Some(option)) => format!(
                    "User asked to elaborate on question {} option {}{context} with note {}",
                    quoted(prompt),
                    quoted(&option.label),
                    quoted(&item.note)
                ),
                _ => format!(
                    "User asked to elaborate on question {}{context} with note {}",
                    quoted(prompt),
                    quoted(&item.note)
                ),
            }
        })
        .collect()
}
