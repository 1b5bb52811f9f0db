#include "kepoch/format/meta_properties.hpp"

#include <fmt/format.h>

#include "kepoch/base/java_text.hpp"
#include "kepoch/base/text.hpp"

namespace kepoch {
namespace {

JavaFailure runtime(int line, std::string message, std::string explanation) {
  return {JavaFailureClass::unchecked, line, "java.lang.RuntimeException", std::move(message),
          std::move(explanation)};
}

std::string_view trim(std::string_view s) {
  // String.trim(): strips code points <= U+0020 at both ends.
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= 0x20)
    s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= 0x20)
    s.remove_suffix(1);
  return s;
}

// PropertiesUtils.loadRequiredIntProp
std::optional<JavaFailure> required_int(const java::PropertiesParse& props, std::string_view key,
                                        std::optional<std::int32_t>& out) {
  const java::Property* p = props.find(key);
  if (!p)
    return runtime(0, fmt::format("Failed to find {}", key), fmt::format("{} is missing", key));
  out = java::parse_int(p->value);
  if (!out) {
    return runtime(p->line, fmt::format("Unable to read {} as a base-10 number.", key),
                   fmt::format("{} \"{}\" is not an int", key, excerpt(p->value)));
  }
  return std::nullopt;
}

// MetaProperties.Builder(Properties) followed by build().
std::optional<JavaFailure> build(MetaProperties& m) {
  const auto& props = m.properties;
  const java::Property* version = props.find("version");
  m.version = java::parse_int(trim(version ? std::string_view(version->value) : "0"));
  const int version_line = version ? version->line : 0;
  if (!m.version) {
    return runtime(version_line,
                   fmt::format("Invalid meta.properties version string '{}'", version->value),
                   "version is not an int");
  }
  if (*m.version != 0 && *m.version != 1) {
    return runtime(version_line,
                   fmt::format("Unknown meta.properties version number {}", *m.version),
                   fmt::format("version must be 0 or 1, found {}", *m.version));
  }
  if (*m.version == 0) {
    if (props.find("broker.id")) {
      if (auto f = required_int(props, "broker.id", m.node_id)) return f;
    }
  } else if (auto f = required_int(props, "node.id", m.node_id)) {
    return f;
  }
  if (const auto* c = props.find("cluster.id")) m.cluster_id = c->value;
  if (const auto* d = props.find("directory.id")) {
    const UuidParse id = parse_uuid(d->value);
    if (!id.ok) {
      return runtime(d->line, "Unable to read directory.id as a Uuid: " + id.error,
                     fmt::format("directory.id \"{}\" is not a base64url uuid", excerpt(d->value)));
    }
    m.directory_id = id.uuid;
  }
  if (*m.version != 0) {
    if (!m.cluster_id) return runtime(0, "cluster.id was not found.", "cluster.id is missing");
    if (!m.node_id) return runtime(0, "node.id was not found.", "node.id is missing");
  }
  return std::nullopt;
}

}  // namespace

MetaProperties read_meta_properties(std::string_view text) {
  MetaProperties m;
  m.properties = java::load_properties(text);
  if (m.properties.error) {
    m.failure = JavaFailure{JavaFailureClass::unchecked, m.properties.error_line,
                            "java.lang.IllegalArgumentException", *m.properties.error,
                            "a \\u escape needs four hex digits"};
    return m;
  }
  m.failure = build(m);
  if (!m.failure && m.directory_id && m.directory_id->is_reserved()) {
    const auto* d = m.properties.find("directory.id");
    m.verify_failure = runtime(d ? d->line : 0,
                               fmt::format("Invalid resrved directory ID {} found in <log dir>",
                                           m.directory_id->to_string()),
                               "directory.id is one of Kafka's reserved ids");
  }
  return m;
}

}  // namespace kepoch
