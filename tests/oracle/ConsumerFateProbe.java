// The Java consumer of consumer-fate-vs-kafka, Kafka's own client deciding each group's fate:
//
//   java -cp "$KAFKA/libs/*:DIR" ConsumerFateProbe commit BOOTSTRAP TOPIC GROUP:OFFSET:EPOCH...
//     commits OFFSET for partition 0 of TOPIC in each GROUP (no membership: assign +
//     commitSync), with leader epoch EPOCH (-1: none, as a client without KIP-320 commits);
//   java ... ConsumerFateProbe probe BOOTSTRAP TOPIC GROUP:POLICY...
//     for each GROUP, a consumer with auto.offset.reset=POLICY starts from the group's
//     committed offset and polls (no commit) until the first record, an exception, or a
//     quiet spell; prints one line per group:
//       GROUP position N        the offset of the first record it got, or its position
//       GROUP exception NAME [divergent=N]   LogTruncationException (with its divergent
//                               offset, if any) or OffsetOutOfRangeException
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

public class ConsumerFateProbe {
    static Properties props(String bootstrap, String group, String policy) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, policy);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return p;
    }

    public static void main(String[] args) {
        String mode = args[0], bootstrap = args[1], topic = args[2];
        TopicPartition tp = new TopicPartition(topic, 0);
        for (int i = 3; i < args.length; i++) {
            String[] a = args[i].split(":");
            String group = a[0];
            if (mode.equals("commit")) {
                int epoch = Integer.parseInt(a[2]);
                try (KafkaConsumer<String, String> c = new KafkaConsumer<>(props(bootstrap, group, "none"))) {
                    c.assign(List.of(tp));
                    c.commitSync(Map.of(tp, new OffsetAndMetadata(Long.parseLong(a[1]),
                        epoch < 0 ? Optional.empty() : Optional.of(epoch), "")));
                }
                System.out.println(group + " committed " + a[1] + " epoch " + a[2]);
                continue;
            }
            try (KafkaConsumer<String, String> c = new KafkaConsumer<>(props(bootstrap, group, a[1]))) {
                c.assign(List.of(tp));
                String result = null;
                long start = System.currentTimeMillis();
                long lastChange = start;
                Long last = null;
                while (result == null && System.currentTimeMillis() - start < 30000) {
                    try {
                        ConsumerRecords<String, String> records = c.poll(Duration.ofMillis(300));
                        if (!records.isEmpty()) {
                            result = "position " + records.iterator().next().offset();
                            break;
                        }
                        long now = System.currentTimeMillis();
                        long pos = c.position(tp, Duration.ofSeconds(10));
                        if (last == null || pos != last) { last = pos; lastChange = now; }
                        // No record: the position it settled on, once several fetches kept it.
                        if (now - start > 5000 && now - lastChange > 3000) result = "position " + pos;
                    } catch (LogTruncationException e) {
                        OffsetAndMetadata d = e.divergentOffsets().get(tp);
                        result = "exception LogTruncationException" + (d == null ? "" : " divergent=" + d.offset());
                    } catch (OffsetOutOfRangeException e) {
                        result = "exception OffsetOutOfRangeException";
                    }
                }
                System.out.println(group + " " + (result == null ? "timeout" : result));
            }
        }
    }
}
