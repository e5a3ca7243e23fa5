import * as t from 'io-ts';
import { inputSha256 } from '@rights-preflight/wire/payment/binding.js';
import type { Asked, AskContext, Product, QuotedOf, Sku } from '../../../src/money-path/product.js';
import { sell } from '../../../src/money-path/sale.js';
import type { ProductListing } from '../../../src/products/listing.js';

// A fourth product, defined in the test tree only (test/README.md, "A product of your own"): it sells an
// "echo" of one URL for a fixed price, observing nothing. It is what a new product is: a folder (this
// one), its wire contract (the codecs below), and a line in the registry (here the fast world's
// `products` option); its `Quoted` is stored as an unlisted product's (streams/purchase/quoted-product.ts),
// so no file of the service is edited to sell it. Its SKU is none of the union's: it types its own quote.

export const ECHO_SKU = 'test.echo.v1';
export const ECHO_PATH = '/v1/test/echo';
export const ECHO_PRICE_MICRO = 1234n;

/** Its wire contract: the request, the free answer, and the paid body (the shape every product's has). */
export const EchoRequest = t.type({ resource: t.string, max_total_micro: t.string }, 'EchoRequest');
export type EchoRequest = t.TypeOf<typeof EchoRequest>;
export const EchoUnavailable = t.type({ available: t.literal(false), charge_micro: t.literal('0') }, 'EchoUnavailable');
export const EchoReport = t.type({ sku: t.literal(ECHO_SKU), purchase_id: t.string, resource: t.string });
export const EchoPaid = t.type(
  {
    version: t.string,
    input_sha256: t.string,
    legal_clearance: t.literal(false),
    report: EchoReport,
    evidence: t.UnknownRecord,
    delivery_proof: t.UnknownRecord,
    payment_settlement: t.UnknownRecord,
  },
  'EchoPaid',
);

interface EchoInput {
  sku: typeof ECHO_SKU;
  resource: string;
  purpose: 'ai-train';
  tier: 'fresh';
  user_class: 'commercial';
  echoed: string;
}
interface EchoAsked {
  input: EchoInput;
  input_sha256: string;
  price_micro: bigint;
  max_total_micro: string;
}
type EchoReading = { version: 'echo-v1'; echoed: string };

/** The product: what differs from every other sale. */
const echo = {
  sku: ECHO_SKU,
  normalize(req: EchoRequest, context: AskContext): EchoAsked {
    // The binding resource is its own endpoint, as for the gate: one question, one purchase per key.
    const input: EchoInput = {
      sku: ECHO_SKU,
      resource: context.baseUrl + ECHO_PATH,
      purpose: 'ai-train',
      tier: 'fresh',
      user_class: 'commercial',
      echoed: req.resource,
    };
    return {
      input,
      input_sha256: inputSha256(input),
      price_micro: ECHO_PRICE_MICRO,
      max_total_micro: req.max_total_micro,
    };
  },
  observe: async (_deps: unknown, asked: EchoAsked): Promise<EchoReading> => ({
    version: 'echo-v1',
    echoed: asked.input.echoed,
  }),
  assess: (asked: EchoAsked, reading: EchoReading) =>
    reading.echoed === 'nothing'
      ? { available: false as const, body: { available: false as const, charge_micro: '0' as const } }
      : {
          available: true as const,
          subject: { resource: asked.input.resource, echoed: reading.echoed, input_sha256: asked.input_sha256 },
          preview: { purpose: 'ai-train', classification: 'ECHOED', decision: 'ECHOED' },
        },
  draft(quoted: { purchase_id: string; input_sha256: string; input: EchoInput }) {
    return {
      evidence: { type: 'echo-evidence', purchase_id: quoted.purchase_id, input_sha256: quoted.input_sha256 },
      checkpoints: [],
      report: () => ({ sku: ECHO_SKU, purchase_id: quoted.purchase_id, resource: quoted.input.echoed }),
    };
  },
};

/** The product as the money path types products: its SKU is not the union's, so it says what it is. */
export const echoProduct = echo as unknown as Product<
  Sku,
  EchoRequest,
  Asked,
  unknown,
  QuotedOf<Sku>['reading'],
  t.TypeOf<typeof EchoUnavailable>
>;

/** Its line in a registry: key-bound (X-Service-Request), offered and paid only at its own POST. */
export const echoListing: ProductListing<Sku, Record<string, never>> = {
  product: echoProduct,
  observer: () => ({}),
  bodies: { delivered: EchoPaid, unavailable: EchoUnavailable },
  paidOnlyAt: ECHO_PATH,
  capability: {
    sku: ECHO_SKU,
    endpoint: ECHO_PATH,
    tiers: { fresh: { base_micro: ECHO_PRICE_MICRO.toString(), per_url_micro: '0' } },
    purposes: ['ai-train'],
  },
  routes: [
    {
      method: 'post',
      path: ECHO_PATH,
      request: EchoRequest,
      serve: (deps, call) =>
        sell(deps, echoProduct, {
          request: call.body as EchoRequest,
          serviceRequest: call.header('x-service-request'),
          paymentSignature: call.header('payment-signature'),
        }),
    },
  ],
  openapi: {
    delivered: 'EchoPaid',
    paths: {
      [ECHO_PATH]: {
        post: {
          summary: 'Echo one URL (a test product)',
          responses: { 200: { description: 'the paid echo, or available:false' } },
        },
      },
    },
    operations: {
      [`post ${ECHO_PATH}`]: { operationId: 'echo', tag: 'Preflight', security: [{ ServiceRequest: [] }] },
    },
    components: { EchoRequest, EchoPaid, EchoUnavailable },
  },
};
