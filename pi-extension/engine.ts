// Where the pi-ask engine is. The npm package `pi-ask` lists one optional dependency per platform
// (`@pi-ask/engine-<platform>`, each with its `os`, `cpu` and `libc`), so npm installs only the one
// for this machine, with the `pi-ask` binary inside; this is how esbuild, Biome and Codex ship
// theirs. An explicit choice wins over it: `--pi-ask-bin`, then `PI_ASK_BIN` (a development build,
// a newer engine); after the package, `pi-ask` on PATH (`cargo install pi-ask`).
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The platforms an engine package is built for (npm/platforms.json lists their npm fields). */
export const ENGINE_PLATFORMS = ["linux-x64-gnu", "linux-arm64-gnu", "linux-x64-musl", "linux-arm64-musl", "darwin-x64", "darwin-arm64"];

/** This machine's platform as the engine packages name it: `linux-x64-gnu`, `darwin-arm64`. */
export function platformKey(platform: string = process.platform, arch: string = process.arch, glibc: boolean = hasGlibc()): string {
  return platform === "linux" ? `${platform}-${arch}-${glibc ? "gnu" : "musl"}` : `${platform}-${arch}`;
}

function hasGlibc(): boolean {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return typeof header?.glibcVersionRuntime === "string";
}

/** The npm package carrying the engine for `platform`. */
export function enginePackage(platform: string): string {
  return `@pi-ask/engine-${platform}`;
}

/** Where the engine was found, and what to say when it cannot be run. */
export interface Located {
  bin: string;
  from: "flag" | "env" | "package" | "path";
  /** Why running it failed with "not found" means: the fix to name. */
  missing: string;
}

/** Finds the engine: the flag, `PI_ASK_BIN`, this platform's engine package, `pi-ask` on PATH. */
export function locateEngine(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  platform: string = platformKey(),
  resolve: (id: string) => string = createRequire(import.meta.url).resolve,
): Located {
  const elsewhere = "install the engine with `cargo install pi-ask` (then it is found on PATH), or point PI_ASK_BIN (or --pi-ask-bin) at it";
  if (flag) return { bin: flag, from: "flag", missing: `the --pi-ask-bin flag names ${flag}, which does not exist: ${elsewhere}` };
  if (env.PI_ASK_BIN) return { bin: env.PI_ASK_BIN, from: "env", missing: `PI_ASK_BIN names ${env.PI_ASK_BIN}, which does not exist: ${elsewhere}` };
  const name = enginePackage(platform);
  try {
    const bin = join(dirname(resolve(`${name}/package.json`)), "bin", "pi-ask");
    if (existsSync(bin)) return { bin, from: "package", missing: `${name} is installed without its binary (${bin}): reinstall with \`pi install npm:pi-ask\`` };
  } catch {
    // Not installed: said below.
  }
  const why = ENGINE_PLATFORMS.includes(platform)
    ? `the engine package for this platform (${name}) is not installed: reinstall with \`pi install npm:pi-ask\` (npm must not omit optional dependencies)`
    : `no engine package is built for this platform (${platform})`;
  return { bin: "pi-ask", from: "path", missing: `${why}, or ${elsewhere}` };
}
