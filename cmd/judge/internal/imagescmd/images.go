// Package imagescmd is judge images: the toolchain images built from Debian's packages and
// the module proxy, checked against the mirror, listed, exported, imported and published.
package imagescmd

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/cores"
)

// Cmd is judge images.
func Cmd(a *base.App) *cobra.Command {
	cmd := &cobra.Command{Use: "images", Short: "Build and list the pinned toolchain images"}
	cmd.AddCommand(imagesBuildCmd(a), imagesCheckCmd(a), imagesListCmd(a), imagesExportCmd(a), imagesImportCmd(a), publishCmd(a))
	return cmd
}

func imagesBuildCmd(a *base.App) *cobra.Command {
	var langs []string
	var strict, updateLock bool
	cmd := &cobra.Command{
		Use:   "build",
		Short: "Build the images that are missing or out of date (idempotent), following the mirror",
		Long: "Build the images that are missing or out of date. A pinned package the Debian mirror no\n" +
			"longer serves is replaced by the newest version of its line the mirror serves, and said so\n" +
			"(--strict: an error instead, also for an image built so earlier). The image keeps the tag of\n" +
			"its pins and names what it holds in its labels and toolchain; the lock as resolved is recorded\n" +
			"in the data directory, and --update-lock writes it over the lock file, to commit.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cli.CheckLangs("--lang", langs...); err != nil {
				return err
			}
			lockOut := ""
			if updateLock {
				var err error
				if lockOut, err = lockToWrite(a); err != nil {
					return err
				}
			}
			b, err := a.ImageBuilder(cmd.Context())
			if err != nil {
				return err
			}
			strict := strict || a.Cfg.Images.Strict
			list, err := b.List(cmd.Context(), langs...)
			if err != nil {
				return err
			}
			missing := false
			for _, s := range list {
				missing = missing || s.ID == ""
			}
			if missing || updateLock || strict {
				if err := resolve(a, cmd, b, strict, lockOut); err != nil {
					return err
				}
			}
			if strict {
				// An image built earlier with what stood in for a pin is a change too.
				followed, err := b.Followed(cmd.Context(), langs...)
				if err != nil {
					return err
				}
				if len(followed) > 0 {
					return pinError("strict: these images hold what stood in for pins the mirror no longer served (pinned -> installed; remove them, update the lock, and build again)", followed)
				}
			}
			list, err = b.Build(cmd.Context(), langs...)
			if err != nil {
				return err
			}
			built := 0
			for _, s := range list {
				if s.Built {
					built++
				}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%d images up to date, %d built\n", len(list)-built, built)
			if lockOut != "" {
				return nil // the lock now pins what the images hold
			}
			// Built now or earlier, images that followed the mirror make the lock stale: said on
			// every build, not only on the one that followed it.
			followed, err := b.Followed(cmd.Context(), langs...)
			if err != nil {
				return err
			}
			if len(followed) > 0 {
				pins := "pins it no longer serves"
				if len(followed) == 1 {
					pins = "pin it no longer serves"
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "WARNING: the images follow the mirror, not the lock, for %d %s (pinned -> installed; --update-lock writes them to the lock file):\n%s\n",
					len(followed), pins, pinLines(followed))
			}
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&langs, "lang", nil, "only the images of these languages ("+strings.Join(images.LangNames(), ", ")+")")
	cmd.Flags().BoolVar(&strict, "strict", false, "fail when a pin is no longer served, instead of following its line (images.strict)")
	cmd.Flags().BoolVar(&updateLock, "update-lock", false, "write the lock as resolved over the lock file (images.lock, else ./images/lock.json)")
	return cmd
}

func imagesCheckCmd(a *base.App) *cobra.Command {
	var strict, asJSON bool
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Tell, without building, whether the mirror still serves every pinned package",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return check(a, cmd, strict || a.Cfg.Images.Strict, asJSON)
		},
	}
	cmd.Flags().BoolVar(&strict, "strict", false, "exit 1 when a pin is no longer served (images.strict)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

func imagesListCmd(a *base.App) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Show each language's images, their IDs and pinned toolchains",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b, err := a.ImageBuilder(cmd.Context())
			if err != nil {
				return err
			}
			type row struct {
				Lang      string   `json:"lang"`
				Toolchain string   `json:"toolchain"`
				Compile   string   `json:"compile_image"`
				CompileID string   `json:"compile_id"`
				Run       string   `json:"run_image"`
				RunID     string   `json:"run_id"`
				Flags     []string `json:"flags"`
			}
			var rows []row
			for _, l := range images.Langs() {
				st, err := b.List(cmd.Context(), l.Name)
				if err != nil {
					return err
				}
				ids := map[string]string{}
				for _, s := range st {
					ids[s.Ref] = s.ID
				}
				c, r := b.Catalog.Compile(l).Ref(b.Prefix), b.Catalog.Run(l).Ref(b.Prefix)
				// The toolchain as the image says it was installed; the lock's when it is missing.
				tc := b.Catalog.Toolchain(l) + " (pinned; image missing)"
				if ids[c] != "" {
					if tc = b.Toolchain(cmd.Context(), c); tc == "" {
						tc = b.Catalog.Toolchain(l) + " (pinned)"
					}
				}
				rows = append(rows, row{l.Name, tc, c, ids[c], r, ids[r], l.Flags})
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "LANG\tTOOLCHAIN\tCOMPILE IMAGE\tID\tRUN IMAGE\tID\tFLAGS")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Lang, r.Toolchain, r.Compile, cli.ShortID(r.CompileID),
					r.Run, cli.ShortID(r.RunID), strings.Join(r.Flags, " "))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout())
			_, lockData, _ := images.ReadLock(a.Cfg.Images.Lock)
			if r := images.LoadResolution(a.ResolutionFile(), lockData); r != nil {
				fmt.Fprintf(cmd.OutOrStdout(), "Pins checked against the mirror by the last build, on %s (%d not served; what stood in is in each image's label %s; `judge images build --update-lock` writes it to the lock file):\n",
					r.Resolved.Format(time.RFC3339), len(r.Changes), images.LabelPackages)
				for _, c := range r.Changes {
					fmt.Fprintln(cmd.OutOrStdout(), "  "+c.String())
				}
				fmt.Fprintln(cmd.OutOrStdout())
			}
			if f := b.BasePackagesFile(b.Catalog.Base.Ref(b.Prefix)); fileExists(f) {
				fmt.Fprintf(cmd.OutOrStdout(), "The base image's Debian packages (not pinned: the suite's at its build): %s\n\n", f)
			}
			return writeSecurity(a, cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func imagesExportCmd(a *base.App) *cobra.Command {
	var langs []string
	cmd := &cobra.Command{
		Use:   "export FILE",
		Short: "Write the exact images (all, or --lang's) to FILE, for judge images import on another machine",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cli.CheckLangs("--lang", langs...); err != nil {
				return err
			}
			if err := cli.CheckOutputFile("", args[0]); err != nil {
				return err
			}
			b, err := a.ImageBuilder(cmd.Context())
			if err != nil {
				return err
			}
			start := time.Now()
			f, err := os.CreateTemp(filepath.Dir(args[0]), "."+filepath.Base(args[0])+".*")
			if err != nil {
				return err
			}
			defer os.Remove(f.Name())
			defer f.Close()
			m, err := b.Export(cmd.Context(), f, filepath.Dir(f.Name()), langs...)
			if err != nil {
				return err
			}
			if err := f.Chmod(0o644); err != nil {
				return err
			}
			if err := f.Close(); err != nil {
				return err
			}
			if err := os.Rename(f.Name(), args[0]); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "exported %d images to %s in %.1f s (images.tar SHA-256 %s)\n", len(m.Images), args[0], time.Since(start).Seconds(), m.SHA256)
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&langs, "lang", nil, "only the images of these languages")
	return cmd
}

func imagesImportCmd(a *base.App) *cobra.Command {
	return &cobra.Command{
		Use:   "import FILE",
		Short: "Load the images of an archive from judge images export, checking their digest and IDs",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := os.Open(args[0])
			if errors.Is(err, fs.ErrNotExist) {
				return cli.Usage(fmt.Errorf("%s: no such file", args[0]))
			}
			if err != nil {
				return cli.Usage(err)
			}
			defer f.Close()
			if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
				return cli.Usage(fmt.Errorf("%s: not an archive file (judge images export writes one)", args[0]))
			}
			b, err := a.ImageBuilder(cmd.Context())
			if err != nil {
				return err
			}
			start := time.Now()
			if err := os.MkdirAll(a.Cfg.DataDir, 0o755); err != nil {
				return err
			}
			m, err := b.Import(cmd.Context(), f, a.Cfg.DataDir)
			if err != nil {
				return err
			}
			for _, img := range m.Images {
				fmt.Fprintf(cmd.OutOrStdout(), "%s  %s\n", cli.ShortID(img.ID), img.Ref)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "imported %d images from %s in %.1f s, every ID as exported\n", len(m.Images), args[0], time.Since(start).Seconds())
			// The archive may come from a judge with another lock: say what this one still lacks.
			list, err := b.List(cmd.Context())
			if err != nil {
				return err
			}
			for _, st := range list {
				if st.ID == "" {
					fmt.Fprintf(cmd.ErrOrStderr(), "WARNING: this judge's lock names %s, which the archive did not hold\n", st.Ref)
				}
			}
			return nil
		},
	}
}

// resolve checks the lock file's pins against the mirror and makes the builder's catalog the
// lock as resolved: unchanged pins stay, a pin no longer served follows its line, loudly (an
// error when strict). The resolution is saved in the data directory, and over the lock file
// with updateLock.
func resolve(a *base.App, cmd *cobra.Command, b *images.Builder, strict bool, lockOut string) error {
	lock, data, err := images.ReadLock(a.Cfg.Images.Lock)
	if err != nil {
		return err
	}
	start := time.Now()
	ix, err := images.FetchFor(cmd.Context(), b.Sources, lock)
	if err != nil {
		return fmt.Errorf("images: asking the mirror what it serves: %w", err)
	}
	resolved, changes := images.Resolve(lock, ix)
	a.Log.Info("checked the pins against the mirror", "packages", len(ix), "changes", len(changes), "seconds", time.Since(start).Seconds())
	if bad := images.Unresolvable(changes); len(bad) > 0 {
		return pinError("the mirror serves no version of these pins' lines", bad)
	}
	if strict && len(changes) > 0 {
		return pinError("strict: these pinned packages are no longer served (pinned -> served)", changes)
	}
	for _, c := range changes {
		fmt.Fprintln(cmd.ErrOrStderr(), "WARNING:", c)
	}
	b.Changes = changes
	if err := images.NewResolution(data, resolved, changes).Save(a.ResolutionFile()); err != nil {
		return err
	}
	if lockOut != "" {
		if err := images.WriteLock(lockOut, resolved); err != nil {
			return err
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "wrote the resolved lock to %s (%d changes)\n", lockOut, len(changes))
	}
	return nil
}

// lockToWrite is the lock file --update-lock writes: images.lock, else the source tree's.
func lockToWrite(a *base.App) (string, error) {
	if file := a.Cfg.Images.Lock; file != "" {
		return file, nil
	}
	if _, err := os.Stat("images/lock.json"); err != nil {
		return "", cli.Usage(errors.New("--update-lock: no lock file to write: set images.lock (JUDGE_IMAGES_LOCK) to it, or run from the judge's source tree"))
	}
	return "images/lock.json", nil
}

func pinError(what string, changes []images.Change) error {
	return fmt.Errorf("images: %s:\n%s", what, pinLines(changes))
}

// pinLines lists changed pins, one "  lang: package pinned -> served" a line.
func pinLines(changes []images.Change) string {
	var lines []string
	for _, c := range changes {
		served := c.Served
		if served == "" {
			served = "(none in line " + c.Line + ")"
		}
		lines = append(lines, fmt.Sprintf("  %s: %s %s -> %s", c.Lang, c.Package, c.Pinned, served))
	}
	return strings.Join(lines, "\n")
}

// check reports, per pinned package, whether the mirror still serves it: in seconds, without
// building. It warns; strict, it fails on any pin no longer served.
func check(a *base.App, cmd *cobra.Command, strict, asJSON bool) error {
	lock, _, err := images.ReadLock(a.Cfg.Images.Lock)
	if err != nil {
		return err
	}
	sources := a.Cfg.Images.Sources
	start := time.Now()
	ix, err := images.FetchFor(cmd.Context(), sources, lock)
	if err != nil {
		return fmt.Errorf("images: asking the mirror what it serves: %w", err)
	}
	took := time.Since(start)
	_, changes := images.Resolve(lock, ix)
	type row struct {
		Lang    string `json:"lang"`
		Package string `json:"package"`
		Pinned  string `json:"pinned"`
		Served  bool   `json:"served"`
		Newest  string `json:"newest_in_line"`
	}
	var rows []row
	for _, l := range images.Langs() {
		ll := lock.Languages[l.Name]
		for _, pins := range []map[string]string{ll.CompilePackages, ll.RunPackages} {
			names := make([]string, 0, len(pins))
			for p := range pins {
				names = append(names, p)
			}
			sort.Strings(names)
			for _, p := range names {
				newest, _ := ix.Newest(p, ll.Line(p, pins[p]))
				rows = append(rows, row{l.Name, p, pins[p], ix.Serves(p, pins[p]), newest})
			}
		}
	}
	if asJSON {
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"lock": orBuiltIn(a.Cfg.Images.Lock), "seconds": took.Seconds(), "pins": rows, "changes": changes}); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(cmd.OutOrStdout(), "lock %s against %s and %s (%d packages, %.1f s)\n", orBuiltIn(a.Cfg.Images.Lock),
			sources.DebianMirror, sources.SecurityMirror, len(ix), took.Seconds())
		tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "LANG\tPACKAGE\tPINNED\tSTATUS")
		for _, r := range rows {
			status := "served"
			switch {
			case !r.Served && r.Newest != "":
				status = "NO LONGER SERVED: the build will use " + r.Newest
			case !r.Served:
				status = "NO LONGER SERVED, and nothing of its line is: the build will fail"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Lang, r.Package, r.Pinned, status)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if !asJSON {
		checkBase(a, cmd.OutOrStdout(), ix)
	}
	switch {
	case len(images.Unresolvable(changes)) > 0:
		return pinError("the mirror serves no version of these pins' lines", images.Unresolvable(changes))
	case strict && len(changes) > 0:
		return pinError("strict: these pinned packages are no longer served (pinned -> served)", changes)
	case len(changes) > 0:
		fmt.Fprintf(cmd.ErrOrStderr(), "WARNING: %d pinned packages are no longer served; `judge images build` follows their lines (--update-lock to record it)\n", len(changes))
	}
	return nil
}

// checkBase reports the base image's packages (recorded when it was built) that the mirror no
// longer serves at the installed version: the base follows its suite rather than pins, so they
// are a warning that the next fresh machine's base will differ, not an error.
func checkBase(a *base.App, w io.Writer, ix images.Index) {
	cat, err := images.Load(a.Cfg.Images.Lock)
	if err != nil {
		return
	}
	b := images.Builder{StateDir: filepath.Join(a.Cfg.DataDir, "images")}
	data, err := os.ReadFile(b.BasePackagesFile(cat.Base.Ref(a.Cfg.Images.Prefix)))
	if err != nil {
		fmt.Fprintln(w, "base: no record of its packages here (it is made when the base image is built)")
		return
	}
	var moved []string
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		pkg, version, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		n++
		if !ix.Serves(pkg, version) {
			newest, _ := ix.Newest(pkg, "")
			moved = append(moved, fmt.Sprintf("%s %s (served: %s)", pkg, version, cmp.Or(newest, "none")))
		}
	}
	fmt.Fprintf(w, "base: %d packages installed by debootstrap; %d no longer served at that version\n", n, len(moved))
	for _, m := range moved {
		fmt.Fprintln(w, "  "+m)
	}
}

func fileExists(f string) bool {
	_, err := os.Stat(f)
	return err == nil
}

func orBuiltIn(lockFile string) string {
	if lockFile == "" {
		return "(built in)"
	}
	return lockFile
}

// writeSecurity prints the restrictions every bot and compilation runs under, with the values
// of the configuration in force (SECURITY.md says what each stops).
func writeSecurity(a *base.App, w io.Writer) error {
	s, b := a.Cfg.Sandbox, a.Cfg.Build
	onOff := func(on bool, yes, no string) string {
		if on {
			return yes
		}
		return no
	}
	tmp := "none (an empty read-only mount)"
	if s.Tmpfs > 0 {
		tmp = s.Tmpfs.String() + " (noexec)"
	}
	rows := [][2]string{
		{"runtime", s.Runtime + onOff(s.Runtime == sandbox.RuntimeGVisor, " (gVisor: its own kernel for every bot and compiler)", "")},
		{"network", onOff(s.Network, "BRIDGE (sandbox.network is on)", "none (loopback only)")},
		{"root file system", "read-only; artifact read-only at /bot; input files read-only in /work"},
		{"writable /tmp", tmp},
		{"/dev/shm, IPC", "empty and read-only; IPC mode none"},
		{"user, capabilities", "65534 (nobody), all capabilities dropped, no-new-privileges"},
		{"seccomp", onOff(s.Seccomp == sandbox.SeccompJudge, "Docker's default; creating a process kills with SIGSYS; ptrace, process_vm_* refused", "Docker's default only (sandbox.seccomp is off)")},
		{"exec", "the launcher's filter: the exec that starts the bot is the last; no new process; 32-bit ABIs killed"},
		{"memory", s.Memory.String() + " (a game may set its own), no swap"},
		{"CPU", fmt.Sprintf("%g core(s) of quota; time per move from the cgroup; %s", s.CPUs, pinning(s.Pin))},
		{"processes and threads", fmt.Sprint(s.Pids)},
		{"open files", fmt.Sprint(s.NoFile)},
		{"file size", s.FileSize.String()},
		{"core dumps", "none"},
		{"stdout", fmt.Sprintf("%s in all, %s per line", s.Stdout, s.Line)},
		{"stderr kept", s.Stderr.String() + " per bot, " + s.StderrMatch.String() + " per match (by move, in the replay)"},
		{"started ahead", fmt.Sprintf("%d container(s) per worker and kind of bot, by judge serve", s.Warm)},
		{"used again", onOff(s.Reuse > 0 && s.Runtime != sandbox.RuntimeGVisor,
			fmt.Sprintf("up to %d container(s) per worker, each by the one bot it served, reset in between", s.Reuse), "no: a container per bot per match")},
		{"frozen between turns", string(s.Freeze) + onOff(s.Runtime == sandbox.RuntimeGVisor && s.Freeze == sandbox.FreezeSignal, " (gVisor: the cgroup freezer)", "")},
		{"compilation", fmt.Sprintf("no network, %s, %g core(s), %d tasks, %v wall, log %s, artifact %s, source %s",
			b.Memory, b.CPUs, b.Pids, b.Timeout, b.LogLimit, b.ArtifactLimit, b.SourceLimit)},
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "BOT SANDBOX\tSETTING")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\n", r[0], r[1])
	}
	return tw.Flush()
}

// pinning says where judge serve's workers put their bots on this machine.
func pinning(pin bool) string {
	usable, err := (cores.Host{}).Usable()
	if err != nil {
		return "cores: " + err.Error()
	}
	var sets []string
	for _, c := range usable {
		sets = append(sets, c.Set())
	}
	if !pin {
		return fmt.Sprintf("not pinned (cores the judge may use: %s)", strings.Join(sets, " "))
	}
	return fmt.Sprintf("each worker's bots pinned to a core of their own, of %s (those no other judge here holds)", strings.Join(sets, " "))
}
