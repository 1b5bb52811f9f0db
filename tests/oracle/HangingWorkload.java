// The clients of hanging-vs-kafka, Kafka's own:
//
//   java -cp "$KAFKA/libs/*:DIR" HangingWorkload produce BOOTSTRAP TOPIC TXID GO_FILE
//       a transactional producer: one transaction of three records (keys t-0..2, acks=all)
//       sent and flushed, "sent" printed; then, once GO_FILE exists (the oracle has isolated
//       the follower), commitTransaction and "committed" printed.
//   java -cp ... HangingWorkload consume BOOTSTRAP TOPIC
//       a read_committed consumer of partition 0 from the beginning: "lso=N" (endOffsets
//       under read_committed: the last stable offset) and "keys=k,k,..." of every record it
//       returns within 8 s.
import java.nio.file.*;
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.*;

public class HangingWorkload {
    public static void main(String[] args) throws Exception {
        if (args[0].equals("produce")) produce(args[1], args[2], args[3], Paths.get(args[4]));
        else consume(args[1], args[2]);
    }

    static void produce(String bootstrap, String topic, String txid, Path go) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, txid);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "120000");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < 3; i++)
                producer.send(new ProducerRecord<>(topic, 0, "t-" + i, "t-value-" + i)).get();
            producer.flush();
            System.out.println("sent");
            System.out.flush();
            long deadline = System.currentTimeMillis() + 120_000;
            while (!Files.exists(go)) {
                if (System.currentTimeMillis() > deadline) throw new IllegalStateException("no go");
                Thread.sleep(100);
            }
            producer.commitTransaction();
            System.out.println("committed");
        }
    }

    static void consume(String bootstrap, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p)) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            List<String> keys = new ArrayList<>();
            long end = System.currentTimeMillis() + 8_000;
            while (System.currentTimeMillis() < end)
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500)))
                    keys.add(r.key());
            System.out.println("lso=" + consumer.endOffsets(List.of(tp)).get(tp));
            System.out.println("keys=" + String.join(",", keys));
        }
    }
}
