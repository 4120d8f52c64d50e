package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/sandbox"
)

func (a *app) imagesCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "images", Short: "Build and list the pinned toolchain images"}
	var langs []string
	buildCmd := &cobra.Command{
		Use:   "build",
		Short: "Build the images that are missing or out of date (idempotent)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b, err := a.imageBuilder(cmd.Context())
			if err != nil {
				return err
			}
			list, err := b.Build(cmd.Context(), langs...)
			if err != nil {
				return err
			}
			built := 0
			for _, s := range list {
				if s.Built {
					built++
				}
			}
			fmt.Printf("%d images up to date, %d built\n", len(list)-built, built)
			return nil
		},
	}
	buildCmd.Flags().StringSliceVar(&langs, "lang", nil, "only the images of these languages (cpp, pascal, java, go)")
	var asJSON bool
	listCmd := &cobra.Command{
		Use:   "list",
		Short: "Show each language's images, their IDs and pinned toolchains",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b, err := a.imageBuilder(cmd.Context())
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
				rows = append(rows, row{l.Name, b.Catalog.Toolchain(l), c, ids[c], r, ids[r], l.Flags})
			}
			if asJSON {
				enc := json.NewEncoder(os.Stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "LANG\tTOOLCHAIN\tCOMPILE IMAGE\tID\tRUN IMAGE\tID\tFLAGS")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Lang, r.Toolchain, r.Compile, shortID(r.CompileID),
					r.Run, shortID(r.RunID), strings.Join(r.Flags, " "))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Println()
			return a.writeSecurity(os.Stdout)
		},
	}
	listCmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.AddCommand(buildCmd, listCmd)
	return cmd
}

func shortID(id string) string {
	if id == "" {
		return "(missing)"
	}
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 12 {
		id = id[:12]
	}
	return id
}

// writeSecurity prints the restrictions every bot and compilation runs under, with the values
// of the configuration in force (SECURITY.md says what each stops).
func (a *app) writeSecurity(w io.Writer) error {
	s, b := a.cfg.Sandbox, a.cfg.Build
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
		{"seccomp", onOff(s.Seccomp, "Docker's default; creating a process kills with SIGSYS; ptrace, process_vm_* refused", "Docker's default only (sandbox.seccomp is off)")},
		{"exec", "the launcher's filter: the exec that starts the bot is the last; no new process; 32-bit ABIs killed"},
		{"memory", s.Memory.String() + " (a game may set its own), no swap"},
		{"CPU", fmt.Sprintf("%g core(s) of quota; time per move from the cgroup; pinned to a core per worker: %v", s.CPUs, s.Pin)},
		{"processes and threads", fmt.Sprint(s.Pids)},
		{"open files", fmt.Sprint(s.NoFile)},
		{"file size", s.FileSize.String()},
		{"core dumps", "none"},
		{"stdout", fmt.Sprintf("%s in all, %s per line", s.StdoutLimit, s.LineLimit)},
		{"stderr kept", s.StderrLimit.String()},
		{"frozen between turns", s.Freeze + onOff(s.Runtime == sandbox.RuntimeGVisor && s.Freeze == string(sandbox.FreezeSignal), " (gVisor: the cgroup freezer)", "")},
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
