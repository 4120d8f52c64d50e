#!/bin/sh
# Copies the JRE that `java` resolves to, its configuration and every library it links into $1,
# keeping absolute paths, so the run image holds the JVM and nothing else to execute.
set -eu
out=$1
java=$(readlink -f "$(command -v java)")
home=$(dirname "$(dirname "$java")")
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
cp -a --parents "$home" "$out"
for l in $(find "$home" -type l); do
    t=$(readlink -f "$l") || continue
    case $t in "$home"/*) ;; *) [ -e "$t" ] && copy "$t" ;; esac
done
for f in "$java" $(find "$home" -name '*.so'); do
    ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'
done | sort -u | while read -r lib; do copy "$lib"; done
find "$out$home/bin" ! -type d ! -name java -delete
echo 'nobody:x:65534:65534:nobody:/nonexistent:/nonexistent' > "$out/etc/passwd"
echo 'nogroup:x:65534:' > "$out/etc/group"
chmod 1777 "$out/tmp"
