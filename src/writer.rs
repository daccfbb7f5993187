//! Emits declarations into any `io::Write` as static byte slices, rendered when the crate is
//! built.
//!
//! Everything a response can contain is known once the catalog is read: so `build.rs` renders
//! every tool in every shape once (`wire.rs`, over the model the reader made), and the program
//! carries the finished bytes and where each declaration sits. At run time a response is one
//! slice (a tool) or one per tool and three more (a list), written straight into the caller's
//! `io::Write`: nothing is built, escaped or sorted per request, and nothing is allocated.

use crate::catalog::TOOLS;
use crate::wire::{slot, Shape};
use std::io::{self, Write};

// `SPANS` and `LONGEST_LIST`, from build.rs.
include!(concat!(env!("OUT_DIR"), "/layout.rs"));

/// One tool's declaration in `shape`, without a newline: what a harness that builds its own
/// request body puts in the `tools` list. `None` when `tool` is not an index of [`TOOLS`], or
/// when the shape cannot express the tool (see [`not_expressible`]).
#[inline]
pub fn declaration(tool: usize, shape: Shape) -> Option<&'static [u8]> {
    (tool < TOOLS.len() && not_expressible(tool, shape).is_none()).then(|| {
        let answer = answer(tool, shape);
        &answer[..answer.len() - 1]
    })
}

/// Why `shape` cannot express tool `tool` (a valid index), if it cannot: a keyword the provider
/// documents no equivalent for, named with the provider's own words where it has them.
#[inline]
pub fn not_expressible(tool: usize, shape: Shape) -> Option<&'static str> {
    let (start, end, declared) = SPANS[slot(shape, tool, TOOLS.len())];
    if declared {
        return None;
    }
    std::str::from_utf8(&RENDERED[start..end]).ok()
}

/// The first tool of the catalog that `shape` cannot express, and why.
pub(crate) fn first_not_expressible(shape: Shape) -> Option<(usize, &'static str)> {
    (0..TOOLS.len()).find_map(|tool| Some((tool, not_expressible(tool, shape)?)))
}

/// The declaration of tool `tool`, a valid index, and its newline.
#[inline]
fn answer(tool: usize, shape: Shape) -> &'static [u8] {
    let (start, end, _) = SPANS[slot(shape, tool, TOOLS.len())];
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

/// Every declaration, each followed by its newline, in [`SPANS`]' order: rendered by
/// `build.rs` with `wire.rs`.
static RENDERED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/rendered.bin"));

/// No answer is longer than this many bytes, so a caller may answer into a fixed buffer of this
/// size: the longest `tool_list` response over every shape, from the measured spans.
pub const MAX_OUTPUT: usize = LONGEST_LIST;

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables `build.rs` wrote as Rust literals are the model it rendered: rendering them
    /// again gives every byte and every span that the program carries.
    #[test]
    fn the_compiled_in_model_renders_the_bytes_the_program_carries() {
        let rendered = crate::wire::render(crate::catalog::MODEL);
        assert!(rendered.bytes == RENDERED, "the rendering differs");
        assert_eq!(rendered.spans, SPANS);
    }
}
