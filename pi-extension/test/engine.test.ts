// Where the adapter finds the engine: an explicit choice, this package's own engine dependency
// (never one found by walking up), PATH; and an engine others could have put there is not run.
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

import { enginePackage, locateEngine, othersCouldChange, ownDependencyDirs, platformKey } from "../engine.ts";

const PLATFORM = "linux-x64-gnu";

/** An engine package for `platform` in `nodeModules`, with its binary unless told otherwise. */
function engineIn(nodeModules: string, platform = PLATFORM, withBinary = true): string {
  const dir = join(nodeModules, enginePackage(platform));
  mkdirSync(join(dir, "bin"), { recursive: true });
  writeFileSync(join(dir, "package.json"), "{}");
  if (withBinary) writeFileSync(join(dir, "bin", "pi-ask"), "", { mode: 0o755 });
  return join(dir, "bin", "pi-ask");
}

/** A project with pi-ask installed in its `node_modules`: the package's folder. */
function project(): { root: string; nodeModules: string; packageDir: string } {
  const root = mkdtempSync(join(tmpdir(), "pi-ask-engine-"));
  chmodSync(root, 0o755);
  const nodeModules = join(root, "project", "node_modules");
  const packageDir = join(nodeModules, "pi-ask");
  mkdirSync(packageDir, { recursive: true });
  return { root, nodeModules, packageDir };
}

const trusted = () => undefined;

test("the platform key names libc on Linux only", () => {
  assert.equal(platformKey("linux", "x64", true), "linux-x64-gnu");
  assert.equal(platformKey("linux", "arm64", false), "linux-arm64-musl");
  assert.equal(platformKey("darwin", "arm64", true), "darwin-arm64");
});

test("the flag, then PI_ASK_BIN, win over the installed engine package", () => {
  const { nodeModules, packageDir } = project();
  engineIn(nodeModules);
  assert.deepEqual(
    [
      locateEngine("/opt/a", { PI_ASK_BIN: "/opt/b" }, PLATFORM, packageDir, trusted).bin,
      locateEngine(undefined, { PI_ASK_BIN: "/opt/b" }, PLATFORM, packageDir, trusted).bin,
    ],
    ["/opt/a", "/opt/b"],
  );
});

test("the engine package beside this package (hoisted) or inside it is used", () => {
  const hoisted = project();
  const bin = engineIn(hoisted.nodeModules);
  const found = locateEngine(undefined, {}, PLATFORM, hoisted.packageDir);
  assert.equal(found.from, "package");
  assert.equal(found.bin, bin);
  assert.equal(found.refused, undefined, "a private install is run");
  const nested = project();
  const inside = engineIn(join(nested.packageDir, "node_modules"));
  assert.equal(locateEngine(undefined, {}, PLATFORM, nested.packageDir).bin, inside);
  assert.deepEqual(ownDependencyDirs("/p/node_modules/pi-ask", "@pi-ask/engine-x"), [
    "/p/node_modules/pi-ask/node_modules/@pi-ask/engine-x",
    "/p/node_modules/@pi-ask/engine-x",
  ]);
});

test("an engine planted in a node_modules above the project is never found", () => {
  const { root, packageDir } = project();
  // Another user's `node_modules` in the shared folder above the project: Node's resolution
  // would walk up to it.
  engineIn(join(root, "node_modules"));
  const found = locateEngine(undefined, {}, PLATFORM, packageDir, trusted);
  assert.equal(found.from, "path");
  assert.equal(found.bin, "pi-ask");
});

test("an engine others can write, or in a folder others can write, is refused with the reason", () => {
  const { nodeModules, packageDir } = project();
  const bin = engineIn(nodeModules);
  chmodSync(join(nodeModules, enginePackage(PLATFORM), "bin"), 0o777);
  const found = locateEngine(undefined, {}, PLATFORM, packageDir);
  assert.equal(found.bin, bin);
  assert.match(found.refused ?? "", /its folder .*\/bin can be written by others \(mode 777\)/);
  assert.match(found.refused ?? "", /PI_ASK_BIN/);
  chmodSync(join(nodeModules, enginePackage(PLATFORM), "bin"), 0o755);
  chmodSync(bin, 0o757);
  assert.match(locateEngine(undefined, {}, PLATFORM, packageDir).refused ?? "", /pi-ask can be written by others \(mode 757\)/);
  // Another user's binary (as seen through a stat that says so).
  const stat = (path: string) => ({ uid: path === bin ? 4242 : 0, mode: 0o755, isDirectory: () => path !== bin });
  assert.match(othersCouldChange(bin, 1000, stat, (p) => p) ?? "", /belongs to another user \(uid 4242\)/);
  // A sticky folder (/tmp) protects what is in it.
  const sticky = (path: string) => ({ uid: 0, mode: path === "/" ? 0o1777 : 0o755, isDirectory: () => path !== bin });
  assert.equal(othersCouldChange(bin, 0, sticky, (p) => p), undefined);
});

test("without the package, pi-ask on PATH, and the message names the fix", () => {
  const { nodeModules, packageDir } = project();
  const found = locateEngine(undefined, {}, PLATFORM, packageDir, trusted);
  assert.equal(found.bin, "pi-ask");
  assert.match(found.missing, /@pi-ask\/engine-linux-x64-gnu\) is not installed/);
  assert.match(found.missing, /pi install npm:pi-ask/);
  assert.match(found.missing, /cargo install pi-ask/);
  engineIn(nodeModules, PLATFORM, false);
  assert.equal(locateEngine(undefined, {}, PLATFORM, packageDir, trusted).from, "path");
  assert.match(locateEngine(undefined, {}, "sunos-x64", packageDir, trusted).missing, /no engine package is built for this platform \(sunos-x64\)/);
});
