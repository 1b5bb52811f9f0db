// Small Kafka client helper for tests/cluster/kafka-cluster.
//
// Compiled at run time by kafka-cluster with javac against the cached Kafka jars
// (into the Kafka cache dir, never into the repository). One JVM per call; the
// wait-* subcommands poll inside the JVM so they cost a single JVM start.
//
// Usage: java -cp <libs>/*:<classes> KepochTool --bootstrap H:P,... <command> ...
//   brokers                                   unfenced broker ids (DescribeCluster), comma list
//   wait-brokers IDS TIMEOUT_MS               until DescribeCluster shows exactly/at least IDS
//   partition T P                             "leader=L epoch=E isr=a,b replicas=a,b,c elr=..."
//   leader T P | isr T P | elr T P            single field (leader -1 if none; isr sorted)
//   wait-leader T P ID TIMEOUT_MS             until leader == ID
//   wait-isr T P IDS TIMEOUT_MS               until sorted ISR == sorted IDS
//   end-offset T P                            log end offset (high watermark) via ListOffsets
//   produce T N [--acks all|1|0] [--codec C] [--partition P] [--prefix S] [--start I]
//               [--transactional] [--abort] [--sync] [--timeout-ms MS]
//       keys "<prefix>-<i>", values "<prefix>-value-<i>", i = start .. start+N-1.
//       Prints one summary line:
//       "produced topic=T acked=A failed=F first_offset=X last_offset=Y partitions=..."
//       Exit status 0 only if all N were acked (with acks=0 "acked" means sent).
//       --transactional: one transaction (transactional.id kepoch-<topic>-<prefix>), committed;
//       --abort: same but the transaction is aborted (records + ABORT marker stay in the log).
//       --open: same but the transaction is left open: the records are flushed, then the JVM
//       halts without ending it (no marker until the coordinator's transaction timeout).
//       --header K=V: every record carries this header (repeatable).
//       --await-file F: once the producer has the topic's metadata, create F.ready and send
//       nothing until F exists (a scenario that must change the cluster between the
//       producer's start and its first request, e.g. stop a follower: one JVM start is
//       slower than replica.lag.time.max.ms on a busy machine).
//       --warm-up T: first send one record (key "warm-up") to topic T and wait for it: the
//       producer then has its producer id (InitProducerId) and connections, so its first
//       record to the topic after F is appended at once.
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.*;
import org.apache.kafka.common.serialization.StringSerializer;

public class KepochTool {
    static String bootstrap;

    static Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "4000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        p.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "100");
        p.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, "1000");
        p.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, "2000");
        p.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "500");
        p.put(AdminClientConfig.METADATA_MAX_AGE_CONFIG, "500");
        return Admin.create(p);
    }

    static String join(Collection<Integer> ids) {
        StringBuilder sb = new StringBuilder();
        for (Integer i : ids) { if (sb.length() > 0) sb.append(','); sb.append(i); }
        return sb.toString();
    }

    static List<Integer> sortedIds(Collection<Node> nodes) {
        List<Integer> l = new ArrayList<>();
        for (Node n : nodes) l.add(n.id());
        Collections.sort(l);
        return l;
    }

    static List<Integer> parseIds(String s) {
        List<Integer> l = new ArrayList<>();
        for (String x : s.split(",")) if (!x.isBlank()) l.add(Integer.parseInt(x.trim()));
        Collections.sort(l);
        return l;
    }

    // Seconds one admin call may take; the wait-* polls use less so that a try stuck
    // on a stopped broker ends early and the next try starts with a fresh client.
    static long callTimeoutS = 15;

    static String brokers(Admin a) throws Exception {
        return join(sortedIds(a.describeCluster().nodes().get(callTimeoutS, TimeUnit.SECONDS)));
    }

    static TopicPartitionInfo partInfo(Admin a, String topic, int part) throws Exception {
        TopicDescription d = a.describeTopics(List.of(topic)).topicNameValues().get(topic).get(callTimeoutS, TimeUnit.SECONDS);
        for (TopicPartitionInfo i : d.partitions()) if (i.partition() == part) return i;
        throw new IllegalArgumentException("no partition " + topic + "-" + part);
    }

    static int leaderOf(TopicPartitionInfo i) {
        Node l = i.leader();
        return (l == null || l.isEmpty() || l.id() < 0) ? -1 : l.id();
    }

    static String describe(TopicPartitionInfo i) {
        return "leader=" + leaderOf(i) + " isr=" + join(sortedIds(i.isr()))
            + " replicas=" + join(i.replicas().stream().map(Node::id).toList())
            + " elr=" + join(sortedIds(i.elr())) + " last_known_elr=" + join(sortedIds(i.lastKnownElr()));
    }

    interface Probe { String get(Admin a) throws Exception; }

    // One read, printed: up to three tries, each with a new client (see waitFor), the last
    // failure thrown.
    static int once(Probe probe) throws Exception {
        callTimeoutS = 8;
        Exception last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            Admin a = admin();
            try {
                System.out.println(probe.get(a));
                return 0;
            } catch (Exception e) {
                last = e;
            } finally {
                a.close(java.time.Duration.ZERO);
            }
        }
        throw last;
    }

    // Polls probe until it returns want; prints the last value; exit 0/1.
    // A failed try closes its client and the next try starts a new one: a client
    // that learnt a broker from metadata just before that broker was SIGSTOPped
    // keeps choosing it (a connection stuck in its ApiVersions exchange counts as
    // "connecting" and is preferred), while a new client bootstraps from the live
    // brokers and, once the stopped one is fenced, never hears of it.
    static int waitFor(String what, String want, long timeoutMs, Probe probe) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMs;
        String last = "(none)";
        Exception lastErr = null;
        callTimeoutS = 5;
        Admin a = admin();
        try {
            while (true) {
                try {
                    last = probe.get(a);
                    lastErr = null;
                } catch (Exception e) {
                    lastErr = e;
                    a.close(java.time.Duration.ZERO);
                    a = admin();
                }
                if (want.equals(last)) { System.out.println(last); return 0; }
                if (System.currentTimeMillis() > deadline) break;
                Thread.sleep(200);
            }
        } finally {
            a.close(java.time.Duration.ZERO);
        }
        System.err.println("KepochTool: timeout after " + timeoutMs + " ms waiting for " + what + " = " + want
            + "; last value: " + last + (lastErr != null ? " (last error: " + lastErr + ")" : ""));
        return 1;
    }

    static int produce(String[] args) throws Exception {
        String topic = args[0];
        int n = Integer.parseInt(args[1]);
        String acks = "all", codec = "none", prefix = "r";
        Integer partition = null;
        int start = 0;
        boolean txn = false, sync = false, abort = false, open = false;
        List<String[]> headers = new ArrayList<>();
        int timeoutMs = 15000;
        String lingerMs = "5";
        String awaitFile = null, warmUp = null;
        int valueBytes = 0;
        for (int k = 2; k < args.length; k++) {
            switch (args[k]) {
                case "--acks" -> acks = args[++k];
                case "--codec" -> codec = args[++k];
                case "--partition" -> partition = Integer.parseInt(args[++k]);
                case "--prefix" -> prefix = args[++k];
                case "--start" -> start = Integer.parseInt(args[++k]);
                case "--transactional" -> txn = true;
                case "--abort" -> { txn = true; abort = true; }
                case "--open" -> { txn = true; open = true; }
                case "--header" -> headers.add(args[++k].split("=", 2));
                case "--sync" -> sync = true;
                case "--timeout-ms" -> timeoutMs = Integer.parseInt(args[++k]);
                // A long linger keeps every record in one batch until the flush (a scenario that
                // needs one batch of N records; 5 ms lets a slow JVM split them).
                case "--linger-ms" -> lingerMs = String.valueOf(Integer.parseInt(args[++k]));
                case "--await-file" -> awaitFile = args[++k];
                case "--warm-up" -> warmUp = args[++k];
                // Values padded to this many bytes (a record larger than the producer's default
                // max.request.size: the topic must take it, max.message.bytes).
                case "--value-bytes" -> valueBytes = Integer.parseInt(args[++k]);
                default -> throw new IllegalArgumentException("produce: unknown option " + args[k]);
            }
        }
        if (txn && !acks.equals("all")) throw new IllegalArgumentException("--transactional needs --acks all");
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, acks);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, acks.equals("all") ? "true" : "false");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(timeoutMs));
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(Math.min(timeoutMs, 5000)));
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(Math.max(timeoutMs, 5000 + 5)));
        p.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
        p.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, "100");
        if (valueBytes > 0) p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(valueBytes + (1 << 20)));
        p.put(ProducerConfig.METADATA_MAX_AGE_CONFIG, "1000");
        p.put(ProducerConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, "1000");
        p.put(ProducerConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, "2000");
        if (txn) {
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "kepoch-" + topic + "-" + prefix);
            p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "10000");
        }
        AtomicInteger acked = new AtomicInteger(), failed = new AtomicInteger();
        AtomicLong first = new AtomicLong(Long.MAX_VALUE), last = new AtomicLong(-1);
        Set<Integer> parts = new ConcurrentSkipListSet<>();
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        try (KafkaProducer<String, String> prod = new KafkaProducer<>(p)) {
            if (txn) { prod.initTransactions(); prod.beginTransaction(); }
            if (warmUp != null) prod.send(new ProducerRecord<>(warmUp, "warm-up", "warm-up")).get();
            if (awaitFile != null) {
                prod.partitionsFor(topic);
                java.nio.file.Files.createFile(java.nio.file.Path.of(awaitFile + ".ready"));
                long until = System.currentTimeMillis() + timeoutMs;
                while (!java.nio.file.Files.exists(java.nio.file.Path.of(awaitFile))) {
                    if (System.currentTimeMillis() > until) throw new TimeoutException("no " + awaitFile);
                    Thread.sleep(20);
                }
            }
            List<Future<RecordMetadata>> futs = new ArrayList<>();
            for (int i = start; i < start + n; i++) {
                String key = prefix + "-" + i, value = prefix + "-value-" + i;
                if (value.length() < valueBytes) value = value + "v".repeat(valueBytes - value.length());
                ProducerRecord<String, String> rec = new ProducerRecord<>(topic, partition, key, value);
                for (String[] h : headers)
                    rec.headers().add(h[0], h.length > 1 ? h[1].getBytes(java.nio.charset.StandardCharsets.UTF_8) : null);
                Callback cb = (md, ex) -> {
                    if (ex != null) { failed.incrementAndGet(); if (errors.size() < 3) errors.add(ex.toString()); return; }
                    acked.incrementAndGet();
                    parts.add(md.partition());
                    if (md.hasOffset()) {
                        first.accumulateAndGet(md.offset(), Math::min);
                        last.accumulateAndGet(md.offset(), Math::max);
                    }
                };
                Future<RecordMetadata> f = prod.send(rec, cb);
                if (sync) { try { f.get(); } catch (ExecutionException e) { /* counted in callback */ } }
                futs.add(f);
            }
            prod.flush();
            if (open) {
                System.out.println("produced topic=" + topic + " acked=" + acked.get() + " failed=" + failed.get()
                    + " first_offset=" + first.get() + " last_offset=" + last.get() + " transactional=true open=true");
                System.out.flush();
                Runtime.getRuntime().halt(failed.get() == 0 ? 0 : 1);
            }
            if (txn) {
                if (failed.get() == 0 && !abort) prod.commitTransaction(); else prod.abortTransaction();
            }
        }
        System.out.println("produced topic=" + topic + " acked=" + acked.get() + " failed=" + failed.get()
            + " first_offset=" + (first.get() == Long.MAX_VALUE ? -1 : first.get()) + " last_offset=" + last.get()
            + " partitions=" + join(parts) + " acks=" + acks + " codec=" + codec + " prefix=" + prefix
            + (txn ? " transactional=true" + (abort ? " aborted=true" : "") : ""));
        for (String e : errors) System.err.println("KepochTool: produce error: " + e);
        return failed.get() == 0 ? 0 : 1;
    }

    public static void main(String[] argv) {
        try {
            run(argv);
        } catch (Exception e) {
            Throwable c = (e instanceof ExecutionException && e.getCause() != null) ? e.getCause() : e;
            System.err.println("KepochTool: error: " + c);
            System.exit(1);
        }
    }

    static void run(String[] argv) throws Exception {
        List<String> a = new ArrayList<>(Arrays.asList(argv));
        if (a.size() >= 2 && a.get(0).equals("--bootstrap")) { bootstrap = a.get(1); a = a.subList(2, a.size()); }
        if (bootstrap == null || a.isEmpty()) {
            System.err.println("usage: KepochTool --bootstrap H:P,... <command> args...");
            System.exit(2);
        }
        String cmd = a.get(0);
        String[] r = a.subList(1, a.size()).toArray(new String[0]);
        int rc;
        if (cmd.equals("produce")) {
            rc = produce(r);
        } else {
            rc = switch (cmd) {
                case "wait-brokers" -> waitFor("brokers", join(parseIds(r[0])), Long.parseLong(r[1]), KepochTool::brokers);
                case "wait-leader" -> waitFor("leader of " + r[0] + "-" + r[1], r[2], Long.parseLong(r[3]),
                    w -> String.valueOf(leaderOf(partInfo(w, r[0], Integer.parseInt(r[1])))));
                case "wait-isr" -> waitFor("isr of " + r[0] + "-" + r[1], join(parseIds(r[2])), Long.parseLong(r[3]),
                    w -> join(sortedIds(partInfo(w, r[0], Integer.parseInt(r[1])).isr())));
                case "brokers" -> once(KepochTool::brokers);
                case "partition" -> once(w -> describe(partInfo(w, r[0], Integer.parseInt(r[1]))));
                case "leader" -> once(w -> String.valueOf(leaderOf(partInfo(w, r[0], Integer.parseInt(r[1])))));
                case "isr" -> once(w -> join(sortedIds(partInfo(w, r[0], Integer.parseInt(r[1])).isr())));
                case "elr" -> once(w -> join(sortedIds(partInfo(w, r[0], Integer.parseInt(r[1])).elr())));
                case "end-offset" -> once(w -> {
                    TopicPartition tp = new TopicPartition(r[0], Integer.parseInt(r[1]));
                    return String.valueOf(w.listOffsets(Map.of(tp, OffsetSpec.latest())).partitionResult(tp)
                        .get(callTimeoutS, TimeUnit.SECONDS).offset());
                });
                default -> { System.err.println("KepochTool: unknown command " + cmd); yield 2; }
            };
        }
        System.exit(rc);
    }
}
