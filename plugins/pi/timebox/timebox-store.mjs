// Timebox's team store worker, bundled from src/entries/team-worker.ts by npm run build. Do not edit.

// src/entries/team-worker.ts
import { parentPort, workerData } from "node:worker_threads";

// src/adapters/team/client.ts
import { createHash } from "node:crypto";
import { connect as tcpConnect } from "node:net";
import { connect as tlsConnect } from "node:tls";

// src/adapters/team/resp.ts
var ReplyError = class {
  constructor(message) {
    this.message = message;
  }
  message;
};
function encodeCommand(args) {
  let text = `*${args.length}\r
`;
  for (const arg of args) {
    const value = String(arg);
    text += `$${Buffer.byteLength(value)}\r
${value}\r
`;
  }
  return Buffer.from(text);
}
var CR = 13;
var SIMPLE = 43;
var ERROR = 45;
var INTEGER = 58;
var BULK = 36;
var ARRAY = 42;
var MINUS = 45;
function numberAt(buffer, start, end) {
  const negative = buffer[start] === MINUS;
  let value = 0;
  for (let index = negative ? start + 1 : start; index < end; index++)
    value = value * 10 + (buffer[index] - 48);
  return negative ? -value : value;
}
function readAt(buffer, offset) {
  const end = buffer.indexOf(CR, offset);
  if (end < 0 || end + 1 >= buffer.length) return null;
  const next = end + 2;
  switch (buffer[offset]) {
    case SIMPLE:
      return { value: buffer.toString("utf8", offset + 1, end), next };
    case ERROR:
      return { value: new ReplyError(buffer.toString("utf8", offset + 1, end)), next };
    case INTEGER:
      return { value: numberAt(buffer, offset + 1, end), next };
    case BULK: {
      const length = numberAt(buffer, offset + 1, end);
      if (length < 0) return { value: null, next };
      if (buffer.length < next + length + 2) return null;
      return { value: buffer.toString("utf8", next, next + length), next: next + length + 2 };
    }
    case ARRAY: {
      const count = numberAt(buffer, offset + 1, end);
      if (count < 0) return { value: null, next };
      const items = [];
      let at = next;
      for (let index = 0; index < count; index++) {
        const item = readAt(buffer, at);
        if (item === null) return null;
        items.push(item.value);
        at = item.next;
      }
      return { value: items, next: at };
    }
    default:
      throw new Error(
        `the store's reply is not Redis's protocol (it starts with ${JSON.stringify(buffer.toString("utf8", offset, Math.min(end, offset + 20)))})`
      );
  }
}
var ReplyReader = class {
  pending = Buffer.alloc(0);
  /** Takes what arrived; returns the replies it completed, in order. Throws on bytes that are not RESP 2. */
  push(chunk) {
    const buffer = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const replies = [];
    let offset = 0;
    while (offset < buffer.length) {
      const read = readAt(buffer, offset);
      if (read === null) break;
      replies.push(read.value);
      offset = read.next;
    }
    this.pending = buffer.subarray(offset);
    return replies;
  }
};

// src/adapters/team/client.ts
var nodeConnector = (host, port, tls) => {
  if (!tls) return { connection: tcpConnect({ host, port }), ready: "connect" };
  return { connection: tlsConnect({ host, port, servername: isIp(host) ? void 0 : host }), ready: "secureConnect" };
};
function isIp(host) {
  return /^[\d.]+$/.test(host) || host.includes(":");
}
function addressOf(url) {
  const parsed = new URL(url);
  const db = Number(parsed.pathname.slice(1) || "0");
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    // The address names its port (config.ts refuses one without).
    port: Number(parsed.port),
    tls: parsed.protocol === "rediss:",
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    db: Number.isInteger(db) && db > 0 ? db : 0
  };
}
var Link = class {
  constructor(connection, ready, connectMs, gone) {
    this.connection = connection;
    this.gone = gone;
    connection.setNoDelay?.(true);
    this.timer = setTimeout(() => this.end(`connect: no answer within ${connectMs} ms`), connectMs);
    this.timer.unref?.();
    connection.once(ready, () => clearTimeout(this.timer));
    connection.on("data", (chunk) => this.read(chunk));
    connection.on("error", (error) => this.end(error.message));
    connection.on("close", () => this.end("the store closed the connection"));
  }
  connection;
  gone;
  waiting = [];
  reader = new ReplyReader();
  ended = null;
  timer;
  /** Sends a command on this open connection (the store's current one); `answer` gets its reply. */
  send(args, answer) {
    this.waiting.push({ answer });
    this.connection.ref();
    this.connection.write(encodeCommand(args));
  }
  /** Ends the connection: every command still waiting fails with `why`. */
  end(why) {
    if (this.ended !== null) return;
    this.ended = why;
    clearTimeout(this.timer);
    this.connection.destroy();
    this.gone(why);
    for (const waiting of this.waiting.splice(0)) waiting.answer(new ReplyError(why));
  }
  read(chunk) {
    let replies;
    try {
      replies = this.reader.push(chunk);
    } catch (error) {
      this.end(error.message);
      return;
    }
    for (const reply of replies) {
      if (this.ended !== null) return;
      this.waiting.shift()?.answer(reply);
    }
    if (this.waiting.length === 0 && this.ended === null) this.connection.unref();
  }
};
function openStore(url, scripts, options) {
  const address = addressOf(url);
  const connector = options.connector;
  const shas = /* @__PURE__ */ new Map();
  let link = null;
  const sha = (name, lua) => {
    let known = options.shas?.[name] ?? shas.get(name);
    if (known === void 0) {
      known = createHash("sha1").update(lua).digest("hex");
      shas.set(name, known);
    }
    return known;
  };
  const current = () => {
    if (link !== null) return link;
    const { connection, ready } = connector(address.host, address.port, address.tls);
    const made = new Link(connection, ready, options.connectMs, () => {
      link = null;
    });
    link = made;
    const setUp = (reply) => {
      if (reply instanceof ReplyError) made.end(reply.message);
    };
    if (address.password !== "") {
      made.send(address.user === "" ? ["AUTH", address.password] : ["AUTH", address.user, address.password], setUp);
    }
    if (address.db !== 0) made.send(["SELECT", address.db], setUp);
    return made;
  };
  const command = (args, ms) => new Promise((resolve) => {
    const on = current();
    const timer = setTimeout(() => on.end(`no answer within ${ms} ms`), ms);
    timer.unref?.();
    on.send(args, (reply) => {
      clearTimeout(timer);
      resolve(reply);
    });
  });
  const evalArgs = (name, keys, args) => {
    const lua = scripts[name];
    if (lua === void 0) throw new Error(`no script named ${name}`);
    return { lua, rest: [keys.length, ...keys, ...args] };
  };
  return {
    async call(name, keys, args, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      const left = () => Math.max(1, Math.min(options.callMs, deadline - Date.now()));
      const { lua, rest } = evalArgs(name, keys, args);
      let reply = await command(["EVALSHA", sha(name, lua), ...rest], left());
      if (reply instanceof ReplyError && reply.message.startsWith("NOSCRIPT")) {
        reply = await command(["EVAL", lua, ...rest], left());
      }
      return reply instanceof ReplyError ? { ok: false, error: reply.message } : { ok: true, value: reply };
    },
    post(name, keys, args) {
      const { lua, rest } = evalArgs(name, keys, args);
      void command(["EVALSHA", sha(name, lua), ...rest], options.callMs).then((reply) => {
        if (reply instanceof ReplyError && reply.message.startsWith("NOSCRIPT"))
          void command(["EVAL", lua, ...rest], options.callMs);
      });
    },
    close() {
      link?.end("closed");
    }
  };
}

// src/adapters/team/store-worker.ts
function writeReply(buffer, id, reply) {
  const flag = new Int32Array(buffer, 0, 2);
  const bytes = new Uint8Array(buffer, 8);
  const encoder = new TextEncoder();
  let text = encoder.encode(JSON.stringify(reply));
  if (text.length > bytes.length) text = encoder.encode(JSON.stringify({ ok: false, error: "reply too large" }));
  bytes.set(text);
  Atomics.store(flag, 1, text.length);
  Atomics.store(flag, 0, id);
  Atomics.notify(flag, 0);
}
function serveStore(port, buffer, store) {
  port.on("message", (call) => {
    if (call.id === 0) {
      store.post(call.script, call.keys, call.args);
      return;
    }
    void store.call(call.script, call.keys, call.args, call.timeoutMs).then((reply) => writeReply(buffer, call.id, reply));
  });
}

// src/entries/team-worker.ts
var data = workerData;
if (parentPort !== null) {
  const { url, scripts, connectMs, callMs } = data;
  serveStore(parentPort, data.buffer, openStore(url, scripts, { connectMs, callMs, connector: nodeConnector }));
}
