//! The review tab: every question with its answers and notes, then the actions.

use pi_ask_components::{ReviewEntry, ReviewLine, ReviewTab};

use crate::model::{Model, ReviewAction};

/// The review entries for the highlighted action: Submit and Cancel show notes only for answered
/// questions; Elaborate shows every note, including notes on unselected options.
pub fn review_entries(model: &Model) -> Vec<ReviewEntry> {
    let elaborate = model.review_cursor() == ReviewAction::Elaborate;
    model
        .questions()
        .iter()
        .zip(model.answers())
        .map(|(question, answer)| {
            let committed = answer.is_committed();
            let shows_notes = elaborate && answer.has_notes();
            if !committed && !shows_notes {
                let unanswered = if question.required {
                    ReviewLine::UnansweredRequired
                } else {
                    ReviewLine::Unanswered
                };
                return ReviewEntry {
                    label: question.label.clone(),
                    lines: vec![unanswered],
                };
            }
            let mut lines = Vec::new();
            if let Some(note) = &answer.note {
                lines.push(ReviewLine::Note(note.clone()));
            }
            let labelled: Vec<(String, Option<&String>)> = answer
                .selected
                .iter()
                .map(|&i| {
                    let o = &question.options[i];
                    (o.label.clone(), answer.option_notes.get(&o.value))
                })
                .collect();
            let custom = answer.custom_answer().map(str::to_owned);
            if labelled.len() + usize::from(custom.is_some()) > 1
                || labelled.iter().any(|(_, n)| n.is_some())
            {
                for (label, note) in &labelled {
                    lines.push(ReviewLine::Answer {
                        text: label.clone(),
                        custom: false,
                    });
                    if let Some(note) = note {
                        lines.push(ReviewLine::Note((*note).clone()));
                    }
                }
                if let Some(text) = &custom {
                    lines.push(ReviewLine::Answer {
                        text: text.clone(),
                        custom: false,
                    });
                }
            } else if let Some((label, _)) = labelled.first() {
                lines.push(ReviewLine::Answer {
                    text: label.clone(),
                    custom: false,
                });
            } else if let Some(text) = custom {
                lines.push(ReviewLine::Answer { text, custom: true });
            }
            if elaborate {
                for (value, note) in &answer.option_notes {
                    let Some(i) = question.option_index(value) else {
                        continue;
                    };
                    if !answer.is_selected(i) {
                        lines.push(ReviewLine::OptionNote {
                            option: question.options[i].label.clone(),
                            note: note.clone(),
                        });
                    }
                }
            }
            ReviewEntry {
                label: question.label.clone(),
                lines,
            }
        })
        .collect()
}

pub(super) fn review_view(model: &Model) -> ReviewTab {
    ReviewTab {
        entries: review_entries(model),
        selected: model.review_cursor().index(),
        hint: model.review_shortcut_hint(),
        ..ReviewTab::default()
    }
}
