#!/usr/bin/env node
// A relay for the rules-oracle engine protocol v1 (docs/protocol.md), in plain Node.js.
//
// It sits between the oracle (its stdin/stdout) and an engine (a child process, by default
// `rules-oracle serve --game G`), passes every request and response through unchanged, and
// can plant one fault by flag, so you can watch `rules-oracle conform` catch it. No npm
// packages: it runs on any machine with Node 18 or later.
//
//   node relay.mjs --game pillars                         a faithful relay
//   node relay.mjs --fault lie-state --after 40 --game pillars
//   node relay.mjs --fault refuse-legal --type buy_resources -- my-engine --flag

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const FAULTS = {
  "none": "relay faithfully",
  "lie-state": "change one value of each state answer (--path, else the first number)",
  "refuse-legal": "refuse an event (of --type) as illegal without passing it on",
  "accept-illegal": "answer ok to an event (of --type) the engine refuses",
  "drop-legal": "leave the last event out of each legal answer",
  "other-rule": "name another rule id (OTHER-RULE-01) in each refusal",
  "garbage": "answer with a line that is not JSON",
  "wrong-shape": "answer with a JSON object of the wrong shape",
  "hang": "stop answering (but stay alive)",
  "crash": "exit with code 70 instead of answering",
};

const USAGE = `usage: node relay.mjs [--fault KIND] [--after N] [--type EVENT] [--path PATH]
                      (--game G ... | -- ENGINE_COMMAND ...)

Relays the rules-oracle engine protocol v1 between stdin/stdout and an engine. The engine is
ENGINE_COMMAND, or \`rules-oracle serve --game G\` for each --game. A fault acts once N events
(default 0) have been applied in the current game; then:
${Object.entries(FAULTS).map(([name, what]) => `  ${name.padEnd(15)}${what}`).join("\n")}`;

function usageError(message) {
  process.stderr.write(`relay: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const options = { fault: "none", after: 0, type: null, path: null, games: [], engine: null };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--") {
      options.engine = argv.slice(i + 1);
      break;
    }
    if (flag === "--help" || flag === "-h") {
      process.stdout.write(USAGE + "\n");
      process.exit(0);
    }
    const value = argv[++i];
    if (!["--fault", "--after", "--type", "--path", "--game"].includes(flag)) {
      usageError(`unknown option ${flag}`);
    }
    if (value === undefined) usageError(`${flag} needs a value`);
    if (flag === "--fault") {
      if (!(value in FAULTS)) usageError(`unknown fault ${value}`);
      options.fault = value;
    } else if (flag === "--after") {
      if (!/^\d+$/.test(value)) usageError(`--after needs a whole number, not ${value}`);
      options.after = Number(value);
    } else if (flag === "--game") {
      options.games.push(value);
    } else {
      options[flag.slice(2)] = value;
    }
  }
  if (options.engine === null) {
    if (options.games.length === 0) usageError("name the engine after -- or give --game");
    options.engine = ["rules-oracle", "serve", ...options.games.flatMap((g) => ["--game", g])];
  }
  if (options.engine.length === 0) usageError("the engine command after -- is empty");
  return options;
}

// The engine behind the relay: one line out, one line back (null once it has exited).
class Engine {
  constructor(argv) {
    this.child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
    this.buffered = [];
    this.waiting = [];
    this.ended = false;
    this.exited = new Promise((resolve) => {
      this.child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
      this.child.on("error", (error) => {
        process.stderr.write(`relay: cannot run ${argv[0]}: ${error.message}\n`);
        process.exit(127);
      });
    });
    this.child.stdin.on("error", () => {}); // a dead engine shows as a missing answer
    const lines = createInterface({ input: this.child.stdout, crlfDelay: Infinity });
    lines.on("line", (line) => {
      const waiter = this.waiting.shift();
      if (waiter) waiter(line);
      else this.buffered.push(line);
    });
    lines.on("close", () => {
      this.ended = true;
      for (const waiter of this.waiting.splice(0)) waiter(null);
    });
  }

  ask(line) {
    this.child.stdin.write(line + "\n");
    return new Promise((resolve) => {
      if (this.buffered.length > 0) resolve(this.buffered.shift());
      else if (this.ended) resolve(null);
      else this.waiting.push(resolve);
    });
  }

  close() {
    this.child.stdin.end();
    return this.exited;
  }
}

function lie(value) {
  if (typeof value === "number") return value + 1;
  if (typeof value === "boolean") return !value;
  return "planted-lie";
}

// One relay session: the planted fault and how many events the current game has applied.
class Relay {
  constructor(options, engine) {
    this.options = options;
    this.engine = engine;
    this.applied = 0;
  }

  get active() {
    return this.options.fault !== "none" && this.applied >= this.options.after;
  }

  hits(event) {
    const type = this.options.type;
    return this.active && (type === null || (event !== null && event?.type === type));
  }

  // The answer to one request line: a line to write, or null for no answer (hang).
  async handle(line) {
    const request = parseJSON(line); // not JSON: the engine answers with its own error
    const op = request !== null && typeof request === "object" ? request?.op : undefined;
    if (op === "new_game") this.applied = 0;
    const fault = this.options.fault;
    if (this.active && fault === "garbage") return "planted fault: this is not JSON";
    if (this.active && fault === "wrong-shape") return JSON.stringify({ ok: "planted fault" });
    if (this.active && fault === "hang") return null;
    if (this.active && fault === "crash") {
      process.stderr.write(`relay: planted fault: crash on ${line.slice(0, 80)}\n`);
      process.exit(70);
    }
    if (op === "apply" && fault === "refuse-legal" && this.hits(request.event)) {
      const message = "planted fault: refused without asking the engine";
      return JSON.stringify({ ok: false, illegal: true, rule: null, message });
    }
    const answer = await this.engine.ask(line);
    if (answer === null) {
      const code = await this.engine.exited;
      process.stderr.write(`relay: the engine exited (code ${code}) without answering\n`);
      process.exit(code === 0 ? 1 : code);
    }
    const response = parseJSON(answer);
    if (response === null || typeof response !== "object") return answer; // garbage goes on
    const planted = this.plant(op, request, response);
    if ((op === "apply" || op === "next") && response.ok === true) this.applied += 1;
    return planted === null ? answer : JSON.stringify(planted);
  }

  // The response with the fault planted in it, or null to pass the engine's line on as is.
  plant(op, request, response) {
    const fault = this.options.fault;
    if (op === "hello" && response.ok === true && typeof response.name === "string") {
      const label = fault === "none" ? "" : ` [fault ${fault}]`;
      return { ...response, name: `node relay for ${response.name}${label}` };
    }
    if (op === "apply" && fault === "accept-illegal" && response.illegal === true) {
      return this.hits(request.event) ? { ok: true } : null;
    }
    if (op === "apply" && fault === "other-rule" && this.active && response.illegal === true) {
      return { ...response, rule: "OTHER-RULE-01" };
    }
    if (op === "state" && fault === "lie-state" && this.active && response.ok === true) {
      const values = { ...response.values };
      const path =
        this.options.path ?? Object.keys(values).find((p) => typeof values[p] === "number");
      if (path === undefined || !(path in values)) return null;
      values[path] = lie(values[path]);
      return { ...response, values };
    }
    if (op === "legal" && fault === "drop-legal" && this.active && response.ok === true) {
      const events = response.events ?? [];
      return events.length === 0 ? null : { ...response, events: events.slice(0, -1) };
    }
    return null;
  }
}

// A JSON value, or undefined for text that is not JSON.
function parseJSON(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function main() {
  process.stdout.on("error", () => process.exit(0)); // the oracle has gone: nothing to answer
  const options = parseArgs(process.argv.slice(2));
  const engine = new Engine(options.engine);
  const relay = new Relay(options, engine);
  let hung = false;
  const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of input) {
    if (hung) continue;
    const answer = await relay.handle(line);
    if (answer === null) {
      hung = true;
      continue;
    }
    process.stdout.write(answer + "\n");
    if (parseJSON(line)?.op === "bye" && parseJSON(answer)?.ok === true) {
      process.exit(await engine.close());
    }
  }
  process.exit(await engine.close());
}

main();
