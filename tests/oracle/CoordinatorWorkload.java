// The workload of coordinator-logs-vs-kafka: what makes the group and transaction
// coordinators write every kind of record the oracle compares, with Kafka's own clients.
//
//   java -cp "$KAFKA/libs/*:DIR" CoordinatorWorkload BOOTSTRAP KIP848(true|false)
//
// __consumer_offsets: a classic group (group.protocol=classic: JoinGroup/SyncGroup, so
// GroupMetadataValue with the consumer protocol's subscription and assignment) committing
// offsets with leader epochs and metadata; a group committing without membership
// (assign + commitSync), then its offset of one partition deleted (OffsetDelete: an offset
// tombstone) and the group deleted (DeleteGroups: tombstones); transactional offset commits
// (sendOffsetsToTransaction: a transactional batch and its marker). With KIP848=true
// (Kafka 4.x) a consumer group of KIP-848 (group.protocol=consumer): its metadata, member,
// target and current assignment records, and the member's tombstones when it leaves; and one
// subscribed by a regular expression the broker resolves (ConsumerGroupRegularExpression).
// __transaction_state: a committed, an aborted, and an ongoing transaction (the JVM halts
// with it open; its timeout is long enough for it to stay Ongoing while the oracle runs).
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.*;

public class CoordinatorWorkload {
    static String bootstrap;

    static Properties consumerProps(String group, String protocol) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put("group.protocol", protocol);
        return p;
    }

    // Polls until `want` records came (or 30 s), then commits each partition's next offset
    // with the leader epoch of its last record and `metadata`.
    static void consumeAndCommit(Consumer<String, String> c, int want, String metadata) {
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        int got = 0;
        long deadline = System.currentTimeMillis() + 30000;
        while (got < want && System.currentTimeMillis() < deadline) {
            for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                got++;
                commit.put(new TopicPartition(r.topic(), r.partition()),
                           new OffsetAndMetadata(r.offset() + 1, r.leaderEpoch(), metadata));
            }
        }
        if (got < want) throw new IllegalStateException("consumed " + got + " of " + want);
        c.commitSync(commit);
    }

    static KafkaProducer<String, String> producer(String transactionalId) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        if (transactionalId != null) {
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
            p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "600000");
        }
        return new KafkaProducer<>(p);
    }

    public static void main(String[] args) throws Exception {
        bootstrap = args[0];
        boolean kip848 = Boolean.parseBoolean(args[1]);
        Properties ap = new Properties();
        ap.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(ap)) {
            admin.createTopics(List.of(new NewTopic("orders", 3, (short) 3))).all().get();
            try (KafkaProducer<String, String> p = producer(null)) {
                for (int i = 0; i < 30; i++) p.send(new ProducerRecord<>("orders", i % 3, "k" + i, "v" + i));
                p.flush();
            }
            try (Consumer<String, String> c = new KafkaConsumer<>(consumerProps("classic-group", "classic"))) {
                c.subscribe(List.of("orders"));
                consumeAndCommit(c, 30, "classic-meta");
            }
            List<TopicPartition> parts = List.of(new TopicPartition("orders", 0), new TopicPartition("orders", 1),
                                                 new TopicPartition("orders", 2));
            try (Consumer<String, String> c = new KafkaConsumer<>(consumerProps("manual-group", "classic"))) {
                c.assign(parts);
                consumeAndCommit(c, 30, "");
            }
            admin.deleteConsumerGroupOffsets("manual-group", Set.of(parts.get(2))).all().get();
            admin.deleteConsumerGroups(List.of("manual-group")).all().get();
            if (kip848) {
                try (Consumer<String, String> c = new KafkaConsumer<>(consumerProps("kip848-group", "consumer"))) {
                    c.subscribe(List.of("orders"));
                    consumeAndCommit(c, 30, "kip848-meta");
                }
                try (Consumer<String, String> c = new KafkaConsumer<>(consumerProps("kip848-regex", "consumer"))) {
                    // SubscriptionPattern (Kafka 4.0+), by reflection: the file compiles against 3.9 too.
                    Class<?> pattern = Class.forName("org.apache.kafka.clients.consumer.SubscriptionPattern");
                    c.getClass().getMethod("subscribe", pattern)
                        .invoke(c, pattern.getConstructor(String.class).newInstance("ord.*"));
                    consumeAndCommit(c, 30, "regex");
                }
            }
        }
        try (KafkaProducer<String, String> p = producer("tx-commit")) {
            p.initTransactions();
            p.beginTransaction();
            for (int i = 0; i < 3; i++) p.send(new ProducerRecord<>("orders", i, "t" + i, "committed"));
            p.sendOffsetsToTransaction(Map.of(new TopicPartition("orders", 0), new OffsetAndMetadata(5, "txn-meta")),
                                       new ConsumerGroupMetadata("txn-group"));
            p.commitTransaction();
        }
        try (KafkaProducer<String, String> p = producer("tx-abort")) {
            p.initTransactions();
            p.beginTransaction();
            p.send(new ProducerRecord<>("orders", 1, "a", "aborted"));
            p.flush();
            p.abortTransaction();
        }
        KafkaProducer<String, String> open = producer("tx-ongoing");
        open.initTransactions();
        open.beginTransaction();
        open.send(new ProducerRecord<>("orders", 2, "o", "ongoing"));
        open.send(new ProducerRecord<>("orders", 0, "o", "ongoing"));
        open.flush();
        System.out.println("workload done");
        System.out.flush();
        Runtime.getRuntime().halt(0);  // the transaction stays open: no close, no abort
    }
}
