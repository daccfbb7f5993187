//! A strict RFC 8259 tokenizer over borrowed bytes.
//!
//! Why hand-written: the request is tiny, the rules are exact, and an auditor should be able to
//! check every accept and reject against the RFC's grammar without reading a general-purpose
//! parser. It never recurses (nesting is a depth count and a 64-bit stack of container kinds, so
//! the limit of 64 is also the size of the stack), never allocates (tokens borrow the input;
//! escapes are decoded only where a string is compared), and reads each byte once.
//!
//! Errors are idempotent: the tokenizer's position only moves past a token once the whole token is
//! known to be good, so calling [`Tokenizer::next`] again after an error returns the same error.

use crate::error::{Error, MAX_DEPTH, MAX_INPUT};

/// What a token is. Commas and colons are checked but not reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `{`: a key or `}` comes next.
    ObjectStart,
    /// `}`, matched to its `{` by the tokenizer.
    ObjectEnd,
    /// `[`: a value or `]` comes next.
    ArrayStart,
    /// `]`, matched to its `[` by the tokenizer.
    ArrayEnd,
    /// An object key. Its `raw` bytes are the literal, quotes and escapes included.
    Key,
    /// A string value. Its `raw` bytes are the literal, quotes and escapes included.
    String,
    /// A number. Its `raw` bytes are the literal, checked against RFC 8259's grammar but not
    /// converted: a caller that needs the value parses them.
    Number,
    /// The literal `true`.
    True,
    /// The literal `false`.
    False,
    /// The literal `null`.
    Null,
}

impl Kind {
    /// How a value of this kind is named in messages: "a string", "an object".
    pub(crate) fn described(self) -> &'static str {
        match self {
            Kind::ObjectStart => "an object",
            Kind::ArrayStart => "an array",
            Kind::String => "a string",
            Kind::Number => "a number",
            Kind::True | Kind::False => "a boolean",
            Kind::Null => "null",
            Kind::ObjectEnd | Kind::ArrayEnd | Kind::Key => "a token",
        }
    }
}

/// One token: its kind, where it starts, and its bytes in the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// What the token is, which says how to read `raw`.
    pub kind: Kind,
    /// Byte offset of the token's first byte.
    pub at: usize,
    /// The token's bytes, borrowed from the input so that nothing is copied or allocated.
    pub raw: &'a [u8],
}

/// What the tokenizer expects next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Nothing: the input is over the size limit, which is known before anything is read.
    Oversized,
    /// The document's one value.
    Document,
    /// A value: after `:` or after `,` in an array.
    Value,
    /// After `[`: a value or `]`.
    ValueOrEnd,
    /// After `{`: a key or `}`.
    KeyOrEnd,
    /// After `,` in an object.
    Key,
    /// After a key.
    Colon,
    /// After a value inside a container: `,` or the matching close.
    Separator,
    /// After the document's value: only whitespace may follow.
    End,
}

/// Pulls tokens out of one JSON document.
#[derive(Clone, Debug)]
pub struct Tokenizer<'a> {
    input: &'a [u8],
    pos: usize,
    expect: Expect,
    depth: usize,
    /// Bit `d` is set when the container at depth `d + 1` is an object. Sixty-four bits hold
    /// exactly [`MAX_DEPTH`] levels.
    objects: u64,
    /// Why the last step stopped, kept until someone asks for the [`Error`].
    fault: Fault,
}

/// A failure, recorded where it happens and turned into an [`Error`] only when asked for, so
/// that the hot path passes one-byte results around instead of whole errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    Malformed { at: usize, what: &'static str },
    TooDeep { at: usize },
    TooLarge,
}

/// The tokenizer stopped; [`Tokenizer::error`] says why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stop;

const _: () = assert!(MAX_DEPTH == u64::BITS as usize);

impl<'a> Tokenizer<'a> {
    /// A tokenizer for one request: at most [`MAX_INPUT`] bytes.
    #[inline]
    pub fn new(input: &'a [u8]) -> Tokenizer<'a> {
        Tokenizer::with_limit(input, MAX_INPUT)
    }

    /// A tokenizer for a document of at most `limit` bytes (a catalog file is larger than any
    /// request). A longer one is refused before anything is read.
    #[inline]
    pub fn with_limit(input: &'a [u8], limit: usize) -> Tokenizer<'a> {
        // Over the limit, nothing is read, not even whitespace: the position starts at the end.
        let oversized = input.len() > limit;
        Tokenizer {
            input,
            pos: if oversized { input.len() } else { 0 },
            expect: if oversized {
                Expect::Oversized
            } else {
                Expect::Document
            },
            depth: 0,
            objects: 0,
            fault: Fault::TooLarge, // a placeholder: read only after a step returned `Stop`
        }
    }

    /// The document being read, which every token's `at` is an offset into.
    #[inline]
    pub(crate) fn input(&self) -> &'a [u8] {
        self.input
    }

    /// How many arrays and objects are open.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The next token; `Ok(None)` once the document has ended with nothing but whitespace after
    /// it.
    // Not `Iterator`: a tokenizer stops at its first error, and `?` reads better than
    // `Option<Result<..>>`.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Token<'a>>, Error> {
        self.step().map_err(|Stop| self.error())
    }

    /// [`Tokenizer::next`] for this crate's hot path: a failure is only recorded.
    #[inline(always)]
    pub(crate) fn step(&mut self) -> Result<Option<Token<'a>>, Stop> {
        loop {
            let at = self.skip_whitespace();
            let byte = self.input.get(at).copied();
            match self.expect {
                Expect::Oversized => return Err(self.stop(Fault::TooLarge)),
                Expect::Document => {
                    if self.input.starts_with(b"\xEF\xBB\xBF") {
                        return Err(self.fail(
                            at,
                            "expected a JSON value (a byte order mark is not allowed)",
                        ));
                    }
                    return self.value(at, byte, "expected a JSON value").map(Some);
                }
                Expect::Value => return self.value(at, byte, "expected a value").map(Some),
                Expect::ValueOrEnd if byte == Some(b']') => return Ok(Some(self.close(at))),
                Expect::ValueOrEnd => {
                    return self.value(at, byte, "expected a value or ']'").map(Some);
                }
                Expect::KeyOrEnd if byte == Some(b'}') => return Ok(Some(self.close(at))),
                Expect::KeyOrEnd | Expect::Key if byte == Some(b'"') => {
                    let end = self.string_end(at)?;
                    self.pos = end;
                    self.expect = Expect::Colon;
                    return Ok(Some(self.token(Kind::Key, at, end)));
                }
                Expect::KeyOrEnd => return Err(self.fail(at, "expected a string key or '}'")),
                Expect::Key => return Err(self.fail(at, "expected a string key after ','")),
                Expect::Colon if byte == Some(b':') => {
                    self.pos = at + 1;
                    self.expect = Expect::Value;
                }
                Expect::Colon => return Err(self.fail(at, "expected ':' after object key")),
                Expect::Separator => {
                    let in_object = self.objects >> (self.depth - 1) & 1 == 1;
                    match (byte, in_object) {
                        (Some(b','), true) => self.expect = Expect::Key,
                        (Some(b','), false) => self.expect = Expect::Value,
                        (Some(b'}'), true) | (Some(b']'), false) => {
                            return Ok(Some(self.close(at)))
                        }
                        (_, true) => {
                            return Err(self.fail(at, "expected ',' or '}' after object value"))
                        }
                        (_, false) => {
                            return Err(self.fail(at, "expected ',' or ']' after array element"))
                        }
                    }
                    self.pos = at + 1;
                }
                Expect::End if byte.is_none() => {
                    self.pos = at;
                    return Ok(None);
                }
                Expect::End => return Err(self.fail(at, "expected end of input after the value")),
            }
        }
    }

    /// The next token, where the grammar says one must come (inside a container, or first).
    #[inline(always)]
    pub(crate) fn expect_token(&mut self) -> Result<Token<'a>, Stop> {
        match self.step()? {
            Some(token) => Ok(token),
            None => Err(self.fail(self.pos, "expected a token, the document has ended")),
        }
    }

    /// Reads tokens to the end of the document, for a verdict only.
    pub fn finish(&mut self) -> Result<(), Error> {
        self.drain().map_err(|Stop| self.error())
    }

    /// [`Tokenizer::finish`] for this crate's hot path.
    pub(crate) fn drain(&mut self) -> Result<(), Stop> {
        while self.step()?.is_some() {}
        Ok(())
    }

    /// Reads past the value that starts with `first` (a token this tokenizer just gave) and
    /// returns the offset just after it.
    #[inline]
    pub(crate) fn skip(&mut self, first: Token<'_>) -> Result<usize, Stop> {
        self.skip_value(first, false)
    }

    /// [`Tokenizer::skip`] without the depth limit inside the value: for a call's arguments,
    /// where a value nested too deep is where the schema ends, not malformed text (see
    /// [`Tokenizer::skip_too_deep`]). The request itself keeps the limit.
    #[inline]
    pub(crate) fn skip_any_depth(&mut self, first: Token<'_>) -> Result<usize, Stop> {
        self.skip_value(first, true)
    }

    #[inline(always)]
    fn skip_value(&mut self, first: Token<'_>, any_depth: bool) -> Result<usize, Stop> {
        if !matches!(first.kind, Kind::ObjectStart | Kind::ArrayStart) {
            return Ok(first.at + first.raw.len());
        }
        let depth = self.depth;
        loop {
            match self.expect_token() {
                Ok(token) if self.depth < depth => return Ok(token.at + 1),
                Ok(_) => {}
                Err(Stop) if any_depth => self.skip_too_deep()?,
                Err(Stop) => return Err(Stop),
            }
        }
    }

    /// After a step stopped at a container nested deeper than [`MAX_DEPTH`], reads past that
    /// container, nested to any depth, and leaves the tokenizer just after it, as a tokenizer
    /// without the limit would be. A fault inside it stops the tokenizer as usual.
    ///
    /// For what a call checker reads past: a value the schema has no place for (the catalog
    /// nests far less than 64 levels) is the model's mistake at the point where the schema ends,
    /// not text that fails to be JSON. The levels are read 64 at a time: a window is a
    /// tokenizer of its own, started at depth 0 on the container that was too deep, and the
    /// `objects` word of each full window waits on a stack until its container closes. The
    /// stack holds a word for each 64 levels that a [`MAX_INPUT`]-byte text can open, on this
    /// cold path only (8 KiB).
    #[cold]
    #[inline(never)]
    fn skip_too_deep(&mut self) -> Result<(), Stop> {
        let Fault::TooDeep { at } = self.fault else {
            return Err(Stop);
        };
        let mut waiting = [0u64; MAX_INPUT / MAX_DEPTH + 1];
        let mut windows = 0;
        let mut window = self.clone();
        window.open_window(at);
        loop {
            match window.step() {
                Ok(Some(_)) if window.depth == 0 => {
                    // The window's container has closed: go on in the one around it.
                    let end = window.pos;
                    if windows == 0 {
                        self.pos = end;
                        self.expect = Expect::Separator;
                        return Ok(());
                    }
                    windows -= 1;
                    window.objects = waiting[windows];
                    window.depth = MAX_DEPTH;
                    window.pos = end;
                    window.expect = Expect::Separator;
                }
                Ok(_) => {}
                Err(Stop) => match window.fault {
                    Fault::TooDeep { at } if windows < waiting.len() => {
                        waiting[windows] = window.objects;
                        windows += 1;
                        window.open_window(at);
                    }
                    fault => return Err(self.stop(fault)),
                },
            }
        }
    }

    /// Starts a window of [`Tokenizer::skip_too_deep`] on the container that opens at `at`.
    fn open_window(&mut self, at: usize) {
        self.pos = at;
        self.expect = Expect::Value;
        self.depth = 0;
        self.objects = 0;
    }

    /// The error that stopped the tokenizer. Only meaningful after a step returned [`Stop`].
    #[cold]
    pub(crate) fn error(&self) -> Error {
        match self.fault {
            Fault::Malformed { at, what } => Error::malformed(self.input, at, what),
            Fault::TooDeep { at } => Error::too_deep(at),
            Fault::TooLarge => Error::too_large(),
        }
    }

    #[cold]
    fn stop(&mut self, fault: Fault) -> Stop {
        self.fault = fault;
        Stop
    }

    #[cold]
    fn fail(&mut self, at: usize, what: &'static str) -> Stop {
        self.stop(Fault::Malformed { at, what })
    }

    #[inline(always)]
    fn value(
        &mut self,
        at: usize,
        byte: Option<u8>,
        what: &'static str,
    ) -> Result<Token<'a>, Stop> {
        let (kind, end) = match byte {
            Some(b'{') | Some(b'[') => {
                if self.depth == MAX_DEPTH {
                    return Err(self.stop(Fault::TooDeep { at }));
                }
                let object = byte == Some(b'{');
                self.objects = self.objects & !(1 << self.depth) | u64::from(object) << self.depth;
                self.depth += 1;
                self.pos = at + 1;
                self.expect = if object {
                    Expect::KeyOrEnd
                } else {
                    Expect::ValueOrEnd
                };
                let kind = if object {
                    Kind::ObjectStart
                } else {
                    Kind::ArrayStart
                };
                return Ok(self.token(kind, at, at + 1));
            }
            Some(b'"') => (Kind::String, self.string_end(at)?),
            Some(b'-' | b'0'..=b'9') => (Kind::Number, self.number_end(at)?),
            Some(b't') => (Kind::True, self.literal_end(at, b"true")?),
            Some(b'f') => (Kind::False, self.literal_end(at, b"false")?),
            Some(b'n') => (Kind::Null, self.literal_end(at, b"null")?),
            _ => return Err(self.fail(at, what)),
        };
        self.pos = end;
        self.expect = self.after_value();
        Ok(self.token(kind, at, end))
    }

    #[inline]
    fn close(&mut self, at: usize) -> Token<'a> {
        let kind = if self.objects >> (self.depth - 1) & 1 == 1 {
            Kind::ObjectEnd
        } else {
            Kind::ArrayEnd
        };
        self.depth -= 1;
        self.pos = at + 1;
        self.expect = self.after_value();
        self.token(kind, at, at + 1)
    }

    #[inline]
    fn after_value(&self) -> Expect {
        if self.depth == 0 {
            Expect::End
        } else {
            Expect::Separator
        }
    }

    #[inline]
    fn token(&self, kind: Kind, at: usize, end: usize) -> Token<'a> {
        Token {
            kind,
            at,
            raw: &self.input[at..end],
        }
    }

    #[inline]
    fn skip_whitespace(&self) -> usize {
        skip_whitespace(self.input, self.pos)
    }

    /// The offset just past the closing quote of the string literal that opens at `at`.
    #[inline(always)]
    fn string_end(&mut self, at: usize) -> Result<usize, Stop> {
        let input = self.input;
        let mut i = at + 1;
        loop {
            i = plain_run_end(input, i);
            match input.get(i) {
                None => return Err(self.fail(i, "expected '\"' to close the string")),
                Some(b'"') => return Ok(i + 1),
                Some(b'\\') => i = self.escape_end(i)?,
                Some(0x00..=0x1F) => {
                    return Err(self.fail(i, "control characters must be escaped in a string"))
                }
                Some(&lead) => {
                    let width = match lead {
                        0xC2..=0xDF => 2,
                        0xE0..=0xEF => 3,
                        0xF0..=0xF4 => 4,
                        _ => 0,
                    };
                    // std's check rejects overlong forms, encoded surrogates and code points
                    // past U+10FFFF, exactly as RFC 3629 asks.
                    match input.get(i..i + width) {
                        Some(sequence) if width > 0 && std::str::from_utf8(sequence).is_ok() => {
                            i += width
                        }
                        _ => return Err(self.fail(i, "expected valid UTF-8 in a string")),
                    }
                }
            }
        }
    }

    /// The offset just past the escape whose backslash is at `at`.
    fn escape_end(&mut self, at: usize) -> Result<usize, Stop> {
        match self.input.get(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(at + 2),
            Some(b'u') => {
                let unit = self.hex4(at + 2)?;
                match unit {
                    0xD800..=0xDBFF => {
                        let low = at + 6;
                        let paired = self.input.get(low..low + 2) == Some(b"\\u")
                            && matches!(self.hex4(low + 2), Ok(0xDC00..=0xDFFF));
                        if paired {
                            Ok(low + 6)
                        } else {
                            Err(self.fail(
                                low,
                                "expected a low surrogate \\uDC00-\\uDFFF after a high surrogate",
                            ))
                        }
                    }
                    0xDC00..=0xDFFF => Err(self.fail(
                        at,
                        "expected a high surrogate \\uD800-\\uDBFF before a low surrogate",
                    )),
                    _ => Ok(at + 6),
                }
            }
            _ => Err(self.fail(
                at + 1,
                "expected an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX",
            )),
        }
    }

    /// The value of the four hex digits at `at`.
    fn hex4(&mut self, at: usize) -> Result<u32, Stop> {
        let mut unit = 0;
        for i in at..at + 4 {
            let digit = match self.input.get(i) {
                Some(&b) => (b as char).to_digit(16),
                None => None,
            };
            match digit {
                Some(d) => unit = unit * 16 + d,
                None => return Err(self.fail(i, "expected four hex digits after \\u")),
            }
        }
        Ok(unit)
    }

    /// The offset just past the number that starts at `at` (RFC 8259 section 6).
    fn number_end(&mut self, at: usize) -> Result<usize, Stop> {
        let input = self.input;
        let digits = |mut i: usize| {
            while let Some(b'0'..=b'9') = input.get(i) {
                i += 1;
            }
            i
        };
        let mut i = at + usize::from(input[at] == b'-');
        match input.get(i) {
            Some(b'0') if matches!(input.get(i + 1), Some(b'0'..=b'9')) => {
                return Err(self.fail(i + 1, "a number must not have a leading zero"))
            }
            Some(b'0'..=b'9') => i = digits(i + 1),
            _ => return Err(self.fail(i, "expected a digit after '-'")),
        }
        if input.get(i) == Some(&b'.') {
            if !matches!(input.get(i + 1), Some(b'0'..=b'9')) {
                return Err(self.fail(i + 1, "expected a digit after the decimal point"));
            }
            i = digits(i + 1);
        }
        if let Some(b'e' | b'E') = input.get(i) {
            i += 1;
            if let Some(b'+' | b'-') = input.get(i) {
                i += 1;
            }
            if !matches!(input.get(i), Some(b'0'..=b'9')) {
                return Err(self.fail(i, "expected a digit in the exponent"));
            }
            i = digits(i);
        }
        Ok(i)
    }

    /// The offset just past `literal` (`true`, `false` or `null`) at `at`.
    fn literal_end(&mut self, at: usize, literal: &'static [u8]) -> Result<usize, Stop> {
        for (i, &want) in literal.iter().enumerate() {
            if self.input.get(at + i) != Some(&want) {
                let what = match literal {
                    b"true" => "expected the literal true",
                    b"false" => "expected the literal false",
                    _ => "expected the literal null",
                };
                return Err(self.fail(at + i, what));
            }
        }
        Ok(at + literal.len())
    }
}

/// The bytes that stand for themselves inside a string: printable ASCII but `"` and `\\`.
pub(crate) const PLAIN: [bool; 256] = {
    let mut plain = [false; 256];
    let mut byte = 0x20;
    while byte < 0x80 {
        plain[byte] = byte != b'"' as usize && byte != b'\\' as usize;
        byte += 1;
    }
    plain
};

/// The offset of the first byte from `i` on that is not [`PLAIN`], or the input's length.
///
/// Most of a string is plain ASCII, so it is read eight bytes at a time while eight remain, and
/// the last few a byte at a time.
#[inline(always)]
pub(crate) fn plain_run_end(input: &[u8], mut i: usize) -> usize {
    while let Some(word) = input.get(i..i + 8) {
        let word = <[u8; 8]>::try_from(word).unwrap_or([0; 8]);
        let flags = not_plain(u64::from_le_bytes(word));
        if flags != 0 {
            return i + (flags.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&byte) = input.get(i) {
        if !PLAIN[usize::from(byte)] {
            break;
        }
        i += 1;
    }
    i
}

/// Byte equality for short words, inline: two overlapping loads of the widest size that fits,
/// then eight bytes at a time. A call to `memcmp` per comparison was a fifth of this path's
/// time.
#[inline(always)]
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    let len = a.len();
    if len != b.len() {
        return false;
    }
    let word = |x: &[u8], at: usize| u64::from_le_bytes(x[at..at + 8].try_into().unwrap_or([0; 8]));
    let half = |x: &[u8], at: usize| u32::from_le_bytes(x[at..at + 4].try_into().unwrap_or([0; 4]));
    match len {
        0 => true,
        1..=3 => a[0] == b[0] && a[len / 2] == b[len / 2] && a[len - 1] == b[len - 1],
        4..=7 => half(a, 0) == half(b, 0) && half(a, len - 4) == half(b, len - 4),
        _ => {
            let mut i = 0;
            while i + 8 < len {
                if word(a, i) != word(b, i) {
                    return false;
                }
                i += 8;
            }
            word(a, len - 8) == word(b, len - 8)
        }
    }
}

/// The offset of the first byte from `at` on that is not JSON whitespace, or the input's length.
#[inline(always)]
pub(crate) fn skip_whitespace(input: &[u8], mut at: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = input.get(at) {
        at += 1;
    }
    at
}

/// The offset of the first `\\` in `bytes` from `i` on, or the length: eight bytes at a time,
/// since the text between escapes (source code's lines, in a call that writes a file) is long
/// and a byte-at-a-time loop was most of the time a long call took.
#[inline(always)]
pub(crate) fn backslash_from(bytes: &[u8], i: usize) -> usize {
    byte_from::<b'\\'>(bytes, i)
}

/// The high bit of each byte of `word` (little-endian) that is `BYTE`: exact for the lowest.
#[inline(always)]
pub(crate) const fn has_byte<const BYTE: u8>(word: u64) -> u64 {
    has_zero(word ^ (ONES * BYTE as u64))
}

/// The offset of the first `BYTE` in `bytes` from `i` on, or the length, eight bytes at a time.
#[inline(always)]
pub(crate) fn byte_from<const BYTE: u8>(bytes: &[u8], mut i: usize) -> usize {
    while let Some(word) = bytes.get(i..i + 8) {
        let word = u64::from_le_bytes(<[u8; 8]>::try_from(word).unwrap_or([0; 8]));
        let flags = has_byte::<BYTE>(word);
        if flags != 0 {
            return i + (flags.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&byte) = bytes.get(i) {
        if byte == BYTE {
            break;
        }
        i += 1;
    }
    i
}

/// One in each byte of a word.
const ONES: u64 = u64::from_le_bytes([1; 8]);
/// The high bit of each byte of a word.
const HIGH: u64 = ONES * 0x80;

/// The high bit of each zero byte of `x` (little-endian): exact for the lowest zero byte, since
/// the subtraction's borrow only runs upward, so it can flag a lane above a zero byte, never
/// below one.
#[inline(always)]
const fn has_zero(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGH
}

/// The high bit of each of eight string bytes (little-endian) that is not [`PLAIN`]: a control
/// character, a byte of 0x80 or more, `"` or `\\`, with the classic has-zero and has-less-than
/// tricks. Their borrows can flag a lane above a flagged one, never below: the lowest flag is
/// always the first byte that is not plain, which is all [`plain_run_end`] reads.
#[inline(always)]
pub(crate) const fn not_plain(word: u64) -> u64 {
    let below_space = word.wrapping_sub(ONES * 0x20) & !word & HIGH;
    let quote = has_zero(word ^ (ONES * b'"' as u64));
    let backslash = has_zero(word ^ (ONES * b'\\' as u64));
    below_space | word & HIGH | quote | backslash
}

// The word test agrees with the byte table on every byte value, in every lane, with plain bytes
// around it. (`tests::lowest_flag_is_exact` checks every pair of neighbouring bytes.)
const _: () = {
    let mut byte = 0;
    while byte < 256 {
        let mut lane = 0;
        while lane < 8 {
            let mut word = [b'a'; 8];
            word[lane] = byte as u8;
            let want = if PLAIN[byte] { 0 } else { 0x80 << (8 * lane) };
            assert!(not_plain(u64::from_le_bytes(word)) == want);
            lane += 1;
        }
        byte += 1;
    }
};

/// Whether the input is one RFC 8259 JSON document within the limits.
pub fn validate(input: &[u8]) -> Result<(), Error> {
    Tokenizer::new(input).finish()
}

/// Whether a string literal from a valid document (quotes included) decodes to exactly `want`.
///
/// Decodes escapes on the fly, so comparing costs no allocation. Surrogate pairs become one
/// character, as RFC 8259 section 7 says. `want` never holds a backslash (it is a field, op,
/// format or tool name).
#[inline]
pub(crate) fn string_eq(literal: &[u8], want: &str) -> bool {
    let inner = literal
        .get(1..literal.len().saturating_sub(1))
        .unwrap_or(b"");
    let want = want.as_bytes();
    // Every escape is longer than what it decodes to. So a literal no longer than `want` is
    // equal exactly when its bytes are (an inline compare against a constant), a longer one
    // without a backslash never is, and only a longer one with escapes needs decoding.
    debug_assert!(!want.contains(&b'\\'));
    if inner.len() <= want.len() {
        inner == want
    } else if !inner.contains(&b'\\') {
        false
    } else {
        escaped_eq(inner, want)
    }
}

/// Calls `each` with every character that a string literal from a valid document (quotes
/// included) decodes to, in order: how the catalog reader turns literals into text.
pub fn decode(literal: &[u8], mut each: impl FnMut(char)) {
    let inner = literal
        .get(1..literal.len().saturating_sub(1))
        .unwrap_or(b"");
    let mut i = 0;
    while i < inner.len() {
        if inner[i] == b'\\' {
            let (c, width) = decode_escape(&inner[i..]);
            each(c);
            i += width;
            continue;
        }
        // A valid document's strings are UTF-8; take the whole character.
        let width = match inner[i] {
            0x00..=0x7F => 1,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        };
        let end = (i + width).min(inner.len());
        let text = std::str::from_utf8(&inner[i..end]).unwrap_or("\u{FFFD}");
        text.chars().for_each(&mut each);
        i = end;
    }
}

/// A piece of a string literal's text: bytes that stand for themselves, or the character an
/// escape stands for.
pub(crate) enum Piece<'a> {
    Plain(&'a [u8]),
    Escaped(char),
}

/// Calls `each` with the pieces of a string literal from a valid document (quotes included), in
/// order, stopping at its first error: how decoded text is copied or written again without
/// going a character at a time.
pub(crate) fn pieces<E>(
    literal: &[u8],
    mut each: impl FnMut(Piece<'_>) -> Result<(), E>,
) -> Result<(), E> {
    let inner = literal
        .get(1..literal.len().saturating_sub(1))
        .unwrap_or(b"");
    let mut plain = 0;
    let mut i = 0;
    loop {
        i = backslash_from(inner, i);
        if i >= inner.len() {
            break;
        }
        each(Piece::Plain(&inner[plain..i]))?;
        let (c, width) = decode_escape(&inner[i..]);
        each(Piece::Escaped(c))?;
        i += width;
        plain = i;
    }
    each(Piece::Plain(&inner[plain..]))
}

/// `string_eq` for a literal with escapes: decode and compare as we go.
#[cold]
fn escaped_eq(inner: &[u8], want: &[u8]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < inner.len() {
        if inner[i] != b'\\' {
            if want.get(j) != Some(&inner[i]) {
                return false;
            }
            i += 1;
            j += 1;
            continue;
        }
        let (c, width) = decode_escape(&inner[i..]);
        let mut utf8 = [0; 4];
        let bytes = c.encode_utf8(&mut utf8).as_bytes();
        if want.get(j..j + bytes.len()) != Some(bytes) {
            return false;
        }
        i += width;
        j += bytes.len();
    }
    j == want.len()
}

/// The character an escape stands for and how many bytes it takes. `escape` starts at its
/// backslash and has been validated by the tokenizer; anything else decodes to U+FFFD.
fn decode_escape(escape: &[u8]) -> (char, usize) {
    let hex = |at: usize| {
        let digits = escape
            .get(at..at + 4)
            .and_then(|d| std::str::from_utf8(d).ok());
        digits
            .and_then(|d| u32::from_str_radix(d, 16).ok())
            .unwrap_or(0xFFFD)
    };
    let c = match escape.get(1).copied().unwrap_or(b'?') {
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let unit = hex(2);
            if (0xD800..0xDC00).contains(&unit) {
                let low = hex(8).wrapping_sub(0xDC00) & 0x3FF;
                let c = 0x10000 + ((unit - 0xD800) << 10) + low;
                return (char::from_u32(c).unwrap_or('\u{FFFD}'), 12);
            }
            return (char::from_u32(unit).unwrap_or('\u{FFFD}'), 6);
        }
        other => other as char,
    };
    (c, 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A borrow only crosses into the next lane, so every pair of neighbouring bytes, in every
    /// position, shows that the lowest flag is the first byte that is not plain.
    #[test]
    fn lowest_flag_is_exact() {
        for first in 0..=255u8 {
            for second in 0..=255u8 {
                for lane in 0..7 {
                    let mut word = [b'a'; 8];
                    word[lane] = first;
                    word[lane + 1] = second;
                    let want = word.iter().position(|&b| !PLAIN[usize::from(b)]);
                    let flags = not_plain(u64::from_le_bytes(word));
                    let got = (flags != 0).then(|| flags.trailing_zeros() as usize / 8);
                    assert_eq!(got, want, "{word:?}");
                }
            }
        }
    }

    /// Every byte, in every position of a word, before and after a backslash and in the tail
    /// read a byte at a time: the first backslash is found, never a byte that merely borrows.
    #[test]
    fn backslash_from_finds_the_first() {
        for byte in 0..=255u8 {
            for len in 0..20 {
                for at in 0..len {
                    let mut bytes = vec![byte; len];
                    bytes[at] = b'\\';
                    for start in 0..=len {
                        let want = (start..len).find(|&i| bytes[i] == b'\\').unwrap_or(len);
                        assert_eq!(backslash_from(&bytes, start), want, "{bytes:?} {start}");
                    }
                }
            }
        }
    }

    #[test]
    fn plain_run_end_reads_the_tail() {
        let input = b"abcdefghij\"klmnopqrstu";
        for start in 0..input.len() {
            let want = (start..input.len())
                .find(|&i| !PLAIN[usize::from(input[i])])
                .unwrap_or(input.len());
            assert_eq!(plain_run_end(input, start), want);
            assert_eq!(plain_run_end(&input[..start], start), start);
        }
    }
}
