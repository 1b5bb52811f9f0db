#pragma once
// meta.properties (metadata/.../properties/MetaProperties.java, MetaPropertiesEnsemble.java),
// a java.util.Properties file:
//
//   #
//   #<date>
//   version=1                 0 or absent (ZooKeeper era) or 1 (KRaft); trimmed, parseInt
//   node.id=1                 v1: required int (not trimmed); v0: broker.id, optional
//   cluster.id=<id>           v1: required
//   directory.id=<uuid>       optional; Uuid.fromString; reserved ids rejected by verify()
//
// Any failure while loading puts the log dir in MetaPropertiesEnsemble's errorLogDirs.

#include <optional>
#include <string>
#include <string_view>

#include "kepoch/base/java_properties.hpp"
#include "kepoch/base/uuid.hpp"
#include "kepoch/format/java_failure.hpp"

namespace kepoch {

inline constexpr std::string_view kMetaPropertiesName = "meta.properties";

struct MetaProperties {
  java::PropertiesParse properties;
  std::optional<std::int32_t> version;
  std::optional<std::int32_t> node_id;  // node.id (v1) or broker.id (v0)
  std::optional<std::string> cluster_id;
  std::optional<Uuid> directory_id;
  std::optional<JavaFailure> failure;         // the loader rejects it (errorLogDirs)
  std::optional<JavaFailure> verify_failure;  // MetaPropertiesEnsemble.verify throws
};

MetaProperties read_meta_properties(std::string_view text);

}  // namespace kepoch
