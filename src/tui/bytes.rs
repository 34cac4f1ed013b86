//! Decoding raw terminal input bytes into key and paste events, for the test harness
//! (the real runtime lets crossterm read the terminal). Byte for byte as crossterm decodes raw-mode
//! input (`\n` is Ctrl+J, `\x08` Ctrl+H, `ESC ESC` one Esc, `ESC x` Alt+x), which
//! `tests/e2e_pty.rs` checks against the real runtime through `pi-ask keys`. Covers the legacy encodings, the common
//! CSI/SS3 sequences, Kitty's `CSI codepoint ; modifiers u`, and bracketed paste.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

fn key(code: KeyCode, modifiers: KeyModifiers) -> Event {
    Event::Key(KeyEvent::new(code, modifiers))
}

/// `1 + bitmask` modifier parameter (shift 1, alt 2, ctrl 4, super 8).
fn modifiers(param: u32) -> KeyModifiers {
    let bits = param.saturating_sub(1);
    let mut m = KeyModifiers::NONE;
    for (bit, flag) in [
        (1, KeyModifiers::SHIFT),
        (2, KeyModifiers::ALT),
        (4, KeyModifiers::CONTROL),
        (8, KeyModifiers::SUPER),
    ] {
        if bits & bit != 0 {
            m |= flag;
        }
    }
    m
}

/// Decodes bytes into events. Unknown sequences are skipped.
pub fn decode(bytes: &[u8]) -> Vec<Event> {
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
        '\r' => key(KeyCode::Enter, KeyModifiers::NONE),
        '\t' => key(KeyCode::Tab, KeyModifiers::NONE),
        '\x7f' => key(KeyCode::Backspace, KeyModifiers::NONE),
        '\0' => key(KeyCode::Char(' '), KeyModifiers::CONTROL),
        // `\n` is Ctrl+J and `\x08` Ctrl+H here, as in crossterm's raw mode.
        c @ '\x01'..='\x1a' => key(
            KeyCode::Char((c as u8 - 1 + b'a') as char),
            KeyModifiers::CONTROL,
        ),
        c @ '\x1c'..='\x1f' => key(
            KeyCode::Char((c as u8 - 0x1c + b'4') as char),
            KeyModifiers::CONTROL,
        ),
        c if c.is_uppercase() => key(KeyCode::Char(c), KeyModifiers::SHIFT),
        c => key(KeyCode::Char(c), KeyModifiers::NONE),
    }
}

/// One escape sequence at the start of `s`: the event (if known) and how many chars it used.
fn escape(s: &[char]) -> (Option<Event>, usize) {
    match s.get(1) {
        None => (Some(key(KeyCode::Esc, KeyModifiers::NONE)), 1),
        Some('[') => csi(s),
        Some('O') => {
            let code = match s.get(2) {
                Some('A') => KeyCode::Up,
                Some('B') => KeyCode::Down,
                Some('C') => KeyCode::Right,
                Some('D') => KeyCode::Left,
                Some('H') => KeyCode::Home,
                Some('F') => KeyCode::End,
                Some('M') => KeyCode::Enter,
                Some('P') => KeyCode::F(1),
                Some('Q') => KeyCode::F(2),
                Some('R') => KeyCode::F(3),
                Some('S') => KeyCode::F(4),
                _ => return (None, 3.min(s.len())),
            };
            (Some(key(code, KeyModifiers::NONE)), 3)
        }
        // A doubled ESC is one Esc key.
        Some('\x1b') => (Some(key(KeyCode::Esc, KeyModifiers::NONE)), 2),
        // ESC before any other key is that key with Alt.
        Some(&c) => match plain(c) {
            Event::Key(mut k) => {
                k.modifiers |= KeyModifiers::ALT;
                (Some(Event::Key(k)), 2)
            }
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
        'A' => KeyCode::Up,
        'B' => KeyCode::Down,
        'C' => KeyCode::Right,
        'D' => KeyCode::Left,
        'H' => KeyCode::Home,
        'F' => KeyCode::End,
        'Z' => return (Some(key(KeyCode::BackTab, KeyModifiers::SHIFT)), used),
        '~' => match nums.first().copied().unwrap_or(0) {
            1 | 7 => KeyCode::Home,
            2 => KeyCode::Insert,
            3 => KeyCode::Delete,
            4 | 8 => KeyCode::End,
            5 => KeyCode::PageUp,
            6 => KeyCode::PageDown,
            n @ 11..=15 => KeyCode::F((n - 10) as u8),
            n @ 17..=21 => KeyCode::F((n - 11) as u8),
            n @ 23..=24 => KeyCode::F((n - 12) as u8),
            _ => return (None, used),
        },
        'u' => match nums.first().copied().unwrap_or(0) {
            27 => KeyCode::Esc,
            13 => KeyCode::Enter,
            9 => KeyCode::Tab,
            127 => KeyCode::Backspace,
            cp => match char::from_u32(cp) {
                Some(c) => KeyCode::Char(c),
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
        let events = decode(b"a\x1b[B\x1b[Z\x1b[110;2u\x03N\x1b[200~hi there\x1b[201~\r\x1b");
        assert_eq!(
            events,
            vec![
                key(KeyCode::Char('a'), KeyModifiers::NONE),
                key(KeyCode::Down, KeyModifiers::NONE),
                key(KeyCode::BackTab, KeyModifiers::SHIFT),
                key(KeyCode::Char('n'), KeyModifiers::SHIFT),
                key(KeyCode::Char('c'), KeyModifiers::CONTROL),
                key(KeyCode::Char('N'), KeyModifiers::SHIFT),
                Event::Paste("hi there".into()),
                key(KeyCode::Enter, KeyModifiers::NONE),
                key(KeyCode::Esc, KeyModifiers::NONE),
            ]
        );
    }
}
