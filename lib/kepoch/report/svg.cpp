#include "kepoch/report/svg.hpp"

#include <fmt/format.h>

#include <cmath>

namespace kepoch::report::svg {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
          out += "\xef\xbf\xbd";
        else
          out += c;
    }
  }
  return out;
}

std::string coord(double x) {
  std::string s = fmt::format("{:.2f}", x);
  while (s.back() == '0')
    s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string epoch_color(std::optional<std::int64_t> epoch) {
  if (!epoch) return "#b0b0b0";
  const double hue = std::fmod(static_cast<double>(*epoch) * 137.50776405, 360.0);
  const int lightness = 42 + static_cast<int>(((*epoch % 3) + 3) % 3) * 12;
  return fmt::format("hsl({:.2f},70%,{}%)", hue < 0 ? hue + 360 : hue, lightness);
}

}  // namespace kepoch::report::svg
