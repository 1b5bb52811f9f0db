#include "kepoch/cluster/jaas_config.hpp"

#include <fmt/format.h>

#include <optional>
#include <stdexcept>
#include <vector>

namespace kepoch::cluster {
namespace {

enum class TokenKind { kWord, kQuoted, kEquals, kSemicolon };

struct Token {
  TokenKind kind;
  std::string text;
};

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-' || c == '$';
}

// StreamTokenizer's escapes inside quotes: \b \f \n \r \t, octal, any other char itself.
char unescape(std::string_view text, std::size_t& i) {
  const char c = text[i++];
  switch (c) {
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    default:
      break;
  }
  if (c >= '0' && c <= '7') {
    int value = c - '0';
    for (int k = 0; k < 2 && i < text.size() && text[i] >= '0' && text[i] <= '7'; ++k)
      value = value * 8 + (text[i++] - '0');
    return static_cast<char>(value);
  }
  return c;
}

std::string read_quoted(std::string_view text, std::size_t& i) {
  std::string out;
  ++i;  // opening quote
  while (i < text.size() && text[i] != '"') {
    if (text[i] == '\\' && i + 1 < text.size()) {
      ++i;
      out += unescape(text, i);
    } else {
      out += text[i++];
    }
  }
  if (i >= text.size()) throw std::invalid_argument("unterminated quoted string");
  ++i;  // closing quote
  return out;
}

void skip_comment(std::string_view text, std::size_t& i) {
  if (text[i + 1] == '/') {
    while (i < text.size() && text[i] != '\n')
      ++i;
    return;
  }
  const auto end = text.find("*/", i + 2);
  if (end == std::string_view::npos) throw std::invalid_argument("unterminated /* comment");
  i = end + 2;
}

std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++i;
    } else if (c == '/' && i + 1 < text.size() && (text[i + 1] == '/' || text[i + 1] == '*')) {
      skip_comment(text, i);
    } else if (c == '"') {
      tokens.push_back({TokenKind::kQuoted, read_quoted(text, i)});
    } else if (c == '=' || c == ';') {
      tokens.push_back({c == '=' ? TokenKind::kEquals : TokenKind::kSemicolon, {}});
      ++i;
    } else if (is_word_char(c)) {
      const auto start = i;
      while (i < text.size() && is_word_char(text[i]))
        ++i;
      tokens.push_back({TokenKind::kWord, std::string(text.substr(start, i - start))});
    } else {
      // Not quoting the character: it may be part of an unquoted password.
      throw std::invalid_argument(
          fmt::format("unexpected character at position {} (quote values: name=\"value\")", i + 1));
    }
  }
  return tokens;
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  std::vector<JaasLoginModule> modules() {
    std::vector<JaasLoginModule> out;
    while (pos_ < tokens_.size())
      out.push_back(module());
    return out;
  }

 private:
  JaasLoginModule module() {
    JaasLoginModule m;
    m.login_module = word("a login module class name");
    m.control_flag = word("a control flag after the login module");
    if (m.control_flag != "required" && m.control_flag != "requisite" &&
        m.control_flag != "sufficient" && m.control_flag != "optional")
      throw std::invalid_argument(
          "invalid control flag after the login module (required, requisite, sufficient or "
          "optional)");
    while (!at(TokenKind::kSemicolon)) {
      // Messages name no token: a stray word may be half of an unquoted password.
      std::string name = word("an option name or ';'");
      if (!at(TokenKind::kEquals))
        throw std::invalid_argument("expected name=value options, then ';'");
      ++pos_;
      if (pos_ >= tokens_.size() ||
          (tokens_[pos_].kind != TokenKind::kWord && tokens_[pos_].kind != TokenKind::kQuoted))
        throw std::invalid_argument("an option has no value after '='");
      m.options[std::move(name)] = tokens_[pos_++].text;
    }
    ++pos_;  // ';'
    return m;
  }

  bool at(TokenKind kind) const {
    if (pos_ >= tokens_.size())
      throw std::invalid_argument("the login module entry does not end with ';'");
    return tokens_[pos_].kind == kind;
  }

  std::string word(std::string_view what) {
    if (!at(TokenKind::kWord)) throw std::invalid_argument(fmt::format("expected {}", what));
    return tokens_[pos_++].text;
  }

  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
};

}  // namespace

JaasLoginModule parse_jaas_config(std::string_view text) {
  auto modules = Parser(tokenize(text)).modules();
  // Kafka's JaasContext.loadClientContext: "...contains N login modules, should be 1 module"
  if (modules.size() != 1)
    throw std::invalid_argument(fmt::format(
        "the JAAS configuration contains {} login modules, should be 1 module", modules.size()));
  return std::move(modules.front());
}

}  // namespace kepoch::cluster
