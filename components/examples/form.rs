//! The whole form built from pi-ask's components in a tui-realm application: the tab bar, the
//! option list with the highlighted option's preview, a note editor, the review tab, the settings
//! modal and the footer, each mounted with [`Mounted`] and set only through attributes.
//!
//! Keys are this example's own binding table (the host's job, not the components'): ↑/↓ move,
//! Space toggles, ←/→ or Tab change tabs, `n` opens the note editor (Enter keeps the note, Esc
//! leaves it), `?` opens the settings (Enter toggles, Esc closes), Enter on the review tab picks
//! the highlighted action, Esc quits. The terminal is restored on every way out, errors and
//! panics included. Run it with `cargo run -p pi-ask-components --example form`.

use std::sync::Arc;
use std::time::Duration;

use pi_ask_components::realm::{Mounted, attr, payload};
use pi_ask_components::{
    Editor, Footer, OptionList, OptionListState, OptionRow, PreviewPane, ReviewEntry, ReviewLine,
    ReviewTab, SettingsItem, SettingsModal, TabBar, TabItem,
};
use tuirealm::application::{Application, PollStrategy};
use tuirealm::command::{Cmd, CmdResult, Direction};
use tuirealm::event::{Event, Key, KeyEvent, NoUserEvent};
use tuirealm::listener::EventListenerCfg;
use tuirealm::props::{AttrValue, Attribute, PropPayload, PropValue};
use tuirealm::ratatui::layout::{Constraint, Layout, Rect};
use tuirealm::state::{State, StateValue};
use tuirealm::terminal::{CrosstermTerminalAdapter, TerminalAdapter};

type App = Application<Id, CmdResult, NoUserEvent>;
type Error = Box<dyn std::error::Error>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Id {
    Tabs,
    Options,
    Preview,
    Note,
    Review,
    Settings,
    Footer,
}

/// Commands no component takes: they come back as `Invalid(cmd)` and the application acts on
/// them itself.
const NEXT_TAB: &str = "nextTab";
const PREVIOUS_TAB: &str = "previousTab";
const OPEN_NOTE: &str = "openNote";
const OPEN_SETTINGS: &str = "openSettings";
const CLOSE: &str = "close";

struct Choice {
    label: &'static str,
    description: &'static str,
    preview: &'static str,
}

const CHOICES: [Choice; 3] = [
    Choice {
        label: "Postgres",
        description: "A server, the safe default",
        preview: "```sh\ndocker run -d postgres:17\n```\n\n**Replication**, extensions, JSONB.",
    },
    Choice {
        label: "SQLite",
        description: "One file, *no server*",
        preview: "```rust\nlet db = Connection::open(\"app.db\")?;\n```\n\nNothing to run or upgrade.",
    },
    Choice {
        label: "DuckDB",
        description: "Columnar, for analysis",
        preview: "```sql\nSELECT avg(total) FROM 'orders.parquet';\n```",
    },
];

/// This example's binding table: what a key means to the focused component.
fn bindings(id: Id) -> impl FnMut(&Event<NoUserEvent>) -> Option<Cmd> + 'static {
    move |event| {
        let Event::Keyboard(KeyEvent { code, .. }) = event else {
            return None;
        };
        let cmd = match (id, code) {
            (_, Key::Esc) => Cmd::Custom(CLOSE),
            (Id::Note, Key::Enter) => Cmd::Submit,
            (Id::Note, Key::Backspace) => Cmd::Delete,
            (Id::Note, Key::Left) => Cmd::Move(Direction::Left),
            (Id::Note, Key::Right) => Cmd::Move(Direction::Right),
            (Id::Note, Key::Char(c)) => Cmd::Type(*c),
            (Id::Settings, Key::Enter | Key::Char(' ')) => Cmd::Toggle,
            (_, Key::Up) => Cmd::Move(Direction::Up),
            (_, Key::Down) => Cmd::Move(Direction::Down),
            (_, Key::Right | Key::Tab) => Cmd::Custom(NEXT_TAB),
            (_, Key::Left | Key::BackTab) => Cmd::Custom(PREVIOUS_TAB),
            (_, Key::Char('?')) => Cmd::Custom(OPEN_SETTINGS),
            (Id::Options, Key::Char('n')) => Cmd::Custom(OPEN_NOTE),
            (Id::Options, Key::Char(' ')) => Cmd::Toggle,
            (_, Key::Enter) => Cmd::Submit,
            _ => return None,
        };
        Some(cmd)
    }
}

/// What the person has entered: the form's model, owned here, shown through attributes.
#[derive(Default)]
struct Form {
    /// The chosen databases (rows of the option list).
    chosen: Vec<usize>,
    note: String,
    /// The row the note was written on.
    note_row: usize,
    /// The settings' toggles.
    wrap: bool,
    numbers: bool,
    on_review: bool,
    /// The component that takes keys beside the tab's own: the note editor or the settings.
    overlay: Option<Id>,
    notice: Option<String>,
}

/// A component under `id`, driven by this example's bindings for it.
fn mounted<C: tuirealm::component::Component + 'static>(component: C, id: Id) -> Box<Mounted<C>> {
    Box::new(Mounted::new(component, bindings(id)))
}

fn mount(app: &mut App) -> Result<(), Error> {
    let rows: Arc<Vec<OptionRow>> = Arc::new(
        CHOICES
            .iter()
            .map(|c| OptionRow {
                label: c.label.into(),
                description: Some(c.description.into()),
                recommended: c.label == "Postgres",
            })
            .collect(),
    );
    app.mount(Id::Tabs, mounted(TabBar::default(), Id::Tabs), Vec::new())?;
    app.mount(
        Id::Options,
        mounted(OptionList::new(rows), Id::Options),
        Vec::new(),
    )?;
    app.mount(
        Id::Preview,
        mounted(PreviewPane::default(), Id::Preview),
        Vec::new(),
    )?;
    app.mount(Id::Note, mounted(Editor::new("", ""), Id::Note), Vec::new())?;
    app.mount(
        Id::Review,
        mounted(ReviewTab::default(), Id::Review),
        Vec::new(),
    )?;
    app.mount(
        Id::Settings,
        mounted(SettingsModal::default(), Id::Settings),
        Vec::new(),
    )?;
    app.mount(
        Id::Footer,
        mounted(Footer::default(), Id::Footer),
        Vec::new(),
    )?;
    let string = |s: &str| AttrValue::String(s.into());
    app.attr(
        &Id::Note,
        Attribute::Custom(attr::PLACEHOLDER),
        string("Add a note..."),
    )?;
    app.attr(&Id::Settings, Attribute::Title, string("Settings"))?;
    app.attr(
        &Id::Settings,
        Attribute::Text,
        string("(this example saves nothing)"),
    )?;
    app.attr(
        &Id::Settings,
        Attribute::Custom(attr::FOOTER),
        string("Enter toggle · Esc close"),
    )?;
    app.active(&Id::Options)?;
    Ok(())
}

fn cursor(app: &App) -> usize {
    match app.state(&Id::Options) {
        Ok(State::Single(StateValue::Usize(n))) => n.min(CHOICES.len() - 1),
        _ => 0,
    }
}

/// Shows the form's model in every component (the model is the only owner of what was entered;
/// the components keep their own cursors).
fn show(app: &mut App, form: &Form) -> Result<(), Error> {
    let choice = &CHOICES[cursor(app)];
    let chosen: Vec<&str> = form.chosen.iter().map(|&i| CHOICES[i].label).collect();
    let tabs = vec![TabItem {
        label: "Database".into(),
        answered: !chosen.is_empty(),
        required: true,
    }];
    app.attr(&Id::Tabs, Attribute::Content, payload(tabs))?;
    app.attr(
        &Id::Tabs,
        Attribute::Value,
        AttrValue::Length(usize::from(form.on_review)),
    )?;
    let state = OptionListState {
        checkboxes: true,
        selected: form.chosen.clone(),
        notes: if form.note.is_empty() {
            Vec::new()
        } else {
            vec![(form.note_row, form.note.clone())]
        },
        cursor: cursor(app),
        ..OptionListState::default()
    };
    app.attr(&Id::Options, Attribute::Custom(attr::STATE), payload(state))?;
    app.attr(
        &Id::Preview,
        Attribute::Title,
        AttrValue::String(choice.label.into()),
    )?;
    app.attr(
        &Id::Preview,
        Attribute::Custom(attr::DESCRIPTION),
        AttrValue::String(choice.description.into()),
    )?;
    app.attr(
        &Id::Preview,
        Attribute::Text,
        AttrValue::String(choice.preview.into()),
    )?;
    let mut lines: Vec<ReviewLine> = chosen
        .iter()
        .map(|label| ReviewLine::Answer {
            text: (*label).into(),
            custom: false,
        })
        .collect();
    if lines.is_empty() {
        lines.push(ReviewLine::Unanswered);
    }
    if !form.note.is_empty() {
        lines.push(ReviewLine::Note(form.note.clone()));
    }
    let entries = vec![ReviewEntry {
        label: "Database".into(),
        lines,
    }];
    app.attr(&Id::Review, Attribute::Content, payload(entries))?;
    let toggle = |label: &str, on, description: &str| SettingsItem::Toggle {
        label: label.into(),
        on,
        description: description.into(),
    };
    let items = vec![
        SettingsItem::Section("This form".into()),
        toggle(
            "Wrap long labels",
            form.wrap,
            "Labels wrap instead of being cut.",
        ),
        toggle("Show numbers", form.numbers, "Number the options."),
    ];
    app.attr(&Id::Settings, Attribute::Content, payload(items))?;
    let hints: &[&str] = match (form.overlay, form.on_review) {
        (Some(Id::Note), _) => &["Enter keep note", "Esc cancel"],
        (Some(_), _) => &["↑↓ select", "Enter toggle", "Esc close"],
        (None, true) => &["↑↓ select", "Enter choose", "← back", "Esc quit"],
        (None, false) => &[
            "↑↓ select",
            "Space choose",
            "n note",
            "→ review",
            "? settings",
            "Esc quit",
        ],
    };
    let hints = hints.iter().map(|h| PropValue::Str((*h).into())).collect();
    app.attr(
        &Id::Footer,
        Attribute::Content,
        AttrValue::Payload(PropPayload::Vec(hints)),
    )?;
    app.attr(
        &Id::Footer,
        Attribute::Text,
        match &form.notice {
            Some(notice) => AttrValue::String(notice.clone()),
            None => AttrValue::Payload(PropPayload::None),
        },
    )?;
    let focused = form.overlay.unwrap_or(if form.on_review {
        Id::Review
    } else {
        Id::Options
    });
    for id in [Id::Options, Id::Note, Id::Review, Id::Settings] {
        app.attr(&id, Attribute::Focus, AttrValue::Flag(id == focused))?;
    }
    app.active(&focused)?;
    Ok(())
}

/// How the form ended.
enum Ending {
    Submitted,
    Cancelled,
}

/// Carries out one result of the focused component; `Some` ends the form.
fn react(app: &mut App, form: &mut Form, result: CmdResult) -> Result<Option<Ending>, Error> {
    form.notice = None;
    match result {
        CmdResult::Invalid(Cmd::Custom(CLOSE)) if form.overlay.is_some() => form.overlay = None,
        CmdResult::Invalid(Cmd::Custom(CLOSE)) => return Ok(Some(Ending::Cancelled)),
        CmdResult::Invalid(Cmd::Custom(NEXT_TAB | PREVIOUS_TAB)) if form.overlay.is_none() => {
            form.on_review = !form.on_review
        }
        CmdResult::Invalid(Cmd::Custom(OPEN_SETTINGS)) => form.overlay = Some(Id::Settings),
        CmdResult::Invalid(Cmd::Custom(OPEN_NOTE)) => {
            app.attr(
                &Id::Note,
                Attribute::Text,
                AttrValue::String(form.note.clone()),
            )?;
            form.note_row = cursor(app);
            form.overlay = Some(Id::Note);
        }
        CmdResult::Custom(_, State::Vec(chosen)) => {
            form.chosen = chosen
                .into_iter()
                .filter_map(|v| match v {
                    StateValue::Usize(row) => Some(row),
                    _ => None,
                })
                .collect();
        }
        CmdResult::Submit(State::Single(StateValue::String(note))) => {
            form.note = note;
            form.overlay = None;
            form.notice = Some("Note kept.".into());
        }
        CmdResult::Submit(State::Single(StateValue::Usize(row)))
            if form.overlay == Some(Id::Settings) =>
        {
            // Row 0 of the focusable rows is the first toggle.
            if row == 0 {
                form.wrap = !form.wrap;
            } else {
                form.numbers = !form.numbers;
            }
        }
        CmdResult::Submit(State::Single(StateValue::Usize(action))) if form.on_review => {
            return Ok(match action {
                0 => Some(Ending::Submitted),
                1 => {
                    form.notice = Some("Elaborate: this example has nothing to elaborate.".into());
                    None
                }
                _ => Some(Ending::Cancelled),
            });
        }
        CmdResult::Submit(_) => form.on_review = true,
        _ => {}
    }
    Ok(None)
}

fn draw(app: &mut App, form: &Form, terminal: &mut CrosstermTerminalAdapter) -> Result<(), Error> {
    terminal.draw(|f| {
        let [tabs, body, note, footer] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(6),
            Constraint::Length(1),
            Constraint::Length(3),
        ])
        .areas(f.area());
        app.view(&Id::Tabs, f, tabs);
        if form.on_review {
            app.view(&Id::Review, f, body);
        } else {
            let [options, preview] =
                Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
                    .areas(body);
            app.view(&Id::Options, f, options);
            app.view(&Id::Preview, f, preview);
        }
        if form.overlay == Some(Id::Note) {
            app.view(&Id::Note, f, note);
        }
        app.view(&Id::Footer, f, footer);
        if form.overlay == Some(Id::Settings) {
            let area = f.area();
            let modal = Rect::new(
                area.x + 2,
                area.y + 1,
                area.width.saturating_sub(4),
                area.height.saturating_sub(2),
            );
            app.view(&Id::Settings, f, modal);
        }
    })?;
    Ok(())
}

/// The terminal in raw mode on the alternate screen, given back when dropped: on a normal end, an
/// error (`?` returns through the drop) and a panic (unwinding drops it too).
struct Screen(CrosstermTerminalAdapter);

impl Screen {
    fn take() -> Result<Screen, Error> {
        let mut terminal = CrosstermTerminalAdapter::new()?;
        terminal.enable_raw_mode()?;
        let mut screen = Screen(terminal);
        screen.0.enter_alternate_screen()?;
        Ok(screen)
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.0.leave_alternate_screen();
        let _ = self.0.disable_raw_mode();
    }
}

fn main() -> Result<(), Error> {
    let mut app: App = Application::init(
        EventListenerCfg::default().crossterm_input_listener(Duration::from_millis(10), 3),
    );
    mount(&mut app)?;
    let mut form = Form::default();
    show(&mut app, &form)?;
    let ending = {
        let mut screen = Screen::take()?;
        loop {
            draw(&mut app, &form, &mut screen.0)?;
            let mut ending = None;
            for result in app.tick(PollStrategy::Once(Duration::from_millis(50)))? {
                ending = ending.or(react(&mut app, &mut form, result)?);
            }
            show(&mut app, &form)?;
            if let Some(ending) = ending {
                break ending;
            }
        }
    };
    match ending {
        Ending::Submitted => {
            let chosen: Vec<&str> = form.chosen.iter().map(|&i| CHOICES[i].label).collect();
            println!("{chosen:?} note: {:?}", form.note);
        }
        Ending::Cancelled => println!("cancelled"),
    }
    Ok(())
}
