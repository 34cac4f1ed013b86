// What pi hands the component, joined into whole characters before it goes to the engine.
import assert from "node:assert/strict";
import { test } from "node:test";

import { wholeCharacters } from "../index.ts";

test("an emoji handed over as two UTF-16 halves arrives as one character", () => {
  const whole = wholeCharacters();
  const rocket = "🚀";
  assert.equal(whole(rocket[0]), "");
  assert.equal(whole(rocket[1]), rocket);
  assert.equal(JSON.stringify(whole("a") + whole(rocket)), JSON.stringify(`a${rocket}`));
});

test("a high half at the end of a longer input waits for its low half", () => {
  const whole = wholeCharacters();
  const family = "👩\u200d👧";
  assert.equal(whole(family.slice(0, 4)), "👩\u200d");
  assert.equal(whole(family.slice(4)), "👧");
});

test("text with no halves passes unchanged, and a stray half is dropped", () => {
  const whole = wholeCharacters();
  for (const text of ["ok go", "漢字", "e\u0301", "\u001b[B", "\r"]) assert.equal(whole(text), text);
  assert.equal(whole("\udc80x"), "x");
  assert.equal(whole("\ud83dx"), "x");
});
