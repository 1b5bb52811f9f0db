#include "kepoch/report/json_object_writer.hpp"

#include <array>
#include <charconv>
#include <cstring>

#include "kepoch/report/render_detail.hpp"

namespace kepoch::report::detail {
namespace {

std::string nlohmann_dump(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Bytes nlohmann's dump_escaped (ensure_ascii off) copies as they are when they stand alone:
// 0x20-0x7f but '"' and '\'. Control bytes are escaped, bytes >= 0x80 start a UTF-8 sequence.
constexpr std::array<bool, 256> kPlain = [] {
  std::array<bool, 256> t{};
  for (int c = 0x20; c <= 0x7f; ++c)
    t[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return t;
}();

// Whether any of the 8 bytes of `w` is not plain: a control byte (< 0x20), a byte >= 0x80,
// '"' or '\' (the exact SWAR tests for "some byte is zero / less than n").
bool needs_attention(std::uint64_t w) {
  constexpr std::uint64_t ones = 0x0101010101010101, high = 0x8080808080808080;
  const auto zero_in = [](std::uint64_t v) { return (v - ones) & ~v & high; };
  return ((w | ((w - ones * 0x20) & ~w)) & high) | zero_in(w ^ (ones * '"')) |
         zero_in(w ^ (ones * '\\'));
}

// The length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong forms, no
// surrogates, nothing past U+10FFFF: what nlohmann's decoder accepts), or 0.
std::size_t utf8_length(const unsigned char* p, const unsigned char* end) {
  const unsigned c = p[0];
  const auto cont = [&](std::size_t i, unsigned lo = 0x80, unsigned hi = 0xbf) {
    return p + i < end && p[i] >= lo && p[i] <= hi;
  };
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const unsigned lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const unsigned lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

// The escape nlohmann writes for a byte that is not plain and below 0x80.
void append_escape(std::string& out, unsigned char c) {
  switch (c) {
    case '\b':
      out += "\\b";
      return;
    case '\t':
      out += "\\t";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\f':
      out += "\\f";
      return;
    case '\r':
      out += "\\r";
      return;
    case '"':
      out += "\\\"";
      return;
    case '\\':
      out += "\\\\";
      return;
    default: {
      static constexpr char kHex[] = "0123456789abcdef";
      const char u[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
      out.append(u, sizeof u);
    }
  }
}

}  // namespace

// nlohmann's escaping, done here for the strings it would print unchanged or with the
// escapes above (runs of plain bytes and well-formed UTF-8 copied in bulk, 8 bytes tested at
// a time); a string with malformed UTF-8 goes to nlohmann itself, whose U+FFFD replacement
// rules (which bytes a bad sequence swallows) it alone defines.
void append_json_string(std::string& out, std::string_view s) {
  const std::size_t start = out.size();
  out += '"';
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* const end = p + s.size();
  const auto* run = p;  // plain bytes from here to p are not yet copied
  for (;;) {
    for (std::uint64_t w; end - p >= 8; p += 8) {
      std::memcpy(&w, p, 8);
      if (needs_attention(w)) break;
    }
    while (p < end && kPlain[*p])
      ++p;
    if (p == end) break;
    if (*p >= 0x80) {
      const std::size_t n = utf8_length(p, end);
      if (n == 0) {
        out.resize(start);
        out += nlohmann_dump(nlohmann::ordered_json(std::string(s)));
        return;
      }
      p += n;  // copied as it is, with the run
      continue;
    }
    out.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p - run));
    append_escape(out, *p);
    run = ++p;
  }
  out.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p - run));
  out += '"';
}

void append_json(std::string& out, const Value& v) {
  out += nlohmann_dump(to_json(v));
}

// A member's key as `"key":`, rendered once per name: the writers pass the same few names
// (mostly literals) for every batch and record. The slot is chosen by the name's address and
// size, and taken only when the name's bytes match.
void JsonObjectWriter::key(std::string_view k) {
  if (!first_) out_ += ',';
  first_ = false;
  const auto slot = ((reinterpret_cast<std::uintptr_t>(k.data()) >> 3) ^ k.size()) % kKeySlots;
  RenderedKey& cached = keys_[slot];
  if (cached.text.empty() || cached.name != k) {  // text is never empty once rendered
    cached.name.assign(k);
    cached.text.clear();
    append_json_string(cached.text, k);
    cached.text += ':';
  }
  out_ += cached.text;
}

void JsonObjectWriter::null(std::string_view k) {
  key(k);
  out_ += "null";
}

void JsonObjectWriter::boolean(std::string_view k, bool v) {
  key(k);
  out_ += v ? "true" : "false";
}

void JsonObjectWriter::integer(std::string_view k, std::int64_t v) {
  key(k);
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  out_.append(digits, end);
}

void JsonObjectWriter::string(std::string_view k, std::string_view v) {
  key(k);
  append_json_string(out_, v);
}

void JsonObjectWriter::value(std::string_view k, const Value& v) {
  key(k);
  append_json(out_, v);
}

void JsonObjectWriter::begin_objects(std::string_view k) {
  key(k);
  out_ += '[';
  first_object_ = true;
}

void JsonObjectWriter::begin_object() {
  if (!first_object_) out_ += ',';
  first_object_ = false;
  begin();
}

void JsonObjectWriter::end_object() {
  end();
  first_ = false;  // back in the outer object, after its list's key
  if (sink_ && out_.size() - element_start_ >= limit_) {
    sink_->write(out_.data(), static_cast<std::streamsize>(out_.size()));
    out_.clear();
    element_start_ = 0;
    spilled_ = true;
  }
}

void JsonObjectWriter::end_objects() {
  out_ += ']';
}

}  // namespace kepoch::report::detail
