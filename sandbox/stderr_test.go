package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The stderr pipe of a container used again: the last bot left bytes in it and is gone. The
// next bot's stderr is drained however much it writes, and holds none of the last bot's;
// the pipe reads as ended once the next bot's end is closed.
func TestHeldErrPipe(t *testing.T) {
	for _, tc := range []struct {
		name    string
		release bool // at once, as a container used again had before
		drain   bool // the next bot's flood is drained
	}{
		{"held", false, true},
		{"not held", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "err")
			if err := unix.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
			// The last bot: writes, and is gone, its bytes unread (its reader closed first).
			r, err := os.OpenFile(path, os.O_RDONLY|unix.O_NONBLOCK, 0)
			if err != nil {
				t.Fatal(err)
			}
			last, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			last.Write([]byte("the last bot's\n"))
			last.Close()
			buf := &Capped{limit: 1 << 20}
			e, err := openErrPipe(path, buf)
			r.Close()
			if err != nil {
				t.Fatal(err)
			}
			if tc.release {
				e.release()
			}
			defer e.close()
			time.Sleep(50 * time.Millisecond) // the drain wakes for the leftovers
			// The next bot floods 4 MiB, far past the pipe's capacity.
			next, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			e.release() // no-op when released already
			flooded := make(chan error, 1)
			go func() {
				_, err := next.Write(bytes.Repeat([]byte("x"), 4<<20))
				flooded <- err
			}()
			// A drain takes 4 MiB in milliseconds: a second shows the block where none drains.
			wait := 5 * time.Second
			if !tc.drain {
				wait = time.Second
			}
			select {
			case err := <-flooded:
				if !tc.drain {
					t.Fatalf("the flood was drained (%v): the test shows nothing", err)
				}
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(wait):
				next.Close() // unblocks nothing: the writer is stuck until the reader goes
				if tc.drain {
					t.Fatal("the next bot blocked on its stderr: nobody drained it")
				}
				e.close()
				<-flooded
				return
			}
			next.Close()
			select {
			case <-e.done:
			case <-time.After(5 * time.Second):
				t.Fatal("the pipe did not read as ended once the next bot closed its end")
			}
			// The buffer's first MiB, then its note of the bytes dropped.
			if got := e.take(); bytes.Contains(got, []byte("last bot")) || !bytes.HasPrefix(got, bytes.Repeat([]byte("x"), 1<<20)) {
				t.Errorf("took %d bytes, the last bot's among them: %v", len(got), bytes.Contains(got, []byte("last bot")))
			}
		})
	}
}

// A fresh pipe that a writer opens and closes before the launcher opens its end (a runtime
// looking at the file) does not read as ended: what the bot writes after is kept. Without the
// judge's own write end held until then, the drain took that close for the bot's end and
// stopped, and a match's stderr was lost whole (seen under gVisor in CI).
func TestErrPipeOutlivesAWriterBeforeTheBot(t *testing.T) {
	for _, tc := range []struct {
		name    string
		release bool // at once: nothing held
		kept    bool
	}{
		{"held", false, true},
		{"not held", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "err")
			if err := unix.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
			e, err := openErrPipe(path, &Capped{limit: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			defer e.close()
			if tc.release {
				e.release()
			}
			look, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			look.Close()
			// The drain sees the look's close at once, or never: give it the time to.
			select {
			case <-e.done:
			case <-time.After(200 * time.Millisecond):
			}
			bot, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			e.release() // the launcher has opened its end
			bot.Write([]byte("starting\n"))
			got := string(e.take())
			bot.Close()
			if kept := got == "starting\n"; kept != tc.kept {
				t.Errorf("took %q; want it kept: %v", got, tc.kept)
			}
		})
	}
}
