// Writes KRaft metadata record vectors with Kafka's own classes: reads one JSON line per
// vector on stdin ({"api_key", "version", "case", "data"}: data in the form Kafka's
// generated JsonConverter reads), builds the record with MetadataJsonConverters.readJson,
// serializes it with MetadataRecordSerde (frame version, api key, version, body: what the
// controller appends to __cluster_metadata), reads the bytes back with the same serde and
// prints {"api_key", "version", "case", "type", "hex", "kafka"}: kafka is what
// MetadataJsonConverters.writeJson prints for the record read back (DumpLogSegments
// --cluster-metadata-decoder's "data"). Run by tests/metadata/gen-metadata-vectors.
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.metadata.MetadataJsonConverters;
import org.apache.kafka.common.metadata.MetadataRecordType;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.metadata.MetadataRecordSerde;
import org.apache.kafka.server.common.ApiMessageAndVersion;

public class MetadataVectors {
  public static void main(String[] args) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    MetadataRecordSerde serde = MetadataRecordSerde.INSTANCE;
    for (String line; (line = in.readLine()) != null; ) {
      if (line.isBlank()) continue;
      JsonNode n = mapper.readTree(line);
      short key = (short) n.get("api_key").asInt();
      short version = (short) n.get("version").asInt();
      ApiMessage msg = MetadataJsonConverters.readJson(n.get("data"), key, version);
      ApiMessageAndVersion amv = new ApiMessageAndVersion(msg, version);
      ObjectSerializationCache cache = new ObjectSerializationCache();
      int size = serde.recordSize(amv, cache);
      ByteBuffer buf = ByteBuffer.allocate(size);
      serde.write(amv, cache, new ByteBufferAccessor(buf));
      byte[] bytes = buf.array();
      ApiMessageAndVersion back = serde.read(new ByteBufferAccessor(ByteBuffer.wrap(bytes)), size);
      StringBuilder hex = new StringBuilder();
      for (byte b : bytes) hex.append(String.format("%02x", b));
      ObjectNode out = mapper.createObjectNode();
      out.put("api_key", key);
      out.put("version", version);
      out.put("case", n.get("case").asText());
      out.put("type", MetadataRecordType.fromId(key).toString());
      out.put("hex", hex.toString());
      out.set("kafka", MetadataJsonConverters.writeJson(back.message(), back.version()));
      System.out.println(mapper.writeValueAsString(out));
    }
  }
}
