//! The one loop: [`Engine::pump`] over a [`Medium`], which is all a driver is.
//!
//! Every driver that runs a session until it ends (the terminal runtime, the embed protocol, line
//! mode, line mode's inbox list) used to write its own loop: check whether the session is done,
//! look at signals and the time limit, wait for input or the next deadline, step, tick, run the
//! person's editor, draw. Each had its own poll interval and its own idea of when to draw. Here
//! that skeleton is written once; a medium only says how input arrives, how a state is shown and
//! what outside of the session ended it.
//!
//! Frames are requested, not drawn: a step that changed what is drawn, a tick that took something
//! from elsewhere, and [`Engine::request_frame`] (a medium that retook its screen, a line that asks
//! for an answer without changing the form) all set one flag, and the pump presents once per
//! wake-up however many asked (as codex-rs's `FrameRequester` coalesces). Nothing is presented on
//! an idle wake-up.

use std::io;
use std::time::{Duration, Instant};

use super::{Engine, Input};
use crate::model::{EditOp, Msg};

/// Why a pumped session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The session finished (result, or settings closed, or the inbox's list ended).
    Done,
    /// Something other than the person ended it (a signal, the terminal gone, the time limit).
    Interrupted(Interruption),
}

/// What ended a form before anyone answered it: never the person, so its result must not say they
/// cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interruption {
    /// A termination signal, by name (`SIGTERM`).
    Signal(&'static str),
    /// The terminal closed (its window or pty went away), or the host or input did.
    TerminalClosed,
    /// Reading or writing the terminal failed (the error is reported on its own).
    TerminalError,
    /// The person gave the form back (Ctrl+C in the inbox, which puts the ask back).
    PutBack,
    /// Nobody answered within the form's time limit (`ask --timeout`).
    TimedOut,
}

impl Interruption {
    /// The cause as the interrupted result names it.
    pub fn cause(self) -> &'static str {
        match self {
            Interruption::Signal(name) => name,
            Interruption::TerminalClosed => "the terminal closed",
            Interruption::TerminalError => "a terminal error",
            Interruption::PutBack => "put back",
            Interruption::TimedOut => "timed out",
        }
    }
}

/// What a driver is: where a session's inputs come from and where its states are shown.
///
/// The medium decides nothing about the form: it translates what arrives into [`Input`]s and
/// shows what the engine holds. The pump owns the order (see the module's doc).
pub trait Medium {
    /// Waits up to `wait` for what arrives (keys, a host's message, a typed line) and returns it
    /// as inputs in the order it came; nothing when the wait ran out. The engine is lent for what
    /// a medium does around its own screen (setting the viewport after a suspend, a terminal
    /// capability the host reports) and to [`Engine::request_frame`]; inputs go through the
    /// returned list, never stepped here.
    fn read(&mut self, engine: &mut Engine, wait: Duration) -> io::Result<Vec<Input>>;

    /// Shows the engine's current state: a frame to the terminal or the host, lines said.
    fn present(&mut self, engine: &mut Engine) -> io::Result<()>;

    /// Whether something outside the session ended it: a signal, the terminal or host gone, the
    /// input closed. Looked at before each wait and after each read.
    fn interrupted(&mut self) -> Option<Interruption>;

    /// Runs the person's own editor on `text` (`editor.externalEditor`) and returns the saved
    /// text (none: left unchanged). A medium with no terminal to lend leaves it: the key then does
    /// nothing.
    fn edit_externally(&mut self, _engine: &mut Engine, _text: &str) -> io::Result<Option<String>> {
        Ok(None)
    }

    /// Told how the session ended, once, before [`Engine::pump`] returns (line mode says it).
    fn ended(&mut self, _engine: &Engine, _ending: Ending) -> io::Result<()> {
        Ok(())
    }
}

impl Engine {
    /// Runs the session over `medium` until it ends: presents the first state, opens the session
    /// (the history's record, the default config), then waits for input or the next deadline,
    /// steps what arrived, ticks, runs an external edit, and presents once when a frame was
    /// requested. The one loop every driver's session runs in.
    pub fn pump(&mut self, medium: &mut impl Medium) -> io::Result<Ending> {
        medium.present(self)?;
        if self.session.opened(Instant::now()) {
            medium.present(self)?;
        }
        let ending = loop {
            if let Some(ending) = self.ending(Instant::now()) {
                break ending;
            }
            if let Some(why) = medium.interrupted() {
                break Ending::Interrupted(why);
            }
            let wait = self.wait_for_input(Instant::now());
            let inputs = medium.read(self, wait)?;
            let step = self.step(inputs, Instant::now());
            self.frame_requested |= step.changed;
            if let Some(why) = medium.interrupted() {
                break Ending::Interrupted(why);
            }
            self.frame_requested |= self.tick(Instant::now());
            if let Some(text) = self.session.take_external_edit()
                && let Some(edited) = medium.edit_externally(self, &text)?
            {
                let replace = Input::Msg(Msg::Edit(EditOp::ReplaceAll(edited)));
                self.frame_requested |= self.step([replace], Instant::now()).changed;
            }
            if std::mem::take(&mut self.frame_requested) && !self.session.is_done() {
                medium.present(self)?;
            }
        };
        medium.ended(self, ending)?;
        Ok(ending)
    }

    /// How the session ended, if it did: finished, given back, or out of time.
    fn ending(&self, now: Instant) -> Option<Ending> {
        if self.session.is_done() {
            Some(Ending::Done)
        } else if self.session.put_back() {
            Some(Ending::Interrupted(Interruption::PutBack))
        } else if self.session.timed_out(now) {
            Some(Ending::Interrupted(Interruption::TimedOut))
        } else {
            None
        }
    }

    /// Asks for the state to be presented at the end of this wake-up (once, however many ask).
    pub fn request_frame(&mut self) {
        self.frame_requested = true;
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::*;
    use crate::engine::test_support::{demo_engine, key};

    /// A scripted medium: each read hands over the next batch (an empty one is an idle wake-up);
    /// when the script runs out the medium says it was closed.
    #[derive(Default)]
    struct Scripted {
        reads: VecDeque<Vec<Input>>,
        presents: usize,
        /// How many presents had happened at each read.
        presents_at_read: Vec<usize>,
        requests_per_read: usize,
        edited: Option<String>,
        edits_asked: Vec<String>,
        endings: Vec<Ending>,
    }

    impl Medium for Scripted {
        fn read(&mut self, engine: &mut Engine, _wait: Duration) -> io::Result<Vec<Input>> {
            self.presents_at_read.push(self.presents);
            for _ in 0..self.requests_per_read {
                engine.request_frame();
            }
            Ok(self.reads.pop_front().unwrap_or_default())
        }

        fn present(&mut self, _engine: &mut Engine) -> io::Result<()> {
            self.presents += 1;
            Ok(())
        }

        fn interrupted(&mut self) -> Option<Interruption> {
            self.reads
                .is_empty()
                .then_some(Interruption::TerminalClosed)
        }

        fn edit_externally(&mut self, _: &mut Engine, text: &str) -> io::Result<Option<String>> {
            self.edits_asked.push(text.to_owned());
            Ok(self.edited.take())
        }

        fn ended(&mut self, _engine: &Engine, ending: Ending) -> io::Result<()> {
            self.endings.push(ending);
            Ok(())
        }
    }

    fn engine() -> Engine {
        demo_engine(false)
    }

    fn cursor(engine: &Engine) -> usize {
        engine.session().app().unwrap().model().cursor(0)
    }

    /// The first state is presented before any read; a read that changed the form is presented
    /// once; an idle read and a key bound to nothing present nothing.
    #[test]
    fn only_a_change_is_presented_and_once_per_wake_up() {
        let mut engine = engine();
        let mut medium = Scripted {
            reads: [
                vec![],
                vec![key("down"), key("down")],
                vec![key("f9")],
                vec![],
            ]
            .into(),
            ..Scripted::default()
        };
        let ending = engine.pump(&mut medium).unwrap();
        assert_eq!(ending, Ending::Interrupted(Interruption::TerminalClosed));
        assert_eq!(cursor(&engine), 2, "both keys of the batch applied");
        // Reads: idle (1 present so far: the first), the batch, the unbound key, idle.
        assert_eq!(medium.presents_at_read, vec![1, 1, 2, 2]);
        assert_eq!(medium.presents, 2);
        assert_eq!(medium.endings, vec![ending], "told once how it ended");
    }

    /// However many times a frame is asked for during one wake-up, it is presented once.
    #[test]
    fn frame_requests_coalesce_into_one_present() {
        let mut engine = engine();
        let mut medium = Scripted {
            reads: [vec![], vec![key("down")], vec![], vec![]].into(),
            requests_per_read: 5,
            ..Scripted::default()
        };
        engine.pump(&mut medium).unwrap();
        // The first frame, then one per wake-up whatever asked (each read asks five times, the
        // Down key once more); the last wake-up ends with the script.
        assert_eq!(medium.presents_at_read, vec![1, 2, 3, 4]);
        assert_eq!(medium.presents, 4);
    }

    /// A session that finishes ends the pump as done, with nothing presented after its end and
    /// the inputs after the finishing one dropped.
    #[test]
    fn a_finished_session_ends_the_pump_as_done() {
        let mut engine = engine();
        let cancel = Input::Msg(Msg::Intent(crate::model::Intent::Cancel));
        let mut medium = Scripted {
            reads: [vec![cancel, key("down")], vec![], vec![]].into(),
            ..Scripted::default()
        };
        let ending = engine.pump(&mut medium).unwrap();
        assert_eq!(ending, Ending::Done);
        assert!(engine.session().result().unwrap().details.cancelled);
        assert_eq!(cursor(&engine), 0, "the Down after the cancel was dropped");
        assert_eq!(medium.presents, 1, "nothing is presented once it ended");
        assert_eq!(medium.reads.len(), 2, "no read after the end");
    }

    /// An interruption seen after a read ends the pump before that read is ticked or presented.
    #[test]
    fn an_interruption_after_a_read_ends_before_anything_is_presented() {
        let mut engine = engine();
        let mut medium = Scripted {
            reads: [vec![key("down")]].into(),
            ..Scripted::default()
        };
        let ending = engine.pump(&mut medium).unwrap();
        assert_eq!(ending, Ending::Interrupted(Interruption::TerminalClosed));
        assert_eq!(cursor(&engine), 1, "what was read before the close applied");
        assert_eq!(medium.presents, 1);
    }

    /// `editor.externalEditor` hands the open editor's text to the medium, and what the medium's
    /// editor saved replaces it, through the engine.
    #[test]
    fn an_external_edit_goes_through_the_medium_and_back_through_the_engine() {
        let mut engine = engine();
        // The last row is `Type your own`, whose editor opens as the cursor lands on it.
        let last = Input::Msg(Msg::Intent(crate::model::Intent::LastOption));
        let typed = Input::Msg(Msg::Edit(EditOp::Insert("draft".to_owned())));
        let mut medium = Scripted {
            reads: [vec![last, typed], vec![key("ctrl+g")], vec![]].into(),
            edited: Some("from the editor".to_owned()),
            ..Scripted::default()
        };
        engine.pump(&mut medium).unwrap();
        assert_eq!(medium.edits_asked, vec!["draft".to_owned()]);
        let model = engine.session().app().unwrap().model();
        let editor = model.editor().expect("the editor is still open");
        assert_eq!(editor.edit.text(), "from the editor");
    }
}
