//! Emits declarations into any `io::Write` as static byte slices, rendered at compile time.
//!
//! Everything a response can contain is known when the crate is compiled: the catalog is
//! static and so are the shapes. So the JSON writer is a `const fn` over a fixed buffer, run by
//! the compiler over every tool and shape, and the program carries the finished bytes. At run
//! time a response is one slice (a tool) or seven (a list), written straight into the caller's
//! `io::Write`: nothing is built, escaped or sorted per request, and nothing is allocated.
//!
//! The rendering runs twice: once into a zero-sized buffer that only counts, which gives the
//! exact size and each declaration's span, then into a buffer of exactly that size.

use crate::catalog::TOOLS;
use crate::respond::MAX_OUTPUT;
use crate::wire::{self, Format, Shape};
use std::io::{self, Write};

/// One tool's declaration in `shape`, without a newline.
///
/// # Panics
/// When `tool` is not an index of [`TOOLS`].
#[inline]
pub fn declaration(tool: usize, shape: Shape) -> &'static [u8] {
    let (start, end) = SPANS[slot(shape, tool)];
    &RENDERED[start..end - 1]
}

/// A whole `tool_schema` response: the declaration and its newline, in one write.
#[inline]
pub fn write_tool(out: &mut impl Write, tool: usize, shape: Shape) -> io::Result<()> {
    let (start, end) = SPANS[slot(shape, tool)];
    out.write_all(&RENDERED[start..end])
}

/// A whole `tool_list` response: every declaration in catalog order, as one JSON array on one
/// line.
#[inline]
pub fn write_list(out: &mut impl Write, shape: Shape) -> io::Result<()> {
    out.write_all(b"[")?;
    for tool in 0..TOOLS.len() {
        if tool > 0 {
            out.write_all(b",")?;
        }
        out.write_all(declaration(tool, shape))?;
    }
    out.write_all(b"]\n")
}

/// Where a declaration sits in [`SPANS`]: by format, then strict, then tool. Slots for strict
/// in a format without it stay empty; a [`Shape`] never names them.
#[inline]
const fn slot(shape: Shape, tool: usize) -> usize {
    ((shape.format() as usize) * 2 + shape.strict() as usize) * TOOLS.len() + tool
}

const SLOTS: usize = Format::ALL.len() * 2 * TOOLS.len();

/// Every declaration, each followed by its newline.
struct Rendered<const N: usize> {
    out: Buf<N>,
    /// `(start, end)` of each slot in `out`, newline included.
    spans: [(usize, usize); SLOTS],
}

const fn render<const N: usize>() -> Rendered<N> {
    let mut out = Buf::new();
    let mut spans = [(0, 0); SLOTS];
    let mut f = 0;
    while f < Format::ALL.len() {
        let mut strict = 0;
        while strict < 2 {
            if let Some(shape) = Shape::new(Format::ALL[f], strict == 1) {
                let mut tool = 0;
                while tool < TOOLS.len() {
                    let start = out.len;
                    wire::declaration(&mut out, &TOOLS[tool], shape);
                    out.raw(b"\n");
                    spans[slot(shape, tool)] = (start, out.len);
                    tool += 1;
                }
            }
            strict += 1;
        }
        f += 1;
    }
    Rendered { out, spans }
}

const LAYOUT: Rendered<0> = render::<0>();
static SPANS: [(usize, usize); SLOTS] = LAYOUT.spans;
static RENDERED: [u8; LAYOUT.out.len] = render::<{ LAYOUT.out.len }>().out.bytes;

// The largest response, a list, fits the buffer the CLI answers into.
const _: () = {
    let mut format = 0;
    while format < SLOTS / TOOLS.len() {
        let mut list = 3; // "[", "]" and the newline
        let mut tool = 0;
        while tool < TOOLS.len() {
            let (start, end) = LAYOUT.spans[format * TOOLS.len() + tool];
            list += end - start; // its newline pays for the comma
            tool += 1;
        }
        assert!(
            list <= MAX_OUTPUT,
            "a tool_list response exceeds MAX_OUTPUT"
        );
        format += 1;
    }
};

/// A byte sink that `const fn`s can write JSON into. Bytes past `N` are counted, not stored,
/// so `Buf<0>` measures and `Buf<exact size>` fills.
pub(crate) struct Buf<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Buf<N> {
    const fn new() -> Buf<N> {
        Buf {
            bytes: [0; N],
            len: 0,
        }
    }

    const fn byte(&mut self, byte: u8) {
        if self.len < N {
            self.bytes[self.len] = byte;
        }
        self.len += 1;
    }

    /// Bytes that are already JSON: punctuation and keys.
    pub(crate) const fn raw(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() {
            self.byte(bytes[i]);
            i += 1;
        }
    }

    pub(crate) const fn boolean(&mut self, value: bool) {
        self.raw(if value { b"true" } else { b"false" });
    }

    /// `value` as a JSON string literal: `"` and `\\` escaped, control characters as short or
    /// `\\u00XX` escapes, everything else, non-ASCII included, as it is.
    pub(crate) const fn string(&mut self, value: &str) {
        let bytes = value.as_bytes();
        self.byte(b'"');
        let mut i = 0;
        while i < bytes.len() {
            match escape(bytes[i]) {
                (_, 0) => self.byte(bytes[i]),
                (escape, len) => self.raw(escape.split_at(len).0),
            }
            i += 1;
        }
        self.byte(b'"');
    }
}

/// How `byte` is written inside a JSON string: the escape and its length, or a length of 0 when
/// the byte stands for itself. Shared by the compile-time writer and stream mode's error lines.
#[allow(clippy::just_underscores_and_digits)] // `__` reads as "nothing to do", as in the table
pub(crate) const fn escape(byte: u8) -> ([u8; 6], usize) {
    let (high, low) = (HEX[(byte >> 4) as usize], HEX[(byte & 0xF) as usize]);
    match ESCAPE[byte as usize] {
        __ => ([0; 6], 0),
        UU => ([b'\\', b'u', b'0', b'0', high, low], 6),
        short => ([b'\\', short, 0, 0, 0, 0], 2),
    }
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
