//! Where a catalog's rendered answers sit: each one a run of pieces of one byte buffer.
//!
//! A catalog is rendered in eight shapes, and most of each declaration repeats another's: the
//! descriptions, and every stretch of a schema that two providers' rules write alike. Kept
//! whole, a catalog read at run time would hold eight copies of its text. So a run-time
//! catalog keeps each answer as pieces: a piece that is already in the buffer (or that goes on
//! where the answer's last piece stopped) is not stored again, and an answer becomes a short
//! run of `(start, end)` pieces that the writer copies out one after another. What is new is
//! appended, so pieces that follow each other in the buffer merge into one.
//!
//! The compiled-in catalog keeps every answer whole, one piece each (`Layout::whole`): the
//! program carries its bytes once anyway, and `writer::declaration` hands out one slice.
//!
//! The splitting knows one thing of JSON: a string literal (`"` to the next unescaped `"`). A
//! string of at least [`SHARED_STRING`] bytes is a piece of its own, so a description is shared
//! wherever it appears; the bytes between such strings are a piece too. A declaration's
//! parameters (the argument schema, which every shape under the same rules writes alike) are
//! split apart from the wrapper around them, so that no shape's wrapper keeps them from being
//! shared (`Layout::add_declaration`).

use crate::schema::{OwnedModel, Text};
use crate::tokenizer::{byte_from, has_byte};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The shortest string literal, quotes included, that is a piece of its own. Shorter strings
/// (most names, types and enum values) stay inside the piece around them: splitting them out
/// costs a piece reference (8 bytes) and a copy per answer, for little text shared.
pub(crate) const SHARED_STRING: usize = 24;

/// The shortest run of structure that is cut off before an object (`{`) or the next member or
/// element (`,`) to stand as a part of its own. Two shapes' schemas differ in a few members
/// (strict mode's `"additionalProperties":false` and `required`, a `default` left out), and a
/// part that holds one of them is stored again whole: cut finer, the rest is shared. Cutting
/// before a `,` too, after 8 bytes, with [`MIN_SHARED`] at 20, keeps pydantic's catalog written
/// compactly in 51.9 KB where cutting before a `{` after 32 bytes kept 58.5 KB (GitHub's MCP
/// server's, 213.9 against 229.6; zod's, 40.6 against 44.1), for twice the pieces of pydantic's
/// answers (1,190 against 610) and fewer of the default catalog's (119 against 129).
pub(crate) const SHARED_STRUCTURE: usize = 8;

/// The shortest part that is shared with an earlier answer rather than stored again, when the
/// answer's last piece ends the buffer: shorter, its bytes cost less than the piece a reference
/// to them takes (6 bytes, and a copy per request), and stored again they extend that piece.
/// With parts cut as finely as [`SHARED_STRUCTURE`] cuts them, 20 kept least over GitHub's MCP
/// server's catalog and the framework catalogs (16 kept 14% more of GitHub's, 24 and 32 more
/// of the framework catalogs').
pub(crate) const MIN_SHARED: usize = 20;

/// A run of a layout's bytes, in six bytes where a `(u32, u32)` took eight: a catalog's
/// answers are many pieces (610 for pydantic's catalog, 6,324 for GitHub's MCP server's). A
/// run longer than [`Piece::MAX_LEN`] is several pieces, one after another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Piece {
    /// The start's low and high halves: a `u32` would align the piece to four bytes, eight in all.
    start: [u16; 2],
    len: u16,
}

impl Piece {
    /// The longest piece.
    pub(crate) const MAX_LEN: u32 = u16::MAX as u32;

    /// The piece of `len` bytes from `start`.
    pub(crate) const fn new(start: u32, len: u16) -> Piece {
        Piece {
            start: [start as u16, (start >> 16) as u16],
            len,
        }
    }

    /// Where it starts.
    #[inline(always)]
    pub(crate) const fn start(self) -> u32 {
        self.start[0] as u32 | (self.start[1] as u32) << 16
    }

    /// Where it ends.
    #[inline(always)]
    pub(crate) const fn end(self) -> u32 {
        self.start() + self.len as u32
    }

    /// Its bytes, in the layout's `bytes`.
    #[inline(always)]
    pub(crate) fn of(self, bytes: &[u8]) -> &[u8] {
        &bytes[self.start() as usize..self.end() as usize]
    }
}

/// The answers of one catalog, as the renderer lays them out.
pub(crate) struct Layout {
    /// Whether answers are split into pieces that are shared, or kept whole.
    share: bool,
    /// Every piece's bytes.
    pub(crate) bytes: Vec<u8>,
    /// Each piece of `bytes`; an answer is a run of them.
    pub(crate) pieces: Vec<Piece>,
    /// Where each piece stored so far sits, by a hash of its bytes.
    seen: HashMap<u64, (u32, u32), BuildHasherDefault<Passed>>,
    /// The runs of `bytes` that declarations' parameters are, in [`Laid`] stretches.
    laid: Vec<(u32, u32)>,
}

/// Which of a layout's runs one declaration's parameters are, for the next shape that writes
/// them ([`Layout::add_declaration`]); empty before the first.
#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct Laid(u32, u32);

impl Layout {
    /// Every answer kept whole, one piece each: the compiled-in catalog's layout.
    #[cfg_attr(not(test), allow(dead_code))] // build.rs's
    pub(crate) fn whole() -> Layout {
        Layout::new(false)
    }

    /// Answers split into pieces that are stored once: a run-time catalog's layout. `expected`
    /// is about how many bytes will be stored (the catalog file's size is near), so that the
    /// buffer and the table seldom grow.
    pub(crate) fn shared(expected: usize) -> Layout {
        let mut layout = Layout::new(true);
        layout.bytes.reserve(expected);
        layout.seen.reserve(expected / 64);
        layout
    }

    fn new(share: bool) -> Layout {
        Layout {
            share,
            bytes: Vec::new(),
            pieces: Vec::new(),
            seen: HashMap::default(),
            laid: Vec::new(),
        }
    }

    /// Stores one answer; returns the run of pieces it is. A `reason` (why a shape cannot
    /// express a tool) is kept whole, so that an error can borrow it as one `str`.
    pub(crate) fn add(&mut self, answer: &[u8], reason: bool) -> (u32, u32) {
        let first = self.pieces.len() as u32;
        if !self.share || reason {
            let start = self.bytes.len() as u32;
            self.bytes.extend_from_slice(answer);
            self.push(start, self.bytes.len() as u32);
        } else {
            split(answer, |part| {
                self.part(part, first);
            });
        }
        (first, self.pieces.len() as u32)
    }

    /// Stores one declaration, whose `parameters` (the tool's argument schema, where the shape
    /// writes one) are split apart from the wrapper around them: every shape that writes the
    /// same parameters then shares all of them, wherever its own wrapper ends the piece before
    /// or after. Without this cut, a wrapper's last bytes (`,"strict":true}` or
    /// `},"type":"function"}`) made the schema's last piece new in every shape: 49 KB of
    /// GitHub's MCP server's catalog.
    ///
    /// `laid` is where these same parameters went when an earlier shape wrote them: empty the
    /// first time, when they are split and it is set, and taken as it is after that. Three
    /// of a tool's eight shapes write parameters a shape before them wrote (Responses' and
    /// Anthropic's non-strict ones Chat's, Responses' strict one Chat's), and splitting and
    /// hashing them again was a sixth of laying out GitHub's MCP server's catalog.
    pub(crate) fn add_declaration(
        &mut self,
        answer: &[u8],
        parameters: Option<std::ops::Range<usize>>,
        laid: &mut Laid,
    ) -> (u32, u32) {
        let Some(parameters) = parameters.filter(|_| self.share) else {
            return self.add(answer, false);
        };
        let first = self.pieces.len() as u32;
        split(&answer[..parameters.start], |part| {
            self.part(part, first);
        });
        if laid.0 == laid.1 {
            let ranges_at = self.laid.len() as u32;
            split(&answer[parameters.clone()], |part| {
                let (start, end) = self.part(part, first);
                let ours = self.laid.len() as u32 > ranges_at;
                match self.laid.last_mut() {
                    Some(last) if ours && last.1 == start => last.1 = end,
                    _ => self.laid.push((start, end)),
                }
            });
            *laid = Laid(ranges_at, self.laid.len() as u32);
        } else {
            let ranges = laid.0 as usize..laid.1 as usize;
            debug_assert!(self.laid[ranges.clone()]
                .iter()
                .flat_map(|&(start, end)| &self.bytes[start as usize..end as usize])
                .eq(&answer[parameters.clone()]));
            for at in ranges {
                let (start, end) = self.laid[at];
                self.join(start, end, first);
            }
        }
        split(&answer[parameters.end..], |part| {
            self.part(part, first);
        });
        (first, self.pieces.len() as u32)
    }

    /// One part of an answer whose pieces start at `first`; returns where its bytes are.
    fn part(&mut self, part: &[u8], first: u32) -> (u32, u32) {
        let len = part.len() as u32;
        let last = (self.pieces.len() as u32 > first)
            .then(|| self.pieces[self.pieces.len() - 1])
            .map(|piece| (piece.start(), piece.end()));
        // What the last piece is followed by in the buffer, when it is this part: the piece
        // grows, and the answer stays one run.
        if let Some((_, end)) = last {
            let next = end as usize..(end + len) as usize;
            if self.bytes.get(next) == Some(part) {
                self.extend_last(end + len);
                return (end, end + len);
            }
        }
        let hash = hash(part);
        // A short part goes on where the last piece ends the buffer, rather than be shared.
        let at_end = last.is_some_and(|(_, end)| end as usize == self.bytes.len());
        let found = self
            .seen
            .get(&hash)
            .copied()
            .filter(|_| !(at_end && part.len() < MIN_SHARED))
            .filter(|&(start, end)| &self.bytes[start as usize..end as usize] == part);
        let (start, end) = found.unwrap_or_else(|| {
            let start = self.bytes.len() as u32;
            self.bytes.extend_from_slice(part);
            // A different part with the same hash keeps the first: this one is only not shared.
            self.seen.entry(hash).or_insert((start, start + len));
            (start, start + len)
        });
        self.join(start, end, first);
        (start, end)
    }

    /// Adds `bytes[start..end]` to the answer whose pieces start at `first`: the last piece
    /// grows where it ends at `start`, else a new piece.
    fn join(&mut self, start: u32, end: u32, first: u32) {
        match self.pieces.last() {
            Some(last) if self.pieces.len() as u32 > first && last.end() == start => {
                self.extend_last(end)
            }
            _ => self.push(start, end),
        }
    }

    /// Adds `bytes[start..end]` as pieces: one, or several where it is longer than a piece.
    fn push(&mut self, mut start: u32, end: u32) {
        while end - start > Piece::MAX_LEN {
            self.pieces.push(Piece::new(start, Piece::MAX_LEN as u16));
            start += Piece::MAX_LEN;
        }
        self.pieces.push(Piece::new(start, (end - start) as u16));
    }

    /// Makes the last piece end at `end`, which is at or after where it ends.
    fn extend_last(&mut self, end: u32) {
        if let Some(last) = self.pieces.pop() {
            self.push(last.start(), end);
        }
    }

    /// Hands back what was kept, with no spare capacity.
    pub(crate) fn finish(mut self) -> (Vec<u8>, Vec<Piece>) {
        self.bytes.shrink_to_fit();
        self.pieces.shrink_to_fit();
        (self.bytes, self.pieces)
    }
}

/// The strings of a catalog's laid-out answers, and those added after them, by their text: so
/// that the model a run-time catalog keeps beside its answers borrows its strings from them
/// (`OwnedModel::for_checking`) rather than holding them twice. GitHub's MCP server's catalog
/// kept 38 KB of strings, most of them descriptions and property names its answers hold.
pub(crate) struct Strings {
    /// Where each string starts, and its length, by a hash of its bytes.
    starts: HashMap<u64, (u32, u32), BuildHasherDefault<Passed>>,
}

impl Strings {
    /// Every string literal without an escape in `answers`, the first of each text. The
    /// buffer also holds reasons (plain text), whose quotes may pair up wrongly: a place found
    /// is only where to look, and [`Strings::intern`] compares.
    pub(crate) fn of(answers: &[u8]) -> Strings {
        let mut starts = HashMap::default();
        starts.reserve(answers.len() / 16);
        let mut at = 0;
        loop {
            let open = byte_from::<b'"'>(answers, at);
            // The first quote or backslash: a quote closes a literal without escapes.
            let first = quote_or_backslash_from(answers, open + 1);
            let close = match answers.get(first) {
                Some(b'"') => first,
                _ => closing_quote(answers, open),
            };
            if close >= answers.len() {
                break;
            }
            if close == first {
                let literal = &answers[open + 1..close];
                let place = (open as u32 + 1, literal.len() as u32);
                starts.entry(hash(literal)).or_insert(place);
            }
            at = close + 1;
        }
        Strings { starts }
    }

    /// Where `wanted` is in `text`: where the answers (the start of `text`) or an earlier call
    /// put it, else at the end, added.
    pub(crate) fn intern(&mut self, text: &mut String, wanted: &str) -> Text {
        let len = wanted.len() as u32;
        let hash = hash(wanted.as_bytes());
        // The same length and bytes: two different strings never share a start, so a
        // pattern's start names one pattern (`verdict::matches`).
        if let Some(&(start, found)) = self.starts.get(&hash) {
            let place = start as usize..(start + found) as usize;
            if found == len && text.as_bytes().get(place) == Some(wanted.as_bytes()) {
                return Text { start, len };
            }
        }
        let added = OwnedModel::push_text(text, wanted);
        self.starts.entry(hash).or_insert((added.start, len));
        added
    }
}

/// Calls `each` with the parts of `answer`, in order: every string literal of at least
/// [`SHARED_STRING`] bytes, and the runs between them, each cut again before a `{` or a `,`
/// outside a string where at least [`SHARED_STRUCTURE`] bytes come before it.
///
/// The cuts let two shapes share a subschema, or the rest of an object's members, that they
/// write alike even when what comes before differs (strict mode's
/// `"additionalProperties":false` before an object's `properties`, a shape's own wrapper).
/// Parts that follow each other in the buffer merge again into one piece where answers agree.
fn split(answer: &[u8], mut each: impl FnMut(&[u8])) {
    let mut run = 0;
    let mut at = 0;
    // One pass: structure a byte at a time (it is short between strings), strings skipped to
    // their end eight bytes at a time.
    while let Some(&byte) = answer.get(at) {
        match byte {
            b'"' => {
                let end = (closing_quote(answer, at) + 1).min(answer.len());
                if end - at >= SHARED_STRING {
                    if at > run {
                        each(&answer[run..at]);
                    }
                    each(&answer[at..end]);
                    run = end;
                }
                at = end;
            }
            b'{' | b',' if at >= run + SHARED_STRUCTURE => {
                each(&answer[run..at]);
                run = at;
                at += 1;
            }
            _ => at += 1,
        }
    }
    if run < answer.len() {
        each(&answer[run..]);
    }
}

/// Where the string literal whose `"` is at `open` ends: the first `"` after it that no `\\`
/// escapes (each backslash takes the byte after it), or the length when none does.
fn closing_quote(bytes: &[u8], open: usize) -> usize {
    let mut at = open + 1;
    loop {
        at = quote_or_backslash_from(bytes, at);
        match bytes.get(at) {
            Some(b'"') => return at,
            Some(_) => at += 2,
            None => return bytes.len(),
        }
    }
}

/// The offset of the first `"` or `\\` from `i` on, or the length: eight bytes at a time,
/// each the lowest of the two words' flags (exact, as in `tokenizer::byte_from`).
fn quote_or_backslash_from(bytes: &[u8], mut i: usize) -> usize {
    while let Some(word) = bytes.get(i..i + 8) {
        let word = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        let flags = has_byte::<b'"'>(word) | has_byte::<b'\\'>(word);
        if flags != 0 {
            return i + (flags.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&byte) = bytes.get(i) {
        if matches!(byte, b'"' | b'\\') {
            break;
        }
        i += 1;
    }
    i
}

/// A hash of a part's bytes, eight at a time: the multiply-and-rotate of rustc's `FxHasher`.
fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let mix = |hash: u64, word: u64| (hash.rotate_left(5) ^ word).wrapping_mul(K);
    let mut words = bytes.chunks_exact(8);
    let mut hash = bytes.len() as u64;
    for word in &mut words {
        hash = mix(hash, u64::from_le_bytes(word.try_into().unwrap_or([0; 8])));
    }
    let mut tail = [0; 8];
    tail[..words.remainder().len()].copy_from_slice(words.remainder());
    // A product's low bits depend only on its factors' low bits, and the table picks its
    // bucket by the low bits: fold the high half in.
    let hash = mix(hash, u64::from_le_bytes(tail));
    hash ^ (hash >> 32)
}

/// A hasher for keys that are hashes already: it passes the `u64` through.
#[derive(Default)]
struct Passed(u64);

impl Hasher for Passed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 << 8) | u64::from(byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(layout: &Layout, run: (u32, u32)) -> Vec<u8> {
        layout.pieces[run.0 as usize..run.1 as usize]
            .iter()
            .flat_map(|piece| piece.of(&layout.bytes).to_vec())
            .collect()
    }

    #[test]
    fn shared_answers_read_back_as_they_were_given() {
        let description = r#""a description long enough to be shared""#;
        let answers = [
            format!(r#"{{"function":{{"description":{description},"name":"a"}}}}"#),
            format!(r#"{{"description":{description},"name":"a","x":"\"quoted\" text, escaped"}}"#),
            format!(r#"{{"description":{description},"name":"a"}}"#),
            String::from(r#"unclosed "string"#),
        ];
        let mut layout = Layout::shared(0);
        let runs: Vec<_> = answers
            .iter()
            .map(|text| layout.add(text.as_bytes(), false))
            .collect();
        for (text, &run) in answers.iter().zip(&runs) {
            assert_eq!(answer(&layout, run), text.as_bytes());
        }
        // The description is stored once, and the third answer is a run of the first's bytes.
        let total: usize = answers.iter().map(String::len).sum();
        assert!(layout.bytes.len() < total - 2 * description.len());
        assert_eq!(runs[2].1 - runs[2].0, 1, "{:?}", layout.pieces);
    }

    #[test]
    fn members_after_one_that_differs_are_shared() {
        let rest = r#","properties":{"a":{"type":"string"}},"type":"object"}"#;
        let answers = [
            format!(r#"{{"additionalProperties":false{rest}"#),
            format!(r#"{{"additionalProperties":true{rest}"#),
        ];
        let mut layout = Layout::shared(0);
        let mut stored = vec![];
        for text in &answers {
            let run = layout.add(text.as_bytes(), false);
            assert_eq!(answer(&layout, run), text.as_bytes());
            stored.push(layout.bytes.len());
        }
        // The member that differs is stored, and `,"properties":` after it (shorter than
        // MIN_SHARED, where the answer's piece ends the buffer); the rest is the first's.
        let new = r#"{"additionalProperties":true,"properties":"#;
        assert_eq!(stored[1] - stored[0], new.len(), "{:?}", layout.pieces);
        // Structure is cut before a `,` or `{` with SHARED_STRUCTURE bytes before it, not less.
        let parts = |answer: &[u8]| {
            let mut parts: Vec<Vec<u8>> = vec![];
            split(answer, |part| parts.push(part.to_vec()));
            parts
        };
        assert_eq!(parts(br#"{"b":1,"c":2}"#), [br#"{"b":1,"c":2}"#]);
        assert_eq!(
            parts(br#"{"bb":11,"c":2}"#),
            [&br#"{"bb":11"#[..], br#","c":2}"#]
        );
    }

    #[test]
    fn parameters_are_shared_whatever_the_wrapper_around_them() {
        // Without the cut, the parameters' last bytes run on into each wrapper's own ending.
        let parameters = r#"{"properties":{"a":{"type":"string"}},"required":["a"]}"#;
        let wrappers = [
            (
                r#"{"function":{"name":"t","parameters":"#,
                r#","strict":true},"type":"function"}"#,
            ),
            (
                r#"{"name":"t","parameters":"#,
                r#","strict":true,"type":"function"}"#,
            ),
        ];
        for cut in [false, true] {
            let mut layout = Layout::shared(0);
            let mut stored = vec![];
            for (before, after) in wrappers {
                let text = format!("{before}{parameters}{after}");
                let at = before.len()..before.len() + parameters.len();
                let run = layout.add_declaration(
                    text.as_bytes(),
                    cut.then_some(at),
                    &mut Laid::default(),
                );
                assert_eq!(answer(&layout, run), text.as_bytes());
                stored.push(layout.bytes.len());
            }
            let wrapper = wrappers[1].0.len() + wrappers[1].1.len();
            // With the cut, none of the parameters is stored again.
            if cut {
                assert!(stored[1] - stored[0] <= wrapper, "parameters shared");
            }
        }
        let mut whole = Layout::whole();
        assert_eq!(
            whole.add_declaration(b"{\"parameters\":{}}", Some(14..16), &mut Laid::default()),
            (0, 1)
        );
    }

    #[test]
    fn parameters_laid_out_once_are_taken_again_as_they_were() {
        let parameters = r#"{"properties":{"path":{"description":"the file to read, from the root","type":"string"}},"required":["path"],"type":"object"}"#;
        let declarations = [
            (
                r#"{"function":{"name":"read","parameters":"#,
                r#"},"type":"function"}"#,
            ),
            (
                r#"{"description":"another tool, between","name":"x","#,
                r#"}"#,
            ),
            (r#"{"name":"read","parameters":"#, r#","strict":false}"#),
            (r#"{"name":"read","input_schema":"#, r#"}"#),
        ];
        let mut layout = Layout::shared(0);
        let mut laid = Laid::default();
        for (i, (before, after)) in declarations.into_iter().enumerate() {
            let text = format!("{before}{parameters}{after}");
            let at = before.len()..before.len() + parameters.len();
            let stored = layout.bytes.len();
            // The second declaration writes other parameters: its own `laid`.
            let run = if i == 1 {
                layout.add_declaration(text.as_bytes(), Some(at), &mut Laid::default())
            } else {
                layout.add_declaration(text.as_bytes(), Some(at), &mut laid)
            };
            assert_eq!(answer(&layout, run), text.as_bytes());
            let joined: Vec<u8> = layout.laid[laid.0 as usize..laid.1 as usize]
                .iter()
                .flat_map(|&(start, end)| layout.bytes[start as usize..end as usize].to_vec())
                .collect();
            assert_eq!(joined, parameters.as_bytes(), "where the parameters are");
            if i > 1 {
                assert!(
                    layout.bytes.len() - stored <= before.len() + after.len(),
                    "none of the parameters stored again"
                );
            }
        }
    }

    #[test]
    fn a_short_part_after_new_bytes_is_stored_again() {
        let (one, two) = (
            r#""the first string, long enough to share""#,
            r#""a second string, long enough to share""#,
        );
        let mut layout = Layout::shared(0);
        let first = format!(r#"{{"a":{one},"b":{one}}}"#);
        layout.add(first.as_bytes(), false);
        // `{"a":` is shared (nothing stored before it in this answer), the new string is
        // appended, and `}` after it is appended too rather than shared: two pieces, not three.
        let second = format!(r#"{{"a":{two}}}"#);
        let before = layout.bytes.len();
        let run = layout.add(second.as_bytes(), false);
        assert_eq!(answer(&layout, run), second.as_bytes());
        assert_eq!(run.1 - run.0, 2, "{:?}", layout.pieces);
        assert_eq!(layout.bytes.len() - before, two.len() + 1);
    }

    #[test]
    fn whole_answers_and_reasons_are_one_piece() {
        let mut whole = Layout::whole();
        let mut shared = Layout::shared(0);
        let text = br#"{"description":"a description long enough to be shared"}"#;
        assert_eq!(whole.add(text, false), (0, 1));
        assert_eq!(shared.add(text, true), (0, 1));
        assert_eq!(shared.add(text, true), (1, 2));
    }

    #[test]
    fn a_string_the_answers_hold_whole_is_found_there_and_others_added_once() {
        let answers = r#"{"description":"Reads a file.","name":"read_\"quoted\"","x":"a"}"#;
        let mut text = answers.to_string();
        let mut strings = Strings::of(answers.as_bytes());
        let found = strings.intern(&mut text, "Reads a file.");
        assert_eq!((found.start, found.len), (16, 13));
        assert_eq!(strings.intern(&mut text, "name").start, 32);
        assert_eq!(text, answers, "nothing added for strings the answers hold");
        // Held only escaped, or only in part: added at the end, once.
        for wanted in ["read_\"quoted\"", "Reads", "quoted"] {
            let added = strings.intern(&mut text, wanted);
            assert_eq!(added.start as usize, text.len() - wanted.len());
            assert_eq!(&text[added.start as usize..][..wanted.len()], wanted);
            assert_eq!(strings.intern(&mut text, wanted), added);
        }
        assert_eq!(text.len(), answers.len() + 13 + 5 + 6);
        // A longer string found under the same hash (a collision, made here by hand) is not it.
        let mut strings = Strings::of(answers.as_bytes());
        strings.starts.insert(hash(b"Reads a"), (16, 13));
        let mut text = answers.to_string();
        assert_eq!(
            strings.intern(&mut text, "Reads a").start as usize,
            answers.len()
        );
    }

    #[test]
    fn a_run_longer_than_a_piece_is_several_in_a_row() {
        let long = vec![b'a'; 2 * Piece::MAX_LEN as usize + 7];
        for mut layout in [Layout::whole(), Layout::shared(0)] {
            layout.add(b"{}", false);
            let run = layout.add(&long, false);
            assert_eq!(run.1 - run.0, 3);
            assert_eq!(answer(&layout, run), long);
            // Grown past a piece's length, the last piece becomes two.
            let mut longer = long.clone();
            longer.extend_from_slice(&long);
            let run = layout.add(&longer, false);
            assert_eq!(answer(&layout, run), longer);
            assert!(layout.pieces[run.0 as usize..run.1 as usize]
                .iter()
                .all(|piece| piece.end() - piece.start() <= Piece::MAX_LEN));
        }
    }

    /// The split as it was first written, two passes with the backslashes before each quote
    /// counted backwards: what the one-pass [`split`] must agree with.
    fn split_by_counting(answer: &[u8]) -> Vec<Vec<u8>> {
        let close_of = |open: usize| {
            let mut close = open + 1;
            loop {
                match answer[close.min(answer.len())..]
                    .iter()
                    .position(|&b| b == b'"')
                {
                    None => return answer.len(),
                    Some(offset) => close += offset,
                }
                let backslashes = answer[open + 1..close]
                    .iter()
                    .rev()
                    .take_while(|&&byte| byte == b'\\')
                    .count();
                if backslashes % 2 == 0 {
                    return close;
                }
                close += 1;
            }
        };
        let (mut parts, mut run, mut at) = (vec![], 0, 0);
        loop {
            let open = answer[at..]
                .iter()
                .position(|&b| b == b'"')
                .map_or(answer.len(), |offset| at + offset);
            for cut in at..open {
                if matches!(answer[cut], b'{' | b',') && cut >= run + SHARED_STRUCTURE {
                    parts.push(answer[run..cut].to_vec());
                    run = cut;
                }
            }
            if open >= answer.len() {
                break;
            }
            let end = (close_of(open) + 1).min(answer.len());
            if end - open >= SHARED_STRING {
                if open > run {
                    parts.push(answer[run..open].to_vec());
                }
                parts.push(answer[open..end].to_vec());
                run = end;
            }
            at = end;
        }
        if run < answer.len() {
            parts.push(answer[run..].to_vec());
        }
        parts
    }

    #[test]
    fn one_pass_splits_as_counting_backslashes_did() {
        // Every answer of up to seven bytes over the bytes that matter, then longer ones with
        // long strings and escapes at every offset of a word.
        let alphabet = [b'"', b'\\', b'{', b',', b'a'];
        let mut answers: Vec<Vec<u8>> = vec![vec![]];
        let mut last = vec![vec![]];
        for _ in 0..7 {
            last = last
                .iter()
                .flat_map(|answer: &Vec<u8>| {
                    alphabet
                        .iter()
                        .map(move |&byte| [&answer[..], &[byte]].concat())
                })
                .collect();
            answers.extend(last.iter().cloned());
        }
        for offset in 0..24 {
            let filler = "x".repeat(offset);
            for inside in [r#"\""#, r#"\\"#, r#"\\\""#, "é", "\\u00e9"] {
                answers.push(
                    format!(r#"{{"description":"{filler}{inside}{filler} and more words","a":{{"b":1,"c":[1,2]}}}}"#)
                        .into_bytes(),
                );
            }
        }
        for answer in &answers {
            let mut parts = vec![];
            split(answer, |part| parts.push(part.to_vec()));
            assert_eq!(
                parts,
                split_by_counting(answer),
                "{:?}",
                String::from_utf8_lossy(answer)
            );
        }
    }

    #[test]
    fn a_literal_ends_at_the_first_quote_after_an_even_number_of_backslashes() {
        // Each case: the bytes, from an opening quote at 0, and where the literal closes.
        let cases: [(&[u8], usize); 6] = [
            (br#""plain","#, 6),
            (br#""a\"b","#, 5),
            (br#""a\\"b""#, 4),
            (br#""a\\\"b","#, 7),
            (br#""\\\\""#, 5),
            (br#""never closed\""#, 15),
        ];
        for (bytes, close) in cases {
            assert_eq!(
                closing_quote(bytes, 0),
                close,
                "{:?}",
                String::from_utf8_lossy(bytes)
            );
        }
        // Both readers of the layout agree: the escaped literal is one part, and is not a
        // string the answers hold whole.
        let answer = br#"{"description":"say \"yes\" or \"no\" and nothing else","x":1}"#;
        let mut parts = Vec::new();
        split(answer, |part| parts.push(part.to_vec()));
        assert!(parts.contains(&br#""say \"yes\" or \"no\" and nothing else""#.to_vec()));
        let mut strings = Strings::of(answer);
        let mut text = String::from_utf8(answer.to_vec()).unwrap();
        assert_eq!(strings.intern(&mut text, "description").start, 2);
        assert_eq!(strings.intern(&mut text, "no").start as usize, answer.len());
    }
}
