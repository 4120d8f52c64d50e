// Red-team bot: on its first line it tries to run another program the Java way.
public class Spawn {
    public static void main(String[] args) throws Exception {
        new java.io.BufferedReader(new java.io.InputStreamReader(System.in)).readLine();
        try {
            Process p = Runtime.getRuntime().exec(new String[] {"/bot/bot.jar"});
            System.out.println("spawned " + p.waitFor());
        } catch (Exception e) {
            System.out.println("refused " + e);
        }
        System.out.flush();
    }
}
