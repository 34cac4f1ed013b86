//! The binding table: the only way a key becomes a [`Msg`].
//!
//! [`Keymaps`] is the configured data (action → key ids); [`BindingTable`] is it resolved once into
//! a `(context, key) → action` lookup and its reverse, from which every hint is generated.

mod action;
pub mod docs;
mod precedence;
mod validate;

pub use crate::model::PopupAction;
pub use action::{Action, ActionSpec, Context, Group, When};
pub use precedence::{EditorKind, Fallback, Focus, Layer, PopupFocus, layers};
pub use validate::{
    KeymapProblem, KeymapSource, check_keymaps, keymaps_applying_valid, keymaps_from_value,
};

use std::collections::HashMap;

use indexmap::IndexMap;

use crate::keys::KeyId;
use crate::model::{Intent, Msg};

/// Every action's keys. Always complete: an action with no keys is unbound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymaps {
    bindings: IndexMap<Action, Vec<KeyId>>,
}

impl Default for Keymaps {
    fn default() -> Self {
        let bindings = Action::ALL
            .iter()
            .map(|&a| {
                (
                    a,
                    a.default_keys()
                        .iter()
                        .map(|k| KeyId::parse(k).expect("default key ids are valid"))
                        .collect(),
                )
            })
            .collect();
        Keymaps { bindings }
    }
}

impl Keymaps {
    /// The keys bound to `action`.
    pub fn keys(&self, action: Action) -> &[KeyId] {
        self.bindings.get(&action).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Replaces one action's keys (an empty list unbinds it).
    pub fn set(&mut self, action: Action, keys: Vec<KeyId>) {
        self.bindings.insert(action, keys);
    }

    /// Every action with its keys.
    pub fn iter(&self) -> impl Iterator<Item = (Action, &[KeyId])> {
        self.bindings.iter().map(|(a, k)| (*a, k.as_slice()))
    }
}

/// What a key press means in the current focus.
#[derive(Debug, Clone, PartialEq)]
pub enum Resolution {
    /// A flow intent (editing and popup keys included).
    Msg(Msg),
    /// Not bound and nothing to type into.
    Ignored,
}

/// The resolved lookup of a [`Keymaps`].
#[derive(Debug, Clone)]
pub struct BindingTable {
    keymaps: Keymaps,
    /// Several actions of a context share a key only when they never apply together
    /// (`left`: `previousTabWhenEmpty` and `cursorLeft`).
    lookup: HashMap<(Context, KeyId), Vec<Action>>,
}

impl Default for BindingTable {
    fn default() -> Self {
        BindingTable::new(Keymaps::default())
    }
}

impl BindingTable {
    /// The lookup table for `keymaps`.
    pub fn new(keymaps: Keymaps) -> BindingTable {
        let mut lookup = HashMap::new();
        for (action, keys) in keymaps.iter() {
            for key in keys {
                let bound: &mut Vec<Action> = lookup.entry((action.context(), *key)).or_default();
                if !bound.contains(&action) {
                    bound.push(action);
                }
            }
        }
        BindingTable { keymaps, lookup }
    }

    /// Every action bound to a key in a context, in table order.
    pub fn actions(&self, context: Context, key: &KeyId) -> &[Action] {
        self.lookup.get(&(context, *key)).map_or(&[], Vec::as_slice)
    }

    /// The keys bound to an action.
    pub fn keys(&self, action: Action) -> &[KeyId] {
        self.keymaps.keys(action)
    }

    /// The hint label of an action's keys: `Esc / Ctrl+C / ?`.
    pub fn label(&self, action: Action) -> String {
        self.keys(action)
            .iter()
            .map(KeyId::label)
            .collect::<Vec<_>>()
            .join(" / ")
    }

    /// The label of an action's first key only (`Enter`), for compact hints.
    pub fn first_label(&self, action: Action) -> Option<String> {
        self.keys(action).first().map(KeyId::label)
    }

    /// Resolves a key press in the given focus: the focus's layers in order (see
    /// `precedence`), the first bound action that applies; else the focus's fallback.
    pub fn resolve(&self, focus: Focus, key: &KeyId) -> Resolution {
        let (layers, fallback) = layers(focus);
        for layer in layers.iter().filter(|l| l.open(focus)) {
            let found = self
                .actions(layer.context, key)
                .iter()
                .find(|a| layer.takes(**a) && precedence::applies(a.when(), focus));
            if let Some(action) = found {
                return Resolution::Msg(action.msg());
            }
        }
        match fallback {
            Fallback::Digit => match key.digit() {
                Some(d) => Resolution::Msg(Msg::Intent(Intent::Number(d))),
                None => Resolution::Ignored,
            },
            Fallback::Type => match key.typed_char() {
                Some(c) => {
                    Resolution::Msg(Msg::Edit(pi_ask_components::EditOp::Insert(c.to_string())))
                }
                None => Resolution::Ignored,
            },
            Fallback::Nothing => Resolution::Ignored,
        }
    }
}
