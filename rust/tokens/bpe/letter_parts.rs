//! Letters of several bytes (Chinese, Japanese, Cyrillic, accented Latin, emoji, ...) whose
//! own merges BPE is certain to make before any merge reaches across their edges, so a
//! merge may start from the parts BPE builds of each letter alone instead of its bytes.
//!
//! Why it is exact: BPE builds a letter `c`, alone, into some parts (one token, for most
//! Chinese letters in cl100k and o200k; two or three in GPT-2) by merges of ranks up to
//! some `m`. Inside a longer piece its bytes offer the same merges, so until `c` is in those
//! parts some pair inside it ranks at most `m`. A merge that reaches across its left edge
//! makes a token holding the byte before `c` and a prefix of `c` (or all of it); if every
//! such token ranks above `m`, none can be the lowest pair before `c` is in its parts, and
//! what is merged around it meanwhile does not touch it. Likewise on the right. Which tokens
//! reach across depends on the neighbouring byte only, so each letter keeps one bit per
//! possible byte on each side: set where starting from its parts is safe. On Chinese text
//! this removes about two thirds of all merge steps.

use rustc_hash::FxHashMap;

/// What is known of one letter, in 32 bytes (two to a cache line): its parts and, per
/// neighbouring byte, whether starting from them is safe.
#[derive(Clone, Copy, Debug, Default)]
struct Letter {
    parts: Parts,
    /// Its bytes, packed (code points of malformed byte runs may coincide; bytes decide).
    bytes: u32,
    /// Which of [`LetterParts::masks`] holds the safe bytes before it, and after it.
    left: u16,
    right: u16,
}

/// A letter while the table is built: the highest rank of the merges that build it alone,
/// and the safe bytes on each side.
struct Building {
    built_by: u32,
    left: [u64; 4],
    right: [u64; 4],
}

/// The parts BPE builds of one letter alone: up to four tokens and their lengths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Parts {
    /// Each part's rank.
    pub ranks: [u32; 4],
    /// Each part's length in bytes.
    pub lens: [u8; 4],
    /// How many parts (1 to 4).
    pub count: u8,
}

impl Parts {
    /// `(length, rank)` of each part in order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        let n = usize::from(self.count);
        self.lens[..n]
            .iter()
            .zip(&self.ranks[..n])
            .map(|(&len, &rank)| (usize::from(len), rank))
    }
}

/// The letters of one encoding a merge may start from in parts, by their bytes.
#[derive(Debug)]
pub struct LetterParts {
    /// Sets of safe neighbouring bytes, one bit per byte; letters share them (most are
    /// alike), which keeps each letter small. The first is empty.
    masks: Vec<[u64; 4]>,
    /// The letters of the Basic Multilingual Plane by code point (`count == 0` where none):
    /// one read per letter of a piece, no hashing, no index to follow.
    bmp: Vec<Letter>,
    /// The letters above it (emoji, rare CJK) by code point.
    beyond: FxHashMap<u32, Letter>,
}

/// The table while it is built: letters in a list, found by code point.
struct Builder {
    letters: Vec<Letter>,
    by_point: FxHashMap<u32, usize>,
}

/// Code points below this are found in [`LetterParts::bmp`].
const BMP: u32 = 0x1_0000;

impl Builder {
    /// Clears the bits of every neighbouring byte next to which some token that reaches
    /// across the letter's edge ranks below the letter's own merges.
    fn unmark_crossings(&self, tokens: &[&[u8]], building: &mut [Building]) {
        // Letters by each proper prefix and proper suffix of their bytes.
        let (mut prefixes, mut suffixes) = (FxHashMap::default(), FxHashMap::default());
        for (i, letter) in self.letters.iter().enumerate() {
            let packed = letter.bytes.to_le_bytes();
            let bytes = &packed[..utf8_len(packed[0])];
            for k in 1..bytes.len() {
                let key = |b: &[u8]| (pack(b), b.len());
                prefixes
                    .entry(key(&bytes[..k]))
                    .or_insert_with(Vec::new)
                    .push(i);
                suffixes
                    .entry(key(&bytes[k..]))
                    .or_insert_with(Vec::new)
                    .push(i);
            }
        }
        let empty = Vec::new();
        for (rank, t) in (0u32..).zip(tokens) {
            let n = t.len();
            for s in 1..n {
                // A letter, or the start of one, at `s` with the byte `t[s - 1]` before it.
                let len = utf8_len(t[s]);
                if len == 0 || !t[s + 1..n.min(s + len)].iter().all(|&b| is_continuation(b)) {
                    continue;
                }
                let whole;
                let hit: &[usize] = if s + len <= n {
                    whole = self.index(&t[s..s + len]);
                    whole.as_slice()
                } else {
                    prefixes.get(&(pack(&t[s..]), n - s)).unwrap_or(&empty)
                };
                for &i in hit {
                    if rank < building[i].built_by {
                        clear(&mut building[i].left, t[s - 1]);
                    }
                }
            }
            for e in 1..n {
                // A letter, or the end of one, ending at `e` with the byte `t[e]` after it.
                match (e.saturating_sub(4)..e)
                    .rev()
                    .find(|&s| !is_continuation(t[s]))
                {
                    Some(s) if utf8_len(t[s]) == e - s => {
                        if let Some(i) = self.index(&t[s..e]) {
                            if rank < building[i].built_by {
                                clear(&mut building[i].right, t[e]);
                            }
                        }
                    }
                    None if e <= 3 => {
                        for &i in suffixes.get(&(pack(&t[..e]), e)).unwrap_or(&empty) {
                            if rank < building[i].built_by {
                                clear(&mut building[i].right, t[e]);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// Where a well-formed letter is in `letters`.
    fn index(&self, letter: &[u8]) -> Option<usize> {
        let &index = self.by_point.get(&code_point(letter))?;
        (self.letters[index].bytes == pack(letter)).then_some(index)
    }
}

/// The length a UTF-8 lead byte announces (0 for any other byte).
#[inline]
pub fn utf8_len(lead: u8) -> usize {
    match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 0,
    }
}

#[inline]
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// Up to four bytes as one key, little-endian (a byte loop: a variable-length copy would
/// call `memcpy`).
#[inline]
fn pack(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .take(4)
        .enumerate()
        .fold(0, |key, (i, &b)| key | u32::from(b) << (8 * i))
}

/// The code point of a well-formed letter of 2 to 4 bytes.
#[inline]
fn code_point(letter: &[u8]) -> u32 {
    let lead = u32::from(letter[0]) & (0x7F >> letter.len());
    letter[1..]
        .iter()
        .fold(lead, |cp, &b| cp << 6 | u32::from(b & 0x3F))
}

#[inline]
fn bit(mask: &[u64; 4], b: u8) -> bool {
    mask[usize::from(b >> 6)] & 1 << (b & 63) != 0
}

#[inline]
fn clear(mask: &mut [u64; 4], b: u8) {
    mask[usize::from(b >> 6)] &= !(1 << (b & 63));
}

/// The letter (2 to 4 bytes) starting at `bytes[at]`, if one does.
#[inline]
fn letter_at(bytes: &[u8], at: usize) -> Option<&[u8]> {
    let len = utf8_len(*bytes.get(at)?);
    if len == 0 {
        return None;
    }
    let letter = bytes.get(at..at + len)?;
    letter[1..]
        .iter()
        .all(|&b| is_continuation(b))
        .then_some(letter)
}

impl LetterParts {
    /// The table for tokens `tokens` (by rank), for every letter of the Basic Multilingual
    /// Plane and every longer one found in a token; `build(letter)` is what BPE makes of
    /// `letter` alone and the highest rank it merges by, `None` if it merges nothing.
    pub fn new(tokens: &[&[u8]], build: impl Fn(&[u8]) -> Option<(Parts, u32)>) -> Self {
        let mut b = Builder {
            letters: Vec::new(),
            by_point: FxHashMap::default(),
        };
        let bmp = (0x80..BMP)
            .filter_map(char::from_u32)
            .map(|c| c.encode_utf8(&mut [0; 4]).as_bytes().to_vec());
        let beyond = tokens.iter().flat_map(|t| {
            (0..t.len())
                .filter_map(|i| letter_at(t, i).filter(|l| l.len() == 4).map(<[u8]>::to_vec))
        });
        let mut building = Vec::new();
        for letter in bmp.chain(beyond) {
            if b.index(&letter).is_some() {
                continue;
            }
            if let Some((parts, max)) = build(&letter) {
                b.by_point.insert(code_point(&letter), b.letters.len());
                b.letters.push(Letter {
                    parts,
                    bytes: pack(&letter),
                    left: 0,
                    right: 0,
                });
                building.push(Building {
                    built_by: max,
                    left: [u64::MAX; 4],
                    right: [u64::MAX; 4],
                });
            }
        }
        b.unmark_crossings(tokens, &mut building);
        let mut table = Self {
            masks: vec![[0; 4]],
            bmp: vec![Letter::default(); BMP as usize],
            beyond: FxHashMap::default(),
        };
        table.share_masks(&mut b.letters, &building);
        for letter in b.letters {
            let packed = letter.bytes.to_le_bytes();
            match code_point(&packed[..utf8_len(packed[0])]) {
                cp if cp < BMP => table.bmp[cp as usize] = letter,
                cp => _ = table.beyond.insert(cp, letter),
            }
        }
        table
    }

    /// Stores each distinct set of safe bytes once; past 65535 sets, a letter keeps the
    /// empty one (never started from in parts: slower, never wrong).
    fn share_masks(&mut self, letters: &mut [Letter], building: &[Building]) {
        let mut ids: FxHashMap<[u64; 4], u16> = FxHashMap::default();
        ids.insert([0; 4], 0);
        for (letter, b) in letters.iter_mut().zip(building) {
            for (id, mask) in [(&mut letter.left, b.left), (&mut letter.right, b.right)] {
                let next = self.masks.len();
                *id = *ids.entry(mask).or_insert_with(|| {
                    let id = u16::try_from(next).unwrap_or(0);
                    if id != 0 {
                        self.masks.push(mask);
                    }
                    id
                });
            }
        }
    }

    /// The parts of the letter at `piece[at..at + len]` if a merge may start from them
    /// there; `len` is its length ([`utf8_len`] of its lead byte).
    #[inline]
    pub fn parts(&self, piece: &[u8], at: usize, len: usize) -> Option<&Parts> {
        if len < 2 {
            return None;
        }
        let letter = piece.get(at..at + len)?;
        if !letter[1..].iter().all(|&b| is_continuation(b)) {
            return None;
        }
        let l = match code_point(letter) {
            cp if cp < BMP => &self.bmp[cp as usize],
            cp => self.beyond.get(&cp)?,
        };
        if l.parts.count == 0 || l.bytes != pack(letter) {
            return None;
        }
        let mask = |id: u16| &self.masks[usize::from(id)];
        let left_ok = at == 0 || bit(mask(l.left), piece[at - 1]);
        let right_ok = match piece.get(at + len) {
            Some(&b) => bit(mask(l.right), b),
            None => true,
        };
        (left_ok && right_ok).then_some(&l.parts)
    }
}
