// ProtocolVectors: byte-exact wire-protocol vectors written by Kafka's own generated message
// classes (org.apache.kafka.common.message.*Data), for kepoch's protocol codec tests.
//
//   java -cp "$KAFKA_LIBS/*:CLASSES" ProtocolVectors vectors   > vectors.jsonl
//   java -cp "$KAFKA_LIBS/*:CLASSES" ProtocolVectors errors    > error-codes.json
//
// `vectors` prints one JSON line per (api, kind, version, case):
//   {"api":"Metadata","kind":"response","version":12,"case":"full","hex":"...","fields":{...}}
// where hex is what <Name>Data.write() produces at that version (no header, no size prefix)
// and fields is what <Name>DataJsonConverter.write(data, version) makes of the same object
// (camelCase names; fields the version lacks are absent; tagged fields only when not
// default; uuids in Kafka's base64 form, bytes in Jackson's base64; records, which the
// converters print empty, carry their bytes as bytes do). Cases:
//   full      every field the version has set to a non-default value: arrays of 2+
//             elements, nulls in some elements where the version allows them, tagged
//             fields set, non-ASCII text
//   nulls     (where a message has them) the top-level nullable fields null instead
//   defaults  a new <Name>Data() as its constructor leaves it
//   sparse    the same, but every array of structs holds one element and every struct
//             field one struct, each as its constructor leaves it (nested defaults), where
//             the version can carry them
// Fetch requests also have a case "consumer": what Kafka's own consumer request builder
// (FetchRequest.Builder.forConsumer) makes, the request kepoch's make_fetch_request sends.
// Header lines have "kind":"header" and api RequestHeader (v1, v2) or ResponseHeader
// (v0, v1). Fields a version lacks are left at their defaults (Kafka throws
// UnsupportedVersionException writing a non-default non-ignorable one; ignorable ones are
// set anyway and silently dropped, as Kafka does).
//
// `errors` prints org.apache.kafka.common.protocol.Errors as a JSON array of
// {"code", "name", "retriable", "message"}.

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.message.*;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.requests.FetchRequest;

public class ProtocolVectors {
    static final ObjectMapper JSON = new ObjectMapper();
    static PrintStream out;

    static final String TOPIC = "tópico-ü-名前";
    static final String OTHER = "other.topic";
    static final Uuid ID1 = new Uuid(0x0123456789abcdefL, 0xfedcba9876543210L);
    static final Uuid ID2 = new Uuid(0x7fffffffffffffffL, 1L);

    public static void main(String[] args) throws Exception {
        out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        String mode = args.length > 0 ? args[0] : "vectors";
        if (mode.equals("errors")) {
            errors();
        } else if (mode.equals("vectors")) {
            headers();
            messages();
        } else {
            throw new IllegalArgumentException("usage: ProtocolVectors vectors|errors");
        }
        out.flush();
    }

    // ------------------------------------------------------------------ output
    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x));
        return sb.toString();
    }

    static byte[] serialize(Message m, short v) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int size = m.size(cache, v);
        ByteBuffer buf = ByteBuffer.allocate(size);
        m.write(new ByteBufferAccessor(buf), cache, v);
        if (buf.hasRemaining()) throw new IllegalStateException("size() and write() disagree");
        return buf.array();
    }

    static void line(String api, String kind, short v, String c, Message m, JsonNode fields)
            throws Exception {
        ObjectNode n = new ObjectNode(JsonNodeFactory.instance);
        n.put("api", api);
        n.put("kind", kind);
        n.put("version", v);
        n.put("case", c);
        n.put("hex", hex(serialize(m, v)));
        n.set("fields", fields);
        out.println(JSON.writeValueAsString(n));
    }

    interface Builder { ApiMessage build(short v, String c); }
    interface ToJson { JsonNode write(ApiMessage m, short v); }

    // One line per version and case, for a request or a response.
    static void emit(ApiMessage sample, String kind, List<String> cases, Builder b, ToJson j)
            throws Exception {
        String api = sample.getClass().getSimpleName()
            .replaceAll("(Request|Response)Data$", "");
        for (short v = sample.lowestSupportedVersion(); v <= sample.highestSupportedVersion(); v++) {
            for (String c : cases) {
                ApiMessage m = c.equals("defaults") ? sample
                    : c.equals("sparse") ? sparse(sample, v) : b.build(v, c);
                line(api, kind, v, c, m, j.write(m, v));
            }
        }
    }

    static final List<String> FULL = List.of("full", "defaults", "sparse");
    static final List<String> WITH_NULLS = List.of("full", "nulls", "defaults", "sparse");

    // A new message whose struct arrays hold one default element and whose struct fields
    // hold a default struct, recursively (found by reflection over the setters). A field the
    // version cannot carry with a value (a non-ignorable one outside its versions, which
    // write() refuses) is left at its default.
    static ApiMessage sparse(ApiMessage sample, short v) throws Exception {
        ApiMessage m = sample.getClass().getDeclaredConstructor().newInstance();
        fill(m, v);
        return m;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void fill(Object m, short v) throws Exception {
        for (Method setter : m.getClass().getMethods()) {
            if (!setter.getName().startsWith("set") || setter.getParameterCount() != 1) continue;
            Class<?> p = setter.getParameterTypes()[0];
            Object value;
            if (Message.class.isAssignableFrom(p)) {
                value = p.getDeclaredConstructor().newInstance();
                fill(value, v);
            } else {
                Class<?> element = structElement(setter.getGenericParameterTypes()[0], p);
                if (element == null) continue;
                Collection c = Collection.class.isAssignableFrom(p) && !p.isInterface()
                    ? (Collection) p.getDeclaredConstructor().newInstance() : new ArrayList<>();
                Object child = element.getDeclaredConstructor().newInstance();
                fill(child, v);
                c.add(child);
                value = c;
            }
            String field = setter.getName().substring(3);
            Object before = m.getClass()
                .getMethod(Character.toLowerCase(field.charAt(0)) + field.substring(1)).invoke(m);
            setter.invoke(m, value);
            try {
                serialize((Message) m, v);
            } catch (UnsupportedVersionException e) {
                setter.invoke(m, before);
            }
        }
    }

    // The struct class of a List<Struct> or a generated StructCollection parameter.
    static Class<?> structElement(Type generic, Class<?> raw) {
        Type arg = null;
        if (generic instanceof ParameterizedType pt && List.class.equals(raw)) {
            arg = pt.getActualTypeArguments()[0];
        } else if (Collection.class.isAssignableFrom(raw)
                && raw.getGenericSuperclass() instanceof ParameterizedType st) {
            arg = st.getActualTypeArguments()[0];
        }
        return arg instanceof Class<?> k && Message.class.isAssignableFrom(k) ? k : null;
    }

    // ------------------------------------------------------------------ headers
    static void headers() throws Exception {
        for (short v = 1; v <= 2; v++) {
            for (String c : List.of("full", "nulls")) {
                RequestHeaderData h = new RequestHeaderData()
                    .setRequestApiKey((short) 3).setRequestApiVersion((short) 12)
                    .setCorrelationId(0x01020304)
                    .setClientId(c.equals("nulls") ? null : "kepoch-clïent");
                line("RequestHeader", "header", v, c, h, RequestHeaderDataJsonConverter.write(h, v));
            }
        }
        for (short v = 0; v <= 1; v++) {
            ResponseHeaderData h = new ResponseHeaderData().setCorrelationId(-0x7ffffff0);
            line("ResponseHeader", "header", v, "full", h, ResponseHeaderDataJsonConverter.write(h, v));
        }
    }

    // ------------------------------------------------------------------ messages
    static void messages() throws Exception {
        emit(new ApiVersionsRequestData(), "request", FULL, ProtocolVectors::apiVersionsRequest,
            (m, v) -> ApiVersionsRequestDataJsonConverter.write((ApiVersionsRequestData) m, v));
        emit(new ApiVersionsResponseData(), "response", FULL, ProtocolVectors::apiVersionsResponse,
            (m, v) -> ApiVersionsResponseDataJsonConverter.write((ApiVersionsResponseData) m, v));
        emit(new MetadataRequestData(), "request", WITH_NULLS, ProtocolVectors::metadataRequest,
            (m, v) -> MetadataRequestDataJsonConverter.write((MetadataRequestData) m, v));
        emit(new MetadataResponseData(), "response", WITH_NULLS, ProtocolVectors::metadataResponse,
            (m, v) -> MetadataResponseDataJsonConverter.write((MetadataResponseData) m, v));
        emit(new OffsetForLeaderEpochRequestData(), "request", FULL, ProtocolVectors::offsetForLeaderEpochRequest,
            (m, v) -> OffsetForLeaderEpochRequestDataJsonConverter.write((OffsetForLeaderEpochRequestData) m, v));
        emit(new OffsetForLeaderEpochResponseData(), "response", FULL, ProtocolVectors::offsetForLeaderEpochResponse,
            (m, v) -> OffsetForLeaderEpochResponseDataJsonConverter.write((OffsetForLeaderEpochResponseData) m, v));
        emit(new DescribeLogDirsRequestData(), "request", WITH_NULLS, ProtocolVectors::describeLogDirsRequest,
            (m, v) -> DescribeLogDirsRequestDataJsonConverter.write((DescribeLogDirsRequestData) m, v));
        emit(new DescribeLogDirsResponseData(), "response", FULL, ProtocolVectors::describeLogDirsResponse,
            (m, v) -> DescribeLogDirsResponseDataJsonConverter.write((DescribeLogDirsResponseData) m, v));
        emit(new ListOffsetsRequestData(), "request", FULL, ProtocolVectors::listOffsetsRequest,
            (m, v) -> ListOffsetsRequestDataJsonConverter.write((ListOffsetsRequestData) m, v));
        emit(new ListOffsetsResponseData(), "response", FULL, ProtocolVectors::listOffsetsResponse,
            (m, v) -> ListOffsetsResponseDataJsonConverter.write((ListOffsetsResponseData) m, v));
        emit(new DescribeTopicPartitionsRequestData(), "request", WITH_NULLS, ProtocolVectors::describeTopicPartitionsRequest,
            (m, v) -> DescribeTopicPartitionsRequestDataJsonConverter.write((DescribeTopicPartitionsRequestData) m, v));
        emit(new DescribeTopicPartitionsResponseData(), "response", WITH_NULLS, ProtocolVectors::describeTopicPartitionsResponse,
            (m, v) -> DescribeTopicPartitionsResponseDataJsonConverter.write((DescribeTopicPartitionsResponseData) m, v));
        emit(new DescribeConfigsRequestData(), "request", FULL, ProtocolVectors::describeConfigsRequest,
            (m, v) -> DescribeConfigsRequestDataJsonConverter.write((DescribeConfigsRequestData) m, v));
        emit(new DescribeConfigsResponseData(), "response", FULL, ProtocolVectors::describeConfigsResponse,
            (m, v) -> DescribeConfigsResponseDataJsonConverter.write((DescribeConfigsResponseData) m, v));
        emit(new DescribeClusterRequestData(), "request", FULL, ProtocolVectors::describeClusterRequest,
            (m, v) -> DescribeClusterRequestDataJsonConverter.write((DescribeClusterRequestData) m, v));
        emit(new DescribeClusterResponseData(), "response", WITH_NULLS, ProtocolVectors::describeClusterResponse,
            (m, v) -> DescribeClusterResponseDataJsonConverter.write((DescribeClusterResponseData) m, v));
        emit(new DescribeAclsRequestData(), "request", WITH_NULLS, ProtocolVectors::describeAclsRequest,
            (m, v) -> DescribeAclsRequestDataJsonConverter.write((DescribeAclsRequestData) m, v));
        emit(new DescribeAclsResponseData(), "response", WITH_NULLS, ProtocolVectors::describeAclsResponse,
            (m, v) -> DescribeAclsResponseDataJsonConverter.write((DescribeAclsResponseData) m, v));
        emit(new SaslHandshakeRequestData(), "request", FULL, ProtocolVectors::saslHandshakeRequest,
            (m, v) -> SaslHandshakeRequestDataJsonConverter.write((SaslHandshakeRequestData) m, v));
        emit(new SaslHandshakeResponseData(), "response", FULL, ProtocolVectors::saslHandshakeResponse,
            (m, v) -> SaslHandshakeResponseDataJsonConverter.write((SaslHandshakeResponseData) m, v));
        emit(new SaslAuthenticateRequestData(), "request", FULL, ProtocolVectors::saslAuthenticateRequest,
            (m, v) -> SaslAuthenticateRequestDataJsonConverter.write((SaslAuthenticateRequestData) m, v));
        emit(new SaslAuthenticateResponseData(), "response", WITH_NULLS, ProtocolVectors::saslAuthenticateResponse,
            (m, v) -> SaslAuthenticateResponseDataJsonConverter.write((SaslAuthenticateResponseData) m, v));
        emit(new FetchRequestData(), "request", List.of("full", "consumer", "defaults", "sparse"),
            ProtocolVectors::fetchRequest,
            (m, v) -> FetchRequestDataJsonConverter.write((FetchRequestData) m, v));
        emit(new FetchResponseData(), "response", WITH_NULLS, ProtocolVectors::fetchResponse,
            (m, v) -> withRecords(FetchResponseDataJsonConverter.write((FetchResponseData) m, v),
                (FetchResponseData) m));
        emit(new FindCoordinatorRequestData(), "request", FULL, ProtocolVectors::findCoordinatorRequest,
            (m, v) -> FindCoordinatorRequestDataJsonConverter.write((FindCoordinatorRequestData) m, v));
        emit(new FindCoordinatorResponseData(), "response", WITH_NULLS, ProtocolVectors::findCoordinatorResponse,
            (m, v) -> FindCoordinatorResponseDataJsonConverter.write((FindCoordinatorResponseData) m, v));
        emit(new DescribeProducersRequestData(), "request", FULL, ProtocolVectors::describeProducersRequest,
            (m, v) -> DescribeProducersRequestDataJsonConverter.write((DescribeProducersRequestData) m, v));
        emit(new DescribeProducersResponseData(), "response", WITH_NULLS, ProtocolVectors::describeProducersResponse,
            (m, v) -> DescribeProducersResponseDataJsonConverter.write((DescribeProducersResponseData) m, v));
        emit(new ListTransactionsRequestData(), "request", WITH_NULLS, ProtocolVectors::listTransactionsRequest,
            (m, v) -> ListTransactionsRequestDataJsonConverter.write((ListTransactionsRequestData) m, v));
        emit(new ListTransactionsResponseData(), "response", FULL, ProtocolVectors::listTransactionsResponse,
            (m, v) -> ListTransactionsResponseDataJsonConverter.write((ListTransactionsResponseData) m, v));
        emit(new DescribeTransactionsRequestData(), "request", FULL, ProtocolVectors::describeTransactionsRequest,
            (m, v) -> DescribeTransactionsRequestDataJsonConverter.write((DescribeTransactionsRequestData) m, v));
        emit(new DescribeTransactionsResponseData(), "response", FULL, ProtocolVectors::describeTransactionsResponse,
            (m, v) -> DescribeTransactionsResponseDataJsonConverter.write((DescribeTransactionsResponseData) m, v));
        emit(new ListGroupsRequestData(), "request", FULL, ProtocolVectors::listGroupsRequest,
            (m, v) -> ListGroupsRequestDataJsonConverter.write((ListGroupsRequestData) m, v));
        emit(new ListGroupsResponseData(), "response", FULL, ProtocolVectors::listGroupsResponse,
            (m, v) -> ListGroupsResponseDataJsonConverter.write((ListGroupsResponseData) m, v));
        emit(new OffsetFetchRequestData(), "request", WITH_NULLS, ProtocolVectors::offsetFetchRequest,
            (m, v) -> OffsetFetchRequestDataJsonConverter.write((OffsetFetchRequestData) m, v));
        emit(new OffsetFetchResponseData(), "response", WITH_NULLS, ProtocolVectors::offsetFetchResponse,
            (m, v) -> OffsetFetchResponseDataJsonConverter.write((OffsetFetchResponseData) m, v));
    }

    // ApiVersions ----------------------------------------------------------
    static ApiMessage apiVersionsRequest(short v, String c) {
        return new ApiVersionsRequestData()
            .setClientSoftwareName("kepoch")
            .setClientSoftwareVersion("0.1.0-ü");
    }

    static ApiMessage apiVersionsResponse(short v, String c) {
        var keys = new ApiVersionsResponseData.ApiVersionCollection();
        keys.add(new ApiVersionsResponseData.ApiVersion().setApiKey((short) 18)
            .setMinVersion((short) 0).setMaxVersion((short) 4));
        keys.add(new ApiVersionsResponseData.ApiVersion().setApiKey((short) 3)
            .setMinVersion((short) 0).setMaxVersion((short) 13));
        keys.add(new ApiVersionsResponseData.ApiVersion().setApiKey((short) 75)
            .setMinVersion((short) 0).setMaxVersion((short) 0));
        var supported = new ApiVersionsResponseData.SupportedFeatureKeyCollection();
        supported.add(new ApiVersionsResponseData.SupportedFeatureKey().setName("metadata.version")
            .setMinVersion((short) 7).setMaxVersion((short) 27));
        supported.add(new ApiVersionsResponseData.SupportedFeatureKey().setName("kraft.version")
            .setMinVersion((short) 0).setMaxVersion((short) 1));
        var finalized = new ApiVersionsResponseData.FinalizedFeatureKeyCollection();
        finalized.add(new ApiVersionsResponseData.FinalizedFeatureKey().setName("metadata.version")
            .setMaxVersionLevel((short) 27).setMinVersionLevel((short) 27));
        finalized.add(new ApiVersionsResponseData.FinalizedFeatureKey().setName("fëature")
            .setMaxVersionLevel((short) 1).setMinVersionLevel((short) 0));
        return new ApiVersionsResponseData()
            .setErrorCode(Errors.UNSUPPORTED_VERSION.code())
            .setApiKeys(keys)
            .setThrottleTimeMs(7)
            .setSupportedFeatures(supported)
            .setFinalizedFeaturesEpoch(42L)
            .setFinalizedFeatures(finalized)
            .setZkMigrationReady(true);
    }

    // Metadata -------------------------------------------------------------
    static ApiMessage metadataRequest(short v, String c) {
        var d = new MetadataRequestData();
        if (c.equals("nulls") && v >= 1) {
            d.setTopics(null);
        } else {
            List<MetadataRequestData.MetadataRequestTopic> topics = new ArrayList<>();
            topics.add(new MetadataRequestData.MetadataRequestTopic().setName(TOPIC).setTopicId(ID1));
            topics.add(new MetadataRequestData.MetadataRequestTopic()
                .setName(v >= 10 ? null : OTHER).setTopicId(ID2));
            d.setTopics(topics);
        }
        if (v >= 4) d.setAllowAutoTopicCreation(false);
        if (v >= 8 && v <= 10) d.setIncludeClusterAuthorizedOperations(true);
        if (v >= 8) d.setIncludeTopicAuthorizedOperations(true);
        return d;
    }

    static ApiMessage metadataResponse(short v, String c) {
        boolean nulls = c.equals("nulls");
        var brokers = new MetadataResponseData.MetadataResponseBrokerCollection();
        brokers.add(new MetadataResponseData.MetadataResponseBroker().setNodeId(1)
            .setHost("broker-1.exämple").setPort(9092).setRack("räck-a"));
        brokers.add(new MetadataResponseData.MetadataResponseBroker().setNodeId(2)
            .setHost("10.0.0.2").setPort(19093).setRack(null));
        var topics = new MetadataResponseData.MetadataResponseTopicCollection();
        var partitions = new ArrayList<MetadataResponseData.MetadataResponsePartition>();
        partitions.add(new MetadataResponseData.MetadataResponsePartition()
            .setErrorCode((short) 0).setPartitionIndex(0).setLeaderId(1).setLeaderEpoch(7)
            .setReplicaNodes(List.of(1, 2, 3)).setIsrNodes(List.of(1, 2)).setOfflineReplicas(List.of(3)));
        partitions.add(new MetadataResponseData.MetadataResponsePartition()
            .setErrorCode(Errors.LEADER_NOT_AVAILABLE.code()).setPartitionIndex(1).setLeaderId(-1)
            .setLeaderEpoch(12).setReplicaNodes(List.of(2, 3)).setIsrNodes(List.of())
            .setOfflineReplicas(List.of(2, 3)));
        topics.add(new MetadataResponseData.MetadataResponseTopic()
            .setErrorCode((short) 0).setName(TOPIC).setTopicId(ID1).setIsInternal(false)
            .setPartitions(partitions)
            .setTopicAuthorizedOperations(v >= 8 ? 0x0ff8 : Integer.MIN_VALUE));
        topics.add(new MetadataResponseData.MetadataResponseTopic()
            .setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code())
            .setName(v >= 12 ? null : "__consumer_offsets").setTopicId(ID2).setIsInternal(true)
            .setPartitions(new ArrayList<>())
            .setTopicAuthorizedOperations(v >= 8 ? 0 : Integer.MIN_VALUE));
        var d = new MetadataResponseData()
            .setThrottleTimeMs(123)
            .setBrokers(brokers)
            .setClusterId(nulls ? null : "clüster-Id_01")
            .setControllerId(2)
            .setTopics(topics)
            .setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
        if (v >= 8 && v <= 10) d.setClusterAuthorizedOperations(0x1234);
        return d;
    }

    // OffsetForLeaderEpoch -------------------------------------------------
    static ApiMessage offsetForLeaderEpochRequest(short v, String c) {
        var topics = new OffsetForLeaderEpochRequestData.OffsetForLeaderTopicCollection();
        var p1 = new ArrayList<OffsetForLeaderEpochRequestData.OffsetForLeaderPartition>();
        p1.add(new OffsetForLeaderEpochRequestData.OffsetForLeaderPartition()
            .setPartition(0).setCurrentLeaderEpoch(5).setLeaderEpoch(4));
        p1.add(new OffsetForLeaderEpochRequestData.OffsetForLeaderPartition()
            .setPartition(7).setCurrentLeaderEpoch(9).setLeaderEpoch(8));
        topics.add(new OffsetForLeaderEpochRequestData.OffsetForLeaderTopic().setTopic(TOPIC).setPartitions(p1));
        var p2 = new ArrayList<OffsetForLeaderEpochRequestData.OffsetForLeaderPartition>();
        p2.add(new OffsetForLeaderEpochRequestData.OffsetForLeaderPartition()
            .setPartition(2).setCurrentLeaderEpoch(2147483647).setLeaderEpoch(0));
        topics.add(new OffsetForLeaderEpochRequestData.OffsetForLeaderTopic().setTopic(OTHER).setPartitions(p2));
        return new OffsetForLeaderEpochRequestData().setReplicaId(3).setTopics(topics);
    }

    static ApiMessage offsetForLeaderEpochResponse(short v, String c) {
        var topics = new OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResultCollection();
        var p1 = new ArrayList<OffsetForLeaderEpochResponseData.EpochEndOffset>();
        p1.add(new OffsetForLeaderEpochResponseData.EpochEndOffset().setErrorCode((short) 0)
            .setPartition(0).setLeaderEpoch(4).setEndOffset(1000L));
        p1.add(new OffsetForLeaderEpochResponseData.EpochEndOffset()
            .setErrorCode(Errors.FENCED_LEADER_EPOCH.code()).setPartition(7).setLeaderEpoch(9)
            .setEndOffset(0x123456789aL));
        topics.add(new OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult().setTopic(TOPIC).setPartitions(p1));
        var p2 = new ArrayList<OffsetForLeaderEpochResponseData.EpochEndOffset>();
        p2.add(new OffsetForLeaderEpochResponseData.EpochEndOffset()
            .setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code()).setPartition(2).setLeaderEpoch(0)
            .setEndOffset(0L));
        topics.add(new OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult().setTopic(OTHER).setPartitions(p2));
        return new OffsetForLeaderEpochResponseData().setThrottleTimeMs(10).setTopics(topics);
    }

    // DescribeLogDirs ------------------------------------------------------
    static ApiMessage describeLogDirsRequest(short v, String c) {
        if (c.equals("nulls")) return new DescribeLogDirsRequestData().setTopics(null);
        var topics = new DescribeLogDirsRequestData.DescribableLogDirTopicCollection();
        topics.add(new DescribeLogDirsRequestData.DescribableLogDirTopic().setTopic(TOPIC)
            .setPartitions(List.of(0, 1, 2)));
        topics.add(new DescribeLogDirsRequestData.DescribableLogDirTopic().setTopic(OTHER)
            .setPartitions(List.of(5)));
        return new DescribeLogDirsRequestData().setTopics(topics);
    }

    static ApiMessage describeLogDirsResponse(short v, String c) {
        var parts = new ArrayList<DescribeLogDirsResponseData.DescribeLogDirsPartition>();
        parts.add(new DescribeLogDirsResponseData.DescribeLogDirsPartition().setPartitionIndex(0)
            .setPartitionSize(1024L).setOffsetLag(3L).setIsFutureKey(false));
        parts.add(new DescribeLogDirsResponseData.DescribeLogDirsPartition().setPartitionIndex(1)
            .setPartitionSize(0x7fffffffffL).setOffsetLag(0L).setIsFutureKey(true));
        var topics = new ArrayList<DescribeLogDirsResponseData.DescribeLogDirsTopic>();
        topics.add(new DescribeLogDirsResponseData.DescribeLogDirsTopic().setName(TOPIC).setPartitions(parts));
        topics.add(new DescribeLogDirsResponseData.DescribeLogDirsTopic().setName(OTHER)
            .setPartitions(new ArrayList<>()));
        var results = new ArrayList<DescribeLogDirsResponseData.DescribeLogDirsResult>();
        results.add(new DescribeLogDirsResponseData.DescribeLogDirsResult().setErrorCode((short) 0)
            .setLogDir("/var/lib/kafka/dätä-1").setTopics(topics)
            .setTotalBytes(1_000_000_000_000L).setUsableBytes(400_000_000_000L));
        results.add(new DescribeLogDirsResponseData.DescribeLogDirsResult()
            .setErrorCode(Errors.KAFKA_STORAGE_ERROR.code()).setLogDir("/disk2")
            .setTopics(new ArrayList<>()).setTotalBytes(0L).setUsableBytes(0L));
        return new DescribeLogDirsResponseData().setThrottleTimeMs(5)
            .setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code()).setResults(results);
    }

    // FindCoordinator ------------------------------------------------------
    static ApiMessage findCoordinatorRequest(short v, String c) {
        var d = new FindCoordinatorRequestData();
        if (v >= 1) d.setKeyType((byte) 1);
        if (v >= 4) {
            d.setCoordinatorKeys(List.of("kepoch-txn", "tx-ü"));
        } else {
            d.setKey("kepoch-txn");
        }
        return d;
    }

    static ApiMessage findCoordinatorResponse(short v, String c) {
        var d = new FindCoordinatorResponseData().setThrottleTimeMs(v >= 1 ? 6 : 0);
        if (v >= 4) {
            var cs = new ArrayList<FindCoordinatorResponseData.Coordinator>();
            cs.add(new FindCoordinatorResponseData.Coordinator().setKey("kepoch-txn").setNodeId(2)
                .setHost("broker-2").setPort(9092).setErrorCode((short) 0)
                .setErrorMessage(c.equals("nulls") ? null : "fine"));
            cs.add(new FindCoordinatorResponseData.Coordinator().setKey("tx-ü").setNodeId(-1)
                .setHost("").setPort(-1).setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code())
                .setErrorMessage(c.equals("nulls") ? null : "not yet"));
            return d.setCoordinators(cs);
        }
        d.setErrorCode((short) 0).setNodeId(3).setHost("broker-3").setPort(9093);
        if (v >= 1) d.setErrorMessage(c.equals("nulls") ? null : "fine");
        return d;
    }

    // DescribeProducers ----------------------------------------------------
    static ApiMessage describeProducersRequest(short v, String c) {
        var topics = new ArrayList<DescribeProducersRequestData.TopicRequest>();
        topics.add(new DescribeProducersRequestData.TopicRequest().setName(TOPIC)
            .setPartitionIndexes(List.of(0, 2)));
        topics.add(new DescribeProducersRequestData.TopicRequest().setName(OTHER)
            .setPartitionIndexes(List.of(7)));
        return new DescribeProducersRequestData().setTopics(topics);
    }

    static ApiMessage describeProducersResponse(short v, String c) {
        var producers = new ArrayList<DescribeProducersResponseData.ProducerState>();
        producers.add(new DescribeProducersResponseData.ProducerState().setProducerId(1000L)
            .setProducerEpoch(3).setLastSequence(41).setLastTimestamp(1_700_000_000_123L)
            .setCoordinatorEpoch(5).setCurrentTxnStartOffset(17L));
        producers.add(new DescribeProducersResponseData.ProducerState().setProducerId(1001L)
            .setProducerEpoch(0).setLastSequence(-1).setLastTimestamp(-1L)
            .setCoordinatorEpoch(-1).setCurrentTxnStartOffset(-1L));
        var partitions = new ArrayList<DescribeProducersResponseData.PartitionResponse>();
        partitions.add(new DescribeProducersResponseData.PartitionResponse().setPartitionIndex(0)
            .setErrorCode((short) 0).setErrorMessage(null).setActiveProducers(producers));
        partitions.add(new DescribeProducersResponseData.PartitionResponse().setPartitionIndex(2)
            .setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code())
            .setErrorMessage(c.equals("nulls") ? null : "not the leader"));
        var topics = new ArrayList<DescribeProducersResponseData.TopicResponse>();
        topics.add(new DescribeProducersResponseData.TopicResponse().setName(TOPIC)
            .setPartitions(partitions));
        return new DescribeProducersResponseData().setThrottleTimeMs(4).setTopics(topics);
    }

    // ListTransactions -----------------------------------------------------
    static ApiMessage listTransactionsRequest(short v, String c) {
        var d = new ListTransactionsRequestData().setStateFilters(List.of("Ongoing", "PrepareAbort"))
            .setProducerIdFilters(List.of(1000L, -7L));
        if (v >= 1) d.setDurationFilter(900_000L);
        if (v >= 2) d.setTransactionalIdPattern(c.equals("nulls") ? null : "kepoch-.*");
        return d;
    }

    static ApiMessage listTransactionsResponse(short v, String c) {
        var states = new ArrayList<ListTransactionsResponseData.TransactionState>();
        states.add(new ListTransactionsResponseData.TransactionState().setTransactionalId("kepoch-txn")
            .setProducerId(1000L).setTransactionState("Ongoing"));
        states.add(new ListTransactionsResponseData.TransactionState().setTransactionalId("tx-ü")
            .setProducerId(1002L).setTransactionState("CompleteCommit"));
        return new ListTransactionsResponseData().setThrottleTimeMs(2)
            .setErrorCode(Errors.COORDINATOR_LOAD_IN_PROGRESS.code())
            .setUnknownStateFilters(List.of("Nope")).setTransactionStates(states);
    }

    // DescribeTransactions -------------------------------------------------
    static ApiMessage describeTransactionsRequest(short v, String c) {
        return new DescribeTransactionsRequestData().setTransactionalIds(List.of("kepoch-txn", "tx-ü"));
    }

    static ApiMessage describeTransactionsResponse(short v, String c) {
        var topics = new DescribeTransactionsResponseData.TopicDataCollection();
        topics.add(new DescribeTransactionsResponseData.TopicData().setTopic(TOPIC)
            .setPartitions(List.of(0, 3)));
        topics.add(new DescribeTransactionsResponseData.TopicData().setTopic(OTHER)
            .setPartitions(List.of(1)));
        var states = new ArrayList<DescribeTransactionsResponseData.TransactionState>();
        states.add(new DescribeTransactionsResponseData.TransactionState().setErrorCode((short) 0)
            .setTransactionalId("kepoch-txn").setTransactionState("Ongoing")
            .setTransactionTimeoutMs(60000).setTransactionStartTimeMs(1_700_000_000_123L)
            .setProducerId(1000L).setProducerEpoch((short) 3).setTopics(topics));
        states.add(new DescribeTransactionsResponseData.TransactionState()
            .setErrorCode(Errors.TRANSACTIONAL_ID_NOT_FOUND.code()).setTransactionalId("tx-ü")
            .setTransactionState("").setTransactionTimeoutMs(0).setTransactionStartTimeMs(-1L)
            .setProducerId(-1L).setProducerEpoch((short) -1));
        return new DescribeTransactionsResponseData().setThrottleTimeMs(1).setTransactionStates(states);
    }

    // ListGroups -----------------------------------------------------------
    static ApiMessage listGroupsRequest(short v, String c) {
        var d = new ListGroupsRequestData();
        if (v >= 4) d.setStatesFilter(List.of("Stable", "Empty"));
        if (v >= 5) d.setTypesFilter(List.of("consumer"));
        return d;
    }

    static ApiMessage listGroupsResponse(short v, String c) {
        var groups = new ArrayList<ListGroupsResponseData.ListedGroup>();
        groups.add(new ListGroupsResponseData.ListedGroup().setGroupId("orders-app")
            .setProtocolType("consumer").setGroupState("Stable").setGroupType("classic"));
        groups.add(new ListGroupsResponseData.ListedGroup().setGroupId("grüppe")
            .setProtocolType("").setGroupState("Empty").setGroupType("consumer"));
        return new ListGroupsResponseData().setThrottleTimeMs(v >= 1 ? 3 : 0)
            .setErrorCode((short) 0).setGroups(groups);
    }

    // OffsetFetch ----------------------------------------------------------
    static ApiMessage offsetFetchRequest(short v, String c) {
        boolean nulls = c.equals("nulls");
        var d = new OffsetFetchRequestData();
        if (v >= 7) d.setRequireStable(true);
        if (v >= 8) {
            var topics = new ArrayList<OffsetFetchRequestData.OffsetFetchRequestTopics>();
            var t = new OffsetFetchRequestData.OffsetFetchRequestTopics().setPartitionIndexes(List.of(0, 4));
            if (v >= 10) t.setTopicId(ID1); else t.setName(TOPIC);
            topics.add(t);
            var groups = new ArrayList<OffsetFetchRequestData.OffsetFetchRequestGroup>();
            var g1 = new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("orders-app")
                .setTopics(nulls ? null : topics);
            if (v >= 9) g1.setMemberId(nulls ? null : "member-1").setMemberEpoch(5);
            groups.add(g1);
            groups.add(new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("grüppe").setTopics(null));
            return d.setGroups(groups);
        }
        d.setGroupId("orders-app");
        if (nulls && v >= 2) return d.setTopics(null);
        var topics = new ArrayList<OffsetFetchRequestData.OffsetFetchRequestTopic>();
        topics.add(new OffsetFetchRequestData.OffsetFetchRequestTopic().setName(TOPIC)
            .setPartitionIndexes(List.of(0, 4)));
        return d.setTopics(topics);
    }

    static ApiMessage offsetFetchResponse(short v, String c) {
        boolean nulls = c.equals("nulls");
        var d = new OffsetFetchResponseData().setThrottleTimeMs(v >= 3 ? 9 : 0);
        if (v >= 8) {
            var parts = new ArrayList<OffsetFetchResponseData.OffsetFetchResponsePartitions>();
            parts.add(new OffsetFetchResponseData.OffsetFetchResponsePartitions().setPartitionIndex(0)
                .setCommittedOffset(15L).setCommittedLeaderEpoch(3)
                .setMetadata(nulls ? null : "mëta").setErrorCode((short) 0));
            parts.add(new OffsetFetchResponseData.OffsetFetchResponsePartitions().setPartitionIndex(4)
                .setCommittedOffset(-1L).setCommittedLeaderEpoch(-1).setMetadata("")
                .setErrorCode(Errors.UNSTABLE_OFFSET_COMMIT.code()));
            var topics = new ArrayList<OffsetFetchResponseData.OffsetFetchResponseTopics>();
            var t = new OffsetFetchResponseData.OffsetFetchResponseTopics().setPartitions(parts);
            if (v >= 10) t.setTopicId(ID1); else t.setName(TOPIC);
            topics.add(t);
            var groups = new ArrayList<OffsetFetchResponseData.OffsetFetchResponseGroup>();
            groups.add(new OffsetFetchResponseData.OffsetFetchResponseGroup().setGroupId("orders-app")
                .setTopics(topics).setErrorCode((short) 0));
            groups.add(new OffsetFetchResponseData.OffsetFetchResponseGroup().setGroupId("grüppe")
                .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code()));
            return d.setGroups(groups);
        }
        var parts = new ArrayList<OffsetFetchResponseData.OffsetFetchResponsePartition>();
        parts.add(new OffsetFetchResponseData.OffsetFetchResponsePartition().setPartitionIndex(0)
            .setCommittedOffset(15L).setCommittedLeaderEpoch(v >= 5 ? 3 : -1)
            .setMetadata(nulls ? null : "mëta").setErrorCode((short) 0));
        var topics = new ArrayList<OffsetFetchResponseData.OffsetFetchResponseTopic>();
        topics.add(new OffsetFetchResponseData.OffsetFetchResponseTopic().setName(TOPIC).setPartitions(parts));
        d.setTopics(topics);
        if (v >= 2) d.setErrorCode(Errors.COORDINATOR_LOAD_IN_PROGRESS.code());
        return d;
    }

    // ListOffsets ----------------------------------------------------------
    static ApiMessage listOffsetsRequest(short v, String c) {
        var p1 = new ArrayList<ListOffsetsRequestData.ListOffsetsPartition>();
        p1.add(new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(0)
            .setCurrentLeaderEpoch(3).setTimestamp(-1L));
        p1.add(new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(1)
            .setCurrentLeaderEpoch(4).setTimestamp(-2L));
        var p2 = new ArrayList<ListOffsetsRequestData.ListOffsetsPartition>();
        p2.add(new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(9)
            .setCurrentLeaderEpoch(0).setTimestamp(1_700_000_000_123L));
        var topics = new ArrayList<ListOffsetsRequestData.ListOffsetsTopic>();
        topics.add(new ListOffsetsRequestData.ListOffsetsTopic().setName(TOPIC).setPartitions(p1));
        topics.add(new ListOffsetsRequestData.ListOffsetsTopic().setName(OTHER).setPartitions(p2));
        var d = new ListOffsetsRequestData().setReplicaId(-1).setTopics(topics).setTimeoutMs(30000);
        if (v >= 2) d.setIsolationLevel((byte) 1);
        return d;
    }

    static ApiMessage listOffsetsResponse(short v, String c) {
        var p1 = new ArrayList<ListOffsetsResponseData.ListOffsetsPartitionResponse>();
        p1.add(new ListOffsetsResponseData.ListOffsetsPartitionResponse().setPartitionIndex(0)
            .setErrorCode((short) 0).setTimestamp(1_700_000_000_123L).setOffset(42L)
            .setLeaderEpoch(v >= 4 ? 3 : -1));
        p1.add(new ListOffsetsResponseData.ListOffsetsPartitionResponse().setPartitionIndex(1)
            .setErrorCode(Errors.OFFSET_NOT_AVAILABLE.code()).setTimestamp(0L).setOffset(0L)
            .setLeaderEpoch(v >= 4 ? 0 : -1));
        var topics = new ArrayList<ListOffsetsResponseData.ListOffsetsTopicResponse>();
        topics.add(new ListOffsetsResponseData.ListOffsetsTopicResponse().setName(TOPIC).setPartitions(p1));
        topics.add(new ListOffsetsResponseData.ListOffsetsTopicResponse().setName(OTHER)
            .setPartitions(new ArrayList<>()));
        return new ListOffsetsResponseData().setThrottleTimeMs(8).setTopics(topics);
    }

    // DescribeTopicPartitions ---------------------------------------------
    static ApiMessage describeTopicPartitionsRequest(short v, String c) {
        var topics = new ArrayList<DescribeTopicPartitionsRequestData.TopicRequest>();
        topics.add(new DescribeTopicPartitionsRequestData.TopicRequest().setName(TOPIC));
        topics.add(new DescribeTopicPartitionsRequestData.TopicRequest().setName(OTHER));
        return new DescribeTopicPartitionsRequestData().setTopics(topics)
            .setResponsePartitionLimit(100)
            .setCursor(c.equals("nulls") ? null
                : new DescribeTopicPartitionsRequestData.Cursor().setTopicName(TOPIC).setPartitionIndex(3));
    }

    static ApiMessage describeTopicPartitionsResponse(short v, String c) {
        var parts = new ArrayList<DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponsePartition>();
        parts.add(new DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponsePartition()
            .setErrorCode((short) 0).setPartitionIndex(0).setLeaderId(1).setLeaderEpoch(5)
            .setReplicaNodes(List.of(1, 2, 3)).setIsrNodes(List.of(1, 2))
            .setEligibleLeaderReplicas(List.of(3)).setLastKnownElr(List.of(3))
            .setOfflineReplicas(List.of()));
        parts.add(new DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponsePartition()
            .setErrorCode(Errors.LEADER_NOT_AVAILABLE.code()).setPartitionIndex(1).setLeaderId(-1)
            .setLeaderEpoch(6).setReplicaNodes(List.of(1, 2, 3)).setIsrNodes(List.of())
            .setEligibleLeaderReplicas(null).setLastKnownElr(null).setOfflineReplicas(List.of(2, 3)));
        var topics = new DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopicCollection();
        topics.add(new DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopic()
            .setErrorCode((short) 0).setName(TOPIC).setTopicId(ID1).setIsInternal(false)
            .setPartitions(parts).setTopicAuthorizedOperations(0x0ff8));
        topics.add(new DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopic()
            .setErrorCode(Errors.UNKNOWN_TOPIC_ID.code()).setName(null).setTopicId(ID2)
            .setIsInternal(true).setPartitions(new ArrayList<>()).setTopicAuthorizedOperations(0));
        return new DescribeTopicPartitionsResponseData().setThrottleTimeMs(1).setTopics(topics)
            .setNextCursor(c.equals("nulls") ? null
                : new DescribeTopicPartitionsResponseData.Cursor().setTopicName(TOPIC).setPartitionIndex(2));
    }

    // DescribeConfigs ------------------------------------------------------
    static ApiMessage describeConfigsRequest(short v, String c) {
        var res = new ArrayList<DescribeConfigsRequestData.DescribeConfigsResource>();
        res.add(new DescribeConfigsRequestData.DescribeConfigsResource().setResourceType((byte) 2)
            .setResourceName(TOPIC).setConfigurationKeys(List.of("retention.ms", "min.insync.replicas")));
        res.add(new DescribeConfigsRequestData.DescribeConfigsResource().setResourceType((byte) 4)
            .setResourceName("1").setConfigurationKeys(null));
        var d = new DescribeConfigsRequestData().setResources(res).setIncludeSynonyms(true);
        if (v >= 3) d.setIncludeDocumentation(true);
        return d;
    }

    static ApiMessage describeConfigsResponse(short v, String c) {
        var syn = new ArrayList<DescribeConfigsResponseData.DescribeConfigsSynonym>();
        syn.add(new DescribeConfigsResponseData.DescribeConfigsSynonym().setName("retention.ms")
            .setValue("604800000").setSource((byte) 1));
        syn.add(new DescribeConfigsResponseData.DescribeConfigsSynonym().setName("log.retention.ms")
            .setValue(null).setSource((byte) 5));
        var configs = new ArrayList<DescribeConfigsResponseData.DescribeConfigsResourceResult>();
        configs.add(new DescribeConfigsResponseData.DescribeConfigsResourceResult()
            .setName("retention.ms").setValue("604800000").setReadOnly(false).setConfigSource((byte) 1)
            .setIsSensitive(false).setSynonyms(syn).setConfigType((byte) 5)
            .setDocumentation("Thé retention time"));
        configs.add(new DescribeConfigsResponseData.DescribeConfigsResourceResult()
            .setName("sasl.jaas.config").setValue(null).setReadOnly(true).setConfigSource((byte) 4)
            .setIsSensitive(true).setSynonyms(new ArrayList<>()).setConfigType((byte) 9)
            .setDocumentation(null));
        var results = new ArrayList<DescribeConfigsResponseData.DescribeConfigsResult>();
        results.add(new DescribeConfigsResponseData.DescribeConfigsResult().setErrorCode((short) 0)
            .setErrorMessage(null).setResourceType((byte) 2).setResourceName(TOPIC).setConfigs(configs));
        results.add(new DescribeConfigsResponseData.DescribeConfigsResult()
            .setErrorCode(Errors.INVALID_REQUEST.code()).setErrorMessage("bäd resource")
            .setResourceType((byte) 4).setResourceName("1").setConfigs(new ArrayList<>()));
        return new DescribeConfigsResponseData().setThrottleTimeMs(2).setResults(results);
    }

    // DescribeCluster ------------------------------------------------------
    static ApiMessage describeClusterRequest(short v, String c) {
        var d = new DescribeClusterRequestData().setIncludeClusterAuthorizedOperations(true);
        if (v >= 1) d.setEndpointType((byte) 2);
        if (v >= 2) d.setIncludeFencedBrokers(true);
        return d;
    }

    static ApiMessage describeClusterResponse(short v, String c) {
        boolean nulls = c.equals("nulls");
        var brokers = new DescribeClusterResponseData.DescribeClusterBrokerCollection();
        brokers.add(new DescribeClusterResponseData.DescribeClusterBroker().setBrokerId(1)
            .setHost("broker-1.exämple").setPort(9092).setRack("räck-a").setIsFenced(v >= 2));
        brokers.add(new DescribeClusterResponseData.DescribeClusterBroker().setBrokerId(2)
            .setHost("10.0.0.2").setPort(19093).setRack(null).setIsFenced(false));
        var d = new DescribeClusterResponseData().setThrottleTimeMs(3)
            .setErrorCode(nulls ? 0 : Errors.CLUSTER_AUTHORIZATION_FAILED.code())
            .setErrorMessage(nulls ? null : "nöt authorized")
            .setClusterId("clüster-Id_01").setControllerId(100).setBrokers(brokers)
            .setClusterAuthorizedOperations(0x1234);
        if (v >= 1) d.setEndpointType((byte) 2);
        return d;
    }

    // DescribeAcls ---------------------------------------------------------
    static ApiMessage describeAclsRequest(short v, String c) {
        boolean nulls = c.equals("nulls");
        var d = new DescribeAclsRequestData().setResourceTypeFilter((byte) 4)
            .setResourceNameFilter(nulls ? null : "kafka-cluster")
            .setPrincipalFilter(nulls ? null : "User:ön-call").setHostFilter(nulls ? null : "*")
            .setOperation((byte) 1).setPermissionType((byte) 3);
        if (v >= 1) d.setPatternTypeFilter((byte) 1);
        return d;
    }

    static ApiMessage describeAclsResponse(short v, String c) {
        boolean nulls = c.equals("nulls");
        var acls = new ArrayList<DescribeAclsResponseData.AclDescription>();
        acls.add(new DescribeAclsResponseData.AclDescription().setPrincipal("User:ön-call")
            .setHost("*").setOperation((byte) 8).setPermissionType((byte) 3));
        acls.add(new DescribeAclsResponseData.AclDescription().setPrincipal("User:admin")
            .setHost("10.0.0.1").setOperation((byte) 2).setPermissionType((byte) 2));
        var resources = new ArrayList<DescribeAclsResponseData.DescribeAclsResource>();
        var r = new DescribeAclsResponseData.DescribeAclsResource().setResourceType((byte) 4)
            .setResourceName("kafka-cluster").setAcls(acls);
        if (v >= 1) r.setPatternType((byte) 3);
        resources.add(r);
        return new DescribeAclsResponseData().setThrottleTimeMs(4)
            .setErrorCode(nulls ? 0 : Errors.SECURITY_DISABLED.code())
            .setErrorMessage(nulls ? null : "Nö Authorizer is configured on the broker")
            .setResources(resources);
    }

    // SASL -----------------------------------------------------------------
    static ApiMessage saslHandshakeRequest(short v, String c) {
        return new SaslHandshakeRequestData().setMechanism("SCRAM-SHA-512");
    }

    static ApiMessage saslHandshakeResponse(short v, String c) {
        return new SaslHandshakeResponseData().setErrorCode(Errors.UNSUPPORTED_SASL_MECHANISM.code())
            .setMechanisms(List.of("PLAIN", "SCRAM-SHA-256"));
    }

    static ApiMessage saslAuthenticateRequest(short v, String c) {
        return new SaslAuthenticateRequestData()
            .setAuthBytes("\0üser\0pässword".getBytes(StandardCharsets.UTF_8));
    }

    static ApiMessage saslAuthenticateResponse(short v, String c) {
        boolean nulls = c.equals("nulls");
        return new SaslAuthenticateResponseData()
            .setErrorCode(Errors.SASL_AUTHENTICATION_FAILED.code())
            .setErrorMessage(nulls ? null : "Authentication failed: ünknown user")
            .setAuthBytes(nulls ? new byte[0] : new byte[] {0, 1, (byte) 0xfe, (byte) 0xff, 'r', '='})
            .setSessionLifetimeMs(3_600_000L);
    }

    // Fetch -----------------------------------------------------------------
    static ApiMessage fetchRequest(short v, String c) {
        if (c.equals("consumer")) return consumerFetchRequest(v);
        var p1 = new ArrayList<FetchRequestData.FetchPartition>();
        p1.add(new FetchRequestData.FetchPartition().setPartition(0).setCurrentLeaderEpoch(5)
            .setFetchOffset(1000L).setLastFetchedEpoch(v >= 12 ? 4 : -1).setLogStartOffset(12L)
            .setPartitionMaxBytes(1048576).setReplicaDirectoryId(ID2).setHighWatermark(990L));
        p1.add(new FetchRequestData.FetchPartition().setPartition(7).setCurrentLeaderEpoch(9)
            .setFetchOffset(0x123456789aL).setLastFetchedEpoch(v >= 12 ? 8 : -1)
            .setLogStartOffset(0L).setPartitionMaxBytes(65536).setHighWatermark(-1L));
        var p2 = new ArrayList<FetchRequestData.FetchPartition>();
        p2.add(new FetchRequestData.FetchPartition().setPartition(2).setCurrentLeaderEpoch(0)
            .setFetchOffset(0L).setPartitionMaxBytes(1));
        var topics = new ArrayList<FetchRequestData.FetchTopic>();
        topics.add(new FetchRequestData.FetchTopic().setTopic(TOPIC).setTopicId(ID1).setPartitions(p1));
        topics.add(new FetchRequestData.FetchTopic().setTopic(OTHER).setTopicId(ID2).setPartitions(p2));
        var d = new FetchRequestData().setClusterId("clüster-Id_01").setMaxWaitMs(500)
            .setMinBytes(1).setMaxBytes(52428800).setIsolationLevel((byte) 1).setSessionId(123)
            .setSessionEpoch(4).setTopics(topics).setRackId("räck-a");
        if (v <= 14) d.setReplicaId(3);
        if (v >= 15) d.setReplicaState(new FetchRequestData.ReplicaState().setReplicaId(3).setReplicaEpoch(77L));
        if (v >= 7) {
            var forgotten = new ArrayList<FetchRequestData.ForgottenTopic>();
            forgotten.add(new FetchRequestData.ForgottenTopic().setTopic(TOPIC).setTopicId(ID1)
                .setPartitions(List.of(3, 4)));
            d.setForgottenTopicsData(forgotten);
        }
        return d;
    }

    // Three partitions of two topics from a consumer, as KafkaConsumer's fetcher builds them.
    static ApiMessage consumerFetchRequest(short v) {
        var data = new LinkedHashMap<TopicPartition, FetchRequest.PartitionData>();
        data.put(new TopicPartition(TOPIC, 0),
            new FetchRequest.PartitionData(ID1, 42L, -1L, 1048576, Optional.of(7)));
        data.put(new TopicPartition(TOPIC, 3),
            new FetchRequest.PartitionData(ID1, 0L, -1L, 65536, Optional.empty()));
        data.put(new TopicPartition(OTHER, 1),
            new FetchRequest.PartitionData(ID2, 0x123456789aL, -1L, 1048576, Optional.of(0)));
        return FetchRequest.Builder.forConsumer(v, 0, 1, data)
            .isolationLevel(IsolationLevel.READ_UNCOMMITTED).setMaxBytes(1048576)
            .build(v).data();
    }

    // Record data as a leader sends it: two whole v2 batches (offsets 42-43 and 44, leader
    // epoch 7), then the first 30 bytes of a third (offset 45, epoch 8), cut by the size limit.
    static MemoryRecords fetchedRecords() {
        byte[] a = MemoryRecords.withRecords((byte) 2, 42L, Compression.NONE, TimestampType.CREATE_TIME,
            1000L, (short) 0, 0, 7, false,
            new SimpleRecord(1_700_000_000_000L, "k-0".getBytes(StandardCharsets.UTF_8), "välue-0".getBytes(StandardCharsets.UTF_8)),
            new SimpleRecord(1_700_000_000_001L, "k-1".getBytes(StandardCharsets.UTF_8), "välue-1".getBytes(StandardCharsets.UTF_8)))
            .buffer().array();
        byte[] b = MemoryRecords.withRecords((byte) 2, 44L, Compression.NONE, TimestampType.CREATE_TIME,
            1000L, (short) 0, 2, 7, false,
            new SimpleRecord(1_700_000_000_002L, null, "välue-2".getBytes(StandardCharsets.UTF_8)))
            .buffer().array();
        byte[] c = MemoryRecords.withRecords((byte) 2, 45L, Compression.NONE, TimestampType.CREATE_TIME,
            1000L, (short) 0, 3, 8, false,
            new SimpleRecord(1_700_000_000_003L, null, "välue-3".getBytes(StandardCharsets.UTF_8)))
            .buffer().array();
        ByteBuffer all = ByteBuffer.allocate(a.length + b.length + 30);
        all.put(a).put(b).put(c, 0, 30).flip();
        return MemoryRecords.readableRecords(all);
    }

    // Since KIP-673 the JSON converters print a records field as an empty binary node (they
    // were made for request logs); the vectors carry the bytes, in Jackson's base64 as any
    // bytes field, so that the fields alone rebuild the message.
    static JsonNode withRecords(JsonNode json, FetchResponseData d) {
        for (int t = 0; t < d.responses().size(); t++) {
            var partitions = d.responses().get(t).partitions();
            for (int p = 0; p < partitions.size(); p++) {
                var records = (MemoryRecords) partitions.get(p).records();
                if (records == null) continue;
                ByteBuffer b = records.buffer().duplicate();
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                ((ObjectNode) json.get("responses").get(t).get("partitions").get(p))
                    .set("records", new BinaryNode(bytes));
            }
        }
        return json;
    }

    static ApiMessage fetchResponse(short v, String c) {
        boolean nulls = c.equals("nulls");
        var aborted = new ArrayList<FetchResponseData.AbortedTransaction>();
        aborted.add(new FetchResponseData.AbortedTransaction().setProducerId(1000L).setFirstOffset(40L));
        aborted.add(new FetchResponseData.AbortedTransaction().setProducerId(0x7fffffffffL).setFirstOffset(0L));
        var p0 = new FetchResponseData.PartitionData().setPartitionIndex(0).setErrorCode((short) 0)
            .setHighWatermark(46L).setLastStableOffset(45L).setLogStartOffset(3L)
            .setAbortedTransactions(nulls ? null : aborted)
            .setRecords(nulls ? null : fetchedRecords());
        var p7 = new FetchResponseData.PartitionData().setPartitionIndex(7)
            .setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code()).setHighWatermark(-1L)
            .setLastStableOffset(-1L).setLogStartOffset(-1L).setAbortedTransactions(null)
            .setRecords(MemoryRecords.EMPTY);
        var p2 = new FetchResponseData.PartitionData().setPartitionIndex(2)
            .setErrorCode(Errors.OFFSET_OUT_OF_RANGE.code()).setHighWatermark(100L)
            .setLastStableOffset(100L).setLogStartOffset(50L)
            .setAbortedTransactions(new ArrayList<>()).setRecords(null);
        if (v >= 11) p0.setPreferredReadReplica(2);
        if (v >= 12) {
            p0.setDivergingEpoch(new FetchResponseData.EpochEndOffset().setEpoch(6).setEndOffset(40L))
                .setSnapshotId(new FetchResponseData.SnapshotId().setEndOffset(30L).setEpoch(5));
            p7.setCurrentLeader(new FetchResponseData.LeaderIdAndEpoch().setLeaderId(3).setLeaderEpoch(9));
        }
        var parts = new ArrayList<FetchResponseData.PartitionData>();
        parts.add(p0);
        parts.add(p7);
        var others = new ArrayList<FetchResponseData.PartitionData>();
        others.add(p2);
        var topics = new ArrayList<FetchResponseData.FetchableTopicResponse>();
        topics.add(new FetchResponseData.FetchableTopicResponse().setTopic(TOPIC).setTopicId(ID1).setPartitions(parts));
        topics.add(new FetchResponseData.FetchableTopicResponse().setTopic(OTHER).setTopicId(ID2).setPartitions(others));
        var d = new FetchResponseData().setThrottleTimeMs(4).setResponses(topics)
            .setErrorCode(nulls ? 0 : Errors.FETCH_SESSION_ID_NOT_FOUND.code());
        if (v >= 7) d.setSessionId(0x1234);
        if (v >= 16) {
            var nodes = new FetchResponseData.NodeEndpointCollection();
            nodes.add(new FetchResponseData.NodeEndpoint().setNodeId(3).setHost("broker-3.exämple")
                .setPort(9094).setRack(nulls ? null : "räck-c"));
            nodes.add(new FetchResponseData.NodeEndpoint().setNodeId(1).setHost("10.0.0.1")
                .setPort(19092).setRack(null));
            d.setNodeEndpoints(nodes);
        }
        return d;
    }

    // ------------------------------------------------------------------ errors
    static void errors() throws Exception {
        ArrayNode a = new ArrayNode(JsonNodeFactory.instance);
        for (Errors e : Errors.values()) {
            ObjectNode n = a.addObject();
            n.put("code", e.code());
            n.put("name", e.name());
            n.put("retriable", e.exception() instanceof RetriableException);
            n.put("message", e.exception() == null ? "" : e.exception().getMessage());
        }
        out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(a));
    }
}
