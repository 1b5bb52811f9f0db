#pragma once
// Text made to fit a terminal's width, for the table renderers (render.cpp, table_rows.cpp):
// widths count display columns (base/display_width.hpp: a CJK character takes two, a
// combining mark none; the texts are escaped, so no control characters), a value too long
// is shortened with an ellipsis ("…", one column), prose is wrapped at spaces. The width
// is the table's (RenderOptions::width: the terminal's, 120 when not a terminal). Not part
// of the library's interface.

#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/base/display_width.hpp"

namespace kepoch::report::detail {

// The width the default table fits when the output is not a terminal (RenderOptions::width);
// `-o wide` lifts it.
inline constexpr std::size_t kTableWidth = 120;
// The width tables are laid out in with `-o wide`: no limit.
inline constexpr std::size_t kUnbounded = static_cast<std::size_t>(-1) / 2;
// No column is squeezed below this many columns (or its header, if shorter).
inline constexpr std::size_t kMinColumn = 8;

// Display columns of `text` (base/display_width.hpp).
using kepoch::display_width;
using kepoch::is_ascii;

// `text` in at most `width` columns: as is when it fits; else a path (a '/' and no space)
// keeps its end ("…/broker-1/d-0", the part that tells replicas apart), other text its
// start ("first line of a mess…").
std::string shorten(std::string_view text, std::size_t width);
// out = shorten(text, width), in out's own storage (a table cell cut in every row).
void shorten_into(std::string& out, std::string_view text, std::size_t width);

// `text` as lines of at most `width` columns, broken at spaces; a word longer than a line
// is shortened. Never empty (an empty text is one empty line).
std::vector<std::string> wrap(std::string_view text, std::size_t width);

// The columns a table `width` wide leaves for text starting at column `used` (at least 20,
// however deep; kUnbounded with -o wide).
std::size_t room_from(std::size_t used, std::size_t width);
// `text` after `first` on one line when it fits `width`, else wrapped with continuations
// after `more`.
void write_wrapped(std::ostream& out, std::size_t width, const std::string& first,
                   const std::string& more, const std::string& text);

// Column widths fitted to `available` columns (with two spaces between columns). `widths`
// are the columns' natural widths, `floors` the least each may shrink to. Columns are
// dropped from the right while even their floors do not fit; the rest share the space,
// the widest shrinking first (each to a common cap). Returns how many columns are kept;
// `widths` then holds their fitted widths.
std::size_t fit_columns(std::vector<std::size_t>& widths, const std::vector<std::size_t>& floors,
                        std::size_t available);

}  // namespace kepoch::report::detail
