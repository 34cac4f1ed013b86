//! What line mode says: a question with its numbered options and its state, the review, the
//! command list, a preview in full. Plain lines only: every text from the payload is made
//! printable, nothing is carried by colour or position alone, and no line holds an escape.

use crate::form::{Question, QuestionType};
use crate::model::{Model, Tab};
use crate::printable::printable;
use crate::result::Answer;

use super::command::COMMANDS;

/// The payload's text as lines (a prompt may hold several), each made printable.
use pi_ask_components::markdown::to_plain;

fn text_lines(text: &str) -> Vec<String> {
    text.lines().map(printable).collect()
}

fn kind(question: &Question) -> &'static str {
    if question.freeform {
        return "your own words";
    }
    match question.presented_type {
        QuestionType::Single => "single choice",
        QuestionType::Multi => "several choices",
        QuestionType::Preview => "single choice, with previews",
    }
}

/// A text of several lines said on one (` / ` between its lines), made printable.
fn one_line(text: &str) -> String {
    printable(&text.lines().collect::<Vec<_>>().join(" / "))
}

/// What is entered for a question, in words (`None`: nothing yet).
pub fn answer_words(question: &Question, answer: &Answer) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    let chosen: Vec<String> = answer
        .indices
        .iter()
        .zip(&answer.labels)
        .map(|(i, label)| format!("{i}. {}", printable(label)))
        .collect();
    if !chosen.is_empty() {
        parts.push(chosen.join(", "));
    }
    if let Some(own) = &answer.custom_text {
        parts.push(format!("your own answer: {}", one_line(own)));
    }
    if let Some(notes) = &answer.option_notes {
        for (value, note) in notes {
            let label = question
                .options
                .iter()
                .find(|o| &o.value == value)
                .map_or(value.as_str(), |o| o.label.as_str());
            parts.push(format!("note on {}: {}", printable(label), one_line(note)));
        }
    }
    if let Some(note) = &answer.note {
        parts.push(format!("note: {}", one_line(note)));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// The current question: heading, prompt, numbered options, what is entered, what to type.
pub fn question(model: &Model, q: usize) -> Vec<String> {
    let question = &model.questions()[q];
    let total = model.questions().len();
    let required = if question.required {
        "required"
    } else {
        "optional"
    };
    let mut lines = vec![format!(
        "Question {} of {total}, {} ({}, {required}):",
        q + 1,
        printable(&question.label),
        kind(question)
    )];
    // Markdown is read out as its text (a screen reader would speak its syntax).
    lines.extend(text_lines(&to_plain(&question.prompt)));
    let answer = model.answer(q).to_answer(question);
    for (i, option) in question.options.iter().enumerate() {
        let mut line = format!("{}. {}", i + 1, printable(&option.label));
        if let Some(d) = &option.description {
            line.push_str(&format!(": {}", printable(&to_plain(d)).replace('\n', " ")));
        }
        if option.is_recommended() {
            line.push_str(" (recommended)");
        }
        if option.preview.is_some() {
            line.push_str(&format!(" (preview: p {})", i + 1));
        }
        if model.answer(q).is_selected(i) {
            line.push_str(" (chosen)");
        }
        lines.push(line);
    }
    if !question.freeform {
        lines.push(format!("{}. Type your own", question.options.len() + 1));
    }
    lines.push(match answer_words(question, &answer) {
        Some(words) => format!("Answered: {words}."),
        None => "Not answered yet.".to_owned(),
    });
    lines.push(prompt_line(question));
    lines
}

/// The line saying what can be typed at a question.
pub fn prompt_line(question: &Question) -> String {
    let own = question.options.len() + 1;
    if question.freeform {
        return "Type your answer, n for a note, f to go on, or ? for every command.".to_owned();
    }
    let choose = match question.presented_type {
        QuestionType::Multi => "Type the numbers of your choices (like 1,3)".to_owned(),
        _ => format!("Type a number from 1 to {}", question.options.len()),
    };
    format!("{choose}, {own} and your own words, n for a note, or ? for every command.")
}

/// The line saying what can be typed where the person is now.
pub fn prompt_line_at(model: &Model) -> String {
    match model.tab() {
        Tab::Question(q) => prompt_line(&model.questions()[q]),
        Tab::Review => REVIEW_ACTIONS.to_owned(),
    }
}

const REVIEW_ACTIONS: &str = "Type s to submit, e to elaborate, c to cancel, b to go back.";

/// The review: each question with its answer, then the actions.
pub fn review(model: &Model) -> Vec<String> {
    let mut lines = vec!["Review your answers:".to_owned()];
    for (q, question) in model.questions().iter().enumerate() {
        let answer = model.answer(q).to_answer(question);
        let words = answer_words(question, &answer).unwrap_or_else(|| "not answered".into());
        lines.push(format!(
            "{}. {}: {words}.",
            q + 1,
            printable(&question.label)
        ));
    }
    lines.push(REVIEW_ACTIONS.to_owned());
    lines
}

/// Where the person is now, said in full.
pub fn current(model: &Model) -> Vec<String> {
    match model.tab() {
        Tab::Question(q) => question(model, q),
        Tab::Review => review(model),
    }
}

/// Every command (`?`).
pub fn help() -> Vec<String> {
    let mut lines = vec!["Commands:".to_owned()];
    lines.extend(
        COMMANDS
            .iter()
            .map(|c| format!("{}: {}.", c.syntax, c.help)),
    );
    lines
}

/// Option n's preview, in full, between two marker lines.
pub fn preview(question: &Question, n: usize) -> Vec<String> {
    let option = &question.options[n - 1];
    match &option.preview {
        None => vec![format!(
            "Option {n}, {}, has no preview.",
            printable(&option.label)
        )],
        Some(text) => {
            let mut lines = vec![format!(
                "Preview of option {n}, {}:",
                printable(&option.label)
            )];
            lines.extend(text_lines(&to_plain(text)));
            lines.push(format!("End of the preview of option {n}."));
            lines
        }
    }
}
