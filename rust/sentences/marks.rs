//! The characters the sentence rules look at: end marks, closers, openers and CJK letters.
//!
//! Every class is a fixed list or a fixed range of code points, so the rules do not move
//! with the Unicode version of the Rust or Python that runs them (the reference in
//! `python/ferrochunk/reference/sentences.py` holds the same lists).

/// How an end-mark character takes part in the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// `.` and the full-width `．`: abbreviations, initials and numbers may follow rules.
    Dot,
    /// `…` and `⋯`: an ellipsis, which ends a sentence only before a new one starts.
    Ellipsis,
    /// `?`, `!` and their doubled forms `‼ ⁇ ⁈ ⁉`.
    Question,
    /// `。 ！ ？ ； ｡`: CJK end marks, which always end a sentence.
    Cjk,
}

/// The end-mark class of `c`, if it is one.
#[inline]
pub fn mark(c: char) -> Option<Mark> {
    match c {
        '.' | '\u{FF0E}' => Some(Mark::Dot),
        '\u{2026}' | '\u{22EF}' => Some(Mark::Ellipsis),
        '?' | '!' | '\u{203C}' | '\u{2047}' | '\u{2048}' | '\u{2049}' => Some(Mark::Question),
        '\u{3002}' | '\u{FF01}' | '\u{FF1F}' | '\u{FF1B}' | '\u{FF61}' => Some(Mark::Cjk),
        _ => None,
    }
}

/// Closing quotes and brackets, which stay with the sentence whose end mark they follow.
#[inline]
pub fn is_closer(c: char) -> bool {
    matches!(
        c,
        '"' | '\''
            | ')'
            | ']'
            | '}'
            | '\u{BB}' // »
            | '\u{203A}' // ›
            | '\u{2019}' // ’
            | '\u{201D}' // ”
            | '\u{300D}' // 」
            | '\u{300F}' // 』
            | '\u{3009}' // 〉
            | '\u{300B}' // 》
            | '\u{3011}' // 】
            | '\u{3015}' // 〕
            | '\u{3017}' // 〗
            | '\u{3019}' // 〙
            | '\u{301B}' // 〛
            | '\u{FF09}' // ）
            | '\u{FF3D}' // ］
            | '\u{FF5D}' // ｝
            | '\u{FF02}' // ＂
            | '\u{FF07}' // ＇
    )
}

/// Opening quotes and brackets, stripped from the front of the word before a period.
#[inline]
pub fn is_opener(c: char) -> bool {
    matches!(
        c,
        '"' | '\''
            | '('
            | '['
            | '{'
            | '\u{AB}' // «
            | '\u{2039}' // ‹
            | '\u{2018}' // ‘
            | '\u{201C}' // “
            | '\u{BF}' // ¿
            | '\u{A1}' // ¡
            | '\u{300C}' // 「
            | '\u{300E}' // 『
            | '\u{3008}' // 〈
            | '\u{300A}' // 《
            | '\u{3010}' // 【
            | '\u{3014}' // 〔
            | '\u{FF08}' // （
            | '\u{FF3B}' // ［
            | '\u{FF5B}' // ｛
    )
}

/// Marks that continue a sentence when they follow its end mark (UAX #29's `SContinue`,
/// the common ones): `, : ;`, dashes and the CJK commas and colon. Not `-`, which UAX #29
/// lists: after an end mark and a space it mostly opens a list item run into one line.
#[inline]
pub fn is_continuation(c: char) -> bool {
    matches!(
        c,
        ',' | ':'
            | ';'
            | '\u{2013}' // –
            | '\u{2014}' // —
            | '\u{3001}' // 、
            | '\u{FF0C}' // ，
            | '\u{FF1A}' // ：
            | '\u{FF64}' // ､
    )
}

/// Han ideographs, kana and Hangul: letters of scripts written without spaces between
/// sentences, so an end mark next to one needs no space after it.
#[inline]
pub fn is_cjk(c: char) -> bool {
    matches!(
        c,
        '\u{1100}'..='\u{11FF}'     // Hangul Jamo
            | '\u{3040}'..='\u{30FF}' // Hiragana, Katakana
            | '\u{3130}'..='\u{318F}' // Hangul compatibility Jamo
            | '\u{31F0}'..='\u{31FF}' // Katakana phonetic extensions
            | '\u{3400}'..='\u{4DBF}' // Han extension A
            | '\u{4E00}'..='\u{9FFF}' // Han
            | '\u{AC00}'..='\u{D7AF}' // Hangul syllables
            | '\u{F900}'..='\u{FAFF}' // Han compatibility
            | '\u{FF66}'..='\u{FF9F}' // half-width Katakana
            | '\u{20000}'..='\u{3FFFF}' // Han extensions B and later
    )
}

/// A lowercase letter of the Latin, Greek or Cyrillic blocks (below U+0530, where the
/// Unicode property has not changed for many versions): the word after it continues.
#[inline]
pub fn is_lower(c: char) -> bool {
    c < '\u{530}' && c.is_lowercase()
}

/// An uppercase letter below U+0530 (see [`is_lower`]): a lone one before a period is an
/// initial, as in "J. R. R. Tolkien".
#[inline]
pub fn is_upper(c: char) -> bool {
    c < '\u{530}' && c.is_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        for c in ['.', '．'] {
            assert_eq!(mark(c), Some(Mark::Dot));
        }
        for c in ['。', '！', '？', '；', '｡'] {
            assert_eq!(mark(c), Some(Mark::Cjk), "{c}");
        }
        assert_eq!(mark('…'), Some(Mark::Ellipsis));
        assert_eq!(mark('‼'), Some(Mark::Question));
        assert_eq!(mark(';'), None);
        assert_eq!(mark(','), None);
        assert!(is_closer('」') && is_closer('”') && is_closer(')') && !is_closer('('));
        assert!(is_opener('「') && is_opener('(') && !is_opener(')'));
        assert!(is_cjk('漢') && is_cjk('か') && is_cjk('한') && is_cjk('𠀀'));
        assert!(!is_cjk('a') && !is_cjk('。') && !is_cjk('３'));
        assert!(is_lower('é') && is_lower('я') && !is_lower('ａ'));
        assert!(is_upper('J') && is_upper('Ω') && !is_upper('Ａ'));
    }
}
