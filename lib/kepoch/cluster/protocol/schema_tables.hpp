#pragma once
// The message schemas kepoch speaks, one pair per API, each defined in schema_<api>.cpp
// from Kafka 4.1.1's JSON (kafka-clients jar, common/message/<Name>Request.json and
// <Name>Response.json). Internal to the protocol folder: callers go through
// schema_registry.hpp.

#include "kepoch/cluster/protocol/schema.hpp"

namespace kepoch::cluster::protocol::tables {

extern const MessageSchema kApiVersionsRequest;
extern const MessageSchema kApiVersionsResponse;
extern const MessageSchema kMetadataRequest;
extern const MessageSchema kMetadataResponse;
extern const MessageSchema kOffsetForLeaderEpochRequest;
extern const MessageSchema kOffsetForLeaderEpochResponse;
extern const MessageSchema kDescribeLogDirsRequest;
extern const MessageSchema kDescribeLogDirsResponse;
extern const MessageSchema kListOffsetsRequest;
extern const MessageSchema kListOffsetsResponse;
extern const MessageSchema kDescribeTopicPartitionsRequest;
extern const MessageSchema kDescribeTopicPartitionsResponse;
extern const MessageSchema kDescribeConfigsRequest;
extern const MessageSchema kDescribeConfigsResponse;
extern const MessageSchema kDescribeClusterRequest;
extern const MessageSchema kDescribeClusterResponse;
extern const MessageSchema kDescribeAclsRequest;
extern const MessageSchema kDescribeAclsResponse;
extern const MessageSchema kSaslHandshakeRequest;
extern const MessageSchema kSaslHandshakeResponse;
extern const MessageSchema kSaslAuthenticateRequest;
extern const MessageSchema kSaslAuthenticateResponse;
extern const MessageSchema kFetchRequest;
extern const MessageSchema kFetchResponse;
extern const MessageSchema kFindCoordinatorRequest;
extern const MessageSchema kFindCoordinatorResponse;
extern const MessageSchema kDescribeProducersRequest;
extern const MessageSchema kDescribeProducersResponse;
extern const MessageSchema kListTransactionsRequest;
extern const MessageSchema kListTransactionsResponse;
extern const MessageSchema kDescribeTransactionsRequest;
extern const MessageSchema kDescribeTransactionsResponse;
extern const MessageSchema kListGroupsRequest;
extern const MessageSchema kListGroupsResponse;
extern const MessageSchema kOffsetFetchRequest;
extern const MessageSchema kOffsetFetchResponse;

}  // namespace kepoch::cluster::protocol::tables
