#!/usr/bin/env bash
# Installs gVisor's runsc for the judge and registers it with the local Docker engine as the
# runtime "runsc", so that `sandbox.runtime: runsc` (or JUDGE_SANDBOX_RUNTIME=runsc) runs
# every bot and compilation under gVisor's kernel instead of the host's.
#
# runsc comes from Debian's package, pinned by version and SHA-256 (bookworm's build, from
# 2022, fails the red-team suite; this is trixie's, a static binary). The engine's
# daemon.json gains (or has replaced) one entry under "runtimes" and dockerd is sent SIGHUP,
# which reloads runtimes without touching running containers. Needs root. Idempotent.
#
# The runtime arguments are part of the sandbox's security, so they live here, not in the
# judge's configuration:
#   --network=none      no network stack in the sandbox at all (the container has none either)
#   --host-fifo=open    lets the bot open the named pipes the judge talks to it through
#   --oci-seccomp       applies the container's seccomp profile inside gVisor; without it the
#                       judge's profile (processes banned) would be ignored
#   --overlay2=none     the container's read-only root stays read-only (the default overlay
#                       would give the bot a writable root backed by memory)
set -euo pipefail

VERSION="0.0~20240729.0-4+b7"
URL="http://deb.debian.org/debian/pool/main/g/golang-gvisor-gvisor/runsc_${VERSION}_amd64.deb"
SHA256="3c25a5130dfac2f71237d5baad56ac86a255de87a0400f11b36a555156dc325a"
DEST="${RUNSC_DEST:-/usr/local/lib/judge/runsc}"
DAEMON_JSON="${DOCKER_DAEMON_JSON:-/etc/docker/daemon.json}"
ARGS='["--network=none", "--host-fifo=open", "--oci-seccomp", "--overlay2=none"]'

if [[ $(id -u) != 0 ]]; then
    echo "gvisor: must run as root (it installs $DEST and edits $DAEMON_JSON)" >&2
    exit 1
fi
command -v jq >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq)
for tool in curl sha256sum dpkg-deb jq; do
    command -v "$tool" >/dev/null || { echo "gvisor: $tool is required" >&2; exit 1; }
done

installed=$("$DEST" --version 2>/dev/null || true)
if [[ $installed != *"version ${VERSION%%-*}"* ]]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    echo "gvisor: fetching runsc $VERSION"
    if ! curl -fsS --retry 3 -o "$tmp/runsc.deb" "$URL"; then
        echo "gvisor: cannot fetch $URL (has the mirror moved past $VERSION? update the pin in $0)" >&2
        exit 1
    fi
    if ! echo "$SHA256  $tmp/runsc.deb" | sha256sum -c --quiet; then
        echo "gvisor: $URL does not match its pinned SHA-256" >&2
        exit 1
    fi
    dpkg-deb -x "$tmp/runsc.deb" "$tmp/x"
    install -D -m 0755 "$tmp/x/usr/bin/runsc" "$DEST"
fi
"$DEST" --version | sed -n 1p

mkdir -p "$(dirname "$DAEMON_JSON")"
[[ -s $DAEMON_JSON ]] || echo '{}' >"$DAEMON_JSON"
want=$(jq --arg path "$DEST" --argjson args "$ARGS" '.runtimes.runsc = {path: $path, runtimeArgs: $args}' "$DAEMON_JSON")
if [[ $want != "$(jq . "$DAEMON_JSON")" ]]; then
    cp "$DAEMON_JSON" "$DAEMON_JSON.judge-backup"
    printf '%s\n' "$want" >"$DAEMON_JSON"
    echo "gvisor: registered runtime runsc in $DAEMON_JSON (previous file: $DAEMON_JSON.judge-backup)"
fi

# Reload the engine's configuration; wait until it reports the runtime.
pkill -HUP -x dockerd || { echo "gvisor: no dockerd process to reload; restart the engine" >&2; exit 1; }
for _ in $(seq 50); do
    if docker info --format '{{json .Runtimes}}' 2>/dev/null | jq -e --arg path "$DEST" '.runsc.path == $path' >/dev/null; then
        echo "gvisor: the engine has runtime runsc"
        exit 0
    fi
    sleep 0.2
done
echo "gvisor: the engine did not pick up runtime runsc from $DAEMON_JSON" >&2
exit 1
