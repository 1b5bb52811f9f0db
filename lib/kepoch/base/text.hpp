#pragma once
// Text from inputs shown to a person: a bounded excerpt of a bad value (an error never
// quotes a whole 64 MB line), and control characters escaped so that a name cannot drive
// the terminal (clear the screen, forge a table row, retitle the window).

#include <cstddef>
#include <string>
#include <string_view>

namespace kepoch {

// The valid UTF-8 sequence at s[i] (i < s.size()): its length, with its code point in cp;
// 0 when the byte there starts none (overlong, surrogate, cut short, beyond U+10FFFF).
std::size_t utf8_decode(std::string_view s, std::size_t i, char32_t& cp);

// The longest prefix of text of at most max_bytes that does not cut a UTF-8 character.
std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes);

// At most max_bytes of text (cut on a UTF-8 character boundary), followed by
// "... (N bytes)" when it was cut.
std::string excerpt(std::string_view text, std::size_t max_bytes = 120);

// A bad value as an error message quotes it: at most max_bytes of text in double quotes (as
// excerpt cuts it; print_error escapes control characters), or, for bytes that are not UTF-8
// text or hold a NUL (which would end the message: what() is a C string), a description:
// "300 bytes of binary data (a byte 0x00 at byte 0 is not UTF-8 text)".
std::string quoted_excerpt(std::string_view text, std::size_t max_bytes = 60);

// text unchanged when it holds no control character (C0, DEL, C1) and is valid UTF-8;
// otherwise each such character or stray byte as \n, \r, \t, \e or \xNN and a backslash
// as \\ (as `ls -b` shows names), so the escaped form cannot be mistaken for a plain one.
std::string escape_control(std::string_view text);

// Whether escape_control changes text.
bool needs_escape(std::string_view text);

// text as one POSIX shell word: unchanged when it holds only characters no shell treats
// specially (letters, digits, _./:@,=+-), else in single quotes (a quote as '\'').
// For commands kepoch prints for an operator to run (salvage, steps.sh).
std::string shell_word(std::string_view text);

}  // namespace kepoch
