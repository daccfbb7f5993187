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
use crate::sink::Buf;
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

/// No answer is longer than this many bytes, so a caller may answer into a fixed buffer of this
/// size: the longest `tool_list` response over every shape, measured when the crate is compiled.
pub const MAX_OUTPUT: usize = {
    let mut longest = 0;
    let mut format = 0;
    while format < SLOTS / TOOLS.len() {
        let mut list = 3; // "[", "]" and the newline
        let mut tool = 0;
        while tool < TOOLS.len() {
            let (start, end) = LAYOUT.spans[format * TOOLS.len() + tool];
            list += end - start; // its newline pays for the comma
            tool += 1;
        }
        if list > longest {
            longest = list;
        }
        format += 1;
    }
    longest
};
