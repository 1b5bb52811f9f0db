#pragma once
// ApiVersions (api key 18), typed: the request kepoch sends first on every connection and
// the answer it picks versions from (pick_version in schema_registry.hpp). Mirrors
// ApiVersionsRequest / ApiVersionsResponse of Kafka's clients.

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "kepoch/cluster/protocol/messages.hpp"
#include "kepoch/cluster/protocol/schema.hpp"

namespace kepoch::cluster::protocol {

// client_software_name / _version are v3+ (ignorable: dropped below). Brokers answer
// INVALID_REQUEST unless both match [a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?.
Struct make_api_versions_request(std::string_view client_software_name,
                                 std::string_view client_software_version);

struct ApiVersionsResponse {
  std::int16_t error_code = 0;
  std::int32_t throttle_time_ms = 0;
  std::map<std::int16_t, Versions> api_keys;  // api key -> (min, max) the broker speaks
  std::optional<std::map<std::string, std::int16_t>> finalized_features;  // see below

  std::optional<Versions> versions_of(ApiKey api) const;

  static ApiVersionsResponse from(const Struct& body);
};

// The feature levels the cluster has finalized (v3+ tagged field finalized_features: name ->
// max_version_level, e.g. metadata.version, eligible.leader.replicas.version); nullopt when
// the broker did not say (below v3, or finalized_features_epoch -1). A feature the map lacks
// is at level 0, as Kafka's FeaturesImage.versionOrDefault reads it.
std::optional<std::map<std::string, std::int16_t>> finalized_features_of(const Struct& body);

// Kafka's ApiVersionsResponse.parse: a broker that does not speak the version asked for
// answers UNSUPPORTED_VERSION in a v0 body (listing what it does speak), so a body that
// does not decode at `version` is decoded again as v0 before giving up (with the error of
// the first reading). The header is v0 either way.
DecodedResponse decode_api_versions_response(std::int16_t version,
                                             std::span<const std::uint8_t> frame);

}  // namespace kepoch::cluster::protocol
