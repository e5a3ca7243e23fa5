import * as t from 'io-ts';

// GET / (JSON): where a newcomer goes next. Links are paths on this service.
export const LandingLinks = t.type(
  {
    capabilities: t.string,
    openapi: t.string,
    api_reference: t.string,
    wire_docs: t.string,
    health: t.string,
    readiness: t.string,
  },
  'LandingLinks',
);

export const Landing = t.type(
  { service: t.string, version: t.string, notice: t.string, links: LandingLinks },
  'Landing',
);
export type Landing = t.TypeOf<typeof Landing>;
