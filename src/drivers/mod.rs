//! The drivers that own a medium themselves: the terminal runtime ([`runtime`], over the
//! controlling terminal that [`tty`] takes and gives back). Each only translates its medium into
//! the engine's inputs and draws the engine's frames ([`crate::engine`]); none decides anything
//! about a form.

pub mod external_editor;
pub mod runtime;
pub mod tty;
