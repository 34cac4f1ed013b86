// pi-ask as a pi extension: a thin adapter from pi's extension API to the Rust engine's embed
// protocol (`pi-ask embed`, docs/embed.md). Every rule of the form lives in the engine: which form
// to open, validation, drawing, results, session entries, notices. This file only carries
// messages between pi and the engine.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

import type { ExtensionAPI, ExtensionContext, Theme, ThemeColor } from "@earendil-works/pi-coding-agent";
import { type Component, CURSOR_MARKER, type Focusable, Text, type TUI, truncateToWidth } from "@earendil-works/pi-tui";

import { type Located, locateEngine } from "./engine.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
/** The tool as `pi-ask schema --pi` describes it (kept equal by the engine's tests). */
const TOOL = JSON.parse(readFileSync(join(HERE, "tool.json"), "utf8"));
/** The embed protocol version this adapter speaks. */
const PROTOCOL = 1;
/** The fix for an engine too old for this adapter. */
const UPGRADE =
  "upgrade with `pi update npm:pi-ask` (or `cargo install pi-ask` for an engine on PATH), or point PI_ASK_BIN (or --pi-ask-bin) at a newer one";
const CHANNEL = "@geoqiao/pi-ask";
const FORWARDED_EVENTS = new Set(["started", "completed", "submit-result"]);
/** The settings float over pi as the original's do: centred, 72 columns, at most 90% tall. */
const SETTINGS_WIDTH = 72;
const SETTINGS_OVERLAY = { anchor: "center", margin: 1, maxHeight: "90%", minWidth: 26, width: SETTINGS_WIDTH } as const;
/** The theme tokens the engine's form is drawn with. */
const FG_TOKENS = ["accent", "border", "borderAccent", "borderMuted", "success", "error", "warning", "muted", "dim", "text"] as const;

// The engine's JSON lines: each `type` carries its own fields (docs/embed.md), read where that
// type is handled; typing every message here would copy the protocol's Rust types by hand.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type EngineMessage = { type: string; [key: string]: any };
// `details` is the engine's result as the contract defines it, handed to pi unchanged.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AskResult = { content: { type: "text"; text: string }[]; details: any };
/** How an engine run ended: a result, nothing to show (settings closed, nothing found), or a failure. */
type Final = { result: AskResult; transcript: string } | { closed: true } | { error: string };

interface Engine {
  send(message: object): void;
  readonly done: Promise<Final>;
  kill(): void;
}

/** Starts `pi-ask embed`, checks its hello, sends `open`, and hands every later line to `on`. */
function startEngine(engine: Located, open: object, on: (message: EngineMessage) => void): Engine {
  const bin = engine.bin;
  if (engine.refused) return { send() {}, kill() {}, done: Promise.resolve({ error: engine.refused }) };
  let child: ChildProcess;
  try {
    child = spawn(bin, ["embed"], { stdio: ["pipe", "pipe", "pipe"] });
  } catch (e) {
    return { send() {}, kill() {}, done: Promise.resolve({ error: `pi-ask could not start (${bin}): ${String(e)}` }) };
  }
  const send = (message: object) => {
    if (child.stdin?.writable) child.stdin.write(`${JSON.stringify(message)}\n`);
  };
  const done = new Promise<Final>((resolve) => {
    let greeted = false;
    let final: Final | undefined;
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr = (stderr + String(chunk)).slice(-2000);
    });
    child.stdin?.on("error", () => {});
    child.on("error", (e: NodeJS.ErrnoException) => {
      resolve({
        error: e.code === "ENOENT" ? `pi-ask's engine was not found (${bin}): ${engine.missing}.` : `pi-ask could not start (${bin}): ${e.message}`,
      });
    });
    createInterface({ input: child.stdout! }).on("line", (line) => {
      let message: EngineMessage;
      try {
        message = JSON.parse(line);
      } catch {
        return;
      }
      if (!greeted) {
        greeted = true;
        if (message.type !== "hello" || !(Number(message.protocol) >= PROTOCOL)) {
          final = { error: `pi-ask at ${bin} does not speak the embed protocol ${PROTOCOL}: ${UPGRADE}.` };
          child.kill();
          return;
        }
        send({ type: "open", ...open });
        return;
      }
      if (message.type === "result") final = { result: message.result, transcript: message.transcript };
      else if (message.type === "closed") final = { closed: true };
      on(message);
    });
    child.on("close", () => {
      const why = stderr.trim() ? `: ${stderr.trim()}` : "";
      resolve(final ?? { error: greeted ? `pi-ask ended without a result${why}` : `pi-ask at ${bin} is too old or is not pi-ask${why}; ${UPGRADE}.` });
    });
  });
  return { send, done, kill: () => child.kill() };
}

/** A pi theme as the engine's `[theme]`: its name (light or dark) and each token's colour. */
function themeOf(theme: Theme): { name: string; colors: Record<string, string | number> } {
  const colors: Record<string, string | number> = {};
  const colour = (sequence: string): string | number | undefined => {
    const rgb = /\[[34]8;2;(\d+);(\d+);(\d+)m/.exec(sequence);
    if (rgb) return `#${rgb.slice(1, 4).map((n) => Number(n).toString(16).padStart(2, "0")).join("")}`;
    const indexed = /\[[34]8;5;(\d+)m/.exec(sequence);
    return indexed ? Number(indexed[1]) : undefined;
  };
  for (const token of FG_TOKENS) {
    const c = colour(theme.getFgAnsi(token));
    if (c !== undefined) colors[token] = c;
  }
  const selected = colour(theme.getBgAnsi("selectedBg"));
  if (selected !== undefined) colors.selectedBg = selected;
  return { name: /light/i.test(theme.name ?? "") ? "light" : "dark", colors };
}

/** A frame's lines for pi: never wider than `width` as pi measures them, the cursor marker only while focused. */
export function frameLines(lines: string[], width: number, focused: boolean): string[] {
  return lines.map((line) => truncateToWidth(focused ? line : line.split(CURSOR_MARKER).join(""), width, ""));
}

/**
 * Joins what pi hands the component into whole characters. pi's input layer can split a character
 * outside the Basic Multilingual Plane (most emoji) into its two UTF-16 halves, one call each; a
 * half alone is not valid text (JSON.stringify writes it as a lone `\ud83d` escape the engine
 * rightly refuses). A trailing high half waits for the next input; a low half with no high half
 * before it is dropped.
 */
export function wholeCharacters(): (data: string) => string {
  let held = "";
  return (data: string) => {
    let text = held + data;
    held = "";
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      held = text.slice(-1);
      text = text.slice(0, -1);
    }
    return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "");
  };
}

/** `value[key]` when `value` is an object (the model's arguments and other peers' data are read so). */
function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * The transcript's call line, as the original's: `ask_user 2 question(s) (Goal, Tone)`, each
 * question's label or `Q<n>`, the labels cut to 50 columns.
 */
export function callLine(args: unknown, paint: (token: ThemeColor, text: string) => string): string {
  const asked = field(args, "questions");
  const questions: unknown[] = Array.isArray(asked) ? asked : [];
  const labels = questions
    .map((q, i) => {
      const label = field(q, "label");
      return typeof label === "string" && label.trim() ? printable(label.trim()) : `Q${i + 1}`;
    })
    .join(", ");
  const line = paint("toolTitle", "ask_user ") + paint("muted", `${questions.length} question(s)`);
  return labels ? line + paint("dim", ` (${truncateToWidth(labels, 50)})`) : line;
}

/**
 * While a form waits for the person: pi's status line says so (RPC hosts get it too) and pi's
 * "Working..." row, which would keep redrawing under the form, is hidden; both come back after.
 */
function waiting(ctx: ExtensionContext, on: boolean) {
  if (!ctx.hasUI) return;
  ctx.ui.setStatus("pi-ask", on ? "? waiting for your answer" : undefined);
  if (ctx.mode !== "tui") return;
  ctx.ui.setWorkingVisible(!on);
  // The terminal's title (a tab in the background shows it) as pi writes it, with the wait in it.
  const name = ctx.sessionManager.getSessionName();
  const parts = ["π", ...(on ? ["? question waiting"] : []), ...(name ? [name] : []), basename(ctx.cwd)];
  ctx.ui.setTitle(printable(parts.join(" - ")));
}

/**
 * The form editor's text in the person's own editor (`$VISUAL`, `$EDITOR`, else `vi`), pi's
 * terminal lent to it as pi lends it for its own Ctrl+G: the text through a file in a fresh
 * private folder (0700, the file 0600), removed after. Resolves to the saved text, or undefined
 * when the editor failed or was quit without saving.
 */
async function editExternally(tui: TUI, text: string): Promise<string | undefined> {
  const [program, ...args] = (process.env.VISUAL || process.env.EDITOR || "vi").split(/\s+/).filter(Boolean);
  let folder: string;
  try {
    folder = mkdtempSync(join(tmpdir(), "pi-ask-edit-"));
  } catch {
    // No private folder to put the text in: the form keeps its text.
    return undefined;
  }
  const file = join(folder, "answer.md");
  tui.stop();
  try {
    writeFileSync(file, text, { mode: 0o600, flag: "wx" });
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(program, [...args, file], { stdio: "inherit" });
      child.on("error", () => resolve(null));
      child.on("close", resolve);
    });
    return code === 0 ? readFileSync(file, "utf8").replace(/\n$/, "") : undefined;
  } catch {
    return undefined;
  } finally {
    rmSync(folder, { recursive: true, force: true });
    tui.start();
    tui.requestRender(true);
  }
}

/** Text from a payload or a model made safe to print (control characters shown as `?`). */
function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "?");
}

export default function piAsk(pi: ExtensionAPI) {
  pi.registerFlag("pi-ask-bin", {
    description: "The pi-ask binary (default: $PI_ASK_BIN, else the engine installed with this package, else pi-ask on PATH)",
    type: "string",
  });
  const located = () => locateEngine(String(pi.getFlag("pi-ask-bin") || "") || undefined);
  /** The engine to run for a one-off command; throws (the callers fall back) when it is refused. */
  const bin = () => {
    const found = located();
    if (found.refused) throw new Error(found.refused);
    return found.bin;
  };
  /** Open flows by flow id, for remote submits. */
  const flows = new Map<string, Engine>();
  /** Transcript renderings by result, filled when a form ends (and on demand after a reload). */
  const transcripts = new Map<string, string>();
  /** Tool calls whose `execute` runs in this process: never taken for interrupted ones. */
  const running = new Set<string>();

  /** Every engine still running, ended when the session shuts down. */
  const engines = new Set<Engine>();

  /** Starts an engine for one flow; once it ends (however it ends) no remote submit is routed to it. */
  function start(open: object, on: (message: EngineMessage) => void): Engine {
    const engine = startEngine(located(), open, on);
    engines.add(engine);
    void engine.done.then(() => {
      engines.delete(engine);
      for (const [flowId, known] of flows) if (known === engine) flows.delete(flowId);
    });
    return engine;
  }

  /** Carries out what the engine asks of pi, whatever the flow. */
  function effect(ctx: ExtensionContext, engine: Engine, message: EngineMessage) {
    const { type, ...event } = message;
    if (FORWARDED_EVENTS.has(type)) pi.events.emit(`${CHANNEL}:${type}`, event);
    if (type === "started") flows.set(message.flowId, engine);
    else if (type === "completed") flows.delete(message.flowId);
    else if (type === "store") pi.appendEntry(message.customType, message.data);
    else if (type === "notice" && ctx.hasUI) ctx.ui.notify(message.message, message.level);
    else if (type === "error" && ctx.hasUI) ctx.ui.notify(`pi-ask: ${message.message}`, "warning");
    else if (type === "notify" && ctx.mode === "tui" && message.terminal) process.stdout.write(message.terminal);
    else if (type === "deliver") pi.sendUserMessage(message.text, ctx.isIdle() ? undefined : { deliverAs: "followUp" });
    else if (type === "extract") void extract(ctx, engine, message);
  }

  /** One extraction attempt with pi's current model; the engine checks, retries and repairs. */
  async function extract(ctx: ExtensionContext, engine: Engine, request: EngineMessage) {
    try {
      const user = { role: "user" as const, content: [{ type: "text" as const, text: request.prompt }], timestamp: Date.now() };
      const response = await ctx.modelRegistry.complete(ctx.model!, { messages: [user], tools: [request.tool] }, {});
      if (response.stopReason === "error" || response.stopReason === "aborted") {
        return engine.send({ type: "extracted", id: request.id, error: response.errorMessage ?? `the model stopped (${response.stopReason})` });
      }
      const calls = response.content.flatMap((c) => (c.type === "toolCall" && c.name === "ask_user" ? [c] : []));
      const text = response.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
      const output =
        calls.length === 1
          ? JSON.stringify({ name: "ask_user", arguments: calls[0].arguments })
          : calls.length > 1
            ? `Expected exactly one ask_user tool call; received ${calls.length}.`
            : text;
      engine.send({ type: "extracted", id: request.id, output });
    } catch (e) {
      engine.send({ type: "extracted", id: request.id, error: e instanceof Error ? e.message : String(e) });
    }
  }

  /**
   * The form drawn inside pi's TUI through `ctx.ui.custom()`. The component is mounted only when
   * the first frame arrives, so a lookup that finds nothing (or an extraction still running) never
   * takes the keyboard from pi's editor.
   */
  function inTui(ctx: ExtensionContext, open: object, signal?: AbortSignal, overlay = false): Promise<Final> {
    const asks = (open as { flow?: string }).flow !== "settings";
    return new Promise((resolve) => {
      let lines: string[] = [];
      // An overlay is at most 90% of the terminal's rows (its `maxHeight`), a form all of them.
      const rows = (total: number) => (overlay ? Math.max(1, Math.floor(total * 0.9)) : total);
      let size = { width: overlay ? SETTINGS_WIDTH : process.stdout.columns || 80, height: rows(process.stdout.rows || 24) };
      let mounted = false;
      let rerender: (() => void) | undefined;
      // Keys sent since the last frame. pi draws at once after each key (its stale frame: the
      // engine has not answered yet), so a frame answering a key, requested the usual way, would
      // wait out pi's 16 ms throttle; it is drawn at once instead (benches/pi_keys.py).
      let keysAwaitingFrame = 0;
      let terminal: TUI | undefined;
      let fitted: { lines: string[]; width: number; focused: boolean; out: string[] } | undefined;
      let close: ((final: Final) => void) | undefined;
      let finished: Final | undefined;
      const whole = wholeCharacters();
      const engine: Engine = start(
        { ...open, ...size, theme: themeOf(ctx.ui.theme), cursorMarker: CURSOR_MARKER },
        (message) => {
          if (message.type === "edit") {
            // Only a mounted form asks (Ctrl+G in its editor); without pi's terminal, no change.
            if (!terminal) return engine.send({ type: "edited", id: message.id });
            // Whatever happens, the engine hears back (it waits for `edited`).
            void editExternally(terminal, message.text)
              .catch(() => undefined)
              .then((text) => engine.send({ type: "edited", id: message.id, text }));
            return;
          }
          if (message.type !== "frame") return effect(ctx, engine, message);
          lines = message.lines;
          if (mounted) return rerender?.();
          mounted = true;
          if (asks) waiting(ctx, true);
          void ctx.ui.custom<Final>((tui, _theme, _keybindings, done) => {
            // The footer names Shift+Enter for a new line only where pi's terminal reports it.
            engine.send({ type: "keyboard", shiftEnter: tui.terminal.kittyProtocolActive === true });
            terminal = tui;
            rerender = () => {
              if (keysAwaitingFrame > 0) {
                keysAwaitingFrame = 0;
                tui.renderNow();
              } else tui.requestRender();
            };
            close = done;
            if (finished) queueMicrotask(() => done(finished!));
            const form: Component & Focusable & { dispose(): void } = {
              focused: false,
              render(width: number) {
                const height = rows(tui.terminal.rows);
                if (width !== size.width || height !== size.height) {
                  size = { width, height };
                  engine.send({ type: "resize", width, height });
                }
                // pi draws after every key, before the engine's answer to it has arrived: the
                // same frame at the same width is fitted to it once, not at every draw.
                if (fitted?.lines !== lines || fitted.width !== width || fitted.focused !== this.focused) {
                  fitted = { lines, width, focused: this.focused, out: frameLines(lines, width, this.focused) };
                }
                return fitted.out.slice();
              },
              handleInput(data: string) {
                const text = whole(data);
                if (!text) return;
                keysAwaitingFrame += 1;
                engine.send({ type: "input", data: text });
              },
              invalidate() {},
              dispose() {
                engine.kill();
              },
            };
            return form;
          }, overlay ? { overlay: true, overlayOptions: SETTINGS_OVERLAY } : undefined).then((final) => {
            if (asks) waiting(ctx, false);
            resolve(final);
          });
        },
      );
      signal?.addEventListener("abort", () => engine.send({ type: "abort" }), { once: true });
      engine.done.then((final) => {
        finished = final;
        if (close) close(final);
        else if (!mounted) resolve(final);
      });
    });
  }

  /** pi's portable dialogs (RPC mode), one step at a time. */
  function inDialogs(ctx: ExtensionContext, open: object, signal?: AbortSignal): Promise<Final> {
    waiting(ctx, true);
    const engine: Engine = start({ ...open, flow: "dialogs" }, async (message) => {
      if (message.type !== "step") return effect(ctx, engine, message);
      const value =
        message.dialog === "select"
          ? await ctx.ui.select(message.title, message.options, { signal })
          : message.dialog === "editor"
            ? await ctx.ui.editor(message.title, message.prefill)
            : await ctx.ui.input(message.title, message.placeholder, { signal });
      if (signal?.aborted) engine.send({ type: "abort" });
      else if (value === undefined) engine.send({ type: "reply", id: message.id, cancelled: true });
      else engine.send({ type: "reply", id: message.id, value });
    });
    signal?.addEventListener("abort", () => engine.send({ type: "abort" }), { once: true });
    return engine.done.finally(() => waiting(ctx, false));
  }

  /** A flow without UI (print and JSON modes): the engine answers at once. */
  function headless(ctx: ExtensionContext, open: object): Promise<Final> {
    const engine: Engine = start({ ...open, flow: "fallback" }, (m) => effect(ctx, engine, m));
    return engine.done;
  }

  /** The entries of the current branch the engine's lookups read. */
  function branch(ctx: ExtensionContext) {
    return ctx.sessionManager
      .getBranch()
      .filter((e) => e.type === "message" || (e.type === "custom" && String(e.customType).startsWith("ask:")));
  }

  /** A form a command or a recovery opens (TUI only, as in the original, with its notice). */
  async function commandFlow(ctx: ExtensionContext, open: object, name: string) {
    if (ctx.mode !== "tui") {
      if (ctx.hasUI) ctx.ui.notify(`${name} requires interactive TUI mode.`, "error");
      return;
    }
    const final = await inTui(ctx, { flow: "ask", cwd: ctx.cwd, ...open });
    if ("error" in final) ctx.ui.notify(final.error, "error");
    else if ("result" in final) transcripts.set(JSON.stringify(final.result.details), final.transcript);
  }

  pi.registerTool({
    ...TOOL,
    prepareArguments(args: unknown) {
      try {
        return JSON.parse(execFileSync(bin(), ["prepare"], { input: JSON.stringify(args), encoding: "utf8" }));
      } catch {
        return args;
      }
    },
    async execute(toolCallId: string, params: unknown, signal: AbortSignal | undefined, _onUpdate: unknown, ctx: ExtensionContext) {
      const open = { payload: params, source: "tool", toolCallId, cwd: ctx.cwd };
      running.add(toolCallId);
      let final: Final;
      try {
        final =
          ctx.mode === "tui"
            ? await inTui(ctx, { ...open, flow: "ask" }, signal)
            : ctx.mode === "rpc" && ctx.hasUI
              ? await inDialogs(ctx, open, signal)
              : await headless(ctx, open);
      } finally {
        running.delete(toolCallId);
      }
      if ("error" in final) throw new Error(final.error);
      if (!("result" in final)) throw new Error("pi-ask ended without a result");
      transcripts.set(JSON.stringify(final.result.details), final.transcript);
      return { content: final.result.content, details: final.result.details };
    },
    renderCall(args: unknown, theme: Theme) {
      return new Text(callLine(args, (token, text) => theme.fg(token, token === "toolTitle" ? theme.bold(text) : text)), 0, 0);
    },
    renderResult(result, options, theme) {
      if (options?.isPartial) return new Text(theme.fg("muted", "Waiting for answers…"), 0, 0);
      const details = result?.details;
      const first = result?.content?.[0];
      const firstText = printable(String((first?.type === "text" ? first.text : undefined) ?? ""));
      if (!details || !Array.isArray(details.questions)) return new Text(firstText, 0, 0);
      const key = JSON.stringify(details);
      let text = transcripts.get(key);
      if (text === undefined) {
        try {
          text = execFileSync(bin(), ["transcript"], { input: JSON.stringify({ content: result.content ?? [], details }), encoding: "utf8" }).trimEnd();
        } catch {
          text = firstText;
        }
        transcripts.set(key, text);
      }
      return new Text(details.cancelled || details.error ? theme.fg("warning", text) : text, 0, 0);
    },
  });

  pi.registerCommand("ask:replay", {
    description: "Reopen the newest ask_user form on this branch",
    handler: async (_args, ctx) => commandFlow(ctx, { find: "replay", branch: branch(ctx) }, "Ask replay"),
  });
  pi.registerCommand("answer:again", {
    description: "Reopen the newest /answer form on this branch",
    handler: async (_args, ctx) => commandFlow(ctx, { find: "answerAgain", branch: branch(ctx), source: "answer:again" }, "Ask replay"),
  });
  pi.registerCommand("answer", {
    description: "Turn the latest assistant message's questions into a form",
    handler: async (_args, ctx) =>
      commandFlow(ctx, { find: "answer", branch: branch(ctx), source: "answer", extractor: ctx.model ? "host" : "engine" }, "/answer"),
  });
  pi.registerCommand("ask-settings", {
    description: "pi-ask settings",
    handler: async (_args, ctx) => {
      if (ctx.mode !== "tui") return ctx.hasUI ? ctx.ui.notify("/ask-settings requires interactive TUI mode.", "error") : undefined;
      const final = await inTui(ctx, { flow: "settings" }, undefined, true);
      if ("error" in final) ctx.ui.notify(final.error, "error");
    },
  });

  // An ask interrupted by a crash or a kill is reopened when its session starts again (detached,
  // so other start handlers are not held up); the engine finds it and marks it dismissed. Only a
  // call unresolved when the session started counts: the branch is read here, before a prompt
  // given on pi's command line can make a new call, and a call running in this process is never
  // taken for an interrupted one.
  pi.on("session_start", (event, ctx) => {
    if (ctx.mode !== "tui" || !["startup", "resume", "fork"].includes(event.reason)) return;
    const atStart = branch(ctx);
    setTimeout(() => void commandFlow(ctx, { find: "resume", branch: atStart, running: [...running] }, "recovery"), 0);
  });

  // `/new`, `/resume`, `/fork`, a reload or quitting: no engine outlives its session.
  pi.on("session_shutdown", () => {
    for (const engine of engines) engine.kill();
    engines.clear();
  });

  // Remote submits from trusted in-process extensions; the engine validates them.
  pi.events.on(`${CHANNEL}:submit`, (data: unknown) => {
    const flowId = field(data, "flowId");
    const engine = (typeof flowId === "string" ? flows.get(flowId) : undefined) ?? (flows.size === 1 ? [...flows.values()][0] : undefined);
    if (engine) return engine.send({ ...(typeof data === "object" ? data : {}), type: "submit" });
    pi.events.emit(`${CHANNEL}:submit-result`, {
      version: 1,
      requestId: field(data, "requestId"),
      flowId,
      ok: false,
      error: "flow_not_found",
      message: "Ask flow is not active.",
    });
  });
}
