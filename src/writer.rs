//! Streams a declaration from the catalog into any `io::Write`, never building it in memory.
//!
//! Object keys are static byte slices written in sorted order, so the output is canonical by
//! construction: there is nothing to sort at run time. Strings go through [`write_str`], which
//! copies runs of plain bytes in one go and writes non-ASCII as raw UTF-8.

use crate::catalog::Tool;
use std::io::{self, Write};

/// The OpenAI / OpenRouter Chat Completions `tools` entry for `tool`, without a newline.
pub fn write_declaration(out: &mut impl Write, tool: &Tool) -> io::Result<()> {
    out.write_all(b"{\"function\":{\"description\":")?;
    write_str(out, tool.description)?;
    out.write_all(b",\"name\":")?;
    write_str(out, tool.name)?;
    out.write_all(b",\"parameters\":")?;
    write_parameters(out, tool)?;
    out.write_all(b"},\"type\":\"function\"}")
}

/// The JSON Schema of `tool`'s arguments.
pub fn write_parameters(out: &mut impl Write, tool: &Tool) -> io::Result<()> {
    out.write_all(b"{\"properties\":{")?;
    for (i, property) in tool.properties.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write_str(out, property.name)?;
        out.write_all(b":{\"description\":")?;
        write_str(out, property.description)?;
        out.write_all(b",\"type\":")?;
        write_str(out, property.ty.as_str())?;
        out.write_all(b"}")?;
    }
    out.write_all(b"},\"required\":[")?;
    for (i, name) in tool.required.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write_str(out, name)?;
    }
    out.write_all(b"],\"type\":\"object\"}")
}

/// `value` as a JSON string literal: `"` and `\` escaped, control characters as `\n`-style or
/// `\u00XX` escapes, everything else (non-ASCII included) as it is.
pub fn write_str(out: &mut impl Write, value: &str) -> io::Result<()> {
    let bytes = value.as_bytes();
    out.write_all(b"\"")?;
    let mut start = 0;
    for (i, &byte) in bytes.iter().enumerate() {
        let escape = ESCAPE[usize::from(byte)];
        if escape == __ {
            continue;
        }
        out.write_all(&bytes[start..i])?;
        match escape {
            UU => {
                let hex = [HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 0xF)]];
                out.write_all(&[b'\\', b'u', b'0', b'0', hex[0], hex[1]])?;
            }
            short => out.write_all(&[b'\\', short])?,
        }
        start = i + 1;
    }
    out.write_all(&bytes[start..])?;
    out.write_all(b"\"")
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
static ESCAPE: [u8; 256] = [
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
