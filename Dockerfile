# The judge daemon's own image. No registry is needed: it starts from the judge's Debian base
# image, which `judge images build` makes. `make daemon-image` builds the binary and runs
#
#   docker build --build-arg BASE=judge/base:<tag> -t judge:latest .
#
# The binary is built on the host (CGO_ENABLED=0) and copied in. Run it with the host's engine
# socket, cgroups and PID namespace (the sandbox reads and freezes bots' cgroups), and the
# data directory at the same path inside and out (bot artifacts are bind-mounted from it):
#
#   docker run -d --pid=host -v /var/run/docker.sock:/var/run/docker.sock \
#     -v /sys/fs/cgroup:/sys/fs/cgroup -v /var/lib/judge:/var/lib/judge \
#     -v /run/judge:/run/judge -e JUDGE_DATA_DIR=/var/lib/judge judge serve
#
# Without --pid=host it cannot see its bots' processes, and refuses to judge (TestDaemonImage).
ARG BASE
FROM ${BASE}
COPY bin/judge /usr/local/bin/judge
ENTRYPOINT ["/usr/local/bin/judge"]
