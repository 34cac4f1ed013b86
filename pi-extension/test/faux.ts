// A scripted model for tests: registers pi-ai's faux provider (`--provider faux --model faux-1`)
// and answers each model call with the next step of the JSON script named by PI_ASK_FAUX_SCRIPT:
// `{"toolCall": {"name": ..., "arguments": {...}, "id": ...}}` or `{"text": "..."}`.
import { readFileSync } from "node:fs";

import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { fauxAssistantMessage, fauxProvider, fauxText, fauxToolCall } from "@earendil-works/pi-ai";

type Step = { text: string } | { toolCall: { name: string; arguments: Record<string, unknown>; id?: string } };

export default function (pi: ExtensionAPI) {
  const faux = fauxProvider({ provider: "faux", models: [{ id: "faux-1" }] });
  const file = process.env.PI_ASK_FAUX_SCRIPT;
  const steps: Step[] = file ? JSON.parse(readFileSync(file, "utf8")) : [];
  faux.setResponses(
    steps.map((step) =>
      "text" in step
        ? fauxAssistantMessage(fauxText(step.text))
        : fauxAssistantMessage(fauxToolCall(step.toolCall.name, step.toolCall.arguments, { id: step.toolCall.id }), {
            stopReason: "toolUse",
          }),
    ),
  );
  pi.registerProvider(faux.provider);
  // pi takes prompts only once its startup is over, which is when sessions start: the footer says
  // so, and tests wait for it before typing.
  pi.on("session_start", (_event, ctx) => {
    if (ctx.hasUI) ctx.ui.setStatus("faux", "faux ready");
  });
}
