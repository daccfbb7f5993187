//! A byte sink that the renderer writes JSON into, once per catalog; and [`Escaped`], the same
//! escapes, for messages.
//!
//! It knows JSON's lexical rules only: raw bytes, booleans, whole numbers and string literals
//! with the 256-entry escape table below. Which keys come in which order is the caller's (see
//! `wire.rs`).

use std::fmt;
use std::io::{self, Write};

/// A growing byte sink for JSON: where the renderer writes declarations, once, when a catalog
/// is read (by `build.rs` for the compiled-in catalog, or at run time).
#[derive(Default)]
pub(crate) struct Json {
    pub(crate) bytes: Vec<u8>,
}

impl Json {
    /// Bytes that are already JSON: punctuation and keys.
    pub(crate) fn raw(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    pub(crate) fn boolean(&mut self, value: bool) {
        self.raw(if value { b"true" } else { b"false" });
    }

    /// A whole number, in decimal with no leading zeros: how the catalog spells a count.
    pub(crate) fn unsigned(&mut self, mut value: u64) {
        let mut digits = [0; 20];
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (value % 10) as u8;
            value /= 10;
            if value == 0 {
                break;
            }
        }
        self.raw(&digits[at..]);
    }

    /// A string literal of this program's own (a keyword, a type's name), which needs no
    /// escape: written as it is, without the scan.
    pub(crate) fn word(&mut self, word: &'static str) {
        debug_assert!(word.bytes().all(|byte| escape(byte).1 == 0), "{word}");
        self.bytes.push(b'"');
        self.bytes.extend_from_slice(word.as_bytes());
        self.bytes.push(b'"');
    }

    /// `value` as a JSON string literal: `"` and `\\` escaped, control characters as short or
    /// `\\u00XX` escapes, everything else, non-ASCII included, as it is.
    pub(crate) fn string(&mut self, value: &str) {
        let bytes = value.as_bytes();
        self.bytes.reserve(bytes.len() + 2);
        self.bytes.push(b'"');
        // Most bytes stand for themselves: runs of them are found eight bytes at a time and
        // copied whole.
        let mut plain = 0;
        loop {
            let at = escape_run_end(bytes, plain);
            self.bytes.extend_from_slice(&bytes[plain..at]);
            let Some(&byte) = bytes.get(at) else {
                break;
            };
            let (escape, len) = escape(byte);
            self.raw(&escape[..len]);
            plain = at + 1;
        }
        self.bytes.push(b'"');
    }

    /// `value`, which holds nothing [`Json::string`] escapes (an [`EscapeMap`] said so), as a
    /// JSON string literal.
    #[inline]
    pub(crate) fn plain_string(&mut self, value: &[u8]) {
        debug_assert_eq!(escape_run_end(value, 0), value.len());
        self.bytes.reserve(value.len() + 2);
        self.bytes.push(b'"');
        self.bytes.extend_from_slice(value);
        self.bytes.push(b'"');
    }
}

/// Which 64-byte blocks of a text hold a byte that [`Json::string`] escapes: one bit a block.
///
/// The renderer writes each of a catalog's strings once for each provider's rules (a
/// property's description five times); with this, the text is scanned once, and a string in
/// blocks with nothing to escape is copied as it is ([`Json::plain_string`]).
pub(crate) struct EscapeMap {
    blocks: Vec<u64>,
}

impl EscapeMap {
    const BLOCK: usize = 64;

    /// The map of `text`: one scan, which skips the rest of a block once it holds an escape.
    pub(crate) fn of(text: &[u8]) -> EscapeMap {
        let mut blocks = vec![0u64; text.len().div_ceil(Self::BLOCK * 64)];
        let mut i = escape_run_end(text, 0);
        while i < text.len() {
            let block = i / Self::BLOCK;
            blocks[block / 64] |= 1 << (block % 64);
            i = escape_run_end(text, (block + 1) * Self::BLOCK);
        }
        EscapeMap { blocks }
    }

    /// Whether the `len` bytes of the text from `start` are sure to hold nothing to escape.
    #[inline]
    pub(crate) fn none_in(&self, start: usize, len: usize) -> bool {
        if len == 0 {
            return true;
        }
        let escaped = |block: usize| {
            (self.blocks.get(block / 64)).is_none_or(|bits| bits >> (block % 64) & 1 == 1)
        };
        let (first, last) = (start / Self::BLOCK, (start + len - 1) / Self::BLOCK);
        // Most strings lie in one block: it is tested before a range is made.
        !escaped(first) && (first + 1..=last).all(|block| !escaped(block))
    }
}

/// Writes what `text` formats as the inside of a JSON string, with the writer's escapes.
pub(crate) fn escaped<W: Write>(
    out: &mut W,
    text: impl FnOnce(&mut Escaped<'_, W>) -> fmt::Result,
) -> io::Result<()> {
    let mut writer = Escaped { out, failed: None };
    let result = text(&mut writer);
    match (writer.failed, result) {
        (Some(err), _) => Err(err),
        (None, Ok(())) => Ok(()),
        (None, Err(fmt::Error)) => Err(io::ErrorKind::Other.into()),
    }
}

/// Text written as the inside of a JSON string literal.
pub(crate) struct Escaped<'a, W: Write> {
    out: &'a mut W,
    failed: Option<io::Error>,
}

impl<W: Write> fmt::Write for Escaped<'_, W> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        let bytes = text.as_bytes();
        let mut plain = 0;
        let mut result = Ok(());
        for (i, &byte) in bytes.iter().enumerate() {
            let (escape, len) = escape(byte);
            if len > 0 {
                result = result
                    .and_then(|()| self.out.write_all(&bytes[plain..i]))
                    .and_then(|()| self.out.write_all(&escape[..len]));
                plain = i + 1;
            }
        }
        result = result.and_then(|()| self.out.write_all(&bytes[plain..]));
        result.map_err(|err| {
            self.failed = Some(err);
            fmt::Error
        })
    }
}

/// How `byte` is written inside a JSON string: the escape and its length, or a length of 0 when
/// the byte stands for itself. Shared by the renderer and [`Escaped`].
#[allow(clippy::just_underscores_and_digits)] // `__` reads as "nothing to do", as in the table
pub(crate) const fn escape(byte: u8) -> ([u8; 6], usize) {
    let (high, low) = (HEX[(byte >> 4) as usize], HEX[(byte & 0xF) as usize]);
    match ESCAPE[byte as usize] {
        __ => ([0; 6], 0),
        UU => ([b'\\', b'u', b'0', b'0', high, low], 6),
        short => ([b'\\', short, 0, 0, 0, 0], 2),
    }
}

/// The offset of the first byte from `i` on that the writer escapes (`"`, `\\`, a control
/// character), or the text's length. As `tokenizer::plain_run_end`, but bytes of 0x80 and up
/// pass: they are written as they are. The renderer's strings and the messages' quotes
/// both find their escapes with it.
#[inline]
pub(crate) fn escape_run_end(text: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = ONES * 0x80;
    while let Some(word) = text.get(i..i + 8) {
        let word = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
        // The lowest flag is exact; borrows can only flag lanes above it.
        let flags = word.wrapping_sub(ONES * 0x20) & !word & HIGH
            | has_zero(word ^ (ONES * u64::from(b'"')))
            | has_zero(word ^ (ONES * u64::from(b'\\')));
        if flags != 0 {
            return i + (flags.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&byte) = text.get(i) {
        if ESCAPE[byte as usize] != __ {
            break;
        }
        i += 1;
    }
    i
}

const HEX: &[u8; 16] = b"0123456789abcdef";

const __: u8 = 0; // written as it is
const BB: u8 = b'b'; // \x08
const TT: u8 = b't'; // \x09
const NN: u8 = b'n'; // \x0A
const FF: u8 = b'f'; // \x0C
const RR: u8 = b'r'; // \x0D
const QU: u8 = b'"'; // \x22
const BS: u8 = b'\\'; // \x5C
const UU: u8 = b'u'; // \x00...\x1F except the ones above: \u00XX

/// For each byte: `__` when it is written as it is, else the letter after the backslash.
#[rustfmt::skip]
const ESCAPE: [u8; 256] = [
    //   1   2   3   4   5   6   7   8   9   A   B   C   D   E   F
    UU, UU, UU, UU, UU, UU, UU, UU, BB, TT, NN, UU, FF, RR, UU, UU, // 0
    UU, UU, UU, UU, UU, UU, UU, UU, UU, UU, UU, UU, UU, UU, UU, UU, // 1
    __, __, QU, __, __, __, __, __, __, __, __, __, __, __, __, __, // 2
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // 3
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // 4
    __, __, __, __, __, __, __, __, __, __, __, __, BS, __, __, __, // 5
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // 6
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // 7
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // 8
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // 9
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // A
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // B
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // C
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // D
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // E
    __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, // F
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_escape_map_clears_a_stretch_only_when_its_blocks_hold_nothing_to_escape() {
        // Escapes at the last byte of a block and the first of the next, two inside one, none
        // for three blocks, one at the text's last byte; non-ASCII, which is written as it is,
        // between them.
        let mut text = "é".repeat(200).into_bytes();
        for (at, byte) in [
            (63, b'"'),
            (64, b'\\'),
            (130, b'\n'),
            (140, 0x1f),
            (399, b'"'),
        ] {
            text[at] = byte;
        }
        let map = EscapeMap::of(&text);
        let flagged = |block: usize| {
            let end = ((block + 1) * EscapeMap::BLOCK).min(text.len());
            escape_run_end(&text[..end], block * EscapeMap::BLOCK) < end
        };
        let mut cleared = 0;
        for start in 0..=text.len() {
            for len in 0..=text.len() - start {
                let none = map.none_in(start, len);
                let block = EscapeMap::BLOCK;
                let mut blocks = start / block..=(start + len).saturating_sub(1) / block;
                assert_eq!(none, len == 0 || !blocks.any(flagged), "{start}+{len}");
                if none {
                    let stretch = &text[start..start + len];
                    assert_eq!(escape_run_end(stretch, 0), len, "{start}+{len}");
                    cleared += 1;
                }
            }
        }
        // Blocks 3 to 5 (bytes 192..384) hold nothing to escape.
        assert!(map.none_in(192, 192) && !map.none_in(191, 2) && !map.none_in(383, 2));
        assert!(cleared > 0);
    }

    #[test]
    fn whole_numbers_are_written_as_decimal_without_leading_zeros() {
        for value in [0, 7, 10, 99, 100, 12_345, u64::from(u32::MAX) + 1, u64::MAX] {
            let mut json = Json::default();
            json.unsigned(value);
            assert_eq!(json.bytes, value.to_string().as_bytes());
        }
    }
}
