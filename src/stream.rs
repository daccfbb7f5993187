//! Stream mode: newline-delimited requests in, one line out per request, for callers that keep
//! one process open (a coprocess) instead of paying for a spawn per request.
//!
//! Both buffers are fixed arrays, so a request costs no allocation. Output is flushed just
//! before a read that may block, that is, whenever every request already received has been
//! answered: an interactive caller gets each answer at once, and a piped batch is written in
//! blocks of up to [`OUT_CAP`] bytes.

use crate::error::{Error, MAX_INPUT};
use crate::respond::respond;
use crate::sink::escaped;
use crate::writer::MAX_OUTPUT;
use std::fmt::Write as _;
use std::io::{self, Read, Write};

/// Room for one whole line at the limit, plus as much again so that reads stay large.
const IN_CAP: usize = 2 * (MAX_INPUT + 1);
/// The longest error line: a code and a message of a few hundred bytes, escaped.
const MAX_ERROR_LINE: usize = 2 * 1024;
/// The largest block written at once: 64 KiB, or room for two of the catalog's longest answers
/// when that is more. Derived from the catalog when the crate is compiled.
const OUT_CAP: usize = if 2 * ROOM > 64 * 1024 {
    2 * ROOM
} else {
    64 * 1024
};
/// Room that one line's answer needs: a response or an error line.
const ROOM: usize = if MAX_OUTPUT > MAX_ERROR_LINE {
    MAX_OUTPUT
} else {
    MAX_ERROR_LINE
};

/// Answers every line of `input` on `output`, in order, until end of input.
///
/// Each non-blank line is one request and gets exactly one line back: the response, or
/// `{"error":{"code":C,"message":M}}` with the one-shot mode's codes. A line longer than
/// [`MAX_INPUT`] bytes gets `too_large`, and what is left of it is skipped, unread into memory.
/// Lines holding only spaces, tabs or carriage returns (within the limit) are skipped. The last line needs no
/// newline.
///
/// Only a failure to read or write ends the stream early; it is returned as an `io` error.
pub fn serve(input: &mut impl Read, output: &mut impl Write) -> Result<(), Error> {
    let mut out = Output {
        sink: output,
        buf: [0; OUT_CAP],
        len: 0,
    };
    let mut buf = [0; IN_CAP];
    // buf[start..end] is input not yet answered; it never holds a newline between reads.
    let (mut start, mut end) = (0, 0);
    // Inside a line already answered as too_large: drop input up to its newline.
    let mut skipping = false;
    loop {
        while let Some(newline) = buf[start..end].iter().position(|&b| b == b'\n') {
            if !skipping {
                out.answer(&buf[start..start + newline])?;
            }
            skipping = false;
            start += newline + 1;
        }
        if skipping {
            start = end;
        } else if end - start > MAX_INPUT {
            out.answer(&buf[start..end])?; // too_large, whatever follows
            start = end;
            skipping = true;
        }
        buf.copy_within(start..end, 0);
        (start, end) = (0, end - start);

        out.flush()?; // everything received is answered; the next read may block
        let read = loop {
            match input.read(&mut buf[end..]) {
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                result => {
                    break result.map_err(|err| Error::io("cannot read standard input", &err))?
                }
            }
        };
        if read == 0 {
            if end > 0 && !skipping {
                out.answer(&buf[..end])?;
            }
            return out.flush();
        }
        end += read;
    }
}

/// The output block being filled. It takes an answer in as many writes as its writer makes, and
/// passes a full block on, so an answer of any length (a `check_call` echoes its arguments) fits.
struct Output<'a, W: Write> {
    sink: &'a mut W,
    buf: [u8; OUT_CAP],
    len: usize,
}

impl<W: Write> Output<'_, W> {
    /// Appends the answer to one line, unless it is blank. Being over the limit comes first:
    /// a long line of spaces is `too_large`, not blank.
    fn answer(&mut self, line: &[u8]) -> Result<(), Error> {
        let blank = line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'));
        if blank && line.len() <= MAX_INPUT {
            return Ok(());
        }
        if OUT_CAP - self.len < ROOM {
            self.flush()?;
        }
        let Err(err) = respond(line, self) else {
            return Ok(());
        };
        if err.code() == "io" {
            // Our own output failed, not the request.
            return Err(err);
        }
        // `respond` wrote nothing; the error line is short (the test suite checks it fits).
        let fail = |err: io::Error| Error::io("cannot write standard output", &err);
        self.write_all(b"{\"error\":{\"code\":\"").map_err(fail)?;
        self.write_all(err.code().as_bytes()).map_err(fail)?;
        self.write_all(b"\",\"message\":\"").map_err(fail)?;
        escaped(self, |text| write!(text, "{err}")).map_err(fail)?;
        self.write_all(b"\"}}\n").map_err(fail)
    }

    fn flush(&mut self) -> Result<(), Error> {
        let fail = |err: io::Error| Error::io("cannot write standard output", &err);
        self.sink.write_all(&self.buf[..self.len]).map_err(fail)?;
        self.len = 0;
        self.sink.flush().map_err(fail)
    }
}

impl<W: Write> Write for Output<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if OUT_CAP - self.len < bytes.len() {
            self.sink.write_all(&self.buf[..self.len])?;
            self.len = 0;
            if bytes.len() > OUT_CAP {
                return self.sink.write(bytes);
            }
        }
        self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
        Ok(bytes.len())
    }

    /// Only [`Output::flush`] passes the block on: the stream decides when.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
