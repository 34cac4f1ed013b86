// Where the adapter finds the engine: an explicit choice, this platform's engine package, PATH.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

import { enginePackage, locateEngine, platformKey } from "../engine.ts";

/** A folder holding an installed engine package for `platform`, and a resolver that finds it. */
function installed(platform: string, withBinary = true) {
  const root = mkdtempSync(join(tmpdir(), "pi-ask-engine-"));
  const dir = join(root, "node_modules", enginePackage(platform));
  mkdirSync(join(dir, "bin"), { recursive: true });
  writeFileSync(join(dir, "package.json"), "{}");
  if (withBinary) writeFileSync(join(dir, "bin", "pi-ask"), "");
  const resolve = (id: string) => {
    if (id === `${enginePackage(platform)}/package.json`) return join(dir, "package.json");
    throw new Error(`Cannot find module '${id}'`);
  };
  return { bin: join(dir, "bin", "pi-ask"), resolve };
}

const nothing = (id: string): string => {
  throw new Error(`Cannot find module '${id}'`);
};

test("the platform key names libc on Linux only", () => {
  assert.equal(platformKey("linux", "x64", true), "linux-x64-gnu");
  assert.equal(platformKey("linux", "arm64", false), "linux-arm64-musl");
  assert.equal(platformKey("darwin", "arm64", true), "darwin-arm64");
});

test("the flag, then PI_ASK_BIN, win over the installed engine package", () => {
  const { resolve } = installed("linux-x64-gnu");
  assert.deepEqual(
    [locateEngine("/opt/a", { PI_ASK_BIN: "/opt/b" }, "linux-x64-gnu", resolve).bin, locateEngine(undefined, { PI_ASK_BIN: "/opt/b" }, "linux-x64-gnu", resolve).bin],
    ["/opt/a", "/opt/b"],
  );
});

test("the engine package for this platform is used when nothing is chosen", () => {
  const { bin, resolve } = installed("linux-x64-gnu");
  const found = locateEngine(undefined, {}, "linux-x64-gnu", resolve);
  assert.equal(found.from, "package");
  assert.equal(found.bin, bin);
});

test("without the package, pi-ask on PATH, and the message names the fix", () => {
  const found = locateEngine(undefined, {}, "linux-x64-gnu", nothing);
  assert.equal(found.bin, "pi-ask");
  assert.match(found.missing, /@pi-ask\/engine-linux-x64-gnu\) is not installed/);
  assert.match(found.missing, /pi install npm:pi-ask/);
  assert.match(found.missing, /cargo install pi-ask/);
  const binaryGone = installed("linux-x64-gnu", false);
  assert.equal(locateEngine(undefined, {}, "linux-x64-gnu", binaryGone.resolve).from, "path");
  assert.match(locateEngine(undefined, {}, "sunos-x64", nothing).missing, /no engine package is built for this platform \(sunos-x64\)/);
});
