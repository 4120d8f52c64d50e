// Prints what AreaInfo reads from each request, in the layout of the library tests.
import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Dump {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder out = new StringBuilder();
        int turn = 0;
        for (String line; (line = in.readLine()) != null; ) {
            line = line.trim();
            if (line.equals("getName")) {
                out.append("name ").append(JbotRunner.cleanName("a name that is much longer than thirty-two bytes\t")).append('\n');
                continue;
            }
            if (!line.equals("getAction")) continue;
            AreaInfo a = AreaInfo.read(in, ++turn);
            out.append("turn ").append(a.getTurn()).append(" size ").append(a.getSize()).append(" pythons ").append(a.getPythonCount()).append('\n');
            for (int y = 0; y < a.getSize(); y++) out.append(a.getRow(y)).append('\n');
            for (int k = 0; k < a.getPythonCount(); k++) {
                AreaInfo.Python p = a.getPython(k);
                out.append("py ").append(k).append(' ').append(p.getProtection()).append(' ').append(p.getLength());
                for (int i = 0; i < p.getLength(); i++) out.append(' ').append(p.getX(i)).append(',').append(p.getY(i));
                out.append(" |");
                for (int i = 0; i < p.getLength(); i++) out.append(' ').append(a.getOwner(p.getX(i), p.getY(i))).append(':').append(a.getPartIndex(p.getX(i), p.getY(i)));
                out.append(" head ").append(p.getHeadX()).append(',').append(p.getHeadY()).append(" tail ").append(p.getTailX()).append(',').append(p.getTailY()).append('\n');
            }
            int fr = 0, em = 0;
            for (int y = 0; y < a.getSize(); y++)
                for (int x = 0; x < a.getSize(); x++) {
                    if (a.isFreeBlock(x, y)) fr++;
                    if (a.isEmpty(x, y)) em++;
                }
            AreaInfo.Python me = a.getMyPython();
            out.append("free ").append(fr).append(" empty ").append(em).append(" edge ").append(a.getCell(-1, 0)).append(a.getCell(0, a.getSize())).append(a.getCell(me.getHeadX(), me.getHeadY())).append('\n');
        }
        System.out.print(out);
        System.out.flush();
    }
}
