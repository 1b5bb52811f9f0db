#pragma once
// DescribeConfigs (api key 32), typed: the configuration of topics and brokers with where
// each value comes from. Mirrors DescribeConfigsRequest and DescribeConfigsResponse
// (ConfigSource, ConfigType) of Kafka's clients and ConfigResource.Type.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol {

// ConfigResource.Type ids.
inline constexpr std::int8_t kTopicResource = 2;
inline constexpr std::int8_t kBrokerResource = 4;
inline constexpr std::int8_t kBrokerLoggerResource = 8;

// DescribeConfigsResponse.ConfigSource ids.
inline constexpr std::int8_t kDefaultConfigSource = 5;

struct ConfigResourceQuery {
  std::int8_t resource_type = kTopicResource;
  std::string resource_name;                            // topic name or broker id
  std::optional<std::vector<std::string>> config_keys;  // nullopt: every key
};

// include_documentation is v3+ (an error below when true).
Struct make_describe_configs_request(const std::vector<ConfigResourceQuery>& resources,
                                     bool include_synonyms = false,
                                     bool include_documentation = false);

struct ConfigSynonym {
  std::string name;
  std::optional<std::string> value;
  std::int8_t source = 0;
};

struct ConfigEntry {
  std::string name;
  std::optional<std::string> value;  // null for a sensitive value
  bool read_only = false;
  std::int8_t config_source = -1;
  bool is_default = false;  // config_source is DEFAULT_CONFIG (v0's IsDefault)
  bool is_sensitive = false;
  std::int8_t config_type = 0;  // v3+
  // v3+; below, Kafka's default: an empty string, not null.
  std::optional<std::string> documentation;
  std::vector<ConfigSynonym> synonyms;
};

struct ConfigResourceResult {
  std::int16_t error_code = 0;
  std::optional<std::string> error_message;
  std::int8_t resource_type = 0;
  std::string resource_name;
  std::vector<ConfigEntry> configs;
};

struct DescribeConfigsResponse {
  std::int32_t throttle_time_ms = 0;
  std::vector<ConfigResourceResult> resources;

  static DescribeConfigsResponse from(const Struct& body);
};

// "TOPIC_CONFIG", "DEFAULT_CONFIG", ... (ConfigSource), "UNKNOWN" for other ids.
std::string_view config_source_name(std::int8_t source);
// "BOOLEAN", "STRING", ... (ConfigType), "UNKNOWN" for other ids.
std::string_view config_type_name(std::int8_t type);

}  // namespace kepoch::cluster::protocol
