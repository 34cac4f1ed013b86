// A trusted in-process bridge for tests: answers every ask_user form it hears start on pi.events,
// first with an unknown option value (refused), then properly; notes each submit-result in
// $HOME/remote.log, with the answers of each completed event.
import { appendFileSync } from "node:fs";
import { join } from "node:path";

import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  const log = join(process.env.HOME ?? ".", "remote.log");
  pi.events.on("@geoqiao/pi-ask:submit-result", (data) => appendFileSync(log, `${JSON.stringify(data)}\n`));
  // A bridge written for the original reads the answers straight off the completed event's result.
  pi.events.on("@geoqiao/pi-ask:completed", (done: any) =>
    appendFileSync(log, `completed ${JSON.stringify({ flowId: done.flowId, answers: done.result?.answers })}\n`),
  );
  pi.events.on("@geoqiao/pi-ask:started", (started: any) => {
    const submit = (requestId: string, values: string[], note?: string) =>
      pi.events.emit("@geoqiao/pi-ask:submit", {
        version: 1,
        requestId,
        flowId: started.flowId,
        response: { kind: "answer", answers: { env: { values, ...(note ? { note } : {}) } } },
      });
    setTimeout(() => {
      submit("r1", ["approve"]);
      submit("r2", ["prod"], "after lunch");
    }, 200);
  });
}
