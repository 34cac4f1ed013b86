//! RPC mode: the form as pi's portable extension dialogs, over JSON lines.
//!
//! Each question becomes one `select` request (its real options, flattened, then
//! `Type something…`), answered by one `extension_ui_response` line; `Type something…` asks one
//! `input`. Each reply is what the person meant on the form's own model, stepped through the
//! engine (see [`run`]).

// Markdown is flattened to its text: a dialog shows no styles (plain text comes back as it is).
use pi_ask_components::markdown::to_plain;
use std::io::{BufRead, Write};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::engine::{Engine, Input, Viewport};
use crate::engine::{Screen, Session};
use crate::form::{Form, Question, QuestionType};
use crate::keymap::BindingTable;
use crate::lines::{Line, MAX_LINE};
use crate::model::{Direct, Intent, Msg, ReviewAction};
use crate::result::AskResult;
use crate::settings::Settings;
use crate::tui::App;

/// The last entry of every select card.
pub const TYPE_SOMETHING: &str = "Type something…";

/// The kind of the final line: `{"type":"ask_result","result":{content, details}}`.
pub const RESULT_LINE_TYPE: &str = "ask_result";

/// Collapses whitespace runs to one space and trims.
fn compact(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `[i/n] ` + optional `<title> — ` + `<label>: <prompt>`.
pub fn select_title(
    title: Option<&str>,
    question: &Question,
    index: usize,
    total: usize,
) -> String {
    let title = title
        .map(|t| format!("{} — ", compact(t)))
        .unwrap_or_default();
    format!(
        "[{}/{}] {title}{}: {}",
        index + 1,
        total,
        compact(&question.label),
        compact(&to_plain(&question.prompt))
    )
}

/// The option strings of a question's select card, `Type something…` last.
pub fn option_strings(question: &Question) -> Vec<String> {
    let mut out: Vec<String> = question
        .options
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let mut s = format!("{}. {}", i + 1, compact(&o.label));
            if o.is_recommended() {
                s.push_str(" (recommended)");
            }
            if let Some(d) = &o.description {
                s.push_str(&format!(" — {}", compact(&to_plain(d))));
            }
            if let Some(p) = &o.preview {
                s.push_str(&format!(" — Preview: {}", compact(&to_plain(p))));
            }
            s
        })
        .collect();
    out.push(TYPE_SOMETHING.to_owned());
    out
}

/// What the host answered to one dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DialogReply {
    /// The option chosen or the text typed.
    Value(String),
    /// Dismissed, timed out, or a reply of the wrong form.
    Dismissed,
    /// The host aborted, or its input ended.
    Abort,
}

/// Where a dialog flow's cards are shown and answered: pi's JSON lines ([`DialogChannel`]) or the embed
/// protocol's steps. [`run`] is the one flow both drive.
pub trait Dialogs {
    /// Shows one card (`select` with `title` and `options`, or `input` with `title` and
    /// `placeholder`) and waits for what the host answered.
    fn ask(&mut self, method: &str, fields: Value) -> std::io::Result<DialogReply>;
    /// Reports a problem with the host's answers (the flow goes on).
    fn report(&mut self, problem: &str);
}

/// Where requests go and replies come from.
pub struct DialogChannel<W: Write> {
    out: W,
    lines: Receiver<Line>,
    timeout: Option<Duration>,
    /// Ids already answered (a second answer is reported, not applied).
    answered: Vec<String>,
    errors: Box<dyn FnMut(&str)>,
    /// Set by a termination signal: the flow ends as if the host aborted.
    interrupted: Arc<AtomicBool>,
}

/// How often a wait for the host wakes to check for a termination signal.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

impl<W: Write> DialogChannel<W> {
    /// `lines` delivers the host's input lines; `errors` receives one message per ignored line.
    pub fn new(
        out: W,
        lines: Receiver<Line>,
        timeout: Option<Duration>,
        errors: Box<dyn FnMut(&str)>,
    ) -> DialogChannel<W> {
        DialogChannel {
            out,
            lines,
            timeout,
            answered: Vec::new(),
            errors,
            interrupted: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Ends the flow (cancelled, with the answers so far) once `flag` is set.
    pub fn interrupted_by(mut self, flag: Arc<AtomicBool>) -> DialogChannel<W> {
        self.interrupted = flag;
        self
    }

    fn send(&mut self, value: &Value) -> std::io::Result<()> {
        writeln!(self.out, "{value}")?;
        self.out.flush()
    }

    /// Sends a dialog request and waits for its reply.
    fn request(&mut self, method: &str, mut fields: Value) -> std::io::Result<DialogReply> {
        let id = uuid::Uuid::new_v4().to_string();
        fields["type"] = json!("extension_ui_request");
        fields["id"] = json!(id);
        fields["method"] = json!(method);
        if let Some(t) = self.timeout {
            fields["timeout"] = json!(t.as_millis() as u64);
        }
        // Key order as pi writes it: type, id, method, then the dialog's fields.
        let mut ordered = serde_json::Map::new();
        for key in ["type", "id", "method"] {
            ordered.insert(key.into(), fields[key].take());
        }
        for (k, v) in fields.as_object().cloned().unwrap_or_default() {
            if !ordered.contains_key(&k) {
                ordered.insert(k, v);
            }
        }
        self.send(&Value::Object(ordered))?;
        let deadline = self.timeout.map(|t| Instant::now() + t);
        loop {
            if self.interrupted.load(Ordering::Relaxed) {
                return Ok(DialogReply::Abort);
            }
            let wait = deadline.map_or(SIGNAL_POLL, |d| {
                d.saturating_duration_since(Instant::now()).min(SIGNAL_POLL)
            });
            let line = match self.lines.recv_timeout(wait) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        self.answered.push(id);
                        return Ok(DialogReply::Dismissed);
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => return Ok(DialogReply::Abort),
            };
            let line = match line {
                Line::Text(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Line::TooLong => {
                    (self.errors)(&format!("ignored a line longer than {MAX_LINE} bytes"));
                    continue;
                }
            };
            if let Some(reply) = self.read_reply(&id, &line) {
                self.answered.push(id);
                return Ok(reply);
            }
        }
    }

    /// Reads one host line: the reply to `id`, an abort, or `None` (reported and ignored).
    fn read_reply(&mut self, id: &str, line: &str) -> Option<DialogReply> {
        let (reply, problem) = parse_reply(id, &self.answered, line);
        if let Some(problem) = problem {
            (self.errors)(&problem);
        }
        reply
    }
}

impl<W: Write> Dialogs for DialogChannel<W> {
    fn ask(&mut self, method: &str, fields: Value) -> std::io::Result<DialogReply> {
        self.request(method, fields)
    }

    fn report(&mut self, problem: &str) {
        (self.errors)(problem)
    }
}

/// A host line shown in a message: at most this many characters of it.
const SHOWN_LINE: usize = 200;

fn shown(line: &str) -> String {
    let mut chars = line.chars();
    let head: String = chars.by_ref().take(SHOWN_LINE).collect();
    if chars.next().is_some() {
        format!("{head}… ({} bytes)", line.len())
    } else {
        head
    }
}

/// What one host line means while waiting for the reply to `id` (`answered`: ids already
/// answered): the reply, an abort, or nothing; and the problem to report, if any. Pure, so any
/// line can be tried against it.
pub fn parse_reply(
    id: &str,
    answered: &[String],
    line: &str,
) -> (Option<DialogReply>, Option<String>) {
    let line = line.trim_end_matches('\r');
    if line.trim().is_empty() {
        return (None, None);
    }
    let value: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            return (
                None,
                Some(format!(
                    "ignored a line that is not JSON ({e}): {}",
                    shown(line)
                )),
            );
        }
    };
    match value.get("type").and_then(Value::as_str) {
        Some("extension_ui_response") => {}
        Some("abort") => return (Some(DialogReply::Abort), None),
        other => {
            return (
                None,
                Some(format!(
                    "ignored a line of unknown type {}: {}",
                    other.unwrap_or("(none)"),
                    shown(line)
                )),
            );
        }
    }
    let reply_id = value.get("id").and_then(Value::as_str).unwrap_or("");
    if reply_id != id {
        let why = if answered.iter().any(|a| a == reply_id) {
            "an already answered"
        } else {
            "an unknown"
        };
        return (
            None,
            Some(format!(
                "ignored a response to {why} request id {:?}",
                shown(reply_id)
            )),
        );
    }
    if value.get("cancelled").and_then(Value::as_bool) == Some(true) {
        return (Some(DialogReply::Dismissed), None);
    }
    match value.get("value") {
        Some(Value::String(text)) => (Some(DialogReply::Value(text.clone())), None),
        // pi reads a response of the wrong form as a dismissal; say so rather than skip quietly.
        Some(other) => (
            Some(DialogReply::Dismissed),
            Some(format!(
                "invalid response to request {id:?}: \"value\" must be a string, got {}; the question is left unanswered",
                json_kind(other)
            )),
        ),
        None => {
            let problem = value.get("confirmed").is_some().then(|| format!(
                "invalid response to request {id:?}: \"confirmed\" answers a confirm dialog, not this one; the question is left unanswered"
            ));
            (Some(DialogReply::Dismissed), problem)
        }
    }
}

/// The JSON type of a value, for messages.
fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Runs the whole form as sequential dialogs. Returns the result (submit, or cancelled on abort,
/// end of input, or a select reply that names no offered option).
///
/// The dialogs are a driver of the one model: each reply becomes what the person meant
/// ([`Direct`]), stepped through the [`Engine`] as every driver's input is, and the result is the
/// model's own.
pub fn run(form: &Form, channel: &mut dyn Dialogs) -> std::io::Result<AskResult> {
    let mut flow = DialogFlow::new(form);
    let total = form.questions.len();
    for (i, question) in form.questions.iter().enumerate() {
        // A note is written in its own dialog, then the question's card comes back.
        loop {
            if flow.engine.is_done() {
                break;
            }
            let title = select_title(form.title.as_deref(), question, i, total);
            let mut options = option_strings(question);
            options.push(ADD_NOTE.to_owned());
            let reply = channel.ask("select", json!({ "title": title, "options": options }))?;
            let chosen = match reply {
                DialogReply::Abort => return Ok(flow.end(ReviewAction::Cancel)),
                DialogReply::Dismissed => {
                    flow.send(Msg::Intent(Intent::NextTab));
                    break;
                }
                DialogReply::Value(v) => v,
            };
            match options.iter().position(|o| *o == chosen) {
                None => {
                    channel.report(&format!(
                        "the host's reply \"{}\" to question {} names none of its options: the ask ends cancelled",
                        crate::printable::printable(&chosen),
                        i + 1
                    ));
                    return Ok(flow.end(ReviewAction::Cancel));
                }
                Some(index) if index < question.options.len() => {
                    flow.send(Msg::Direct(Direct::Choose(vec![index])));
                    break;
                }
                Some(index) if index == options.len() - 1 => {
                    let note = flow.note(i);
                    let fields =
                        json!({ "title": format!("{title} — {NOTE_TITLE}"), "prefill": note });
                    match channel.ask("editor", fields)? {
                        DialogReply::Abort => return Ok(flow.end(ReviewAction::Cancel)),
                        DialogReply::Dismissed => {}
                        DialogReply::Value(text) => {
                            flow.send(Msg::Direct(Direct::Note { option: None, text }))
                        }
                    }
                }
                Some(_) => {
                    let multi = question.presented_type == QuestionType::Multi;
                    let placeholder = if multi {
                        MULTI_PLACEHOLDER
                    } else {
                        "Enter your answer"
                    };
                    let input_title = format!("{title} — {TYPE_SOMETHING}");
                    match channel.ask(
                        "input",
                        json!({ "title": input_title, "placeholder": placeholder }),
                    )? {
                        DialogReply::Abort => return Ok(flow.end(ReviewAction::Cancel)),
                        DialogReply::Dismissed => flow.send(Msg::Intent(Intent::NextTab)),
                        DialogReply::Value(text) => {
                            match multi
                                .then(|| numbered(&text, question.options.len()))
                                .flatten()
                            {
                                Some((options, own)) => flow.choose_with_own(options, own),
                                None => flow.send(Msg::Direct(Direct::Own(text))),
                            }
                        }
                    }
                    break;
                }
            }
        }
    }
    Ok(flow.end(ReviewAction::Submit))
}

/// The last option of every card: a note on the question, written in an `editor` dialog.
pub const ADD_NOTE: &str = "Add a note…";
/// The `editor` dialog's title after the question's.
const NOTE_TITLE: &str = "Note";
/// The placeholder of a multi question's own answer, the original's words: what it takes (option
/// numbers, own text, or both: [`numbered`]) is in docs/rpc.md.
pub const MULTI_PLACEHOLDER: &str = "Enter one or more answers";

/// A multi question's typed answer read as option numbers (1-based, separated by commas or
/// spaces), then optionally `;` and text of the person's own: `1,3; something else`. `None` when
/// the part before any `;` is not all numbers of offered options: then the whole text is the
/// person's own answer, as in the original.
pub fn numbered(text: &str, options: usize) -> Option<(Vec<usize>, Option<String>)> {
    let (head, own) = match text.split_once(';') {
        Some((head, own)) => (head, Some(own.trim()).filter(|o| !o.is_empty())),
        None => (text, None),
    };
    let mut chosen = Vec::new();
    for part in head.split([',', ' ']).filter(|p| !p.is_empty()) {
        let n: usize = part.parse().ok()?;
        if n == 0 || n > options {
            return None;
        }
        if !chosen.contains(&(n - 1)) {
            chosen.push(n - 1);
        }
    }
    (!chosen.is_empty()).then_some((chosen, own.map(str::to_owned)))
}

/// The form behind the dialogs: a flow with default settings, no terminal (a headless engine),
/// no config, history or notifications (the host has its own).
struct DialogFlow {
    engine: Engine,
}

impl DialogFlow {
    fn new(form: &Form) -> DialogFlow {
        let app = App::new(
            form.clone(),
            Settings::defaults(),
            BindingTable::default(),
            String::new(),
            None,
        );
        let session = Session::new(Screen::Flow(Box::new(app)), None, Box::new(|_, _| {}));
        DialogFlow {
            engine: Engine::new(session, Viewport::Headless),
        }
    }

    fn send(&mut self, msg: Msg) {
        self.engine.step([Input::Msg(msg)], Instant::now());
    }

    /// Question `q`'s note so far.
    fn note(&self, q: usize) -> String {
        self.engine
            .session()
            .app()
            .and_then(|app| app.model().answer(q).note.clone())
            .unwrap_or_default()
    }

    /// These options of the current multi question and, first, a `Type your own` answer: the
    /// answer is given (which goes on), back to the question, then the options (which go on), as
    /// the keys would do it.
    fn choose_with_own(&mut self, options: Vec<usize>, own: Option<String>) {
        if let Some(own) = own {
            self.send(Msg::Direct(Direct::Own(own)));
            self.send(Msg::Intent(Intent::PreviousTab));
        }
        self.send(Msg::Direct(Direct::Choose(options)));
    }

    /// The result: the flow's own when it already finished (everything answered reaches a review
    /// that submits), else what `action` on the review gives.
    fn end(mut self, action: ReviewAction) -> AskResult {
        if !self.engine.is_done() {
            self.send(Msg::Intent(Intent::Review(action)));
        }
        self.engine
            .session()
            .result()
            .cloned()
            .expect("a review action finishes the flow")
    }
}

/// The final line: `{"type":"ask_result","result":{...}}`.
pub fn result_line(result: &AskResult) -> String {
    json!({ "type": RESULT_LINE_TYPE, "result": result }).to_string()
}

/// Starts a thread that forwards the lines of `input` to a channel ([`crate::lines`]: split on
/// `\n` only, a line over [`MAX_LINE`] dropped and reported).
pub fn spawn_line_reader<R: BufRead + Send + 'static>(input: R) -> Receiver<Line> {
    spawn_line_reader_within(input, MAX_LINE)
}

/// Lines read ahead of the one being handled: past this, the reader waits (and the host's pipe
/// fills) instead of holding a flood in memory.
const READ_AHEAD: usize = 64;

/// [`spawn_line_reader`] with another cap on a line's length (`max` bytes).
pub fn spawn_line_reader_within<R: BufRead + Send + 'static>(
    mut input: R,
    max: usize,
) -> Receiver<Line> {
    let (tx, rx) = std::sync::mpsc::sync_channel(READ_AHEAD);
    std::thread::spawn(move || {
        while let Ok(Some(line)) = crate::lines::read_line_within(&mut input, max) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}
