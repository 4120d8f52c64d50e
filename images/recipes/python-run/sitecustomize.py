# The judge's Python run image: stdout and stderr stay unbuffered (PYTHONUNBUFFERED=1), and
# a write of nothing is skipped. Under gVisor an empty write to a pipe fails with EINVAL,
# which would end a bot that calls print(x, end="") with an OSError.
import io
import sys


class _Pipe(io.FileIO):
    def write(self, b):
        if not len(b):
            return 0
        return super().write(b)


def _mend(stream):
    if stream is None:
        return stream
    return io.TextIOWrapper(
        _Pipe(stream.fileno(), "w", closefd=False),
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=stream.line_buffering,
        write_through=True,
    )


sys.stdout = _mend(sys.stdout)
sys.stderr = _mend(sys.stderr)
