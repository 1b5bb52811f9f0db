#include "kepoch/cluster/protocol/schema_registry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/protocol/schema_tables.hpp"

namespace kepoch::cluster::protocol {
namespace {

using namespace tables;

constexpr std::array<const MessageSchema*, 36> kSchemas = {
    &kApiVersionsRequest,
    &kApiVersionsResponse,
    &kMetadataRequest,
    &kMetadataResponse,
    &kOffsetForLeaderEpochRequest,
    &kOffsetForLeaderEpochResponse,
    &kDescribeLogDirsRequest,
    &kDescribeLogDirsResponse,
    &kListOffsetsRequest,
    &kListOffsetsResponse,
    &kDescribeTopicPartitionsRequest,
    &kDescribeTopicPartitionsResponse,
    &kDescribeConfigsRequest,
    &kDescribeConfigsResponse,
    &kDescribeClusterRequest,
    &kDescribeClusterResponse,
    &kDescribeAclsRequest,
    &kDescribeAclsResponse,
    &kSaslHandshakeRequest,
    &kSaslHandshakeResponse,
    &kSaslAuthenticateRequest,
    &kSaslAuthenticateResponse,
    &kFetchRequest,
    &kFetchResponse,
    &kFindCoordinatorRequest,
    &kFindCoordinatorResponse,
    &kDescribeProducersRequest,
    &kDescribeProducersResponse,
    &kListTransactionsRequest,
    &kListTransactionsResponse,
    &kDescribeTransactionsRequest,
    &kDescribeTransactionsResponse,
    &kListGroupsRequest,
    &kListGroupsResponse,
    &kOffsetFetchRequest,
    &kOffsetFetchResponse,
};

}  // namespace

const MessageSchema* find_schema(ApiKey api, MessageKind kind) {
  const auto it = std::find_if(kSchemas.begin(), kSchemas.end(), [&](const MessageSchema* s) {
    return s->api_key == api && s->kind == kind;
  });
  return it == kSchemas.end() ? nullptr : *it;
}

const MessageSchema& schema_for(ApiKey api, MessageKind kind) {
  if (const auto* s = find_schema(api, kind)) return *s;
  throw ProtocolError(
      std::string(api_key_name(api)), "",
      fmt::format("kepoch has no schema for {} (api key {}) {}s", api_key_name(api),
                  static_cast<int>(api), kind == MessageKind::kRequest ? "request" : "response"));
}

std::span<const MessageSchema* const> all_schemas() {
  return kSchemas;
}

std::optional<Versions> supported_versions(ApiKey api) {
  const auto* s = find_schema(api, MessageKind::kRequest);
  if (!s) return std::nullopt;
  return s->valid_versions;
}

std::optional<std::int16_t> pick_version(ApiKey api, std::int16_t broker_min,
                                         std::int16_t broker_max) {
  const auto ours = supported_versions(api);
  if (!ours) return std::nullopt;
  const std::int16_t low = std::max(ours->lowest, broker_min);
  const std::int16_t high = std::min(ours->highest, broker_max);
  if (high < low) return std::nullopt;
  return high;
}

}  // namespace kepoch::cluster::protocol
