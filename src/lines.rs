//! Reading a peer's input line by line (split on `\n` only) without letting one line fill memory:
//! a line longer than the cap is skipped to its end and reported as [`Line::TooLong`]. Shared by
//! RPC mode (the host's stdin) and the remote socket (each client).

use std::io::{self, BufRead, Read};

/// The longest line read; a longer one is dropped.
pub const MAX_LINE: usize = 1024 * 1024;

/// One line of input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// The line's bytes, without its `\n` (the last line may have none).
    Text(Vec<u8>),
    /// A line longer than [`MAX_LINE`], skipped to its end without being kept.
    TooLong,
}

/// The next line, or `None` at the end of the input.
pub fn read_line(input: &mut impl BufRead) -> io::Result<Option<Line>> {
    read_line_within(input, MAX_LINE)
}

/// [`read_line`] with another cap (`max` bytes).
pub fn read_line_within(input: &mut impl BufRead, max: usize) -> io::Result<Option<Line>> {
    let limit = (max + 1) as u64;
    let mut buf = Vec::new();
    if input.by_ref().take(limit).read_until(b'\n', &mut buf)? == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        return Ok(Some(Line::Text(buf)));
    }
    if buf.len() <= max {
        // The last line, without a newline.
        return Ok(Some(Line::Text(buf)));
    }
    loop {
        buf.clear();
        let n = input.by_ref().take(limit).read_until(b'\n', &mut buf)?;
        if n == 0 || buf.last() == Some(&b'\n') {
            return Ok(Some(Line::TooLong));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<Line> {
        let mut input = io::BufReader::new(bytes);
        std::iter::from_fn(|| read_line(&mut input).unwrap()).collect()
    }

    #[test]
    fn lines_split_on_newline_only_and_a_long_one_is_dropped_whole() {
        let mut input = b"a\r\nb".to_vec();
        input.push(b'\n');
        input.extend(vec![b'x'; MAX_LINE + 5]);
        input.extend_from_slice(b"\nlast");
        assert_eq!(
            lines(&input),
            [
                Line::Text(b"a\r".to_vec()),
                Line::Text(b"b".to_vec()),
                Line::TooLong,
                Line::Text(b"last".to_vec())
            ]
        );
        let mut exact = vec![b'y'; MAX_LINE];
        exact.push(b'\n');
        assert_eq!(lines(&exact), [Line::Text(vec![b'y'; MAX_LINE])]);
    }
}
