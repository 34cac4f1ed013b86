// An MCP server built on the official MCP TypeScript SDK whose one tool, `release`, asks the
// person through the client's form (elicitation/create) and returns the reply as its result.
// Run by tests/hook_claude.rs as a server of Claude Code's: `node eliciting-server.mjs`. (Here
// rather than under tests/: Node resolves packages from the script's folder.)
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "release-server", version: "1.0.0" });

server.registerTool(
  "release",
  { description: "Releases the project; asks the person how." },
  async () => {
    const reply = await server.server.elicitInput({
      mode: "form",
      message: "How should the release go?",
      requestedSchema: {
        type: "object",
        properties: {
          channel: {
            type: "string", title: "Channel", description: "Where to publish?",
            oneOf: [{ const: "beta", title: "Beta" }, { const: "stable", title: "Stable" }],
            default: "beta",
          },
          targets: {
            type: "array", title: "Targets", description: "Which platforms?",
            items: { anyOf: [{ const: "linux", title: "Linux" }, { const: "mac", title: "macOS" }] },
          },
          notify: { type: "boolean", title: "Notify", description: "Tell the team?", default: true },
        },
        required: ["channel"],
      },
    });
    return { content: [{ type: "text", text: `release form: ${JSON.stringify(reply)}` }] };
  },
);

await server.connect(new StdioServerTransport());
