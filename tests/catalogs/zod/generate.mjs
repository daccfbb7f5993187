// Build a tools/list catalog with zod 4 schemas, the way a TypeScript MCP server does.
//
//   node generate.mjs           -> the tools array an McpServer (@modelcontextprotocol/sdk)
//                                  sends: tools registered with registerTool, listed over an
//                                  in-memory transport, captured as the raw JSON-RPC reply.
//   node generate.mjs --direct  -> the same tools with inputSchema = z.toJSONSchema(schema)
//                                  (zod 4 defaults: draft 2020-12, io "output").
//
// Packages are resolved from $GEN_NODE_DIR (default /tmp/gen/node); see README.md.
import { createRequire } from 'node:module';

const require = createRequire((process.env.GEN_NODE_DIR ?? '/tmp/gen/node') + '/');
const { z } = require('zod');
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { InMemoryTransport } = require('@modelcontextprotocol/sdk/inMemory.js');

const Currency = z.enum(['USD', 'EUR', 'GBP', 'JPY']);
const Sku = z.string().regex(/^[A-Z]{3}-\d{4,6}$/).describe('Stock keeping unit, e.g. ABC-12345');
const Address = z.object({
  line1: z.string().min(1).max(100),
  line2: z.string().max(100).nullable(),
  city: z.string().min(1),
  postal_code: z.string().regex(/^[A-Za-z0-9 -]{3,10}$/),
  country: z.string().length(2).describe('ISO 3166-1 alpha-2 code'),
});
const Category = z.object({
  name: z.string().min(1).max(60),
  slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
  get children() {
    return z.array(Category).max(50).optional();
  },
});

const tools = [
  ['search_products', {
    title: 'Search products',
    description: 'Full-text search over the product catalog. Results are sorted by relevance unless `sort` is given.',
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: z.object({
      query: z.string().min(1).max(200),
      category: z.enum(['books', 'electronics', 'garden', 'toys']).optional(),
      price: z.object({ min: z.number().nonnegative(), max: z.number().positive() }).partial().optional(),
      in_stock_only: z.boolean().default(true),
      sort: z.union([z.literal('price_asc'), z.literal('price_desc'), z.literal('newest')]).optional(),
      limit: z.number().int().min(1).max(100).default(20),
    }),
  }],
  ['get_order', {
    description: 'Fetch one order by id.',
    annotations: { readOnlyHint: true },
    inputSchema: z.object({
      order_id: z.uuid(),
      include: z.array(z.enum(['items', 'payments', 'shipments'])).max(3).default(['items']),
    }),
    outputSchema: z.object({
      id: z.uuid(),
      status: z.enum(['pending', 'paid', 'shipped', 'cancelled']),
      total: z.number(),
      currency: Currency,
      placed_at: z.iso.datetime({ offset: true }),
    }),
  }],
  ['create_customer', {
    description: 'Create a customer account.',
    inputSchema: z.object({
      email: z.email(),
      name: z.string().min(1).max(120).describe('Full name as it should appear on invoices'),
      phone: z.string().regex(/^\+[1-9]\d{6,14}$/).optional().describe('E.164 phone number'),
      website: z.url().nullable().optional(),
      birthday: z.iso.date().optional(),
      tags: z.array(z.string().min(1).max(32)).min(0).max(10).default([]),
      marketing_opt_in: z.boolean().default(false),
      shipping_address: Address.optional(),
    }),
  }],
  ['update_shipping_address', {
    description: 'Replace the shipping address of an order that has not shipped yet.',
    annotations: { idempotentHint: true },
    inputSchema: z.object({ order_id: z.uuid(), address: Address }),
  }],
  ['schedule_delivery', {
    description: 'Book a delivery window for an order. The window is [start, end] in RFC 3339.',
    inputSchema: z.object({
      order_id: z.uuid(),
      window: z.tuple([z.iso.datetime({ offset: true }), z.iso.datetime({ offset: true })]),
      preferred_time: z.iso.time().optional(),
      notes: z.string().max(500).nullable().default(null),
    }),
  }],
  ['apply_discount', {
    description: 'Apply a discount to a cart.',
    inputSchema: z.object({
      cart_id: z.string().min(8).max(64),
      discount: z.discriminatedUnion('type', [
        z.object({ type: z.literal('percent'), value: z.number().gt(0).lte(100).multipleOf(0.5) }),
        z.object({ type: z.literal('fixed'), amount_cents: z.number().int().positive(), currency: Currency }),
        z.object({ type: z.literal('free_shipping') }),
      ]),
      code: z.string().regex(/^[A-Z0-9]{4,16}$/).optional(),
    }),
  }],
  ['set_inventory', {
    description: 'Set stock levels for many SKUs at once. Keys are SKUs, values are units on hand.',
    annotations: { destructiveHint: true },
    inputSchema: z.object({
      warehouse: z.enum(['ams', 'fra', 'nyc']),
      counts: z.record(Sku, z.number().int().min(0).max(1_000_000)),
    }),
  }],
  ['replace_category_tree', {
    title: 'Replace category tree',
    description: 'Replace the whole category tree of the store. Categories nest to any depth.',
    annotations: { destructiveHint: true, idempotentHint: true },
    inputSchema: z.object({ root: Category, dry_run: z.boolean().default(true) }),
  }],
  ['refund_payment', {
    description: 'Refund all or part of a captured payment.',
    annotations: { destructiveHint: true, openWorldHint: true },
    inputSchema: z.object({
      payment_id: z.string().startsWith('pay_'),
      amount: z.number().positive().multipleOf(0.01).optional().describe('Omit to refund in full'),
      currency: Currency,
      reason: z.union([z.enum(['duplicate', 'fraudulent', 'requested_by_customer']), z.string().min(10).max(500)]),
      idempotency_key: z.uuid(),
      api_version: z.literal(2).default(2),
    }),
  }],
  ['list_recent_orders', {
    description: 'List orders placed since a given time, newest first.',
    annotations: { readOnlyHint: true },
    inputSchema: z.object({
      since: z.iso.datetime({ offset: true }),
      statuses: z.array(z.enum(['pending', 'paid', 'shipped', 'cancelled'])).min(1).max(4),
      customer_email: z.email().nullable().optional(),
      page_size: z.number().int().positive().max(200).multipleOf(10).default(50),
    }),
  }],
  ['store_status', {
    description: 'Report whether the store is open for orders. Takes no arguments.',
    annotations: { readOnlyHint: true },
  }],
];

if (process.argv.includes('--direct')) {
  const out = tools.map(([name, c]) => ({
    name,
    description: c.description,
    inputSchema: c.inputSchema ? z.toJSONSchema(c.inputSchema) : { type: 'object', properties: {} },
  }));
  console.log(JSON.stringify(out, null, 2));
} else {
  const server = new McpServer({ name: 'shop-agent', version: '1.0.0' });
  for (const [name, config] of tools) server.registerTool(name, config, async () => ({ content: [] }));
  const [client, transport] = InMemoryTransport.createLinkedPair();
  const replies = new Map();
  client.onmessage = (msg) => replies.set(msg.id, msg);
  await server.connect(transport);
  await client.start();
  await client.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {
    protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'dump', version: '0' } } });
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await client.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
  while (!replies.has(2)) await new Promise((r) => setTimeout(r, 10));
  // JSON round trip: what a stdio or HTTP transport would put on the wire.
  const tools_ = JSON.parse(JSON.stringify(replies.get(2).result.tools));
  for (const t of tools_) if (Buffer.byteLength(t.description ?? '') >= 1024) throw new Error(t.name);
  console.log(JSON.stringify(tools_, null, 2));
  await server.close();
}
