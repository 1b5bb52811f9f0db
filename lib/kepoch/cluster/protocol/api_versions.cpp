#include "kepoch/cluster/protocol/api_versions.hpp"

#include "kepoch/base/error.hpp"

namespace kepoch::cluster::protocol {

Struct make_api_versions_request(std::string_view client_software_name,
                                 std::string_view client_software_version) {
  Struct body = make_request_body(ApiKey::kApiVersions);
  body.set_string("client_software_name", std::string(client_software_name));
  body.set_string("client_software_version", std::string(client_software_version));
  return body;
}

std::optional<Versions> ApiVersionsResponse::versions_of(ApiKey api) const {
  const auto it = api_keys.find(static_cast<std::int16_t>(api));
  if (it == api_keys.end()) return std::nullopt;
  return it->second;
}

std::optional<std::map<std::string, std::int16_t>> finalized_features_of(const Struct& body) {
  if (body.get_int64("finalized_features_epoch") < 0) return std::nullopt;
  std::map<std::string, std::int16_t> levels;
  for (const auto& e : body.get_array("finalized_features")) {
    const Struct& f = e.as_struct();
    levels[f.get_string("name")] = f.get_int16("max_version_level");
  }
  return levels;
}

ApiVersionsResponse ApiVersionsResponse::from(const Struct& body) {
  ApiVersionsResponse out;
  out.error_code = body.get_int16("error_code");
  out.throttle_time_ms = body.get_int32("throttle_time_ms");
  for (const auto& e : body.get_array("api_keys")) {
    const Struct& k = e.as_struct();
    out.api_keys[k.get_int16("api_key")] =
        Versions{k.get_int16("min_version"), k.get_int16("max_version")};
  }
  out.finalized_features = finalized_features_of(body);
  return out;
}

DecodedResponse decode_api_versions_response(std::int16_t version,
                                             std::span<const std::uint8_t> frame) {
  try {
    return decode_response(ApiKey::kApiVersions, version, frame);
  } catch (const ProtocolError&) {
    if (version == 0) throw;
    try {
      return decode_response(ApiKey::kApiVersions, 0, frame);
    } catch (const ProtocolError&) {
      // Neither reading works: the error at the version asked for says more.
    }
    throw;
  }
}

}  // namespace kepoch::cluster::protocol
