#include "kepoch/cluster/secret.hpp"

#include <openssl/crypto.h>

namespace kepoch::cluster {

Secret& Secret::operator=(const Secret& other) {
  if (this != &other) {
    wipe();
    text_ = other.text_;
  }
  return *this;
}

Secret& Secret::operator=(Secret&& other) noexcept {
  if (this != &other) {
    wipe();
    text_ = std::move(other.text_);
    other.wipe();
  }
  return *this;
}

// OPENSSL_cleanse: a plain memset before free may be optimised away.
void Secret::wipe() noexcept {
  if (!text_.empty()) OPENSSL_cleanse(text_.data(), text_.size());
  text_.clear();
}

}  // namespace kepoch::cluster
