#!/bin/sh
# Reads the submission as a tar on stdin, compiles it, writes the artifact (bot.jar, whose
# Main-Class is the one class with a main method) as a tar on stdout.
# Arguments: the javac flags. The log goes to stderr.
set -eu
exec 3>&1 1>&2
mkdir -p /work/src /work/out /tmp/classes && cd /work/src && tar -x --no-same-owner --no-same-permissions -f -
set -- "$@" -d /tmp/classes
# One file name a line (names hold no control characters), and nothing in a name globbed.
set -f
IFS='
'
for f in $(find . -type f -name '*.java' | sort); do set -- "$@" "$f"; done
set +f; unset IFS
javac -J-XX:-UsePerfData "$@"
mains=""
for c in $(cd /tmp/classes && find . -name '*.class' ! -name '*$*' | sed 's|^\./||; s|\.class$||; s|/|.|g' | sort); do
    if javap -J-XX:-UsePerfData -cp /tmp/classes -public "$c" | grep -q 'public static void main(java.lang.String\[\])'; then
        mains="$mains $c"
    fi
done
set -- $mains
if [ $# -ne 1 ]; then
    echo "error: need exactly one class with 'public static void main(String[])', found $#:$mains"
    exit 1
fi
# A fixed date makes the jar the same for the same classes, so that `judge rebuild` tells a
# changed program from a rebuilt one.
jar -J-XX:-UsePerfData --create --date=2000-01-01T00:00:02Z --file /work/out/bot.jar --main-class "$1" -C /tmp/classes .
tar -c -C /work/out --owner=0 --group=0 . >&3
