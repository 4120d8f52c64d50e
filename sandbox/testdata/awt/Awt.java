// Red-team bot: on its first line it tries to open a window.
public class Awt {
    public static void main(String[] args) throws Exception {
        new java.io.BufferedReader(new java.io.InputStreamReader(System.in)).readLine();
        try {
            java.awt.Frame f = new java.awt.Frame("x");
            f.setVisible(true);
            System.out.println("window opened");
        } catch (Throwable e) {
            System.out.println("no window: " + e.getClass().getName());
        }
        System.out.flush();
    }
}
