#!/bin/sh
# Copies a language's runtime into $1, keeping absolute paths, so that a run image holds the
# runtime and nothing else to execute. $2 is the program the bot runs under (an interpreter or
# a virtual machine); the other arguments are the directories and files it reads (its own
# libraries, its configuration). Every shared library that the program, or one among them,
# links comes too, with the symbolic links leading to each file.
set -eu
out=$1
prog=$(readlink -f "$(command -v "$2")")
shift 2
copy() { # copy real files (and the symlink chain leading to them) under $out
    for f in "$@"; do
        while [ -L "$f" ]; do
            mkdir -p "$out$(dirname "$f")"; cp -a "$f" "$out$f"
            t=$(readlink "$f"); case $t in /*) f=$t;; *) f=$(dirname "$f")/$t;; esac
        done
        r=$(readlink -f "$f"); mkdir -p "$out$(dirname "$r")"; cp -a "$r" "$out$r"
    done
}
mkdir -p "$out/usr/lib" "$out/usr/lib64" "$out/tmp" "$out/etc"
ln -s usr/lib "$out/lib"; ln -s usr/lib64 "$out/lib64"; ln -s usr/bin "$out/bin"
copy "$prog"
libs=""
for d in "$@"; do
    if [ ! -d "$d" ]; then
        copy "$d"
        libs="$libs $(readlink -f "$d")"
        continue
    fi
    cp -a --parents "$d" "$out"
    for l in $(find "$d" -type l); do
        t=$(readlink -f "$l") || continue
        case $t in "$d"/*) ;; *) [ -e "$t" ] && copy "$t" ;; esac
    done
    libs="$libs $(find "$d" -name '*.so*' -type f)"
done
for f in "$prog" $libs; do
    ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'
done | sort -u | while read -r lib; do copy "$lib"; done
echo 'nobody:x:65534:65534:nobody:/nonexistent:/nonexistent' > "$out/etc/passwd"
echo 'nogroup:x:65534:' > "$out/etc/group"
chmod 1777 "$out/tmp"
