//! Reading keymaps from a config tree and checking them. A config's keymaps apply entry by entry
//! ([`keymaps_applying_valid`]): a bad entry costs only itself and is named in one notice;
//! [`keymaps_from_value`] is the strict reading (any problem refuses the whole set).

use serde_json::Value;

use super::{Action, Context, Keymaps};
use crate::did_you_mean::nearest;
use crate::keys::KeyId;

/// ` (did you mean main?)` after an unknown name when a known one is close, else nothing.
fn did_you_mean(guess: Option<&str>, prefix: &str) -> String {
    guess.map_or_else(String::new, |g| format!(" (did you mean {prefix}{g}?)"))
}

/// Which file format the keymaps come from; they differ in how partial keymaps are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeymapSource {
    /// pi-ask's TOML: a listed action replaces its defaults, `[]` unbinds, others keep defaults.
    Toml,
    /// The original's JSON (schemaVersion 5): every context and action of the original must be
    /// present and bound, as the original validates it.
    LegacyJson,
}

/// Reads the `keymaps` section strictly: every problem is returned and nothing applies. `None`
/// (absent) gives the defaults.
pub fn keymaps_from_value(
    value: Option<&Value>,
    source: KeymapSource,
) -> Result<Keymaps, Vec<String>> {
    let items = read_entries(value, source)?;
    let entries: Vec<Entry> = items
        .iter()
        .filter_map(|i| match i {
            Item::Entry(e) => Some(e.clone()),
            Item::Problem(..) => None,
        })
        .collect();
    // Every problem in the file's order (an entry's keys that do not parse where it stands; its
    // keys that do still count below, so a digit among them is named too), then the rules'.
    let mut problems: Vec<String> = items
        .into_iter()
        .flat_map(|i| match i {
            Item::Problem(_, p) => vec![p],
            Item::Entry(e) => e.problems,
        })
        .collect();
    let keymaps = build(&entries);
    problems.extend(check_keymaps(&keymaps));
    if problems.is_empty() {
        Ok(keymaps)
    } else {
        Err(problems)
    }
}

/// The keymaps of a config where a bad entry costs only itself: every valid entry applies, in
/// the file's order, and each one that cannot (a key that does not parse, an unknown action, a
/// key another entry or a default already means in that context, a digit) is named and left
/// out, its action keeping its default keys. The problems are empty when everything applied.
pub fn keymaps_applying_valid(
    value: Option<&Value>,
    source: KeymapSource,
) -> (Keymaps, Vec<KeymapProblem>) {
    let items = match read_entries(value, source) {
        Ok(items) => items,
        Err(problems) => {
            let whole = problems.into_iter().map(|text| KeymapProblem {
                at: Vec::new(),
                text,
            });
            return (Keymaps::default(), whole.collect());
        }
    };
    let mut problems = Vec::new();
    let mut accepted: Vec<Entry> = Vec::new();
    for item in items {
        let entry = match item {
            Item::Problem(at, text) => {
                problems.push(KeymapProblem { at, text });
                continue;
            }
            Item::Entry(entry) => entry,
        };
        let action = entry.action;
        let entry_problems = entry.problems.clone();
        accepted.push(entry);
        let clashes = check_keymaps(&build(&accepted));
        if entry_problems.is_empty() && clashes.is_empty() {
            continue;
        }
        accepted.pop();
        // Each problem of the entry, the last one saying what becomes of it.
        let mut said: Vec<String> = entry_problems.into_iter().chain(clashes).collect();
        if let Some(last) = said.last_mut() {
            *last = format!(
                "{}; {action} keeps its default keys.",
                last.trim_end_matches('.')
            );
        }
        let at = vec![action.context().name().to_owned(), action.name().to_owned()];
        problems.extend(said.into_iter().map(|text| KeymapProblem {
            at: at.clone(),
            text,
        }));
    }
    (build(&accepted), problems)
}

/// One keymap entry that did not apply: where it is inside `keymaps` (its context and action
/// names as written; empty for the section itself), and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeymapProblem {
    /// The key path inside the `keymaps` table.
    pub at: Vec<String>,
    /// The problem, a sentence.
    pub text: String,
}

/// One entry of a `keymaps` section: an action, the keys of its binding that parse, and the
/// problem of each key that does not.
#[derive(Debug, Clone)]
struct Entry {
    action: Action,
    keys: Vec<KeyId>,
    problems: Vec<String>,
}

/// What a `keymaps` section holds, in the file's order.
enum Item {
    /// Something that does not read at all (an unknown context or action, a binding of the wrong
    /// shape, a missing entry of the original's JSON).
    Problem(Vec<String>, String),
    Entry(Entry),
}

/// The defaults with `entries` applied, the added actions giving way to them.
fn build(entries: &[Entry]) -> Keymaps {
    let mut keymaps = Keymaps::default();
    for entry in entries {
        keymaps.set(entry.action, entry.keys.clone());
    }
    let explicit: Vec<Action> = entries.iter().map(|e| e.action).collect();
    give_way(&mut keymaps, &explicit);
    keymaps
}

/// The entries of a `keymaps` section (each with the problems of its keys that do not parse), and
/// the problem of every entry that does not read at all. `Err` when the section itself is not an
/// object.
fn read_entries(value: Option<&Value>, source: KeymapSource) -> Result<Vec<Item>, Vec<String>> {
    let mut items = Vec::new();
    let Some(value) = value else {
        if source == KeymapSource::LegacyJson {
            return Err(vec!["Keymaps must be an object.".to_owned()]);
        }
        return Ok(items);
    };
    let Some(contexts) = value.as_object() else {
        return Err(vec!["Keymaps must be an object.".to_owned()]);
    };
    for (name, actions) in contexts {
        let here = vec![name.clone()];
        let Some(context) = Context::from_name(name) else {
            let guess = nearest(name, Context::ALL.iter().map(|c| c.name()));
            items.push(Item::Problem(
                here,
                format!("Unknown keymap context {name}{}.", did_you_mean(guess, "")),
            ));
            continue;
        };
        let Some(actions) = actions.as_object() else {
            items.push(Item::Problem(
                here,
                format!("Keymap context {name} must be a table of actions."),
            ));
            continue;
        };
        for (action_name, binding) in actions {
            let here = vec![name.clone(), action_name.clone()];
            let Some(action) = Action::from_name(context, action_name) else {
                let guess = nearest(action_name, context.actions().map(Action::name));
                items.push(Item::Problem(
                    here,
                    format!(
                        "Unknown keymap action {name}.{action_name}{}.",
                        did_you_mean(guess, &format!("{name}."))
                    ),
                ));
                continue;
            };
            match parse_binding(binding, source) {
                Ok((keys, reasons)) => items.push(Item::Entry(Entry {
                    action,
                    keys,
                    problems: reasons
                        .into_iter()
                        .map(|reason| format!("Invalid keymap for {action}: {reason}."))
                        .collect(),
                })),
                Err(reason) => items.push(Item::Problem(
                    here,
                    format!("Invalid keymap for {action}: {reason}."),
                )),
            }
        }
    }
    if source == KeymapSource::LegacyJson {
        for context in Context::ORIGINAL {
            match contexts.get(context.name()).and_then(Value::as_object) {
                None if !contexts.contains_key(context.name()) => items.push(Item::Problem(
                    Vec::new(),
                    format!("Missing keymap context {}.", context.name()),
                )),
                None => {}
                Some(actions) => {
                    for action in context.actions().filter(|a| a.in_original()) {
                        if !actions.contains_key(action.name()) {
                            items.push(Item::Problem(
                                vec![context.name().to_owned()],
                                format!("Missing keymap for {action}."),
                            ));
                        }
                    }
                }
            }
        }
    }
    Ok(items)
}

/// The actions pi-ask added to the original's (editing keys, jumps, the popup) keep their
/// default keys only where no key the user bound collides with them: a config written for the
/// original, binding `ctrl+k` or `ctrl+d`, stays valid, and those keys do what it says.
fn give_way(keymaps: &mut Keymaps, explicit: &[Action]) {
    for &action in Action::ALL {
        if action.in_original() || explicit.contains(&action) {
            continue;
        }
        let kept: Vec<KeyId> = keymaps
            .keys(action)
            .iter()
            .copied()
            .filter(|key| {
                !explicit
                    .iter()
                    .any(|&other| conflicts(action, other) && keymaps.keys(other).contains(key))
            })
            .collect();
        keymaps.set(action, kept);
    }
}

/// Whether one key may not mean both `a` and `b`.
fn conflicts(a: Action, b: Action) -> bool {
    let (ca, cb) = (a.context(), b.context());
    (ca == cb && a.when().overlaps(b.when()))
        || (ca == Context::Global && shares_global(cb))
        || (cb == Context::Global && shares_global(ca))
}

/// Why a binding (one key id or a list of them) is refused whole.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum BindingShape {
    #[error("empty binding list")]
    EmptyList,
    #[error("binding list must contain only strings")]
    NotStrings,
    #[error("binding must be a string or array of strings")]
    NotAString,
}

/// Why one key id of a binding is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum BadKey {
    #[error(transparent)]
    Unknown(#[from] crate::keys::KeyIdError),
    #[error(
        "shift+{key} can never be pressed (shift is already part of the character; bind {:?} instead)",
        .key.to_string()
    )]
    Unreachable { key: char },
}

/// A binding: one key id or a list of them. Repeated keys in one list count once. Returns the
/// keys that parse and the problem of every one that does not (all of them, not just the first);
/// a binding of the wrong shape is one problem.
fn parse_binding(
    value: &Value,
    source: KeymapSource,
) -> Result<(Vec<KeyId>, Vec<String>), BindingShape> {
    let texts: Vec<&str> = match value {
        Value::String(s) => vec![s.as_str()],
        Value::Array(items) => {
            if items.is_empty() && source == KeymapSource::LegacyJson {
                return Err(BindingShape::EmptyList);
            }
            items
                .iter()
                .map(|i| i.as_str().ok_or(BindingShape::NotStrings))
                .collect::<Result<_, _>>()?
        }
        _ => return Err(BindingShape::NotAString),
    };
    let mut keys = Vec::new();
    let mut problems = Vec::new();
    for text in texts {
        match KeyId::parse(text)
            .map_err(BadKey::Unknown)
            .and_then(reachable)
        {
            Ok(key) if !keys.contains(&key) => keys.push(key),
            Ok(_) => {}
            Err(reason) => problems.push(format!("{text:?}: {reason}")),
        }
    }
    Ok((keys, problems))
}

/// Refuses a key no terminal can send: shift with a character other than a letter (the shifted
/// character arrives as itself, `?` rather than `shift+/`, so `shift+?` never fires).
fn reachable(key: KeyId) -> Result<KeyId, BadKey> {
    match key.base {
        crate::keys::Base::Char(c) if key.mods.shift && !c.is_ascii_alphabetic() => {
            Err(BadKey::Unreachable { key: c })
        }
        _ => Ok(key),
    }
}

/// The rules every keymap set must satisfy: digits 1-9 are reserved, a key means one action per
/// context (an action for an empty editor and one for an editor with text may share it), and a
/// global key is not bound again in main, editor or noteEditor.
pub fn check_keymaps(keymaps: &Keymaps) -> Vec<String> {
    let mut problems = Vec::new();
    for (action, keys) in keymaps.iter() {
        for key in keys {
            if key.digit().is_some() {
                problems.push(format!("Reserved keymap for {action}: {}.", key.label()));
            }
        }
    }
    let bound: Vec<(Action, KeyId)> = keymaps
        .iter()
        .flat_map(|(a, keys)| keys.iter().map(move |k| (a, *k)))
        .collect();
    for (i, (a, key)) in bound.iter().enumerate() {
        for (b, other) in &bound[i + 1..] {
            if key != other || a == b {
                continue;
            }
            let (ca, cb) = (a.context(), b.context());
            if ca == cb && a.when().overlaps(b.when()) {
                problems.push(format!("Duplicate keymap {} for {a} and {b}.", key.label()));
            } else if ca == Context::Global && shares_global(cb) {
                problems.push(format!(
                    "Duplicate global keymap {} for {a} and {b}.",
                    key.label()
                ));
            } else if cb == Context::Global && shares_global(ca) {
                problems.push(format!(
                    "Duplicate global keymap {} for {b} and {a}.",
                    key.label()
                ));
            }
        }
    }
    problems
}

/// Contexts where global keys also apply (the settings modal and the popup have their own).
fn shares_global(context: Context) -> bool {
    matches!(
        context,
        Context::Main | Context::Editor | Context::NoteEditor
    )
}
