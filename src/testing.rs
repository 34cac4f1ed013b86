//! A harness to test forms without a terminal: drive a flow with key ids, text or raw terminal
//! bytes at a chosen size, read the screen as text (or styled cells), and get the result.
//!
//! ```
//! use pi_ask::testing::Harness;
//!
//! let payload = r#"{"questions":[{"id":"db","prompt":"Which database?","options":[
//!     {"value":"pg","label":"Postgres"},{"value":"sqlite","label":"SQLite"}]}]}"#;
//! let mut form = Harness::new(payload, 80, 20).unwrap();
//! assert!(form.screen_text().contains("❯ 1. Postgres"));
//! form.press("down").press("enter"); // choose SQLite, go to the review tab
//! form.press("enter"); // Submit
//! let result = form.result().unwrap();
//! assert_eq!(result.details.answers["db"].values, ["sqlite"]);
//! ```

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::{Buffer, Cell};

use crate::engine::{Engine, Input, Viewport};
use crate::engine::{Screen, Session};
use crate::files::FileIndex;
#[cfg(feature = "cli")]
use crate::files::IndexOptions;
use crate::input::{InvalidInput, parse_payload};
use crate::keymap::BindingTable;
use crate::keys::{Base, KeyId, Mods, Named, RawKey, TerminalInput};
use crate::model::Notification;
use crate::result::AskResult;
use crate::settings::Settings;
use crate::stores::config::{ConfigPaths, ConfigStore};
use crate::tui::{App, Appearance, SettingsApp, bytes};

/// Each notification a harness's flow sent, with the channels it was sent through.
type Sent = Rc<RefCell<Vec<(Notification, Vec<crate::stores::config::Channel>)>>>;

/// A form (or the settings modal) on an in-memory terminal.
pub struct Harness {
    engine: Engine,
    terminal: Terminal<TestBackend>,
    /// The last frame drawn, whole.
    frame: Buffer,
    notifications: Sent,
    now: Instant,
}

impl Harness {
    /// A form with default settings and keymaps, nothing saved anywhere.
    pub fn new(payload: &str, width: u16, height: u16) -> Result<Harness, InvalidInput> {
        Ok(Harness::flow(in_memory_app(payload)?, width, height))
    }

    /// An already validated form (an extracted one with freeform questions, for example).
    pub fn with_form(form: crate::form::Form, width: u16, height: u16) -> Harness {
        Harness::flow(form_app(form), width, height)
    }

    /// A form offering `@` file suggestions from a given index ([`FileIndex::from_entries`]
    /// builds one from a list of paths).
    pub fn with_file_index(
        payload: &str,
        index: FileIndex,
        width: u16,
        height: u16,
    ) -> Result<Harness, InvalidInput> {
        Ok(Harness::flow(
            in_memory_app(payload)?.with_files(index),
            width,
            height,
        ))
    }

    /// A form offering `@` file suggestions from `cwd` (indexed completely before the first key,
    /// without the user's global git excludes, so tests are deterministic).
    #[cfg(feature = "cli")]
    pub fn with_files(
        payload: &str,
        cwd: &Path,
        width: u16,
        height: u16,
    ) -> Result<Harness, InvalidInput> {
        let index = FileIndex::build(
            cwd,
            IndexOptions {
                git_global: false,
                ..IndexOptions::default()
            },
        )
        .expect("no exclude globs");
        index.wait();
        Harness::with_file_index(payload, index, width, height)
    }

    /// A form using the config file at `config` (TOML, or the original's JSON), saving toggles to it.
    pub fn with_config(
        payload: &str,
        config: &Path,
        width: u16,
        height: u16,
    ) -> Result<Harness, InvalidInput> {
        let form = parse_payload(payload)?;
        let store = ConfigStore::open(ConfigPaths::resolve(Some(config), |_| None));
        let c = store.config();
        let app = App::new(
            form,
            c.settings(),
            BindingTable::new(c.keymaps.clone()),
            store.display_path(),
            store.notice(),
        );
        Ok(Harness::build(
            Screen::Flow(Box::new(app)),
            Some(store),
            width,
            height,
        ))
    }

    /// The settings modal alone, on the config file at `config`.
    pub fn settings(config: &Path, width: u16, height: u16) -> Harness {
        let store = ConfigStore::open(ConfigPaths::resolve(Some(config), |_| None));
        let c = store.config();
        let app = SettingsApp::new(
            c.settings(),
            BindingTable::new(c.keymaps.clone()),
            store.display_path(),
            store.notice(),
        );
        Harness::build(Screen::Settings(Box::new(app)), Some(store), width, height)
    }

    fn flow(app: App, width: u16, height: u16) -> Harness {
        Harness::build(Screen::Flow(Box::new(app)), None, width, height)
    }

    fn build(screen: Screen, store: Option<ConfigStore>, width: u16, height: u16) -> Harness {
        let notifications = Rc::new(RefCell::new(Vec::new()));
        let sink = notifications.clone();
        let notifier = Box::new(
            move |n: &Notification, channels: &[crate::stores::config::Channel]| {
                sink.borrow_mut().push((n.clone(), channels.to_vec()))
            },
        );
        let mut harness = Harness {
            engine: Engine::new(
                Session::new(screen, store, notifier),
                Viewport::Fixed { width, height },
            )
            // Searches run on the file worker; a test sees their answers before the next key.
            .with_files_settled(Duration::from_secs(10)),
            terminal: Terminal::new(TestBackend::new(width, height)).expect("test backend"),
            frame: Buffer::empty(ratatui::layout::Rect::new(0, 0, width, height)),
            notifications,
            now: Instant::now(),
        };
        harness.draw();
        harness.engine.session_mut().opened(harness.now);
        harness
    }

    /// Draws with the theme this appearance and the config choose (the default is pi's dark
    /// theme in 24-bit colour, whatever the environment says).
    pub fn appearance(&mut self, appearance: Appearance) -> &mut Self {
        self.engine.session_mut().set_appearance(appearance);
        self.draw();
        self
    }

    /// Draws as inside a host, where hiding the form shows the host's conversation (the footer
    /// names the hide key), as `pi-ask embed` does.
    pub fn inside_a_host(&mut self) -> &mut Self {
        self.engine.session_mut().set_hides(true);
        self.draw();
        self
    }

    /// Draws as for a terminal that reports Shift+Enter apart from Enter (or not).
    pub fn shift_enter_reported(&mut self, reported: bool) -> &mut Self {
        self.engine.session_mut().set_shift_enter_reported(reported);
        self.draw();
        self
    }

    /// Draws a frame and keeps it whole. The frame itself is what is read, not the test backend's
    /// screen: the backend applies only the diff between frames and, unlike a terminal, does not
    /// clear the second half of a wide character when the diff skips it, so it can show cells
    /// left over from an earlier frame.
    fn draw(&mut self) {
        let engine = &mut self.engine;
        let frame = self
            .terminal
            .draw(|f| engine.draw(f))
            .expect("drawing to a test backend");
        self.frame = frame.buffer.clone();
    }

    fn event(&mut self, input: TerminalInput) -> &mut Self {
        self.batch(vec![input])
    }

    /// Inputs that arrive together (one read of a terminal), applied in one engine step before
    /// the next frame.
    fn batch(&mut self, inputs: Vec<TerminalInput>) -> &mut Self {
        if !self.engine.session().is_done() {
            self.engine
                .step(inputs.into_iter().map(Input::Terminal), self.now);
        }
        self
    }

    /// Presses a key given as a key id (`down`, `shift+tab`, `ctrl+c`, `?`), as a terminal would
    /// send it (`shift+1` arrives as `1`).
    ///
    /// # Panics
    ///
    /// On a key id pi does not know (`banana`): a test names keys, and a typo there is the test's
    /// bug. Check untrusted ids with [`KeyId::parse`] first.
    pub fn press(&mut self, key_id: &str) -> &mut Self {
        self.press_together(&[key_id])
    }

    /// Presses several keys that arrive together, as a terminal delivers keys typed fast or
    /// repeated in one read: they act exactly as pressed one at a time.
    ///
    /// # Panics
    ///
    /// On a key id pi does not know, as [`Harness::press`].
    pub fn press_together(&mut self, key_ids: &[&str]) -> &mut Self {
        let keys = key_ids
            .iter()
            .filter_map(|key_id| {
                let key =
                    KeyId::parse(key_id).unwrap_or_else(|e| panic!("bad key id {key_id:?}: {e}"));
                as_sent(&key).map(TerminalInput::Key)
            })
            .collect();
        self.batch(keys)
    }

    /// Presses several keys in order.
    pub fn keys(&mut self, key_ids: &[&str]) -> &mut Self {
        for k in key_ids {
            self.press(k);
        }
        self
    }

    /// Types text one character at a time (as keys, not a paste).
    pub fn type_text(&mut self, text: &str) -> &mut Self {
        for c in text.chars() {
            let mods = Mods {
                shift: c.is_ascii_uppercase(),
                ..Mods::NONE
            };
            if let Some(key) = KeyId::from_raw(RawKey::Char(c), mods) {
                self.event(TerminalInput::Key(key));
            }
        }
        self
    }

    /// A bracketed paste.
    pub fn paste(&mut self, text: &str) -> &mut Self {
        self.event(TerminalInput::Paste(text.to_owned()))
    }

    /// Raw terminal input bytes (`b"\x1b[B"` is Down), decoded as a terminal would send them,
    /// and applied as one read (together, before the next frame).
    pub fn send_bytes(&mut self, input: &[u8]) -> &mut Self {
        self.batch(bytes::decode(input))
    }

    /// Lets time pass (fires due timers, such as the reset confirmation window).
    pub fn advance(&mut self, ms: u64) -> &mut Self {
        self.now += Duration::from_millis(ms);
        self.engine.tick(self.now);
        self
    }

    /// Changes the terminal size.
    pub fn resize(&mut self, width: u16, height: u16) -> &mut Self {
        self.terminal.backend_mut().resize(width, height);
        self.engine
            .step([Input::Resize { width, height }], self.now);
        self
    }

    /// The screen, one string per row, trailing spaces removed.
    pub fn screen(&mut self) -> Vec<String> {
        self.draw();
        rows(&self.frame)
    }

    /// The screen as one string.
    pub fn screen_text(&mut self) -> String {
        self.screen().join("\n")
    }

    /// The styled cell at a position.
    pub fn cell(&mut self, x: u16, y: u16) -> Cell {
        self.draw();
        self.frame[(x, y)].clone()
    }

    /// The whole drawn buffer (for snapshot tests of styles).
    pub fn buffer(&mut self) -> Buffer {
        self.draw();
        self.frame.clone()
    }

    /// The result once the flow finished.
    pub fn result(&self) -> Option<&AskResult> {
        self.engine.session().result()
    }

    /// Whether the form finished (or the settings modal closed).
    pub fn is_done(&self) -> bool {
        self.engine.session().is_done()
    }

    /// Notifications the flow sent.
    pub fn notifications(&self) -> Vec<Notification> {
        self.notifications
            .borrow()
            .iter()
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// The channels each notification went through (the config's, or the bell without one).
    pub fn notification_channels(&self) -> Vec<Vec<crate::stores::config::Channel>> {
        self.notifications
            .borrow()
            .iter()
            .map(|(_, channels)| channels.clone())
            .collect()
    }

    /// The open `@` suggestion popup, if any.
    pub fn popup(&self) -> Option<&crate::tui::Popup> {
        self.engine.session().app().and_then(App::popup)
    }

    /// The flow's model, for assertions beyond the screen.
    pub fn model(&self) -> Option<&crate::model::Model> {
        self.engine.session().app().map(App::model)
    }

    /// What the last frame measured (page rows, the preview's scroll range): the view's own
    /// state, which the next key is resolved against.
    pub fn measures(&self) -> Option<crate::model::ViewMeasures> {
        self.engine.session().app().map(App::measures)
    }
}

/// A form in line mode: typed lines in, the transcript (said lines, each typed line as
/// `> line`) and the result out. Runs the same [`Session`] as [`Harness`].
#[cfg(feature = "cli")]
pub struct LineHarness {
    engine: Engine,
}

#[cfg(feature = "cli")]
impl LineHarness {
    /// A form with default settings and keymaps, nothing saved anywhere.
    pub fn new(payload: &str) -> Result<LineHarness, InvalidInput> {
        Ok(LineHarness::with_app(in_memory_app(payload)?))
    }

    /// A form with these settings (the double-press review shortcuts, for example).
    pub fn with_settings(payload: &str, settings: Settings) -> Result<LineHarness, InvalidInput> {
        let form = parse_payload(payload)?;
        Ok(LineHarness::with_app(App::new(
            form,
            settings,
            BindingTable::default(),
            "(in memory)".into(),
            None,
        )))
    }

    fn with_app(app: App) -> LineHarness {
        let notifier = Box::new(|_: &Notification, _: &[crate::stores::config::Channel]| {});
        let session = Session::new(Screen::Flow(Box::new(app)), None, notifier);
        LineHarness {
            engine: Engine::new(session, Viewport::Headless),
        }
    }

    /// Types `lines`, one after another, then ends the input. Returns the transcript.
    pub fn type_lines(&mut self, lines: &[&str]) -> String {
        let (tx, rx) = std::sync::mpsc::channel();
        for line in lines {
            let _ = tx.send((*line).to_owned());
        }
        drop(tx);
        let mut out = Vec::new();
        let options = crate::drivers::line::LineOptions {
            intro: None,
            echo: true,
        };
        let signals = std::sync::atomic::AtomicBool::new(false);
        let _ = crate::drivers::line::run(&mut self.engine, &rx, &mut out, &options, &signals);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The result, once the form ended.
    pub fn result(&self) -> Option<&AskResult> {
        self.engine.session().result()
    }
}

fn in_memory_app(payload: &str) -> Result<App, InvalidInput> {
    Ok(form_app(parse_payload(payload)?))
}

fn form_app(form: crate::form::Form) -> App {
    App::new(
        form,
        Settings::defaults(),
        BindingTable::default(),
        "(in memory)".into(),
        None,
    )
}

/// Rows of a buffer as text (wide characters once, trailing spaces trimmed).
pub fn rows(buffer: &Buffer) -> Vec<String> {
    pi_ask_components::text::buffer_rows(buffer)
}

/// A key id as a terminal would send it, read back as the runtime reads it (so `shift+1`, which no
/// terminal sends, arrives as `1`, and `shift+a` as `shift+a` from an `A`).
fn as_sent(key: &KeyId) -> Option<KeyId> {
    let code = match key.base {
        Base::Char(c) if key.mods.shift && c.is_ascii_lowercase() => {
            RawKey::Char(c.to_ascii_uppercase())
        }
        Base::Char(c) => RawKey::Char(c),
        Base::F(n) => RawKey::F(n),
        Base::Named(n) => match n {
            Named::Esc => RawKey::Named(Named::Esc),
            Named::Enter => RawKey::Named(Named::Enter),
            Named::Tab if key.mods.shift => RawKey::BackTab,
            Named::Tab => RawKey::Named(Named::Tab),
            Named::Space => RawKey::Char(' '),
            Named::Backspace => RawKey::Named(Named::Backspace),
            Named::Delete => RawKey::Named(Named::Delete),
            Named::Insert => RawKey::Named(Named::Insert),
            Named::Clear => RawKey::Named(Named::Clear),
            Named::Home => RawKey::Named(Named::Home),
            Named::End => RawKey::Named(Named::End),
            Named::PageUp => RawKey::Named(Named::PageUp),
            Named::PageDown => RawKey::Named(Named::PageDown),
            Named::Up => RawKey::Named(Named::Up),
            Named::Down => RawKey::Named(Named::Down),
            Named::Left => RawKey::Named(Named::Left),
            Named::Right => RawKey::Named(Named::Right),
        },
    };
    KeyId::from_raw(code, key.mods)
}
