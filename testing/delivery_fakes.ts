// Local stand-ins for the lead destinations: a webhook receiver that verifies the Standard Webhooks
// signature on its own (node:crypto, not our signer), a GraphQL endpoint shaped like Pipefy's, a REST one
// shaped like Trello's, and an SMTP server (smtp-server). Each can be stopped and started on the same
// port, or told to answer 500 or 400.
import { createHmac, timingSafeEqual } from "node:crypto";
import { SMTPServer } from "smtp-server";

export type FakeMode = "ok" | "500" | "400";

export interface FakeDestination<T> {
  url: string;
  port: number;
  /** What arrived and was accepted (answered ok). */
  received: T[];
  /** Every request or message that reached the fake, accepted or not. */
  hits: number;
  mode: FakeMode;
  /** HTTP fakes: a request whose body this matches gets a 500 whatever the mode (a lead the receiver chokes on). */
  chokesOn?: (body: string) => boolean;
  down(): Promise<void>;
  up(): Promise<void> | void;
}

function httpFake<T>(
  path: string,
  handle: (
    req: Request,
    body: string,
    fake: FakeDestination<T>,
  ) => { status: number; json: unknown; record?: T },
): FakeDestination<T> {
  let server: Deno.HttpServer | undefined;
  const fake: FakeDestination<T> = {
    url: "",
    port: 0,
    received: [],
    hits: 0,
    mode: "ok",
    async down() {
      await server?.shutdown();
      server = undefined;
    },
    up() {
      server = Deno.serve({ port: fake.port, hostname: "127.0.0.1", onListen() {} }, async (req) => {
        fake.hits++;
        const body = await req.text();
        if (fake.mode === "500" || fake.chokesOn?.(body)) {
          return Response.json({ error: "temporarily broken" }, { status: 500 });
        }
        if (fake.mode === "400") return Response.json({ error: "invalid value for field" }, { status: 400 });
        if (new URL(req.url).pathname !== path) return new Response("not found", { status: 404 });
        const answer = handle(req, body, fake);
        if (answer.record !== undefined && answer.status < 300) fake.received.push(answer.record);
        return answer.json === null
          ? new Response(null, { status: answer.status })
          : Response.json(answer.json, { status: answer.status });
      });
      fake.port = (server.addr as Deno.NetAddr).port;
      fake.url = `http://127.0.0.1:${fake.port}`;
    },
  };
  fake.up();
  return fake;
}

export interface WebhookHit {
  id: string;
  timestamp: number;
  body: Record<string, unknown>;
}

/** A receiver that accepts only correctly signed, fresh deliveries (401 otherwise), as a real one should. */
export function fakeWebhook(secret: string): FakeDestination<WebhookHit> {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return httpFake<WebhookHit>("/hooks/leads", (req, body) => {
    const id = req.headers.get("webhook-id") ?? "";
    const timestamp = Number(req.headers.get("webhook-timestamp"));
    const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
    const signatures = (req.headers.get("webhook-signature") ?? "").split(" ");
    const valid = signatures.some((s) => {
      const [version, mac] = s.split(",");
      const given = Buffer.from(mac ?? "", "base64");
      return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!valid || !id || !Number.isFinite(timestamp)) {
      return { status: 401, json: { error: "bad signature" } };
    }
    return { status: 204, json: null, record: { id, timestamp, body: JSON.parse(body) } };
  });
}

export interface PipefyHit {
  authorization: string | null;
  query: string;
  input: { pipe_id: string; title: string; fields_attributes: { field_id: string; field_value: string }[] };
}

/** A GraphQL endpoint answering createCard like Pipefy's: errors in a 200 answer for a wrong pipe. */
export function fakePipefy(token: string): FakeDestination<PipefyHit> {
  let next = 1000;
  return httpFake<PipefyHit>("/graphql", (req, body) => {
    const authorization = req.headers.get("authorization");
    if (authorization !== `Bearer ${token}`) return { status: 401, json: { error: "Unauthorized" } };
    const { query, variables } = JSON.parse(body);
    if (!/createCard\(input: \$input\)/.test(query)) {
      return { status: 200, json: { errors: [{ message: "unknown operation" }] } };
    }
    if (variables.input.pipe_id === "404") {
      return {
        status: 200,
        json: {
          data: { createCard: null },
          errors: [{ message: "Pipe not found", extensions: { code: "NOT_FOUND" } }],
        },
      };
    }
    const id = String(next++);
    return {
      status: 200,
      json: { data: { createCard: { card: { id } } } },
      record: { authorization, query, input: variables.input },
    };
  });
}

export interface TrelloHit {
  authorization: string | null;
  url: string;
  card: { idList: string; name: string; desc: string; pos: string; due?: string };
}

/** A REST endpoint answering POST /1/cards like Trello's. */
export function fakeTrello(key: string, token: string): FakeDestination<TrelloHit> {
  let next = 0;
  return httpFake<TrelloHit>("/1/cards", (req, body) => {
    const authorization = req.headers.get("authorization");
    if (authorization !== `OAuth oauth_consumer_key="${key}", oauth_token="${token}"`) {
      return { status: 401, json: { message: "invalid key" } };
    }
    const id = (next++).toString(16).padStart(24, "0");
    return {
      status: 200,
      json: { id, shortUrl: `https://trello.example/c/${id}` },
      record: { authorization, url: req.url, card: JSON.parse(body) },
    };
  });
}

export interface SmtpHit {
  from: string;
  to: string[];
  raw: string;
}

/** An SMTP server (no TLS, any or no login); "500" answers 451 (try later), "400" answers 550 (refused). */
export async function fakeSmtp(): Promise<FakeDestination<SmtpHit>> {
  let server: SMTPServer | undefined;
  const fake: FakeDestination<SmtpHit> = {
    url: "",
    port: 0,
    received: [],
    hits: 0,
    mode: "ok",
    down: () =>
      new Promise<void>((resolve) => {
        if (!server) return resolve();
        server.close(() => resolve());
        server = undefined;
      }),
    async up() {
      const smtp = server = new SMTPServer({
        authOptional: true,
        allowInsecureAuth: true,
        disabledCommands: ["STARTTLS"],
        logger: false,
        onAuth(auth, _session, callback) {
          callback(null, { user: auth.username });
        },
        onData(stream, session, callback) {
          let raw = "";
          const decoder = new TextDecoder();
          stream.on("data", (chunk: Uint8Array) => (raw += decoder.decode(chunk, { stream: true })));
          stream.on("end", () => {
            fake.hits++;
            if (fake.mode !== "ok") {
              const [code, text] = fake.mode === "500"
                ? [451, "try again later"]
                : [550, "mailbox unavailable"];
              return callback(Object.assign(new Error(text), { responseCode: code }));
            }
            fake.received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
            });
            callback();
          });
        },
      });
      await new Promise<void>((resolve) => smtp.server.listen(fake.port, "127.0.0.1", resolve));
      fake.port = (smtp.server.address() as { port: number }).port;
      fake.url = `smtp://127.0.0.1:${fake.port}`;
    },
  };
  await fake.up();
  return fake;
}

export interface WhatsappHit {
  authorization: string | null;
  /** The message as sent: `to`, `type: "template"`, the template's name, language and parameters. */
  message: { messaging_product: string; to: string; type: string; template: { name: string } };
}

/** An HTTP endpoint answering POST /v23.0/{phoneNumberId}/messages like the WhatsApp Cloud API. */
export function fakeWhatsapp(token: string, phoneNumberId: string): FakeDestination<WhatsappHit> {
  let next = 0;
  return httpFake<WhatsappHit>(`/v23.0/${phoneNumberId}/messages`, (req, body) => {
    const authorization = req.headers.get("authorization");
    if (authorization !== `Bearer ${token}`) {
      return { status: 401, json: { error: { code: 190, message: "Invalid OAuth access token" } } };
    }
    const message = JSON.parse(body);
    return {
      status: 200,
      json: {
        messaging_product: "whatsapp",
        contacts: [{ input: message.to, wa_id: String(message.to).replace(/^\+/, "") }],
        messages: [{ id: `wamid.fake${next++}` }],
      },
      record: { authorization, message },
    };
  });
}
