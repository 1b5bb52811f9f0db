// The typed views and request builders the cluster commands use, on Kafka's own vectors:
// each view reads what Kafka's serializer wrote (values set in
// tests/protocol/ProtocolVectors.java), fields a version lacks read as Kafka's defaults,
// and each builder writes the bytes Kafka's *Data classes wrote for the same request.
#include <catch2/catch.hpp>

#include "kafka_vectors.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/cluster/protocol/api_versions.hpp"
#include "kepoch/cluster/protocol/describe_cluster.hpp"
#include "kepoch/cluster/protocol/describe_configs.hpp"
#include "kepoch/cluster/protocol/describe_log_dirs.hpp"
#include "kepoch/cluster/protocol/describe_topic_partitions.hpp"
#include "kepoch/cluster/protocol/error_codes.hpp"
#include "kepoch/cluster/protocol/list_offsets.hpp"
#include "kepoch/cluster/protocol/metadata.hpp"
#include "kepoch/cluster/protocol/offset_for_leader_epoch.hpp"
#include "kepoch/cluster/protocol/sasl.hpp"

namespace {

using namespace kepoch;
using namespace kepoch::cluster::protocol;
using namespace kepoch::cluster::protocol::testing;
using Ints = std::vector<std::int32_t>;

const std::string kTopic = "t\xc3\xb3pico-\xc3\xbc-\xe5\x90\x8d\xe5\x89\x8d";  // tópico-ü-名前

Struct response(const std::string& api, int version, const std::string& test_case = "full") {
  const auto& v = kafka_vector(api, "response", version, test_case);
  return decode_body(*api_key_from_name(api), MessageKind::kResponse, v.version, v.bytes);
}

// The bytes of a builder's body against Kafka's request vector.
void check_request(const std::string& api, int version, const Struct& body,
                   const std::string& test_case = "full") {
  INFO(api << " request v" << version << " " << test_case);
  const auto& v = kafka_vector(api, "request", version, test_case);
  CHECK(to_hex(encode_body(*api_key_from_name(api), MessageKind::kRequest, v.version, body)) ==
        to_hex(v.bytes));
}

}  // namespace

TEST_CASE("MetadataResponse view", "[protocol]") {
  const auto m = MetadataResponse::from(response("Metadata", 12));
  REQUIRE(m.brokers.size() == 2);
  CHECK(m.brokers[0].node_id == 1);
  CHECK(m.brokers[0].host == "broker-1.ex\xc3\xa4mple");
  CHECK(m.brokers[0].port == 9092);
  CHECK(m.brokers[0].rack ==
        "r\xc3\xa4"
        "ck-a");
  CHECK(m.brokers[1].rack == std::nullopt);
  CHECK(m.cluster_id == "cl\xc3\xbcster-Id_01");
  CHECK(m.controller_id == 2);
  CHECK(m.throttle_time_ms == 123);
  REQUIRE(m.topics.size() == 2);
  CHECK(m.topics[0].name == kTopic);
  CHECK(m.topics[0].topic_id.to_string() == "ASNFZ4mrze_-3LqYdlQyEA");
  CHECK_FALSE(m.topics[0].is_internal);
  REQUIRE(m.topics[0].partitions.size() == 2);
  const auto& p0 = m.topics[0].partitions[0];
  CHECK(p0.leader_id == 1);
  CHECK(p0.leader_epoch == 7);
  CHECK(p0.replica_nodes == Ints{1, 2, 3});
  CHECK(p0.isr_nodes == Ints{1, 2});
  CHECK(p0.offline_replicas == Ints{3});
  const auto& p1 = m.topics[0].partitions[1];
  CHECK(p1.error_code == errors::kLeaderNotAvailable);
  CHECK(p1.leader_id == -1);
  CHECK(p1.leader_epoch == 12);
  CHECK(p1.isr_nodes.empty());
  CHECK(m.topics[1].name == std::nullopt);  // nullable from v12
  CHECK(m.topics[1].error_code == errors::kUnknownTopicOrPartition);
  CHECK(m.topics[1].is_internal);
  CHECK(m.error_code == 0);  // v13+

  CHECK(MetadataResponse::from(response("Metadata", 13)).error_code ==
        errors::kClusterAuthorizationFailed);
  // v5 has offline replicas but no leader epoch; v0 no rack, cluster id, controller.
  const auto v5 = MetadataResponse::from(response("Metadata", 5));
  CHECK(v5.topics[0].partitions[0].leader_epoch == -1);
  CHECK(v5.topics[0].partitions[0].offline_replicas == Ints{3});
  CHECK(v5.topics[1].name == "__consumer_offsets");
  const auto v0 = MetadataResponse::from(response("Metadata", 0));
  CHECK(v0.brokers[0].rack == std::nullopt);
  CHECK(v0.cluster_id == std::nullopt);
  CHECK(v0.controller_id == -1);
  CHECK(v0.topics[0].partitions[0].offline_replicas.empty());
  CHECK(v0.topics[1].is_internal == false);
  CHECK(MetadataResponse::from(response("Metadata", 12, "nulls")).cluster_id == std::nullopt);
}

TEST_CASE("make_metadata_request asks for all topics, or some, without creating them",
          "[protocol]") {
  for (int v = 1; v <= 7; ++v)
    check_request("Metadata", v, make_metadata_request(static_cast<std::int16_t>(v), std::nullopt),
                  "nulls");
  // v0: every topic is an empty array.
  CHECK(make_metadata_request(0, std::nullopt).get_array("topics").empty());
  CHECK_THROWS_AS(make_metadata_request(0, std::vector<std::string>{}), ProtocolError);
  const Struct some = make_metadata_request(12, std::vector<std::string>{"a", "b"});
  CHECK(some.get_array("topics").size() == 2);
  CHECK(some.get_array("topics")[1].as_struct().get_string("name") == "b");
  CHECK_FALSE(some.get_bool("allow_auto_topic_creation"));
  CHECK(make_metadata_request(3, std::nullopt).get_bool("allow_auto_topic_creation"));
}

TEST_CASE("ApiVersionsResponse view and the v0 fallback", "[protocol]") {
  const auto a = ApiVersionsResponse::from(response("ApiVersions", 3));
  CHECK(a.error_code == errors::kUnsupportedVersion);
  CHECK(a.throttle_time_ms == 7);
  CHECK(a.api_keys.size() == 3);
  const auto metadata = a.versions_of(ApiKey::kMetadata);
  REQUIRE(metadata);
  CHECK(metadata->lowest == 0);
  CHECK(metadata->highest == 13);
  CHECK(a.versions_of(ApiKey::kFetch) == std::nullopt);
  // Finalized features (v3+, tagged): name -> max_version_level, as Kafka's serializer wrote.
  REQUIRE(a.finalized_features);
  CHECK(a.finalized_features->size() == 2);
  CHECK(a.finalized_features->at("metadata.version") == 27);
  CHECK(a.finalized_features->at("f\xc3\xab"
                                 "ature") == 1);
  CHECK(ApiVersionsResponse::from(response("ApiVersions", 0)).throttle_time_ms == 0);
  // Below v3 the broker does not say: unknown, not "no features".
  CHECK_FALSE(ApiVersionsResponse::from(response("ApiVersions", 0)).finalized_features);

  // A broker that does not speak v3 answers in v0; the client reads it as v0.
  const auto& v0 = kafka_vector("ApiVersions", "response", 0);
  std::vector<std::uint8_t> frame = {0, 0, 0, 42};
  frame.insert(frame.end(), v0.bytes.begin(), v0.bytes.end());
  CHECK_THROWS_AS(decode_response(ApiKey::kApiVersions, 3, frame), ProtocolError);
  const DecodedResponse fallback = decode_api_versions_response(3, frame);
  CHECK(fallback.correlation_id == 42);
  CHECK(ApiVersionsResponse::from(fallback.body).api_keys.size() == 3);
  // When neither reading works, the error is the one at the version asked for.
  frame.resize(6);
  CHECK_THROWS_WITH(decode_api_versions_response(3, frame),
                    Catch::Matchers::StartsWith("ApiVersionsResponse v3"));

  for (int v = 0; v <= 4; ++v)
    check_request("ApiVersions", v, make_api_versions_request("kepoch", "0.1.0-\xc3\xbc"));
}

TEST_CASE("OffsetForLeaderEpoch request builder and response view", "[protocol]") {
  const std::vector<EpochQuery> queries = {
      {kTopic, 0, 4, 5}, {kTopic, 7, 8, 9}, {"other.topic", 2, 0, 2147483647}};
  for (int v = 2; v <= 4; ++v)
    check_request("OffsetForLeaderEpoch", v, make_offset_for_leader_epoch_request(queries, 3));

  const auto r = OffsetForLeaderEpochResponse::from(response("OffsetForLeaderEpoch", 4));
  CHECK(r.throttle_time_ms == 10);
  REQUIRE(r.partitions.size() == 3);
  CHECK(r.partitions[0].topic == kTopic);
  CHECK(r.partitions[0].partition == 0);
  CHECK(r.partitions[0].leader_epoch == 4);
  CHECK(r.partitions[0].end_offset == 1000);
  CHECK(r.partitions[1].error_code == errors::kFencedLeaderEpoch);
  CHECK(r.partitions[1].end_offset == 0x123456789a);
  CHECK(r.partitions[2].topic == "other.topic");
  CHECK(r.partitions[2].error_code == errors::kNotLeaderOrFollower);
}

TEST_CASE("ListOffsets request builder and response view", "[protocol]") {
  const std::vector<OffsetQuery> queries = {{kTopic, 0, kLatestTimestamp, 3},
                                            {kTopic, 1, kEarliestTimestamp, 4},
                                            {"other.topic", 9, 1'700'000'000'123, 0}};
  for (int v = 2; v <= 10; ++v)
    check_request("ListOffsets", v, make_list_offsets_request(queries, 1, -1, 30000));
  CHECK_THROWS_AS(encode_body(ApiKey::kListOffsets, MessageKind::kRequest, 1,
                              make_list_offsets_request(queries, 1)),
                  ProtocolError);

  const auto r = ListOffsetsResponse::from(response("ListOffsets", 4));
  REQUIRE(r.partitions.size() == 2);  // the second topic has no partition
  CHECK(r.partitions[0].topic == kTopic);
  CHECK(r.partitions[0].timestamp == 1'700'000'000'123);
  CHECK(r.partitions[0].offset == 42);
  CHECK(r.partitions[0].leader_epoch == 3);
  CHECK(r.partitions[1].error_code == errors::kOffsetNotAvailable);
  CHECK(ListOffsetsResponse::from(response("ListOffsets", 3)).partitions[0].leader_epoch == -1);
}

TEST_CASE("DescribeLogDirs request builder and response view", "[protocol]") {
  for (int v = 1; v <= 4; ++v) {
    check_request("DescribeLogDirs", v,
                  make_describe_log_dirs_request(
                      std::vector<LogDirQuery>{{kTopic, {0, 1, 2}}, {"other.topic", {5}}}));
    check_request("DescribeLogDirs", v, make_describe_log_dirs_request(std::nullopt), "nulls");
  }
  const auto r = DescribeLogDirsResponse::from(response("DescribeLogDirs", 4));
  CHECK(r.error_code == errors::kClusterAuthorizationFailed);
  REQUIRE(r.dirs.size() == 2);
  CHECK(r.dirs[0].path == "/var/lib/kafka/d\xc3\xa4t\xc3\xa4-1");
  CHECK(r.dirs[0].total_bytes == 1'000'000'000'000);
  CHECK(r.dirs[0].usable_bytes == 400'000'000'000);
  REQUIRE(r.dirs[0].replicas.size() == 2);
  CHECK(r.dirs[0].replicas[0].size == 1024);
  CHECK(r.dirs[0].replicas[0].offset_lag == 3);
  CHECK(r.dirs[0].replicas[1].partition == 1);
  CHECK(r.dirs[0].replicas[1].is_future_key);
  CHECK(r.dirs[1].error_code == errors::kKafkaStorageError);
  CHECK(r.dirs[1].total_bytes == 0);
  const auto v3 = DescribeLogDirsResponse::from(response("DescribeLogDirs", 3));
  CHECK(v3.dirs[0].total_bytes == std::nullopt);
  CHECK(DescribeLogDirsResponse::from(response("DescribeLogDirs", 2)).error_code == 0);
}

TEST_CASE("DescribeTopicPartitions request builder and response view", "[protocol]") {
  const std::vector<std::string> topics = {kTopic, "other.topic"};
  check_request(
      "DescribeTopicPartitions", 0,
      make_describe_topic_partitions_request(topics, 100, TopicPartitionCursor{kTopic, 3}));
  check_request("DescribeTopicPartitions", 0, make_describe_topic_partitions_request(topics, 100),
                "nulls");

  const auto r = DescribeTopicPartitionsResponse::from(response("DescribeTopicPartitions", 0));
  REQUIRE(r.topics.size() == 2);
  const auto& p = r.topics[0].partitions;
  REQUIRE(p.size() == 2);
  CHECK(p[0].leader_epoch == 5);
  CHECK(p[0].eligible_leader_replicas == Ints{3});
  CHECK(p[0].last_known_elr == Ints{3});
  CHECK(p[1].eligible_leader_replicas == std::nullopt);
  CHECK(p[1].last_known_elr == std::nullopt);
  CHECK(p[1].offline_replicas == Ints{2, 3});
  CHECK(r.topics[1].name == std::nullopt);
  CHECK(r.topics[1].error_code == errors::kUnknownTopicId);
  CHECK(r.next_cursor == TopicPartitionCursor{kTopic, 2});
  CHECK(DescribeTopicPartitionsResponse::from(response("DescribeTopicPartitions", 0, "nulls"))
            .next_cursor == std::nullopt);
}

TEST_CASE("DescribeConfigs request builder and response view", "[protocol]") {
  const std::vector<ConfigResourceQuery> resources = {
      {kTopicResource, kTopic, std::vector<std::string>{"retention.ms", "min.insync.replicas"}},
      {kBrokerResource, "1", std::nullopt}};
  for (int v = 1; v <= 4; ++v)
    check_request("DescribeConfigs", v, make_describe_configs_request(resources, true, v >= 3));

  const auto r = DescribeConfigsResponse::from(response("DescribeConfigs", 4));
  REQUIRE(r.resources.size() == 2);
  const auto& topic = r.resources[0];
  CHECK(topic.resource_type == kTopicResource);
  CHECK(topic.error_message == std::nullopt);
  REQUIRE(topic.configs.size() == 2);
  const auto& retention = topic.configs[0];
  CHECK(retention.name == "retention.ms");
  CHECK(retention.value == "604800000");
  CHECK(config_source_name(retention.config_source) == "TOPIC_CONFIG");
  CHECK_FALSE(retention.is_default);
  CHECK(config_type_name(retention.config_type) == "LONG");
  CHECK(retention.documentation == "Th\xc3\xa9 retention time");
  REQUIRE(retention.synonyms.size() == 2);
  CHECK(retention.synonyms[1].value == std::nullopt);
  CHECK(config_source_name(retention.synonyms[1].source) == "DEFAULT_CONFIG");
  const auto& jaas = topic.configs[1];
  CHECK(jaas.value == std::nullopt);
  CHECK(jaas.read_only);
  CHECK(jaas.is_sensitive);
  CHECK(config_source_name(jaas.config_source) == "STATIC_BROKER_CONFIG");
  CHECK(config_type_name(jaas.config_type) == "PASSWORD");
  CHECK(r.resources[1].error_code == errors::kInvalidRequest);
  CHECK(r.resources[1].error_message ==
        "b\xc3\xa4"
        "d resource");

  const auto v1 = DescribeConfigsResponse::from(response("DescribeConfigs", 1));
  CHECK(v1.resources[0].configs[0].config_type == 0);
  CHECK(v1.resources[0].configs[0].documentation == "");
  CHECK(config_source_name(42) == "UNKNOWN");
  CHECK(config_type_name(-1) == "UNKNOWN");
}

TEST_CASE("DescribeCluster request builder and response view", "[protocol]") {
  for (int v = 0; v <= 2; ++v)
    check_request("DescribeCluster", v, make_describe_cluster_request(), "defaults");
  CHECK_THROWS_AS(encode_body(ApiKey::kDescribeCluster, MessageKind::kRequest, 1,
                              make_describe_cluster_request(true)),
                  ProtocolError);

  const auto r = DescribeClusterResponse::from(response("DescribeCluster", 2));
  CHECK(r.error_code == errors::kClusterAuthorizationFailed);
  CHECK(r.error_message == "n\xc3\xb6t authorized");
  CHECK(r.endpoint_type == kControllerEndpoints);
  CHECK(r.cluster_id == "cl\xc3\xbcster-Id_01");
  CHECK(r.controller_id == 100);
  REQUIRE(r.brokers.size() == 2);
  CHECK(r.brokers[0].is_fenced);
  CHECK(r.brokers[0].rack ==
        "r\xc3\xa4"
        "ck-a");
  CHECK(r.brokers[1].rack == std::nullopt);
  const auto v0 = DescribeClusterResponse::from(response("DescribeCluster", 0, "nulls"));
  CHECK(v0.endpoint_type == kBrokerEndpoints);
  CHECK_FALSE(v0.brokers[0].is_fenced);
  CHECK(v0.error_message == std::nullopt);
}

TEST_CASE("SASL request builders and response views", "[protocol]") {
  for (int v = 0; v <= 1; ++v)
    check_request("SaslHandshake", v, make_sasl_handshake_request("SCRAM-SHA-512"));
  using namespace std::string_literals;
  const std::string creds = "\0\xc3\xbcser\0p\xc3\xa4ssword"s;
  const Bytes auth(creds.begin(), creds.end());
  for (int v = 0; v <= 2; ++v)
    check_request("SaslAuthenticate", v, make_sasl_authenticate_request(auth));

  const auto h = SaslHandshakeResponse::from(response("SaslHandshake", 1));
  CHECK(h.error_code == errors::kUnsupportedSaslMechanism);
  CHECK(h.mechanisms == std::vector<std::string>{"PLAIN", "SCRAM-SHA-256"});
  const auto a = SaslAuthenticateResponse::from(response("SaslAuthenticate", 2));
  CHECK(a.error_code == errors::kSaslAuthenticationFailed);
  CHECK(a.error_message == "Authentication failed: \xc3\xbcnknown user");
  CHECK(a.auth_bytes == Bytes{0, 1, 0xfe, 0xff, 'r', '='});
  CHECK(a.session_lifetime_ms == 3'600'000);
  CHECK(SaslAuthenticateResponse::from(response("SaslAuthenticate", 0)).session_lifetime_ms == 0);
  const auto nulls = SaslAuthenticateResponse::from(response("SaslAuthenticate", 1, "nulls"));
  CHECK(nulls.error_message == std::nullopt);
  CHECK(nulls.auth_bytes.empty());
}
