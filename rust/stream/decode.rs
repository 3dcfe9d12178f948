//! UTF-8 arriving in arbitrary byte slices: characters cut at a slice's end wait for the
//! rest, and an invalid byte is reported with its offset in the whole stream.

use crate::error::{Error, Result};

/// Validates a stream of UTF-8 bytes slice by slice.
#[derive(Debug, Default, Clone)]
pub struct Utf8Stream {
    /// Bytes of a character cut at the end of the last slice.
    tail: Vec<u8>,
    /// Bytes of the stream validated so far.
    offset: usize,
}

impl Utf8Stream {
    /// Appends the complete characters of `tail + bytes` to `out`, keeping a cut one back.
    pub fn push(&mut self, bytes: &[u8], out: &mut String) -> Result<()> {
        let joined;
        let bytes = if self.tail.is_empty() {
            bytes
        } else {
            let mut all = std::mem::take(&mut self.tail);
            all.extend_from_slice(bytes);
            joined = all;
            &joined[..]
        };
        let (good, rest) = match std::str::from_utf8(bytes) {
            Ok(s) => (s, &[][..]),
            Err(e) => {
                let (good, rest) = bytes.split_at(e.valid_up_to());
                if e.error_len().is_some() {
                    return Err(invalid(self.offset + good.len()));
                }
                // Valid up to `good` by the error itself, so this cannot fail.
                (std::str::from_utf8(good).unwrap_or_default(), rest)
            }
        };
        out.push_str(good);
        self.offset += good.len();
        self.tail = rest.to_vec();
        Ok(())
    }

    /// Ends the stream: an incomplete character left over is an error.
    pub fn finish(&self) -> Result<()> {
        if self.tail.is_empty() {
            Ok(())
        } else {
            Err(invalid(self.offset))
        }
    }
}

fn invalid(offset: usize) -> Error {
    Error::Stream(format!(
        "not valid UTF-8 (invalid byte at offset {offset}); decode it with the right encoding"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_cut_between_slices_are_joined() {
        let text = "aé漢😀b";
        for step in 1..5 {
            let (mut s, mut out) = (Utf8Stream::default(), String::new());
            for part in text.as_bytes().chunks(step) {
                s.push(part, &mut out).unwrap();
            }
            s.finish().unwrap();
            assert_eq!(out, text);
        }
    }

    #[test]
    fn invalid_bytes_are_located() {
        let (mut s, mut out) = (Utf8Stream::default(), String::new());
        s.push(b"ab", &mut out).unwrap();
        let err = s.push(b"c\xffd", &mut out).unwrap_err().to_string();
        assert!(err.contains("offset 3"), "{err}");
        let mut cut = Utf8Stream::default();
        cut.push("é".as_bytes().get(..1).unwrap(), &mut out)
            .unwrap();
        assert!(cut.finish().is_err());
    }
}
