#pragma once
// A password or key passphrase. It has no operator<< and no fmt formatter, so putting one
// into a message or a log line does not compile; the only way to the text is reveal(),
// which is easy to grep for. The bytes are wiped when the Secret goes away.

#include <string>
#include <string_view>

namespace kepoch::cluster {

class Secret {
 public:
  Secret() = default;
  explicit Secret(std::string text) : text_(std::move(text)) {}
  Secret(const Secret&) = default;
  Secret(Secret&& other) noexcept : text_(std::move(other.text_)) { other.wipe(); }
  Secret& operator=(const Secret& other);
  Secret& operator=(Secret&& other) noexcept;
  ~Secret() { wipe(); }

  bool empty() const { return text_.empty(); }
  // The clear text, for the code that must hand it to OpenSSL or SASL.
  std::string_view reveal() const { return text_; }

 private:
  void wipe() noexcept;
  std::string text_;
};

// What describe_settings and error messages show instead of a secret.
inline constexpr std::string_view kRedacted = "***";

}  // namespace kepoch::cluster
