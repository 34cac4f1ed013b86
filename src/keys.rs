//! pi-tui style key ids (`ctrl+k`, `shift+tab`, `pageUp`, `?`): parsing, canonical display, labels
//! for hints, and matching what a terminal reports (legacy and Kitty encodings, normalized by
//! [`KeyId::from_raw`]) against them.

use std::fmt;
use std::str::FromStr;

#[cfg(feature = "cli")]
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// Printable symbols a key id may name (besides letters and digits).
const SYMBOLS: &str = "`-=[]\\;'.,/!@#$%^&*()_+|~{}:<>?";

/// Modifier flags of a key id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Mods {
    /// Control.
    pub ctrl: bool,
    /// Shift.
    pub shift: bool,
    /// Alt (Option).
    pub alt: bool,
    /// Super (Cmd, Win).
    pub super_: bool,
}

/// A key as a terminal encodes it, before [`KeyId::from_raw`] normalizes it (crossterm's key
/// codes, as far as pi-ask reads them, without depending on crossterm): what differs from a key
/// id is a character as sent (its case carries Shift) and legacy Shift+Tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RawKey {
    /// A character, as sent (`N` from a legacy terminal's Shift+N, `n` from Kitty's).
    Char(char),
    /// Shift+Tab as legacy terminals send it (`CSI Z`).
    BackTab,
    /// A named key (the keypad's middle key is [`Named::Clear`]).
    Named(Named),
    /// A function key F1, F2, … (only F1–F12 have key ids).
    F(u8),
}

/// What reaches a form from a terminal: a key press (normalized) or a bracketed paste. Every
/// driver turns its input into these (the runtime from crossterm's events, the harness and the
/// embed protocol from raw bytes through the same decoder).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TerminalInput {
    /// A key press.
    Key(KeyId),
    /// Pasted text (bracketed paste), delivered whole.
    Paste(String),
}

#[cfg(feature = "cli")]
impl TerminalInput {
    /// What the form receives for a crossterm event: key releases, resizes, focus and mouse
    /// events are `None`.
    pub fn from_event(event: &crossterm::event::Event) -> Option<TerminalInput> {
        match event {
            crossterm::event::Event::Key(key) => KeyId::from_event(key).map(TerminalInput::Key),
            crossterm::event::Event::Paste(text) => Some(TerminalInput::Paste(text.clone())),
            _ => None,
        }
    }
}

impl Mods {
    /// No modifier.
    pub const NONE: Mods = Mods {
        ctrl: false,
        shift: false,
        alt: false,
        super_: false,
    };

    fn is_empty(self) -> bool {
        self == Mods::NONE
    }
}

/// A named (non-printable) key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Named {
    /// `escape`.
    Esc,
    /// `enter`.
    Enter,
    /// `tab`.
    Tab,
    /// `space`.
    Space,
    /// `backspace`.
    Backspace,
    /// `delete`.
    Delete,
    /// `insert`.
    Insert,
    /// `clear` (the keypad's middle key).
    Clear,
    /// `home`.
    Home,
    /// `end`.
    End,
    /// `pageUp`.
    PageUp,
    /// `pageDown`.
    PageDown,
    /// `up`.
    Up,
    /// `down`.
    Down,
    /// `left`.
    Left,
    /// `right`.
    Right,
}

impl Named {
    const ALL: [Named; 16] = [
        Named::Esc,
        Named::Enter,
        Named::Tab,
        Named::Space,
        Named::Backspace,
        Named::Delete,
        Named::Insert,
        Named::Clear,
        Named::Home,
        Named::End,
        Named::PageUp,
        Named::PageDown,
        Named::Up,
        Named::Down,
        Named::Left,
        Named::Right,
    ];

    /// The canonical id name.
    pub fn id(self) -> &'static str {
        match self {
            Named::Esc => "esc",
            Named::Enter => "enter",
            Named::Tab => "tab",
            Named::Space => "space",
            Named::Backspace => "backspace",
            Named::Delete => "delete",
            Named::Insert => "insert",
            Named::Clear => "clear",
            Named::Home => "home",
            Named::End => "end",
            Named::PageUp => "pageUp",
            Named::PageDown => "pageDown",
            Named::Up => "up",
            Named::Down => "down",
            Named::Left => "left",
            Named::Right => "right",
        }
    }

    /// Looks a lowercased name up, aliases included.
    fn from_lowercase(name: &str) -> Option<Named> {
        let canonical = match name {
            "escape" => "esc",
            "return" => "enter",
            "spacebar" => "space",
            "del" => "delete",
            "ins" => "insert",
            "pgup" | "pageup" => "pageUp",
            "pgdown" | "pgdn" | "pagedown" => "pageDown",
            "arrowup" => "up",
            "arrowdown" => "down",
            "arrowleft" => "left",
            "arrowright" => "right",
            other => other,
        };
        Named::ALL.into_iter().find(|n| n.id() == canonical)
    }
}

/// The key itself, without modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Base {
    /// A printable character: `a`-`z`, `0`-`9` or one of the symbols (always lowercase).
    Char(char),
    /// A named key.
    Named(Named),
    /// `f1`..`f12`.
    F(u8),
}

/// A key with modifiers, e.g. `ctrl+shift+k`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyId {
    /// The modifiers held.
    pub mods: Mods,
    /// The key pressed.
    pub base: Base,
}

/// Why a key id string was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyIdError {
    /// Nothing was given.
    Empty,
    /// A `+` with nothing on one side (`ctrl+`).
    DanglingPlus(String),
    /// A modifier pi does not know (`hyper+k`).
    UnsupportedModifier(String),
    /// A modifier given twice (`ctrl+ctrl+k`).
    RepeatedModifier(String),
    /// A key pi does not know (`f13`, `ctrl+é`).
    UnsupportedKey(String),
}

impl fmt::Display for KeyIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyIdError::Empty => write!(f, "empty binding"),
            KeyIdError::DanglingPlus(id) => write!(f, "dangling + in {id:?}"),
            KeyIdError::UnsupportedModifier(m) => write!(f, "unsupported modifier {m}"),
            KeyIdError::RepeatedModifier(m) => write!(f, "repeated modifier {m}"),
            KeyIdError::UnsupportedKey(k) => write!(f, "unsupported key {k}"),
        }
    }
}

impl std::error::Error for KeyIdError {}

impl KeyId {
    /// The key with no modifier.
    pub const fn plain(base: Base) -> KeyId {
        KeyId {
            mods: Mods::NONE,
            base,
        }
    }

    /// A named key with no modifier.
    pub const fn named(named: Named) -> KeyId {
        KeyId::plain(Base::Named(named))
    }

    /// A character key with no modifier.
    pub const fn char(c: char) -> KeyId {
        KeyId::plain(Base::Char(c))
    }

    /// Parses and normalizes a key id (`Shift+N` → `shift+n`, `control+c` → `ctrl+c`).
    pub fn parse(text: &str) -> Result<KeyId, KeyIdError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(KeyIdError::Empty);
        }
        let lower = trimmed.to_lowercase();
        // `+` is itself a bindable key: `+`, `ctrl++`.
        let (mod_part, base_part) = if lower == "+" {
            ("", "+")
        } else if let Some(rest) = lower.strip_suffix("++") {
            (rest, "+")
        } else {
            match lower.rsplit_once('+') {
                Some((mods, base)) => (mods, base),
                None => ("", lower.as_str()),
            }
        };
        if base_part.is_empty() {
            return Err(KeyIdError::DanglingPlus(trimmed.to_owned()));
        }
        let mut mods = Mods::NONE;
        if !mod_part.is_empty() {
            for part in mod_part.split('+') {
                if part.is_empty() {
                    return Err(KeyIdError::DanglingPlus(trimmed.to_owned()));
                }
                let flag = match part {
                    "ctrl" | "control" | "ctl" => &mut mods.ctrl,
                    "shift" => &mut mods.shift,
                    "alt" | "option" => &mut mods.alt,
                    "super" | "cmd" | "command" | "meta" | "win" | "windows" => &mut mods.super_,
                    other => return Err(KeyIdError::UnsupportedModifier(other.to_owned())),
                };
                if *flag {
                    return Err(KeyIdError::RepeatedModifier(part.to_owned()));
                }
                *flag = true;
            }
        }
        Ok(KeyId {
            mods,
            base: parse_base(base_part)?,
        })
    }

    /// The key id of a key as a terminal reports it, or `None` for keys with no id (F13 and
    /// beyond). Normalizes what terminals disagree on: legacy terminals send `N` for Shift+N where
    /// Kitty sends `n` with the shift flag; for digits and symbols the character already says the
    /// shift (`?`, not `shift+/`); back-tab is `shift+tab`.
    pub fn from_raw(code: RawKey, mods: Mods) -> Option<KeyId> {
        let mut mods = mods;
        let base = match code {
            RawKey::Char(' ') => Base::Named(Named::Space),
            RawKey::Char(c) if c.is_ascii_alphabetic() => {
                mods.shift |= c.is_ascii_uppercase();
                Base::Char(c.to_ascii_lowercase())
            }
            // Ctrl with 4 to 7 is the byte a legacy terminal sends for Ctrl with `\ ] ^ _`
            // (crossterm reads 0x1c..0x1f as Ctrl+4..7): read as the latter, which are the keys
            // people press and bind (`global.hide` is Ctrl+]).
            RawKey::Char(c @ '4'..='7') if mods.ctrl && !mods.alt => {
                mods.shift = false;
                Base::Char(['\\', ']', '^', '_'][(c as u8 - b'4') as usize])
            }
            RawKey::Char(c) => {
                mods.shift = false;
                Base::Char(c)
            }
            RawKey::BackTab => {
                mods.shift = true;
                Base::Named(Named::Tab)
            }
            RawKey::Named(named) => Base::Named(named),
            RawKey::F(n) if (1..=12).contains(&n) => Base::F(n),
            RawKey::F(_) => return None,
        };
        Some(KeyId { mods, base })
    }

    /// The key id of a crossterm key event, or `None` for releases, Hyper/Meta chords and keys
    /// with no id.
    #[cfg(feature = "cli")]
    pub fn from_event(event: &KeyEvent) -> Option<KeyId> {
        if event.kind == KeyEventKind::Release {
            return None;
        }
        let m = event.modifiers;
        if m.intersects(KeyModifiers::HYPER | KeyModifiers::META) {
            return None;
        }
        let mods = Mods {
            ctrl: m.contains(KeyModifiers::CONTROL),
            shift: m.contains(KeyModifiers::SHIFT),
            alt: m.contains(KeyModifiers::ALT),
            super_: m.contains(KeyModifiers::SUPER),
        };
        let code = match event.code {
            KeyCode::Char(c) => RawKey::Char(c),
            KeyCode::BackTab => RawKey::BackTab,
            KeyCode::Enter => RawKey::Named(Named::Enter),
            KeyCode::Esc => RawKey::Named(Named::Esc),
            KeyCode::Tab => RawKey::Named(Named::Tab),
            KeyCode::Backspace => RawKey::Named(Named::Backspace),
            KeyCode::Delete => RawKey::Named(Named::Delete),
            KeyCode::Insert => RawKey::Named(Named::Insert),
            KeyCode::Home => RawKey::Named(Named::Home),
            KeyCode::End => RawKey::Named(Named::End),
            KeyCode::PageUp => RawKey::Named(Named::PageUp),
            KeyCode::PageDown => RawKey::Named(Named::PageDown),
            KeyCode::Up => RawKey::Named(Named::Up),
            KeyCode::Down => RawKey::Named(Named::Down),
            KeyCode::Left => RawKey::Named(Named::Left),
            KeyCode::Right => RawKey::Named(Named::Right),
            KeyCode::KeypadBegin => RawKey::Named(Named::Clear),
            KeyCode::F(n) => RawKey::F(n),
            _ => return None,
        };
        KeyId::from_raw(code, mods)
    }

    /// The printable character this key types in an editor, if it types one.
    pub fn typed_char(&self) -> Option<char> {
        if self.mods.ctrl || self.mods.alt || self.mods.super_ {
            return None;
        }
        match self.base {
            Base::Char(c) if self.mods.shift => Some(c.to_ascii_uppercase()),
            Base::Char(c) => Some(c),
            Base::Named(Named::Space) => Some(' '),
            _ => None,
        }
    }

    /// The digit 1..=9 of an unmodified digit key.
    pub fn digit(&self) -> Option<u8> {
        match (self.mods.is_empty(), self.base) {
            (true, Base::Char(c @ '1'..='9')) => Some(c as u8 - b'0'),
            _ => None,
        }
    }

    /// How the key is named in hints: `Ctrl+K`, `Shift+Tab`, `↑`, `Enter`, `?`.
    pub fn label(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        for (on, name) in [
            (self.mods.ctrl, "Ctrl"),
            (self.mods.shift, "Shift"),
            (self.mods.alt, "Alt"),
            (self.mods.super_, "Super"),
        ] {
            if on {
                parts.push(name.to_owned());
            }
        }
        parts.push(match self.base {
            Base::Char(c) => c.to_uppercase().collect(),
            Base::Named(Named::Up) => "↑".into(),
            Base::Named(Named::Down) => "↓".into(),
            Base::Named(Named::Left) => "←".into(),
            Base::Named(Named::Right) => "→".into(),
            Base::Named(Named::PageUp) => "pageUp".into(),
            Base::Named(Named::PageDown) => "pageDown".into(),
            Base::Named(n) => capitalize(n.id()),
            Base::F(n) => format!("F{n}"),
        });
        parts.join("+")
    }
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn parse_base(name: &str) -> Result<Base, KeyIdError> {
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.clone().next())
        && (c.is_ascii_lowercase() || c.is_ascii_digit() || SYMBOLS.contains(c))
    {
        return Ok(Base::Char(c));
    }
    if let Some(n) = Named::from_lowercase(name) {
        return Ok(Base::Named(n));
    }
    if let Some(n) = name
        .strip_prefix('f')
        .and_then(|d| d.parse::<u8>().ok())
        .filter(|n| (1..=12).contains(n))
    {
        return Ok(Base::F(n));
    }
    Err(KeyIdError::UnsupportedKey(name.to_owned()))
}

impl fmt::Display for KeyId {
    /// The canonical id: modifiers in the order ctrl, shift, alt, super, then the key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (on, name) in [
            (self.mods.ctrl, "ctrl+"),
            (self.mods.shift, "shift+"),
            (self.mods.alt, "alt+"),
            (self.mods.super_, "super+"),
        ] {
            if on {
                f.write_str(name)?;
            }
        }
        match self.base {
            Base::Char(c) => write!(f, "{c}"),
            Base::Named(n) => f.write_str(n.id()),
            Base::F(n) => write!(f, "f{n}"),
        }
    }
}

impl FromStr for KeyId {
    type Err = KeyIdError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        KeyId::parse(s)
    }
}

/// Every key id this module can produce without modifiers (for exhaustive round-trip tests).
pub fn all_plain_keys() -> Vec<KeyId> {
    let mut keys: Vec<KeyId> = ('a'..='z')
        .chain('0'..='9')
        .chain(SYMBOLS.chars())
        .map(KeyId::char)
        .collect();
    keys.extend(Named::ALL.into_iter().map(KeyId::named));
    keys.extend((1..=12).map(|n| KeyId::plain(Base::F(n))));
    keys
}
