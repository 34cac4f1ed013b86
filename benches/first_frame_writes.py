#!/usr/bin/env python3
"""How many write(2) calls the first frame of `pi-ask demo` takes, from the synchronized-update
begin mark (CSI ? 2026 h) through its end mark (CSI ? 2026 l), counted with strace in a
pseudo-terminal; and how many the whole start takes up to that end mark.

    python3 benches/first_frame_writes.py [BINARY ...]

Each binary (default: target/release/pi-ask) is started five times in a fresh HOME with an
environment built here (never the caller's PI_ASK_* or HOME); the medians are printed side by
side, so a before/after comparison is one run: pass the old build first.
"""

import fcntl
import os
import pty
import struct
import termios
import re
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BEGIN = "[?2026h"
END = "[?2026l"
# The first frame is out when its synchronized update ends.
SHOWS = b"\x1b[?2026l"


def one_run(binary):
    home = tempfile.mkdtemp(prefix="pi-ask-frame-")
    log = os.path.join(home, "strace.log")
    env = {
        "HOME": home,
        "PATH": "/usr/bin:/bin",
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
    }
    argv = ["strace", "-f", "-qq", "-e", "trace=write", "-s", "65536", "-o", log, binary, "demo"]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    seen = b""
    deadline = time.monotonic() + 20
    try:
        while SHOWS not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    break
        # The form asks the terminal things (its size, the keyboard protocol); a moment for the
        # answers to settle, then Ctrl+C cancels it.
        time.sleep(0.3)
        os.write(fd, b"\x03")
        end = time.monotonic() + 5
        while time.monotonic() < end:
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    os.read(fd, 65536)
                except OSError:
                    pass
        else:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
    finally:
        os.close(fd)
    with open(log, encoding="utf-8", errors="replace") as f:
        writes = [line for line in f if re.search(r"\bwrite\(", line)]
    shutil.rmtree(home, ignore_errors=True)
    if SHOWS not in seen:
        raise SystemExit(f"{binary}: the first frame never showed: {seen[-300:]!r}")
    first_begin = next(i for i, w in enumerate(writes) if BEGIN in w)
    first_end = next(i for i, w in enumerate(writes) if i >= first_begin and END in w)
    return first_end - first_begin + 1, first_end + 1


def main():
    binaries = sys.argv[1:] or ["target/release/pi-ask"]
    if shutil.which("strace") is None:
        raise SystemExit("strace is not installed (apt-get install strace)")
    print(f"{'binary':60} {'frame writes':>13} {'writes to frame end':>20}")
    for binary in binaries:
        runs = [one_run(os.path.abspath(binary)) for _ in range(5)]
        frame = statistics.median(r[0] for r in runs)
        total = statistics.median(r[1] for r in runs)
        print(f"{binary:60} {frame:>13} {total:>20}")


if __name__ == "__main__":
    main()
