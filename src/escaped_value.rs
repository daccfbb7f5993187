//! A string argument read and written in place, inside the request, escapes and all.
//!
//! OpenAI's `arguments` are JSON text inside a string literal, so every escape of a string
//! argument is spelled twice: a newline is `\\n`, a quote `\\\"`, a backslash `\\\\`. The
//! argument's canonical form (RFC 8785 section 3.2.2.2: the short escapes `\b \t \n \f \r \" \\`,
//! `\u00xx` for the other control characters, everything else as itself) is then the request's
//! bytes with one level of escapes taken off, run by run, never decoded into a copy. Where the
//! call has room for it ([`read_into`]), the value is checked (where it ends, and that it is
//! valid JSON text at both levels) and written in the same reading, a word at a time between
//! escapes; where it has none, it is read once to check it ([`inside_end`]) and once to write
//! it ([`write_inside`]). Arguments given in place as an object (Anthropic's `input`) have
//! their escapes once; the same code reads them with `TWICE` false.
//!
//! What is rare is declined, and the general path reads the call: a `\u` escape at the
//! request's level (it could spell a delimiter), and anything invalid.

use crate::sink::escape;
use crate::tokenizer::{backslash_from, not_plain, plain_run_end, PLAIN};
use std::io::{self, Write};

/// The offset of the delimiter that closes the string argument whose inside starts at `at`
/// (the `\` of `\"` when `TWICE`, else the `"`), and whether the inside holds an escape; `None`
/// declines.
#[inline]
pub(crate) fn inside_end<const TWICE: bool>(text: &[u8], at: usize) -> Option<(usize, bool)> {
    let mut i = at;
    let mut escapes = false;
    loop {
        i = plain_end(text, i);
        match *text.get(i)? {
            b'\\' if TWICE => {
                i = match *text.get(i + 1)? {
                    b'"' => return Some((i, escapes)),
                    b'/' => i + 2,
                    // The request's `\\` is the argument's backslash: an escape of the argument.
                    // Source code's own (`\\n`, `\\t`) are most of them, and are taken here
                    // without a call (`escape_end` out of line was a tenth of a patch's time).
                    b'\\' => match text.get(i + 2) {
                        Some(b'n' | b't' | b'r') => i + 3,
                        // The argument's `\"` and `\\` (a quote or a backslash in source code).
                        Some(b'\\') if matches!(text.get(i + 3), Some(b'"' | b'\\')) => i + 4,
                        _ => escape_end(text, i + 2, b"\\\\u")?,
                    },
                    // Any other escape of the request's is a control character or a `\u` of the
                    // argument's text: invalid there, or rare.
                    _ => return None,
                };
                escapes = true;
            }
            b'\\' => {
                i = escape_end(text, i + 1, b"\\u")?;
                escapes = true;
            }
            b'"' if !TWICE => return Some((i, escapes)),
            // Non-ASCII text is written as it is: no escape.
            0x80.. => i = utf8_end(text, i)?,
            // A control character, or a `"` that would end the request's literal.
            _ => return None,
        }
    }
}

/// What [`read_into`] made of a string argument.
pub(crate) enum Reading {
    /// Judged, and its canonical form written at the start of the room: the offset of its
    /// closing delimiter, how many bytes were written, and whether the inside held an escape
    /// (when not, the request's bytes are already the canonical form).
    Written {
        end: usize,
        len: usize,
        escapes: bool,
    },
    /// The room ran out before the string did: judge it with [`inside_end`] and write it again
    /// later with [`write_inside`].
    NoRoom,
}

/// One reading of the string argument whose inside starts at `at`: judged as [`inside_end`]
/// judges it, and written in its canonical form into `room` as [`write_string`] writes it, in
/// the same pass. The answer is sorted and its writer cannot take back bytes, so a value is
/// judged before any of it is written out; a file's contents cost two scans between escapes
/// that way, each ending at every escape (a patch's source has one every 30 bytes), and this
/// reading costs one and a copy. `None` declines, as [`inside_end`] does. Room for eight bytes
/// past the value's canonical form is needed: an escape is matched with room for its longest
/// form (`\u001f`) in hand.
///
/// Two loops, taken in turn: the plain run, sixteen bytes a step, each stored before it is
/// searched; then the escapes and non-ASCII characters that follow it, one after another while
/// they come (a line of source starts `\\n\\t\\t`), each matched on its first four bytes.
/// The time is in the chain from one escape to the next (load, search, the escape's length,
/// load), not in the instructions: this shape runs a patch 1.5 times as fast as the one before
/// it, which entered the plain loop again after every escape, and the 60 KB write 1.2 times,
/// for 13% more instructions there (the history of docs/performance.md in git, issue 17's fifth round).
#[inline]
pub(crate) fn read_into<const TWICE: bool>(
    text: &[u8],
    at: usize,
    room: &mut [u8],
) -> Option<Reading> {
    let (mut i, mut o) = (at, 0);
    let mut escapes = false;
    'string: loop {
        'plain: {
            // The first four steps each take their bounds: most runs in source code end there,
            // and a run's setup is then the cost. A longer run takes them once for the rest.
            for _ in 0..4 {
                let (Some(from), Some(to)) = (text.get(i..i + 16), room.get_mut(o..o + 16)) else {
                    break;
                };
                to.copy_from_slice(from);
                if let Some(first) = first_not_plain(from) {
                    i += first;
                    o += first;
                    break 'plain;
                }
                i += 16;
                o += 16;
            }
            let (from_rest, to_rest) = (text.get(i..)?, room.get_mut(o..).unwrap_or_default());
            let steps = from_rest.len().min(to_rest.len()) & !15;
            let mut k = 0;
            while k < steps {
                let (from, to) = (&from_rest[k..k + 16], &mut to_rest[k..k + 16]);
                to.copy_from_slice(from);
                if let Some(first) = first_not_plain(from) {
                    i += k + first;
                    o += k + first;
                    break 'plain;
                }
                k += 16;
            }
            i += k;
            o += k;
            // Fewer than sixteen bytes left in the text or the room: one at a time.
            loop {
                let byte = *text.get(i)?;
                if !PLAIN[usize::from(byte)] {
                    break 'plain;
                }
                let Some(slot) = room.get_mut(o) else {
                    return Some(Reading::NoRoom);
                };
                *slot = byte;
                i += 1;
                o += 1;
            }
        }
        loop {
            let Some(to) = room.get_mut(o..o + 8) else {
                return Some(Reading::NoRoom);
            };
            // The next four bytes, zeros past the text's end: no case below takes a zero for a
            // byte it needs, so a short text is declined where `inside_end` declines it.
            let head: [u8; 4] = match text.get(i..i + 4) {
                Some(head) => head.try_into().unwrap_or_default(),
                None => {
                    let (mut head, ahead) = ([0; 4], text.get(i..)?);
                    head[..ahead.len()].copy_from_slice(ahead);
                    head
                }
            };
            // The same cases as `inside_end`, in the same order. The usual escapes of source
            // code are written here as `escape_at` writes them, less the request's backslash.
            let (written, end) = match head {
                [b'\\', b'\\', letter, _] if TWICE && SHORT[usize::from(letter)] => {
                    to[..2].copy_from_slice(&[b'\\', letter]);
                    (2, i + 3)
                }
                // The argument's `\"` and `\\`, spelled `\\\"` and `\\\\` here.
                [b'\\', b'\\', b'\\', quoted @ (b'"' | b'\\')] if TWICE => {
                    to[..2].copy_from_slice(&[b'\\', quoted]);
                    (2, i + 4)
                }
                [b'\\', b'"', _, _] if TWICE => break 'string,
                [b'\\', b'\\', _, _] if TWICE => {
                    let end = escape_end(text, i + 2, b"\\\\u")?;
                    (escape_at::<TWICE>(text, i, to).0, end)
                }
                [b'\\', b'/', _, _] if TWICE => (escape_at::<TWICE>(text, i, to).0, i + 2),
                // Any other escape of the request's is a control character or a `\u` of the
                // argument's text: invalid there, or rare.
                [b'\\', _, _, _] if TWICE => return None,
                [b'\\', letter, _, _]
                    if SHORT[usize::from(letter)] || matches!(letter, b'"' | b'\\') =>
                {
                    to[..2].copy_from_slice(&[b'\\', letter]);
                    (2, i + 2)
                }
                [b'\\', _, _, _] => {
                    let end = escape_end(text, i + 1, b"\\u")?;
                    (escape_at::<TWICE>(text, i, to).0, end)
                }
                [b'"', _, _, _] if !TWICE => break 'string,
                [lead, _, _, _] if lead >= 0x80 => {
                    // Written as it is: its four bytes (no `memcpy` call for a length known
                    // only here), of which the room keeps `width`.
                    let width = utf8_end(text, i)? - i;
                    to[..4].copy_from_slice(&head);
                    i += width;
                    o += width;
                    continue;
                }
                [byte, _, _, _] if PLAIN[usize::from(byte)] => continue 'string,
                // A control character, or a `"` that would end the request's literal.
                _ => return None,
            };
            escapes = true;
            o += written;
            i = end;
        }
    }
    Some(Reading::Written {
        end: i,
        len: o,
        escapes,
    })
}

/// The escape letters written as they are read, after the argument's backslash: RFC 8785's
/// short escapes but the quote's and the backslash's, `\b \t \n \f \r`.
const SHORT: [bool; 256] = {
    let mut short = [false; 256];
    short[b'b' as usize] = true;
    short[b't' as usize] = true;
    short[b'n' as usize] = true;
    short[b'f' as usize] = true;
    short[b'r' as usize] = true;
    short
};

/// The offset of the first byte from `i` on that is not plain, or the text's length:
/// [`plain_run_end`], sixteen bytes a step first, as [`read_into`]'s plain loop reads them.
#[inline(always)]
fn plain_end(text: &[u8], i: usize) -> usize {
    let mut plain = i;
    for pair in text.get(i..).unwrap_or_default().chunks_exact(16) {
        if let Some(first) = first_not_plain(pair) {
            return plain + first;
        }
        plain += 16;
    }
    plain_run_end(text, plain)
}

/// Where the first byte of sixteen that is not plain is, if one is.
#[inline(always)]
fn first_not_plain(pair: &[u8]) -> Option<usize> {
    let word = |at: usize| {
        let bytes = pair.get(at..at + 8).and_then(|word| word.try_into().ok());
        not_plain(u64::from_le_bytes(bytes.unwrap_or([0; 8])))
    };
    let (low, high) = (word(0), word(8));
    if low | high == 0 {
        None
    } else if low != 0 {
        Some((low.trailing_zeros() / 8) as usize)
    } else {
        Some(8 + (high.trailing_zeros() / 8) as usize)
    }
}

/// The offset past the argument's escape whose letter is at `at` (after its backslash, spelled
/// once or twice); `unicode` is how a `\u` escape is spelled, for a surrogate's pair.
#[inline]
fn escape_end(text: &[u8], at: usize, unicode: &[u8]) -> Option<usize> {
    let twice = unicode.len() == 3;
    match *text.get(at)? {
        b'n' | b't' | b'r' | b'b' | b'f' | b'/' => Some(at + 1),
        b'"' | b'\\' if !twice => Some(at + 1),
        // `\"` and `\\` of the argument's, each character escaped again for the request.
        b'\\' if twice => matches!(text.get(at + 1)?, b'"' | b'\\' | b'/').then_some(at + 2),
        b'u' => {
            let (_, width) = code_point(text, at + 1, unicode)?;
            Some(at + 1 + width)
        }
        _ => None,
    }
}

/// The character of a `\u` escape whose four digits start at `at`, and how many bytes from
/// there it takes: a high surrogate must be followed by `unicode` and a low one.
#[inline]
fn code_point(text: &[u8], at: usize, unicode: &[u8]) -> Option<(char, usize)> {
    let unit = hex4(text, at)?;
    match unit {
        0xD800..=0xDBFF => {
            let low_at = at + 4 + unicode.len();
            if text.get(at + 4..low_at)? != unicode {
                return None;
            }
            let low = hex4(text, low_at)?;
            if !(0xDC00..=0xDFFF).contains(&low) {
                return None;
            }
            let c = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
            Some((char::from_u32(c)?, 4 + unicode.len() + 4))
        }
        _ => Some((char::from_u32(unit)?, 4)),
    }
}

/// Four hex digits at `at`, either case.
#[inline]
fn hex4(text: &[u8], at: usize) -> Option<u32> {
    let digits = text.get(at..at + 4)?;
    digits.iter().try_fold(0, |unit, &digit| {
        Some(unit << 4 | (digit as char).to_digit(16)?)
    })
}

/// The offset past the UTF-8 sequence that starts at `at`: RFC 3629 section 4's syntax, which
/// refuses overlong forms, encoded surrogates and code points past U+10FFFF, as std's check and
/// the tokenizer do (`tests::utf8_end_agrees_with_std`). Written out, not std's `from_utf8` on
/// the sequence: that call was a twentieth of a patch's instructions (callgrind).
#[inline]
fn utf8_end(text: &[u8], at: usize) -> Option<usize> {
    // The sequence's width, and the range of its second byte: the table's first column.
    let (width, low, high) = match *text.get(at)? {
        0xC2..=0xDF => (2, 0x80, 0xBF),
        0xE0 => (3, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF),
        0xED => (3, 0x80, 0x9F),
        0xF0 => (4, 0x90, 0xBF),
        0xF1..=0xF3 => (4, 0x80, 0xBF),
        0xF4 => (4, 0x80, 0x8F),
        _ => return None,
    };
    let sequence = text.get(at..at + width)?;
    let tails = sequence[2..].iter().all(|&byte| byte & 0xC0 == 0x80);
    (low <= sequence[1] && sequence[1] <= high && tails).then_some(at + width)
}

/// Room for a string's canonical bytes on their way to the writer. The runs between escapes
/// are short in source code (a line, or a tab), and a `write_all` each, through `Vec`'s
/// `memcpy`, was a fifth of a patch's time (perf, issue 17): here they are copied eight bytes at
/// a time into this room, which goes to the writer when full and at the end.
const STAGE: usize = 1024;

/// Writes a string argument's inside, as [`inside_end`] accepted it, in its canonical form:
/// each run between escapes copied whole, each escape written as the canonical writer writes
/// its character (`canonical::string`, which the debug builds' cross-check holds this to).
pub(crate) fn write_inside<const TWICE: bool>(
    out: &mut impl Write,
    inside: &[u8],
) -> io::Result<()> {
    write_string::<TWICE>(out, inside, 0).map(drop)
}

/// Writes the inside of the string argument that starts at `start`, as [`inside_end`] accepted
/// it, up to its closing delimiter (`\"` when `TWICE`, else `"`) or the text's end; the offset
/// of that delimiter. Where a string ends is found by the same reading that writes it.
pub(crate) fn write_string<const TWICE: bool>(
    out: &mut impl Write,
    text: &[u8],
    start: usize,
) -> io::Result<usize> {
    write_run::<TWICE, false>(out, text, start)
}

/// Writes `text`, JSON spelled inside a string literal (each of its `"` spelled `\"`, each
/// string in it with its escapes spelled twice), with the literal's level of escapes taken
/// off: its `\"` written `"`, its strings' escapes as [`write_string`] writes them. One run
/// over the whole text, for a nested value that is already canonical once unescaped
/// (`nested_value::write_whole`), where a [`write_string`] a string paid a `write_all` for
/// every key and delimiter.
pub(crate) fn write_unescaped(out: &mut impl Write, text: &[u8]) -> io::Result<()> {
    write_run::<true, true>(out, text, 0).map(drop)
}

/// [`write_string`], and with `WHOLE` (escapes spelled twice only) [`write_unescaped`]: a `\"`
/// is then written `"`, and only the text's end ends the run.
fn write_run<const TWICE: bool, const WHOLE: bool>(
    out: &mut impl Write,
    text: &[u8],
    start: usize,
) -> io::Result<usize> {
    // Up to the first escape the text is its canonical form, and often that is all of it.
    let mut i = special_from::<TWICE>(text, start);
    out.write_all(&text[start..i])?;
    if is_end::<TWICE, WHOLE>(text, i) {
        return Ok(i);
    }
    // Eight bytes past the room: a word is stored whole before its escape is looked for.
    let mut stage = [0u8; STAGE + 8];
    let mut o = 0;
    loop {
        // The plain run from `i`: each word stored, and kept up to its first special byte.
        while let Some(word) = text.get(i..i + 8) {
            if o > STAGE {
                out.write_all(&stage[..o])?;
                o = 0;
            }
            let word: [u8; 8] = word.try_into().unwrap_or([0; 8]);
            stage[o..o + 8].copy_from_slice(&word);
            let flags = special::<TWICE>(u64::from_le_bytes(word));
            if flags != 0 {
                let plain = (flags.trailing_zeros() / 8) as usize;
                i += plain;
                o += plain;
                break;
            }
            i += 8;
            o += 8;
        }
        if text.len() - i < 8 {
            // The last few bytes, one at a time.
            while let Some(&byte) = text
                .get(i)
                .filter(|&&byte| byte != b'\\' && (TWICE || byte != b'"'))
            {
                if o >= STAGE {
                    out.write_all(&stage[..o])?;
                    o = 0;
                }
                stage[o] = byte;
                o += 1;
                i += 1;
            }
        }
        if is_end::<TWICE, WHOLE>(text, i) {
            out.write_all(&stage[..o])?;
            return Ok(i);
        }
        if o > STAGE {
            out.write_all(&stage[..o])?;
            o = 0;
        }
        // A delimiter inside a whole value: its quote.
        if WHOLE && text.get(i + 1) == Some(&b'"') {
            stage[o] = b'"';
            o += 1;
            i += 2;
            continue;
        }
        // An escape at `i`: its character, written as the canonical writer writes it (at most
        // six bytes, `\u001f`, which the eight spare bytes hold).
        let (written, end) = escape_at::<TWICE>(text, i, &mut stage[o..o + 8]);
        o += written;
        i = end.min(text.len());
    }
}

/// The high bit of each byte of `word` that may end a plain run: a backslash, and when escapes
/// are spelled once, a quote.
#[inline(always)]
fn special<const TWICE: bool>(word: u64) -> u64 {
    let backslashes = crate::tokenizer::has_byte::<b'\\'>(word);
    if TWICE {
        backslashes
    } else {
        backslashes | crate::tokenizer::has_byte::<b'"'>(word)
    }
}

/// The offset of the first [`special`] byte from `i` on, or the text's length.
#[inline]
fn special_from<const TWICE: bool>(text: &[u8], i: usize) -> usize {
    if TWICE {
        return backslash_from(text, i);
    }
    let mut i = i;
    while let Some(word) = text.get(i..i + 8) {
        let flags = special::<TWICE>(u64::from_le_bytes(word.try_into().unwrap_or([0; 8])));
        if flags != 0 {
            return i + (flags.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while text
        .get(i)
        .is_some_and(|&byte| byte != b'\\' && byte != b'"')
    {
        i += 1;
    }
    i
}

/// Whether the string ends at `i`: the text's end, or its closing delimiter (unless `WHOLE`).
#[inline(always)]
fn is_end<const TWICE: bool, const WHOLE: bool>(text: &[u8], i: usize) -> bool {
    match text.get(i) {
        None => true,
        _ if WHOLE => false,
        Some(b'"') => !TWICE,
        Some(b'\\') => TWICE && text.get(i + 1) == Some(&b'"'),
        Some(_) => false,
    }
}

/// The escape whose backslash is at `i`, spelled once or twice: writes its character's
/// canonical form at the start of `to`; how many bytes that took, and the offset past the
/// escape.
#[inline]
fn escape_at<const TWICE: bool>(inside: &[u8], i: usize, to: &mut [u8]) -> (usize, usize) {
    // Where the argument's escape letter is, once its backslash is read.
    let letter = if TWICE {
        match inside.get(i + 1) {
            Some(b'/') => {
                to[0] = b'/';
                return (1, i + 2);
            }
            _ => i + 2,
        }
    } else {
        i + 1
    };
    let unicode: &[u8] = if TWICE { b"\\\\u" } else { b"\\u" };
    let (c, end) = match inside.get(letter).copied().unwrap_or(b'?') {
        // The short escapes are written as they are read, less the request's backslash.
        short @ (b'n' | b't' | b'r' | b'b' | b'f') => {
            to[0] = b'\\';
            to[1] = short;
            return (2, letter + 1);
        }
        b'u' => match code_point(inside, letter + 1, unicode) {
            Some((c, width)) => (c, letter + 1 + width),
            None => ('\u{FFFD}', inside.len()),
        },
        // `\"`, `\\` and `\/`, their character spelled again for the request when `TWICE`.
        b'\\' if TWICE => (
            inside.get(letter + 1).copied().unwrap_or(b'?') as char,
            letter + 2,
        ),
        other => (other as char, letter + 1),
    };
    let mut utf8 = [0; 4];
    let bytes = match c.encode_utf8(&mut utf8).as_bytes() {
        [byte] => {
            let (escaped, len) = escape(*byte);
            if len > 0 {
                to[..len].copy_from_slice(&escaped[..len]);
                return (len, end);
            }
            &utf8[..1]
        }
        bytes => bytes,
    };
    to[..bytes.len()].copy_from_slice(bytes);
    (bytes.len(), end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `inside` followed by its delimiter, then writes it.
    fn canonical<const TWICE: bool>(inside: &str) -> Option<String> {
        let text = format!("{inside}{}", if TWICE { "\\\"" } else { "\"" });
        // The one reading declines what the two do, and gives the same bytes.
        let mut room = [0u8; 256];
        let read = read_into::<TWICE>(text.as_bytes(), 0, &mut room);
        let judged = inside_end::<TWICE>(text.as_bytes(), 0);
        assert_eq!(read.is_none(), judged.is_none(), "{inside}");
        let (end, _) = judged?;
        assert_eq!(end, inside.len());
        let mut out = Vec::new();
        write_inside::<TWICE>(&mut out, &text.as_bytes()[..end]).unwrap();
        let Some(Reading::Written { end: at, len, .. }) = read else {
            panic!("{inside}: not read in one pass");
        };
        assert_eq!((at, &room[..len]), (end, &out[..]), "{inside}");
        Some(String::from_utf8(out).unwrap())
    }

    #[test]
    fn escapes_spelled_twice_lose_one_level() {
        let cases = [
            (
                r#"fn main() {\\n\\tprintln!(\\\"hi\\\");\\n}"#,
                r#"fn main() {\n\tprintln!(\"hi\");\n}"#,
            ),
            (r"a\\\\b", r"a\\b"),
            // A backslash before a quote, and a quote before a backslash.
            (r#"a\\\\\\\"b\\\"\\\\c"#, r#"a\\\"b\"\\c"#),
            (r"a\/b\\/c\\\/d", "a/b/c/d"),
            (r"\\u00e9\\u0041\\u001F\\u0008", "éA\\u001f\\b"),
            (r"\\ud83d\\ude00 ok", "😀 ok"),
            ("é ü 中", "é ü 中"),
            (r"\\r\\f", r"\r\f"),
        ];
        for (inside, want) in cases {
            assert_eq!(canonical::<true>(inside).as_deref(), Some(want), "{inside}");
        }
    }

    #[test]
    fn escapes_spelled_once_are_canonical() {
        let cases = [
            (r#"a\nb\t\"c\"\\d\/e"#, r#"a\nb\t\"c\"\\d/e"#),
            (r"\u00E9\u001F\ud83d\ude00", "é\\u001f😀"),
        ];
        for (inside, want) in cases {
            assert_eq!(
                canonical::<false>(inside).as_deref(),
                Some(want),
                "{inside}"
            );
        }
    }

    /// `read_into` judges as `inside_end` does and writes as `write_string` does, in one
    /// pass: every string of up to five pieces over an alphabet of the bytes that matter (the
    /// delimiters, the escape letters, hex digits, a control character, the bytes of a
    /// non-ASCII character and a surrogate pair's), each followed by both delimiters, after no
    /// plain text, 12 bytes and 24 (so that the steps of two words and of one, and the tail,
    /// all see each byte).
    #[test]
    fn one_reading_agrees_with_the_two() {
        fn agree<const TWICE: bool>(text: &[u8]) {
            let judged = inside_end::<TWICE>(text, 0);
            let mut room = [0u8; 128];
            let read = read_into::<TWICE>(text, 0, &mut room);
            match (judged, read) {
                (None, None) => {}
                (
                    Some((end, escapes)),
                    Some(Reading::Written {
                        end: at,
                        len,
                        escapes: saw,
                    }),
                ) => {
                    assert_eq!(
                        (end, escapes),
                        (at, saw),
                        "{:?}",
                        String::from_utf8_lossy(text)
                    );
                    let mut written = Vec::new();
                    write_inside::<TWICE>(&mut written, &text[..end]).unwrap();
                    assert_eq!(
                        &room[..len],
                        &written[..],
                        "{:?}",
                        String::from_utf8_lossy(text)
                    );
                }
                (judged, _) => panic!("{:?}: {judged:?}", String::from_utf8_lossy(text)),
            }
        }
        let alphabet: [&[u8]; 13] = [
            b"\\", b"\"", b"n", b"u", b"/", b"0", b"d", b"e", b"a", b"\x01", b"\xC3", b"\xA9",
            b"\\\\u",
        ];
        let mut text = Vec::new();
        let mut digits = [0usize; 5];
        for len in 0..=digits.len() {
            let count = alphabet.len().pow(len as u32);
            for mut n in 0..count {
                for digit in digits.iter_mut().take(len) {
                    *digit = n % alphabet.len();
                    n /= alphabet.len();
                }
                for prefix in [&b""[..], b"plain text, ", b"plain text, plain text, "] {
                    text.clear();
                    text.extend_from_slice(prefix);
                    for &digit in &digits[..len] {
                        text.extend_from_slice(alphabet[digit]);
                    }
                    // Unclosed first: the text's end declines it, however an escape is cut.
                    agree::<true>(&text);
                    agree::<false>(&text);
                    text.extend_from_slice(b"\\\"\"}");
                    agree::<true>(&text);
                    agree::<false>(&text);
                }
            }
        }
    }

    /// A room too small for the value says so, whatever is left of the value to read.
    #[test]
    fn a_room_too_small_says_so() {
        let text = br#"fn main() {\\n\\tprintln!(\\\"hi\\\");\\n}\""#;
        let (end, _) = inside_end::<true>(text, 0).unwrap();
        for size in 0..40 {
            let mut room = vec![0u8; size];
            match read_into::<true>(text, 0, &mut room) {
                Some(Reading::NoRoom) => {}
                Some(Reading::Written { end: at, len, .. }) => {
                    assert_eq!(at, end);
                    assert!(len + 8 <= size);
                }
                None => panic!("declined with a room of {size}"),
            }
        }
    }

    /// The written-out check takes exactly the sequences std takes: every lead byte with every
    /// second byte, every third byte for the three-byte forms, and the bytes around each
    /// boundary for the third and fourth of the four-byte ones.
    #[test]
    fn utf8_end_agrees_with_std() {
        let edges = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF];
        for lead in 0x80..=0xFFu8 {
            let (thirds, fourths): (Vec<u8>, &[u8]) = match lead {
                0xE0..=0xEF => ((0..=0xFF).collect(), &[0x80]),
                0xF0..=0xFF => (edges.to_vec(), &edges),
                _ => (vec![0x80], &[0x80]),
            };
            for second in 0..=0xFFu8 {
                for &third in &thirds {
                    for &fourth in fourths {
                        let text = [lead, second, third, fourth];
                        // The width of the first character std reads, if any.
                        let valid = match std::str::from_utf8(&text) {
                            Ok(valid) => valid,
                            Err(error) => {
                                std::str::from_utf8(&text[..error.valid_up_to()]).unwrap()
                            }
                        };
                        let width = valid.chars().next().map(char::len_utf8);
                        assert_eq!(utf8_end(&text, 0), width, "{text:02X?}");
                    }
                }
            }
        }
    }

    /// What the general path must read instead: control characters in the argument's text, a
    /// `\u` of the request's, lone surrogates, bad escapes, invalid UTF-8, a raw quote.
    #[test]
    fn the_rare_and_the_invalid_are_declined() {
        for inside in [
            r"a\nb",
            r"\u0041",
            r"\\ud83d",
            r"\\ude00",
            r"\\ud83d\\u0041",
            r"\\x",
            r"\\u00g0",
            "a\"b",
            "a\u{1}b",
        ] {
            assert_eq!(canonical::<true>(inside), None, "{inside}");
        }
        assert_eq!(inside_end::<true>(b"\xC0\x80\\\"", 0), None);
        assert_eq!(inside_end::<true>(b"\xED\xA0\x80\\\"", 0), None);
        assert_eq!(canonical::<false>(r"\ud83d"), None);
        assert_eq!(canonical::<false>(r"\x"), None);
    }
}
