// Where the pi-ask engine is. The npm package `pi-ask` lists one optional dependency per platform
// (`@pi-ask/engine-<platform>`, each with its `os`, `cpu` and `libc`), so npm installs only the one
// for this machine, with the `pi-ask` binary inside; this is how esbuild, Biome and Codex ship
// theirs. An explicit choice wins over it: `--pi-ask-bin`, then `PI_ASK_BIN` (a development build,
// a newer engine); after the package, `pi-ask` on PATH (`cargo install pi-ask`).
//
// The package is looked for only where npm puts this package's own dependency (inside it, or
// beside it when hoisted), never by Node's resolution, which walks up every `node_modules` above:
// inside a project in a shared folder that ran another user's planted binary. The binary found,
// and every folder above it, must be this user's (or root's) and writable by nobody else.
import { existsSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

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
  /** Why the binary found must not be run (others could have put it there), when so. */
  refused?: string;
}

/** This package's own folder (where `engine.ts` is). */
export function ownPackageDir(): string {
  return dirname(fileURLToPath(import.meta.url));
}

/** The places npm puts `name` as a dependency of the package in `packageDir`: inside it, or beside
 * it in the `node_modules` holding it (hoisted). Nothing above. */
export function ownDependencyDirs(packageDir: string, name: string): string[] {
  const dirs = [join(packageDir, "node_modules", name)];
  const holder = dirname(packageDir);
  if (basename(holder) === "node_modules") dirs.push(join(holder, name));
  return dirs;
}

/** Who a file's owner and mode let change it: another user, or anyone through the group or others'
 * write bits (a sticky folder protects what is in it). */
type Stat = { uid: number; mode: number; isDirectory(): boolean };

/** Why someone other than this user (or root) could change the binary at `bin`: the file itself or
 * any folder above where it really is. `undefined` when nobody can. */
export function othersCouldChange(
  bin: string,
  uid: number = process.getuid?.() ?? 0,
  stat: (path: string) => Stat = statSync,
  realpath: (path: string) => string = realpathSync,
): string | undefined {
  let path: string;
  try {
    path = realpath(bin);
  } catch (e) {
    return `it cannot be looked at (${String(e)})`;
  }
  for (let at = path; ; at = dirname(at)) {
    const meta = stat(at);
    const what = at === path ? path : `its folder ${at}`;
    if (meta.uid !== uid && meta.uid !== 0) return `${what} belongs to another user (uid ${meta.uid})`;
    const sticky = meta.isDirectory() && (meta.mode & 0o1000) !== 0;
    if ((meta.mode & 0o022) !== 0 && !sticky) return `${what} can be written by others (mode ${(meta.mode & 0o7777).toString(8)})`;
    if (dirname(at) === at) return undefined;
  }
}

/** Finds the engine: the flag, `PI_ASK_BIN`, this platform's engine package, `pi-ask` on PATH. */
export function locateEngine(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  platform: string = platformKey(),
  packageDir: string = ownPackageDir(),
  check: (bin: string) => string | undefined = othersCouldChange,
): Located {
  const elsewhere = "install the engine with `cargo install pi-ask` (then it is found on PATH), or point PI_ASK_BIN (or --pi-ask-bin) at it";
  if (flag) return { bin: flag, from: "flag", missing: `the --pi-ask-bin flag names ${flag}, which does not exist: ${elsewhere}` };
  if (env.PI_ASK_BIN) return { bin: env.PI_ASK_BIN, from: "env", missing: `PI_ASK_BIN names ${env.PI_ASK_BIN}, which does not exist: ${elsewhere}` };
  const name = enginePackage(platform);
  for (const dir of ownDependencyDirs(packageDir, name)) {
    const bin = join(dir, "bin", "pi-ask");
    if (!existsSync(join(dir, "package.json"))) continue;
    const missing = `${name} is installed without its binary (${bin}): reinstall with \`pi install npm:pi-ask\``;
    if (!existsSync(bin)) continue;
    const why = check(bin);
    const refused = why === undefined ? undefined : `pi-ask's engine ${bin} is not run: ${why}, so another user could have put it there. Reinstall pi-ask where only you can write (\`pi install npm:pi-ask\`), or point PI_ASK_BIN (or --pi-ask-bin) at an engine of your own`;
    return { bin, from: "package", missing, refused };
  }
  const why = ENGINE_PLATFORMS.includes(platform)
    ? `the engine package for this platform (${name}) is not installed: reinstall with \`pi install npm:pi-ask\` (npm must not omit optional dependencies)`
    : `no engine package is built for this platform (${platform})`;
  return { bin: "pi-ask", from: "path", missing: `${why}, or ${elsewhere}` };
}
