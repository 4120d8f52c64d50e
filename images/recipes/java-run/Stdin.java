// The judge's Java agent, loaded before every Java bot's main (-javaagent:/judge/stdin.jar).
//
// Under gVisor the bot's stdin, a named pipe of the host, does not answer FIONREAD, so the
// JDK's FileInputStream.available() throws "Illegal seek", and BufferedReader.readLine
// calls it after every partial read. This System.in is the JDK's own (a BufferedInputStream
// over file descriptor 0) except that available() says "nothing buffered" instead of
// throwing, which is what a pipe with nothing waiting would say. Under runc it changes
// nothing.
import java.io.BufferedInputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;

public final class Stdin {
    public static void premain(String args) {
        System.setIn(new BufferedInputStream(new FileInputStream(FileDescriptor.in) {
            @Override
            public int available() throws IOException {
                try {
                    return super.available();
                } catch (IOException e) {
                    return 0;
                }
            }
        }));
    }
}
