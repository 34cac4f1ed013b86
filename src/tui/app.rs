//! The interactive flow: the model, the binding table, the chrome it is drawn with, and the view
//! state that persists between frames (option list scroll offsets and layout caches, owned by the
//! view). Terminal-free, so tests drive it directly. A key goes through the binding table to a [`Msg`], and only `update`
//! changes the model; searching files is a [`Cmd`] the session carries out.

use std::sync::Arc;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use pi_ask_components::{EditOp, OptionList, OptionRow};

use super::appearance::{ChosenTheme, Look};
use super::view::{Chrome, Drawn, FrameLayout, ViewState};

use crate::files::FileSource;
use crate::form::{CUSTOM_ROW_LABEL, FREEFORM_ROW_LABEL, Form};
use crate::keymap::{BindingTable, EditorKind, Focus, PopupFocus, Resolution};
use crate::keys::KeyId;
use crate::model::{Cmd, Intent, Model, Msg, Popup, Report, ViewMeasures, update_in_view};
use crate::settings::Settings;

/// A running ask flow with its view state. Everything the view draws from is private, so every
/// change goes through a method that also drops the frame laid out for sizing.
pub struct App {
    model: Model,
    table: BindingTable,
    /// What the view keeps between frames (option lists with their scroll and layout caches,
    /// the filtered list, prompts laid out).
    view: ViewState,
    config_path: String,
    /// Where `@` suggestions come from; the session takes it at the first search.
    pub(crate) files: Option<FileSource>,
    /// The colours everything is drawn with, and how the settings modal describes them.
    look: Look,
    /// `global.dismiss` (Ctrl+C) gives the form back instead of cancelling it: set by a driver
    /// that has somewhere to give it back to (the inbox puts the ask back in the queue).
    dismiss_puts_back: bool,
    /// The person asked to give the form back (see `dismiss_puts_back`).
    put_back: bool,
    /// The terminal reports Shift+Enter apart from Enter (see [`App::set_shift_enter_reported`]).
    shift_enter: bool,
    /// Hiding the form shows a host's conversation (see [`App::set_hides`]).
    hides: bool,
    /// The frame [`App::natural_height`] laid out, for the draw that follows it; anything that
    /// changes what is drawn drops it.
    laid_out: Option<FrameLayout>,
    /// What the last frame measured (page rows, the preview's scroll range): view state, as
    /// ratatui's `ListState` is, handed to `update` with each message and never stored in the
    /// model.
    measures: ViewMeasures,
    /// Whether a frame of the current state was drawn (so `measures` are its): set by a draw,
    /// dropped by every change. The engine, which knows what size that frame was, measures again
    /// before an input only when this is false or the size changed.
    measured: bool,
}

impl App {
    /// A flow for a validated form. `config_notice` is shown until the first tab change.
    pub fn new(
        form: Form,
        settings: Settings,
        table: BindingTable,
        config_path: String,
        config_notice: Option<String>,
    ) -> App {
        let model = Model::new(form, settings);
        let lists: Vec<OptionList> = model
            .questions()
            .iter()
            .map(|q| {
                let mut rows: Vec<OptionRow> = q
                    .options
                    .iter()
                    .map(|o| OptionRow {
                        label: o.label.clone(),
                        description: o.description.clone(),
                        recommended: o.is_recommended(),
                    })
                    .collect();
                rows.push(OptionRow {
                    label: if q.freeform {
                        FREEFORM_ROW_LABEL
                    } else {
                        CUSTOM_ROW_LABEL
                    }
                    .to_owned(),
                    description: None,
                    recommended: false,
                });
                OptionList::new(Arc::new(rows))
            })
            .collect();
        let mut app = App {
            model,
            table,
            view: ViewState::new(lists),
            config_path,
            files: None,
            look: Look::default(),
            dismiss_puts_back: false,
            put_back: false,
            shift_enter: false,
            hides: false,
            laid_out: None,
            measures: ViewMeasures::default(),
            measured: false,
        };
        if let Some(notice) = config_notice {
            app.update(Msg::Report(Report::ConfigNotice(notice)));
        }
        app
    }

    /// Something that is drawn changed: the frame laid out for sizing and the measurements taken
    /// for the old state no longer hold.
    fn changed(&mut self) {
        self.laid_out = None;
        self.measured = false;
    }

    /// Whether a frame was drawn since the last change (its measurements are the model's).
    pub(crate) fn is_measured(&self) -> bool {
        self.measured
    }

    /// Whether the terminal reports Shift+Enter apart from Enter (the kitty keyboard protocol):
    /// only then do the hints name it for a new line. Unknown is no: Alt+Enter and Ctrl+J arrive
    /// from every terminal.
    pub fn set_shift_enter_reported(&mut self, reported: bool) {
        if self.shift_enter != reported {
            self.changed();
            self.shift_enter = reported;
        }
    }

    /// Whether hiding the form shows something worth reading (a host's conversation above it, as
    /// inside pi): only then does the footer name `global.hide` (the key works either way).
    pub fn set_hides(&mut self, hides: bool) {
        if self.hides != hides {
            self.changed();
            self.hides = hides;
        }
    }

    /// Draws with this theme from now on.
    pub fn set_theme(&mut self, chosen: &ChosenTheme) {
        self.changed();
        self.look = Look::from(chosen);
    }

    /// Offers `@` file suggestions from `files` in every editor of the flow (an index walk starts
    /// only when the first `@` or Tab completion asks for it).
    pub fn with_files(mut self, files: impl Into<FileSource>) -> App {
        self.files = Some(files.into());
        self.changed();
        self.model = self.model.with_file_suggestions();
        self
    }

    /// The open suggestion popup.
    pub fn popup(&self) -> Option<&Popup> {
        self.model.popup()
    }

    /// The flow's model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Applies new keymaps at once (a saved or reloaded config).
    pub fn set_table(&mut self, table: BindingTable) {
        self.changed();
        self.table = table;
    }

    /// What has keyboard focus.
    pub fn focus(&self) -> Focus {
        if self.model.settings_modal().is_some() {
            return Focus::SettingsModal;
        }
        if let Some(filter) = self.model.filter() {
            return Focus::Filter {
                empty: filter.query.is_empty(),
            };
        }
        match self.model.editor() {
            Some(editor) => Focus::Editor {
                kind: if editor.target.is_note() {
                    EditorKind::Note
                } else if editor.landed {
                    EditorKind::LandedAnswer
                } else {
                    EditorKind::Answer
                },
                empty: editor.edit.is_empty(),
                popup: match self.model.popup() {
                    None => PopupFocus::Closed,
                    Some(p) if p.items.is_empty() => PopupFocus::NoMatches,
                    Some(_) => PopupFocus::Suggestions,
                },
            },
            None => Focus::Main,
        }
    }

    /// Sends a message to the model, in the view the last frame measured.
    pub fn update(&mut self, msg: Msg) -> Vec<Cmd> {
        self.changed();
        update_in_view(&mut self.model, msg, &self.measures)
    }

    /// What the last frame measured (the default before any frame).
    pub fn measures(&self) -> ViewMeasures {
        self.measures
    }

    /// Whether the footer names the preview's scroll keys: a preview shows and the last frame
    /// could not show all of it.
    fn preview_overflows(&self) -> bool {
        self.model.shows_preview() && self.measures.preview_overflows()
    }

    /// Puts back what was entered before (`pi-ask resume`); false when it does not fit the form.
    pub fn restore(&mut self, draft: &crate::model::Draft) -> bool {
        self.changed();
        self.model.restore(draft)
    }

    /// Draws the flow into `buf` through the view (a function of the model and the chrome that
    /// keeps only its own caches and measures); returns the caret. A frame [`App::natural_height`]
    /// just laid out at this width is drawn as it was laid out. What the frame measured becomes
    /// the view's measures, which the next message is resolved against.
    pub fn draw(&mut self, area: Rect, buf: &mut Buffer) -> Drawn {
        self.measured = true;
        if self.model.is_hidden() {
            super::view::draw_hidden(&self.model, &self.table, &self.look, area, buf);
            return Drawn::default();
        }
        let chrome = Chrome {
            look: &self.look,
            table: &self.table,
            config_path: &self.config_path,
            shift_enter: self.shift_enter,
            hides: self.hides,
            preview_overflows: self.preview_overflows(),
        };
        let layout = match self.laid_out.take() {
            Some(layout) if layout.cols() == area.width.max(1) => layout,
            _ => FrameLayout::new(&self.model, &chrome, &mut self.view, area.width),
        };
        let hinted = chrome.preview_overflows;
        let mut drawn =
            super::view::draw_laid_out(layout, &self.model, &chrome, &mut self.view, area, buf);
        self.measures = measures_of(&drawn).unwrap_or(self.measures);
        // The footer names the preview's scroll keys only while it overflows, which this frame
        // may just have found out (a long preview's first frame, a resize): drawn again with the
        // footer that says so, and what that frame measured kept (the taller footer leaves the
        // pane a line less). The model is not involved.
        if self.preview_overflows() != hinted {
            buf.reset();
            let chrome = Chrome {
                preview_overflows: !hinted,
                ..chrome
            };
            let layout = FrameLayout::new(&self.model, &chrome, &mut self.view, area.width);
            drawn =
                super::view::draw_laid_out(layout, &self.model, &chrome, &mut self.view, area, buf);
            self.measures = measures_of(&drawn).unwrap_or(self.measures);
        }
        drawn
    }

    /// The height the flow wants at a width, tight to its content (the inline area's size). The
    /// frame laid out for it is kept for the draw that follows, so a frame is laid out once.
    pub fn natural_height(&mut self, cols: u16) -> u16 {
        if self.model.is_hidden() {
            return 1;
        }
        let chrome = Chrome {
            look: &self.look,
            table: &self.table,
            config_path: &self.config_path,
            shift_enter: self.shift_enter,
            hides: self.hides,
            preview_overflows: self.preview_overflows(),
        };
        let layout = FrameLayout::new(&self.model, &chrome, &mut self.view, cols);
        let height = layout.natural_height(&self.model);
        self.laid_out = Some(layout);
        height
    }

    /// A key press: the binding table decides what it means, once. `None` when the key means
    /// nothing in the current focus (nothing changed, so nothing needs drawing).
    pub fn handle_key(&mut self, key: &KeyId) -> Option<Vec<Cmd>> {
        match self.table.resolve(self.focus(), key) {
            Resolution::Msg(Msg::Intent(Intent::Dismiss)) if self.dismiss_puts_back => {
                self.put_back = true;
                Some(Vec::new())
            }
            Resolution::Msg(msg) => Some(self.update(msg)),
            Resolution::Ignored => None,
        }
    }

    /// Makes `global.dismiss` give the form back (the runtime ends it as interrupted) instead of
    /// cancelling it.
    pub fn with_dismiss_puts_back(mut self, on: bool) -> App {
        self.dismiss_puts_back = on;
        self
    }

    /// Whether the person asked to give the form back.
    pub fn put_back(&self) -> bool {
        self.put_back
    }

    /// Bracketed paste: goes into the open editor; otherwise ignored.
    pub fn handle_paste(&mut self, text: &str) -> Vec<Cmd> {
        if self.model.editor().is_none() {
            return Vec::new();
        }
        self.update(Msg::Edit(EditOp::Paste(text.to_owned())))
    }
}

/// What a question frame measured, as the view keeps it (a review frame measures nothing, and
/// the last measures are kept).
fn measures_of(drawn: &Drawn) -> Option<ViewMeasures> {
    drawn
        .measured
        .map(|m| ViewMeasures::new(m.page_rows, m.preview_max_scroll, m.preview_page))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{EditOp, Intent};

    fn demo_app() -> App {
        let form = crate::input::parse_payload(super::super::DEMO_PAYLOAD).expect("the demo");
        App::new(
            form,
            crate::settings::Settings::defaults(),
            BindingTable::default(),
            String::new(),
            None,
        )
    }

    /// The open editor is drawn from the model's text, its one owner: what is typed shows in the
    /// next frame, with the caret after it.
    #[test]
    fn the_open_editor_is_drawn_from_the_models_text() {
        let mut app = demo_app();
        app.update(Msg::Intent(Intent::QuestionNote));
        app.update(Msg::Edit(EditOp::Insert("a note".into())));
        let area = Rect::new(0, 0, 100, 30);
        let mut buf = Buffer::empty(area);
        let row_of = |buf: &Buffer, text: &str| {
            (0..area.height).find_map(|y| {
                let row: String = (0..area.width).map(|x| buf[(x, y)].symbol()).collect();
                row.find(text).map(|x| (x as u16, y))
            })
        };
        let caret = app.draw(area, &mut buf).cursor.expect("a caret");
        let (x, y) = row_of(&buf, "a note").expect("the typed text is drawn");
        assert_eq!((caret.x, caret.y), (x + 6, y), "the caret follows the text");
        app.update(Msg::Edit(EditOp::Insert("!".into())));
        buf.reset();
        let caret = app.draw(area, &mut buf).cursor.expect("a caret");
        assert_eq!(row_of(&buf, "a note!"), Some((x, y)));
        assert_eq!((caret.x, caret.y), (x + 7, y));
    }
}
