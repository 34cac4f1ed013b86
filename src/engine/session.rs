//! A session: the screen (a flow, the settings modal alone, the inbox's list) plus the effects
//! its commands ask for — saving settings through the config store, timers, notifications, the
//! flow's journal, the final result. The engine's own state: every driver holds one through an
//! [`super::Engine`]; what each screen looks like is the screen's (`crate::tui`), not this
//! module's.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};

use crate::files::{FileSource, FileWorker, SearchReply};
use crate::keymap::BindingTable;
use crate::keys::TerminalInput;
use crate::model::{Cmd, Msg, Notification, Report};
use crate::result::AskResult;
use crate::settings::RESET_CONFIRM_WINDOW_MS;
use crate::stores::config::{Channel, Config, ConfigStore, ThemeConfig};
use crate::tui::{App, Appearance, InboxScreen, SettingsApp, ThemeSource};

/// What is on screen.
pub enum Screen {
    /// A form.
    Flow(Box<App>),
    /// The settings modal alone (`pi-ask settings`).
    Settings(Box<SettingsApp>),
    /// The inbox's list of waiting asks (`pi-ask inbox`).
    Inbox(Box<InboxScreen>),
}

/// Receives the flow's notification and the channels to send it through.
pub type Notifier = Box<dyn FnMut(&Notification, &[Channel])>;

/// Where a flow is recorded while it runs (the history's journal in the `pi-ask` program): the
/// session says when the form is shown and hands over each draft a moment after it changes.
pub trait FlowJournal {
    /// The form is on the screen: its opening may be recorded now.
    fn shown(&self);
    /// What was entered so far (a [`crate::model::Draft`] as JSON).
    fn draft(&self, draft: serde_json::Value);
}

/// Messages from outside the terminal (remote answers), taken on every wake-up of the loop.
pub trait Outside {
    /// The messages waiting for the open flow, given its questions for validation.
    fn poll(&mut self, questions: &[crate::form::Question]) -> Vec<Msg>;
}

/// A screen (a flow or the settings alone) with its effects carried out: the one thing every driver
/// (terminal runtime, line mode, embed protocol, test harness) drives.
pub struct Session {
    pub(crate) screen: Screen,
    outside: Vec<Box<dyn Outside>>,
    /// The one owner of the configuration (none: toggles stay in memory).
    store: Option<ConfigStore>,
    reset_deadline: Option<Instant>,
    /// Text waiting to be edited in the person's own editor, for the driver that can run one
    /// ([`Session::take_external_edit`]).
    external_edit: Option<String>,
    notifier: Notifier,
    result: Option<AskResult>,
    appearance: Appearance,
    /// Searches and folder listings, off this thread; started by the first one.
    files: Option<FileWorker>,
    /// The history record of the flow, its drafts, and when the next draft is due.
    journal: Option<Box<dyn FlowJournal>>,
    recorded_revision: u64,
    draft_due: Option<Instant>,
    /// How long the flow may wait for its answer once shown (`ask --timeout`), and when that is.
    time_limit: Option<Duration>,
    gives_up_at: Option<Instant>,
    /// The latest time a driver gave (the harness's is its own): what a measurement reported
    /// while drawing is dispatched at.
    clock: Instant,
}

/// How long after a change a draft is recorded: changes in a burst (typing) make one record.
pub const DRAFT_DEBOUNCE: Duration = Duration::from_millis(300);

impl Session {
    /// A session over `screen`. With a store, toggles are saved to the config file and config
    /// changes reach the screen at once; without one they stay in memory.
    pub fn new(screen: Screen, store: Option<ConfigStore>, notifier: Notifier) -> Session {
        let mut session = Session {
            screen,
            outside: Vec::new(),
            store,
            reset_deadline: None,
            external_edit: None,
            notifier,
            result: None,
            appearance: Appearance::default(),
            files: None,
            journal: None,
            recorded_revision: 0,
            draft_due: None,
            time_limit: None,
            gives_up_at: None,
            clock: Instant::now(),
        };
        // The config's theme, in pi's dark defaults until the driver says what the terminal shows.
        session.set_appearance(Appearance::default());
        session
    }

    /// Chooses the theme from `appearance` and the config (again whenever the config changes).
    pub fn set_appearance(&mut self, appearance: Appearance) {
        self.appearance = appearance;
        let theme = self
            .store
            .as_ref()
            .map(|s| s.config().theme.clone())
            .unwrap_or_default();
        self.apply_theme(&theme)
    }

    /// Gives the flow up once it has waited `limit` from being shown ([`Session::opened`]) with
    /// no answer: the driver sees [`Session::timed_out`] and ends it as interrupted.
    pub fn with_time_limit(mut self, limit: Option<Duration>) -> Session {
        self.time_limit = limit;
        self
    }

    /// Starts counting the time limit from `now`, once: when the form shows, or earlier when it
    /// waits to be shown (started in the background of a shell).
    pub fn start_time_limit(&mut self, now: Instant) {
        if self.gives_up_at.is_none() {
            self.gives_up_at = self.time_limit.map(|limit| now + limit);
        }
    }

    /// Whether the flow's time limit has run out unanswered.
    pub fn timed_out(&self, now: Instant) -> bool {
        !self.is_done() && self.gives_up_at.is_some_and(|at| now >= at)
    }

    /// [`Session::set_appearance`] as a builder.
    pub fn with_appearance(mut self, appearance: Appearance) -> Session {
        self.set_appearance(appearance);
        self
    }

    fn apply_theme(&mut self, config: &ThemeConfig) {
        let chosen = self.appearance.choose(config);
        match &mut self.screen {
            Screen::Flow(app) => app.set_theme(&chosen),
            Screen::Settings(s) => s.set_theme(&chosen),
            // Its theme was chosen from the config it was made with (the session has no store).
            Screen::Inbox(_) => {}
        }
    }

    /// Whether the terminal reports Shift+Enter apart from Enter ([`App::set_shift_enter_reported`]).
    pub fn set_shift_enter_reported(&mut self, reported: bool) {
        if let Screen::Flow(app) = &mut self.screen {
            app.set_shift_enter_reported(reported);
        }
    }

    /// Whether hiding the form shows a host's conversation ([`App::set_hides`]).
    pub fn set_hides(&mut self, hides: bool) {
        if let Screen::Flow(app) = &mut self.screen {
            app.set_hides(hides);
        }
    }

    /// Text the person asked to edit in their own editor (`editor.externalEditor`), once: the
    /// driver runs the editor and sends the saved text back as
    /// [`crate::model::EditOp::ReplaceAll`]. A driver
    /// with no terminal to lend leaves it (the key then does nothing).
    pub fn take_external_edit(&mut self) -> Option<String> {
        self.external_edit.take()
    }

    /// The flow's result once it finished.
    pub fn result(&self) -> Option<&AskResult> {
        self.result.as_ref()
    }

    /// Whether the person gave the form back (Ctrl+C in the inbox): it ends as interrupted.
    pub fn put_back(&self) -> bool {
        matches!(&self.screen, Screen::Flow(app) if app.put_back())
    }

    /// Whether the session is over (a flow finished, or the settings modal closed).
    pub fn is_done(&self) -> bool {
        match &self.screen {
            Screen::Flow(_) => self.result.is_some(),
            Screen::Settings(s) => s.is_closed(),
            Screen::Inbox(inbox) => inbox.ending().is_some(),
        }
    }

    /// The form's app, when a form is on screen.
    pub fn app(&self) -> Option<&App> {
        match &self.screen {
            Screen::Flow(app) => Some(app),
            Screen::Settings(_) | Screen::Inbox(_) => None,
        }
    }

    /// The inbox's list, when it is on screen.
    pub fn inbox(&self) -> Option<&InboxScreen> {
        match &self.screen {
            Screen::Inbox(inbox) => Some(inbox),
            _ => None,
        }
    }

    /// Also takes messages from `outside` on every wake-up (remote answers, withdrawals).
    pub fn with_outside(mut self, outside: Box<dyn Outside>) -> Session {
        self.outside.push(outside);
        self
    }

    /// Records the flow in the history through `journal`: its opening once it is drawn, then what
    /// is entered, a moment after each change.
    pub fn with_journal(mut self, journal: Option<impl FlowJournal + 'static>) -> Session {
        self.journal = journal.map(|j| Box::new(j) as Box<dyn FlowJournal>);
        self
    }

    /// The UI is drawn and waits for input. What had to wait for the first frame is done now:
    /// the history record of the opening, and the commented default config file where there
    /// was none (a failure to write it is a notice on the screen).
    ///
    /// Returns whether what is drawn may have changed since (a notice about the config file).
    pub fn opened(&mut self, now: Instant) -> bool {
        self.start_time_limit(now);
        if let Some(journal) = &self.journal {
            journal.shown();
            // A restored flow is recorded at once: its draft is already worth keeping.
            if self.app().is_some_and(|a| a.model().revision() != 0) {
                self.draft_due = Some(now);
            }
        }
        let notice = self.store.as_mut().and_then(ConfigStore::create_default);
        let noticed = notice.is_some();
        if let Some(notice) = notice {
            self.dispatch(Msg::Report(Report::ConfigNotice(notice)), now);
        }
        self.dispatch(Msg::Report(Report::Opened), now);
        noticed
    }

    /// Schedules a draft record when something entered may have changed.
    fn note_changes(&mut self, now: Instant) {
        if self.journal.is_none() || self.draft_due.is_some() {
            return;
        }
        if let Screen::Flow(app) = &self.screen
            && app.model().revision() != self.recorded_revision
        {
            self.draft_due = Some(now + DRAFT_DEBOUNCE);
        }
    }

    /// Records the draft now if anything changed since the last record (before a signal ends
    /// the flow, so a resume finds everything).
    pub fn record_draft(&mut self) {
        self.draft_due = None;
        let (Some(journal), Screen::Flow(app)) = (&self.journal, &self.screen) else {
            return;
        };
        let model = app.model();
        if model.revision() == self.recorded_revision || model.is_finished() {
            return;
        }
        self.recorded_revision = model.revision();
        if let Ok(draft) = serde_json::to_value(model.draft()) {
            journal.draft(draft);
        }
    }

    /// What a terminal sent. Returns whether it may have changed what is drawn (a key bound to
    /// nothing does not; neither does a paste with no editor open).
    pub fn handle_input(&mut self, input: &TerminalInput, now: Instant) -> bool {
        if let Screen::Inbox(inbox) = &mut self.screen {
            return inbox.handle_input(input);
        }
        // The key is resolved through the binding table once: `None` is a key bound to nothing
        // here, or a paste with no editor open.
        let cmds = match (&mut self.screen, input) {
            (Screen::Flow(app), TerminalInput::Key(key)) => app.handle_key(key),
            (Screen::Flow(app), TerminalInput::Paste(text)) => app
                .model()
                .editor()
                .is_some()
                .then(|| app.handle_paste(text)),
            (Screen::Settings(s), TerminalInput::Key(key)) => Some(s.handle_key(key)),
            _ => None,
        };
        let Some(cmds) = cmds else {
            return false;
        };
        self.run(cmds, now);
        self.note_changes(now);
        true
    }

    /// Sends a message to the screen and carries out what follows.
    pub fn dispatch(&mut self, msg: Msg, now: Instant) {
        let cmds = self.update_screen(msg);
        self.run(cmds, now);
        self.note_changes(now);
    }

    fn update_screen(&mut self, msg: Msg) -> Vec<Cmd> {
        match &mut self.screen {
            Screen::Flow(app) => app.update(msg),
            Screen::Settings(s) => s.update(msg),
            Screen::Inbox(inbox) => {
                inbox.update(msg);
                Vec::new()
            }
        }
    }

    /// When the next timer fires, if any.
    pub fn next_deadline(&self) -> Option<Instant> {
        let inbox = self.inbox().and_then(InboxScreen::next_deadline);
        [self.reset_deadline, self.draft_due, self.gives_up_at, inbox]
            .into_iter()
            .flatten()
            .min()
    }

    /// Fires timers that are due. Returns whether anything visible may have changed.
    pub fn tick(&mut self, now: Instant) -> bool {
        let replies = self
            .files
            .as_mut()
            .map(FileWorker::take_replies)
            .unwrap_or_default();
        let mut changed = !replies.is_empty();
        self.deliver(replies, now);
        if let Screen::Inbox(inbox) = &mut self.screen {
            changed |= inbox.tick(now);
        }
        let outside: Vec<Msg> = match &self.screen {
            Screen::Flow(app) => {
                let questions = app.model().questions();
                self.outside
                    .iter_mut()
                    .flat_map(|o| o.poll(questions))
                    .collect()
            }
            Screen::Settings(_) | Screen::Inbox(_) => Vec::new(),
        };
        for msg in outside {
            self.dispatch(msg, now);
            changed = true;
        }
        if self.reset_deadline.is_some_and(|d| d <= now) {
            self.reset_deadline = None;
            self.dispatch(Msg::Report(Report::ResetWindowExpired), now);
            changed = true;
        }
        if self.draft_due.is_some_and(|d| d <= now) {
            self.record_draft();
        }
        // The config file edited on disk applies like a toggle, with the same notices.
        if let Some(store) = self.store.as_mut()
            && store.reload_if_changed()
        {
            let notice = store.notice();
            let mut msgs = self.apply_config();
            msgs.extend(notice.map(|n| Msg::Report(Report::ConfigNotice(n))));
            for msg in msgs {
                let cmds = self.update_screen(msg);
                self.run(cmds, now);
            }
            changed = true;
        }
        changed
    }

    /// Whether a search or listing has run (the index walk starts with the first one).
    pub fn files_started(&self) -> bool {
        self.files.is_some()
    }

    /// Whether an answer from the file worker is expected soon (the loop should wake up for it).
    pub fn awaits_files(&self) -> bool {
        self.files.as_ref().is_some_and(FileWorker::is_busy)
    }

    /// Waits (up to `timeout`) for the file worker to answer what it was asked, and applies the
    /// answers: the harness does this after every input so screens are deterministic.
    pub fn settle_files(&mut self, timeout: Duration, now: Instant) {
        while let Some(worker) = self.files.as_mut().filter(|w| w.is_busy()) {
            let replies = worker.wait_replies(timeout);
            if replies.is_empty() {
                return;
            }
            self.deliver(replies, now);
        }
    }

    fn deliver(&mut self, replies: Vec<SearchReply>, now: Instant) {
        for reply in replies {
            self.dispatch(
                Msg::Report(Report::Suggestions {
                    generation: reply.generation,
                    matches: reply.matches,
                    truncated: reply.truncated,
                }),
                now,
            );
        }
    }

    /// The file worker, started at the first request with the flow's file source.
    fn file_worker(&mut self) -> &mut FileWorker {
        let screen = &mut self.screen;
        self.files.get_or_insert_with(|| {
            let source = match screen {
                Screen::Flow(app) => app.files.take(),
                Screen::Settings(_) | Screen::Inbox(_) => None,
            };
            // Without a source, Tab still completes path words from the working directory.
            FileWorker::spawn(source.unwrap_or_else(default_file_source))
        })
    }

    /// Carries out commands, and whatever the messages they lead to ask for.
    fn run(&mut self, cmds: Vec<Cmd>, now: Instant) {
        self.clock = self.clock.max(now);
        let mut queue: VecDeque<Cmd> = cmds.into();
        while let Some(cmd) = queue.pop_front() {
            let follow_up: Vec<Msg> = match cmd {
                Cmd::Finish(result) => {
                    self.result.get_or_insert(*result);
                    Vec::new()
                }
                Cmd::Notify(n) => {
                    let channels = self
                        .store
                        .as_ref()
                        .map_or(&[Channel::Bell][..], |s| &s.config().notifications.channels);
                    (self.notifier)(&n, channels);
                    Vec::new()
                }
                Cmd::StartResetWindow => {
                    self.reset_deadline =
                        Some(now + Duration::from_millis(RESET_CONFIRM_WINDOW_MS));
                    Vec::new()
                }
                Cmd::SaveSetting { setting, value } => {
                    match self.store.as_mut().map(|s| s.set_setting(setting, value)) {
                        Some(Err(error)) => vec![Msg::Report(Report::SettingSaveFailed {
                            setting,
                            value,
                            message: error.to_string(),
                        })],
                        Some(Ok(())) => self.apply_config(),
                        None => Vec::new(),
                    }
                }
                Cmd::Files(request) => {
                    self.file_worker().request(request);
                    Vec::new()
                }
                Cmd::EditExternally { text } => {
                    self.external_edit = Some(text);
                    Vec::new()
                }
                Cmd::CycleTheme => self.cycle_theme(),
                Cmd::ResetConfig => {
                    self.reset_deadline = None;
                    match self.store.as_mut().map(ConfigStore::reset) {
                        Some(Err(error)) => vec![Msg::Report(Report::ResetFailed {
                            message: error.to_string(),
                        })],
                        Some(Ok(())) => self.apply_config(),
                        None => vec![Msg::Report(Report::SettingsChanged(
                            Config::default().settings(),
                        ))],
                    }
                }
            };
            for msg in follow_up {
                queue.extend(self.update_screen(msg));
            }
        }
    }

    /// Saves the config's theme as the next of auto, dark, light and wears it. When the command
    /// line, `PI_ASK_THEME` or the host decides the theme, the name is saved all the same (for
    /// the next run) and a notice says what decides this one.
    fn cycle_theme(&mut self) -> Vec<Msg> {
        let Some(store) = self.store.as_mut() else {
            return vec![Msg::Report(Report::ThemeSaveFailed {
                message: "There is no config to save the theme in.".to_owned(),
            })];
        };
        let next = store.config().theme.name.next();
        if let Err(error) = store.set_theme(next) {
            return vec![Msg::Report(Report::ThemeSaveFailed {
                message: error.to_string(),
            })];
        }
        let mut follow_up = self.apply_config();
        let theme = self
            .store
            .as_ref()
            .map(|s| s.config().theme.clone())
            .unwrap_or_default();
        let decided_by = match self.appearance.choose(&theme).source {
            ThemeSource::CommandLine => Some("--theme"),
            ThemeSource::Environment => Some("PI_ASK_THEME"),
            ThemeSource::Host => Some("the host's theme"),
            ThemeSource::Config | ThemeSource::Colorfgbg | ThemeSource::Fallback => None,
        };
        if let Some(decider) = decided_by {
            follow_up.push(Msg::Report(Report::ConfigNotice(format!(
                "Saved theme {}; {decider} decides this session's theme.",
                next.name()
            ))));
        }
        follow_up
    }

    /// Applies the store's configuration, just saved, reset or reloaded, to the screen: keymaps
    /// and theme at once, settings as the message the model takes.
    fn apply_config(&mut self) -> Vec<Msg> {
        let Some(config) = self.store.as_ref().map(ConfigStore::config) else {
            return Vec::new();
        };
        let table = BindingTable::new(config.keymaps.clone());
        let theme = config.theme.clone();
        let settings = config.settings();
        self.apply_theme(&theme);
        match &mut self.screen {
            Screen::Flow(app) => app.set_table(table),
            Screen::Settings(s) => s.table = table,
            Screen::Inbox(_) => {}
        }
        vec![Msg::Report(Report::SettingsChanged(settings))]
    }

    /// Draws the screen into a terminal frame and places its cursor.
    pub fn draw(&mut self, frame: &mut Frame) {
        let area = frame.area();
        if let Some(position) = self.render(area, frame.buffer_mut()) {
            frame.set_cursor_position(position);
        }
    }

    /// Draws the screen into `buf` (cleared first) and returns where the hardware cursor goes (an
    /// open editor's caret). Every driver draws through this: the terminal runtime, the test
    /// harness and the embed protocol.
    pub fn render(&mut self, area: Rect, buf: &mut Buffer) -> Option<Position> {
        let Screen::Flow(app) = &mut self.screen else {
            match &self.screen {
                Screen::Settings(s) => s.render(area, buf),
                Screen::Inbox(inbox) => inbox.render(area, buf),
                Screen::Flow(_) => {}
            }
            return None;
        };
        // What the frame measured stays in the view (the app's measures): the model is never
        // written while drawing.
        app.draw(area, buf).cursor
    }

    /// Whether a frame of the current state was drawn since the last change, so the model holds
    /// what it measured (see [`crate::engine::Engine`], which draws one before the next input
    /// when not). The settings screen measures nothing.
    pub(crate) fn is_measured(&self) -> bool {
        match &self.screen {
            Screen::Flow(app) => app.is_measured(),
            Screen::Settings(_) | Screen::Inbox(_) => true,
        }
    }
}

/// The files `@` suggests when the flow was given none: the working directory, walked.
#[cfg(feature = "cli")]
fn default_file_source() -> FileSource {
    FileSource::Walk {
        root: std::path::PathBuf::from("."),
        options: crate::files::IndexOptions::default(),
    }
}

/// The files `@` suggests when the flow was given none: the lean core has no walk, so none.
#[cfg(not(feature = "cli"))]
fn default_file_source() -> FileSource {
    FileSource::Index(crate::files::FileIndex::from_entries(
        std::path::Path::new("."),
        Vec::new(),
    ))
}

/// The history's journal records a flow the session runs.
#[cfg(feature = "cli")]
impl FlowJournal for crate::stores::history::JournalHandle {
    fn shown(&self) {
        crate::stores::history::JournalHandle::shown(self);
    }

    fn draft(&self, draft: serde_json::Value) {
        crate::stores::history::JournalHandle::draft(self, draft);
    }
}
