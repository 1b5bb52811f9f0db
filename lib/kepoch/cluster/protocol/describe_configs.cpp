#include "kepoch/cluster/protocol/describe_configs.hpp"

#include <array>

#include "kepoch/cluster/protocol/messages.hpp"

namespace kepoch::cluster::protocol {
namespace {

// Indexed by id, as Kafka 4.1.1 numbers them.
constexpr std::array<std::string_view, 9> kSources = {
    "UNKNOWN",
    "TOPIC_CONFIG",
    "DYNAMIC_BROKER_CONFIG",
    "DYNAMIC_DEFAULT_BROKER_CONFIG",
    "STATIC_BROKER_CONFIG",
    "DEFAULT_CONFIG",
    "DYNAMIC_BROKER_LOGGER_CONFIG",
    "CLIENT_METRICS_CONFIG",
    "GROUP_CONFIG",
};
constexpr std::array<std::string_view, 10> kTypes = {
    "UNKNOWN", "BOOLEAN", "STRING", "INT", "SHORT", "LONG", "DOUBLE", "LIST", "CLASS", "PASSWORD",
};

template <std::size_t N>
std::string_view name_of(const std::array<std::string_view, N>& names, std::int8_t id) {
  if (id < 0 || static_cast<std::size_t>(id) >= N) return names[0];
  return names[static_cast<std::size_t>(id)];
}

ConfigEntry entry_from(const Struct& c) {
  ConfigEntry out;
  out.name = c.get_string("name");
  out.value = c.get_nullable_string("value");
  out.read_only = c.get_bool("read_only");
  out.config_source = c.get_int8("config_source");
  out.is_default = out.config_source == kDefaultConfigSource;
  out.is_sensitive = c.get_bool("is_sensitive");
  out.config_type = c.get_int8("config_type");
  out.documentation = c.get_nullable_string("documentation");
  for (const auto& s : c.get_array("synonyms")) {
    const Struct& syn = s.as_struct();
    out.synonyms.push_back(
        {syn.get_string("name"), syn.get_nullable_string("value"), syn.get_int8("source")});
  }
  return out;
}

}  // namespace

Struct make_describe_configs_request(const std::vector<ConfigResourceQuery>& resources,
                                     bool include_synonyms, bool include_documentation) {
  Struct body = make_request_body(ApiKey::kDescribeConfigs);
  for (const auto& r : resources) {
    Struct& e = body.add_element("resources");
    e.set_int8("resource_type", r.resource_type).set_string("resource_name", r.resource_name);
    if (r.config_keys) {
      e.set_string_array("configuration_keys", *r.config_keys);
    } else {
      e.set_null("configuration_keys");
    }
  }
  body.set_bool("include_synonyms", include_synonyms)
      .set_bool("include_documentation", include_documentation);
  return body;
}

DescribeConfigsResponse DescribeConfigsResponse::from(const Struct& body) {
  DescribeConfigsResponse out;
  out.throttle_time_ms = body.get_int32("throttle_time_ms");
  for (const auto& r : body.get_array("results")) {
    const Struct& res = r.as_struct();
    ConfigResourceResult result;
    result.error_code = res.get_int16("error_code");
    result.error_message = res.get_nullable_string("error_message");
    result.resource_type = res.get_int8("resource_type");
    result.resource_name = res.get_string("resource_name");
    for (const auto& c : res.get_array("configs"))
      result.configs.push_back(entry_from(c.as_struct()));
    out.resources.push_back(std::move(result));
  }
  return out;
}

std::string_view config_source_name(std::int8_t source) {
  return name_of(kSources, source);
}

std::string_view config_type_name(std::int8_t type) {
  return name_of(kTypes, type);
}

}  // namespace kepoch::cluster::protocol
