// kepoch plan: put each chosen replica first in its partition's replica list.
// Run: BOOTSTRAP=host:port jshell --class-path "$(printf '%s:' "$KAFKA_HOME"/libs/*.jar)" reorder.jsh
// (COMMAND_CONFIG=client.properties for a secured cluster.)
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.common.TopicPartition;
import java.util.*;
var props = new Properties();
if (System.getenv("COMMAND_CONFIG") != null) props.load(new java.io.FileInputStream(System.getenv("COMMAND_CONFIG")));
props.put("bootstrap.servers", System.getenv("BOOTSTRAP"));
var moves = new HashMap<TopicPartition, Optional<NewPartitionReassignment>>();
moves.put(new TopicPartition("d", 0), Optional.of(new NewPartitionReassignment(List.of(2, 1, 3, 4))));
int rc = 0;
try (var admin = Admin.create(props)) { admin.alterPartitionReassignments(moves).all().get(); System.out.println("reordered " + moves.size() + " partition(s)"); } catch (Exception e) { System.err.println("reorder failed: " + e); rc = 1; }
/exit rc
