#pragma once
// The small pieces an inline SVG picture is made of: text escaped for HTML and XML
// (element text and attribute values alike), numbers as SVG coordinates, and a colour per
// leader epoch that stays distinct for epochs of any size.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kepoch::report::svg {

// `text` with & < > " ' as character references, and control characters (which XML 1.0
// cannot carry) as U+FFFD: safe as element text and as a quoted attribute value.
std::string escape(std::string_view text);

// A coordinate with at most two decimals, no trailing zeros ("12.5", "3").
std::string coord(double x);

// The fill of epoch `epoch`: a palette of its own, clear of the red and green that mean
// state on the pages (fenced/unfenced, truncation, recovery point) and of the high
// watermark's blue: hues golden-ratio steps apart through amber, teal-cyan and
// indigo-magenta bands, so neighbouring epochs differ, with the lightness stepping through
// three levels; no two epochs in 0..40000 get the same colour text (checked exhaustively;
// above, colours may repeat and the drawn epoch labels tell them apart). No epoch (offsets
// below the epoch cache's first entry): grey.
std::string epoch_color(std::optional<std::int64_t> epoch);

}  // namespace kepoch::report::svg
