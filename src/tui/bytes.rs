//! Decoding raw terminal input bytes into key and paste events, for the test harness
//! (the real runtime lets crossterm read the terminal). Byte for byte as crossterm decodes raw-mode
//! input (`\n` is Ctrl+J, `\x08` Ctrl+H, `ESC ESC` one Esc, `ESC x` Alt+x), which
//! `tests/e2e_pty.rs` checks against the real runtime through `pi-ask keys`. Covers the legacy encodings, the common
//! CSI/SS3 sequences, Kitty's `CSI codepoint ; modifiers u`, and bracketed paste.

use crate::keys::{KeyId, Mods, Named, RawKey, TerminalInput};

/// A decoded event before its key is normalized into a [`KeyId`] (an `ESC` prefix adds Alt to
/// the key after it, so the modifiers stay open until the sequence ends).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Event {
    Key(RawKey, Mods),
    Paste(String),
}

fn key(code: RawKey, modifiers: Mods) -> Event {
    Event::Key(code, modifiers)
}

const NONE: Mods = Mods::NONE;
const SHIFT: Mods = Mods {
    shift: true,
    ..Mods::NONE
};
const CONTROL: Mods = Mods {
    ctrl: true,
    ..Mods::NONE
};

/// `1 + bitmask` modifier parameter (shift 1, alt 2, ctrl 4, super 8).
fn modifiers(param: u32) -> Mods {
    let bits = param.saturating_sub(1);
    Mods {
        shift: bits & 1 != 0,
        alt: bits & 2 != 0,
        ctrl: bits & 4 != 0,
        super_: bits & 8 != 0,
    }
}

/// Decodes bytes into what the form receives: keys (as [`KeyId`]s) and pastes. Unknown sequences
/// and keys without an id are skipped.
pub fn decode(bytes: &[u8]) -> Vec<TerminalInput> {
    decode_events(bytes)
        .into_iter()
        .filter_map(|event| match event {
            Event::Key(code, mods) => KeyId::from_raw(code, mods).map(TerminalInput::Key),
            Event::Paste(text) => Some(TerminalInput::Paste(text)),
        })
        .collect()
}

fn decode_events(bytes: &[u8]) -> Vec<Event> {
    let text = String::from_utf8_lossy(bytes);
    let chars: Vec<char> = text.chars().collect();
    let mut events = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\x1b' {
            let (event, used) = escape(&chars[i..]);
            events.extend(event);
            i += used;
            continue;
        }
        events.push(plain(c));
        i += 1;
    }
    events
}

/// A byte (or character) outside escape sequences, as crossterm reads it in raw mode.
fn plain(c: char) -> Event {
    match c {
        '\r' => key(RawKey::Named(Named::Enter), NONE),
        '\t' => key(RawKey::Named(Named::Tab), NONE),
        '\x7f' => key(RawKey::Named(Named::Backspace), NONE),
        '\0' => key(RawKey::Char(' '), CONTROL),
        // `\n` is Ctrl+J and `\x08` Ctrl+H here, as in crossterm's raw mode.
        c @ '\x01'..='\x1a' => key(RawKey::Char((c as u8 - 1 + b'a') as char), CONTROL),
        c @ '\x1c'..='\x1f' => key(RawKey::Char((c as u8 - 0x1c + b'4') as char), CONTROL),
        c if c.is_uppercase() => key(RawKey::Char(c), SHIFT),
        c => key(RawKey::Char(c), NONE),
    }
}

/// One escape sequence at the start of `s`: the event (if known) and how many chars it used.
fn escape(s: &[char]) -> (Option<Event>, usize) {
    match s.get(1) {
        None => (Some(key(RawKey::Named(Named::Esc), NONE)), 1),
        Some('[') => csi(s),
        Some('O') => {
            let code = match s.get(2) {
                Some('A') => RawKey::Named(Named::Up),
                Some('B') => RawKey::Named(Named::Down),
                Some('C') => RawKey::Named(Named::Right),
                Some('D') => RawKey::Named(Named::Left),
                Some('H') => RawKey::Named(Named::Home),
                Some('F') => RawKey::Named(Named::End),
                Some('M') => RawKey::Named(Named::Enter),
                Some('P') => RawKey::F(1),
                Some('Q') => RawKey::F(2),
                Some('R') => RawKey::F(3),
                Some('S') => RawKey::F(4),
                _ => return (None, 3.min(s.len())),
            };
            (Some(key(code, NONE)), 3)
        }
        // A doubled ESC is one Esc key.
        Some('\x1b') => (Some(key(RawKey::Named(Named::Esc), NONE)), 2),
        // ESC before any other key is that key with Alt.
        Some(&c) => match plain(c) {
            Event::Key(code, mods) => (Some(Event::Key(code, Mods { alt: true, ..mods })), 2),
            other => (Some(other), 2),
        },
    }
}

fn csi(s: &[char]) -> (Option<Event>, usize) {
    // Parameters up to the final byte (0x40..=0x7e).
    let mut end = 2;
    while end < s.len() && !('\x40'..='\x7e').contains(&s[end]) {
        end += 1;
    }
    if end >= s.len() {
        return (None, s.len());
    }
    let params: String = s[2..end].iter().collect();
    let final_char = s[end];
    let used = end + 1;
    if final_char == '~' && params == "200" {
        // Bracketed paste: everything up to ESC[201~.
        let rest: String = s[used..].iter().collect();
        return match rest.find("\x1b[201~") {
            Some(stop) => (
                Some(Event::Paste(rest[..stop].to_owned())),
                used + rest[..stop].chars().count() + 6,
            ),
            None => (Some(Event::Paste(rest.clone())), s.len()),
        };
    }
    let nums: Vec<u32> = params
        .split(';')
        .map(|p| p.split(':').next().unwrap_or("").parse().unwrap_or(0))
        .collect();
    let mods = modifiers(nums.get(1).copied().unwrap_or(1));
    let code = match final_char {
        'A' => RawKey::Named(Named::Up),
        'B' => RawKey::Named(Named::Down),
        'C' => RawKey::Named(Named::Right),
        'D' => RawKey::Named(Named::Left),
        'H' => RawKey::Named(Named::Home),
        'F' => RawKey::Named(Named::End),
        'Z' => return (Some(key(RawKey::BackTab, SHIFT)), used),
        '~' => match nums.first().copied().unwrap_or(0) {
            1 | 7 => RawKey::Named(Named::Home),
            2 => RawKey::Named(Named::Insert),
            3 => RawKey::Named(Named::Delete),
            4 | 8 => RawKey::Named(Named::End),
            5 => RawKey::Named(Named::PageUp),
            6 => RawKey::Named(Named::PageDown),
            n @ 11..=15 => RawKey::F((n - 10) as u8),
            n @ 17..=21 => RawKey::F((n - 11) as u8),
            n @ 23..=24 => RawKey::F((n - 12) as u8),
            _ => return (None, used),
        },
        'u' => match nums.first().copied().unwrap_or(0) {
            27 => RawKey::Named(Named::Esc),
            13 => RawKey::Named(Named::Enter),
            9 => RawKey::Named(Named::Tab),
            127 => RawKey::Named(Named::Backspace),
            cp => match char::from_u32(cp) {
                Some(c) => RawKey::Char(c),
                None => return (None, used),
            },
        },
        _ => return (None, used),
    };
    (Some(key(code, mods)), used)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_legacy_and_kitty_keys_and_pastes() {
        let events =
            decode_events(b"a\x1b[B\x1b[Z\x1b[110;2u\x03N\x1b[200~hi there\x1b[201~\r\x1b");
        assert_eq!(
            events,
            vec![
                key(RawKey::Char('a'), NONE),
                key(RawKey::Named(Named::Down), NONE),
                key(RawKey::BackTab, SHIFT),
                key(RawKey::Char('n'), SHIFT),
                key(RawKey::Char('c'), CONTROL),
                key(RawKey::Char('N'), SHIFT),
                Event::Paste("hi there".into()),
                key(RawKey::Named(Named::Enter), NONE),
                key(RawKey::Named(Named::Esc), NONE),
            ]
        );
    }
}
