//! Emits declarations into any `io::Write` as static byte slices, rendered at compile time.
//!
//! Everything a response can contain is known when the crate is compiled: the catalog is
//! static and so are the shapes. So the JSON writer is a `const fn` over a fixed buffer, run by
//! the compiler over every tool and shape, and the program carries the finished bytes. At run
//! time a response is one slice (a tool) or one per tool and three more (a list), written
//! straight into the caller's `io::Write`: nothing is built, escaped or sorted per request, and
//! nothing is allocated.
//!
//! The layout (each declaration's span, and the total) is measured first by `build.rs`, which
//! runs the same renderer (`wire.rs` over the counting `Buf<0>`) as ordinary code. The
//! compiler then renders once, into a buffer of exactly that size, and checks every span
//! against the measured one as it goes. Measuring in `build.rs` keeps the compiler's own
//! (interpreted, slow) evaluation to one pass, and makes the sizes literal constants, so a crate
//! that uses [`MAX_OUTPUT`] never evaluates the renderer again.

// rustc warns about, then refuses, a const evaluation that runs long, in case it never ends.
// The rendering below is bounded by the catalog's size: a large catalog makes the build slower,
// never endless (the README's performance section gives the time for 256 tools).
#![allow(long_running_const_eval)]

use crate::catalog::TOOLS;
use crate::sink::Buf;
use crate::wire::{self, slot, Format, Shape};
use std::io::{self, Write};

// `RENDERED_LEN` and `SPANS`, measured by build.rs.
include!(concat!(env!("OUT_DIR"), "/layout.rs"));

/// One tool's declaration in `shape`, without a newline: what a harness that builds its own
/// request body puts in the `tools` list. `None` when `tool` is not an index of [`TOOLS`].
#[inline]
pub fn declaration(tool: usize, shape: Shape) -> Option<&'static [u8]> {
    (tool < TOOLS.len()).then(|| {
        let answer = answer(tool, shape);
        &answer[..answer.len() - 1]
    })
}

/// The declaration of tool `tool`, a valid index, and its newline.
#[inline]
fn answer(tool: usize, shape: Shape) -> &'static [u8] {
    let (start, end) = SPANS[slot(shape, tool, TOOLS.len())];
    &RENDERED[start..end]
}

/// A whole `tool_schema` response: the declaration and its newline, in one write. `tool` is an
/// index that the catalog's lookup returned.
#[inline]
pub(crate) fn write_tool(out: &mut impl Write, tool: usize, shape: Shape) -> io::Result<()> {
    out.write_all(answer(tool, shape))
}

/// A whole `tool_list` response: every declaration in catalog order, as one JSON array on one
/// line.
#[inline]
pub(crate) fn write_list(out: &mut impl Write, shape: Shape) -> io::Result<()> {
    out.write_all(b"[")?;
    for tool in 0..TOOLS.len() {
        if tool > 0 {
            out.write_all(b",")?;
        }
        let answer = answer(tool, shape);
        out.write_all(&answer[..answer.len() - 1])?;
    }
    out.write_all(b"]\n")
}

/// Every declaration, each followed by its newline, in [`SPANS`]' order. The compiler checks
/// each span against the one `build.rs` measured, and fails the build if any differs.
const fn render<const N: usize>() -> [u8; N] {
    let mut out = Buf::<N>::new();
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
                    let (want_start, want_end) = SPANS[slot(shape, tool, TOOLS.len())];
                    assert!(start == want_start && out.len == want_end, "a span moved");
                    tool += 1;
                }
            }
            strict += 1;
        }
        f += 1;
    }
    assert!(out.len == N, "the rendering's length moved");
    out.bytes
}

static RENDERED: [u8; RENDERED_LEN] = render::<RENDERED_LEN>();

/// No answer is longer than this many bytes, so a caller may answer into a fixed buffer of this
/// size: the longest `tool_list` response over every shape, from the measured spans.
pub const MAX_OUTPUT: usize = {
    let mut longest = 0;
    let mut slot = 0;
    while slot < SPANS.len() {
        // "[" and "]"; each declaration's newline pays for its comma, the last one's for the
        // list's own newline.
        let mut list = 2;
        let mut tool = 0;
        while tool < TOOLS.len() {
            let (start, end) = SPANS[slot + tool];
            list += end - start;
            tool += 1;
        }
        if list > longest {
            longest = list;
        }
        slot += TOOLS.len();
    }
    longest
};
