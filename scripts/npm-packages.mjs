// The work of scripts/npm-packages.sh (read it first): stages each package in a temporary folder, packs
// it with `npm pack`, and records what was packed. Plain JavaScript on purpose: it runs on the
// machine's own Node, whatever its version.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [root, out, engine, target] = process.argv.slice(2);
const read = (path) => readFileSync(path, "utf8");
const version = /^\[package\][^[]*?^version = "([^"]+)"/ms.exec(read(join(root, "Cargo.toml")))?.[1];
if (!version) throw new Error("no [package] version in Cargo.toml");
const platforms = JSON.parse(read(join(root, "npm/platforms.json")));
const platform = Object.keys(platforms).find((key) => platforms[key].rustTarget === target);
if (!platform) throw new Error(`no engine package is made for the Rust target ${target} (npm/platforms.json)`);
const adapter = JSON.parse(read(join(root, "pi-extension/package.json")));

const json = (path, value) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

/** An engine package's manifest: only npm installs it where `os`, `cpu` and `libc` match. */
function engineManifest(key) {
  const { rustTarget: _, ...fields } = platforms[key];
  return {
    name: `@pi-ask/engine-${key}`,
    version,
    description: `The pi-ask engine for ${key} (installed by the pi-ask pi package)`,
    license: adapter.license,
    ...fields,
    files: ["bin/pi-ask"],
  };
}

/** Packs `dir` into OUTDIR and returns npm's record of it. */
function pack(dir) {
  const [packed] = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", out, "--loglevel=error"], { cwd: dir, encoding: "utf8" }));
  return { name: packed.name, version: packed.version, file: packed.filename, integrity: packed.integrity, shasum: packed.shasum, manifest: JSON.parse(read(join(dir, "package.json"))) };
}

// The packages are staged in a fresh private folder of the script's own, removed at the end:
// nothing in OUTDIR but what the script writes is touched.
const stage = mkdtempSync(join(tmpdir(), "pi-ask-npm-"));
process.on("exit", () => rmSync(stage, { recursive: true, force: true }));

// Every platform's layout, for a release pipeline.
for (const key of Object.keys(platforms)) {
  const dir = join(out, "layout", key);
  mkdirSync(join(dir, "bin"), { recursive: true });
  json(join(dir, "package.json"), engineManifest(key));
  writeFileSync(join(dir, "README.md"), `The pi-ask engine for ${key}: put the \`pi-ask\` binary built for ${platforms[key].rustTarget} in bin/, then run \`npm pack\` here.\n`);
}

// This machine's engine package, with the binary (its debug symbols stripped when strip is there).
const enginePackage = join(stage, `engine-${platform}`);
cpSync(join(out, "layout", platform), enginePackage, { recursive: true });
const bin = join(enginePackage, "bin", "pi-ask");
try {
  execFileSync("strip", ["--strip-debug", "-o", bin, engine], { stdio: "ignore" });
} catch {
  copyFileSync(engine, bin);
}
chmodSync(bin, 0o755);

// The pi package: the adapter as pi-extension/ has it, depending on every engine package.
const piPackage = join(stage, "pi-ask");
mkdirSync(piPackage, { recursive: true });
// `dereference`: the skill is a link to the project's own skills/ folder (npm packs no links).
for (const file of adapter.files) cpSync(join(root, "pi-extension", file), join(piPackage, file), { recursive: true, dereference: true });
for (const file of ["LICENSE"]) copyFileSync(join(root, file), join(piPackage, file));
writeFileSync(join(piPackage, "README.md"), `# pi-ask for pi\n\n\`pi install npm:pi-ask\` adds the \`ask_user\` tool, \`/answer\`, \`/ask:replay\` and \`/ask-settings\` to pi, with the pi-ask engine for this platform inside. See the project's docs/pi.md.\n`);
const { devDependencies: _dev, scripts: _scripts, ...published } = adapter;
json(join(piPackage, "package.json"), {
  ...published,
  version,
  files: [...adapter.files, "LICENSE", "README.md"],
  optionalDependencies: Object.fromEntries(Object.keys(platforms).map((key) => [`@pi-ask/engine-${key}`, version])),
});

const packed = [pack(piPackage), pack(enginePackage)];
json(join(out, "packages.json"), packed);
for (const p of packed) console.log(`${p.file}  ${p.name}@${p.version}`);
