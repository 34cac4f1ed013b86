// A host built on the official MCP TypeScript SDK (@modelcontextprotocol/sdk, pinned in the lock
// beside pi), driving the real `pi-ask mcp` over stdio. Run by tests/mcp_official_sdk.rs:
// `node host.mjs <scenario> <pi-ask> <home>`; prints one JSON line of what it saw, exits 1 on an
// error. (Here rather than under tests/: Node resolves packages from the script's folder.)
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [scenario, piAsk, home] = process.argv.slice(2);
const queue = join(home, "queue");

const questions = {
  title: "Deploy",
  questions: [
    { id: "env", prompt: "Where to?", options: [
      { value: "staging", label: "Staging" },
      { value: "prod", label: "Production", recommended: true } ] },
    { id: "checks", type: "multi", prompt: "Which checks?", options: [
      { value: "lint", label: "Lint" }, { value: "test", label: "Tests" } ] },
  ],
};

async function connect(args, onElicit) {
  const client = new Client(
    { name: "sdk-host", version: "1.0.0" },
    { capabilities: onElicit ? { elicitation: {} } : {} },
  );
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, onElicit);
  const transport = new StdioClientTransport({
    command: piAsk,
    args: ["mcp", "--queue", queue, ...args],
    env: { HOME: home, PATH: process.env.PATH ?? "" },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => { stderr += chunk; });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

const call = (client) => client.callTool({ name: "ask_user", arguments: questions }, undefined, {
  timeout: 60_000,
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const scenarios = {
  // The host's form answers with labels (and a word matching no option).
  async labels() {
    const { client, stderr } = await connect(["--elicit", "always"], async () => ({
      action: "accept",
      content: { env: "Production", checks: ["Lint", "fuzzing"] },
    }));
    const result = await call(client);
    await client.close();
    return { result, stderr: stderr() };
  },
  // The person declines the host's form, then closes it (after reading it for a moment).
  async decline() {
    const texts = [];
    const outcomes = [];
    for (const action of ["decline", "cancel"]) {
      const { client } = await connect(["--elicit", "always"], async () => {
        await sleep(1200);
        return { action };
      });
      const result = await call(client);
      texts.push(result.content[0].text);
      outcomes.push(result.structuredContent.outcome);
      await client.close();
    }
    return { texts, outcomes };
  },
  // A host with nobody at its form declines every form at once (as headless hosts do): the ask
  // is not ended by that; it waits for an inbox until its time runs out, and the host is not
  // sent a form for the next ask.
  async declinedAtOnce() {
    let forms = 0;
    const { client, stderr } = await connect(["--elicit", "always", "--timeout", "2"], async () => {
      forms += 1;
      return { action: "decline" };
    });
    const results = [await call(client), await call(client)];
    await client.close();
    return { forms, results, stderr: stderr() };
  },
  // The ask times out while the host's form is open: the form is cancelled (the SDK aborts the
  // handler's signal, and does not send the answer the handler gives after that).
  async cancelled() {
    let aborted = false;
    const { client, stderr } = await connect(["--elicit", "always", "--timeout", "1"],
      (_request, extra) => new Promise((resolve) => {
        extra.signal.addEventListener("abort", () => {
          aborted = true;
          // The person had answered at that moment: the SDK still sends it.
          resolve({ action: "accept", content: { env: "prod" } });
        });
      }));
    const result = await call(client);
    await sleep(500);
    await client.close();
    return { result, aborted, stderr: stderr() };
  },
  // The host quits while an ask waits for an inbox: the SDK closes stdin (then SIGTERM two
  // seconds later); the ask is withdrawn at once, not after seconds.
  async quit() {
    const { client } = await connect(["--elicit", "never"]);
    const pending = call(client).catch(() => null);
    let id;
    for (let i = 0; i < 200 && !id; i++) {
      await sleep(25);
      id = existsSync(queue)
        ? readdirSync(queue).find((n) => n.endsWith(".ask.json"))?.split(".")[0]
        : undefined;
    }
    const started = Date.now();
    const closing = client.close();
    let withdrawnAfter = null;
    while (Date.now() - started < 1500) {
      if (existsSync(join(queue, `${id}.withdrawn`))) {
        withdrawnAfter = Date.now() - started;
        break;
      }
      await sleep(10);
    }
    await closing;
    await pending;
    return { id, withdrawnAfter };
  },
};

try {
  const seen = await scenarios[scenario]();
  console.log(JSON.stringify(seen));
  process.exit(0);
} catch (error) {
  console.error(error?.stack ?? String(error));
  process.exit(1);
}
