import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * A least-recently-used cache built from a hash map and a doubly linked list,
 * with a small demo that caches slow "lookups" and reports the hit rate.
 */
class LruCacheDemo {

    static final class LruCache<K, V> {
        private final class Node {
            K key;
            V value;
            Node prev, next;

            Node(K key, V value) {
                this.key = key;
                this.value = value;
            }
        }

        private final int capacity;
        private final Map<K, Node> index = new HashMap<>();
        private final Node head = new Node(null, null); // most recent after head
        private final Node tail = new Node(null, null); // least recent before tail
        private int hits, misses, evictions;

        LruCache(int capacity) {
            if (capacity < 1) throw new IllegalArgumentException("capacity < 1");
            this.capacity = capacity;
            head.next = tail;
            tail.prev = head;
        }

        private void unlink(Node n) {
            n.prev.next = n.next;
            n.next.prev = n.prev;
        }

        private void pushFront(Node n) {
            n.next = head.next;
            n.prev = head;
            head.next.prev = n;
            head.next = n;
        }

        V get(K key, Function<K, V> loader) {
            Node n = index.get(key);
            if (n != null) {
                hits++;
                unlink(n);
                pushFront(n);
                return n.value;
            }
            misses++;
            V value = loader.apply(key);
            put(key, value);
            return value;
        }

        void put(K key, V value) {
            Node n = index.get(key);
            if (n != null) {
                n.value = value;
                unlink(n);
                pushFront(n);
                return;
            }
            if (index.size() == capacity) {
                Node old = tail.prev;
                unlink(old);
                index.remove(old.key);
                evictions++;
            }
            n = new Node(key, value);
            index.put(key, n);
            pushFront(n);
        }

        String contents() {
            StringBuilder sb = new StringBuilder("[");
            for (Node n = head.next; n != tail; n = n.next) {
                if (sb.length() > 1) sb.append(", ");
                sb.append(n.key).append('=').append(n.value);
            }
            return sb.append(']').toString();
        }

        String stats() {
            int total = hits + misses;
            double rate = total == 0 ? 0 : 100.0 * hits / total;
            return String.format("hits=%d misses=%d evictions=%d hit rate=%.1f%%", hits, misses, evictions, rate);
        }
    }

    static int slowSquareCalls = 0;

    static long slowSquare(int x) {
        slowSquareCalls++;
        long acc = 0;
        for (int i = 0; i < x; i++) acc += x; // pretend this is expensive
        return acc;
    }

    public static void main(String[] args) {
        int capacity = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        LruCache<Integer, Long> cache = new LruCache<>(capacity);
        int[] requests = {1, 2, 3, 1, 4, 5, 1, 2, 6, 1, 3, 3, 7, 2, 1};
        for (int r : requests) {
            long v = cache.get(r, LruCacheDemo::slowSquare);
            System.out.printf("get(%d) = %d   cache %s%n", r, v, cache.contents());
        }
        System.out.println(cache.stats());
        System.out.println("slowSquare was called " + slowSquareCalls + " times for " + requests.length + " requests");
    }
}
