#include "kepoch/cluster/protocol/field_path.hpp"

#include <fmt/format.h>

namespace kepoch::cluster::protocol {

std::string FieldPath::to_string() const {
  std::string out;
  for (const auto& s : segments_) {
    if (s.index >= 0) {
      out += fmt::format("[{}]", s.index);
    } else {
      if (!out.empty()) out += '.';
      out += s.name;
    }
  }
  return out;
}

}  // namespace kepoch::cluster::protocol
