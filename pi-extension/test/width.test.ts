// Frames inside pi: pi's TUI stops when a component's line is wider than the terminal, measured
// by pi-tui's own visibleWidth, which counts some emoji and East Asian characters differently
// from the engine's unicode-width. The adapter truncates every line with pi-tui's truncateToWidth;
// this drives the real engine at every width with such text and checks each line as pi measures it.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { test } from "node:test";

import { CURSOR_MARKER, visibleWidth } from "@earendil-works/pi-tui";

import { frameLines } from "../index.ts";

const bin = process.env.PI_ASK_BIN ?? "pi-ask";

const payload = {
  title: "日本語のタイトル 👩‍👩‍👧 ❤️ ☺️ ✈️",
  questions: [
    {
      id: "a",
      type: "preview",
      prompt: "絵文字 🇯🇵 と 漢字 ✔️ を選ぶ — 👨‍👩‍👧‍👦 family, 🏳️‍🌈 flag, ⌚ watch, ☕ tea",
      options: [
        { value: "x", label: "中文选项 👍🏽 ☝️", description: "說明 ⚠️ text ♥️", preview: "预览 👨‍💻 line\nsecond 行 🧑🏾‍🚀" },
        { value: "y", label: "한국어 옵션 ↔️", preview: "미리보기 ⭐️ 🅰️" },
      ],
    },
  ],
};

/** Every frame the engine draws while the width goes from 1 to 140 columns. */
async function frames(): Promise<{ width: number; lines: string[] }[]> {
  const child = spawn(bin, ["embed"], { stdio: ["pipe", "pipe", "inherit"] });
  const out: { width: number; lines: string[] }[] = [];
  const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const m = JSON.parse(line);
    if (m.type === "hello") {
      send({ type: "open", flow: "ask", payload, width: 1, height: 40, cursorMarker: CURSOR_MARKER, config: `${process.env.TMPDIR ?? "/tmp"}/pi-ask-width-${process.pid}.toml` });
      for (let width = 1; width <= 140; width++) {
        send({ type: "resize", width, height: 40 });
        // Open the editor now and then, so lines with the cursor marker are measured too.
        if (width === 70) send({ type: "input", data: "\u001b[B\u001b[B👩‍👩‍👧 中文" });
      }
      send({ type: "abort" });
    } else if (m.type === "frame") out.push({ width: m.width, lines: m.lines });
    else if (m.type === "result") break;
  }
  child.stdin.end();
  return out;
}

test("every line fits pi's width at every width, with CJK, emoji presentation selectors and ZWJ sequences", async () => {
  const drawn = await frames();
  assert.ok(drawn.length >= 130, `a frame per width (${drawn.length})`);
  let trimmed = 0;
  for (const frame of drawn) {
    for (const focused of [true, false]) {
      const shown = frameLines(frame.lines, frame.width, focused);
      shown.forEach((line, i) => {
        assert.ok(visibleWidth(line) <= frame.width, `${visibleWidth(line)} > ${frame.width}: ${JSON.stringify(line)}`);
        if (visibleWidth(frame.lines[i]) > frame.width) trimmed++;
        if (!focused) assert.ok(!line.includes(CURSOR_MARKER), "no cursor marker without focus");
      });
    }
  }
  // Narrow frames say the terminal is too small; wide ones show the question.
  assert.ok(drawn.some((f) => f.lines.some((l) => l.includes("漢字"))));
  console.log(`lines pi measures wider than the engine: ${trimmed}`);
});

test("a line that fits is never cut", () => {
  const line = "\u001b[0;1mReview answers\u001b[0m";
  const shown = frameLines([line], 14, true)[0];
  assert.equal(shown.replace(/\u001b\[[0-9;]*m/g, ""), "Review answers");
  assert.equal(frameLines([line], 10, true)[0].replace(/\u001b\[[0-9;]*m/g, ""), "Review ans");
});
