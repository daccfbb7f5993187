// A tools/list catalog of 16 zod 4 schemas, written for a probe of the general checker
// (tests/generated_schemas.rs) by someone who had not read this repository's other catalogs:
// each tool's inputSchema is z.toJSONSchema(schema) at zod's defaults (draft 2020-12,
// io "output"), or with `--input`, { io: "input" }. `duration_only` (z.iso.duration(), whose
// pattern has lookaheads the catalog reader refuses by name) is left out.
//
// Packages are resolved from $GEN_NODE_DIR (default /tmp/gen/node); see README.md.
import { createRequire } from 'node:module';

const require = createRequire((process.env.GEN_NODE_DIR ?? '/tmp/gen/node') + '/');
const { z } = require('zod');
const input = process.argv.includes('--input');
const T = {};
T.search_web = z.object({
  query: z.string().min(1).max(400).describe("Search query"),
  max_results: z.number().int().min(1).max(50).default(10),
  safe_search: z.enum(["off","moderate","strict"]).default("moderate"),
  site: z.string().optional(),
  freshness_days: z.number().int().gt(0).lt(3650).nullable().optional(),
});
const Attendee = z.object({ email: z.email(), name: z.string().optional(), optional: z.boolean().default(false) });
T.create_calendar_event = z.object({
  title: z.string().min(1).max(200),
  start: z.iso.datetime({offset: true}),
  end: z.iso.datetime(),
  date: z.iso.date().optional(),
  attendees: z.array(Attendee).max(100).default([]),
  recurrence: z.object({ freq: z.enum(["daily","weekly","monthly"]), interval: z.number().int().min(1).max(365).default(1) }).optional(),
  priority: z.enum(["low","medium","high"]).default("medium"),
}).describe("Create a calendar event");
T.send_notification = z.object({
  channel: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("email"), to: z.email(), subject: z.string().max(120) }),
    z.object({ kind: z.literal("slack"), channel: z.string().regex(/^#[a-z0-9_-]{1,80}$/) }),
    z.object({ kind: z.literal("webhook"), url: z.url(), headers: z.record(z.string(), z.string()).optional() }),
  ]),
  message: z.string().min(1).max(2000),
  level: z.union([z.literal(10), z.literal(20), z.literal(40)]).default(20),
});
const TreeNode = z.object({
  name: z.string().min(1),
  is_dir: z.boolean(),
  get children() { return z.array(TreeNode).optional(); },
  size_bytes: z.number().int().nonnegative().optional(),
});
T.create_tree = z.object({ root: TreeNode, overwrite: z.boolean().default(false) });
T.transfer_funds = z.object({
  from_account: z.string().regex(/^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$/),
  to_account: z.string().regex(/^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$/),
  amount: z.number().positive().max(1000000).multipleOf(0.01),
  currency: z.enum(["USD","EUR","GBP"]),
  memo: z.string().max(140).nullish(),
  idempotency_key: z.uuid(),
});
T.query_db = z.object({
  sql: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).default({}),
  limit: z.number().int().min(1).max(10000).default(100),
  sort: z.tuple([z.string(), z.enum(["asc","desc"])]).optional(),
});
T.plot_route = z.object({
  waypoints: z.array(z.tuple([z.number().min(-90).max(90), z.number().min(-180).max(180)])).min(2).max(25),
  mode: z.enum(["driving","walking","cycling"]).default("driving"),
  extra_point: z.tuple([z.number(), z.number()], z.string()).optional(),
});
T.edit_file = z.strictObject({
  path: z.string().min(1).max(4096),
  edits: z.array(z.strictObject({ old_text: z.string(), new_text: z.string() })).min(1),
  dry_run: z.boolean().optional(),
});
T.http_request = z.object({
  method: z.enum(["GET","POST","PUT","DELETE","PATCH"]),
  url: z.url(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown()), z.string()]).nullable().optional(),
  timeout_ms: z.number().int().min(100).max(60000).multipleOf(100).default(5000),
});
T.run_shell = z.looseObject({
  command: z.array(z.string()).nonempty(),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
});
T.lookup_user = z.object({
  user: z.union([z.uuid(), z.email(), z.number().int().positive()]).describe("id, email or numeric id"),
  fields: z.array(z.enum(["name","email","roles","created_at"])).default(["name"]),
});
T.schedule_task = z.object({
  task_name: z.string().regex(/^[a-z][a-z0-9_]*$/).max(64),
  run_at: z.iso.datetime().optional(),
  at_time: z.iso.time().optional(),
  retries: z.int().min(0).max(10).default(3),
  backoff_factor: z.number().min(1).max(10).default(2),
  ip: z.ipv4().optional(),
  ip6: z.ipv6().optional(),
});
const Address = z.object({ street: z.string(), city: z.string(), postal_code: z.string().regex(/^\d{5}(-\d{4})?$/), country: z.string().length(2).default("US") });
T.place_order = z.object({
  customer_email: z.email(),
  shipping: Address,
  billing: Address.optional(),
  items: z.array(z.object({ sku: z.string(), qty: z.int().min(1), unit_price: z.number().min(0) })).min(1).max(50),
  coupon: z.string().nullable().optional(),
});
T.draw_shape = z.object({
  shape: z.union([z.object({ radius: z.number().positive() }), z.object({ width: z.number().positive(), height: z.number().positive() })]),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/).default("#000000"),
  label: z.string().optional().describe("Optional label"),
});
T.intersect_meta = z.object({
  item: z.intersection(z.object({ id: z.string() }), z.object({ version: z.int().min(1) })),
  tags: z.array(z.string()).max(5).optional(),
});
T.nullable_stuff = z.object({
  a: z.nullable(z.string()),
  b: z.optional(z.number()),
  c: z.string().nullish(),
  d: z.literal(["x", "y"]),
  e: z.enum({ Red: "red", Green: "green" }),
});
// Added after the probe (2026-12-06), not by its author: zod's record of an enum's keys, which
// requires every key that `properties` does not declare (`z.partialRecord` requires none).
T.set_limits = z.object({
  limits: z.record(z.enum(["cpu", "memory"]), z.string()).describe("every resource's limit"),
  labels: z.partialRecord(z.enum(["team", "env"]), z.string()).optional(),
}).describe("Set a container's resource limits");
const tools = [];
for (const [name, schema] of Object.entries(T)) {
  const inputSchema = z.toJSONSchema(schema, input ? { io: 'input' } : {});
  tools.push({ name: 'zod_' + name, description: schema.description || 'zod tool ' + name, inputSchema });
}
console.log(JSON.stringify(tools, null, 1));
