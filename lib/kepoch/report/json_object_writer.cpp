#include "kepoch/report/json_object_writer.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
template <class Out>
void append_escape(Out& out, unsigned char c) {
  switch (c) {
    case '\b':
      out.append("\\b", 2);
      return;
    case '\t':
      out.append("\\t", 2);
      return;
    case '\n':
      out.append("\\n", 2);
      return;
    case '\f':
      out.append("\\f", 2);
      return;
    case '\r':
      out.append("\\r", 2);
      return;
    case '"':
      out.append("\\\"", 2);
      return;
    case '\\':
      out.append("\\\\", 2);
      return;
    default: {
      static constexpr char kHex[] = "0123456789abcdef";
      const char u[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
      out.append(u, sizeof u);
    }
  }
}

// nlohmann's escaping, done here for the strings it would print unchanged or with the
// escapes above (runs of plain bytes and well-formed UTF-8 copied in bulk, 8 bytes tested at
// a time); a string with malformed UTF-8 goes to nlohmann itself, whose U+FFFD replacement
// rules (which bytes a bad sequence swallows) it alone defines.
template <class Out>
void escape_json_string(Out& out, std::string_view s) {
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

}  // namespace

void TextBuffer::grow(std::size_t n) {
  const std::size_t want = std::max({capacity_ * 2, size_ + n, std::size_t{4096}});
  auto bigger = std::make_unique_for_overwrite<char[]>(want);
  if (size_) std::memcpy(bigger.get(), data_.get(), size_);
  data_ = std::move(bigger);
  capacity_ = want;
}

void append_json_string(std::string& out, std::string_view s) {
  escape_json_string(out, s);
}

namespace {

// Whether the n bytes at p (n < 64) are all plain: 8 at a time, the last word overlapping the
// one before.
bool all_plain_short(const unsigned char* p, std::size_t n) {
  const auto word = [](const unsigned char* at) {
    std::uint64_t w;
    std::memcpy(&w, at, 8);
    return w;
  };
  if (n < 8) {
    for (std::size_t i = 0; i < n; ++i)
      if (!kPlain[p[i]]) return false;
    return true;
  }
#if defined(__SSE2__)
  if (n >= 16) {  // 16 at a time: below 0x20 as a signed byte (control bytes, >= 0x80), '"', '\'
    const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'),
                  backslash = _mm_set1_epi8('\\');
    const auto bad = [&](const unsigned char* at) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
      return _mm_or_si128(_mm_cmplt_epi8(v, space),
                          _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
    };
    __m128i any = bad(p + n - 16);
    for (std::size_t i = 0; i + 16 < n; i += 16)
      any = _mm_or_si128(any, bad(p + i));
    return _mm_movemask_epi8(any) == 0;
  }
#endif
  for (std::size_t i = 0; i + 8 < n; i += 8)
    if (needs_attention(word(p + i))) return false;
  return !needs_attention(word(p + n - 8));
}

// The n bytes at from (n < 64) copied to `to` as at most two overlapping fixed-size copies.
void copy_below_64(char* to, const unsigned char* from, std::size_t n) {
  if (n >= 32) {
    std::memcpy(to, from, 32);
    std::memcpy(to + n - 32, from + n - 32, 32);
  } else if (n >= 16) {
    std::memcpy(to, from, 16);
    std::memcpy(to + n - 16, from + n - 16, 16);
  } else if (n >= 8) {
    std::memcpy(to, from, 8);
    std::memcpy(to + n - 8, from + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(to, from, 4);
    std::memcpy(to + n - 4, from + n - 4, 4);
  } else {
    for (std::size_t i = 0; i < n; ++i)
      to[i] = static_cast<char>(from[i]);
  }
}

}  // namespace

void append_json_string(TextBuffer& out, std::string_view s) {
  // A decoded record's texts (a group's, a topic's, a member's or client's id) are mostly
  // short and plain: tested, then copied between their quotes in one reservation.
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  if (n < 64 && all_plain_short(p, n)) {
    char* q = out.room(n + 2);
    *q = '"';
    copy_below_64(q + 1, p, n);
    q[n + 1] = '"';
    out.advance(n + 2);
    return;
  }
  escape_json_string(out, s);
}

void append_json(std::string& out, const Value& v) {
  out += nlohmann_dump(to_json(v));
}

namespace {

// Whether the n bytes at a and b are equal; n is a key's length, mostly 4-24: compared as
// 4- or 8-byte words (the last word overlapping the one before), no call.
bool same_bytes(const char* a, const char* b, std::size_t n) {
  const auto word8 = [](const char* p) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  };
  const auto word4 = [](const char* p) {
    std::uint32_t w;
    std::memcpy(&w, p, 4);
    return w;
  };
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 < n; i += 8)
      if (word8(a + i) != word8(b + i)) return false;
    return word8(a + n - 8) == word8(b + n - 8);
  }
  if (n >= 4) return word4(a) == word4(b) && word4(a + n - 4) == word4(b + n - 4);
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// The number of decimal digits of u: from its bit length (log10(2) ~ 1233 / 4096), then one
// comparison, where counting by division took a step per digit (13 for a timestamp).
std::size_t decimal_length(std::uint64_t u) {
  static constexpr std::uint64_t kPowers[] = {1,
                                              10,
                                              100,
                                              1000,
                                              10000,
                                              100000,
                                              1000000,
                                              10000000,
                                              100000000,
                                              1000000000,
                                              10000000000,
                                              100000000000,
                                              1000000000000,
                                              10000000000000,
                                              100000000000000,
                                              1000000000000000,
                                              10000000000000000,
                                              100000000000000000,
                                              1000000000000000000,
                                              10000000000000000000u};
  const auto bits = static_cast<std::size_t>(std::bit_width(u | 1));
  const std::size_t t = (bits * 1233) >> 12;  // the digits, or one fewer
  return t + (u >= kPowers[t] ? 1 : 0);
}

// Writes v's decimal digits at p (room for 20 digits and a sign); returns their end. Two
// digits per step from a table, the length known first, as std::to_chars does, inline.
[[gnu::always_inline]] inline char* write_integer(char* p, std::int64_t v) {
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  std::uint64_t u = static_cast<std::uint64_t>(v);
  if (v < 0) {
    *p++ = '-';
    u = 0 - u;
  }
  if (u < 10) {
    *p = static_cast<char>('0' + u);
    return p + 1;
  }
  if (u < 10000) {  // most of a record's offsets, sizes and counts: a pair or two
    const auto w = static_cast<std::uint32_t>(u);
    if (w < 100) {
      std::memcpy(p, kPairs + w * 2, 2);
      return p + 2;
    }
    const std::uint32_t high = w / 100, low = w % 100;
    if (high < 10) {
      *p = static_cast<char>('0' + high);
      std::memcpy(p + 1, kPairs + low * 2, 2);
      return p + 3;
    }
    std::memcpy(p, kPairs + high * 2, 2);
    std::memcpy(p + 2, kPairs + low * 2, 2);
    return p + 4;
  }
  char* const end = p + decimal_length(u);
  char* q = end;
  // Two digits at a time; 64-bit division only while the value needs it (epoch
  // milliseconds: their last eight digits), then 32-bit division, which is cheaper.
  while (u > 0xFFFFFFFFu) {
    const auto i = static_cast<std::size_t>(u % 100) * 2;
    u /= 100;
    q -= 2;
    std::memcpy(q, kPairs + i, 2);
  }
  auto w = static_cast<std::uint32_t>(u);
  while (w >= 100) {
    const auto i = static_cast<std::size_t>(w % 100) * 2;
    w /= 100;
    q -= 2;
    std::memcpy(q, kPairs + i, 2);
  }
  if (w >= 10)
    std::memcpy(q - 2, kPairs + w * 2, 2);
  else
    *--q = static_cast<char>('0' + w);
  return end;
}

constexpr std::size_t kScalarRoom = 24;  // an integer, true, false, null

}  // namespace

namespace {
bool holds_key(const std::string& name, const std::string& text, std::string_view k) {
  return !text.empty() && name.size() == k.size() &&  // text is never empty once set
         same_bytes(name.data(), k.data(), k.size());
}
}  // namespace

// Two ways per set (the slot and its neighbour): two names a record writes each time may
// share a slot ("offset" and "coordinator" of a decoded record did, and were each rendered
// again for every record). The name found in the neighbour, or rendered into the slot, whose
// name moves to the neighbour.
JsonObjectWriter::RenderedKey& JsonObjectWriter::missed_key(std::size_t slot, std::string_view k) {
  RenderedKey& other = keys_[slot ^ 1];
  if (holds_key(other.name, other.text, k)) return other;
  RenderedKey& cached = keys_[slot];
  if (!cached.text.empty()) std::swap(cached, other);
  cached.name.assign(k);
  cached.text.clear();
  append_json_string(cached.text, k);
  cached.text += ':';
  cached.padded.fill(0);
  if (cached.text.size() <= cached.padded.size())
    std::memcpy(cached.padded.data(), cached.text.data(), cached.text.size());
  return cached;
}

// A member's key as `"key":`, rendered once per name: the writers pass the same few names
// (mostly literals) for every batch and record. The slot is chosen by the name's address and
// size, and taken only when the name's bytes match. Leaves room for a scalar value.
void JsonObjectWriter::key(std::string_view k) {
  // Fibonacci hashing of the address (literals sit a few bytes apart), plus the size.
  const auto slot = static_cast<std::size_t>(
      ((reinterpret_cast<std::uintptr_t>(k.data()) + k.size()) * 0x9E3779B97F4A7C15ull) >>
      (64 - kKeySlotBits));
  RenderedKey* found = &keys_[slot];
  if (!holds_key(found->name, found->text, k)) found = &missed_key(slot, k);
  const RenderedKey& cached = *found;
  const std::size_t n = cached.text.size();
  char* p = out_.room(1 + std::max(n, cached.padded.size()) + kScalarRoom);
  const std::size_t comma = first_ ? 0 : 1;
  *p = ',';
  if (n <= cached.padded.size())  // a fixed-size copy: the bytes past n are overwritten later
    std::memcpy(p + comma, cached.padded.data(), cached.padded.size());
  else
    std::memcpy(p + comma, cached.text.data(), n);
  out_.advance(comma + n);
  first_ = false;
}

void JsonObjectWriter::null(std::string_view k) {
  key(k);
  std::memcpy(out_.room(4), "null", 4);
  out_.advance(4);
}

void JsonObjectWriter::boolean(std::string_view k, bool v) {
  key(k);
  std::memcpy(out_.room(5), v ? "true" : "false", 5);
  out_.advance(v ? 4 : 5);
}

void JsonObjectWriter::integer(std::string_view k, std::int64_t v) {
  key(k);
  char* p = out_.room(kScalarRoom);
  out_.advance(static_cast<std::size_t>(write_integer(p, v) - p));
}

void JsonObjectWriter::string(std::string_view k, std::string_view v) {
  key(k);
  append_json_string(out_, v);
}

namespace {

// v as nlohmann's dump(-1) prints to_json(v), written straight into the text: no
// ordered_json tree per member (a decoded coordinator record is one per record of a dump,
// and building and freeing the tree cost more than the decoding). Objects' member names are
// unique (a report's rule: to_json's operator[] would keep the first place of a repeated
// one); doubles go through nlohmann, whose shortest round-trip form it alone defines.
void append_value(TextBuffer& out, const Value& v) {
  struct Visitor {
    TextBuffer& out;
    void operator()(std::monostate) const { out += "null"; }
    void operator()(bool b) const { out += b ? "true" : "false"; }
    void operator()(std::int64_t i) const {
      char* p = out.room(24);
      out.advance(static_cast<std::size_t>(write_integer(p, i) - p));
    }
    void operator()(double d) const { out += nlohmann_dump(nlohmann::ordered_json(d)); }
    void operator()(const std::string& s) const { escape_json_string(out, s); }
    void operator()(const Value::Array& a) const {
      out += '[';
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (i) out += ',';
        append_value(out, a[i]);
      }
      out += ']';
    }
    void operator()(const Value::Object& o) const {
      out += '{';
      for (std::size_t i = 0; i < o.size(); ++i) {
        if (i) out += ',';
        escape_json_string(out, o[i].first);
        out += ':';
        append_value(out, o[i].second);
      }
      out += '}';
    }
  };
  std::visit(Visitor{out}, v.data());
}

}  // namespace

void append_json(TextBuffer& out, const Value& v) {
  append_value(out, v);
}

void append_json_integer(TextBuffer& out, std::int64_t v) {
  char* p = out.room(24);
  out.advance(static_cast<std::size_t>(write_integer(p, v) - p));
}

void JsonObjectWriter::value(std::string_view k, const Value& v) {
  key(k);
  append_value(out_, v);
}

void JsonObjectWriter::lazy_shown(std::string_view k, const LazyMember& member, LazyTimes times) {
  key(k);
  member.append_json(out_, times);
}

// The run's keys, rendered on first use; nullptr if one does not fit a slot (then the run is
// written member by member).
const JsonObjectWriter::RenderedRun* JsonObjectWriter::rendered(const MemberNames& names) {
  const RenderedRun*& found = found_runs_[names.slot(kRunSlotBits)];
  if (!found || !names.same(found->names)) found = render(names);
  return found->keys.empty() ? nullptr : found;
}

// The run's entry in runs_, made and rendered when new.
const JsonObjectWriter::RenderedRun* JsonObjectWriter::render(const MemberNames& names) {
  for (const RenderedRun& r : runs_)
    if (names.same(r.names)) return &r;
  RenderedRun& r = runs_.emplace_back();
  r.names = names.names();
  for (const std::string_view name : names.names()) {
    std::string text(1, ',');
    append_json_string(text, name);
    text += ':';
    if (text.size() > r.keys.emplace_back().size()) {
      r.keys.clear();  // written member by member
      return &r;
    }
    r.keys.back().fill(0);
    std::memcpy(r.keys.back().data(), text.data(), text.size());
    r.sizes.push_back(static_cast<std::uint8_t>(text.size()));
  }
  return &r;
}

namespace {
// `text` in quotes at p, without escaping (a time's text); returns the end.
char* quoted_as_is(char* p, std::string_view text) {
  *p = '"';
  const std::size_t n = text.size();
  if (n >= 16 && n <= 32) {  // a time's text (24 bytes in UTC): two fixed copies, no call
    std::memcpy(p + 1, text.data(), 16);
    std::memcpy(p + 1 + n - 16, text.data() + n - 16, 16);
  } else {
    std::memcpy(p + 1, text.data(), n);
  }
  p[text.size() + 1] = '"';
  return p + text.size() + 2;
}
}  // namespace

// Writes v at p (room for kScalarRoom bytes), reusing the last wide integer's text when v is
// the same; returns the end.
char* JsonObjectWriter::wide_integer(char* p, std::int64_t v) {
  if (v == last_wide_ && last_wide_size_ != 0) {
    std::memcpy(p, last_wide_text_.data(), last_wide_text_.size());
    return p + last_wide_size_;
  }
  char* const end = write_integer(p, v);
  last_wide_ = v;
  last_wide_size_ = static_cast<std::size_t>(end - p);
  std::memcpy(last_wide_text_.data(), p, last_wide_size_);
  return end;
}

char* JsonObjectWriter::run_integer(char* p, std::int64_t v) {
  return v > 0xFFFFFFFFll || v < -0xFFFFFFFFll ? wide_integer(p, v) : write_integer(p, v);
}

// The run's members at p (room reserved), from its member `from` on (values[0] is that
// member's), the first without its comma when `first`; returns their end. Each key is one
// fixed-size copy.
template <typename T, typename WriteValue>
char* JsonObjectWriter::run_members(char* p, const RenderedRun& run, std::span<const T> values,
                                    bool first, WriteValue write_value, std::size_t from) {
  const std::array<char, kRunSlot>* const keys = run.keys.data() + from;
  const std::uint8_t* const sizes = run.sizes.data() + from;
  std::size_t i = 0;
  if (first) {  // the object's first member: its key without the comma
    std::memcpy(p, keys[0].data() + 1, kRunSlot - 1);
    p = write_value(p + sizes[0] - 1, values[0]);
    i = 1;
  }
  for (; i < values.size() && p; ++i) {
    std::memcpy(p, keys[i].data(), kRunSlot);
    p = write_value(p + sizes[i], values[i]);
  }
  return p;
}

// Room for every key and value is reserved once.
template <typename T, typename WriteValue>
void JsonObjectWriter::write_run(const RenderedRun& run, std::span<const T> values,
                                 std::size_t room, WriteValue write_value) {
  char* const start = out_.room(room);
  char* const end = run_members(start, run, values, first_, write_value);
  first_ = false;
  out_.advance(static_cast<std::size_t>(end - start));
}

// An object of the list that is the run alone: its comma, braces and members in one
// reservation.
// Whether it was written: not when write_value returned nullptr (the text is then as it was).
template <typename T, typename WriteValue>
bool JsonObjectWriter::write_run_object(const RenderedRun& run, std::span<const T> values,
                                        std::size_t room, WriteValue write_value) {
  char* const start = out_.room(room + 3);
  char* p = start;
  *p = ',';
  p += first_object_ ? 0 : 1;
  *p++ = '{';
  p = run_members(p, run, values, true, write_value);
  if (!p) return false;
  *p++ = '}';
  out_.advance(static_cast<std::size_t>(p - start));
  first_object_ = false;
  first_ = false;  // back in the outer object, after its list's key
  after_object();
  return true;
}

void JsonObjectWriter::integers(const MemberNames& names, std::span<const std::int64_t> values) {
  const RenderedRun* run = rendered(names);
  if (!run || values.empty()) return ObjectWriter::integers(names, values);
  write_run(*run, values, values.size() * (kRunSlot + kScalarRoom),
            [this](char* p, std::int64_t v) { return run_integer(p, v); });
}

void JsonObjectWriter::integers_object(const MemberNames& names,
                                       std::span<const std::int64_t> values) {
  const RenderedRun* run = rendered(names);
  if (!run || values.empty()) return ObjectWriter::integers_object(names, values);
  write_run_object(*run, values, values.size() * (kRunSlot + kScalarRoom),
                   [this](char* p, std::int64_t v) { return run_integer(p, v); });
}

// Writes v at p (room for kScalarRoom bytes, or a time's text and its quotes); returns the
// end.
char* JsonObjectWriter::run_scalar(char* p, const Scalar& v) {
  switch (v.kind) {
    case Scalar::Kind::integer:
      return run_integer(p, v.integer);
    case Scalar::Kind::time_text:  // needs no escaping (ObjectWriter::time_text)
      return quoted_as_is(p, v.text);
    default:
      std::memcpy(p, "null", 4);
      return p + 4;
  }
}

namespace {
// The room a scalar of a run written whole may take after its key: an integer, null, or a
// time's text (at most kIsoTimeMax bytes) in quotes.
constexpr std::size_t kRunValueRoom = 48;
}  // namespace

// As run_scalar within kRunValueRoom bytes; nullptr for a string (to be escaped) or a longer
// text.
char* JsonObjectWriter::run_scalar_or_null(char* p, const Scalar& v) {
  switch (v.kind) {
    case Scalar::Kind::integer:
      return run_integer(p, v.integer);
    case Scalar::Kind::time_text:
      return v.text.size() + 2 <= kRunValueRoom ? quoted_as_is(p, v.text) : nullptr;
    case Scalar::Kind::null:
      std::memcpy(p, "null", 4);
      return p + 4;
    default:
      return nullptr;
  }
}

namespace {
// The room a run of scalars needs, or 0 when it holds a string (to be escaped: written member
// by member).
std::size_t scalars_room(std::span<const Scalar> values, std::size_t slot, std::size_t scalar) {
  std::size_t room = 0;
  for (const Scalar& v : values) {
    if (v.kind == Scalar::Kind::string) return 0;
    room += slot + std::max(scalar, v.text.size() + 2);
  }
  return room;
}
}  // namespace

// As integers(); a run holding a string (to be escaped) goes member by member.
void JsonObjectWriter::scalars(const MemberNames& names, std::span<const Scalar> values) {
  const RenderedRun* run = rendered(names);
  const std::size_t room = scalars_room(values, kRunSlot, kScalarRoom);
  if (!run || room == 0) return ObjectWriter::scalars(names, values);
  write_run(*run, values, room, [this](char* p, const Scalar& v) { return run_scalar(p, v); });
}

// Written whole at once (no pass to size it first): a string met on the way (to be escaped)
// leaves the text as it was and the object goes member by member.
void JsonObjectWriter::scalars_object(const MemberNames& names, std::span<const Scalar> values) {
  const RenderedRun* run = rendered(names);
  if (!run || values.empty()) return ObjectWriter::scalars_object(names, values);
  if (!write_run_object(*run, values, values.size() * (kRunSlot + kRunValueRoom),
                        [this](char* p, const Scalar& v) { return run_scalar_or_null(p, v); }))
    ObjectWriter::scalars_object(names, values);
}

// As write_run_object's object, with the lazy member's key and text before the run's member
// `at`: one call per decoded record, where its parts were five.
void JsonObjectWriter::scalars_object_with(const MemberNames& names, std::span<const Scalar> values,
                                           std::size_t at, std::string_view k,
                                           const LazyMember& member, LazyTimes times) {
  const RenderedRun* run = rendered(names);
  const std::size_t room = scalars_room(values, kRunSlot, kScalarRoom);
  if (!run || room == 0 || at == 0)
    return ObjectWriter::scalars_object_with(names, values, at, k, member, times);
  // The member's key, rendered when it changes (one name per dump: no lookup per record).
  if (k != with_key_name_) {
    std::string text(1, ',');
    append_json_string(text, k);
    text += ':';
    if (text.size() > kRunSlot)
      return ObjectWriter::scalars_object_with(names, values, at, k, member, times);
    with_key_name_.assign(k);
    with_key_.fill(0);
    std::memcpy(with_key_.data(), text.data(), text.size());
    with_key_size_ = text.size();
  }
  const auto write_value = [this](char* p, const Scalar& v) { return run_scalar(p, v); };
  char* const start = out_.room(room + 2 + kRunSlot);
  char* p = start;
  *p = ',';
  p += first_object_ ? 0 : 1;
  *p++ = '{';
  p = run_members(p, *run, values.first(at), true, write_value, 0);
  std::memcpy(p, with_key_.data(), kRunSlot);
  p += with_key_size_;
  out_.advance(static_cast<std::size_t>(p - start));
  first_object_ = false;
  first_ = false;
  member.append_json(out_, times);
  char* const tail = out_.room(room + 1);
  p = run_members(tail, *run, values.subspan(at), false, write_value, at);
  *p++ = '}';
  out_.advance(static_cast<std::size_t>(p - tail));
  first_ = false;  // back in the outer object, after its list's key
  after_object();
}

void JsonObjectWriter::time_text(std::string_view k, std::string_view text) {
  key(k);
  char* const p = out_.room(text.size() + 2);
  out_.advance(static_cast<std::size_t>(quoted_as_is(p, text) - p));
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
  after_object();
}

// Hands the text on once it passes the limit.
void JsonObjectWriter::after_object() {
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
