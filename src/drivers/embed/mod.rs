//! `pi-ask embed`: the form as a headless component over JSON lines, for hosts that draw it inside
//! their own screen (pi's extension, an editor plugin, a test in another language).
//!
//! Another driver of the one session, like the terminal runtime and the test harness: the host
//! sends raw terminal input, sizes, aborts and remote submits; the engine answers with frames
//! (styled lines no wider than the host's width), notifications, dialog steps, and the result.
//! Nothing here decides anything about the form. The protocol is in docs/embed.md.

mod ansi;
mod answer;
mod messages;
mod opening;
pub mod protocol;

use std::cell::RefCell;
use std::io::{self, Write};
use std::rc::Rc;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use ratatui::buffer::Buffer;
use serde_json::Value;

pub use ansi::visible_width;
pub use messages::transcript;
use protocol::{FlowKind, HostMessage, MAX_COLS, MAX_ROWS, Open};

use crate::drivers::rpc::{DialogReply, Dialogs};
use crate::drivers::run::RunOptions;
use crate::engine::{Ending, Engine, Input, Interruption, Medium, Viewport};
use crate::engine::{Screen, Session};
use crate::keymap::BindingTable;
use crate::lines::{Line, MAX_LINE};
use crate::model::{External, Msg};
use crate::remote::protocol::{self as remote, RemoteMode, RemoteResponse, SubmitError};
use crate::result::{self, AskResult};
use crate::stores::config::{ConfigPaths, ConfigStore, read_theme};
use crate::tui::{Appearance, SettingsApp, bytes, notify};

/// Serves one flow: reads host lines from `lines` and writes engine lines to `out` until the flow
/// ends (or the host's input does).
pub fn run(lines: Receiver<Line>, out: &mut dyn Write) -> io::Result<()> {
    let mut host = Host {
        out,
        lines,
        width: 80,
        height: 24,
        marker: None,
        last_frame: None,
        edits: 0,
    };
    host.send(&messages::hello())?;
    let open = loop {
        match host.next(None)? {
            Next::Message(HostMessage::Open(open)) => break open,
            Next::Message(_) => host.error("open a flow first (a message of type \"open\")")?,
            Next::Quiet => {}
            Next::Closed => return Ok(()),
        }
    };
    host.width = open.width.clamp(1, MAX_COLS);
    host.height = open.height.clamp(1, MAX_ROWS);
    host.marker = open.cursor_marker.clone();
    let appearance = host.appearance(&open)?;
    match open.flow {
        FlowKind::Ask => ask(&mut host, &open, appearance),
        FlowKind::Settings => settings(&mut host, &open, appearance),
        FlowKind::Dialogs => dialogs(&mut host, &open),
        FlowKind::Fallback => {
            let Some(opening) = host.opening(&open)? else {
                return Ok(());
            };
            let result = result::needs_input_result(&opening.form);
            host.finish(&opening, &result)
        }
    }
}

/// The form, drawn as frames.
fn ask(host: &mut Host, open: &Open, appearance: Appearance) -> io::Result<()> {
    let Some(opening) = host.opening(open)? else {
        return Ok(());
    };
    let form = opening.form.clone();
    let cwd = match crate::drivers::run::root_folder(open.cwd.as_deref()) {
        Ok(root) => Some(root),
        Err(message) => {
            host.error(&format!(
                "{message}; @ suggestions come from the engine's own folder"
            ))?;
            None
        }
    };
    let options = RunOptions {
        config: open.config.clone(),
        cwd,
        appearance,
        source: opening.source,
        tool_call_id: opening.tool_call_id.clone(),
        ..RunOptions::default()
    };
    let flow = crate::drivers::run::flow_info(&form, &options);
    let notices = Rc::new(RefCell::new(Vec::new()));
    let sink = notices.clone();
    let (session, _line_mode) = crate::drivers::run::flow_session(form, &options, move |_| {
        Box::new(move |n, channels| {
            // Terminal channels are bytes for the host's terminal; commands run here.
            let mut terminal = Vec::new();
            notify::send(n, channels, &mut terminal);
            sink.borrow_mut().push(messages::notify(
                &n.title,
                &n.message,
                &String::from_utf8_lossy(&terminal),
            ));
        })
    })
    .map_err(io::Error::other)?;
    // Hidden, the form leaves the host's conversation to read.
    let mut session = session;
    session.set_hides(true);
    if let Some(app) = session.app() {
        let started = remote::started(&flow, app.model().questions(), remote::unix_ms());
        host.send(&started)?;
    }
    let mut engine = host.engine(session);
    let ended = host.drive(&mut engine, &notices, Some(&flow.flow_id))?;
    let Some(result) = engine.session().result() else {
        return Ok(());
    };
    let mut result = result.clone();
    if ended == Ended::HostGone {
        result::mark_interrupted(&mut result, "the host closed the connection");
    }
    host.send(&remote::completed(&flow, &result, remote::unix_ms()))?;
    host.finish(&opening, &result)
}

/// The settings modal alone, drawn as frames; `closed` when it closes.
fn settings(host: &mut Host, open: &Open, appearance: Appearance) -> io::Result<()> {
    let store = ConfigStore::open(ConfigPaths::from_env(open.config.as_deref()));
    let config = store.config().clone();
    let notice = store.notice();
    let app = SettingsApp::new(
        config.settings(),
        BindingTable::new(config.keymaps),
        store.display_path(),
        notice,
    );
    let notices = Rc::new(RefCell::new(Vec::new()));
    let session = Session::new(
        Screen::Settings(Box::new(app)),
        Some(store),
        Box::new(|_, _| {}),
    )
    .with_appearance(appearance);
    let mut engine = host.engine(session);
    host.drive(&mut engine, &notices, None)?;
    host.send(&messages::closed())
}

/// pi's portable dialogs as steps, through the same flow as `pi-ask ask --mode rpc`.
fn dialogs(host: &mut Host, open: &Open) -> io::Result<()> {
    let Some(opening) = host.opening(open)? else {
        return Ok(());
    };
    let form = opening.form.clone();
    let mut store = ConfigStore::open(ConfigPaths::from_env(open.config.as_deref()));
    // present-single-as-multi applies to every new flow, the dialog one included.
    let form = if store.config().behaviour.present_single_as_multi {
        form.with_single_presented_as_multi()
    } else {
        form
    };
    let mut steps = Steps { host, next_id: 0 };
    let result = crate::drivers::rpc::run(&form, &mut steps)?;
    crate::drivers::run::create_default_config(&mut store);
    host.finish(&opening, &result)
}

/// How a drawn flow ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ended {
    /// The flow finished (answered, cancelled, aborted by the host) or the modal closed.
    Done,
    /// The host's input ended: the flow was ended as interrupted.
    HostGone,
}

/// What the next host line brought.
enum Next {
    Message(HostMessage),
    /// Nothing (a timeout, a blank line, or a refused line already reported).
    Quiet,
    /// The host's input ended.
    Closed,
}

/// The host's side of the wire.
struct Host<'a> {
    out: &'a mut dyn Write,
    lines: Receiver<Line>,
    /// The size the host opened the flow at (the engine keeps it, and resizes, from then on).
    width: u16,
    height: u16,
    marker: Option<String>,
    /// The last frame sent: an identical one is not sent again.
    last_frame: Option<Value>,
    /// External edits asked for so far (their ids).
    edits: u64,
}

impl Host<'_> {
    /// The engine over `session`, its frames inline at the host's size.
    fn engine(&self, session: Session) -> Engine {
        Engine::new(
            session,
            Viewport::Inline {
                width: self.width,
                height: self.height,
            },
        )
    }

    fn send(&mut self, value: &Value) -> io::Result<()> {
        writeln!(self.out, "{value}")?;
        self.out.flush()
    }

    /// Resolves the form an `open` asks for and sends what comes before it; `None` when the
    /// engine is already done (an invalid payload's result, or nothing found, was sent).
    fn opening(&mut self, open: &Open) -> io::Result<Option<opening::EmbedOpening>> {
        let outcome = if open.find == Some(protocol::Find::Answer) {
            answer::resolve(self, open)?
        } else {
            opening::resolve(open)
        };
        match outcome {
            opening::OpenOutcome::Open(found) => {
                for line in &found.before {
                    self.send(line)?;
                }
                Ok(Some(*found))
            }
            opening::OpenOutcome::Refused(invalid) => {
                self.send(&messages::result(&invalid))?;
                Ok(None)
            }
            opening::OpenOutcome::Nothing(lines) => {
                for line in &lines {
                    self.send(line)?;
                }
                self.send(&messages::closed())?;
                Ok(None)
            }
        }
    }

    /// The lines after a form's result (entries to store, a notice or an answer to send on),
    /// then the result itself, last.
    fn finish(&mut self, opening: &opening::EmbedOpening, result: &AskResult) -> io::Result<()> {
        for line in opening::after(opening, result) {
            self.send(&line)?;
        }
        self.send(&messages::result(result))
    }

    fn error(&mut self, message: &str) -> io::Result<()> {
        self.send(&messages::error(message))
    }

    /// The next host message, waiting at most `timeout` (`None`: until one comes).
    fn next(&mut self, timeout: Option<Duration>) -> io::Result<Next> {
        let line = match timeout {
            None => self
                .lines
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
            Some(t) => self.lines.recv_timeout(t),
        };
        let bytes = match line {
            Ok(Line::Text(bytes)) => bytes,
            Ok(Line::TooLong) => {
                self.error(&format!("ignored a line longer than {MAX_LINE} bytes"))?;
                return Ok(Next::Quiet);
            }
            Err(RecvTimeoutError::Timeout) => return Ok(Next::Quiet),
            Err(RecvTimeoutError::Disconnected) => return Ok(Next::Closed),
        };
        let text = String::from_utf8_lossy(&bytes);
        let text = text.trim_end_matches('\r');
        if text.trim().is_empty() {
            return Ok(Next::Quiet);
        }
        match protocol::parse(text) {
            Ok(message) => Ok(Next::Message(message)),
            Err(e) => {
                self.error(&e.to_string())?;
                Ok(Next::Quiet)
            }
        }
    }

    /// The theme the host gave (its bad values named), else the environment's.
    fn appearance(&mut self, open: &Open) -> io::Result<Appearance> {
        let Some(theme) = &open.theme else {
            return Ok(Appearance::from_env(None, Default::default()));
        };
        let (theme, notices) = read_theme(Some(theme));
        for notice in notices {
            self.error(&notice.text)?;
        }
        Ok(
            Appearance::fixed(None, pi_ask_components::theme::ColorDepth::TrueColor)
                .with_host_theme(theme),
        )
    }

    /// Draws the session's current state and sends it, unless it is the frame sent last.
    fn frame(&mut self, engine: &mut Engine) -> io::Result<()> {
        // The engine's viewport is inline, so there is always a frame.
        let area = engine.frame_area().unwrap_or_default();
        let mut buf = Buffer::empty(area);
        let cursor = engine.render(area, &mut buf);
        let lines = ansi::lines(&buf, cursor, self.marker.as_deref());
        let frame = messages::frame(area.width, &lines, cursor.map(|p| (p.y, p.x)));
        if self.last_frame.as_ref() != Some(&frame) {
            self.send(&frame)?;
            self.last_frame = Some(frame);
        }
        Ok(())
    }

    /// Runs a drawn session until it is done: host messages in, frames and notifications out.
    /// `flow_id` is the flow remote submits must name (none: submits are refused).
    fn drive(
        &mut self,
        engine: &mut Engine,
        notices: &Rc<RefCell<Vec<Value>>>,
        flow_id: Option<&str>,
    ) -> io::Result<Ended> {
        let mut medium = Hosted {
            host: self,
            notices,
            flow_id,
            closed: false,
        };
        engine.pump(&mut medium)?;
        if medium.closed {
            engine.session_mut().record_draft();
            engine.step(
                [Input::Msg(Msg::External(External::Interrupted))],
                Instant::now(),
            );
            return Ok(Ended::HostGone);
        }
        Ok(Ended::Done)
    }

    /// Sends the notifications the session raised since the last look.
    fn send_notices(&mut self, notices: &Rc<RefCell<Vec<Value>>>) -> io::Result<()> {
        let waiting: Vec<Value> = notices.borrow_mut().drain(..).collect();
        for notice in &waiting {
            self.send(notice)?;
        }
        Ok(())
    }

    /// `editor.externalEditor`: the host runs the person's editor on `text` (pi lends its
    /// terminal) and answers `edited`; the saved text replaces the form editor's. Meanwhile only
    /// `edited`, `resize` and `abort` apply. Returns whether the form changed.
    fn edit_externally(&mut self, engine: &mut Engine, text: &str) -> io::Result<Option<String>> {
        self.edits += 1;
        let id = format!("edit-{}", self.edits);
        self.send(&serde_json::json!({"type": "edit", "id": id, "text": text}))?;
        loop {
            match self.next(None)? {
                Next::Message(HostMessage::Edited { id: answered, text }) if answered == id => {
                    return Ok(text);
                }
                Next::Message(message @ (HostMessage::Resize { .. } | HostMessage::Abort)) => {
                    let inputs = self.inputs_of(engine, message, None)?;
                    if engine.step(inputs, Instant::now()).changed {
                        engine.request_frame();
                    }
                    if engine.session().is_done() {
                        return Ok(None);
                    }
                }
                Next::Message(_) => {
                    self.error("an external edit is waiting: only edited, resize and abort apply")?
                }
                Next::Quiet => {}
                // The host is gone: the pump sees it at its next read and ends the form.
                Next::Closed => return Ok(None),
            }
        }
    }

    /// One host message for a drawn session, as the engine's inputs (everything one message
    /// carries is one read: applied together, then one frame). What is the protocol's own (a
    /// message out of turn, the terminal's keyboard report) is answered here.
    fn inputs_of(
        &mut self,
        engine: &mut Engine,
        message: HostMessage,
        flow_id: Option<&str>,
    ) -> io::Result<Vec<Input>> {
        Ok(match message {
            HostMessage::Input(data) => bytes::decode(data.as_bytes())
                .into_iter()
                .map(Input::Terminal)
                .collect(),
            HostMessage::Resize { width, height } => vec![Input::Resize {
                width: width.clamp(1, MAX_COLS),
                height: height.clamp(1, MAX_ROWS),
            }],
            HostMessage::Abort => vec![Input::Msg(Msg::External(External::Interrupted))],
            HostMessage::Keyboard { shift_enter } => {
                engine.session_mut().set_shift_enter_reported(shift_enter);
                engine.request_frame();
                Vec::new()
            }
            HostMessage::Submit(value) => {
                let (outcome, applied) = match self.submit(engine, &value, flow_id) {
                    Ok(msg) => (Ok(()), vec![Input::Msg(msg)]),
                    Err(refused) => (Err(refused), Vec::new()),
                };
                let (request_id, sent_flow) = remote::ids_of(&value);
                let reply =
                    remote::submit_result(request_id.as_deref(), sent_flow.as_deref(), &outcome);
                self.send(&reply)?;
                applied
            }
            HostMessage::Open(_) => {
                self.error("a flow is already open; one flow per engine")?;
                Vec::new()
            }
            HostMessage::Reply(_) => {
                self.error("no dialog step is waiting for a reply")?;
                Vec::new()
            }
            HostMessage::Extracted(_) => {
                self.error("no extraction is waiting for the model's answer")?;
                Vec::new()
            }
            HostMessage::Edited { .. } => {
                self.error("no external edit is waiting")?;
                Vec::new()
            }
        })
    }

    /// Validates a remote submit against the open flow: the message that applies it.
    fn submit(
        &mut self,
        engine: &mut Engine,
        value: &Value,
        flow_id: Option<&str>,
    ) -> Result<Msg, SubmitError> {
        let (Some(flow_id), Some(app)) = (flow_id, engine.session().app()) else {
            return Err(SubmitError::FlowNotFound);
        };
        if engine.session().is_done() {
            return Err(SubmitError::FlowNotFound);
        }
        let submit = remote::validate_submit(value, flow_id, app.model().questions())?;
        let msg = match submit.response {
            RemoteResponse::Cancel => Msg::External(External::RemoteCancel),
            RemoteResponse::Answer { mode, answers } => Msg::External(External::RemoteAnswer {
                answers,
                elaborate: mode == RemoteMode::Elaborate,
            }),
        };
        Ok(msg)
    }
}

/// A drawn session's medium: the host's lines in, frames and notifications out.
struct Hosted<'h, 'a, 'n, 'f> {
    host: &'h mut Host<'a>,
    notices: &'n Rc<RefCell<Vec<Value>>>,
    flow_id: Option<&'f str>,
    /// The host's input ended.
    closed: bool,
}

impl Medium for Hosted<'_, '_, '_, '_> {
    fn read(&mut self, engine: &mut Engine, wait: Duration) -> io::Result<Vec<Input>> {
        self.host.send_notices(self.notices)?;
        match self.host.next(Some(wait))? {
            Next::Message(message) => self.host.inputs_of(engine, message, self.flow_id),
            Next::Quiet => Ok(Vec::new()),
            Next::Closed => {
                self.closed = true;
                Ok(Vec::new())
            }
        }
    }

    fn present(&mut self, engine: &mut Engine) -> io::Result<()> {
        self.host.frame(engine)
    }

    fn interrupted(&mut self) -> Option<Interruption> {
        self.closed.then_some(Interruption::TerminalClosed)
    }

    fn edit_externally(&mut self, engine: &mut Engine, text: &str) -> io::Result<Option<String>> {
        self.host.edit_externally(engine, text)
    }

    /// The last notifications go out, unless the host is gone (its output may be too).
    fn ended(&mut self, _engine: &Engine, _ending: Ending) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        self.host.send_notices(self.notices)
    }
}

/// The dialog flow's cards as `step` lines, answered by `reply` lines.
struct Steps<'a, 'b> {
    host: &'a mut Host<'b>,
    next_id: u64,
}

impl Dialogs for Steps<'_, '_> {
    fn ask(&mut self, method: &str, fields: Value) -> io::Result<DialogReply> {
        self.next_id += 1;
        let id = format!("step-{}", self.next_id);
        self.host.send(&messages::step(&id, method, fields))?;
        loop {
            match self.host.next(None)? {
                Next::Message(HostMessage::Reply(reply)) if reply.id == id => {
                    return Ok(match reply.value {
                        Some(value) if !reply.cancelled => DialogReply::Value(value),
                        _ => DialogReply::Dismissed,
                    });
                }
                Next::Message(HostMessage::Reply(reply)) => self.host.error(&format!(
                    "ignored a reply to {:?}; the step waiting is {id:?}",
                    reply.id
                ))?,
                Next::Message(HostMessage::Abort) | Next::Closed => return Ok(DialogReply::Abort),
                Next::Message(_) => self
                    .host
                    .error("a dialog step is waiting: only reply and abort apply")?,
                Next::Quiet => {}
            }
        }
    }

    fn report(&mut self, problem: &str) {
        let _ = self.host.error(problem);
    }
}
