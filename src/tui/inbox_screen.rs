//! The inbox's list as a screen of a [`Session`](crate::engine::Session), so every driver steps it
//! through the one [`Engine`](crate::engine::Engine) and the terminal runtime's one loop reads,
//! ticks and draws it as it does a form: keys through the binding table's `inbox` (or filter)
//! context, the waiting asks looked at again every [`REFRESH`], the ages redrawn every [`AGES`].

use std::time::{Duration, Instant};

use pi_ask_components::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::inbox::{InboxList, ListEnding, WaitingAsk, view};
use crate::keymap::{BindingTable, Focus, Resolution};
use crate::keys::TerminalInput;
use crate::model::{EditOp, Msg};

/// How often the waiting asks are looked at while the list shows.
pub const REFRESH: Duration = Duration::from_millis(250);
/// How often the ages are redrawn.
pub const AGES: Duration = Duration::from_secs(1);

/// Where the list's entries come from: the asks waiting in the watched queues now.
pub type WaitingSource = Box<dyn FnMut() -> Vec<WaitingAsk>>;

/// The list, its keys and footers, where its entries come from, and how it ended.
pub struct InboxScreen {
    list: InboxList,
    table: BindingTable,
    theme: Theme,
    footers: (String, String),
    waiting: WaitingSource,
    next_refresh: Option<Instant>,
    next_ages: Option<Instant>,
    ending: Option<ListEnding>,
}

impl InboxScreen {
    /// The list as it is (just read from the queues: the next look is a `REFRESH` away),
    /// refreshed from `waiting`; `theme` was chosen from the config by the caller (the session
    /// has no config store for it).
    pub fn new(
        list: InboxList,
        waiting: WaitingSource,
        table: BindingTable,
        theme: Theme,
    ) -> InboxScreen {
        InboxScreen {
            footers: (
                super::hints::inbox_footer(&table),
                super::hints::inbox_filter_footer(&table),
            ),
            list,
            table,
            theme,
            waiting,
            next_refresh: Some(Instant::now() + REFRESH),
            next_ages: None,
            ending: None,
        }
    }

    /// The list.
    pub fn list(&self) -> &InboxList {
        &self.list
    }

    /// How the list ended, once it did.
    pub fn ending(&self) -> Option<&ListEnding> {
        self.ending.as_ref()
    }

    /// Ends the list as `ending` (the first ending stays).
    fn end(&mut self, ending: ListEnding) {
        self.ending.get_or_insert(ending);
    }

    /// What has the keys: the filter line while it is open, else the list.
    fn focus(&self) -> Focus {
        match self.list.filter() {
            Some(f) => Focus::Filter {
                empty: f.query.is_empty(),
            },
            None => Focus::Inbox,
        }
    }

    /// What a terminal sent: a key through the binding table, a paste into the open filter.
    /// Returns whether it meant anything.
    pub fn handle_input(&mut self, input: &TerminalInput) -> bool {
        let msg = match input {
            TerminalInput::Key(key) => match self.table.resolve(self.focus(), key) {
                Resolution::Msg(msg) => msg,
                Resolution::Ignored => return false,
            },
            TerminalInput::Paste(text) if self.list.filter().is_some() => {
                Msg::Edit(EditOp::Paste(text.clone()))
            }
            _ => return false,
        };
        self.update(msg);
        true
    }

    /// A message of the list's (a key's, or a line driver's).
    pub fn update(&mut self, msg: Msg) {
        if self.ending.is_some() {
            return;
        }
        if let Some(cmd) = self.list.update_msg(msg) {
            self.end(ListEnding::Chose(cmd));
        }
    }

    /// When the list next wants to be woken: to look at the queues, or to redraw the ages.
    pub fn next_deadline(&self) -> Option<Instant> {
        match (self.next_refresh, self.next_ages) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Looks at the queues when due (an empty list ends as `ListEnding::Empty`) and says when
    /// the ages are due a redraw. Returns whether what is drawn may have changed.
    pub fn tick(&mut self, now: Instant) -> bool {
        if self.ending.is_some() {
            return false;
        }
        let mut changed = false;
        if self.next_refresh.is_none_or(|d| d <= now) {
            self.next_refresh = Some(now + REFRESH);
            let entries = (self.waiting)();
            changed |= self.list.refresh(entries);
            if self.list.entries().is_empty() {
                self.end(ListEnding::Empty);
                return true;
            }
        }
        if self.next_ages.is_none_or(|d| d <= now) {
            self.next_ages = Some(now + AGES);
            changed = true;
        }
        changed
    }

    /// The rows the list wants.
    pub fn natural_height(&self) -> u16 {
        view::natural_height(&self.list)
    }

    /// Draws the list with the footer of what has the keys.
    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        let footer = match self.list.filter() {
            Some(_) => &self.footers.1,
            None => &self.footers.0,
        };
        view::draw(
            &self.list,
            crate::clock::unix_ms(),
            footer,
            &self.theme,
            area,
            buf,
        );
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::engine::{Engine, Input, Viewport};
    use crate::engine::{Screen, Session};
    use crate::inbox::InboxCmd;
    use crate::keys::KeyId;

    fn entry(id: &str, prompt: &str, at: u64) -> WaitingAsk {
        WaitingAsk {
            id: id.into(),
            client: "claude-code".into(),
            cwd: "/p".into(),
            created_at: at,
            first_prompt: prompt.into(),
            asker_alive: true,
            queue: 0,
        }
    }

    /// An engine over the list of `entries`, whose queues then hold what `queued` holds.
    fn inbox(entries: Vec<WaitingAsk>, queued: Arc<Mutex<Vec<WaitingAsk>>>) -> Engine {
        let mut list = InboxList::default();
        list.refresh(entries);
        let source = Box::new(move || queued.lock().unwrap().clone());
        let screen = InboxScreen::new(list, source, BindingTable::default(), Theme::default());
        let session = Session::new(Screen::Inbox(Box::new(screen)), None, Box::new(|_, _| {}));
        Engine::new(
            session,
            Viewport::Inline {
                width: 60,
                height: 20,
            },
        )
    }

    fn keys(names: &[&str]) -> Vec<Input> {
        names
            .iter()
            .map(|k| Input::Terminal(TerminalInput::Key(KeyId::parse(k).unwrap())))
            .collect()
    }

    fn ending(engine: &Engine) -> Option<ListEnding> {
        engine.session().inbox()?.ending().cloned()
    }

    #[test]
    fn keys_in_one_read_act_as_keys_one_at_a_time() {
        let asks = vec![entry("a", "first", 1), entry("b", "second", 2)];
        let queued = Arc::new(Mutex::new(asks.clone()));
        let mut together = inbox(asks.clone(), queued.clone());
        together.step(keys(&["down", "enter", "up"]), Instant::now());
        let mut apart = inbox(asks, queued);
        for key in keys(&["down", "enter", "up"]) {
            apart.step([key], Instant::now());
        }
        let chose = Some(ListEnding::Chose(InboxCmd::Open("b".into())));
        assert_eq!(ending(&together), chose);
        assert_eq!(
            ending(&apart),
            chose,
            "the key after the choice changes nothing"
        );
        assert!(together.is_done());
    }

    #[test]
    fn the_list_follows_the_queues_and_ends_when_they_are_empty() {
        let queued = Arc::new(Mutex::new(vec![entry("a", "first", 1)]));
        let mut engine = inbox(vec![entry("a", "first", 1)], queued.clone());
        let start = Instant::now();
        let deadline = engine.session().next_deadline().expect("a look is due");
        assert!(
            deadline <= start + REFRESH,
            "looked at again within a refresh"
        );
        queued.lock().unwrap().push(entry("b", "second", 2));
        assert!(engine.tick(start + REFRESH));
        assert_eq!(engine.session().inbox().unwrap().list().entries().len(), 2);
        let area = engine.frame_area().unwrap();
        assert_eq!(
            area.height, 8,
            "heading, rules, footer and two rows per ask"
        );
        queued.lock().unwrap().clear();
        assert!(engine.tick(start + REFRESH * 2));
        assert_eq!(ending(&engine), Some(ListEnding::Empty));
    }

    #[test]
    fn a_paste_goes_into_the_open_filter_and_nowhere_else() {
        let asks = vec![entry("a", "deploy now", 1), entry("b", "rename it", 2)];
        let mut engine = inbox(asks.clone(), Arc::new(Mutex::new(asks)));
        let paste = || Input::Terminal(TerminalInput::Paste("rename".into()));
        assert!(!engine.step([paste()], Instant::now()).changed);
        let mut inputs = keys(&["/"]);
        inputs.push(paste());
        inputs.extend(keys(&["enter"]));
        engine.step(inputs, Instant::now());
        assert_eq!(
            ending(&engine),
            Some(ListEnding::Chose(InboxCmd::Open("b".into())))
        );
    }

    #[test]
    fn digits_typed_in_the_filter_are_part_of_the_query() {
        let asks = vec![entry("a", "deploy 2026", 1), entry("b", "deploy 2027", 2)];
        let mut engine = inbox(asks.clone(), Arc::new(Mutex::new(asks)));
        engine.step(keys(&["/", "2", "0", "2", "7"]), Instant::now());
        assert_eq!(ending(&engine), None, "nothing was picked");
        engine.step(keys(&["alt+1"]), Instant::now());
        assert_eq!(
            ending(&engine),
            Some(ListEnding::Chose(InboxCmd::Open("b".into())))
        );
    }

    #[test]
    fn the_list_draws_at_any_size() {
        let asks = vec![entry("a", "first \u{1b}[31m", 1)];
        let mut engine = inbox(asks.clone(), Arc::new(Mutex::new(asks)));
        for (w, h) in [(1, 1), (2, 3), (10, 4), (80, 24)] {
            let area = Rect::new(0, 0, w, h);
            let mut buf = Buffer::empty(area);
            engine.render(area, &mut buf);
            let text: String = buf.content().iter().map(|c| c.symbol()).collect();
            assert!(!text.contains('\u{1b}'), "no escape reaches a cell");
        }
    }
}
