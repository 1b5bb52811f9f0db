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
  // The hue bands left to epochs (degrees): amber, teal to cyan, indigo to magenta. Red
  // (fenced, a truncation, a shrinking ISR) and green (unfenced, a recovery point, a growing
  // ISR) mean state on these pages, and the high watermark is drawn in blue (about 224).
  struct Band {
    double from, to;
  };
  constexpr Band kBands[] = {{30, 55}, {165, 205}, {240, 330}};
  constexpr double kTotal = (55 - 30) + (205 - 165) + (330 - 240);
  // Golden-ratio steps through the bands: each epoch lands far from its neighbours.
  const double step = std::fmod(static_cast<double>(*epoch) * 0.6180339887498949, 1.0);
  double at = (step < 0 ? step + 1 : step) * kTotal;
  double hue = kBands[0].from;
  for (const Band& band : kBands) {
    if (at < band.to - band.from) {
      hue = band.from + at;
      break;
    }
    at -= band.to - band.from;
  }
  const int lightness = 40 + static_cast<int>(((*epoch % 3) + 3) % 3) * 12;
  return fmt::format("hsl({:.3f},65%,{}%)", hue, lightness);
}

}  // namespace kepoch::report::svg
