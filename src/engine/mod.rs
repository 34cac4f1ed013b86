//! The engine every driver adapts: a [`Session`] (the model, its view and the effects its
//! commands ask for) behind one step function that owns the order of things.
//!
//! A key must act the same however it arrives: alone, in a batch with others read at once (a
//! paste, key repeat, a slow machine, a host forwarding raw reads), with or without a frame drawn
//! before it. Some of what `update` does depends on the screen (a page of options, the preview's
//! scroll range), which the view measures while drawing and reports to the model. So before each
//! input the engine makes sure the model holds the measurements of the frame its current state
//! would be drawn in at the driver's [`Viewport`] — drawing that frame into a scratch buffer when
//! no frame of that size was drawn since the last change — and draws the real frame only once,
//! after the whole batch. A key that arrives alone right after a frame costs nothing extra.
//!
//! The drivers (terminal runtime, test harness, embed protocol, line mode) only translate their
//! medium into [`Input`]s and the frames back into their medium.

use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};

use crate::keys::TerminalInput;
use crate::model::Msg;

mod pump;
mod session;

pub use pump::{Ending, Interruption, Medium};
pub use session::{DRAFT_DEBOUNCE, FlowJournal, Notifier, Outside, Screen, Session};

/// How often a driver wakes to check signals and timers when no input arrives.
const IDLE_POLL: Duration = Duration::from_millis(100);
/// How soon a driver looks again while the file worker owes an answer.
const FILES_POLL: Duration = Duration::from_millis(8);

/// What the driver's frames fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewport {
    /// Every frame fills `width` x `height` (the test harness, the alternate screen).
    Fixed {
        /// Columns.
        width: u16,
        /// Rows.
        height: u16,
    },
    /// Frames are `width` columns and as tall as the form wants, at most `height` rows (the
    /// terminal's inline area, a host drawing the form inside its own screen).
    Inline {
        /// Columns.
        width: u16,
        /// The most rows a frame takes.
        height: u16,
    },
    /// No frames are drawn (line mode): the model keeps its default measurements.
    Headless,
}

impl Viewport {
    /// The same kind of viewport at another terminal size.
    pub fn resized(self, width: u16, height: u16) -> Viewport {
        match self {
            Viewport::Fixed { .. } => Viewport::Fixed { width, height },
            Viewport::Inline { .. } => Viewport::Inline { width, height },
            Viewport::Headless => Viewport::Headless,
        }
    }
}

/// One thing that happened, in the order it happened.
#[derive(Debug, Clone)]
pub enum Input {
    /// A key or a paste, as a terminal (or a host forwarding one) sent it.
    Terminal(TerminalInput),
    /// The screen the frames go to changed size.
    Resize {
        /// Columns.
        width: u16,
        /// Rows.
        height: u16,
    },
    /// What a person meant, said directly (line mode's commands, a remote answer, an abort).
    Msg(Msg),
}

/// What a step did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Step {
    /// What is drawn may have changed: the driver draws a frame.
    pub changed: bool,
    /// The session is over (a result, the settings closed) or the form was given back; inputs
    /// after that point were not applied.
    pub done: bool,
}

/// A session with the order of inputs, measurements and frames settled (see the module's doc).
pub struct Engine {
    session: Session,
    viewport: Viewport,
    /// The viewport the last frame (shown or scratch) was drawn for: with the session's word that
    /// nothing changed since, the model holds that frame's measurements, known without laying
    /// the frame out again.
    measured_for: Option<Viewport>,
    /// Where a frame is drawn to measure it before an input (never shown).
    scratch: Buffer,
    /// How long to wait after each input for the file worker's answers (the harness: so that a
    /// key after Tab meets the completion list whatever the machine's speed); none: answers are
    /// taken when they come, at a tick.
    settle_files: Option<Duration>,
    /// A frame was asked for since the last one was presented ([`Engine::pump`]).
    frame_requested: bool,
}

impl Engine {
    /// An engine over `session` whose frames fill `viewport`.
    pub fn new(session: Session, viewport: Viewport) -> Engine {
        Engine {
            session,
            viewport,
            measured_for: None,
            scratch: Buffer::empty(Rect::default()),
            settle_files: None,
            frame_requested: false,
        }
    }

    /// Waits up to `timeout` after each input for the file worker to answer what it asked for,
    /// so file suggestions never race the next key (deterministic tests).
    pub fn with_files_settled(mut self, timeout: Duration) -> Engine {
        self.settle_files = Some(timeout);
        self
    }

    /// The session (the form's model, its result).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The session, for what a driver sets up around it (the appearance, timers, the opening).
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// The viewport frames fill.
    pub fn viewport(&self) -> Viewport {
        self.viewport
    }

    /// Frames fill `viewport` from now on (a driver that learns its screen once it takes it).
    pub fn set_viewport(&mut self, viewport: Viewport) {
        self.viewport = viewport;
    }

    /// Whether the session is over or the form was given back.
    pub fn is_done(&self) -> bool {
        self.session.is_done() || self.session.put_back()
    }

    /// Applies `inputs` in order, each with the model measured for the frame it would be drawn
    /// in first, and stops at the first that ends the session (keys after one that gave the form
    /// back are dropped). Draws nothing: the driver draws
    /// one frame afterwards when [`Step::changed`].
    pub fn step(&mut self, inputs: impl IntoIterator<Item = Input>, now: Instant) -> Step {
        let mut step = Step::default();
        for input in inputs {
            if self.session.is_done() {
                break;
            }
            // A form given back takes no more keys; what a driver says (the interruption that
            // ends it) still applies.
            if self.session.put_back() && matches!(input, Input::Terminal(_)) {
                continue;
            }
            step.changed |= self.apply(input, now);
        }
        step.done = self.is_done();
        step
    }

    fn apply(&mut self, input: Input, now: Instant) -> bool {
        match input {
            Input::Resize { width, height } => {
                self.viewport = self.viewport.resized(width, height);
                true
            }
            Input::Terminal(input) => {
                self.measure();
                let changed = self.session.handle_input(&input, now);
                self.settle_files(now);
                changed
            }
            Input::Msg(msg) => {
                self.measure();
                self.session.dispatch(msg, now);
                self.settle_files(now);
                true
            }
        }
    }

    fn settle_files(&mut self, now: Instant) {
        if let Some(timeout) = self.settle_files {
            self.session.settle_files(timeout, now);
        }
    }

    /// How long a driver may wait for input before the engine needs a [`Engine::tick`]: until the
    /// next timer, at most a moment while the file worker owes an answer, else a tenth of a second
    /// (signals and config reloads are looked at on every wake-up).
    pub fn wait_for_input(&self, now: Instant) -> Duration {
        let idle = if self.session.awaits_files() {
            FILES_POLL
        } else {
            IDLE_POLL
        };
        self.session
            .next_deadline()
            .map_or(idle, |d| d.saturating_duration_since(now).min(idle))
    }

    /// Fires due timers and takes what arrived from elsewhere (file suggestions, remote answers,
    /// a config edited on disk). Returns whether what is drawn may have changed.
    pub fn tick(&mut self, now: Instant) -> bool {
        self.session.tick(now)
    }

    /// Makes the model hold the measurements of the frame its current state is drawn in, drawing
    /// that frame into the scratch buffer unless one was drawn for this viewport since the last
    /// change (a key right after a frame: nothing is laid out).
    fn measure(&mut self) {
        if self.measured_for == Some(self.viewport) && self.session.is_measured() {
            return;
        }
        let Some(area) = self.frame_area() else {
            return;
        };
        self.scratch.resize(area);
        self.scratch.reset();
        self.session.render(area, &mut self.scratch);
        self.measured_for = Some(self.viewport);
    }

    /// The area the next frame fills (none for a headless viewport): an inline viewport's frame is
    /// as tall as the form wants at its width.
    pub fn frame_area(&mut self) -> Option<Rect> {
        match self.viewport {
            Viewport::Fixed { width, height } => Some(Rect::new(0, 0, width, height)),
            Viewport::Inline { width, height } => Some(Rect::new(
                0,
                0,
                width,
                preferred_height(&mut self.session, width, height),
            )),
            Viewport::Headless => None,
        }
    }

    /// Draws the frame into `buf` (cleared first) over `area` and returns where the hardware cursor
    /// goes. `area` is [`Engine::frame_area`] (placed wherever the driver shows it).
    pub fn render(&mut self, area: Rect, buf: &mut Buffer) -> Option<Position> {
        self.measured_for = Some(self.viewport);
        self.session.render(area, buf)
    }

    /// Draws the frame into a terminal frame (whose area the driver sized to
    /// [`Engine::frame_area`]) and places its cursor.
    pub fn draw(&mut self, frame: &mut Frame) {
        self.measured_for = Some(self.viewport);
        self.session.draw(frame)
    }
}

/// The height a screen wants inline at a terminal size: a form tight to its current tab's
/// content, the settings screen at most 30 rows; never taller than the terminal, never below a
/// row.
fn preferred_height(session: &mut Session, cols: u16, rows: u16) -> u16 {
    let rows = rows.max(1);
    match &mut session.screen {
        Screen::Flow(app) => app.natural_height(cols).clamp(1, rows),
        Screen::Settings(_) => rows.min(30),
        Screen::Inbox(inbox) => inbox.natural_height().clamp(1, rows),
    }
}

/// What the engine's unit tests (here and in its modules) build on.
#[cfg(test)]
pub(crate) mod test_support {
    use super::*;
    use crate::keymap::BindingTable;
    use crate::keys::KeyId;
    use crate::settings::Settings;
    use crate::tui::App;

    /// An engine over the demo form at 80x24; `puts_back`: Ctrl+C gives the form back, as in
    /// the inbox.
    pub(crate) fn demo_engine(puts_back: bool) -> Engine {
        let form = crate::input::parse_payload(crate::tui::DEMO_PAYLOAD).expect("the demo");
        let app = App::new(
            form,
            Settings::defaults(),
            BindingTable::default(),
            String::new(),
            None,
        )
        .with_dismiss_puts_back(puts_back);
        let session = Session::new(Screen::Flow(Box::new(app)), None, Box::new(|_, _| {}));
        Engine::new(
            session,
            Viewport::Fixed {
                width: 80,
                height: 24,
            },
        )
    }

    /// A key press as a terminal sends it.
    pub(crate) fn key(id: &str) -> Input {
        Input::Terminal(TerminalInput::Key(KeyId::parse(id).unwrap()))
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{demo_engine, key};
    use super::*;
    use crate::model::External;

    fn put_back_engine() -> Engine {
        demo_engine(true)
    }

    /// The inbox gives a form back with Ctrl+C: keys after it in the same read are dropped, and
    /// the interruption the driver then says still ends the form with a result.
    #[test]
    fn a_form_given_back_takes_no_more_keys_but_still_its_interruption() {
        let mut engine = put_back_engine();
        let now = Instant::now();
        let step = engine.step([key("ctrl+c"), key("down")], now);
        assert!(step.done && engine.session().put_back());
        let cursor = engine.session().app().unwrap().model().cursor(0);
        assert_eq!(cursor, 0, "the Down after Ctrl+C was dropped");
        engine.step([Input::Msg(Msg::External(External::Interrupted))], now);
        assert!(
            engine.session().result().is_some(),
            "the interruption ended it"
        );
    }

    /// A headless engine (line mode) measures nothing and draws nothing, and still applies.
    #[test]
    fn a_headless_engine_has_no_frame_and_applies_inputs() {
        let mut engine = put_back_engine();
        engine.set_viewport(Viewport::Headless);
        assert_eq!(engine.frame_area(), None);
        let step = engine.step([key("down")], Instant::now());
        assert!(step.changed && !step.done);
        assert_eq!(engine.session().app().unwrap().model().cursor(0), 1);
    }
}
