// An agent on another machine, as the official MCP TypeScript SDK's Streamable HTTP client sees
// `pi-ask mcp --http`. Run by tests/mcp_http.rs: `node http-host.mjs <scenario> <url> <token>`;
// prints one JSON line of what it saw, exits 1 on an unexpected error.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [scenario, url, token] = process.argv.slice(2);

const questions = {
  title: "Deploy",
  questions: [
    { id: "env", prompt: "Where to?", options: [
      { value: "staging", label: "Staging" },
      { value: "prod", label: "Production", recommended: true } ] },
  ],
};

async function connect(headers) {
  const client = new Client({ name: "remote-agent", version: "2.0.0" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

const scenarios = {
  // The agent asks; a person answers elsewhere (the test, through the web page).
  async call() {
    const client = await connect({ Authorization: `Bearer ${token}` });
    const tools = await client.listTools();
    const result = await client.callTool({ name: "ask_user", arguments: questions }, undefined, {
      timeout: 60_000,
    });
    await client.close();
    return { tools: tools.tools.map((t) => t.name), result };
  },
  // Without the token, or with another, the server refuses before MCP starts.
  async refused() {
    const seen = {};
    for (const [name, headers] of [["none", {}], ["wrong", { Authorization: "Bearer nope" }]]) {
      try {
        await connect(headers);
        seen[name] = "connected";
      } catch (error) {
        seen[name] = { code: error.code ?? null, message: String(error.message ?? error) };
      }
    }
    return seen;
  },
};

try {
  const seen = await scenarios[scenario]();
  console.log(JSON.stringify(seen));
  process.exit(0);
} catch (error) {
  console.error(error);
  process.exit(1);
}
