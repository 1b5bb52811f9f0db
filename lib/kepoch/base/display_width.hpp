#pragma once
// How many terminal columns text takes (a wcwidth for UTF-8), so that a table cuts and pads
// names by what a terminal shows, not by their bytes or code points: a CJK group id takes
// two columns a character, an accent combined with the letter before it none.
//
// The rule (Unicode's UAX #11 East Asian Width, as terminals and glibc's wcwidth apply it):
//   - East Asian Wide (W) and Fullwidth (F) code points take 2 columns (CJK ideographs,
//     kana, Hangul syllables, fullwidth forms, most emoji; unassigned code points of the
//     CJK planes 2 and 3 too, as UAX #11 defaults them);
//   - nonspacing and enclosing marks (Mn, Me), format characters (Cf, but the soft hyphen
//     U+00AD, which shows), Hangul jamo medial vowels and finals (U+1160..U+11FF, which join
//     the syllable before them) and the zero-width space take 0;
//   - everything else 1, control characters included (kepoch's texts are escaped first,
//     text.hpp, so none reaches a table), and each byte of invalid UTF-8 1 (as an escaped
//     or replaced byte shows).
// The tables are Unicode 14.0's (display_width.cpp says how they were made).

#include <cstddef>
#include <string_view>

namespace kepoch {

// Columns of one code point: 0, 1 or 2.
int code_point_width(char32_t cp);

// Columns of UTF-8 text.
std::size_t display_width(std::string_view text);

// Whether every byte of `text` is ASCII (below 0x80): its display width is then its size.
bool is_ascii(std::string_view text);

// The longest prefix of text that takes at most `columns` columns, whole characters only
// (a wide character that would straddle the limit is left out), with any zero-width marks
// that follow the last character kept with it.
std::string_view prefix_by_width(std::string_view text, std::size_t columns);

// The longest suffix of text that takes at most `columns` columns, whole characters only
// (never starting at a zero-width mark, which belongs to the character before it).
std::string_view suffix_by_width(std::string_view text, std::size_t columns);

}  // namespace kepoch
