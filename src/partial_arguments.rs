//! A streamed call's arguments, read as their fragments come, for what makes the call certainly
//! wrong before it completes: JSON that can no longer be JSON (RFC 8259's grammar, read a
//! character at a time), and, at the top level of the arguments object, a key given twice or
//! that the tool does not declare, or a value whose type or range is wrong.
//!
//! Each fragment is the inside of a JSON string literal of the request, whose escapes are
//! whole (the request was read whole), so it is decoded here one character at a time without
//! a copy. What is certain is judged by the checker's own rules (`check.rs`): the reader here
//! only says which key or scalar to judge. Nothing it cannot be sure of is judged: keys and
//! scalars longer than its buffers, anything nested deeper than 64, tools that `check.rs` does
//! not read (unions, references: `validate.rs` reads them), and a number until the character
//! after it shows where it ends.

/// The longest top-level key or scalar literal kept for judging, quotes included.
pub(crate) const KEPT: usize = 128;

/// What a character of the arguments made certain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Certain {
    /// Nothing yet.
    No,
    /// The text can no longer be one JSON value: the character at this many bytes of the
    /// (decoded) arguments is where.
    Malformed,
    /// A top-level key is whole: [`Partial::literal`] holds it.
    Key,
    /// A top-level scalar is whole: [`Partial::literal`] holds it, and `kind` says what it is.
    Scalar(crate::tokenizer::Kind),
    /// A top-level value opened as a container (`{` or `[`).
    Container(crate::tokenizer::Kind),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum Mode {
    /// Before the arguments' value (whitespace only so far).
    #[default]
    Start,
    /// A value comes next (after `:` or `,` in an array).
    Value,
    /// After `[`: a value or `]`.
    ValueOrEnd,
    /// After `{`: a key or `}`.
    KeyOrEnd,
    /// After `,` in an object: a key.
    Key,
    /// After a key: `:`.
    Colon,
    /// After a value: `,` or the container's end.
    After,
    /// The arguments' value is whole: whitespace only.
    Done,
    /// Inside a string (a key when `key`).
    Str,
    /// Inside a number.
    Number,
    /// Inside `true`, `false` or `null`: the rest of the word, and where in it.
    Word,
    /// Certainly wrong already, or beyond what is read: nothing more is looked at.
    Stopped,
}

/// The reader's state between fragments.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Partial {
    mode: Mode,
    /// Containers open, and which are arrays (bit `d` for depth `d + 1`).
    depth: u32,
    arrays: u64,
    /// In a string: a key's.
    key: bool,
    /// In a string: after a `\`, or how many hex digits of a `\u` are still to come (2 to 5
    /// stand for 4 to 1).
    escape: u8,
    /// In a word: which (`t`, `f`, `n`) and how many of its letters were read.
    word: (u8, u8),
    /// The top-level key or scalar being read, as the arguments' text has it (quotes and
    /// escapes included), and whether it outgrew the buffer.
    literal: [u8; KEPT],
    len: usize,
    over: bool,
    /// A request-level `\u` escape's code unit at or above 0x80 went into a kept literal: the
    /// bytes kept are not the text's, so it is not judged.
    unsure: bool,
}

impl Default for Partial {
    fn default() -> Partial {
        Partial {
            mode: Mode::Start,
            depth: 0,
            arrays: 0,
            key: false,
            escape: 0,
            word: (0, 0),
            literal: [0; KEPT],
            len: 0,
            over: false,
            unsure: false,
        }
    }
}

/// Calls `each` with every character of a request string literal's inside, decoded: a byte
/// for ASCII and for each byte of raw UTF-8, and for a `\u` escape of a code unit at or above
/// 0x80, the byte 0x80 with `true` (its text is not kept).
pub(crate) fn decode(inside: &[u8], mut each: impl FnMut(u8, bool) -> bool) {
    let mut i = 0;
    while i < inside.len() {
        let byte = inside[i];
        let (decoded, escaped, step) = if byte != b'\\' {
            (byte, false, 1)
        } else {
            match inside.get(i + 1) {
                Some(b'u') => {
                    let hex = inside.get(i + 2..i + 6).unwrap_or(b"0000");
                    let unit = std::str::from_utf8(hex)
                        .ok()
                        .and_then(|hex| u16::from_str_radix(hex, 16).ok())
                        .unwrap_or(0);
                    match u8::try_from(unit) {
                        Ok(ascii) if ascii < 0x80 => (ascii, false, 6),
                        _ => (0x80, true, 6),
                    }
                }
                Some(b'b') => (0x08, false, 2),
                Some(b'f') => (0x0c, false, 2),
                Some(b'n') => (b'\n', false, 2),
                Some(b'r') => (b'\r', false, 2),
                Some(b't') => (b'\t', false, 2),
                Some(&other) => (other, false, 2),
                None => (b'\\', false, 1),
            }
        };
        if !each(decoded, escaped) {
            return;
        }
        i += step;
    }
}

impl Partial {
    /// The top-level key or scalar that [`Certain::Key`] or [`Certain::Scalar`] names.
    pub(crate) fn literal(&self) -> Option<&[u8]> {
        (!self.over && !self.unsure).then(|| &self.literal[..self.len])
    }

    /// Stops reading: the call is settled, or goes beyond what is read.
    pub(crate) fn stop(&mut self) {
        self.mode = Mode::Stopped;
    }

    fn keep(&mut self, byte: u8, unsure: bool) {
        if self.depth == 1 {
            match self.literal.get_mut(self.len) {
                Some(slot) => {
                    *slot = byte;
                    self.len += 1;
                }
                None => self.over = true,
            }
            self.unsure |= unsure;
        }
    }

    fn start_literal(&mut self, byte: u8) {
        self.len = 0;
        self.over = false;
        self.unsure = false;
        self.keep(byte, false);
    }

    fn push(&mut self, array: bool) -> Certain {
        if self.depth >= 64 {
            self.mode = Mode::Stopped;
            return Certain::No;
        }
        let kind = match array {
            true => crate::tokenizer::Kind::ArrayStart,
            false => crate::tokenizer::Kind::ObjectStart,
        };
        let top = self.depth == 1;
        if array {
            self.arrays |= 1 << self.depth;
        } else {
            self.arrays &= !(1 << self.depth);
        }
        self.depth += 1;
        self.mode = if array {
            Mode::ValueOrEnd
        } else {
            Mode::KeyOrEnd
        };
        if top {
            Certain::Container(kind)
        } else {
            Certain::No
        }
    }

    fn in_array(&self) -> bool {
        self.depth > 0 && self.arrays & (1 << (self.depth - 1)) != 0
    }

    /// A value ends: the mode after it.
    fn ended(&mut self) {
        self.mode = if self.depth == 0 {
            Mode::Done
        } else {
            Mode::After
        };
    }

    /// Reads one decoded character (`escaped`: a `\u` escape whose text is not kept); says what
    /// it made certain.
    pub(crate) fn step(&mut self, byte: u8, escaped: bool) -> Certain {
        use crate::tokenizer::Kind;
        let space = matches!(byte, b' ' | b'\t' | b'\n' | b'\r');
        let malformed = Certain::Malformed;
        match self.mode {
            Mode::Stopped => Certain::No,
            Mode::Start | Mode::Value | Mode::ValueOrEnd if space => Certain::No,
            Mode::Start | Mode::Value | Mode::ValueOrEnd => {
                if self.mode == Mode::ValueOrEnd && byte == b']' {
                    return self.close(byte);
                }
                match byte {
                    b'{' => self.push(false),
                    b'[' => self.push(true),
                    b'"' => {
                        self.mode = Mode::Str;
                        self.key = false;
                        self.escape = 0;
                        self.start_literal(byte);
                        Certain::No
                    }
                    b'-' | b'0'..=b'9' => {
                        self.mode = Mode::Number;
                        self.start_literal(byte);
                        Certain::No
                    }
                    b't' | b'f' | b'n' => {
                        self.mode = Mode::Word;
                        self.word = (byte, 1);
                        self.start_literal(byte);
                        Certain::No
                    }
                    _ => malformed,
                }
            }
            Mode::KeyOrEnd | Mode::Key if space => Certain::No,
            Mode::KeyOrEnd | Mode::Key => match byte {
                b'"' => {
                    self.mode = Mode::Str;
                    self.key = true;
                    self.escape = 0;
                    self.start_literal(byte);
                    Certain::No
                }
                b'}' if self.mode == Mode::KeyOrEnd => self.close(byte),
                _ => malformed,
            },
            Mode::Colon if space => Certain::No,
            Mode::Colon => match byte {
                b':' => {
                    self.mode = Mode::Value;
                    Certain::No
                }
                _ => malformed,
            },
            Mode::After if space => Certain::No,
            Mode::After => match byte {
                b',' => {
                    self.mode = if self.in_array() {
                        Mode::Value
                    } else {
                        Mode::Key
                    };
                    Certain::No
                }
                b'}' | b']' => self.close(byte),
                _ => malformed,
            },
            Mode::Done if space => Certain::No,
            Mode::Done => malformed,
            Mode::Str => {
                self.keep(byte, escaped);
                match self.escape {
                    0 => match byte {
                        b'\\' => {
                            self.escape = 1;
                            Certain::No
                        }
                        b'"' if !escaped => {
                            let key = self.key;
                            let top = self.depth == 1;
                            if key {
                                self.mode = Mode::Colon;
                            } else {
                                self.ended();
                            }
                            match (top, key) {
                                (true, true) => Certain::Key,
                                (true, false) => Certain::Scalar(Kind::String),
                                _ => Certain::No,
                            }
                        }
                        0x00..=0x1f => malformed,
                        _ => Certain::No,
                    },
                    1 => match byte {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                            self.escape = 0;
                            Certain::No
                        }
                        b'u' => {
                            self.escape = 5;
                            Certain::No
                        }
                        _ => malformed,
                    },
                    _ => match byte {
                        b'0'..=b'9' | b'a'..=b'f' | b'A'..=b'F' => {
                            self.escape = if self.escape == 2 { 0 } else { self.escape - 1 };
                            Certain::No
                        }
                        _ => malformed,
                    },
                }
            }
            Mode::Number => match byte {
                b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-' => {
                    self.keep(byte, false);
                    // Certain as soon as no number starts so (`01`, `1.e`, `--`).
                    match self.over
                        || self.depth != 1
                        || number(&self.literal[..self.len]).is_some()
                    {
                        true => Certain::No,
                        false => malformed,
                    }
                }
                _ => {
                    // The number ends before this character, which is read as what follows a
                    // value. Its grammar is the tokenizer's to judge.
                    let top = self.depth == 1;
                    let whole = self.over
                        || self.depth != 1
                        || number(&self.literal[..self.len]) == Some(true);
                    self.ended();
                    let after = self.step(byte, escaped);
                    if !whole && !self.over {
                        return malformed;
                    }
                    match (top, after) {
                        (_, Certain::Malformed) => Certain::Malformed,
                        (true, _) => Certain::Scalar(Kind::Number),
                        _ => Certain::No,
                    }
                }
            },
            Mode::Word => {
                let (first, at) = self.word;
                let word: &[u8] = match first {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                if word.get(usize::from(at)) != Some(&byte) {
                    return malformed;
                }
                self.keep(byte, false);
                self.word.1 += 1;
                if usize::from(self.word.1) < word.len() {
                    return Certain::No;
                }
                let top = self.depth == 1;
                self.ended();
                let kind = match first {
                    b't' => Kind::True,
                    b'f' => Kind::False,
                    _ => Kind::Null,
                };
                if top {
                    Certain::Scalar(kind)
                } else {
                    Certain::No
                }
            }
        }
    }

    fn close(&mut self, byte: u8) -> Certain {
        let array = self.in_array();
        if self.depth == 0 || array != (byte == b']') {
            return Certain::Malformed;
        }
        self.depth -= 1;
        self.ended();
        Certain::No
    }
}

/// Whether `literal` is a whole JSON number (RFC 8259: `-? int frac? exp?`): `Some(true)`;
/// `Some(false)` when it is the start of one; `None` when no number starts so.
fn number(literal: &[u8]) -> Option<bool> {
    let mut i = 0;
    let at = |i: usize| literal.get(i).copied();
    let digits = |i: &mut usize| {
        let start = *i;
        while literal.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    if at(i) == Some(b'-') {
        i += 1;
    }
    match at(i) {
        None => return Some(false),
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return None,
    }
    if at(i) == Some(b'.') {
        i += 1;
        if !digits(&mut i) {
            return (i == literal.len()).then_some(false);
        }
    }
    if matches!(at(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(at(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(&mut i) {
            return (i == literal.len()).then_some(false);
        }
    }
    (i == literal.len()).then_some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What each prefix of `text` made certain, by the character at which it became so.
    fn certain(text: &str) -> Vec<(usize, Certain)> {
        let mut partial = Partial::default();
        let mut found = Vec::new();
        for (i, &byte) in text.as_bytes().iter().enumerate() {
            let what = partial.step(byte, false);
            if what != Certain::No {
                found.push((i, what));
            }
            if what == Certain::Malformed {
                partial.stop();
            }
        }
        found
    }

    #[test]
    fn valid_json_is_never_malformed_and_top_level_members_are_named() {
        use crate::tokenizer::Kind;
        let text =
            r#" {"a": 1.5e3 , "b":[1,{"x":"}"}],"c" :"q\"\u00e9" ,"d":true,"e":null,"f":{}} "#;
        let found = certain(text);
        let kinds: Vec<Certain> = found.iter().map(|&(_, what)| what).collect();
        assert_eq!(
            kinds,
            [
                Certain::Key,
                Certain::Scalar(Kind::Number),
                Certain::Key,
                Certain::Container(Kind::ArrayStart),
                Certain::Key,
                Certain::Scalar(Kind::String),
                Certain::Key,
                Certain::Scalar(Kind::True),
                Certain::Key,
                Certain::Scalar(Kind::Null),
                Certain::Key,
                Certain::Container(Kind::ObjectStart),
            ]
        );
        // The number is whole at the space after it.
        assert_eq!(found[1].0, text.find("1.5e3").unwrap() + 5);
    }

    #[test]
    fn the_first_character_that_no_json_can_follow_is_malformed() {
        for (text, at) in [
            ("{\"a\":1}x", 7),
            ("{\"a\" 1", 5),
            ("{\"a\":01", 6),
            ("{\"a\":tru ", 8),
            ("[1,]", 3),
            ("{\"a\":\"\\x\"}", 7),
            ("{\"a\":1]", 6),
            ("{,", 1),
            ("{\"a\":-}", 6),
            ("{\"a\":1.e", 7),
            ("{\"a\":--", 6),
        ] {
            let found = certain(text);
            assert_eq!(
                found.last(),
                Some(&(at, Certain::Malformed)),
                "{text}: {found:?}"
            );
        }
    }
}
