//! Emits declarations into any `io::Write` as byte slices, rendered when the catalog was read.
//!
//! Everything a response can contain is known once the catalog is read: so `build.rs` renders
//! every tool in every shape once (`wire.rs`, over the model the reader made), and the program
//! carries the finished bytes and where each declaration sits. At run time a response is one
//! slice (a tool) or one per tool and three more (a list), written straight into the caller's
//! `io::Write`: nothing is built, escaped or sorted per request, and nothing is allocated. A
//! catalog read at run time is rendered when it is read, and its answers are a few slices each,
//! shared between its shapes (`layout.rs`).

use crate::catalog::{Names, TOOLS};
use crate::layout::Piece;
use crate::wire::{slot, Shape, REASON};
use std::fmt::Write as _;
use std::io::{self, Write};

// `PIECES`, `SPANS` and `LONGEST_LIST`, from build.rs.
include!(concat!(env!("OUT_DIR"), "/layout.rs"));

/// One tool's declaration in `shape`, without a newline: what a harness that builds its own
/// request body puts in the `tools` list. `None` when `tool` is not an index of [`TOOLS`], or
/// when the shape cannot express the tool (see [`not_expressible`]).
#[inline]
pub fn declaration(tool: usize, shape: Shape) -> Option<&'static [u8]> {
    COMPILED.declaration(tool, shape)
}

/// Why `shape` cannot express tool `tool` (a valid index), if it cannot: a keyword the provider
/// documents no equivalent for, named with the provider's own words where it has them.
#[inline]
pub fn not_expressible(tool: usize, shape: Shape) -> Option<&'static str> {
    COMPILED.not_expressible(tool, shape)
}

/// The compiled-in catalog's declarations: each one whole, one piece.
pub(crate) const COMPILED: Declarations<'static> = Declarations {
    bytes: RENDERED,
    pieces: &PIECES,
    spans: &SPANS,
    tools: TOOLS.len(),
};

/// A catalog's declarations, rendered once, and where each sits: the compiled-in catalog's
/// ([`COMPILED`]), each one slice, or one read at run time, each a few slices that other
/// shapes share (see `layout.rs`).
#[derive(Clone, Copy)]
pub(crate) struct Declarations<'a> {
    /// The bytes of every answer.
    pub(crate) bytes: &'a [u8],
    /// Runs of `bytes`, each answer one or more in a row.
    pub(crate) pieces: &'a [Piece],
    /// Where each declaration's run of pieces (its newline at the end of the last) starts, in
    /// [`slot`] order, with [`REASON`] set when the one piece is why it cannot be; the next
    /// entry is where it ends (`wire::Rendered::spans`).
    pub(crate) spans: &'a [u32],
    /// How many tools.
    pub(crate) tools: usize,
}

impl<'a> Declarations<'a> {
    /// [`declaration`], for a catalog whose declarations are whole (one piece each, as the
    /// compiled-in catalog's are); `None` for one in pieces.
    #[inline]
    pub(crate) fn declaration(self, tool: usize, shape: Shape) -> Option<&'a [u8]> {
        if tool >= self.tools || self.not_expressible(tool, shape).is_some() {
            return None;
        }
        let (start, end) = self.whole(self.answer(tool, shape))?;
        Some(&self.bytes[start as usize..end as usize - 1])
    }

    /// Where `pieces` start and end, when each starts where the one before ends (a whole
    /// answer longer than a piece is several).
    #[inline]
    fn whole(self, pieces: &[Piece]) -> Option<(u32, u32)> {
        let (first, last) = (pieces.first()?, pieces.last()?);
        let contiguous = pieces.windows(2).all(|two| two[0].end() == two[1].start());
        contiguous.then(|| (first.start(), last.end()))
    }

    /// [`not_expressible`], for this catalog.
    #[inline]
    pub(crate) fn not_expressible(self, tool: usize, shape: Shape) -> Option<&'a str> {
        let first = self.spans[slot(shape, tool, self.tools)];
        if first & REASON == 0 {
            return None;
        }
        let (start, end) = self.whole(self.answer(tool, shape))?;
        std::str::from_utf8(&self.bytes[start as usize..end as usize]).ok()
    }

    /// The first tool of the catalog that `shape` cannot express, and why.
    pub(crate) fn first_not_expressible(self, shape: Shape) -> Option<(usize, &'a str)> {
        (0..self.tools).find_map(|tool| Some((tool, self.not_expressible(tool, shape)?)))
    }

    /// The pieces of the declaration of tool `tool`, a valid index, and its newline.
    #[inline]
    fn answer(self, tool: usize, shape: Shape) -> &'a [Piece] {
        let slot = slot(shape, tool, self.tools);
        let (first, end) = (self.spans[slot] & !REASON, self.spans[slot + 1] & !REASON);
        &self.pieces[first as usize..end as usize]
    }

    /// Writes pieces, the last without its last `cut` bytes.
    #[inline]
    fn write(self, out: &mut impl Write, pieces: &[Piece], cut: u32) -> io::Result<()> {
        match pieces {
            // A compiled-in catalog's answer, and the first shape's of a run-time one.
            [one] => out.write_all(&self.bytes[one.start() as usize..(one.end() - cut) as usize]),
            [before @ .., last] => {
                for each in before {
                    out.write_all(each.of(self.bytes))?;
                }
                let last = last.of(self.bytes);
                out.write_all(&last[..last.len() - cut as usize])
            }
            [] => Ok(()),
        }
    }

    /// A whole `tool_schema` response: the declaration and its newline. `tool` is an index
    /// that the catalog's lookup returned.
    #[inline]
    pub(crate) fn write_tool(
        self,
        out: &mut impl Write,
        tool: usize,
        shape: Shape,
    ) -> io::Result<()> {
        self.write(out, self.answer(tool, shape), 0)
    }

    /// A whole `tool_list` response: every declaration in catalog order, as one JSON array on
    /// one line.
    #[inline]
    pub(crate) fn write_list(self, out: &mut impl Write, shape: Shape) -> io::Result<()> {
        out.write_all(b"[")?;
        for tool in 0..self.tools {
            if tool > 0 {
                out.write_all(b",")?;
            }
            self.write(out, self.answer(tool, shape), 1)?;
        }
        out.write_all(b"]\n")
    }

    /// `tool_list` with `skip_unsupported`: `{"skipped":[{"reason":R,"tool":T},...],"tools":L}`,
    /// `L` the declarations the shape can give, in catalog order, byte for byte those
    /// [`Declarations::write_list`] joins; each tool it cannot declare is in `skipped`, with why.
    pub(crate) fn write_declarable(
        self,
        out: &mut impl Write,
        shape: Shape,
        names: &impl Names,
    ) -> io::Result<()> {
        out.write_all(b"{\"skipped\":[")?;
        let mut first = true;
        for tool in 0..self.tools {
            let Some(reason) = self.not_expressible(tool, shape) else {
                continue;
            };
            if !std::mem::take(&mut first) {
                out.write_all(b",")?;
            }
            out.write_all(b"{\"reason\":\"")?;
            crate::sink::escaped(out, |text| text.write_str(reason))?;
            out.write_all(b"\",\"tool\":\"")?;
            crate::sink::escaped(out, |text| text.write_str(names.name(tool)))?;
            out.write_all(b"\"}")?;
        }
        out.write_all(b"],\"tools\":[")?;
        let mut first = true;
        for tool in 0..self.tools {
            if self.not_expressible(tool, shape).is_some() {
                continue;
            }
            if !std::mem::take(&mut first) {
                out.write_all(b",")?;
            }
            self.write(out, self.answer(tool, shape), 1)?;
        }
        out.write_all(b"]}\n")
    }
}

/// Every declaration, each followed by its newline, in the order `build.rs` rendered them
/// (with `wire.rs`): [`PIECES`] says where each sits, [`SPANS`] which is which.
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
        let rendered = crate::wire::render(crate::catalog::MODEL, crate::layout::Layout::whole());
        assert!(rendered.bytes == RENDERED, "the rendering differs");
        assert_eq!(rendered.pieces, PIECES);
        assert_eq!(rendered.spans, SPANS);
    }

    /// A whole answer longer than a piece is several pieces in a row, and still one slice.
    #[test]
    fn a_whole_answer_of_several_pieces_is_one_declaration() {
        let mut layout = crate::layout::Layout::whole();
        let mut long = vec![b'x'; 3 * Piece::MAX_LEN as usize];
        long.push(b'\n');
        let (first, end) = layout.add(&long, false);
        assert_eq!(end - first, 4);
        let spans = [first, end];
        let declarations = Declarations {
            bytes: &layout.bytes,
            pieces: &layout.pieces,
            spans: &spans,
            tools: 1,
        };
        let shape = Shape::new(crate::wire::Format::OpenAi, false).unwrap();
        assert_eq!(
            declarations.declaration(0, shape),
            Some(&long[..long.len() - 1])
        );
        let mut out = Vec::new();
        declarations.write_tool(&mut out, 0, shape).unwrap();
        assert_eq!(out, long);
    }
}
