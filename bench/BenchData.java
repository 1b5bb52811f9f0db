// BenchData: creates the benchmark topics and produces their data in one JVM (a JVM per
// topic costs ~20 s each on a loaded 2-core machine). Used by bench/gen-kafka-data.
//
//   java -cp <kafka libs>:<dir> BenchData BOOTSTRAP < spec
//
// spec: one topic per line, "topic segment_bytes codec batch_size linger_ms raw_bytes payload_file".
// Every topic gets one partition with one replica on broker 1. Values are lines of the payload
// file picked at random (seeded), keys "k-<i>"; acks=1; one producer per topic, all at once.
import java.nio.file.*;
import java.util.*;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public class BenchData {
    public static void main(String[] a) throws Exception {
        String boot = a[0];
        List<String[]> specs = new ArrayList<>();
        Scanner in = new Scanner(System.in);
        while (in.hasNextLine()) {
            String l = in.nextLine().trim();
            if (!l.isEmpty()) specs.add(l.split("\\s+"));
        }
        Properties ap = new Properties();
        ap.put("bootstrap.servers", boot);
        ap.put("request.timeout.ms", "60000");
        ap.put("default.api.timeout.ms", "300000");
        try (Admin admin = Admin.create(ap)) {
            List<NewTopic> topics = new ArrayList<>();
            for (String[] s : specs)
                topics.add(new NewTopic(s[0], Map.of(0, List.of(1))).configs(Map.of("segment.bytes", s[1])));
            admin.createTopics(topics).all().get();
            // wait until every partition has its leader
            for (int i = 0; i < 600; i++) {
                boolean ok = true;
                for (TopicDescription d : admin.describeTopics(specs.stream().map(s -> s[0]).toList()).allTopicNames().get().values())
                    for (var p : d.partitions()) if (p.leader() == null || p.leader().id() != 1) ok = false;
                if (ok) break;
                Thread.sleep(200);
            }
        }
        // All topics at once: small batches are bound by request latency, not CPU.
        List<Thread> threads = new ArrayList<>();
        for (String[] s : specs) {
            Thread t = new Thread(() -> {
                try { produce(boot, s); } catch (Exception e) { e.printStackTrace(); System.exit(1); }
            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) t.join();
    }

    static void produce(String boot, String[] s) throws Exception {
        {
            long t0 = System.nanoTime();
            List<byte[]> values = new ArrayList<>();
            for (String line : Files.readAllLines(Path.of(s[6]))) values.add(line.getBytes());
            Properties pp = new Properties();
            pp.put("bootstrap.servers", boot);
            pp.put("acks", "1");
            pp.put("compression.type", s[2]);
            pp.put("batch.size", s[3]);
            pp.put("linger.ms", s[4]);
            pp.put("max.request.size", "2097152");
            pp.put("buffer.memory", "67108864");
            pp.put("enable.idempotence", "false");
            pp.put("key.serializer", ByteArraySerializer.class.getName());
            pp.put("value.serializer", ByteArraySerializer.class.getName());
            long raw = Long.parseLong(s[5]), bytes = 0, n = 0;
            Random rnd = new Random(s[0].hashCode());
            try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(pp)) {
                while (bytes < raw) {
                    byte[] v = values.get(rnd.nextInt(values.size()));
                    byte[] k = ("k-" + n).getBytes();
                    p.send(new ProducerRecord<>(s[0], 0, k, v), (md, e) -> {
                        if (e != null) { e.printStackTrace(); System.exit(1); }
                    });
                    bytes += v.length + k.length;
                    n++;
                }
                p.flush();
            }
            double sec = (System.nanoTime() - t0) / 1e9;
            System.err.printf("BenchData: %s: %d records, %.1f MB raw, %.1f s (%.1f MB/s), codec %s, batch.size %s%n",
                              s[0], n, bytes / 1e6, sec, bytes / 1e6 / sec, s[2], s[3]);
        }
    }
}
