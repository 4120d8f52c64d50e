import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * JbotRunner - the main class of every Java SnakeCore bot (the SnakeCore helper library).
 * It finds the one concrete subclass of Jbot among the classes of its own jar (or class
 * directory), makes one with its no-argument constructor and plays it on standard input
 * and output until the input ends.
 */
public final class JbotRunner {
    private JbotRunner() {}

    public static void main(String[] args) throws Exception {
        Jbot bot;
        try {
            bot = findBot();
        } catch (Exception e) {
            System.err.println("JbotRunner: " + e.getMessage());
            System.exit(1);
            return;
        }
        run(bot, new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
            new PrintStream(System.out, false, "UTF-8"));
    }

    /** Plays bot: getName -> its name, getAction -> its action; returns at the end of in. */
    public static void run(Jbot bot, BufferedReader in, PrintStream out) throws IOException {
        int turn = 0;
        for (String line; (line = in.readLine()) != null; ) {
            line = line.trim();
            if (line.equals("getName")) {
                out.print(cleanName(bot.getName()) + "\n");
            } else if (line.equals("getAction")) {
                AreaInfo area = AreaInfo.read(in, ++turn);
                if (area == null) return;
                out.print(bot.getAction(area) + "\n");
            } else {
                continue;
            }
            out.flush();
        }
    }

    /** The name as the page allows it: at most 32 bytes, no character below 0x20. */
    static String cleanName(String name) {
        if (name == null) name = "";
        byte[] b = name.getBytes(StandardCharsets.UTF_8);
        int n = Math.min(b.length, 32);
        while (n < b.length && n > 0 && (b[n] & 0xc0) == 0x80) n--; // not inside a character
        for (int i = 0; i < n; i++) if ((b[i] & 0xff) < 0x20) b[i] = ' ';
        return new String(b, 0, n, StandardCharsets.UTF_8);
    }

    /** The one concrete subclass of Jbot in this program, made with its no-argument constructor. */
    static Jbot findBot() throws Exception {
        File where = new File(JbotRunner.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> names = new ArrayList<>();
        if (where.isDirectory()) {
            listClasses(where, "", names);
        } else {
            try (JarFile jar = new JarFile(where)) {
                for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                    String n = e.nextElement().getName();
                    if (n.endsWith(".class")) names.add(n.substring(0, n.length() - 6).replace('/', '.'));
                }
            }
        }
        ClassLoader loader = JbotRunner.class.getClassLoader();
        List<Class<?>> found = new ArrayList<>();
        for (String n : names) {
            if (n.endsWith("module-info") || n.endsWith("package-info")) continue;
            Class<?> c;
            try {
                c = Class.forName(n, false, loader);
            } catch (Throwable t) {
                continue;
            }
            if (c == Jbot.class || !Jbot.class.isAssignableFrom(c) || Modifier.isAbstract(c.getModifiers())
                || c.isAnonymousClass() || c.isLocalClass()
                || (c.isMemberClass() && !Modifier.isStatic(c.getModifiers()))) continue;
            found.add(c);
        }
        if (found.size() > 1) {
            List<Class<?>> top = new ArrayList<>();
            for (Class<?> c : found) if (!c.isMemberClass()) top.add(c);
            if (top.size() == 1) found = top;
        }
        if (found.size() != 1) {
            throw new Exception("need exactly one concrete class extending Jbot, found " + found.size() + ": " + found);
        }
        Constructor<?> k = found.get(0).getDeclaredConstructor();
        k.setAccessible(true);
        return (Jbot) k.newInstance();
    }

    private static void listClasses(File dir, String prefix, List<String> out) {
        File[] files = dir.listFiles();
        if (files == null) return;
        for (File f : files) {
            if (f.isDirectory()) {
                listClasses(f, prefix + f.getName() + ".", out);
            } else if (f.getName().endsWith(".class")) {
                String n = f.getName();
                out.add(prefix + n.substring(0, n.length() - 6));
            }
        }
    }
}
