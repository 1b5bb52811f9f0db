#include "kepoch/base/java_properties.hpp"

namespace kepoch::java {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\f';
}

void append_utf8(std::string& out, unsigned code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

struct LogicalLine {
  std::string text;  // raw, continuations joined, escapes still in place
  int line = 0;
};

// Splits into logical lines as Properties.LineReader does.
std::vector<LogicalLine> logical_lines(std::string_view s) {
  std::vector<LogicalLine> out;
  std::size_t i = 0;
  int natural = 0;
  while (i < s.size()) {
    // One natural line.
    std::size_t end = s.find_first_of("\r\n", i);
    if (end == std::string_view::npos) end = s.size();
    std::string_view line = s.substr(i, end - i);
    std::size_t next = end;
    if (next < s.size())
      next += (s[next] == '\r' && next + 1 < s.size() && s[next + 1] == '\n') ? 2 : 1;
    ++natural;
    i = next;
    std::size_t lead = 0;
    while (lead < line.size() && is_blank(line[lead]))
      ++lead;
    line.remove_prefix(lead);
    if (line.empty() || line[0] == '#' || line[0] == '!') continue;
    LogicalLine logical{std::string(line), natural};
    // Continuation: an odd number of trailing backslashes.
    auto continues = [](const std::string& t) {
      std::size_t n = 0;
      while (n < t.size() && t[t.size() - 1 - n] == '\\')
        ++n;
      return n % 2 == 1;
    };
    while (continues(logical.text) && i <= s.size()) {
      logical.text.pop_back();
      if (i >= s.size()) break;
      std::size_t e = s.find_first_of("\r\n", i);
      if (e == std::string_view::npos) e = s.size();
      std::string_view more = s.substr(i, e - i);
      std::size_t nx = e;
      if (nx < s.size()) nx += (s[nx] == '\r' && nx + 1 < s.size() && s[nx + 1] == '\n') ? 2 : 1;
      ++natural;
      i = nx;
      std::size_t l = 0;
      while (l < more.size() && is_blank(more[l]))
        ++l;
      logical.text.append(more.substr(l));
    }
    out.push_back(std::move(logical));
  }
  return out;
}

// Properties.loadConvert: resolves escapes; false on a malformed \uXXXX.
bool unescape(std::string_view in, std::string& out) {
  for (std::size_t i = 0; i < in.size(); ++i) {
    const auto c = static_cast<unsigned char>(in[i]);
    if (c != '\\') {
      append_utf8(out, c);  // ISO-8859-1 byte to code point
      continue;
    }
    if (++i >= in.size()) break;
    const char e = in[i];
    if (e == 'u') {
      unsigned code = 0;
      for (int k = 1; k <= 4; ++k) {
        if (i + k >= in.size()) return false;
        const char h = in[i + k];
        code <<= 4;
        if (h >= '0' && h <= '9')
          code |= static_cast<unsigned>(h - '0');
        else if (h >= 'a' && h <= 'f')
          code |= static_cast<unsigned>(h - 'a' + 10);
        else if (h >= 'A' && h <= 'F')
          code |= static_cast<unsigned>(h - 'A' + 10);
        else
          return false;
      }
      append_utf8(out, code);
      i += 4;
    } else if (e == 't') {
      out += '\t';
    } else if (e == 'n') {
      out += '\n';
    } else if (e == 'r') {
      out += '\r';
    } else if (e == 'f') {
      out += '\f';
    } else {
      append_utf8(out, static_cast<unsigned char>(e));
    }
  }
  return true;
}

}  // namespace

const Property* PropertiesParse::find(std::string_view key) const {
  for (auto it = properties.rbegin(); it != properties.rend(); ++it)
    if (it->key == key) return &*it;
  return nullptr;
}

PropertiesParse load_properties(std::string_view bytes) {
  PropertiesParse result;
  for (const LogicalLine& l : logical_lines(bytes)) {
    const std::string& t = l.text;
    // Key ends at the first unescaped '=', ':' or blank.
    std::size_t k = 0;
    bool escaped = false;
    for (; k < t.size(); ++k) {
      if (escaped) {
        escaped = false;
        continue;
      }
      if (t[k] == '\\') {
        escaped = true;
        continue;
      }
      if (t[k] == '=' || t[k] == ':' || is_blank(t[k])) break;
    }
    std::size_t v = k;
    while (v < t.size() && is_blank(t[v]))
      ++v;
    if (v < t.size() && (t[v] == '=' || t[v] == ':')) ++v;
    while (v < t.size() && is_blank(t[v]))
      ++v;
    Property p;
    p.line = l.line;
    if (!unescape(std::string_view(t).substr(0, k), p.key) ||
        !unescape(std::string_view(t).substr(v), p.value)) {
      result.error = "Malformed \\uxxxx encoding.";
      result.error_line = l.line;
      return result;
    }
    result.properties.push_back(std::move(p));
  }
  return result;
}

}  // namespace kepoch::java
