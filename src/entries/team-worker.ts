// Worker thread entry of the team's synchronous store (bundled beside each Node entry as timebox-store.mjs by npm run
// build): the store's client over Node's own sockets, serving the session's thread (src/adapters/team/bridge.ts).

import { parentPort, workerData } from "node:worker_threads";
import { nodeConnector, openStore } from "../adapters/team/client.ts";
import { type StoreWorkerData, serveStore } from "../adapters/team/store-worker.ts";

const data = workerData as StoreWorkerData;
if (parentPort !== null) {
	const { url, scripts, connectMs, callMs } = data;
	serveStore(parentPort, data.buffer, openStore(url, scripts, { connectMs, callMs, connector: nodeConnector }));
}
