// The transcript's call line, as the original draws it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { callLine } from "../index.ts";

const plain = (_token: string, text: string) => text;

test("the call line names each question's label, or Q<n> without one", () => {
  const args = { title: "Setup", questions: [{ id: "g", label: "Goal" }, { id: "t", label: " Tone " }, { id: "x" }] };
  assert.equal(callLine(args, plain), "ask_user 3 question(s) (Goal, Tone, Q3)");
});

test("long labels are cut to 50 columns and control characters never reach the terminal", () => {
  const args = { questions: [{ label: "a\u001b[31mb" }, { label: "x".repeat(80) }] };
  // pi-tui's truncation ends its cut with a reset (`\u001b[0m`); nothing else may escape.
  const line = callLine(args, plain).replaceAll("\u001b[0m", "");
  assert.ok(line.startsWith("ask_user 2 question(s) (a?[31mb, xxx"), line);
  assert.ok(line.length <= "ask_user 2 question(s) ()".length + 50, line);
  assert.ok(line.endsWith("...)"), line);
  assert.ok(!line.includes("\u001b"), line);
});

test("a call without questions has no parenthesis", () => {
  assert.equal(callLine({}, plain), "ask_user 0 question(s)");
});
