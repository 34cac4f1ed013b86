//! A small tui-realm application built from pi-ask's components: an option list, the preview of
//! the highlighted option, a note editor and the review tab, each mounted in tui-realm's
//! `Application` and driven through `perform`. Keys are this example's own choice (the host's
//! job, not the components'): Up/Down move, Tab moves the focus, typing edits the note, Enter on
//! the review tab ends, Esc quits. Run it with `cargo run -p pi-ask-components --example form`.

use std::sync::Arc;
use std::time::Duration;

use pi_ask_components::{Editor, OptionList, OptionRow, PreviewPane, ReviewTab};
use tuirealm::application::{Application, PollStrategy};
use tuirealm::command::{Cmd, CmdResult, Direction};
use tuirealm::component::{AppComponent, Component};
use tuirealm::event::{Event, Key, KeyEvent, NoUserEvent};
use tuirealm::listener::EventListenerCfg;
use tuirealm::props::{AttrValue, Attribute, QueryResult};
use tuirealm::ratatui::Frame;
use tuirealm::ratatui::layout::{Constraint, Layout, Rect};
use tuirealm::state::{State, StateValue};
use tuirealm::terminal::{CrosstermTerminalAdapter, TerminalAdapter};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Id {
    Options,
    Preview,
    Note,
    Review,
}

const FOCUS_ORDER: [Id; 3] = [Id::Options, Id::Note, Id::Review];

#[derive(Debug, PartialEq)]
enum Msg {
    /// A component's state changed.
    Changed(Id),
    FocusNext,
    Done,
    Quit,
}

/// A pi-ask component mounted under an id, with this application's keys.
struct Mounted<C> {
    id: Id,
    inner: C,
}

impl<C: Component> Component for Mounted<C> {
    fn view(&mut self, frame: &mut Frame, area: Rect) {
        self.inner.view(frame, area);
    }

    fn query<'a>(&'a self, attr: Attribute) -> Option<QueryResult<'a>> {
        self.inner.query(attr)
    }

    fn attr(&mut self, attr: Attribute, value: AttrValue) {
        self.inner.attr(attr, value);
    }

    fn state(&self) -> State {
        self.inner.state()
    }

    fn perform(&mut self, cmd: Cmd) -> CmdResult {
        self.inner.perform(cmd)
    }
}

impl<C: Component + 'static> AppComponent<Msg, NoUserEvent> for Mounted<C> {
    fn on(&mut self, event: &Event<NoUserEvent>) -> Option<Msg> {
        let Event::Keyboard(KeyEvent { code, .. }) = event else {
            return None;
        };
        let cmd = match code {
            Key::Esc => return Some(Msg::Quit),
            Key::Tab => return Some(Msg::FocusNext),
            Key::Enter if self.id == Id::Review => return Some(Msg::Done),
            Key::Up => Cmd::Move(Direction::Up),
            Key::Down => Cmd::Move(Direction::Down),
            Key::Left => Cmd::Move(Direction::Left),
            Key::Right => Cmd::Move(Direction::Right),
            Key::Backspace => Cmd::Delete,
            Key::Char(c) => Cmd::Type(*c),
            _ => return None,
        };
        match self.perform(cmd) {
            CmdResult::Changed(_) => Some(Msg::Changed(self.id)),
            _ => None,
        }
    }
}

struct Choice {
    label: &'static str,
    description: &'static str,
    preview: &'static str,
}

const CHOICES: [Choice; 3] = [
    Choice {
        label: "Postgres",
        description: "A server, the safe default",
        preview: "docker run -d postgres:17\n\nReplication, extensions, JSONB.",
    },
    Choice {
        label: "SQLite",
        description: "One file, no server",
        preview: "let db = Connection::open(\"app.db\")?;\n\nNothing to run or upgrade.",
    },
    Choice {
        label: "DuckDB",
        description: "Columnar, for analysis",
        preview: "SELECT avg(total) FROM 'orders.parquet';",
    },
];

fn mount(app: &mut Application<Id, Msg, NoUserEvent>) -> Result<(), Box<dyn std::error::Error>> {
    let rows = CHOICES
        .iter()
        .map(|c| OptionRow {
            label: c.label.into(),
            description: Some(c.description.into()),
            recommended: c.label == "Postgres",
        })
        .collect();
    let component = |id, inner| -> Box<dyn AppComponent<Msg, NoUserEvent>> {
        match inner {
            Part::Options(c) => Box::new(Mounted { id, inner: *c }),
            Part::Preview(c) => Box::new(Mounted { id, inner: c }),
            Part::Note(c) => Box::new(Mounted { id, inner: c }),
            Part::Review(c) => Box::new(Mounted { id, inner: c }),
        }
    };
    app.mount(
        Id::Options,
        component(
            Id::Options,
            Part::Options(Box::new(OptionList::new(Arc::new(rows)))),
        ),
        Vec::new(),
    )?;
    let first = &CHOICES[0];
    app.mount(
        Id::Preview,
        component(
            Id::Preview,
            Part::Preview(PreviewPane::new(
                first.label,
                Some(first.description.into()),
                Some(first.preview.into()),
            )),
        ),
        Vec::new(),
    )?;
    app.mount(
        Id::Note,
        component(Id::Note, Part::Note(Editor::new("", "Add a note..."))),
        Vec::new(),
    )?;
    app.mount(
        Id::Review,
        component(Id::Review, Part::Review(ReviewTab::default())),
        Vec::new(),
    )?;
    for id in [Id::Options, Id::Preview, Id::Note, Id::Review] {
        app.attr(&id, Attribute::Focus, AttrValue::Flag(id == Id::Options))?;
    }
    app.active(&Id::Options)?;
    Ok(())
}

enum Part {
    Options(Box<OptionList>),
    Preview(PreviewPane),
    Note(Editor),
    Review(ReviewTab),
}

fn cursor(app: &Application<Id, Msg, NoUserEvent>) -> usize {
    match app.state(&Id::Options) {
        Ok(State::Single(StateValue::Usize(n))) => n,
        _ => 0,
    }
}

fn note(app: &Application<Id, Msg, NoUserEvent>) -> String {
    match app.state(&Id::Note) {
        Ok(State::Single(StateValue::String(text))) => text,
        _ => String::new(),
    }
}

/// What a change in one component means for the others.
fn follow(app: &mut Application<Id, Msg, NoUserEvent>) -> Result<(), Box<dyn std::error::Error>> {
    let choice = &CHOICES[cursor(app).min(CHOICES.len() - 1)];
    app.attr(
        &Id::Preview,
        Attribute::Title,
        AttrValue::String(choice.label.into()),
    )?;
    app.attr(
        &Id::Preview,
        Attribute::Text,
        AttrValue::String(choice.preview.into()),
    )?;
    app.attr(
        &Id::Preview,
        Attribute::Custom(pi_ask_components::preview_pane::DESCRIPTION),
        AttrValue::String(choice.description.into()),
    )?;
    let note = note(app);
    let review = if note.is_empty() {
        format!("Database: {}", choice.label)
    } else {
        format!("Database: {} (note: {note})", choice.label)
    };
    app.attr(&Id::Review, Attribute::Text, AttrValue::String(review))?;
    Ok(())
}

fn draw(
    app: &mut Application<Id, Msg, NoUserEvent>,
    terminal: &mut CrosstermTerminalAdapter,
) -> Result<(), Box<dyn std::error::Error>> {
    terminal.draw(|f| {
        let [top, note, review] = Layout::vertical([
            Constraint::Min(8),
            Constraint::Length(1),
            Constraint::Length(9),
        ])
        .areas(f.area());
        let [options, preview] =
            Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(top);
        app.view(&Id::Options, f, options);
        app.view(&Id::Preview, f, preview);
        app.view(&Id::Note, f, note);
        app.view(&Id::Review, f, review);
    })?;
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut app: Application<Id, Msg, NoUserEvent> = Application::init(
        EventListenerCfg::default().crossterm_input_listener(Duration::from_millis(10), 3),
    );
    mount(&mut app)?;
    follow(&mut app)?;
    let mut terminal = CrosstermTerminalAdapter::new()?;
    terminal.enable_raw_mode()?;
    terminal.enter_alternate_screen()?;
    let mut focus = 0;
    let outcome = loop {
        draw(&mut app, &mut terminal)?;
        let messages = app.tick(PollStrategy::Once(Duration::from_millis(50)))?;
        let mut end = None;
        for msg in messages {
            match msg {
                Msg::Changed(_) => follow(&mut app)?,
                Msg::FocusNext => {
                    focus = (focus + 1) % FOCUS_ORDER.len();
                    for (n, id) in FOCUS_ORDER.iter().enumerate() {
                        app.attr(id, Attribute::Focus, AttrValue::Flag(n == focus))?;
                    }
                    app.active(&FOCUS_ORDER[focus])?;
                }
                Msg::Done => end = Some(true),
                Msg::Quit => end = Some(false),
            }
        }
        if let Some(done) = end {
            break done;
        }
    };
    terminal.leave_alternate_screen()?;
    terminal.disable_raw_mode()?;
    if outcome {
        println!("{} {:?}", CHOICES[cursor(&app)].label, note(&app));
    }
    Ok(())
}
