#include "kepoch/report/fit.hpp"

#include <ostream>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>

namespace kepoch::report::detail {
namespace {

constexpr std::string_view kEllipsis = "\xe2\x80\xa6";  // U+2026

std::size_t total(const std::vector<std::size_t>& widths, std::size_t count) {
  if (count == 0) return 0;
  return std::accumulate(widths.begin(), widths.begin() + static_cast<std::ptrdiff_t>(count),
                         std::size_t{0}) +
         2 * (count - 1);
}

}  // namespace

std::string shorten(std::string_view text, std::size_t width) {
  // ASCII (a table's numbers, most names): a column a byte, so the cut is by bytes; the same
  // text as the general rule below makes of it, without decoding (a table that cuts a
  // column cuts it in every row).
  if (is_ascii(text)) {
    if (text.size() <= width) return std::string(text);
    if (width == 0) return "";
    std::string out;
    out.reserve(width - 1 + kEllipsis.size());
    if (text.find(' ') == std::string_view::npos && text.find('/') != std::string_view::npos) {
      out += kEllipsis;
      out += text.substr(text.size() - (width - 1));
    } else {
      out += text.substr(0, width - 1);
      out += kEllipsis;
    }
    return out;
  }
  const std::size_t have = display_width(text);
  if (have <= width) return std::string(text);
  if (width == 0) return "";
  const bool path =
      text.find(' ') == std::string_view::npos && text.find('/') != std::string_view::npos;
  // Cut by display columns: a wide character that would straddle the cut is left out (the
  // result may then be a column short of `width`, never over it).
  if (path) return std::string(kEllipsis) + std::string(suffix_by_width(text, width - 1));
  return std::string(prefix_by_width(text, width - 1)) + std::string(kEllipsis);
}

void shorten_into(std::string& out, std::string_view text, std::size_t width) {
  // The ASCII rule of shorten() without a string made per call.
  if (!is_ascii(text) || text.size() <= width || width == 0 ||
      (text.find(' ') == std::string_view::npos && text.find('/') != std::string_view::npos)) {
    out = shorten(text, width);
    return;
  }
  out.assign(text.substr(0, width - 1));
  out += kEllipsis;
}

std::vector<std::string> wrap(std::string_view text, std::size_t width) {
  width = std::max<std::size_t>(width, 1);
  std::vector<std::string> lines;
  std::string line;
  std::size_t line_width = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) {
      const std::string word = shorten(text.substr(start, end - start), width);
      const std::size_t w = display_width(word);
      if (line_width > 0 && line_width + 1 + w > width) {
        lines.push_back(std::move(line));
        line.clear();
        line_width = 0;
      }
      if (line_width > 0) {
        line += ' ';
        ++line_width;
      }
      line += word;
      line_width += w;
    }
    start = end + 1;
  }
  lines.push_back(std::move(line));
  return lines;
}

std::size_t fit_columns(std::vector<std::size_t>& widths, const std::vector<std::size_t>& floors,
                        std::size_t available) {
  std::size_t count = widths.size();
  if (total(widths, count) <= available) return count;
  std::vector<std::size_t> least(count);
  for (std::size_t i = 0; i < count; ++i)
    least[i] = std::min(widths[i], floors[i]);
  while (count > 1 && total(least, count) > available)
    --count;
  widths.resize(count);
  if (total(widths, count) <= available) return count;
  // The largest cap with every column at min(natural, max(cap, floor)) fitting.
  std::size_t cap = *std::max_element(widths.begin(), widths.end());
  auto fitted = [&](std::size_t c) {
    std::vector<std::size_t> w(count);
    for (std::size_t i = 0; i < count; ++i)
      w[i] = std::min(widths[i], std::max(c, least[i]));
    return w;
  };
  while (cap > 1 && total(fitted(cap), count) > available)
    --cap;
  std::vector<std::size_t> w = fitted(cap);
  // What the cap leaves over goes to the first shortened columns, one column each.
  std::size_t spare = available > total(w, count) ? available - total(w, count) : 0;
  for (std::size_t i = 0; i < count && spare > 0; ++i)
    if (w[i] < widths[i]) {
      const std::size_t add = std::min(spare, widths[i] - w[i]);
      w[i] += add;
      spare -= add;
    }
  widths = std::move(w);
  return count;
}

std::size_t room_from(std::size_t used, std::size_t width) {
  if (width >= kUnbounded) return kUnbounded;
  return width > used + 20 ? width - used : 20;
}

void write_wrapped(std::ostream& out, std::size_t width, const std::string& first,
                   const std::string& more, const std::string& text) {
  if (width >= kUnbounded || first.size() + display_width(text) <= width) {
    out << first << text << '\n';
    return;
  }
  const auto lines = wrap(text, room_from(std::max(first.size(), more.size()), width));
  for (std::size_t i = 0; i < lines.size(); ++i)
    out << (i ? more : first) << lines[i] << '\n';
}

}  // namespace kepoch::report::detail
